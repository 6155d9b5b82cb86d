"""Direct encoders: a game's tensor written straight from its state, no view built.

The tensor of a seat is defined by its view (:mod:`xtarot.adapters.tensors`): every
field reads one key of ``state.view(seat)``.  Building that view (a dict of fresh
lists) and then walking it is most of the cost of an observation, so a game may have
a *direct encoder*: a function that computes, from the state's own attributes, the
very positions and numbers the spec's writers would find in the view.  It must read
exactly what the view shows that seat and nothing more (a card hidden from the seat
is never touched), and ``tests/test_adapters_fast.py`` holds every direct encoder to
the reference encoding of the view, position by position, along random matches.

Every built-in game writes its as the blocks of :mod:`xtarot.adapters.incremental`
(the same code serves a whole tensor and a seat's tensor kept between looks);
grail-mahjong's blocks are in :mod:`xtarot.adapters.direct_grail`.

A direct encoder is used only for the built-in spec of its game (a replaced spec goes
the view's way) and only for states of the exact class it was written for.  Each
builder below takes the :class:`~xtarot.adapters.tensors.Encoder` (for its offsets,
card table and field writers) and returns ``(state class, function)``; the function
``fast(state, seat, ones, nums)`` appends positions holding ``1.0`` to ``ones`` and
sets ``nums[position] = value`` like a field writer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from xtarot.cards import card

if TYPE_CHECKING:
    from xtarot.adapters.tensors import Encoder

__all__ = ["DIRECT", "FastFn"]

#: ``fast(state, seat, ones, nums)``: the positions of ``seat``'s tensor in ``state``
FastFn = Callable[[Any, int, list[int], dict[int, float]], None]


def _card_table(enc: Encoder) -> list[int]:
    """``Card.index`` -> the encoder's card position (-1: not in this game)."""
    table = [-1] * 113
    for code, pos in enc.index.items():
        table[card(code).index] = pos
    return table


def _choice_table(enc: Encoder, name: str) -> tuple[dict[Any, int], int]:
    """A choice field's ``value -> position`` table and its "none / other" position."""
    f, start = _field(enc, name)
    table: dict[Any, int] = {}
    for k, choice in enumerate(f.choices):
        table.setdefault(choice, start + k)
    return table, start + len(f.choices)


def _field(enc: Encoder, name: str) -> tuple[Any, int]:
    for f, start, _size in enc.offsets:
        if f.name == name:
            return f, start
    raise KeyError(f"{enc.game.id}: the tensor spec has no field {name!r}")


def _places(enc: Encoder) -> tuple[dict[str, int], dict[str, float]]:
    """Each field's first position and scale, by field name."""
    return (
        {f.name: start for f, start, _size in enc.offsets},
        {f.name: f.scale for f, _start, _size in enc.offsets},
    )


def _starts(at: dict[str, int], *names: str) -> tuple[int, ...]:
    """The first positions of these fields, in this order."""
    return tuple(at[name] for name in names)


def _seat_writer(enc: Encoder, pos: list[int]) -> Callable[..., None]:
    """``seats(hands, current, me, add, nums)``: the fields every spec has after its
    phase (``tensors.common_fields``): the seat to act, ``me``'s hand, every hand's size."""
    n = enc.players
    at, scale = _places(enc)
    o_cp, o_hand, o_sizes = _starts(at, "current_player", "hand", "hand_sizes")
    s_sizes = scale["hand_sizes"]

    def seats(hands: Any, cp: int | None, me: int, add: Any, nums: dict[int, float]) -> None:
        add(o_cp + (n if cp is None else (cp - me) % n))
        for c in hands[me]:
            i = pos[c.index]
            if i >= 0:
                add(o_hand + i)
        for s, h in enumerate(hands):
            nums[o_sizes + (s - me) % n] = float(len(h)) / s_sizes

    return seats


def _from_blocks(game_id: str) -> Callable[[Encoder], tuple[type, FastFn]]:
    """The direct encoder of a game that has incremental blocks
    (:mod:`xtarot.adapters.incremental`): every block written in full, in turn."""

    def build(enc: Encoder) -> tuple[type, FastFn]:
        from xtarot.adapters.incremental import BLOCKS

        cls, blocks = BLOCKS[game_id](enc)
        parts = [(b.write, b.grows) for b in blocks]

        def fast(st: Any, me: int, ones: list[int], nums: dict[int, float]) -> None:
            for write, grows in parts:
                if grows:
                    write(st, me, None, ones, None)
                else:
                    write(st, me, ones, nums)

        return cls, fast

    return build


#: game id -> builder of its direct encoder
DIRECT: dict[str, Callable[[Encoder], tuple[type, FastFn]]] = {
    "sono-arcana": _from_blocks("sono-arcana"),
    "matto": _from_blocks("matto"),
    "arcana-duel": _from_blocks("arcana-duel"),
    "extendori": _from_blocks("extendori"),
    "fairy500": _from_blocks("fairy500"),
    "grail-mahjong": _from_blocks("grail-mahjong"),
}
