"""Sampled worlds carry nothing of the true match beyond the seat's view.

A world handed to search (``State.sample_world``, OpenSpiel's
``resample_from_infostate``) must be a function of what the seat has seen and of the
sampler's random stream only.  The tests build, for the true state, a *twin*: a state
the seat cannot tell from it (a world sampled for that seat, with another deal, another
seed and other later hands), then sample from both with the same random stream.  Every
part of the two samples must agree — serialization, clones, strings, tensors, every
attribute, and the later hands the worlds go on to deal — or something of the hidden
state got through.  Each game is played into its second hand where it has more than one, so that
the later hands of a match are tested too.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import xtarot
from xtarot.engine import State

#: per game: options giving a short match of three hands where the game has several
#: (the true state is taken in the second, so that a third is still to be dealt)
MULTI: dict[str, dict[str, Any]] = {
    "fairy500": {"hands": 3},
    "extendori": {"hands": 3},
    "grail-mahjong": {"hands": 3},
}
GAMES = xtarot.games()


def _config(info: xtarot.GameInfo) -> tuple[int, dict[str, Any]]:
    players = 4 if 4 in info.players else info.min_players
    return players, MULTI.get(info.id, {})


def _move(state: State, rng: random.Random) -> None:
    """A random legal move, ``pass`` more often than not where it is legal (random
    bids in fairy500 soon end a match at its target score)."""
    legal = state.legal_actions()
    passes = [a for a in legal if a.text == "pass"]
    state.apply(passes[0] if passes and rng.random() < 0.7 else legal[rng.randrange(len(legal))])


def _to_next_hand(state: State, rng: random.Random) -> State:
    """Random moves until a new hand is dealt or the match ends."""
    hands = len(state.deals)
    while not state.is_terminal and len(state.deals) == hands:
        _move(state, rng)
    return state


def _true_state(info: xtarot.GameInfo, seed: int) -> State:
    """A match in progress: in its second hand where it has several (the first seed
    from ``seed`` on whose random moves get there), a few moves into the hand."""
    players, options = _config(info)
    game = xtarot.load(info.id, players=players, **options)
    for s in range(seed, seed + 50):
        state, rng = game.new_state(seed=s), random.Random(s)
        while not state.is_terminal and len(state.deals) < (2 if options else 1):
            _move(state, rng)
        for _ in range(5):
            if not state.is_terminal:
                _move(state, rng)
        if not state.is_terminal and len(state.deals) == (2 if options else 1):
            return state
    raise AssertionError(f"{info.id}: no seed from {seed} reaches the second hand")


# -- the engine's sampler ----------------------------------------------------------------
@pytest.mark.parametrize("info", GAMES, ids=lambda i: i.id)
def test_sampled_world_later_hands_come_from_the_sampler_only(info: xtarot.GameInfo) -> None:
    """Two states the seat cannot tell apart give, for one random stream, worlds that
    deal the same later hands — and not the true match's (its seed stays out)."""
    truth = _true_state(info, 11)
    seat = truth.current_player
    assert seat is not None
    # replayed from its record, so that nothing of it is copied from the true state
    twin = xtarot.replay(truth.sample_world(seat, random.Random(99)).record())
    assert twin.seed != truth.seed
    third = 0
    for k in range(6):
        a = truth.sample_world(seat, random.Random(k))
        b = twin.sample_world(seat, random.Random(k))
        assert a.snapshot() == b.snapshot()
        assert a.record() == b.record()
        assert a.seed != truth.seed
        _to_next_hand(a, random.Random(k))
        _to_next_hand(b, random.Random(k))
        assert a.deals == b.deals, "a later hand of a sampled world depends on the truth"
        later = _to_next_hand(truth.clone(), random.Random(k))
        if len(a.deals) == len(later.deals) == 3:
            assert a.deals[-1]["hands"] != later.deals[-1]["hands"]
            third += 1
    if info.id in MULTI:
        assert third, "no world went on to a third hand: the later hands went untested"


# -- OpenSpiel ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def pyspiel():  # type: ignore[no-untyped-def]
    spiel = pytest.importorskip("pyspiel", reason="needs the openspiel extra (open-spiel)")
    import xtarot.adapters.openspiel  # noqa: F401  (registers the games)

    return spiel


def _spiel_state(pyspiel, info: xtarot.GameInfo, seed: int):  # type: ignore[no-untyped-def]
    """The true OpenSpiel state: the moves of :func:`_true_state`, on the match whose
    seed the chance nodes draw (four bytes)."""
    from xtarot.adapters.openspiel import short_name

    players, options = _config(info)
    game = pyspiel.load_game(short_name(info.id), {"players": players, **options})
    moves = _true_state(info, seed)
    state = game.new_initial_state()
    for b in moves.seed.to_bytes(4, "big"):
        state.apply_action(b)
    for a in moves.history:
        state.apply_action(a.id)
    assert state.engine.snapshot() == moves.snapshot()
    return game, state


def _fields(state) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    """Every attribute of an OpenSpiel state, the engine state by its snapshot and
    its record; the game-wide objects (the game, the encoder) are the same objects."""
    out: dict[str, Any] = {}
    for key, value in vars(state).items():
        if isinstance(value, State):
            out[key] = (value.snapshot(), value.record())
        elif key not in ("_xg", "_enc"):
            out[key] = value
    return out


def _everything(state) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    """What anyone holding the state can read from it, through OpenSpiel's API."""
    n = state.num_players()
    return {
        "serialize": state.serialize(),
        "clone": state.clone().serialize(),
        "str": str(state),
        "history": state.history(),
        "fields": _fields(state),
        "clone_fields": _fields(state.clone()),
        "info": [state.information_state_string(p) for p in range(n)],
        "obs": [state.observation_string(p) for p in range(n)],
        "info_t": [state.information_state_tensor(p) for p in range(n)],
        "obs_t": [state.observation_tensor(p) for p in range(n)],
        "legal": state.legal_actions(),
    }


def _numbers(data: Any) -> list[int]:
    """Every whole number in JSON data, and every list of bytes read as one number."""
    if isinstance(data, bool):
        return []
    if isinstance(data, int):
        return [data]
    found: list[int] = []
    if isinstance(data, dict):
        data = list(data.values())
    if isinstance(data, list):
        if data and all(isinstance(x, int) and 0 <= x < 256 for x in data):
            found.append(int.from_bytes(bytes(data), "big"))
        for x in data:
            found.extend(_numbers(x))
    return found


@pytest.mark.parametrize("info", GAMES, ids=lambda i: i.id)
def test_openspiel_resampled_world_holds_nothing_of_the_truth(
    pyspiel,  # type: ignore[no-untyped-def]
    info: xtarot.GameInfo,
) -> None:
    game, truth = _spiel_state(pyspiel, info, 1_000)
    seat = truth.current_player()
    true_seed = truth.engine.seed
    # the twin: the seat cannot tell it from the truth, yet its deal and seed differ
    # (bytes beside the record, as an older version wrote them, are not read back)
    other = truth.engine.sample_world(seat, random.Random(99))
    twin = game.deserialize_state(json.dumps({"bytes": [9, 9, 9, 9], "record": other.record()}))
    assert twin.information_state_string(seat) == truth.information_state_string(seat)
    assert twin.engine.zones() != truth.engine.zones()
    third = 0
    for k in range(6):
        a = truth.resample_from_infostate(seat, random.Random(k).random)
        b = twin.resample_from_infostate(seat, random.Random(k).random)
        assert _everything(a) == _everything(b), "a resampled world depends on the truth"
        assert a.information_state_string(seat) == truth.information_state_string(seat)
        # the serialized world names no number that rebuilds the true match
        text = a.serialize()
        for x in _numbers(json.loads(text)):
            assert x != true_seed, f"the true seed is in a sampled world's bytes: {text[:80]}"
        # deserialized, it is the same world, and it plays on into its own later hands
        again = game.deserialize_state(text)
        assert _everything(again)["serialize"] == text
        assert again.engine.snapshot() == a.engine.snapshot()
        later_a = _to_next_hand(again.engine.clone(), random.Random(k))
        later_b = _to_next_hand(b.engine.clone(), random.Random(k))
        assert later_a.deals == later_b.deals
        true_later = _to_next_hand(truth.engine.clone(), random.Random(k))
        if len(later_a.deals) == len(true_later.deals) == 3:
            assert later_a.deals[-1]["hands"] != true_later.deals[-1]["hands"]
            third += 1
    if info.id in MULTI:
        assert third, "no world went on to a third hand: the later hands went untested"


def test_openspiel_resample_at_a_chance_node_draws_fresh_bytes(pyspiel) -> None:  # type: ignore[no-untyped-def]
    """Halfway through the seed, a resampled state has as many bytes, its own."""
    from xtarot.adapters.openspiel import short_name

    game = pyspiel.load_game(short_name("matto"), {"players": 3})
    truth, twin = game.new_initial_state(), game.new_initial_state()
    for b in (17, 42):
        truth.apply_action(b)
    for b in (200, 3):
        twin.apply_action(b)
    a = truth.resample_from_infostate(0, random.Random(4).random)
    b = twin.resample_from_infostate(0, random.Random(4).random)
    assert a.is_chance_node() and len(a.history()) == 2
    assert a.serialize() == b.serialize() and a.history() == b.history()
    assert a.information_state_string(0) == truth.information_state_string(0)
    # it plays on like any state
    for byte in (5, 6):
        a.apply_action(byte)
    assert not a.is_chance_node() and a.engine is not None


def test_openspiel_true_states_still_round_trip(pyspiel) -> None:  # type: ignore[no-untyped-def]
    """The true state's serialization is its history, as before: deserialized, it is
    the same match (seed and all)."""
    info = next(i for i in GAMES if i.id == "fairy500")
    game, truth = _spiel_state(pyspiel, info, 7_000_000)
    again = game.deserialize_state(truth.serialize())
    assert again.history() == truth.history()
    assert again.engine.snapshot() == truth.engine.snapshot()
    assert again.engine.seed == truth.engine.seed >= 7_000_000
