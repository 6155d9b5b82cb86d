"""Heuristic play-outs: what a lab study with heuristic players, a ``normal`` bot's table
and the expert's search wait for (issue #40), measured per game.

For every game with a heuristic, at its usual player count and single hands where the
game has them (``bulk_options``), whole play-outs with the heuristic in every seat,
driven through the public API exactly as ``play_match`` (and so the lab) drives them,
two ways in the same run:

* *copied*: every decision gets ``state.view(seat)``, a fresh JSON copy of the seat's
  view (how every match was played before 2026-11-27);
* *peeked*: an agent that declares ``reads_view_only`` gets ``state.peek_view(seat)``,
  the same data without the copy (what ``play_match`` does now).

Reported per row: play-outs per second and µs per heuristic decision, both ways, and
the speed-up.  The two ways play the same moves (checked: the same digest of every
move).  Then the lab's ``seats`` study with heuristic players (``run_seats``, one
worker) in matches per second, both ways.

Run ``python benchmarks/bench_speed.py --help``; ``--quick`` for a smoke run,
``--json`` for one JSON object.  Seeded; the figures vary with the machine's load, the
same-run ratios much less.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import sys
import time
from typing import Any

import xtarot
from xtarot.agents import Decision
from xtarot.agents.heuristic import STRATEGIES, HeuristicAgent

#: the player count measured per game (the rulebooks' usual table)
PLAYERS = {
    "arcana-duel": 2,
    "extendori": 4,
    "fairy500": 4,
    "grail-mahjong": 4,
    "matto": 4,
    "sono-arcana": 4,
}


def _playout(game: Any, seed: int, peek: bool, digest: Any) -> int:
    """One heuristic play-out; returns the number of decisions asked of a bot."""
    state = game.new_state(seed=seed)
    bots = [HeuristicAgent(seed * 10 + s) for s in range(game.players)]
    asked = 0
    while not state.is_terminal:
        seat = state.current_player
        view = state.peek_view(seat) if peek else state.view(seat)
        action = bots[seat].act(Decision(seat, view, state.legal_actions(), _no_sampler))
        digest.update(action.text.encode())
        state.apply(action)
        asked += 1
    return asked


def _no_sampler(rng: Any) -> Any:
    raise RuntimeError("heuristics never sample worlds")


def measure(game_id: str, players: int, seconds: float) -> dict[str, Any]:
    info = next(i for i in xtarot.games() if i.id == game_id)
    game = xtarot.load(game_id, players=players, **dict(info.bulk_options))
    row: dict[str, Any] = {"game": game_id, "players": players}
    digests = {}
    for way, peek in (("copied", False), ("peeked", True)):
        digest = hashlib.sha256()
        _playout(game, 10_000, peek, hashlib.sha256())  # warm-up
        start, played, asked = time.perf_counter(), 0, 0
        while time.perf_counter() - start < seconds:
            asked += _playout(game, played, peek, digest)
            played += 1
        took = time.perf_counter() - start
        row[f"{way}_per_s"] = played / took
        row[f"{way}_us"] = took / asked * 1e6
        # the same seeds both ways: compare the moves of the play-outs both finished
        digests[way] = (played, digest)
    n = min(digests["copied"][0], digests["peeked"][0])
    again = [hashlib.sha256(), hashlib.sha256()]
    for seed in range(n):
        _playout(game, seed, False, again[0])
        _playout(game, seed, True, again[1])
    row["same_moves"] = again[0].hexdigest() == again[1].hexdigest()
    row["speedup"] = row["peeked_per_s"] / row["copied_per_s"]
    return row


def lab_rate(games: int) -> dict[str, Any]:
    """The lab's ``seats`` study (heuristic players, one worker), with views peeked as
    now and, in the same run, with every view copied as before."""
    from xtarot.lab import run_seats

    row: dict[str, Any] = {"study": "seats sono-arcana -p 4 (heuristic)", "games": games}
    for way, reads in (("copied", False), ("peeked", True)):
        HeuristicAgent.reads_view_only = reads
        try:
            start = time.perf_counter()
            run_seats(game="sono-arcana", players=4, games=games, seed=1, workers=1)
            row[f"{way}_per_s"] = games / (time.perf_counter() - start)
        finally:
            HeuristicAgent.reads_view_only = True
    row["speedup"] = row["peeked_per_s"] / row["copied_per_s"]
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per game and way")
    parser.add_argument("--lab-games", type=int, default=400, help="the lab study's matches")
    parser.add_argument("--games", nargs="*", help="only these games")
    parser.add_argument("--quick", action="store_true", help="a smoke run")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    seconds = 0.5 if args.quick else args.seconds
    rows = []
    for game_id in sorted(STRATEGIES):
        if args.games and game_id not in args.games:
            continue
        row = measure(game_id, PLAYERS.get(game_id, 4), seconds)
        rows.append(row)
        print(f"  {game_id}: {row['speedup']:.1f}x", file=sys.stderr, flush=True)
    lab = lab_rate(40 if args.quick else args.lab_games)
    result = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "rows": rows,
        "lab": lab,
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"Heuristic play-outs, Python {result['python']} ({result['machine']})")
    print(
        f"{'game':<15}{'p':>3}{'copied/s':>10}{'µs/dec':>9}{'peeked/s':>10}{'µs/dec':>9}"
        f"{'speed-up':>10}  same moves"
    )
    for r in rows:
        print(
            f"{r['game']:<15}{r['players']:>3}{r['copied_per_s']:>10.2f}{r['copied_us']:>9.0f}"
            f"{r['peeked_per_s']:>10.2f}{r['peeked_us']:>9.0f}{r['speedup']:>9.1f}x  "
            f"{'yes' if r['same_moves'] else 'NO'}"
        )
    print(
        f"Lab {lab['study']}, {lab['games']} matches: {lab['copied_per_s']:.1f} matches/s "
        f"copied, {lab['peeked_per_s']:.1f} peeked ({lab['speedup']:.1f}x)"
    )
    return 0 if all(r["same_moves"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
