"""The direct encoder of grail-mahjong (``xtarot.adapters.direct_grail``) against the
encoding of the seat's view, and what it may read.

The reference is the spec's own writers run over ``state._view(seat)``
(``Encoder.positions``); the direct encoder must give the same tensor, position by
position, for every seat at every position of hundreds of seeded random matches, and
the same tensor in every world the seat cannot tell from the true one.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import xtarot
from xtarot.adapters.direct import DIRECT, FastFn
from xtarot.adapters.tensors import Encoder, encoder_for
from xtarot.games.grail_mahjong.state import GrailMahjongState
from xtarot.games.grail_mahjong.tables import mask_of

# (players, options, seeds): one-hand matches in bulk, multi-hand matches (the results,
# the hand number and the dealer change; the past hands' answers stay in ``my_answer``),
# the chi-extension draw, and the full default match
CONFIGS: list[tuple[int, dict[str, Any], int]] = [
    (2, {"hands": 1}, 60),
    (3, {"hands": 1}, 60),
    (4, {"hands": 1}, 60),
    (2, {"hands": 3, "chi_extension_draws": True}, 40),
    (3, {"hands": 2}, 40),
    (4, {"hands": 2, "chi_extension_draws": True}, 40),
    (3, {}, 3),
]


def _tensor(enc: Encoder, ones: list[int], nums: dict[int, float]) -> dict[int, float]:
    """An encoding as its nonzero positions: ``position -> value`` (as ``encode``
    writes it: the ones first, then the numbers over them)."""
    for i in ones:
        assert 0 <= i < enc.size, f"position {i} outside the tensor (size {enc.size})"
    out = dict.fromkeys(ones, 1.0)
    out.update(nums)
    return {i: x for i, x in out.items() if x != 0.0}


def _direct(fast: FastFn, enc: Encoder, state: Any, seat: int) -> dict[int, float]:
    ones: list[int] = []
    nums: dict[int, float] = {}
    fast(state, seat, ones, nums)
    return _tensor(enc, ones, nums)


def _reference(enc: Encoder, state: Any, seat: int) -> dict[int, float]:
    return _tensor(enc, *enc.positions(state._view(seat)))


def _field_of(enc: Encoder, position: int) -> str:
    for name, start, size, _kind, _meaning in enc.layout():
        if start <= position < start + size:
            return name
    return "?"


def _explain(enc: Encoder, got: dict[int, float], want: dict[int, float]) -> str:
    wrong = sorted(i for i in got.keys() | want.keys() if got.get(i) != want.get(i))
    return ", ".join(
        f"{i} ({_field_of(enc, i)}): {got.get(i, 0.0)} != {want.get(i, 0.0)}" for i in wrong[:8]
    )


@pytest.mark.parametrize(
    ("players", "options", "seeds"), CONFIGS, ids=[f"{n}-{o}" for n, o, _ in CONFIGS]
)
def test_direct_encoder_equals_the_views_encoding(
    players: int, options: dict[str, Any], seeds: int
) -> None:
    game = xtarot.load("grail-mahjong", players=players, **options)
    enc = encoder_for(game)
    cls, fast = DIRECT["grail-mahjong"](enc)
    assert cls is GrailMahjongState is type(game.new_state(seed=0))
    rng = random.Random(players * 100 + seeds)
    seen_phases: set[str] = set()
    answers = numbers = checked = 0
    for seed in range(seeds):
        state = game.new_state(seed=seed)
        while True:
            for seat in range(players):
                got = _direct(fast, enc, state, seat)
                want = _reference(enc, state, seat)
                assert got == want, (
                    f"seed {seed}, step {len(state.history)}, seat {seat}: "
                    + _explain(enc, got, want)
                )
                checked += 1
                numbers += sum(1 for x in want.values() if x != 1.0)
                answers += state._view(seat)["my_answer"] is not None
            seen_phases.add(state.phase)
            if state.is_terminal:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    # every phase, numbers and own claim answers were compared, not only one-hots
    assert seen_phases == {"turn", "claim", "over"}
    assert checked > 20 * seeds and numbers > checked and answers > 0


def test_direct_encoder_agrees_across_many_matches_through_one_encoder() -> None:
    """One encoder (one cached function) serves states of different matches and
    clones in any order: nothing of one state is remembered for the next."""
    game = xtarot.load("grail-mahjong", players=3, hands=2)
    enc = encoder_for(game)
    _, fast = DIRECT["grail-mahjong"](enc)
    rng = random.Random(5)
    states = [game.new_state(seed=s) for s in range(4)]
    for step in range(400):
        state = states[rng.randrange(len(states))]
        if state.is_terminal:
            continue
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        if step % 9 == 0:
            states.append(state.clone())
        seat = rng.randrange(3)
        assert _direct(fast, enc, state, seat) == _reference(enc, state, seat)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_direct_encoder_sees_nothing_hidden(players: int) -> None:
    """The tensor of a seat is the same in every world it cannot tell from the true
    one (other hands, the stock and others' unrevealed claim answers resampled), and
    clones and their futures stay exact."""
    game = xtarot.load("grail-mahjong", players=players, hands=2)
    enc = encoder_for(game)
    _, fast = DIRECT["grail-mahjong"](enc)
    rng = random.Random(40 + players)
    worlds = 0
    for seed in range(3):
        state = game.new_state(seed=seed)
        step = 0
        while not state.is_terminal:
            if step % 6 == 0:
                for seat in range(players):
                    mine = _direct(fast, enc, state, seat)
                    for _ in range(2):
                        world = state.sample_world(seat, rng)
                        assert _direct(fast, enc, world, seat) == mine
                        worlds += 1
                branch = state.clone()
                for _ in range(5):
                    if branch.is_terminal:
                        break
                    legal = branch.legal_actions()
                    branch.apply(legal[rng.randrange(len(legal))])
                    seat = step % players
                    assert _direct(fast, enc, branch, seat) == _reference(enc, branch, seat)
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            step += 1
    assert worlds > 50


def test_hidden_cards_change_nothing_and_own_cards_do() -> None:
    """Swapping a card between another seat's hand and the stock leaves the seat's
    tensor as it was; the same swap with the seat's own hand changes it."""
    game = xtarot.load("grail-mahjong", players=3, hands=1)
    enc = encoder_for(game)
    _, fast = DIRECT["grail-mahjong"](enc)
    state: Any = game.new_state(seed=11)
    before = [_direct(fast, enc, state, s) for s in range(3)]
    other = (state.current_player + 1) % 3

    def swapped(seat: int) -> Any:
        world = state.clone()
        hand = world.hands[seat]
        old, new = hand[0], world.stock[world.top]
        world.got[seat] = [new if c is old else c for c in world.got[seat]]
        world.stock = [old if c is new else c for c in world.stock]
        world.masks[seat] = mask_of([new if c is old else c for c in hand])
        return world

    world = swapped(other)
    for seat in range(3):
        if seat != other:
            assert _direct(fast, enc, world, seat) == before[seat]
    assert _direct(fast, enc, world, other) != before[other]
    assert _direct(fast, enc, world, other) == _reference(enc, world, other)
