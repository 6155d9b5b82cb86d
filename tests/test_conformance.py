"""The conformance kit over every registered game, player count and main option."""

from __future__ import annotations

import os

import pytest

import xtarot
from xtarot.testing import configurations, run_conformance

#: Random games per player count with default options (the bulk runs), and per
#: configuration with a non-default option.  XTAROT_CONFORMANCE_SCALE scales both
#: (e.g. 0.1 for a quick local run).
SCALE = float(os.environ.get("XTAROT_CONFORMANCE_SCALE", "1"))
BULK_GAMES = max(1, int(2000 * SCALE))
OPTION_GAMES = max(1, int(300 * SCALE))
DEEP_GAMES = max(1, int(40 * SCALE))

CASES = [
    pytest.param(info.id, cfg, id=f"{info.id}-" + "-".join(f"{k}={v}" for k, v in cfg.items()))
    for info in xtarot.games()
    for cfg in configurations(info)
]


@pytest.mark.parametrize(("game_id", "cfg"), CASES)
def test_random_playouts(game_id: str, cfg: dict[str, object]) -> None:
    game = xtarot.load(game_id, **cfg)
    bulk_default = set(cfg) == {"players"}
    if bulk_default:
        bulk = dict(game.info.bulk_options)
        bulk_game = xtarot.load(game_id, **cfg, **bulk) if bulk else game
        report = run_conformance(bulk_game, BULK_GAMES, seed=1000)
        if bulk:  # the full match too
            report.merge(run_conformance(game, OPTION_GAMES // 3, seed=50_000))
    else:
        report = run_conformance(game, OPTION_GAMES, seed=2000)
    deep = run_conformance(game, 0, seed=90_000, deep_games=DEEP_GAMES)
    assert deep.leak_checks > 0 and deep.illegal_checks > 0 and deep.clone_checks > 0
    # the leak test could not fail if the sampler returned the true deal every time
    assert deep.worlds_differing > deep.worlds // 2
    assert report.games >= 1 and report.actions > 0
