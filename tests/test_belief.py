"""Card-location (belief) models and weighted worlds (docs/agents.md, *The belief model*).

The weighted sampler is held to what the uniform samplers are: every world it returns
agrees with the seat's view, its draw is exact where it can be computed (a constant
weight is uniform; an all-or-nothing weight keeps a world of the favoured set with
probability ``1 - (1 - p)^K``), and it leaks nothing of the true state (the same worlds
from the true state and from a state the seat cannot tell from it).  The model's inputs
are the view's only: the same in every world of the seat.  Training is checked for
reproducibility (the same bytes for a seed), its file and its command line.  Kept small;
a real training run is ``-m slow``.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import xtarot
from xtarot.cli.main import app
from xtarot.engine import State, count_deals, deal_uniform, sample_world_weighted

np = pytest.importorskip("numpy", reason="needs numpy (pip install 'xtarot[train]')")

from xtarot.adapters.belief import (  # noqa: E402  (after the skip)
    BeliefModel,
    _log_softmax,
    _planes,
    evaluate,
    events_for,
    generate,
    input_width,
    shipped_model,
    train,
    true_locations,
    weighted_decision,
)
from xtarot.adapters.belief_events import KINDS, RELATIONS  # noqa: E402

runner = CliRunner()
ENV = {"LANG": "C.UTF-8", "LC_ALL": "", "COLUMNS": "100", "TERM": "dumb", "NO_COLOR": "1"}

# -- the weighted sampler on a deal whose every world is known ---------------------------

CARDS = ["c1", "c2", "d1", "d2", "s1"]
CAPS = [2, 2, 1]


def _allowed(c: str) -> set[int]:
    return {1, 2} if c.startswith("c") else {0, 1, 2}  # seat 0 is void in cups


class _Deals:
    """A stand-in state whose worlds are the deals of ``CARDS`` (uniform, 9 of them)."""

    def sample_world(self, seat: int, rng: random.Random) -> tuple[int, ...]:
        hands = deal_uniform(CARDS, CAPS, _allowed, rng)
        where = {c: s for s, h in enumerate(hands) for c in h}
        return tuple(where[c] for c in CARDS)


def _all_deals() -> list[tuple[int, ...]]:
    out = []
    for seats in itertools.product(range(3), repeat=len(CARDS)):
        if [seats.count(s) for s in range(3)] == CAPS and all(
            s in _allowed(c) for c, s in zip(CARDS, seats, strict=True)
        ):
            out.append(seats)
    assert len(out) == count_deals(CARDS, CAPS, _allowed) == 9
    return out


def test_weighted_sampling_with_a_constant_weight_is_uniform() -> None:
    rng = random.Random(5)
    seen = Counter(
        sample_world_weighted(_Deals(), 0, rng, lambda w: 1.5, candidates=3)  # type: ignore[arg-type]
        for _ in range(2_700)
    )
    assert set(seen) == set(_all_deals())
    for freq in seen.values():  # each of 9 deals ~300 times; 5 sigma is ~85
        assert 215 < freq < 385


def test_weighted_sampling_keeps_a_favoured_world_as_the_formula_says() -> None:
    deals = _all_deals()
    favoured = {d for d in deals if d[CARDS.index("c1")] == 1}  # c1 in seat 1's hand
    p = len(favoured) / len(deals)
    k = 3
    expected = 1 - (1 - p) ** k
    rng = random.Random(11)
    draws = 2_500
    got = [
        sample_world_weighted(
            _Deals(),  # type: ignore[arg-type]
            0,
            rng,
            lambda w: 0.0 if w in favoured else -800.0,
            candidates=k,
        )
        for _ in range(draws)
    ]
    share = sum(w in favoured for w in got) / draws
    sigma = (expected * (1 - expected) / draws) ** 0.5
    assert abs(share - expected) < 5 * sigma, (share, expected)
    # within the favoured set the draw stays uniform
    inside = Counter(w for w in got if w in favoured)
    assert set(inside) == favoured
    mean = sum(inside.values()) / len(inside)
    assert all(abs(n - mean) < 6 * mean**0.5 for n in inside.values())


def test_weighted_sampling_refuses_bad_settings() -> None:
    with pytest.raises(ValueError, match="candidates"):
        sample_world_weighted(_Deals(), 0, random.Random(1), lambda w: 0.0, candidates=0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="weight 0"):
        sample_world_weighted(
            _Deals(),  # type: ignore[arg-type]
            0,
            random.Random(1),
            lambda w: float("-inf"),
            candidates=2,
        )


# -- positions of real games ----------------------------------------------------------


def _position(game_id: str, players: int, seed: int, steps: int, **options: Any) -> State:
    state = xtarot.load(game_id, players=players, **options).new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        legal = state.legal_actions()
        passes = [a for a in legal if a.text == "pass"]
        state.apply(passes[0] if passes and rng.random() < 0.7 else rng.choice(legal))
    assert not state.is_terminal
    return state


@pytest.fixture(scope="module")
def small() -> tuple[BeliefModel, Any]:
    """A tiny model of sono-arcana at 3 players (4 + 1 held-out matches)."""
    game = xtarot.load("sono-arcana", players=3)
    data = generate(game, 4, 7, eval_games=1, eval_positions=8, draws=32)
    result = train(
        data,
        {"game": game.id, "players": 3, "options": dict(game.options)},
        epochs=2,
        hidden_units=8,
        seed=7,
    )
    return result.model, data


def test_weighted_worlds_agree_with_the_view_and_leak_nothing(
    small: tuple[BeliefModel, Any],
) -> None:
    model = small[0]
    truth = _position("sono-arcana", 3, 4, 9)
    seat = truth.current_player
    assert seat is not None
    view = truth.view(seat)
    weight = model.log_weight(view)
    twin = truth.sample_world(seat, random.Random(99))  # another deal, the same view
    assert twin.view(seat) == view
    assert true_locations(twin, seat) != true_locations(truth, seat)
    a = [
        sample_world_weighted(truth, seat, random.Random(s), weight, candidates=6) for s in range(8)
    ]
    b = [
        sample_world_weighted(
            twin, seat, random.Random(s), model.log_weight(twin.view(seat)), candidates=6
        )
        for s in range(8)
    ]
    for x, y in zip(a, b, strict=True):
        assert x.view(seat) == view
        assert x.snapshot() == y.snapshot()  # a function of the view and the stream only
    assert len({json.dumps(x.zones(), sort_keys=True) for x in a}) > 1


def test_a_search_bot_plays_on_weighted_worlds_unchanged(small: tuple[BeliefModel, Any]) -> None:
    from xtarot.agents import decision_for, make_agent

    truth = _position("sono-arcana", 3, 6, 5)
    decision = weighted_decision(decision_for(truth), small[0], candidates=4)
    rng = random.Random(2)
    for _ in range(5):
        assert decision.sample_world(rng).view(decision.seat) == decision.view
    action = make_agent("pimc", 1, worlds=3).act(decision)
    assert action in decision.legal


@pytest.mark.parametrize(
    ("game_id", "players", "steps"),
    [
        ("sono-arcana", 4, 10),
        ("fairy500", 4, 12),
        ("grail-mahjong", 3, 20),
        ("extendori", 4, 14),
        ("matto", 3, 12),
        ("arcana-duel", 2, 8),
    ],
)
def test_features_come_from_the_view_only(game_id: str, players: int, steps: int) -> None:
    """Two states a seat cannot tell apart give it the same features."""
    truth = _position(game_id, players, 3, steps)
    seat = truth.current_player
    assert seat is not None
    game = truth.game
    from xtarot.adapters.tensors import encoder_for

    cards = list(encoder_for(game).cards)
    locations = ["hand:+1", "stock"]
    meta = {
        "game": game.id,
        "players": players,
        "options": dict(game.options),
        "cards": cards,
        "locations": locations,
    }
    width = input_width(events_for(game), len(KINDS), len(locations))
    wrng = np.random.default_rng(1)
    model = BeliefModel(
        {
            "kinds": np.arange(len(KINDS)),
            "w1": wrng.standard_normal((width, 4)),
            "b1": np.zeros(4),
            "w2": wrng.standard_normal((4, 1)),
            "b2": np.zeros(1),
            "bias": np.zeros((len(cards), len(locations))),
            "mix": np.zeros(3),
        },
        meta,
    )
    mine = model.features_of(truth, seat)
    same = lambda a, b: all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))  # noqa: E731
    assert same(mine, model.features(truth.view(seat)))
    if game_id in ("fairy500", "grail-mahjong", "extendori"):
        assert mine[0].any()  # events were read: the comparison means something
    g = model.correction(mine)
    differ = 0
    rng = random.Random(1)
    for _ in range(4):
        world = truth.sample_world(seat, rng)
        differ += true_locations(world, seat) != true_locations(truth, seat)
        assert same(model.features_of(world, seat), mine)
        assert same(model.features(world.view(seat)), mine)
        assert np.array_equal(model.correction(model.features(world.view(seat))), g)
    assert differ  # the worlds do hide other cards: the test can fail


def test_suit_kinds_name_suits_never_cards() -> None:
    """The play-time network relates a bid or a trump to the cards as "same suit"
    alone: an event of such a kind on a card is refused where it is written."""
    from xtarot.adapters.belief_events import SUIT_KINDS, _Sink

    sink = _Sink(events_for(xtarot.load("fairy500", players=4)))
    for kind in SUIT_KINDS:
        sink.add_suit(kind, 1, "c")
        with pytest.raises(ValueError, match="names a suit"):
            sink.add(kind, 1, "Jc")
    sink.add("called", 1, "Jc")
    assert len(sink.where) == 1 + len(SUIT_KINDS)


def test_played_cards_are_counted_as_one_tenth_at_a_time() -> None:
    """The seats' "played" fact is looked up, not added card by card: the same float32
    sums as ``+= 0.1`` once per card (which differ from ``n * 0.1`` for some ``n``)."""
    from xtarot.adapters.belief_events import SEAT_FACTS, _add_tenths

    played = [0, 1, 7, 30, 130]  # 130 is past the first table
    facts = np.zeros((len(played), len(SEAT_FACTS)), dtype=np.float32)
    _add_tenths(facts, played)
    column = SEAT_FACTS.index("played")
    one_at_a_time = np.zeros(len(played), dtype=np.float32)
    for seat, n in enumerate(played):
        for _ in range(n):
            one_at_a_time[seat] += 0.1
    assert np.array_equal(facts[:, column], one_at_a_time)
    assert not np.array_equal(one_at_a_time, np.float32(0.1) * np.array(played, np.float32))
    assert np.count_nonzero(facts) == 4  # nothing but the played column


def _reference_correction(model: BeliefModel, x: Any) -> Any:
    """The learned part of the logits computed the plain way: φ of every card
    (``model.inputs``, what training multiplies) through both layers."""
    n_cards = len(model.cards)
    cards = np.arange(n_cards)
    phi = model.inputs(x, np.zeros(n_cards, dtype=np.int64), cards)
    h = np.maximum(phi @ model.w1 + model.b1, 0.0)
    return (h @ model.w2)[..., 0] + model.b2[0] + model.bias[cards]


def _random_model(
    game: Any, seed: int, relations: int = len(RELATIONS), kinds: Sequence[str] = KINDS
) -> BeliefModel:
    """A model of ``kinds`` of event (every kind unless told) with weights of a
    trained model's scale: the hands of the other seats and one place that is no hand;
    the first ``relations`` relations (the file records them when they are not all)."""
    from xtarot.adapters.tensors import encoder_for

    cards = list(encoder_for(game).cards)
    others = {"fairy500": "kitty", "sono-arcana": "stack"}.get(game.id, "stock")
    locations = [f"hand:+{k}" for k in range(1, game.players)] + [others]
    width = input_width(events_for(game), len(kinds), len(locations), relations)
    rng = np.random.default_rng(seed)
    units = 16
    meta = {
        "game": game.id,
        "players": game.players,
        "options": dict(game.options),
        "cards": cards,
        "locations": locations,
    }
    if relations != len(RELATIONS):
        meta["relations"] = list(RELATIONS[:relations])
    arrays = {
        "kinds": np.array([KINDS.index(k) for k in kinds]),
        "w1": rng.standard_normal((width, units)) * np.sqrt(2.0 / width),
        "b1": rng.standard_normal(units) * 0.1,
        "w2": rng.standard_normal((units, 1)) / np.sqrt(units),
        "b2": rng.standard_normal(1),
        "bias": rng.standard_normal((len(cards), len(locations))) * 0.5,
        "mix": np.array([1.0, 0.3, -0.5]),
    }
    return BeliefModel({k: np.asarray(v, dtype=np.float16) for k, v in arrays.items()}, meta)


@pytest.mark.parametrize(
    ("game_id", "players", "relations", "tricks"),
    [
        ("fairy500", 4, 7, False),
        ("grail-mahjong", 3, 7, False),
        ("extendori", 4, 7, False),
        ("sono-arcana", 3, 7, False),
        ("matto", 3, 7, False),
        ("arcana-duel", 2, 7, False),
        # the trick events alone, as a trained extendori model reads them: the
        # relations that need no product (the card, "same suit") left out of it
        ("extendori", 4, 7, True),
        ("extendori", 4, 4, True),  # a model of fewer relations (--relations 4)
        ("fairy500", 4, 2, False),
    ],
)
def test_the_play_time_network_is_the_trained_one(
    game_id: str, players: int, relations: int, tricks: bool
) -> None:
    """``correction``, ``log_probs`` and ``log_weight`` (the network split by φ's parts,
    the related events computed once per seat) give what φ through both layers gives,
    at positions all along a match, every seat acting in turn."""
    game = xtarot.load(game_id, players=players)
    kinds = ("lead", "follow_up", "follow_down", "off") if tricks else KINDS
    model = _random_model(game, players, relations, kinds)
    assert len(model.relations) == relations
    # the paths under test: derived relations (extendori's tricks), suits' kinds
    assert model._net.derived == tricks
    if tricks:  # both ways of the smaller product: on the named slots, on every slot
        assert model._net.every_slot == (relations == 4)
    assert bool(model._net.suit_kinds) == (not tricks)
    state = game.new_state(seed=5)
    rng = random.Random(5)
    worst = worst_logp = worst_weight = 0.0
    seen_events = seats = 0
    step = 0
    acting: set[int] = set()
    while not state.is_terminal and seats < 14:
        seat = state.current_player
        assert seat is not None
        if step % 3 == 0:
            seats += 1
            acting.add(seat)
            view = state.view(seat)
            x = model.features(view)
            seen_events += bool(x[0].any())
            ref = _reference_correction(model, x)
            got = model.correction(x)[0]
            assert got.shape == ref.shape == (len(model.cards), len(model.locations))
            assert np.abs(ref).max() > 0.1  # the network is not near zero: the test can fail
            assert np.isfinite(got).all()  # (a NaN would pass the max below)
            worst = max(worst, float(np.abs(got - ref).max()))
            worlds = [state.sample_world(seat, rng) for _ in range(4)]
            counts = model.prior_counts(worlds, seat)
            open_ = counts.sum(axis=0) > 0
            planes = _planes(counts, model.prior_draws) @ model.mix
            want = _log_softmax((planes + ref)[None], open_[None])[0]
            logp = model.log_probs(x, counts[None], open_[None])[0]
            worst_logp = max(worst_logp, float(np.abs(logp - want)[:, open_].max()))
            weight = model.log_weight(view)
            for w in worlds:
                by_hand = sum(
                    float(ref[model.cards.index(c), model.locations.index(where)])
                    for c, where in true_locations(w, seat).items()
                    if where in model.locations and c in model.cards
                )
                worst_weight = max(worst_weight, abs(weight(w) - by_hand))
        legal = state.legal_actions()
        state.apply(rng.choice(legal))
        step += 1
    assert seats >= 5 and len(acting) == players
    if game_id in ("fairy500", "grail-mahjong", "extendori"):
        assert seen_events >= 3
    assert worst < 1e-5 and worst_logp < 1e-5 and worst_weight < 1e-4, (
        worst,
        worst_logp,
        worst_weight,
    )


@pytest.mark.parametrize("relations", [None, 7, 4])
def test_the_play_time_network_pickles_and_runs_in_threads(relations: int | None) -> None:
    """The network keeps buffers per thread: threads at once get the same numbers, and a
    pickled model (its buffers left out) gives the same logits and world weights (every
    kind of event: the suits' kinds' buffer; the trick events alone: the derived
    relations', on the named slots and on every slot)."""
    import pickle
    import threading

    game = xtarot.load("extendori", players=4)
    if relations is None:
        model = _random_model(game, 4)
    else:
        model = _random_model(game, 4, relations, ("lead", "follow_up", "follow_down", "off"))
    state = _position("extendori", 4, 2, 40)
    seat = state.current_player
    assert seat is not None
    view = state.view(seat)
    x = model.features(view)
    want = np.array(model.correction(x))
    weight = model.log_weight(view)(state)
    got: list[bool] = []

    def run() -> None:
        for _ in range(20):
            got.append(bool(np.array_equal(model.correction(x), want)))

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == [True] * 80
    copy = pickle.loads(pickle.dumps(model))
    assert np.array_equal(copy.correction(x), want)
    assert copy.log_weight(view)(state) == weight


def test_a_small_model_trains_evaluates_and_round_trips(
    small: tuple[BeliefModel, Any], tmp_path: Path
) -> None:
    model, data = small
    ev = evaluate(model, data)
    assert ev.positions == 8 and ev.cards > 0
    assert 0 < ev.model < 5 and 0 < ev.uniform < 5 and ev.ratio > 0
    path = tmp_path / "m.npz"
    size = model.save(path)
    assert size == path.stat().st_size
    again = BeliefModel.load(path)
    truth = _position("sono-arcana", 3, 2, 6)
    seat = truth.current_player or 0
    view = truth.view(seat)
    rng = random.Random(4)
    worlds = [truth.sample_world(seat, rng) for _ in range(model.prior_draws)]
    p = model.probabilities(view, worlds)
    assert p and p == again.probabilities(view, worlds)
    mine = set(view["hand"])
    for card, dist in p.items():
        assert card not in mine  # only cards some world hides
        assert abs(sum(dist.values()) - 1) < 1e-5
        assert "hand:+0" not in dist
    assert again.fits(xtarot.load("sono-arcana", players=3))
    assert not again.fits(xtarot.load("sono-arcana", players=4))
    (tmp_path / "junk.npz").write_bytes(b"not a model")
    with pytest.raises(ValueError, match="not an xtarot belief model"):
        BeliefModel.load(tmp_path / "junk.npz")


def test_a_model_of_fewer_relations_records_and_reads_them(tmp_path: Path) -> None:
    """``train(..., relations=3)`` reads the first three relations: its file lists
    them, its input is three relations per kind, and a file naming a relation there is
    no such thing is refused."""
    game = xtarot.load("extendori", players=4)
    data = generate(game, 2, 3, eval_games=1, eval_positions=3, draws=8, prior_draws=4)
    meta = {"game": game.id, "players": 4, "options": dict(game.options)}
    model = train(data, meta, epochs=1, hidden_units=4, relations=3, seed=3).model
    assert model.meta["relations"] == list(RELATIONS[:3])
    locations = len(model.locations)
    assert model.w1.shape[0] == input_width(data.events, len(model.kinds), locations, 3)
    assert model.w1.shape[0] < input_width(data.events, len(model.kinds), locations)
    path = tmp_path / "r3.npz"
    model.save(path)
    again = BeliefModel.load(path)
    assert list(again.relations) == [0, 1, 2]
    x = model.features(_position("extendori", 4, 1, 30).view(0))
    assert np.array_equal(again.correction(x), model.correction(x))
    bad = BeliefModel.load(path)
    with pytest.raises(ValueError, match="unknown relations"):
        BeliefModel({**_arrays(bad)}, {**bad.meta, "relations": ["same colour"]})
    with pytest.raises(ValueError, match="relations: 1 to 7"):
        train(data, meta, epochs=1, hidden_units=4, relations=8, seed=3)


def _arrays(model: BeliefModel) -> dict[str, Any]:
    return {
        "kinds": model.kinds,
        "w1": model.w1,
        "b1": model.b1,
        "w2": model.w2,
        "b2": model.b2,
        "bias": model.bias,
        "mix": model.mix,
    }


def test_no_model_for_a_configuration_without_one() -> None:
    assert shipped_model(xtarot.load("arcana-duel", players=2)) is None
    assert shipped_model(xtarot.load("sono-arcana", players=5)) is None


# -- the command ----------------------------------------------------------------------

ARGS = [
    "sono-arcana",
    "-p",
    "3",
    "--games",
    "2",
    "--eval-games",
    "1",
    "--eval-positions",
    "4",
    "--epochs",
    "1",
    "--hidden",
    "4",
    "--seed",
    "5",
]


def test_train_belief_command_is_reproducible_and_records_itself(tmp_path: Path) -> None:
    out = tmp_path / "b.npz"
    res = runner.invoke(app, ["train", "belief", *ARGS, "--out", str(out), "--json"], env=ENV)
    assert res.exit_code == 0, res.output
    summary = json.loads(res.output)
    assert summary["path"] == str(out) and summary["bytes"] == out.stat().st_size
    assert summary["evaluation"]["positions"] == 4
    first = out.read_bytes()
    model = BeliefModel.load(out)
    assert model.meta["command"] == summary["command"]
    assert model.meta["seed"] == 5 and model.meta["xtarot"] == xtarot.__version__
    assert model.meta["positions"] == summary["positions"] > 0
    res = runner.invoke(app, ["train", "belief", *ARGS, "--out", str(out)], env=ENV)
    assert res.exit_code == 2 and "--force" in res.output
    res = runner.invoke(app, ["train", "belief", *ARGS, "--out", str(out), "--force"], env=ENV)
    assert res.exit_code == 0, res.output
    assert "log-loss" in res.output
    assert out.read_bytes() == first  # the same command and seed: the same weights


def test_train_belief_relations_are_recorded(tmp_path: Path) -> None:
    out = tmp_path / "r.npz"
    args = ["train", "belief", *ARGS, "--relations", "2", "--out", str(out), "--json"]
    res = runner.invoke(app, args, env=ENV)
    assert res.exit_code == 0, res.output
    model = BeliefModel.load(out)
    assert model.meta["relations"] == ["same card", "same suit"]
    assert "--relations 2" in model.meta["command"] == json.loads(res.output)["command"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["sono-arcana", "--games", "0"], "at least 1"),
        (["sono-arcana", "--out", "x.txt"], ".npz"),
        (["no-such-game"], "unknown game"),
        (["sono-arcana", "-p", "9"], "players"),
        (["sono-arcana", "--relations", "8"], "1 to 7"),
        (["sono-arcana", "--relations", "0"], "1 to 7"),
    ],
)
def test_train_belief_bad_input_says_why(args: list[str], message: str) -> None:
    res = runner.invoke(app, ["train", "belief", *args], env=ENV)
    assert res.exit_code == 2
    assert message in res.output


def test_train_belief_speaks_japanese() -> None:
    res = runner.invoke(
        app, ["train", "belief", "sono-arcana", "--epochs", "0", "--lang", "ja"], env=ENV
    )
    assert res.exit_code == 2
    assert "1以上" in res.output


@pytest.mark.slow
def test_a_real_model_improves_on_the_uniform_sampler() -> None:
    """grail-mahjong at 3 players, 80 matches (about a minute of one core): on held-out
    positions the learned correction lowers the log-loss of the uniform sampler's own
    estimate, and the model beats the uniform sampler (the figures of bigger runs are in
    docs/agents.md)."""
    game = xtarot.load("grail-mahjong", players=3)
    data = generate(game, 80, 3, eval_games=8, eval_positions=120)
    meta = {"game": game.id, "players": 3, "options": dict(game.options)}
    ev = train(data, meta, epochs=8, seed=3).evaluation
    assert ev.correction_on_uniform < ev.uniform, ev.to_dict()
    assert ev.ratio < 1.0, ev.to_dict()
