"""Observation tensors: one small, documented encoder per game, built from a seat's view.

An encoder turns ``state.view(seat)`` (and nothing else) into a flat list of floats of
a fixed length for one game configuration, so the tensor of a seat is identical in
every world ``state.sample_world(seat, rng)`` can return (the leak test of the
conformance kit carries over to tensors; ``tests/test_adapters.py`` checks it).

Every encoder is a list of *fields*, each a named slice of the tensor:

- ``cards``: one-hot over the game's card list (every card of the match, in deck order
  ``Card.index``); a wild written ``Oc=3c`` counts as ``Oc``;
- ``seat cards``: one such block per seat, **seat-relative** (block 0 is the observing
  seat, block 1 the next seat in seat order, ...);
- ``played``: like ``seat cards``, from ``[seat, card]`` pairs or ``{"seat", "card"}``;
- ``number``: one value, divided by a fixed scale;
- ``seat numbers``: one value per seat, seat-relative, scaled;
- ``seat``: one-hot over the relative seats plus a last slot for "nobody";
- ``seats``: multi-hot over relative seats;
- ``choice``: one-hot over listed values plus a last slot for "none / other";
- ``actions``: multi-hot over the game's action ids (action texts in the view).

Every game starts with the same common fields (phase, seat to act, own hand, hand
sizes, score totals); ``describe(game)`` lists the layout and
``docs/adapters/openspiel.md`` shows it per game.  A game without a dedicated encoder
gets the common fields plus every card visible anywhere else in the view (the generic
fallback).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from xtarot.cards import card
from xtarot.engine.core import Game

__all__ = ["Encoder", "Field", "describe", "encoder_for"]

Getter = Callable[[dict[str, Any]], Any]


@dataclass(frozen=True)
class Field:
    """One named slice of a tensor."""

    name: str
    kind: str
    get: Getter
    scale: float = 1.0
    choices: tuple[Any, ...] = ()
    meaning: str = ""


def _key(name: str) -> Getter:
    return lambda v: v.get(name)


def _sub(name: str, sub: str) -> Getter:
    def get(v: dict[str, Any]) -> Any:
        value = v.get(name)
        return value.get(sub) if isinstance(value, dict) else None

    return get


def _card_codes(value: Any, index: dict[str, int], out: list[int] | None = None) -> list[int]:
    """Every card index found anywhere inside a JSON value."""
    if out is None:
        out = []
    if value.__class__ is str:
        i = index.get(value)
        if i is None and "=" in value:
            i = index.get(value.split("=", 1)[0])
        if i is not None:
            out.append(i)
    elif value.__class__ is list or value.__class__ is tuple:
        for item in value:
            _card_codes(item, index, out)
    elif value.__class__ is dict:
        for item in value.values():
            _card_codes(item, index, out)
    return out


def _pairs(value: Any, out: list[tuple[int, str]] | None = None) -> list[tuple[int, str]]:
    """``(seat, card)`` from ``[seat, card]`` pairs or ``{"seat": s, "card": c}`` dicts."""
    if out is None:
        out = []
    cls = value.__class__
    if cls is dict:
        seat = value.get("seat")
        found = value.get("card")
        if seat.__class__ is int and found.__class__ is str:
            out.append((seat, found))
            return out
        for item in value.values():
            if item.__class__ is list or item.__class__ is dict:
                _pairs(item, out)
    elif cls is list or cls is tuple:
        if len(value) == 2 and value[0].__class__ is int and value[1].__class__ is str:
            out.append((value[0], value[1]))
            return out
        for item in value:
            if item.__class__ is list or item.__class__ is dict or item.__class__ is tuple:
                _pairs(item, out)
    return out


def _common(phases: Sequence[str], score_scale: float) -> list[Field]:
    return [
        Field("phase", "choice", _key("phase"), choices=tuple(phases), meaning="the phase"),
        Field("current_player", "seat", _key("current_player"), meaning="seat to act"),
        Field("hand", "cards", _key("hand"), meaning="own hand"),
        Field("hand_sizes", "seat numbers", _key("hand_sizes"), 20.0, meaning="cards in hand"),
        Field(
            "score_totals",
            "seat numbers",
            lambda v: v["scores"]["totals"],
            score_scale,
            meaning="running score totals",
        ),
    ]


def _sono_arcana(game: Game) -> list[Field]:
    return [
        *_common(("lot", "bid", "play", "over"), 24.0),
        Field("parent", "seat", _key("parent"), meaning="the parent (親)"),
        Field("round", "number", _key("round"), 24.0),
        Field("final_round", "number", _key("final_round")),
        Field("talismans_left", "number", _key("talismans_left"), 24.0),
        Field("lot", "cards", _key("lot"), meaning="talismans at stake (場札)"),
        Field("mode", "choice", _key("mode"), choices=("up", "down")),
        Field("led_suit", "choice", _key("led_suit"), choices=("c", "d", "s", "w")),
        Field("table", "played", _key("table"), meaning="cards played this round, by seat"),
        Field("won", "seat cards", _key("won"), meaning="talismans won, by seat"),
        Field("rounds", "played", _key("rounds"), meaning="cards played in past rounds"),
    ]


def _matto(game: Game) -> list[Field]:
    return [
        *_common(("draw", "buy", "pay", "over"), 22.0),
        Field("dealer", "seat", _key("dealer")),
        Field("turn", "number", _key("turn"), 50.0),
        Field("field", "cards", _key("field"), meaning="majors on the field"),
        Field("majors_left", "number", _key("majors_left"), 22.0),
        Field("stock_left", "number", _key("stock_left"), 56.0),
        Field("discard", "cards", _key("discard"), meaning="the discard pile"),
        Field("discard_top", "cards", _key("discard_top")),
        Field("known_in_hands", "seat cards", _key("known_in_hands"), meaning="known cards"),
        Field("won", "seat cards", _key("won"), meaning="majors bought, by seat"),
        Field("buying", "cards", _key("buying"), meaning="major being bought, cards paid"),
        Field("buying_owed", "number", _sub("buying", "owed"), 21.0),
        Field("last_turn", "number", _key("last_turn")),
    ]


def _arcana_duel(game: Game) -> list[Field]:
    def face_up(v: dict[str, Any]) -> list[list[str]]:
        return [[c["card"] for c in f["face_up"]] for f in v["fields"]]

    def attacked(v: dict[str, Any]) -> list[list[str]]:
        return [[c["card"] for c in f["face_up"] if c.get("attacked")] for f in v["fields"]]

    return [
        *_common(("setup", "attack", "defend", "refill", "reset", "over"), 60.0),
        Field("first_attacker", "seat", _key("first_attacker")),
        Field("attacker", "seat", _key("attacker")),
        Field("turn", "number", _key("turn"), 40.0),
        Field("stock_left", "number", _key("stock_left"), 80.0),
        Field("field_face_up", "seat cards", face_up, meaning="face-up field cards"),
        Field("field_attacked", "seat cards", attacked, meaning="field cards already attacked"),
        Field(
            "field_face_down",
            "seat numbers",
            lambda v: [f["face_down"] for f in v.get("fields") or ()],
            8.0,
        ),
        Field(
            "own_face_down",
            "cards",
            lambda v: v["fields"][v["seat"]].get("face_down_cards", []),
            meaning="own face-down field cards",
        ),
        Field("points", "seat cards", _key("points"), meaning="point piles (face up)"),
        Field(
            "points_count",
            "seat numbers",
            lambda v: [p["count"] for p in v.get("points") or ()],
            80.0,
        ),
        Field("attack", "cards", _key("attack"), meaning="the attack in progress"),
        Field("attack_power", "number", _sub("attack", "power"), 60.0),
        Field("attacks_made", "number", _key("attacks_made"), 8.0),
        Field("lost_this_turn", "number", _key("lost_this_turn"), 8.0),
    ]


def _grail_mahjong(game: Game) -> list[Field]:
    return [
        *_common(("turn", "claim", "over"), 20.0),
        Field("hand_number", "number", _key("hand_number"), 10.0),
        Field("dealer", "seat", _key("dealer")),
        Field("stock_count", "number", _key("stock_count"), 60.0),
        Field("melds", "seat cards", _key("melds"), meaning="open melds, by seat"),
        Field("areas", "seat cards", _key("areas"), meaning="areas, by seat"),
        Field("discards", "played", _key("discards"), meaning="discards, by seat"),
        Field("claim", "cards", _sub("claim", "card"), meaning="the discard open to claims"),
        Field("claim_from", "seat", _sub("claim", "seat")),
        Field("my_answer", "actions", _key("my_answer"), meaning="own claim answer"),
    ]


_VOID_BITS = {"c": 1, "d": 2, "s": 4, "w": 8}


def _extendori(game: Game) -> list[Field]:
    return [
        *_common(("play", "over"), 500.0),
        Field("hand_number", "number", _key("hand_number"), 8.0),
        Field("first", "seat", _key("first")),
        Field("dealer", "seat", _key("dealer")),
        Field("batch", "number", _key("batch"), 2.0),
        Field("stock_count", "number", _key("stock_count"), 112.0),
        Field("trick_leader", "seat", _sub("trick", "leader")),
        Field("led_suit", "choice", _sub("trick", "led_suit"), choices=("c", "d", "s", "w")),
        Field("trick", "played", _sub("trick", "cards"), meaning="the trick so far, by seat"),
        Field("tricks", "played", _key("tricks"), meaning="cards of past tricks, by seat"),
        Field("hand_points", "seat numbers", _key("hand_points"), 300.0),
        Field(
            "voids",
            "seat numbers",
            lambda v: [sum(_VOID_BITS.get(s, 16) for s in vs) for vs in v.get("voids") or ()],
            31.0,
            meaning="known voids, bit mask c=1 d=2 s=4 w=8 trumps=16, /31",
        ),
    ]


def _fairy500(game: Game) -> list[Field]:
    def bids(v: dict[str, Any]) -> list[list[str]]:
        out: list[list[str]] = [[] for _ in range(game.players)]
        for seat, text in v.get("auction") or ():
            out[seat].append(text)
        return out

    return [
        *_common(("auction", "discard", "play", "over"), 500.0),
        Field("hand_number", "number", _key("hand_number"), 20.0),
        Field("dealer", "seat", _key("dealer")),
        Field("auction", "seat actions", bids, meaning="bids made, by seat"),
        Field("passed", "seats", _key("passed")),
        Field("high_bid", "actions", _key("high_bid")),
        Field("high_bidder", "seat", _key("high_bidder")),
        Field("declarer", "seat", _sub("contract", "declarer")),
        Field("called", "cards", _key("called"), meaning="called partner cards"),
        Field("partners", "seats", _key("partners")),
        Field("is_partner", "number", _key("is_partner")),
        Field("kitty", "cards", _key("kitty"), meaning="the kitty, when seen"),
        Field("discards", "cards", _key("discards"), meaning="own discards"),
        Field("open_hand", "cards", _key("open_hand"), meaning="the open hand"),
        Field("trick", "played", _sub("trick", "cards"), meaning="the trick so far"),
        Field("tricks", "played", _key("tricks"), meaning="cards of past tricks"),
        Field("tricks_won", "seat numbers", _key("tricks_won"), 10.0),
    ]


_SPECS: dict[str, Callable[[Game], list[Field]]] = {
    "sono-arcana": _sono_arcana,
    "matto": _matto,
    "arcana-duel": _arcana_duel,
    "grail-mahjong": _grail_mahjong,
    "extendori": _extendori,
    "fairy500": _fairy500,
}

_SKIP = {"game", "players", "seat", "phase", "current_player", "hand", "legal_actions", "scores"}


def _generic(game: Game) -> list[Field]:
    return [
        *_common((), 100.0),
        Field(
            "visible",
            "cards",
            lambda v: [val for k, val in v.items() if k not in _SKIP],
            meaning="every other card in the view",
        ),
    ]


def _size(f: Field, n: int, c: int, a: int) -> int:
    return {
        "cards": c,
        "seat cards": n * c,
        "played": n * c,
        "number": 1,
        "seat numbers": n,
        "seat": n + 1,
        "seats": n,
        "choice": len(f.choices) + 1,
        "actions": a,
        "seat actions": n * a,
    }[f.kind]


class Encoder:
    """The tensor encoder of one game configuration (a ``Game``)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.players = n = game.players
        codes: set[str] = set()
        for zone in game.new_state(seed=0).zones().values():
            codes.update(zone)
        self.cards: tuple[str, ...] = tuple(sorted(codes, key=lambda x: card(x).index))
        self.index = {code: i for i, code in enumerate(self.cards)}
        self.fields = _SPECS.get(game.id, _generic)(game)
        self.offsets: list[tuple[Field, int, int]] = []
        start = 0
        for f in self.fields:
            size = _size(f, n, len(self.cards), game.num_actions)
            self.offsets.append((f, start, size))
            start += size
        self.size = start

    def _action_ids(self, value: Any) -> Iterable[int]:
        if isinstance(value, str):
            found = self.game.actions.parse(value)
            if found is not None:
                yield found.id
        elif isinstance(value, list | tuple):
            for item in value:
                yield from self._action_ids(item)

    def encode(self, view: dict[str, Any]) -> list[float]:
        """The tensor of a seat's view (``view["seat"]`` is the observer)."""
        out = [0.0] * self.size
        n = self.players
        me = view.get("seat") or 0
        c = len(self.cards)
        index = self.index
        for f, start, _size in self.offsets:
            value = f.get(view)
            kind = f.kind
            if kind == "cards":
                for i in _card_codes(value, index):
                    out[start + i] = 1.0
            elif kind == "seat cards":
                for seat, item in enumerate(value or ()):
                    base = start + ((seat - me) % n) * c
                    for i in _card_codes(item, index):
                        out[base + i] = 1.0
            elif kind == "played":
                for seat, code in _pairs(value):
                    i = index.get(code)
                    if i is None and "=" in code:
                        i = index.get(code.split("=", 1)[0])
                    if i is not None:
                        out[start + ((seat - me) % n) * c + i] = 1.0
            elif kind == "number":
                out[start] = float(value or 0) / f.scale
            elif kind == "seat numbers":
                for seat, x in enumerate(value or ()):
                    out[start + (seat - me) % n] = float(x or 0) / f.scale
            elif kind == "seat":
                out[start + (n if value is None else (value - me) % n)] = 1.0
            elif kind == "seats":
                for seat in value or ():
                    out[start + (seat - me) % n] = 1.0
            elif kind == "choice":
                k = f.choices.index(value) if value in f.choices else len(f.choices)
                out[start + k] = 1.0
            elif kind == "actions":
                for i in self._action_ids(value):
                    out[start + i] = 1.0
            elif kind == "seat actions":
                a = self.game.num_actions
                for seat, item in enumerate(value or ()):
                    for i in self._action_ids(item):
                        out[start + ((seat - me) % n) * a + i] = 1.0
        return out

    def layout(self) -> list[tuple[str, int, int, str, str]]:
        """``(name, start, size, kind, meaning)`` for every slice."""
        return [(f.name, s, z, f.kind, f.meaning) for f, s, z in self.offsets]


_CACHE: dict[tuple[str, int, tuple[tuple[str, Any], ...]], Encoder] = {}


def encoder_for(game: Game) -> Encoder:
    """The (cached) encoder of a game configuration."""
    key = (game.id, game.players, tuple(sorted(game.options.items())))
    enc = _CACHE.get(key)
    if enc is None:
        enc = _CACHE[key] = Encoder(game)
    return enc


def describe(game: Game) -> str:
    """The layout of a game's tensor as a Markdown table."""
    enc = encoder_for(game)
    rows = []
    for f, start, size in enc.offsets:
        notes = [f.meaning] if f.meaning else []
        if f.kind in ("number", "seat numbers"):
            notes.append(f"value / {f.scale:g}")
        if f.kind == "choice":
            notes.append("one of " + ", ".join(map(str, f.choices)) + ", none/other")
        if f.kind == "seat":
            notes.append("relative seat, last slot: nobody")
        rows.append(f"| `{f.name}` | {start}..{start + size - 1} | {f.kind} | {'; '.join(notes)} |")
    head = (
        f"{game.id}, {game.players} players: {enc.size} floats, {len(enc.cards)} cards\n\n"
        "| slice | range | kind | meaning |\n|---|---|---|---|"
    )
    return "\n".join([head, *rows])
