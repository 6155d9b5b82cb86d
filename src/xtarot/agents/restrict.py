"""Restricted players: a bot that may not make some moves ("never claims chi",
"never bids above 7"), to measure what a rule, a move or a card is worth.

A restriction is a rule about single moves: given the seat's decision (its view and
legal moves) it says which legal moves are allowed.  :class:`RestrictedAgent` wraps
any agent and hands it only the allowed moves.  It never leaves a seat without a
move: when a restriction would remove every legal move it is lifted for that
decision (and counted, so a study can say how often that happened).

Restrictions are written ``NAME`` or ``NAME=VALUE``; :data:`RESTRICTIONS` holds them,
each for one game or for every game (``never=TEXT``).  A study gives them to seats
as ``SEAT:RESTRICTION`` with seats counted from 1 (:func:`parse_seat_restrictions`).

>>> import xtarot
>>> from xtarot.agents import RandomAgent, decision_for
>>> state = xtarot.load("grail-mahjong", players=3).new_state(seed=1)
>>> bot = RestrictedAgent(RandomAgent(1), parse_restriction("grail-mahjong", "no-chi"))
>>> bot.act(decision_for(state)).text.startswith("claim chi")
False
>>> [r.name for r in restrictions_for("fairy500")][:3]
['never', 'max-bid', 'no-misere']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from xtarot.agents.base import Agent, Decision, Explanation
from xtarot.engine import Action

__all__ = [
    "RESTRICTIONS",
    "RestrictedAgent",
    "Restriction",
    "Rule",
    "SeatRestriction",
    "parse_restriction",
    "parse_seat_restrictions",
    "restrictions_for",
]

#: ``allowed(decision, action) -> bool`` for one decision's legal moves
Allowed = Callable[[Decision, Action], bool]


@dataclass(frozen=True)
class Restriction:
    """A kind of restriction: its name, the game it is for (``None``: every game),
    whether it takes a value (``"int"``, ``"text"`` or ``None``), what it means (in
    English and Japanese) and how it builds its test from the value."""

    name: str
    game: str | None
    value: str | None
    en: str
    ja: str
    build: Callable[[Any], Allowed] = field(repr=False, compare=False)

    def usage(self) -> str:
        return self.name if self.value is None else f"{self.name}={self.value.upper()}"


@dataclass(frozen=True)
class Rule:
    """A restriction with its value: what a seat may not do."""

    kind: Restriction
    value: Any = None

    @property
    def text(self) -> str:
        return self.kind.name if self.value is None else f"{self.kind.name}={self.value}"

    def allowed(self) -> Allowed:
        return self.kind.build(self.value)


@dataclass(frozen=True)
class SeatRestriction:
    """Restrictions of one seat in play order (0 = the seat that acts first)."""

    seat: int
    rules: tuple[Rule, ...]

    @property
    def text(self) -> str:
        """``'2:no-chi'`` (the seat counted from 1, as people count)."""
        return f"{self.seat + 1}:" + "+".join(r.text for r in self.rules)


# -- the registry ------------------------------------------------------------------------------
def _words(text: str) -> list[str]:
    return text.split()


def _never(prefix: str) -> Allowed:
    words = _words(prefix)

    def allowed(decision: Decision, action: Action) -> bool:
        return _words(action.text)[: len(words)] != words

    return allowed


def _leading(decision: Decision) -> bool:
    trick = decision.view.get("trick")
    return isinstance(trick, dict) and not trick.get("cards")


_F_CARD = re.compile(r"^play F[a-z]$")
_MAJOR = re.compile(r"^play T\d+$")


def _no_lead(pattern: re.Pattern[str]) -> Callable[[Any], Allowed]:
    def build(value: Any) -> Allowed:
        def allowed(decision: Decision, action: Action) -> bool:
            return not (_leading(decision) and pattern.match(action.text))

        return allowed

    return build


_BID = re.compile(r"^bid (\d+)(s|w|d|c|nt)$")


def _max_bid(value: Any) -> Allowed:
    def allowed(decision: Decision, action: Action) -> bool:
        match = _BID.match(action.text)
        return match is None or int(match.group(1)) <= value

    return allowed


_BUY = re.compile(r"^buy T(\d+)$")


def _max_buy(value: Any) -> Allowed:
    def allowed(decision: Decision, action: Action) -> bool:
        match = _BUY.match(action.text)
        return match is None or int(match.group(1)) <= value

    return allowed


def _prefixes(*prefixes: str) -> Callable[[Any], Allowed]:
    tests = [_never(p) for p in prefixes]

    def build(value: Any) -> Allowed:
        return lambda decision, action: all(t(decision, action) for t in tests)

    return build


_REGISTRY: list[Restriction] = [
    Restriction(
        "never",
        None,
        "text",
        "never a move whose text begins with TEXT (whole words: never=claim chi, "
        "never=draw discard)",
        "TEXT で始まる手を指さない（語単位：never=claim chi、never=draw discard）",
        _never,
    ),
    Restriction(
        "max-bid",
        "fairy500",
        "int",
        "never bids a trick contract above N tricks (6–10; misères stay allowed)",
        "N トリックを超えるトリック契約をビッドしない（6〜10、ミゼールは可）",
        _max_bid,
    ),
    Restriction(
        "no-misere",
        "fairy500",
        None,
        "never bids misère of any kind",
        "ミゼールを一切ビッドしない",
        _prefixes("bid misere", "bid hand-misere", "bid open-misere", "bid open-hand-misere"),
    ),
    Restriction(
        "no-nt",
        "fairy500",
        None,
        "never bids no trumps",
        "ノートランプをビッドしない",
        lambda v: lambda d, a: not (a.text.startswith("bid ") and a.text.endswith("nt")),
    ),
    Restriction(
        "no-lead-f",
        "fairy500",
        None,
        "never leads a trick with an F card",
        "F のカードでトリックをリードしない",
        _no_lead(_F_CARD),
    ),
    Restriction(
        "no-chi",
        "grail-mahjong",
        None,
        "never claims a discard for a chi",
        "捨て札をチーで鳴かない",
        _prefixes("claim chi"),
    ),
    Restriction(
        "no-pon",
        "grail-mahjong",
        None,
        "never claims a discard for a pon",
        "捨て札をポンで鳴かない",
        _prefixes("claim pon"),
    ),
    Restriction(
        "no-claims",
        "grail-mahjong",
        None,
        "never claims a discard (neither pon nor chi)",
        "捨て札を一切鳴かない（ポンもチーも）",
        _prefixes("claim"),
    ),
    Restriction(
        "no-luck",
        "grail-mahjong",
        None,
        "never plays Lc (luck)",
        "Lc（ラック）を使わない",
        _prefixes("luck"),
    ),
    Restriction(
        "no-lead-f",
        "extendori",
        None,
        "never leads a trick with an F card",
        "F のカードでトリックをリードしない",
        _no_lead(_F_CARD),
    ),
    Restriction(
        "no-lead-major",
        "extendori",
        None,
        "never leads a trick with a major (T0–T23)",
        "大アルカナ（T0〜T23）でトリックをリードしない",
        _no_lead(_MAJOR),
    ),
    Restriction(
        "no-lot-2",
        "sono-arcana",
        None,
        "as parent, never turns up a second talisman",
        "親のとき、2枚目の護符をめくらない",
        _prefixes("lot 2"),
    ),
    Restriction(
        "no-face-down",
        "sono-arcana",
        None,
        "as parent, never bids face down",
        "親のとき、裏向きでビッドしない",
        _prefixes("bid down"),
    ),
    Restriction(
        "no-face-up",
        "sono-arcana",
        None,
        "as parent, never bids face up",
        "親のとき、表向きでビッドしない",
        _prefixes("bid up"),
    ),
    Restriction(
        "no-discard-draw",
        "matto",
        None,
        "never takes the discard pile's top card",
        "捨て札の一番上を取らない",
        _prefixes("draw discard"),
    ),
    Restriction(
        "max-buy",
        "matto",
        "int",
        "never buys a major numbered above N",
        "N より大きい番号の大アルカナを買わない",
        _max_buy,
    ),
    Restriction(
        "no-down-attack",
        "arcana-duel",
        None,
        "never attacks a face-down card",
        "裏向きのカードを攻撃しない",
        _prefixes("at down"),
    ),
]

#: Every restriction by (game or ``None``, name).
RESTRICTIONS: dict[tuple[str | None, str], Restriction] = {(r.game, r.name): r for r in _REGISTRY}


def restrictions_for(game: str) -> list[Restriction]:
    """The restrictions a game's seats can be given (the generic ones first)."""
    return [r for r in _REGISTRY if r.game in (None, game)]


def _allowed_list(game: str) -> str:
    return ", ".join(r.usage() for r in restrictions_for(game))


def parse_restriction(game: str, text: str) -> Rule:
    """``'no-chi'``, ``'max-bid=7'``, ``'never=claim chi'`` -> a :class:`Rule`.

    Raises ``ValueError`` naming the game's restrictions.
    """
    name, eq, raw = text.strip().partition("=")
    name = name.strip()
    kind = RESTRICTIONS.get((game, name)) or RESTRICTIONS.get((None, name))
    if kind is None:
        raise ValueError(
            f"unknown restriction {name!r} for {game}; restrictions: {_allowed_list(game)}"
        )
    raw = raw.strip()
    if kind.value is None:
        if eq:
            raise ValueError(f"restriction {name!r} takes no value (write {kind.usage()})")
        return Rule(kind)
    if not raw:
        raise ValueError(f"restriction {name!r} needs a value: {kind.usage()}")
    if kind.value == "int":
        try:
            return Rule(kind, int(raw))
        except ValueError:
            raise ValueError(
                f"restriction {name!r} takes a whole number, not {raw!r} ({kind.usage()})"
            ) from None
    return Rule(kind, " ".join(raw.split()))


def parse_seat_restrictions(
    game: str, players: int, specs: Sequence[str]
) -> tuple[SeatRestriction, ...]:
    """``["2:no-chi", "1:max-bid=7+no-nt"]`` -> restrictions by seat in play order.

    A spec is ``SEAT:RESTRICTION[+RESTRICTION…]``, the seat counted from 1 (Seat 1 acts
    first); several specs may be joined with ``;``.  A seat given twice gets every
    restriction given to it.
    """
    by_seat: dict[int, list[Rule]] = {}
    items = [part for spec in specs for part in str(spec).split(";") if part.strip()]
    for item in items:
        seat_text, colon, rest = item.partition(":")
        seat_text = seat_text.strip()
        if not colon or not seat_text.isdigit() or not rest.strip():
            raise ValueError(
                f"a restriction is SEAT:NAME[=VALUE] with the seat from 1 (e.g. 2:no-chi), "
                f"not {item.strip()!r}; restrictions for {game}: {_allowed_list(game)}"
            )
        seat = int(seat_text)
        if not 1 <= seat <= players:
            raise ValueError(f"restricted seat {seat}: seats are 1 to {players}")
        rules = by_seat.setdefault(seat - 1, [])
        for part in rest.split("+"):
            rule = parse_restriction(game, part)
            if rule not in rules:
                rules.append(rule)
    return tuple(SeatRestriction(s, tuple(r)) for s, r in sorted(by_seat.items()))


class RestrictedAgent:
    """An agent that chooses only among the moves its rules allow.

    ``removed``: decisions where the rules took away at least one move; ``lifted``:
    decisions where they would have taken every move, so none was taken."""

    def __init__(self, inner: Agent, *rules: Rule) -> None:
        self.inner = inner
        self.rules = rules
        self.name = f"{inner.name}[{'+'.join(r.text for r in rules)}]"
        self._tests = [r.allowed() for r in rules]
        self.removed = 0
        self.lifted = 0

    def allowed(self, decision: Decision) -> list[Action]:
        """The legal moves the rules allow (every legal move when they allow none)."""
        kept = [a for a in decision.legal if all(t(decision, a) for t in self._tests)]
        if not kept:
            self.lifted += 1
            return list(decision.legal)
        if len(kept) < len(decision.legal):
            self.removed += 1
        return kept

    def act(self, decision: Decision) -> Action:
        kept = self.allowed(decision)
        if len(kept) == len(decision.legal):
            return self.inner.act(decision)
        view = decision.view
        if "legal_actions" in view:
            view = {**view, "legal_actions": [a.text for a in kept]}
        action = self.inner.act(replace(decision, view=view, legal=kept))
        if action not in kept and action.text not in {a.text for a in kept}:
            return kept[0]  # an agent that ignored the list it was given
        return action

    def explain(self) -> Explanation | None:
        return self.inner.explain()
