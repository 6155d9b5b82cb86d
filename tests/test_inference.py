"""Inference by policy (docs/agents.md, *Inference by policy*): worlds weighed by how
well the heuristic explains the other seats' moves.

The weights are checked on hand-made histories (the heuristic's own moves are matched,
one move it would not make is counted once, with the legal moves of that moment); the
weighted worlds agree with the view and are the same from the true state and from a
state the seat cannot tell from it, for one random stream; the same seed gives the
same worlds and moves.  Kept to a few seconds.
"""

from __future__ import annotations

import json
import math
import random

import pytest

import xtarot
from view_support import check_weighed_worlds_blind
from xtarot.agents import decision_for, make_agent
from xtarot.agents.inference import (
    Check,
    InferringAgent,
    PolicyInference,
    inferred_decision,
    log_likelihood_of,
)
from xtarot.engine import State


def _heuristic_play(game_id: str, players: int, seed: int, steps: int) -> State:
    state = xtarot.load(game_id, players=players).new_state(seed=seed)
    agents = [make_agent("heuristic", k) for k in range(players)]
    for _ in range(steps):
        seat = state.current_player
        assert seat is not None
        state.apply(agents[seat].act(decision_for(state, peek=True)))
    return state


def _hand_of(state: State, seat: int) -> set[str]:
    return set(state.zones()[f"hand:{seat}"])


def test_the_likelihood_counts_matches_and_misses() -> None:
    eps = 0.2
    checks = [Check(True, 4), Check(False, 4), Check(True, 2), Check(False, 3)]
    expected = 2 * math.log(0.8) + math.log(0.2 / 3) + math.log(0.2 / 2)
    assert log_likelihood_of(checks, eps) == pytest.approx(expected)
    assert log_likelihood_of([], eps) == 0.0
    with pytest.raises(ValueError, match="epsilon"):
        PolicyInference(epsilon=1.0)
    with pytest.raises(ValueError, match="max_checks"):
        PolicyInference(max_checks=-1)


def test_heuristic_moves_match_and_another_move_is_one_miss() -> None:
    """In heuristic self-play the true deal explains every move of the others; a move
    the heuristic would not make is one miss among that moment's legal moves."""
    inference = PolicyInference(epsilon=0.1, max_checks=100)
    state = _heuristic_play("fairy500", 4, 3, 12)
    seat = state.current_player
    assert seat is not None
    checks = inference.checks(state, seat)
    assert checks and all(c.matched for c in checks)
    assert inference.log_likelihood(state, seat) == pytest.approx(len(checks) * math.log(0.9))
    # the next seat makes a move the heuristic would not
    actor = seat
    heuristic = make_agent("heuristic", 0).act(decision_for(state))
    legal = state.legal_actions()
    other = next(a for a in legal if a != heuristic)
    state.apply(other)
    observer = (actor + 1) % 4
    after = inference.checks(state, observer)
    assert after[-1] == Check(False, len(legal))
    assert all(c.matched for c in after[:-1])
    # the seat's own moves are never checked; the cap keeps the newest (or the first)
    assert all(c.matched for c in inference.checks(state, actor))
    newest = PolicyInference(max_checks=2).checks(state, observer)
    assert newest and newest == after[-len(newest) :]
    assert PolicyInference(max_checks=2, newest=False).checks(state, observer) == after[:2]
    assert PolicyInference(max_checks=0).checks(state, observer) == []


def test_worlds_unlike_the_others_moves_weigh_less() -> None:
    """Over uniform worlds, those whose hands would have made the observed moves
    weigh more; the true deal (heuristic self-play) weighs the most."""
    inference = PolicyInference(epsilon=0.1)
    state = _heuristic_play("extendori", 4, 5, 40)
    seat = state.current_player
    assert seat is not None
    best = inference.log_likelihood(state, seat)
    rng = random.Random(1)
    logs = [inference.log_likelihood(state.sample_world(seat, rng), seat) for _ in range(12)]
    assert max(logs) <= best
    assert min(logs) < best  # the evidence tells worlds apart


def test_weighted_worlds_agree_with_the_view_and_leak_nothing() -> None:
    inference = PolicyInference(epsilon=0.2, max_checks=16)
    truth = _heuristic_play("sono-arcana", 4, 2, 9)
    seat = truth.current_player
    assert seat is not None
    view = truth.view(seat)
    twin = truth.sample_world(seat, random.Random(99))  # another deal, the same view
    assert twin.view(seat) == view
    assert twin.zones() != truth.zones()
    check_weighed_worlds_blind(
        truth, twin, seat, inference, inference.log_weight(seat), candidates=4, pool=6, seed=4
    )


def test_an_expert_on_inferred_worlds_is_deterministic() -> None:
    truth = _heuristic_play("matto", 4, 1, 6)
    moves = []
    for _ in range(2):
        decision = inferred_decision(decision_for(truth), PolicyInference(max_checks=8), pool=4)
        rng = random.Random(3)
        first = decision.sample_world(rng)
        assert decision.sample_world(rng) is not first  # a copy every time
        moves.append(make_agent("expert", 5, iterations=24).act(decision))
    assert moves[0] == moves[1]
    assert moves[0] in truth.legal_actions()
    bot = InferringAgent(5, pool=4, max_checks=8, iterations=24)
    assert bot.name == "expert+inference"
    assert bot.act(decision_for(truth)) == moves[0]  # the same pool, the same search


def test_chain_worlds_agree_with_the_view_and_leak_nothing() -> None:
    """The Metropolis chain's swaps keep every world consistent with what the seat
    saw, and its worlds are a function of the view and the random stream."""
    inference = PolicyInference(epsilon=0.2, max_checks=24)
    truth = _heuristic_play("fairy500", 4, 2, 22)
    seat = truth.current_player
    assert seat is not None
    view = truth.view(seat)
    twin = truth.sample_world(seat, random.Random(98))
    assert twin.view(seat) == view and twin.zones() != truth.zones()
    got = []
    for state in (truth, twin):
        worlds = inference.posterior_worlds(
            lambda r, st=state: st.sample_world(seat, r),
            seat,
            random.Random(6),
            chains=2,
            steps=10,
            burn=2,
            tries=2,
        )
        assert len(worlds) == 16
        got.append([w.snapshot() for w in worlds])
        for w in worlds:
            assert w.view(seat) == view
            assert w.history == truth.history
    assert got[0] == got[1]
    assert len({json.dumps(s["deals"], sort_keys=True) for s in got[0]}) > 2  # it moves
    # a decision's pool made of chains: deterministic, copies, consistent
    da = inferred_decision(decision_for(truth), inference, chains=1, steps=6, burn=1)
    db = inferred_decision(decision_for(twin), inference, chains=1, steps=6, burn=1)
    ra, rb = random.Random(2), random.Random(2)
    for _ in range(4):
        x, y = da.sample_world(ra), db.sample_world(rb)
        assert x.view(seat) == view and x.snapshot() == y.snapshot()


def test_the_chain_climbs_towards_worlds_that_explain_the_moves() -> None:
    inference = PolicyInference(epsilon=0.1)
    truth = _heuristic_play("grail-mahjong", 3, 4, 30)
    seat = truth.current_player
    assert seat is not None
    start = truth.sample_world(seat, random.Random(5))
    movable = {c for z, cards in truth.zones().items() for c in cards if z != f"hand:{seat}"}
    worlds = inference.chain(start, seat, random.Random(1), 30, movable)
    first = inference.log_likelihood(start, seat)
    assert inference.log_likelihood(worlds[-1], seat) >= first
    assert max(inference.log_likelihood(w, seat) for w in worlds) > first
