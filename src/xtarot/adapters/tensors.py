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
sizes, score totals: :func:`common_fields`); ``describe(game)`` lists the layout and
``docs/adapters/tensors.md`` shows it per game.  The fields of a game come from its
*tensor spec*, a function ``game -> list[Field]`` looked up by game id
(:func:`tensor_spec`); the six games have built-in specs and a plugin game registers
its own with :func:`register_tensor_spec`.  A game without one gets the common fields
plus every card visible anywhere else in the view (:func:`generic_fields`).
"""

from __future__ import annotations

import operator
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from xtarot.adapters.direct import DIRECT as _DIRECT
from xtarot.adapters.direct import FastFn
from xtarot.cards import card
from xtarot.engine.core import Game, State
from xtarot.engine.plugins import LazyRegistry

__all__ = [
    "KINDS",
    "Encoder",
    "Field",
    "FieldsFn",
    "common_fields",
    "describe",
    "encoder_for",
    "generic_fields",
    "register_tensor_spec",
    "tensor_spec",
    "unregister_tensor_spec",
]

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
    #: a ``played`` history the encoder may encode a little at a time: the value is a
    #: list that only grows (until it starts over, say at a new hand) and each item,
    #: once listed, is the same object every time and never changes (the game keeps
    #: its JSON, as the finished tricks); then only the items not met before are read
    stable_items: bool = False


def _key(name: str) -> Getter:
    return lambda v: v.get(name)


def _sub(name: str, sub: str) -> Getter:
    def get(v: dict[str, Any]) -> Any:
        value = v.get(name)
        return value.get(sub) if isinstance(value, dict) else None

    return get


def common_fields(phases: Sequence[str], score_scale: float) -> list[Field]:
    """The fields every game starts with: phase, seat to act, own hand, hand sizes and
    running score totals (``phases`` lists the phase names, ``score_totals`` is divided
    by ``score_scale``)."""
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
        *common_fields(("lot", "bid", "play", "over"), 24.0),
        Field("parent", "seat", _key("parent"), meaning="the parent (親)"),
        Field("round", "number", _key("round"), 24.0),
        Field("final_round", "number", _key("final_round")),
        Field("talismans_left", "number", _key("talismans_left"), 24.0),
        Field("lot", "cards", _key("lot"), meaning="talismans at stake (場札)"),
        Field("mode", "choice", _key("mode"), choices=("up", "down")),
        Field("led_suit", "choice", _key("led_suit"), choices=("c", "d", "s", "w")),
        Field("table", "played", _key("table"), meaning="cards played this round, by seat"),
        Field("won", "seat cards", _key("won"), meaning="talismans won, by seat"),
        Field(
            "rounds",
            "played",
            _key("rounds"),
            meaning="cards played in past rounds",
            stable_items=True,
        ),
    ]


def _matto(game: Game) -> list[Field]:
    return [
        *common_fields(("draw", "buy", "pay", "over"), 22.0),
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
        *common_fields(("setup", "attack", "defend", "refill", "reset", "over"), 60.0),
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
        *common_fields(("turn", "claim", "over"), 20.0),
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
        *common_fields(("play", "over"), 500.0),
        Field("hand_number", "number", _key("hand_number"), 8.0),
        Field("first", "seat", _key("first")),
        Field("dealer", "seat", _key("dealer")),
        Field("batch", "number", _key("batch"), 2.0),
        Field("stock_count", "number", _key("stock_count"), 112.0),
        Field("trick_leader", "seat", _sub("trick", "leader")),
        Field("led_suit", "choice", _sub("trick", "led_suit"), choices=("c", "d", "s", "w")),
        Field("trick", "played", _sub("trick", "cards"), meaning="the trick so far, by seat"),
        Field(
            "tricks",
            "played",
            _key("tricks"),
            meaning="cards of past tricks, by seat",
            stable_items=True,
        ),
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
        *common_fields(("auction", "discard", "play", "over"), 500.0),
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
        Field(
            "tricks", "played", _key("tricks"), meaning="cards of past tricks", stable_items=True
        ),
        Field("tricks_won", "seat numbers", _key("tricks_won"), 10.0),
    ]


#: the field kinds an encoder understands
KINDS: tuple[str, ...] = (
    "cards",
    "seat cards",
    "played",
    "number",
    "seat numbers",
    "seat",
    "seats",
    "choice",
    "actions",
    "seat actions",
)

#: a tensor spec: the fields of a game configuration, in tensor order
FieldsFn = Callable[[Game], list[Field]]

_BUILTIN: dict[str, FieldsFn] = {
    "sono-arcana": _sono_arcana,
    "matto": _matto,
    "arcana-duel": _arcana_duel,
    "grail-mahjong": _grail_mahjong,
    "extendori": _extendori,
    "fairy500": _fairy500,
}


def _install_spec(game_id: str, obj: Any) -> FieldsFn:
    """An ``xtarot.tensors`` entry point: ``fields(game) -> list[Field]``."""
    if not callable(obj):
        raise TypeError(f"expected fields(game) -> list[Field], got {obj!r}")
    return cast("FieldsFn", obj)


#: game id -> spec; plugins add theirs through the ``xtarot.tensors`` entry-point group.
_SPECS: dict[str, FieldsFn] = LazyRegistry("xtarot.tensors", dict(_BUILTIN), _install_spec)

_SKIP = {"game", "players", "seat", "phase", "current_player", "hand", "legal_actions", "scores"}


def generic_fields(game: Game) -> list[Field]:
    """The fallback spec: the common fields plus one block of every other visible card."""
    return [
        *common_fields((), 100.0),
        Field(
            "visible",
            "cards",
            lambda v: [val for k, val in v.items() if k not in _SKIP],
            meaning="every other card in the view",
        ),
    ]


def register_tensor_spec(game_id: str, fields_fn: FieldsFn, *, replace: bool = False) -> None:
    """Give ``game_id`` its own tensor fields: ``fields_fn(game)`` returns the
    :class:`Field` list of one configuration (it may depend on ``game.players`` and
    ``game.options``).  A game without a spec gets :func:`generic_fields`.

    Registering an id that already has a spec (the six built-in games included)
    raises ``ValueError`` unless ``replace=True``.  The fields are checked when an
    encoder is first built (``encoder_for``), with an error naming the bad field.
    """
    if not isinstance(game_id, str) or not game_id:
        raise ValueError(f"game id {game_id!r}: expected a non-empty string such as 'matto'")
    if not callable(fields_fn):
        raise TypeError(
            f"tensor spec of {game_id!r}: expected a function game -> list[Field], "
            f"got {type(fields_fn).__name__}"
        )
    if game_id in _SPECS and not replace:
        raise ValueError(f"{game_id!r} already has a tensor spec; pass replace=True to replace it")
    _SPECS[game_id] = fields_fn
    _forget(game_id)


def unregister_tensor_spec(game_id: str) -> None:
    """Drop the spec of ``game_id`` (a built-in game gets its built-in spec back)."""
    if game_id in _BUILTIN:
        _SPECS[game_id] = _BUILTIN[game_id]
    else:
        _SPECS.pop(game_id, None)
    _forget(game_id)


def tensor_spec(game_id: str) -> FieldsFn:
    """The spec the encoders use for ``game_id``: its registered one or the generic one."""
    return _SPECS.get(game_id, generic_fields)


def _check_fields(game_id: str, fields: Any) -> list[Field]:
    if not isinstance(fields, list | tuple) or not fields:
        raise ValueError(
            f"tensor spec of {game_id!r}: expected a non-empty list of Field, got {fields!r}"
        )
    names: set[str] = set()
    for f in fields:
        if not isinstance(f, Field):
            raise ValueError(f"tensor spec of {game_id!r}: {f!r} is not a Field")
        if f.kind not in KINDS:
            raise ValueError(
                f"tensor spec of {game_id!r}: field {f.name!r} has kind {f.kind!r}; "
                f"kinds: {', '.join(KINDS)}"
            )
        if f.name in names:
            raise ValueError(f"tensor spec of {game_id!r}: field name {f.name!r} is used twice")
        if f.kind in ("number", "seat numbers") and not f.scale:
            raise ValueError(f"tensor spec of {game_id!r}: field {f.name!r} has scale 0")
        if not callable(f.get):
            raise ValueError(f"tensor spec of {game_id!r}: field {f.name!r} has no getter")
        if f.stable_items and f.kind != "played":
            raise ValueError(
                f"tensor spec of {game_id!r}: field {f.name!r} has stable_items, which only "
                f"a 'played' field can have (it is {f.kind!r})"
            )
        names.add(f.name)
    return list(fields)


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


#: what a field writer fills: positions set to 1.0, and position -> value for numbers
Ones = list[int]
Numbers = dict[int, float]
Writer = Callable[[dict[str, Any], int, Ones, Numbers], None]

_MEMO_LIMIT = 100_000


class Encoder:
    """The tensor encoder of one game configuration (a ``Game``).

    The layout is fixed when the encoder is built; every field becomes a small writer
    with its offsets and lookup tables bound, and an encoding is the list of positions
    that hold ``1.0`` plus the few positions that hold a number.  ``encode`` returns a
    fresh list, ``encode_into`` fills a numpy array (or any buffer with ``fill`` and
    fancy assignment) in place and ``encode_state`` reads the seat's view straight
    from the state, without the JSON copy ``state.view`` makes.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.players = n = game.players
        codes: set[str] = set()
        for zone in game.new_state(seed=0).zones().values():
            codes.update(zone)
        self.cards: tuple[str, ...] = tuple(sorted(codes, key=lambda x: card(x).index))
        self.index = {code: i for i, code in enumerate(self.cards)}
        self.fields = _check_fields(game.id, tensor_spec(game.id)(game))
        self.offsets: list[tuple[Field, int, int]] = []
        start = 0
        for f in self.fields:
            size = _size(f, n, len(self.cards), game.num_actions)
            self.offsets.append((f, start, size))
            start += size
        self.size = start
        # text -> card index (-1: not a card), wilds ``Oc=3c`` included as met
        self._card_memo: dict[str, int] = dict(self.index)
        # text -> action id (-1: not an action)
        self._action_memo: dict[str, int] = {}
        self._writers: list[Writer] = [self._writer(f, s) for f, s, _ in self.offsets]
        # a built-in game with its built-in spec may have a direct encoder that reads
        # the state itself (same positions, no view built): (state class, function)
        self._fast: tuple[type, FastFn] | None = None
        direct = _DIRECT.get(game.id)
        if direct is not None and _SPECS.get(game.id) is _BUILTIN.get(game.id):
            self._fast = direct(self)

    # -- copies: an encoder is fixed once built, so copies share it ----------------------
    def __copy__(self) -> Encoder:
        return self

    def __deepcopy__(self, memo: object) -> Encoder:
        return self

    def __reduce__(self) -> tuple[Any, tuple[Game]]:
        # pickled as its game: unpickling looks the encoder up again
        return (encoder_for, (self.game,))

    # -- lookups ----------------------------------------------------------------------
    def _card_slow(self, code: str) -> int:
        i = self.index.get(code)
        if i is None and "=" in code:
            i = self.index.get(code.split("=", 1)[0])
        found = -1 if i is None else i
        if len(self._card_memo) < _MEMO_LIMIT:
            self._card_memo[code] = found
        return found

    def _cards(self, value: Any, base: int, ones: Ones) -> None:
        """Append ``base + index`` for every card anywhere inside a JSON value."""
        cls = value.__class__
        memo = self._card_memo
        if cls is list or cls is tuple or cls is dict:
            for item in value.values() if cls is dict else value:
                icls = item.__class__
                if icls is str:
                    i = memo.get(item)
                    if i is None:
                        i = self._card_slow(item)
                    if i >= 0:
                        ones.append(base + i)
                elif icls is list or icls is tuple or icls is dict:
                    self._cards(item, base, ones)
                # numbers, booleans and None hold no card
        elif cls is str:
            i = memo.get(value)
            if i is None:
                i = self._card_slow(value)
            if i >= 0:
                ones.append(base + i)

    def _played(self, value: Any, start: int, me: int, ones: Ones) -> None:
        """Append the position of every ``(seat, card)`` inside a JSON value: a
        ``[seat, card]`` pair or a ``{"seat": s, "card": c}`` dict, at any depth, the
        card in the block of the seat relative to ``me``."""
        cls = value.__class__
        if cls is list or cls is tuple:
            if len(value) == 2 and value[0].__class__ is int and value[1].__class__ is str:
                self._pair(value[0], value[1], start, me, ones)
                return
            n = self.players
            c = len(self.cards)
            memo = self._card_memo
            played = self._played
            for item in value:
                icls = item.__class__
                if icls is list or icls is tuple:
                    if len(item) == 2 and item[0].__class__ is int and item[1].__class__ is str:
                        i = memo.get(item[1])
                        if i is None:
                            i = self._card_slow(item[1])
                        if i >= 0:
                            ones.append(start + ((item[0] - me) % n) * c + i)
                    else:
                        played(item, start, me, ones)
                elif icls is dict:
                    # a dict inline (rounds, tricks): a pair, or its list and dict values
                    seat = item.get("seat")
                    code = item.get("card")
                    if seat.__class__ is int and code.__class__ is str:
                        i = memo.get(code)
                        if i is None:
                            i = self._card_slow(code)
                        if i >= 0:
                            ones.append(start + ((seat - me) % n) * c + i)
                        continue
                    for sub in item.values():
                        scls = sub.__class__
                        if scls is list:
                            if sub:
                                played(sub, start, me, ones)
                        elif scls is dict:
                            played(sub, start, me, ones)
        elif cls is dict:
            seat = value.get("seat")
            code = value.get("card")
            if seat.__class__ is int and code.__class__ is str:
                self._pair(seat, code, start, me, ones)
                return
            for item in value.values():
                if item.__class__ is list or item.__class__ is dict:
                    self._played(item, start, me, ones)

    def _pair(self, seat: int, code: str, start: int, me: int, ones: Ones) -> None:
        i = self._card_memo.get(code)
        if i is None:
            i = self._card_slow(code)
        if i >= 0:
            ones.append(start + ((seat - me) % self.players) * len(self.cards) + i)

    def _action_ids(self, value: Any, out: list[int]) -> None:
        if isinstance(value, str):
            aid = self._action_memo.get(value)
            if aid is None:
                found = self.game.actions.parse(value)
                aid = -1 if found is None else found.id
                if len(self._action_memo) < _MEMO_LIMIT:
                    self._action_memo[value] = aid
            if aid >= 0:
                out.append(aid)
        elif isinstance(value, list | tuple):
            for item in value:
                self._action_ids(item, out)

    # -- one writer per field -------------------------------------------------------
    def _writer(self, f: Field, start: int) -> Writer:
        n = self.players
        c = len(self.cards)
        a = self.game.num_actions
        get = f.get
        kind = f.kind
        cards = self._cards

        if kind == "cards":

            def write(v: dict[str, Any], me: int, ones: Ones, nums: Numbers) -> None:
                value = get(v)
                if value is not None:
                    cards(value, start, ones)

        elif kind == "seat cards":

            def write(v: dict[str, Any], me: int, ones: Ones, nums: Numbers) -> None:
                for seat, item in enumerate(get(v) or ()):
                    if item is not None:
                        cards(item, start + ((seat - me) % n) * c, ones)

        elif kind == "played" and f.stable_items:
            write = self._history_writer(get, start)

        elif kind == "played":
            played = self._played

            def write(v: dict[str, Any], me: int, ones: Ones, nums: Numbers) -> None:
                value = get(v)
                if value:
                    played(value, start, me, ones)

        elif kind == "number":
            scale = f.scale

            def write(v: dict[str, Any], me: int, ones: Ones, nums: Numbers) -> None:
                value = get(v)
                if value:
                    nums[start] = float(value) / scale

        elif kind == "seat numbers":
            scale = f.scale

            def write(v: dict[str, Any], me: int, ones: Ones, nums: Numbers) -> None:
                for seat, x in enumerate(get(v) or ()):
                    nums[start + (seat - me) % n] = float(x or 0) / scale

        elif kind == "seat":

            def write(v: dict[str, Any], me: int, ones: Ones, nums: Numbers) -> None:
                value = get(v)
                ones.append(start + (n if value is None else (value - me) % n))

        elif kind == "seats":

            def write(v: dict[str, Any], me: int, ones: Ones, nums: Numbers) -> None:
                for seat in get(v) or ():
                    ones.append(start + (seat - me) % n)

        elif kind == "choice":
            choices = f.choices
            other = len(choices)
            table: dict[Any, int] = {}
            for k, choice in enumerate(choices):
                table.setdefault(choice, k)

            def write(v: dict[str, Any], me: int, ones: Ones, nums: Numbers) -> None:
                value = get(v)
                try:
                    k = table.get(value, other)
                except TypeError:  # an unhashable value
                    k = choices.index(value) if value in choices else other
                ones.append(start + k)

        elif kind == "actions":
            action_ids = self._action_ids

            def write(v: dict[str, Any], me: int, ones: Ones, nums: Numbers) -> None:
                found: list[int] = []
                action_ids(get(v), found)
                ones.extend(start + i for i in found)

        else:  # "seat actions"
            action_ids = self._action_ids

            def write(v: dict[str, Any], me: int, ones: Ones, nums: Numbers) -> None:
                for seat, item in enumerate(get(v) or ()):
                    found: list[int] = []
                    action_ids(item, found)
                    base = start + ((seat - me) % n) * a
                    ones.extend(base + i for i in found)

        return write

    def _history_writer(self, get: Getter, start: int) -> Writer:
        """The writer of a ``played`` field with ``stable_items``.

        Per observing seat it keeps the items last encoded and, after each, how many
        positions they had given; a value that starts with the same item objects
        reuses those positions and encodes only the rest.  A list's encoding is its
        items' encodings one after another (a bare ``[seat, card]`` pair at the top
        aside, which goes the plain way), so the positions are the plain writer's.
        """
        played = self._played
        # me -> (items met, positions, positions after each item)
        memo: dict[int, tuple[list[Any], list[int], list[int]]] = {}

        def write(v: dict[str, Any], me: int, ones: Ones, nums: Numbers) -> None:
            value = get(v)
            if not value:
                return
            if value.__class__ is not list or (
                len(value) == 2 and value[0].__class__ is int and value[1].__class__ is str
            ):
                played(value, start, me, ones)
                return
            seen = memo.get(me)
            same = 0
            if seen is not None:
                items, done, ends = seen
                k = len(items)
                if len(value) >= k and all(map(operator.is_, items, value)):
                    same = k
                else:
                    for a, b in zip(items, value, strict=False):
                        if a is not b:
                            break
                        same += 1
                    del items[same:], ends[same:]
                    del done[ends[-1] if ends else 0 :]
            else:
                items, done, ends = memo[me] = ([], [], [])
            for item in value[same:]:
                played((item,), start, me, done)
                items.append(item)
                ends.append(len(done))
            ones.extend(done)

        return write

    # -- encoding ---------------------------------------------------------------------
    def positions(self, view: dict[str, Any]) -> tuple[Ones, Numbers]:
        """The encoding of a view as the positions holding ``1.0`` and the
        ``position -> value`` of the numbers (every other position is ``0.0``)."""
        ones: Ones = []
        nums: Numbers = {}
        me = view.get("seat") or 0
        for write in self._writers:
            write(view, me, ones, nums)
        return ones, nums

    def encode(self, view: dict[str, Any]) -> list[float]:
        """The tensor of a seat's view (``view["seat"]`` is the observer)."""
        ones, nums = self.positions(view)
        out = [0.0] * self.size
        for i in ones:
            out[i] = 1.0
        for i, x in nums.items():
            out[i] = x
        return out

    def state_positions(self, state: State, seat: int) -> tuple[Ones, Numbers]:
        """:meth:`positions` of ``seat``'s view in ``state``, without the view's JSON
        copy (and, for a game with a direct encoder, without building the view)."""
        fast = self._fast
        if fast is not None and state.__class__ is fast[0]:
            state._check_seat(seat)
            ones: Ones = []
            nums: Numbers = {}
            fast[1](state, seat, ones, nums)
            return ones, nums
        return self.positions(state.peek_view(seat))  # read only: what ``view`` copies

    def encode_into(self, view: dict[str, Any], out: Any, *, zeroed: bool = False) -> Any:
        """Fill ``out`` (a numpy array of ``size`` floats, reused) with the tensor of a
        view, in place, and return it (``zeroed=True``: ``out`` is known to hold only
        zeros, so it is not cleared first)."""
        return _fill(out, *self.positions(view), zeroed)

    def encode_list(self, view: dict[str, Any], size: int = 0) -> list[float]:
        """The tensor of a view as OpenSpiel hands it out: a list of Python floats,
        each number rounded to float32 as a float32 buffer holds it; ``size`` pads
        the list with zeros (room for more fields after the view's)."""
        return _as_list(*self.positions(view), max(size, self.size))

    def encode_state(
        self, state: State, seat: int, out: Any = None, *, zeroed: bool = False
    ) -> Any:
        """The tensor of ``seat`` in ``state``: ``encode(state.view(seat))`` without the
        view's JSON copy.  Fills ``out`` in place when given (see ``encode_into``),
        else returns a list."""
        ones, nums = self.state_positions(state, seat)
        if out is None:
            res = [0.0] * self.size
            for i in ones:
                res[i] = 1.0
            for i, x in nums.items():
                res[i] = x
            return res
        return _fill(out, ones, nums, zeroed)

    def encode_state_list(self, state: State, seat: int, size: int = 0) -> list[float]:
        """The tensor of ``seat`` in ``state`` as :meth:`encode_list` gives it (float32
        values as Python floats, padded with zeros to ``size``), without the view's
        JSON copy."""
        return _as_list(*self.state_positions(state, seat), max(size, self.size))

    def layout(self) -> list[tuple[str, int, int, str, str]]:
        """``(name, start, size, kind, meaning)`` for every slice."""
        return [(f.name, s, z, f.kind, f.meaning) for f, s, z in self.offsets]


_F32: dict[float, float] = {}
_F32_CODEC = struct.Struct("f")


def _float32(x: float) -> float:
    """``x`` rounded to float32 and back, as a float32 tensor holds it (memoised)."""
    y = _F32.get(x)
    if y is None:
        try:
            y = _F32_CODEC.unpack(_F32_CODEC.pack(x))[0]
        except OverflowError:  # beyond float32: infinity, as a float32 buffer holds it
            y = float("inf") if x > 0 else float("-inf")
        if len(_F32) < _MEMO_LIMIT:
            _F32[x] = y
    return y


def _fill(out: Any, ones: Ones, nums: Numbers, zeroed: bool) -> Any:
    """Write an encoding into a buffer in place (cleared first unless ``zeroed``)."""
    if not zeroed:
        out.fill(0.0)
    if ones:
        np = _numpy()
        try:
            out[np.fromiter(ones, np.intp, len(ones))] = 1.0
        except TypeError:  # a buffer that takes no numpy index array
            out[ones] = 1.0
    for i, x in nums.items():  # a handful: item by item beats building arrays
        out[i] = x
    return out


def _as_list(ones: Ones, nums: Numbers, size: int) -> list[float]:
    """An encoding as a list of ``size`` floats, numbers rounded through float32."""
    out = [0.0] * size
    for i in ones:
        out[i] = 1.0
    f32 = _float32
    for i, x in nums.items():
        out[i] = f32(x)
    return out


_NUMPY: list[Any] = []


def _numpy() -> Any:
    """numpy, imported on first use (the encoders work without it; only
    ``encode_into`` with a numpy buffer needs it)."""
    if not _NUMPY:
        import numpy

        _NUMPY.append(numpy)
    return _NUMPY[0]


_CACHE: dict[tuple[str, int, tuple[tuple[str, Any], ...]], Encoder] = {}


def _forget(game_id: str) -> None:
    for key in [k for k in _CACHE if k[0] == game_id]:
        del _CACHE[key]


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
