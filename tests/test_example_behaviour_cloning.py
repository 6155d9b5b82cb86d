"""``examples/behaviour_cloning.py`` runs end to end on a tiny export (a smoke test:
the learning itself is measured in docs/agents.md, not here)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

import xtarot

pytest.importorskip("pyarrow", reason="needs pyarrow (pip install 'xtarot[data]')")
np = pytest.importorskip("numpy")

from xtarot.adapters.dataset import export_matches  # noqa: E402  (after the skips)
from xtarot.adapters.tensors import encoder_for  # noqa: E402
from xtarot.agents import decision_for  # noqa: E402

SCRIPT = Path(__file__).resolve().parents[1] / "examples" / "behaviour_cloning.py"


def _example():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("behaviour_cloning", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_behaviour_cloning_runs_and_learns_the_training_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = xtarot.load("matto", players=3)
    path = tmp_path / "m.parquet"
    export_matches(game, ["heuristic"], games=6, seed=3, out=path)
    bc = _example()
    out = bc.main([str(path), "--epochs", "6", "--hidden", "32", "--matches", "3"])
    printed = capsys.readouterr().out
    assert "held-out acc" in printed and "against normal" in printed
    curve = out["curve"]
    assert len(curve) == 6
    assert curve[-1][1] < curve[0][1], "the training loss falls"
    assert curve[-1][2] > out["chance"], "it fits its training rows better than chance"
    for mine, heuristic, fair in out["results"].values():
        assert 0.0 <= mine <= 1.0 and 0.0 <= heuristic <= 1.0 and fair == pytest.approx(1 / 3)
    # the cloned agent plays legal moves from the seat's view (its Decision) alone
    policy = bc.Policy(encoder_for(game).size, game.num_actions, 8, np.random.default_rng(1))
    state = game.new_state(seed=4)
    agent = bc.ClonedAgent(policy, game)
    for _ in range(20):
        decision = decision_for(state)
        state.apply(agent.act(decision))  # apply refuses an illegal move
