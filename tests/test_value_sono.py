"""The sono-arcana lot model (``xtarot.adapters.value_sono``, ``xtarot train value
sono-arcana``): features from the parent's view only, the heuristic's two bids, the
bot's optional use, reproducible training."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import xtarot
from xtarot.agents import decision_for, make_agent, play_match
from xtarot.agents.heuristic.sono_arcana import lot_moves
from xtarot.cli.main import app
from xtarot.engine import State

np = pytest.importorskip("numpy", reason="needs numpy (pip install 'xtarot[train]')")

from xtarot.adapters.value import load_value_model  # noqa: E402
from xtarot.adapters.value_sono import LotModel, answer_features, view_features  # noqa: E402

runner = CliRunner()
ENV = {"LANG": "C.UTF-8", "LC_ALL": "", "COLUMNS": "100", "TERM": "dumb", "NO_COLOR": "1"}
ARGS = ["sono-arcana", "-p", "4", "--deals", "1", "--eval-deals", "1", "--epochs", "2",
        "--hidden", "4", "--seed", "5"]  # fmt: skip


def _choices(game: xtarot.Game, seed: int) -> list[tuple[State, str]]:
    """Copies of a heuristic match's parent choices (lot or bid) with the move made."""
    state = game.new_state(seed=seed)
    agents = [make_agent("heuristic", s) for s in range(game.players)]
    found = []
    while not state.is_terminal:
        view = state.view(state.current_player)
        action = agents[state.current_player].act(decision_for(state))
        if view["phase"] == "bid" or "lot 1" in view["legal_actions"]:
            found.append((state.clone(), action.text))
        state.apply(action)
    return found


def test_features_come_from_the_view_only_and_bids_are_the_heuristics() -> None:
    game = xtarot.load("sono-arcana", players=4)
    choices = _choices(game, 3)
    rng = random.Random(1)
    differ = 0
    bids = 0
    for truth, move in choices:
        seat = truth.current_player
        view = truth.view(seat)
        mine = view_features(view)
        world = truth.sample_world(seat, rng)
        differ += world.view((seat + 1) % 4)["hand"] != truth.view((seat + 1) % 4)["hand"]
        assert np.array_equal(view_features(world.view(seat)), mine)
        if view["phase"] == "bid":
            bids += 1
            assert move in lot_moves(view["hand"])  # the heuristic's bid is one of the two
            up, down = lot_moves(view["hand"])
            assert answer_features(view, up).argmax() == 2
            assert answer_features(view, down).argmax() == 3
    assert bids >= 5 and differ


class _Prefers:
    game = "sono-arcana"
    margin = 0.05
    players = 4

    def __init__(self, favourite: str) -> None:
        self.favourite = favourite

    def answer_values(self, view: dict[str, Any], answers: list[str]) -> dict[str, float]:
        return {a: 1.0 if a.startswith(self.favourite) else 0.0 for a in answers}


def test_the_bot_decides_lots_by_a_model_only_when_given_one() -> None:
    game = xtarot.load("sono-arcana", players=4)
    plain = play_match(game, [make_agent("normal", s) for s in range(4)], seed=5)
    same = play_match(game, [make_agent("normal", s, value_model=None) for s in range(4)], seed=5)
    assert [a.text for a in plain.history] == [a.text for a in same.history]
    # a model that wants every lot: every parent's bid is face up, and explained
    bots = [make_agent("normal", s, value_model=_Prefers("bid up")) for s in range(4)]
    done = play_match(game, bots, seed=5)
    kinds = {a.text.split()[1] for a in done.history if a.text.startswith("bid")}
    assert kinds == {"up"}
    assert kinds != {a.text.split()[1] for a in plain.history if a.text.startswith("bid")}
    state = game.new_state(seed=5)
    while "lot 2" not in [a.text for a in state.legal_actions()]:
        state.apply(make_agent("normal", 0).act(decision_for(state)))
    own = make_agent("normal", 1).act(decision_for(state)).text
    other = "lot 1" if own == "lot 2" else "lot 2"
    bot = make_agent("normal", 1, value_model=_Prefers(other))
    assert bot.act(decision_for(state)).text == other
    explained = bot.explain()
    assert explained is not None and "lot model" in explained.en
    # another player count leaves it aside
    three = xtarot.load("sono-arcana", players=3)
    wants = [make_agent("normal", s, value_model=_Prefers("bid up")) for s in range(3)]
    mixed = play_match(three, wants, seed=2)
    plain3 = play_match(three, [make_agent("normal", s) for s in range(3)], seed=2)
    assert [a.text for a in mixed.history] == [a.text for a in plain3.history]


def test_train_value_sono_command_is_reproducible(tmp_path: Path) -> None:
    out = tmp_path / "s.npz"
    res = runner.invoke(app, ["train", "value", *ARGS, "--out", str(out), "--json"], env=ENV)
    assert res.exit_code == 0, res.output
    summary = json.loads(res.output)
    assert summary["rows"] == 2 * summary["rounds"] and summary["evaluation"]["rounds"] >= 1
    first = out.read_bytes()
    model = load_value_model(out)
    assert isinstance(model, LotModel) and model.game == "sono-arcana" and model.players == 4
    assert model.meta["command"] == summary["command"]
    state, _ = next(c for c in _choices(xtarot.load("sono-arcana", players=4), 1))
    view = state.view(state.current_player)
    values = model.answer_values(view, ["lot 1", "lot 2"])
    assert set(values) == {"lot 1", "lot 2"} and all(0 < v < 1 for v in values.values())
    done = play_match(
        xtarot.load("sono-arcana", players=4),
        [make_agent("normal", s, value_model=model) for s in range(4)],
        seed=1,
    )
    assert done.is_terminal
    res = runner.invoke(app, ["train", "value", *ARGS, "--out", str(out), "--force"], env=ENV)
    assert res.exit_code == 0, res.output
    assert "parent's choices" in res.output
    assert out.read_bytes() == first  # the same command and seed: the same weights


def test_the_shipped_lot_model_fits_only_its_game() -> None:
    """The package carries a 4-player lot model (small, numpy only); nothing else has a
    shipped hand-value model, and nothing loads it unasked."""
    from importlib import resources

    from xtarot.adapters.value import shipped_value_model

    game = xtarot.load("sono-arcana", players=4)
    model = shipped_value_model(game)
    assert isinstance(model, LotModel) and model.players == 4 and model.margin == 0.02
    assert model.meta["command"].startswith("xtarot train value sono-arcana -p 4")
    res = resources.files("xtarot.adapters").joinpath("models", "value-sono-arcana-4p.npz")
    assert len(res.read_bytes()) <= 2 * 1024 * 1024
    for other in (
        xtarot.load("sono-arcana", players=4, teams=True),
        xtarot.load("sono-arcana", players=3),
        xtarot.load("grail-mahjong", players=3),
        xtarot.load("fairy500", players=4),
    ):
        assert shipped_value_model(other) is None
    # handed to the normal bots it changes some of their choices as parent
    plain = play_match(game, [make_agent("normal", s) for s in range(4)], seed=1)
    bots = [make_agent("normal", s, value_model=model) for s in range(4)]
    with_model = play_match(game, bots, seed=1)
    assert with_model.is_terminal
    assert [a.text for a in with_model.history] != [a.text for a in plain.history]
