"""Every heuristic against random bots, duplicate format: the figures of docs/agents.md.

For every game and player count (single hands: each game's ``bulk_options``; with
``--full`` the game's own match, every hand of its default options), one
``heuristic`` seat plays ``players - 1`` ``random`` seats in a duplicate tournament
(``run_tournament(..., duplicate=True)``: every deal once per seat arrangement, so the
heuristic holds every seat's cards once and the luck of the deal cancels out), with
enough deals for about ``--matches`` matches.  Per row: the heuristic's share of wins
as a multiple of the fair share (1 / players) with its 95% interval, its mean score
and the random bots' mean score (in fairy500 the win share is capped by the defenders'
shared win, so the mean score tells more), and the seconds it took.

    PYTHONPATH=src python benchmarks/bench_heuristics.py [--games fairy500 ...]
        [--players 4 ...] [--matches 400] [--seed 1] [--full] [--json]

Outcomes are seeded and do not depend on the machine; only the seconds do.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import xtarot
from xtarot.lab import run_tournament
from xtarot.lab.runner import williams


def measure(
    game: str,
    players: int,
    matches: int,
    seed: int,
    *,
    strong: str = "heuristic",
    weak: str = "random",
    settings: dict[str, dict[str, Any]] | None = None,
    full: bool = False,
) -> dict[str, Any]:
    """One duplicate tournament of one ``strong`` seat against ``weak`` ones (single
    hands, or with ``full`` the game's default match), with enough deals for about
    ``matches`` matches."""
    info = next(i for i in xtarot.games() if i.id == game)
    options = {} if full else dict(info.bulk_options)
    lineup = [strong] + [weak] * (players - 1)
    start = time.perf_counter()
    deals = max(1, -(-matches // len(williams(players))))  # matches a deal: its arrangements
    result = run_tournament(
        game, players, lineup, games=deals, seed=seed, options=options, duplicate=True,
        settings=settings,
    ).to_dict()  # fmt: skip
    mine, *others = result["agents"]
    fair = mine["fair_share"]
    return {
        "game": game,
        "players": players,
        "options": options,
        "deals": deals,
        "matches": result["games"],
        "x_fair": round(mine["win_share_vs_fair"], 2),
        "x_fair_ci95": [round(c / fair, 2) for c in mine["win_share_ci95"]],
        "mean_score": round(mine["mean_score"], 1),
        "others_mean_score": round(sum(a["mean_score"] for a in others) / len(others), 1),
        "seconds": round(time.perf_counter() - start, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="*", help="game ids (default: all)")
    parser.add_argument("--players", nargs="*", type=int, help="player counts (default: all)")
    parser.add_argument("--matches", type=int, default=400, help="matches per row (about)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--full",
        action="store_true",
        help="whole matches (each game's default options, e.g. one extendori hand per "
        "player) instead of single hands",
    )
    parser.add_argument("--json", action="store_true", help="print JSON rows")
    args = parser.parse_args(argv)
    if not args.json:
        print(
            f"{'game':<14} {'n':>2} {'matches':>7} {'x fair [95%]':>20}"
            f" {'mean score':>10} {'random':>9} {'s':>6}"
        )
    for info in xtarot.games():
        if args.games and info.id not in args.games:
            continue
        for n in info.players:
            if args.players and n not in args.players:
                continue
            row = measure(info.id, n, args.matches, args.seed, full=args.full)
            if args.json:
                print(json.dumps(row), flush=True)
                continue
            lo, hi = row["x_fair_ci95"]
            share = f"{row['x_fair']:.2f} [{lo:.2f}, {hi:.2f}]"
            print(
                f"{info.id:<14} {n:>2} {row['matches']:>7} {share:>20}"
                f" {row['mean_score']:>10.1f} {row['others_mean_score']:>9.1f}"
                f" {row['seconds']:>6.1f}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
