"""The fairy500 hand-value model (``xtarot.adapters.value``, ``xtarot train value``):
features from the seat's view only, reproducible training, the bot's optional use."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

import xtarot
from xtarot.agents import decision_for, make_agent, play_match
from xtarot.cli.main import app

np = pytest.importorskip("numpy", reason="needs numpy (pip install 'xtarot[train]')")

from xtarot.adapters.value import (  # noqa: E402  (after the skip)
    DENOMINATIONS,
    ValueModel,
    contract_playouts,
    features,
    generate,
    metadata,
    train_value,
)

runner = CliRunner()
ENV = {"LANG": "C.UTF-8", "LC_ALL": "", "COLUMNS": "100", "TERM": "dumb", "NO_COLOR": "1"}
ARGS = ["fairy500", "-p", "4", "--deals", "3", "--eval-deals", "1", "--epochs", "2",
        "--hidden", "4", "--seed", "5"]  # fmt: skip


def _game(players: int = 4) -> xtarot.Game:
    return xtarot.load("fairy500", players=players, hands=1)


@pytest.mark.parametrize("players", [4, 6])
def test_features_come_from_the_view_only(players: int) -> None:
    """The true deal and worlds the seat cannot tell from it (other hands, another
    kitty) give the same features; another seat's view gives others."""
    truth = _game(players).new_state(seed=7)
    rng = random.Random(2)
    for seat in range(players):
        mine = features(truth.view(seat))
        assert mine.sum() == 10 + 1  # ten cards and a place in the bidding order
        differ = 0
        for _ in range(3):
            world = truth.sample_world(seat, rng)
            differ += world.deals[0] != truth.deals[0]
            assert np.array_equal(features(world.view(seat)), mine)
        assert differ  # the worlds do hide other cards: the test can fail
    assert not np.array_equal(features(truth.view(0)), features(truth.view(1)))


def test_contract_playouts_replay_the_deal() -> None:
    game = _game()
    state = game.new_state(seed=3)
    got = contract_playouts(game, state.deals[0], 1)
    assert set(got) == {*DENOMINATIONS, "misere"}
    assert all(0 <= got[d] <= 10 for d in DENOMINATIONS) and got["misere"] in (0, 1)
    assert got == contract_playouts(game, state.deals[0], 1)


def _small() -> tuple[ValueModel, dict]:
    game = _game()
    data = generate(game, 4, 9, eval_deals=1)
    assert data.x.shape[0] == 5 * 4 and data.tricks.shape == (20, len(DENOMINATIONS))
    meta = metadata(game, seed=9, deals=4, eval_deals=1, epochs=2, rows=len(data.x))
    result = train_value(data, meta, epochs=2, hidden_units=8, seed=9)
    return result.model, result.evaluation


def test_training_is_reproducible_and_round_trips(tmp_path: Path) -> None:
    model, ev = _small()
    again, ev2 = _small()
    assert ev == ev2 and ev["rows"] == 4
    a, b = tmp_path / "a.npz", tmp_path / "b.npz"
    assert model.save(a) == a.stat().st_size
    again.save(b)
    assert a.read_bytes() == b.read_bytes()  # same data and seed: the same file
    loaded = ValueModel.load(a)
    view = _game().new_state(seed=1).view(0)
    values = loaded.contract_values(view)
    assert values == model.contract_values(view)
    assert len(values) == 26 and "bid 10nt" in values and "bid misere" in values
    for text, v in values.items():
        assert abs(v) <= 520 + 1e-6, text
    assert loaded.meta["seed"] == 9 and loaded.meta["xtarot"] == xtarot.__version__
    (tmp_path / "junk.npz").write_bytes(b"not a model")
    with pytest.raises(ValueError, match="not an xtarot hand-value model"):
        ValueModel.load(tmp_path / "junk.npz")
    with pytest.raises(ValueError, match="4 players"):
        loaded.predict(_game(5).new_state(seed=1).view(0))


def test_the_bot_bids_by_a_model_only_when_given_one() -> None:
    model, _ = _small()
    game = _game()
    plain = play_match(game, [make_agent("normal", s) for s in range(4)], seed=11)
    same = play_match(game, [make_agent("normal", s, value_model=None) for s in range(4)], seed=11)
    assert [a.text for a in plain.history] == [a.text for a in same.history]
    agents = [make_agent("normal", s, value_model=model) for s in range(4)]
    state = game.new_state(seed=11)
    decision = decision_for(state)
    action = agents[decision.seat].act(decision)
    assert action in decision.legal
    explained = agents[decision.seat].explain()
    assert explained is not None and "hand-value model" in explained.en
    play_match(game, agents, state=state)
    assert state.is_terminal
    # a model of another player count is left aside: the heuristic's own bids
    six = _game(6)
    mixed = play_match(six, [make_agent("normal", s, value_model=model) for s in range(6)], seed=3)
    plain6 = play_match(six, [make_agent("normal", s) for s in range(6)], seed=3)
    assert [a.text for a in mixed.history] == [a.text for a in plain6.history]


def test_train_value_command_is_reproducible_and_records_itself(tmp_path: Path) -> None:
    out = tmp_path / "v.npz"
    res = runner.invoke(app, ["train", "value", *ARGS, "--out", str(out), "--json"], env=ENV)
    assert res.exit_code == 0, res.output
    summary = json.loads(res.output)
    assert summary["path"] == str(out) and summary["bytes"] == out.stat().st_size
    assert summary["evaluation"]["rows"] == 4 and summary["rows"] == 16
    first = out.read_bytes()
    model = ValueModel.load(out)
    assert model.meta["command"] == summary["command"] and model.meta["seed"] == 5
    res = runner.invoke(app, ["train", "value", *ARGS, "--out", str(out)], env=ENV)
    assert res.exit_code == 2 and "--force" in res.output
    res = runner.invoke(app, ["train", "value", *ARGS, "--out", str(out), "--force"], env=ENV)
    assert res.exit_code == 0, res.output
    assert "mean absolute error" in res.output
    assert out.read_bytes() == first  # the same command and seed: the same weights


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["fairy500", "--deals", "0"], "at least 1"),
        (["fairy500", "--out", "x.txt"], ".npz"),
        (["extendori"], "sono-arcana (its lots) only"),
        (["fairy500", "-p", "9"], "players"),
    ],
)
def test_train_value_bad_input_says_why(args: list[str], message: str) -> None:
    res = runner.invoke(app, ["train", "value", *args], env=ENV)
    assert res.exit_code == 2
    assert message in res.output


def test_train_value_speaks_japanese() -> None:
    res = runner.invoke(app, ["train", "value", "extendori", "--lang", "ja"], env=ENV)
    assert res.exit_code == 2
    assert "fairy500" in res.output and "専用" in res.output
