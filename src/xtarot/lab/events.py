"""What happened in a finished match, per game: the events a rule designer counts.

``events_of(state)`` reads only the finished state's public record (the public view,
``scores().detail`` and the action texts), so it works for every agent and never needs
the games to keep extra counters.  Every event is a number per match: a count
(``end.agari`` = hands that ended in agari) or a measure (``misere.value``).  Names are
``group.what``; the lab reports each as a mean per match, the share of matches where it
happened, and a rate per hand (matches of several hands).

>>> import xtarot
>>> from xtarot.agents import RandomAgent, play_match
>>> state = play_match(xtarot.load("arcana-duel"), [RandomAgent(1), RandomAgent(2)], seed=3)
>>> sorted(events_of(state))[:3]
['attack.at_down', 'attack.won', 'combats']
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xtarot.engine import Scores, State

__all__ = ["EVENTS", "events_of", "fairy500_hands", "first_seat", "totals_decide"]

Events = dict[str, float]


def _sono_arcana(state: State, view: dict[str, Any], detail: dict[str, Any]) -> Events:
    rounds = view.get("rounds") or []
    out: Events = {
        "rounds": len(rounds),
        "round.face_up": sum(1 for r in rounds if r.get("mode") == "up"),
        "round.face_down": sum(1 for r in rounds if r.get("mode") == "down"),
        "round.two_talismans": sum(1 for r in rounds if len(r.get("lot") or []) >= 2),
        "round.void_cards": sum(1 for r in rounds if r.get("void")),
        "round.parent_wins": sum(1 for r in rounds if r.get("winner") == r.get("parent")),
        "talismans.spoilt": sum(len(x) for x in detail.get("face_down") or []),
    }
    return out


def fairy500_hands(detail: dict[str, Any]) -> list[dict[str, Any]]:
    """Every hand of a finished fairy500 match, from ``scores().detail``, in one shape:
    ``kind`` (``contract``, ``misere``, ``ramsch``, ``ten_per_trick``, ``redeal``),
    ``declarer`` (``None`` without one), ``bid`` (its text, ``""`` without one),
    ``made``, ``called`` (the called cards), ``partners`` (seat -> called cards held,
    the declarer's own excluded), ``held_by_declarer`` (called cards that ended in the
    declarer's hand or discards, the kitty's included), ``side_tricks`` (the
    declarer's side; misère: the declarer's), ``tricks`` and ``points`` per seat.
    The lab's events and ``benchmarks/bench_bidding.py`` both read hands through it.

    >>> import xtarot
    >>> from xtarot.agents import make_agent, play_match
    >>> game = xtarot.load("fairy500", players=4, hands=1)
    >>> state = play_match(game, [make_agent("heuristic", s) for s in range(4)], seed=5)
    >>> hand = fairy500_hands(state.scores().detail)[0]
    >>> hand["kind"], hand["declarer"], hand["bid"], hand["made"], hand["partners"]
    ('contract', 1, 'bid 6c', True, {3: 1})
    """
    out = []
    for hand in detail.get("hands") or []:
        inner = hand.get("detail") or {}
        kind = str(hand.get("kind"))
        declarer = hand.get("declarer")
        tricks = [int(t) for t in hand.get("tricks") or []]
        if kind == "misere":
            side_tricks = int(inner.get("declarer_tricks", 0))
        else:
            side_tricks = int(inner.get("side_tricks", 0))
        out.append(
            {
                "kind": kind,
                "declarer": None if declarer is None else int(declarer),
                "bid": str(hand.get("bid") or ""),
                "made": bool(inner.get("made")),
                "slam": bool(inner.get("bonus")),
                "called": list(hand.get("called") or []),
                "partners": {
                    int(s): int(k)
                    for s, k in (inner.get("partners") or {}).items()
                    if int(s) != declarer
                },
                "held_by_declarer": int(inner.get("called_held_by_declarer", 0)),
                "side_tricks": side_tricks,
                "tricks": tricks,
                "points": [float(x) for x in hand.get("points") or []],
            }
        )
    return out


def _fairy500(state: State, view: dict[str, Any], detail: dict[str, Any]) -> Events:
    out: Events = {
        "hand.played": 0,
        "hand.redeal": 0,
        "contract.made": 0,
        "contract.failed": 0,
        "contract.no_trump": 0,
        "contract.slam": 0,
        "misere.made": 0,
        "misere.failed": 0,
        "misere.open": 0,
        "hand.ramsch": 0,
        "hand.ten_per_trick": 0,
    }
    for hand in fairy500_hands(detail):
        kind = hand["kind"]
        if kind == "redeal":
            out["hand.redeal"] += 1
            continue
        out["hand.played"] += 1
        bid, made = hand["bid"], hand["made"]
        if kind == "contract":
            out["contract.made" if made else "contract.failed"] += 1
            if bid.endswith("nt"):
                out["contract.no_trump"] += 1
            if made and hand["slam"]:
                out["contract.slam"] += 1
        elif kind == "misere":
            out["misere.made" if made else "misere.failed"] += 1
            if "open" in bid:
                out["misere.open"] += 1
        elif kind == "ramsch":
            out["hand.ramsch"] += 1
        elif kind == "ten_per_trick":
            out["hand.ten_per_trick"] += 1
    return out


def _grail_mahjong(state: State, view: dict[str, Any], detail: dict[str, Any]) -> Events:
    out: Events = {"end.agari": 0, "end.rest": 0, "end.stock": 0, "hand.shared_win": 0}
    out["hand.luck"] = 0
    for result in view.get("results") or []:
        end = str(result.get("end"))
        out[f"end.{end}"] = out.get(f"end.{end}", 0) + 1
        if len(result.get("winners") or []) > 1:
            out["hand.shared_win"] += 1
        if result.get("luck"):
            out["hand.luck"] += 1
    verbs: dict[str, int] = {}
    for action in state.history:
        words = action.text.split()
        verb = words[1] if words[0] == "claim" else words[0]
        key = f"claim.{verb}" if words[0] == "claim" else verb
        verbs[key] = verbs.get(key, 0) + 1
    for key in ("claim.pon", "claim.chi", "pon", "chi", "add"):
        out[f"melds.{key}"] = verbs.get(key, 0)
    return out


def _extendori(state: State, view: dict[str, Any], detail: dict[str, Any]) -> Events:
    hands = detail.get("hands") or []
    out: Events = {"hand.played": len(hands), "hand.zero_point_seats": 0}
    top = 0.0
    for points in hands:
        out["hand.zero_point_seats"] += sum(1 for p in points if p == 0)
        total = sum(points)
        top += max(points) / total if total else 0.0
    out["top_share"] = top / len(hands) if hands else 0.0
    return out


_MATTO_SETS = {
    "hell": ("T12", "T13", "T15"),
    "heavens": ("T17", "T18", "T19"),
    "world": ("T20", "T21"),
}


def _matto(state: State, view: dict[str, Any], detail: dict[str, Any]) -> Events:
    won = view.get("won") or []
    purchases = view.get("purchases") or []
    out: Events = {
        "fool.taken": float(any(detail.get("fool") or [])),
        "end.majors_out": float(view.get("majors_left") == 0),
        "end.stock_out": float(view.get("stock_left") == 0),
        "purchases": len(purchases),
        "draw.discard": sum(1 for a in state.history if a.text == "draw discard"),
    }
    for name, cards in _MATTO_SETS.items():
        out[f"set.{name}"] = sum(1 for w in won if all(c in w for c in cards))
    return out


def _arcana_duel(state: State, view: dict[str, Any], detail: dict[str, Any]) -> Events:
    combats = view.get("combats") or []
    end = str(detail.get("end"))
    points = detail.get("points") or [0, 0]
    out: Events = {
        "end.annihilation": float(end == "annihilation"),
        "end.stock_out": float(end == "stock_out"),
        "end.level_points": float(len(set(points)) == 1),
        "combats": len(combats),
        "attack.won": sum(1 for c in combats if c.get("result") == "attacker"),
        "attack.at_down": sum(1 for c in combats if c.get("target") == "down"),
    }
    return out


#: Event extractors by game id: ``f(state, public_view, scores().detail)``; the view is
#: peeked (``state.peek_public_view()``): an extractor reads it and neither keeps nor
#: changes it.
EVENTS: dict[str, Callable[[State, dict[str, Any], dict[str, Any]], Events]] = {
    "sono-arcana": _sono_arcana,
    "fairy500": _fairy500,
    "grail-mahjong": _grail_mahjong,
    "extendori": _extendori,
    "matto": _matto,
    "arcana-duel": _arcana_duel,
}


#: Games whose first decision is not the first seat's role (arcana-duel: both players lay
#: their field, seat 0 first, before the first attacker attacks).
_FIRST_ROLE = {"arcana-duel": "first_attacker"}


def first_seat(state: State) -> int:
    """The seat that acts first in the match, as the rulebook sees it (the parent, the
    player left of the dealer, player #1, the first attacker), from a fresh state.

    >>> import xtarot
    >>> state = xtarot.load("arcana-duel").new_state(seed=1)
    >>> first_seat(state) == state.deals[0]["first_attacker"]
    True
    """
    key = _FIRST_ROLE.get(state.game.id)
    if key is not None and key in state.deals[0]:
        return int(state.deals[0][key])
    seat = state.current_player
    return 0 if seat is None else seat


def events_of(state: State, scores: Scores | None = None) -> Events:
    """The events of a finished match (``{}`` for a game the lab does not know);
    ``scores``: its ``state.scores()`` if the caller has them already."""
    extract = EVENTS.get(state.game.id)
    if extract is None:
        return {}
    # the public view peeked, not copied: the extractors only read it, at once (its
    # JSON round trip was most of the cost of a match's events; issue #40)
    view = state.peek_public_view()
    detail = (scores if scores is not None else state.scores()).detail
    return {k: float(v) for k, v in extract(state, view, detail).items()}


#: Games where something other than the totals can decide a match, and how to tell
#: from its events that the totals did (arcana-duel: an annihilation wins whatever
#: the points piles hold).
_TOTALS_DECIDE: dict[str, Callable[[dict[str, float]], bool]] = {
    "arcana-duel": lambda events: not events.get("end.annihilation"),
}


def totals_decide(game: str, events: dict[str, float]) -> bool:
    """Whether a finished match was decided by its totals (its events tell), so
    compensation points added to the totals may change its ranks.

    >>> totals_decide("arcana-duel", {"end.annihilation": 1.0}), totals_decide("matto", {})
    (False, True)
    """
    test = _TOTALS_DECIDE.get(game)
    return True if test is None else bool(test(events))
