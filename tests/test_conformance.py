"""The conformance kit over every registered game, player count and main option."""

from __future__ import annotations

import os

import pytest

import xtarot
from xtarot.testing import configurations, run_conformance

#: Random games per player count with default options (the bulk runs), and per
#: configuration with a non-default option.  XTAROT_CONFORMANCE_SCALE scales all of
#: them (e.g. 0.1 for a quick local run).  Long multi-hand matches are played as
#: the game's ``bulk_options`` say (e.g. one hand) for the many-game runs; whole
#: matches are played too, fewer of them.
SCALE = float(os.environ.get("XTAROT_CONFORMANCE_SCALE", "1"))
BULK_GAMES = max(1, int(2000 * SCALE))
OPTION_GAMES = max(1, int(150 * SCALE))
FULL_MATCHES = max(1, int(30 * SCALE))
DEEP_GAMES = max(1, int(25 * SCALE))
DEEP_MATCHES = max(1, int(3 * SCALE))

CASES = [
    pytest.param(info.id, cfg, id=f"{info.id}-" + "-".join(f"{k}={v}" for k, v in cfg.items()))
    for info in xtarot.games()
    for cfg in configurations(info)
]


@pytest.mark.parametrize(("game_id", "cfg"), CASES)
def test_random_playouts(game_id: str, cfg: dict[str, object]) -> None:
    game = xtarot.load(game_id, **cfg)
    bulk = {k: v for k, v in game.info.bulk_options if k not in cfg}
    quick = xtarot.load(game_id, **cfg, **bulk) if bulk else game
    many = BULK_GAMES if set(cfg) == {"players"} else OPTION_GAMES
    report = run_conformance(quick, many, seed=1000)
    deep = run_conformance(quick, 0, seed=90_000, deep_games=DEEP_GAMES)
    if bulk:  # whole matches too
        report.merge(run_conformance(game, FULL_MATCHES, seed=50_000, deep_games=DEEP_MATCHES))
    assert deep.leak_checks > 0 and deep.illegal_checks > 0 and deep.clone_checks > 0
    # the leak test could not fail if the sampler returned the true deal every time
    assert deep.worlds_differing > deep.worlds // 2
    assert report.games >= many and report.actions > 0
