"""The conformance kit over every registered game, player count and main option."""

from __future__ import annotations

import os

import pytest

import xtarot
from xtarot.agents.heuristic import STRATEGIES
from xtarot.testing import check_agent, configurations, run_conformance

#: Random games per player count with default options (the bulk runs), and per
#: configuration with a non-default option.  XTAROT_CONFORMANCE_SCALE scales all of
#: them (e.g. 0.1 for a quick local run).  The default run plays 30 games per player
#: count and 9 per option configuration (about 1,700 random games in all, with every
#: check at every step of the deep ones); the slow-marked
#: ``test_random_playouts_in_full`` (``pytest -m slow``) plays 2,000 per player count
#: on other seeds.  Long multi-hand matches are played as
#: the game's ``bulk_options`` say (e.g. one hand) for the many-game runs; whole
#: matches are played too, fewer of them.  The deep games (every check at every step,
#: the leak test's sampled worlds above all) cost the most: a configuration with a
#: non-default option plays fewer of them in the default run, and the slow-marked
#: ``test_options_in_depth`` (``pytest -m slow``) plays it as deep as the defaults.
SCALE = float(os.environ.get("XTAROT_CONFORMANCE_SCALE", "1"))


def scaled(n: int) -> int:
    return max(1, int(n * SCALE))


#: (many games, deep games, whole matches, deep whole matches)
DEFAULTS = (scaled(30), scaled(3), scaled(3), scaled(1))
FULL = (scaled(2000), scaled(25), scaled(30), scaled(3))
OPTIONS = (scaled(9), scaled(2), scaled(3), scaled(1))
OPTIONS_IN_DEPTH = (0, scaled(25), scaled(30), scaled(3))

CASES = [
    pytest.param(info.id, cfg, id=f"{info.id}-" + "-".join(f"{k}={v}" for k, v in cfg.items()))
    for info in xtarot.games()
    for cfg in configurations(info)
]
OPTION_CASES = [c for c in CASES if set(c.values[1]) != {"players"}]  # type: ignore[arg-type]


def check_configuration(
    game_id: str, cfg: dict[str, object], counts: tuple[int, int, int, int], seed: int
) -> None:
    many, deep_games, matches, deep_matches = counts
    game = xtarot.load(game_id, **cfg)
    bulk = {k: v for k, v in game.info.bulk_options if k not in cfg}
    quick = xtarot.load(game_id, **cfg, **bulk) if bulk else game
    report = run_conformance(quick, many, seed=seed)
    deep = run_conformance(quick, 0, seed=seed + 89_000, deep_games=deep_games)
    if bulk:  # whole matches too
        report.merge(run_conformance(game, matches, seed=seed + 49_000, deep_games=deep_matches))
    assert deep.leak_checks > 0 and deep.illegal_checks > 0 and deep.clone_checks > 0
    # the leak test could not fail if the sampler returned the true deal every time
    assert deep.worlds_differing > deep.worlds // 2
    played = many + (matches + deep_matches if bulk else 0)
    assert report.games == played and (report.actions > 0 or not played)


#: a deep whole match (every check at every step of a match of several hands) is the
#: dearest part of a configuration: each option's value gets one in the default run, at
#: the first player count that has it (the others play their whole matches with the
#: plain checks; ``test_options_in_depth`` plays each configuration deep)
DEEP_MATCH_AT: dict[tuple[str, frozenset[tuple[str, object]]], dict[str, object]] = {}
for _case in OPTION_CASES:
    _game, _cfg = _case.values
    _option = frozenset((k, v) for k, v in _cfg.items() if k != "players")  # type: ignore[union-attr]
    DEEP_MATCH_AT.setdefault((_game, _option), _cfg)  # type: ignore[arg-type]


def counts_for(game_id: str, cfg: dict[str, object]) -> tuple[int, int, int, int]:
    """The default run's counts for a configuration (see :data:`DEEP_MATCH_AT`)."""
    if set(cfg) == {"players"}:
        return DEFAULTS
    option = frozenset((k, v) for k, v in cfg.items() if k != "players")
    many, deep_games, matches, deep_matches = OPTIONS
    return many, deep_games, matches, deep_matches if DEEP_MATCH_AT[game_id, option] == cfg else 0


@pytest.mark.parametrize(("game_id", "cfg"), CASES)
def test_random_playouts(game_id: str, cfg: dict[str, object]) -> None:
    check_configuration(game_id, cfg, counts_for(game_id, cfg), seed=1000)


DEFAULT_CASES = [c for c in CASES if set(c.values[1]) == {"players"}]  # type: ignore[arg-type]


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "cfg"), DEFAULT_CASES)
def test_random_playouts_in_full(game_id: str, cfg: dict[str, object]) -> None:
    """Every player count with 2,000 random games (and deeper checks), other seeds."""
    check_configuration(game_id, cfg, FULL, seed=500_000)


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "cfg"), OPTION_CASES)
def test_options_in_depth(game_id: str, cfg: dict[str, object]) -> None:
    """The option configurations as deep as the defaults, on other seeds than above."""
    check_configuration(game_id, cfg, OPTIONS_IN_DEPTH, seed=300_000)


#: Random games per (game, player count) in which every bot is asked for every move.
AGENT_GAMES = {
    "random": 4,
    "heuristic": max(2, int(20 * SCALE)),
    "ismcts": 1,
    "pimc": 1,
    "expert": 1,
    "easy": 2,
    "hard": 1,
}

SEARCHERS = {"ismcts", "pimc", "expert", "hard"}


def _agent_marks(info: xtarot.GameInfo, n: int, name: str) -> list[pytest.MarkDecorator]:
    """The searching bots at the fewest and the most players by default; at every other
    player count on demand (``pytest -m slow``)."""
    ends = (min(info.players), max(info.players))
    return [pytest.mark.slow] if name in SEARCHERS and n not in ends else []


AGENT_CASES = [
    pytest.param(info.id, n, name, id=f"{info.id}-{n}p-{name}", marks=_agent_marks(info, n, name))
    for info in xtarot.games()
    for n in info.players
    for name in AGENT_GAMES
    if name != "heuristic" or info.id in STRATEGIES
]


@pytest.mark.parametrize(("game_id", "players", "agent"), AGENT_CASES)
def test_agents_act_and_explain_on_every_decision(game_id: str, players: int, agent: str) -> None:
    """Every bot picks a legal move and explains it in both languages at every
    decision random play reaches (one hand per match where a match is long)."""
    game = xtarot.load(game_id, players=players)
    bulk = dict(game.info.bulk_options)
    quick = xtarot.load(game_id, players=players, **bulk) if bulk else game
    report = check_agent(quick, agent, AGENT_GAMES[agent], seed=7_000 + players)
    assert report.decisions > 0 and report.explanations == report.decisions
