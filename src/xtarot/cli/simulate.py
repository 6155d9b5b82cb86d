"""``xtarot simulate``: bots-only matches, per-seat mean scores and win shares.

>>> import xtarot
>>> out = simulate(xtarot.load("sono-arcana", players=3), ["random"] * 3, games=3, seed=1)
>>> out["games"], len(out["mean_score"]), round(sum(out["win_share"]), 9)
(3, 3, 1.0)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from xtarot.agents import play_match
from xtarot.cli.play import bot_seed, make_bot
from xtarot.engine import Game
from xtarot.record import save_record

__all__ = ["simulate"]


def simulate(
    game: Game,
    bots: Sequence[str],
    *,
    games: int,
    seed: int,
    records: Path | None = None,
    on_game: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play ``games`` matches with one named bot per seat.

    Match ``i`` gets its own seed drawn from ``seed``, so the whole run is
    reproducible.  A shared first place counts ``1/k`` to each of the ``k``
    winners, so the win shares sum to 1.
    """
    n = game.players
    rng = random.Random(seed)
    totals = [0.0] * n
    wins = [0.0] * n
    started = time.perf_counter()
    actions = 0
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    for i in range(games):
        match_seed = rng.getrandbits(48)
        agents = [make_bot(bots[s], bot_seed(match_seed, s)) for s in range(n)]
        state = play_match(game, agents, seed=match_seed)
        actions += len(state.history)
        scores = state.scores()
        for s in range(n):
            totals[s] += scores.totals[s]
        winners = scores.winners
        for s in winners:
            wins[s] += 1 / len(winners)
        if records is not None:
            save_record(state, records / f"{game.id}-{i + 1:05d}.json", meta={"bots": list(bots)})
        if on_game is not None:
            on_game(i + 1)
    seconds = time.perf_counter() - started
    return {
        "game": game.id,
        "players": n,
        "options": dict(game.options),
        "bots": list(bots),
        "games": games,
        "seed": seed,
        "mean_score": [x / games for x in totals],
        "win_share": [x / games for x in wins],
        "actions": actions,
        "seconds": seconds,
        "games_per_second": games / seconds if seconds > 0 else None,
    }
