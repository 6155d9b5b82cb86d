"""``examples/self_play_gymnasium.py`` runs end to end on a few episodes (a smoke test:
the learning itself is measured in docs/agents.md, not here)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

import xtarot

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium", reason="needs gymnasium (pip install 'xtarot[gymnasium]')")

from xtarot.adapters.pettingzoo import XtarotEnv  # noqa: E402  (after the skips)
from xtarot.agents import decision_for  # noqa: E402

SCRIPT = Path(__file__).resolve().parents[1] / "examples" / "self_play_gymnasium.py"
TINY = ["--game", "sono-arcana", "-p", "3", "--episodes", "8", "--eval-every", "4"]
TINY += ["--matches", "3", "--hidden", "8", "--batch", "2", "--snapshot-every", "4"]


def _example():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("self_play_gymnasium", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_self_play_runs_updates_the_policy_and_repeats(capsys: pytest.CaptureFixture[str]) -> None:
    sp = _example()
    out = sp.main([*TINY, "--no-references"])
    printed = capsys.readouterr().out
    assert "vs random" in printed and "vs normal" in printed and "done in" in printed
    assert [row["episodes"] for row in out["curve"]] == [0, 4, 8]
    for row in out["curve"]:
        assert 0.0 <= row["random"] <= 1.0 and 0.0 <= row["normal"] <= 1.0
    assert out["changed"] and out["finite"], "the policy learned something and stayed finite"
    again = sp.main([*TINY, "--no-references"])
    assert [(r["random"], r["normal"]) for r in again["curve"]] == [
        (r["random"], r["normal"]) for r in out["curve"]
    ], "the same seed gives the same curve"
    for k, v in out["params"].items():
        assert np.array_equal(v, again["params"][k])


def test_snapshot_opponent_sees_its_own_observation_and_plays_legal_moves() -> None:
    sp = _example()
    game = xtarot.load("sono-arcana", players=3)
    policy = sp.Policy(sp.encoder_for(game).size, game.num_actions, 8, np.random.default_rng(1))
    agent = sp.SnapshotAgent(game, policy.snapshot(), seed=2)
    env = XtarotEnv("sono-arcana", players=3)
    env.reset(seed=5)
    state = env.state
    assert state is not None
    while not state.is_terminal:
        seat = state.current_player
        decision = decision_for(state)
        agent.act(decision)  # encodes the decision's view into agent._x
        tensor = env.observe(env.possible_agents[seat])["observation"]
        assert np.array_equal(agent._x, tensor), "the same tensor the environment gives that seat"
        env.step(agent.act(decision_for(state)).id)  # the engine refuses an illegal move
