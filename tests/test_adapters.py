"""The OpenSpiel and PettingZoo adapters pass those projects' own test suites.

Needs the extras: ``open-spiel`` (pyspiel), ``pettingzoo``, ``gymnasium``, ``numpy``;
each group is skipped with the reason when its package is missing.  Long multi-hand
games run with their ``bulk_options`` (one hand) so the whole file stays quick.
"""

from __future__ import annotations

import json
import random

import pytest

import xtarot
from xtarot.adapters.tensors import describe, encoder_for
from xtarot.testing import configurations

CONFIGS = [(info, n) for info in xtarot.games() for n in info.players]
IDS = [f"{info.id}-{n}" for info, n in CONFIGS]


def _option_configs() -> list[tuple[xtarot.GameInfo, dict[str, object]]]:
    """Each non-default option value once, at the smallest player count allowing it."""
    out = []
    for info in xtarot.games():
        seen = set()
        for conf in configurations(info):
            key = tuple(sorted((k, v) for k, v in conf.items() if k != "players"))
            if key and key not in seen:
                seen.add(key)
                out.append((info, conf))
    return out


OPTION_CONFIGS = _option_configs()


# -- tensors (pure Python) ---------------------------------------------------------------
@pytest.mark.parametrize(("info", "n"), CONFIGS, ids=IDS)
def test_tensor_is_identical_across_sampled_worlds(info: xtarot.GameInfo, n: int) -> None:
    """The leak test applied to tensors: a seat's tensor is the same in every world."""
    game = xtarot.load(info.id, players=n, **dict(info.bulk_options))
    enc = encoder_for(game)
    rng = random.Random(n)
    differs = checked = 0
    for seed in range(3):
        state = game.new_state(seed=seed)
        steps = 0
        while not state.is_terminal:
            if steps % 7 == 3:
                seat = rng.randrange(n)
                mine = enc.encode(state.view(seat))
                assert len(mine) == enc.size
                for _ in range(2):
                    world = state.sample_world(seat, rng)
                    assert enc.encode(world.view(seat)) == mine
                    other = (seat + 1) % n
                    differs += enc.encode(world.view(other)) != enc.encode(state.view(other))
                    checked += 1
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            steps += 1
        assert len(enc.encode(state.view(0))) == enc.size
    assert checked > 0
    # the worlds really differ, so the test above could fail (hidden cards moved)
    if info.id != "grail-mahjong" or n > 2:
        assert differs > 0


def test_tensor_layout_is_documented() -> None:
    text = describe(xtarot.load("sono-arcana", players=4))
    assert "| `hand` |" in text and "| `won` |" in text
    enc = encoder_for(xtarot.load("sono-arcana", players=4))
    assert enc.layout()[-1][1] + enc.layout()[-1][2] == enc.size


def test_tensor_is_seat_relative() -> None:
    game = xtarot.load("matto", players=3)
    state = game.new_state(seed=5)
    enc = encoder_for(game)
    for seat in range(3):
        t = enc.encode(state.view(seat))
        ((_, start, size, _, _),) = [x for x in enc.layout() if x[0] == "current_player"]
        rel = (state.current_player - seat) % 3
        assert t[start : start + size].index(1.0) == rel


# -- OpenSpiel ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def pyspiel():  # type: ignore[no-untyped-def]
    spiel = pytest.importorskip("pyspiel", reason="open-spiel is not installed")
    import xtarot.adapters.openspiel  # noqa: F401  (registers the games)

    return spiel


def _short(game_id: str) -> str:
    return "xtarot_" + game_id.replace("-", "_")


@pytest.mark.parametrize(("info", "n"), CONFIGS, ids=IDS)
def test_openspiel_random_sim_test(pyspiel, info: xtarot.GameInfo, n: int) -> None:  # type: ignore[no-untyped-def]
    game = pyspiel.load_game(_short(info.id), {"players": n, **dict(info.bulk_options)})
    assert game.num_distinct_actions() == xtarot.load(info.id, players=n).num_actions
    assert game.num_players() == n
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize(
    ("info", "conf"),
    OPTION_CONFIGS,
    ids=[f"{i.id}-{','.join(f'{k}={v}' for k, v in c.items())}" for i, c in OPTION_CONFIGS],
)
def test_openspiel_random_sim_test_options(pyspiel, info, conf) -> None:  # type: ignore[no-untyped-def]
    params = {**dict(info.bulk_options), **conf}
    game = pyspiel.load_game(_short(info.id), params)
    assert game.engine.options == xtarot.load(info.id, **params).options
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_openspiel_full_match(pyspiel) -> None:  # type: ignore[no-untyped-def]
    pyspiel.random_sim_test(
        pyspiel.load_game("xtarot_sono_arcana", {"players": 3}),
        num_sims=1,
        serialize=True,
        verbose=False,
    )


def test_openspiel_game_type_and_info(pyspiel) -> None:  # type: ignore[no-untyped-def]
    game = pyspiel.load_game("xtarot_sono_arcana(players=4,teams=True)")
    gt = game.get_type()
    assert gt.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert gt.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert gt.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert gt.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert gt.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert (gt.min_num_players, gt.max_num_players) == (3, 5)
    assert game.get_parameters() == {"players": 4, "teams": True}
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert game.max_chance_outcomes() == 256
    assert game.engine.options == {"teams": True}
    # "not set" options: 0 / "" stand for None
    ext = pyspiel.load_game("xtarot_extendori", {"players": 4, "teams": "pairs", "hands": 0})
    assert ext.engine.options["teams"] == "pairs" and ext.engine.options["hands"] is None


def _play_to(state, rng: random.Random, moves: int):  # type: ignore[no-untyped-def]
    while not state.is_terminal() and (moves > 0 or state.is_chance_node()):
        if state.is_chance_node():
            state.apply_action(rng.randrange(256))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            moves -= 1
    return state


@pytest.mark.parametrize("info", xtarot.games(), ids=lambda i: i.id)
def test_openspiel_resample_keeps_the_infostate(pyspiel, info: xtarot.GameInfo) -> None:  # type: ignore[no-untyped-def]
    game = pyspiel.load_game(
        _short(info.id), {"players": info.min_players, **dict(info.bulk_options)}
    )
    rng = random.Random(3)
    state = _play_to(game.new_initial_state(), rng, 9)
    if state.is_terminal():
        pytest.skip("match over too soon")
    p = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(3):
        world = state.resample_from_infostate(p, sampler)
        assert world.information_state_string(p) == state.information_state_string(p)
        assert world.observation_string(p) == state.observation_string(p)
        assert world.information_state_tensor(p) == state.information_state_tensor(p)
        assert world.observation_tensor(p) == state.observation_tensor(p)
        assert world.legal_actions() == state.legal_actions()
        again = game.deserialize_state(world.serialize())
        assert str(again) == str(world)
        assert again.information_state_string(p) == state.information_state_string(p)
        _play_to(world, rng, 10**6)  # the world plays on to the end
        assert world.is_terminal()


def test_openspiel_serialize_round_trip(pyspiel) -> None:  # type: ignore[no-untyped-def]
    game = pyspiel.load_game("xtarot_matto", {"players": 4})
    state = _play_to(game.new_initial_state(), random.Random(1), 25)
    again = game.deserialize_state(state.serialize())
    assert again.history() == state.history() and str(again) == str(state)
    assert json.loads(state.serialize())["history"][:4] == state.history()[:4]


def test_openspiel_strings_hide_other_hands(pyspiel) -> None:  # type: ignore[no-untyped-def]
    game = pyspiel.load_game("xtarot_sono_arcana", {"players": 3})
    state = _play_to(game.new_initial_state(), random.Random(2), 0)
    hands = state.engine.deals[0]["hands"]
    text = state.information_state_string(0)
    assert all(f'"{c}"' in text for c in hands[0])
    assert not any(f'"{c}"' in text for c in hands[1])


@pytest.mark.parametrize("info", xtarot.games(), ids=lambda i: i.id)
def test_openspiel_ismcts_plays_full_games(pyspiel, info: xtarot.GameInfo) -> None:  # type: ignore[no-untyped-def]
    np = pytest.importorskip("numpy")
    from open_spiel.python.algorithms import ismcts, mcts

    n = info.min_players
    game = pyspiel.load_game(_short(info.id), {"players": n, **dict(info.bulk_options)})
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, rs), 2.0, max_simulations=2, random_state=rs
    )
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rs.randint(256)))
        elif state.current_player() == 0:
            state.apply_action(int(bot.step(state)))
        else:
            legal = state.legal_actions()
            state.apply_action(int(legal[rs.randint(len(legal))]))
    returns = state.returns()
    assert len(returns) == n and all(-1.0 <= r <= 1.0 for r in returns)


# -- PettingZoo -----------------------------------------------------------------------
@pytest.fixture(scope="module")
def pz_test():  # type: ignore[no-untyped-def]
    pytest.importorskip("pettingzoo", reason="pettingzoo is not installed")
    pytest.importorskip("gymnasium", reason="gymnasium is not installed")
    from pettingzoo import test

    return test


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("info", "n"), CONFIGS, ids=IDS)
def test_pettingzoo_api_and_seed(pz_test, info: xtarot.GameInfo, n: int) -> None:  # type: ignore[no-untyped-def]
    from xtarot.adapters.pettingzoo import env

    opts = dict(info.bulk_options)
    pz_test.api_test(env(info.id, players=n, **opts), num_cycles=300)
    pz_test.seed_test(lambda: env(info.id, players=n, **opts), num_cycles=50)


def test_pettingzoo_plays_to_the_end_and_renders(pz_test) -> None:  # type: ignore[no-untyped-def]
    from xtarot.adapters.pettingzoo import env

    e = env("sono-arcana", players=3, render_mode="ansi")
    e.reset(seed=4)
    text = e.render()
    assert "sono-arcana - seat" in text and "hand:" in text
    seat = e.state.current_player
    assert " ".join(e.state.view(seat)["hand"]) in text
    rng = random.Random(0)
    for _agent in e.agent_iter():
        obs, _reward, term, trunc, _info = e.last()
        if term or trunc:
            e.step(None)
            continue
        legal = [i for i, m in enumerate(obs["action_mask"]) if m]
        e.step(rng.choice(legal))
    assert e.state.is_terminal
    assert e.agents == []


def test_benchmark_smoke_run() -> None:
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(root / "src"), env.get("PYTHONPATH")) if p)
    script = str(root / "benchmarks" / "bench_adapters.py")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, script, *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            check=False,
        )

    proc = run("--seconds", "0.05", "--games", "matto", "--json")
    assert proc.returncode == 0, proc.stderr
    (row,) = json.loads(proc.stdout)
    assert row["game"] == "matto" and row["native"] > 0
    for name in ("openspiel", "os_tensor", "hearts_cpp_tensor", "pettingzoo"):
        assert isinstance(row[name], float) or row[name].startswith("skipped")
    # every timed loop's ratio is the median of its rounds' paired ratios to native
    timed = {n for n in ("openspiel", "os_tensor", "pettingzoo") if isinstance(row[n], float)}
    assert set(row["x_native"]) == timed
    assert all(x > 0 for x in row["x_native"].values())
    bad = run("--rounds", "0", "--games", "matto")
    assert bad.returncode == 2 and "--rounds must be at least 1" in bad.stderr
    split = run("--seconds", "0.05", "--games", "matto", "--json", "--split")
    assert split.returncode == 0, split.stderr
    (row,) = json.loads(split.stdout)
    if isinstance(row["pettingzoo"], float):  # the step without its tensor, timed alike
        assert isinstance(row["pz_no_tensor"], float) and row["x_native"]["pz_no_tensor"] > 0
    else:
        assert row["pz_no_tensor"] == row["pettingzoo"]


def test_pettingzoo_action_spaces_seeded_by_reset(pz_test) -> None:  # type: ignore[no-untyped-def]
    """``reset(seed=S)`` seeds seat i's action space with ``S + i`` (applied when it is
    first sampled): the same draws as a space seeded at once, again after another reset."""
    from gymnasium import spaces

    from xtarot.adapters.pettingzoo import env

    e = env("matto", players=3)
    e.reset(seed=11)
    first = [[e.action_space(a).sample() for _ in range(5)] for a in e.possible_agents]
    e.reset(seed=11)
    again = [[e.action_space(a).sample() for _ in range(5)] for a in e.possible_agents]
    plain = []
    for i in range(3):
        space = spaces.Discrete(e.game.num_actions)
        space.seed(11 + i)
        plain.append([space.sample() for _ in range(5)])
    assert first == again == plain
    e.reset(seed=12)
    other = [[e.action_space(a).sample() for _ in range(5)] for a in e.possible_agents]
    assert other != first
    e.reset(seed=11)
    e.action_space("player_0").seed(12)  # a seed given after the reset wins
    assert [e.action_space("player_0").sample() for _ in range(5)] == other[0]


def test_pettingzoo_last_and_agent_iter_match_aecenvs_own(pz_test) -> None:  # type: ignore[no-untyped-def]
    """The environment's own ``last`` and ``agent_iter`` (kept in the compiled module)
    give what PettingZoo's ``AECEnv.last`` and ``AECIterable`` give, step by step, to
    the end of a match; ``max_iter`` stops both alike."""
    import itertools

    import numpy as np
    from pettingzoo import AECEnv
    from pettingzoo.utils.env import AECIterable

    from xtarot.adapters.pettingzoo import env

    e = env("fairy500", players=4, hands=2)
    e.reset(seed=3)
    rng = random.Random(3)
    mine, theirs = iter(e.agent_iter()), iter(AECIterable(e, 2**63))
    steps = 0
    for agent in mine:
        assert agent == next(theirs)
        got, want = e.last(), AECEnv.last(e)
        assert got[1:] == want[1:] and e.last(observe=False) == (None, *want[1:])
        for key in ("observation", "action_mask"):
            assert np.array_equal(got[0][key], want[0][key])
            assert got[0][key].dtype == want[0][key].dtype
        if got[2] or got[3]:
            e.step(None)
            continue
        legal = np.flatnonzero(got[0]["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
    assert steps > 40 and e.agents == []
    assert next(theirs, None) is None  # both iterators end when no agent is left
    e.reset(seed=3)
    assert list(e.agent_iter(max_iter=3)) == list(itertools.islice(AECIterable(e, 3), 5))
    assert len(list(e.agent_iter(max_iter=0))) == 0
