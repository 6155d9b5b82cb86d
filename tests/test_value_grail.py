"""The grail-mahjong claim model (``xtarot.adapters.value_grail``, ``xtarot train value
grail-mahjong``): features from the seat's view only, reproducible training, the bot's
optional use of it."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import xtarot
from xtarot.agents import decision_for, make_agent, play_match
from xtarot.cli.main import app
from xtarot.engine import State

np = pytest.importorskip("numpy", reason="needs numpy (pip install 'xtarot[train]')")

from xtarot.adapters.value import ValueModel, load_value_model  # noqa: E402
from xtarot.adapters.value_grail import (  # noqa: E402  (after the skip)
    ClaimModel,
    answer_features,
    answer_playouts,
    features,
    generate,
    metadata,
    train_claims,
    view_features,
)

runner = CliRunner()
ENV = {"LANG": "C.UTF-8", "LC_ALL": "", "COLUMNS": "100", "TERM": "dumb", "NO_COLOR": "1"}
ARGS = ["grail-mahjong", "-p", "3", "--deals", "4", "--eval-deals", "2", "--epochs", "2",
        "--hidden", "4", "--seed", "5"]  # fmt: skip


def _game(players: int = 3) -> xtarot.Game:
    return xtarot.load("grail-mahjong", players=players, hands=1)


def _claim_rounds(game: xtarot.Game, seed: int, limit: int = 3) -> list[State]:
    """Copies of the claim rounds of a heuristic hand where the seat to answer may claim."""
    state = game.new_state(seed=seed)
    agents = [make_agent("heuristic", s) for s in range(game.players)]
    found = []
    while not state.is_terminal and len(found) < limit:
        legal = state.legal_actions()
        if any(a.text.startswith("claim") for a in legal):
            found.append(state.clone())
        state.apply(agents[state.current_player].act(decision_for(state)))
    return found


@pytest.mark.parametrize("players", [3, 4])
def test_features_come_from_the_view_only(players: int) -> None:
    """The true position and worlds the answering seat cannot tell from it (other hands,
    another stock) give the same features; another round gives others."""
    game = _game(players)
    rounds = [s for seed in range(4) for s in _claim_rounds(game, seed)]
    assert len(rounds) >= 2
    rng = random.Random(3)
    differ = 0
    for truth in rounds:
        seat = truth.current_player
        view = truth.view(seat)
        answers = view["legal_actions"]
        mine = [features(view, a) for a in answers]
        for _ in range(2):
            world = truth.sample_world(seat, rng)
            differ += (
                world.view((seat + 1) % players)["hand"] != truth.view((seat + 1) % players)["hand"]
            )
            seen = world.view(seat)
            for a, x in zip(answers, mine, strict=True):
                assert np.array_equal(features(seen, a), x)
        # the hand, the discard and the answer's cards are there
        assert view_features(view)[: len(view_features(view))].sum() > len(view["hand"])
        assert answer_features(view, "pass").sum() == 1.0
    assert differ  # the worlds do hide other cards: the test can fail
    a, b = rounds[0], rounds[1]
    assert not np.array_equal(
        view_features(a.view(a.current_player)), view_features(b.view(b.current_player))
    )


def test_answer_playouts_finish_every_answer() -> None:
    state = _claim_rounds(_game(), 1, 1)[0]
    got = answer_playouts(state, 4)
    assert list(got) == [a.text for a in state.legal_actions()] and "pass" in got
    assert all(0.0 <= w <= 1.0 for w in got.values())
    assert got == answer_playouts(state.clone(), 4)
    assert not state.is_terminal  # the position itself is left alone


def _small() -> tuple[ClaimModel, dict[str, Any]]:
    game = _game()
    data = generate(game, 6, 9, eval_deals=2)
    assert len(data.x) == len(data.win) and data.chosen.sum() == data.decision.max() + 1
    assert data.claim.any() and (~data.claim).sum() == data.chosen.sum()  # one pass a round
    meta = metadata(
        game, seed=9, deals=6, eval_deals=2, epochs=2, rows=len(data.x), rounds=data.chosen.sum()
    )
    result = train_claims(data, meta, epochs=2, hidden_units=8, seed=9)
    return result.model, result.evaluation


def test_training_is_reproducible_and_round_trips(tmp_path: Path) -> None:
    model, ev = _small()
    again, ev2 = _small()
    assert ev == ev2 and ev["rounds"] >= 1
    assert ev["best"] >= max(ev["heuristic"], ev["model"], ev["bot"], ev["pass"])
    a, b = tmp_path / "a.npz", tmp_path / "b.npz"
    assert model.save(a) == a.stat().st_size
    again.save(b)
    assert a.read_bytes() == b.read_bytes()  # same data and seed: the same file
    loaded = load_value_model(a)
    assert isinstance(loaded, ClaimModel) and loaded.game == "grail-mahjong"
    assert isinstance(load_value_model(io.BytesIO(a.read_bytes())), ClaimModel)
    state = _claim_rounds(_game(), 2, 1)[0]
    view = state.view(state.current_player)
    values = loaded.answer_values(view, view["legal_actions"])
    assert values == model.answer_values(view, view["legal_actions"])
    assert set(values) == set(view["legal_actions"]) and all(0 < v < 1 for v in values.values())
    assert loaded.meta["seed"] == 9 and loaded.meta["margin"] == loaded.margin == 0.05
    with pytest.raises(ValueError, match="not an xtarot hand-value model"):
        ValueModel.load(a)  # a claim model is no fairy500 model
    (tmp_path / "junk.npz").write_bytes(b"not a model")
    with pytest.raises(ValueError, match="not an xtarot hand-value model"):
        load_value_model(tmp_path / "junk.npz")
    with pytest.raises(ValueError, match="3 players"):
        four = _claim_rounds(_game(4), 0, 1)[0]
        loaded.answer_values(four.view(four.current_player), ["pass"])


class _Prefers:
    """A stand-in claim model that expects ``pass`` (or any claim) to win everything."""

    game = "grail-mahjong"
    margin = 0.05

    def __init__(self, players: int, favourite: str) -> None:
        self.players = players
        self.favourite = favourite
        self.asked = 0

    def answer_values(self, view: dict[str, Any], answers: list[str]) -> dict[str, float]:
        self.asked += 1
        return {a: 1.0 if a.startswith(self.favourite) else 0.0 for a in answers}


def test_the_bot_answers_by_a_model_only_when_given_one() -> None:
    game = _game()
    plain = play_match(game, [make_agent("normal", s) for s in range(3)], seed=11)
    same = play_match(game, [make_agent("normal", s, value_model=None) for s in range(3)], seed=11)
    assert [a.text for a in plain.history] == [a.text for a in same.history]
    # a model that always prefers to pass: the bot passes where it could claim (but
    # never on an agari claim), and explains why
    state = _claim_rounds(game, 1, 1)[0]
    decision = decision_for(state)
    model = _Prefers(3, "pass")
    bot = make_agent("normal", 1, value_model=model)
    heuristic = make_agent("normal", 1).act(decision_for(state))
    assert heuristic.text.startswith("claim")  # the heuristic claims here
    assert bot.act(decision).text == "pass" and model.asked == 1
    explained = bot.explain()
    assert explained is not None and "claim model" in explained.en and "鳴き" in explained.ja
    # a small margin is not enough: the model must expect more than it
    model.margin = 1.0
    assert bot.act(decision_for(state)).text == heuristic.text
    # whole hands: a bot preferring passes never claims but to go out (agari)
    bots = [make_agent("normal", s, value_model=_Prefers(3, "pass")) for s in range(3)]
    for seed in range(3):
        done = play_match(game, bots, seed=seed)
        for a in done.history:
            if a.text.startswith("claim"):
                assert done.public_view()["results"][0]["end"] == "agari"
    # other games and another player count leave the model aside
    four = _game(4)
    mixed = play_match(four, [make_agent("normal", s, value_model=model) for s in range(4)], seed=3)
    plain4 = play_match(four, [make_agent("normal", s) for s in range(4)], seed=3)
    assert [a.text for a in mixed.history] == [a.text for a in plain4.history]
    f5 = xtarot.load("fairy500", players=4, hands=1)
    mixed = play_match(f5, [make_agent("normal", s, value_model=model) for s in range(4)], seed=3)
    plain5 = play_match(f5, [make_agent("normal", s) for s in range(4)], seed=3)
    assert [a.text for a in mixed.history] == [a.text for a in plain5.history]


def test_the_bot_plays_whole_hands_with_a_trained_model() -> None:
    model, _ = _small()
    done = play_match(
        _game(), [make_agent("normal", s, value_model=model) for s in range(3)], seed=2
    )
    assert done.is_terminal


def test_train_value_grail_command_is_reproducible_and_records_itself(tmp_path: Path) -> None:
    out = tmp_path / "c.npz"
    res = runner.invoke(app, ["train", "value", *ARGS, "--out", str(out), "--json"], env=ENV)
    assert res.exit_code == 0, res.output
    summary = json.loads(res.output)
    assert summary["path"] == str(out) and summary["bytes"] == out.stat().st_size
    assert summary["rounds"] >= 1 and summary["rows"] > summary["rounds"]
    first = out.read_bytes()
    model = ClaimModel.load(out)
    assert model.meta["command"] == summary["command"] and model.meta["seed"] == 5
    assert "grail-mahjong" in summary["command"]
    res = runner.invoke(app, ["train", "value", *ARGS, "--out", str(out), "--force"], env=ENV)
    assert res.exit_code == 0, res.output
    assert "claim rounds" in res.output and "hindsight win share" in res.output
    assert out.read_bytes() == first  # the same command and seed: the same weights
    res = runner.invoke(
        app, ["train", "value", *ARGS, "--out", str(out), "--force", "--lang", "ja"], env=ENV
    )
    assert res.exit_code == 0, res.output
    assert "鳴き" in res.output
