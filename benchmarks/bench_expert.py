"""The ``expert`` bot against the heuristics: the targets of issue #17, measured.

One ``expert`` seat against ``players - 1`` ``heuristic`` seats, played duplicate
(``run_tournament(..., duplicate=True)``: every deal once per arrangement of a
Williams design, so the expert holds every seat's cards once and the luck of the
deal cancels out), for every game and its usual player counts, single hands
(each game's ``bulk_options``, e.g. ``hands=1`` in fairy500 and extendori), or with
``--full`` each game's own match (its default options: ten grail-mahjong hands, one
extendori hand per player, …).

Per row: the expert's win share as a multiple of the fair share (1 / players) with
two 95% intervals (Wilson over the matches, and over the deals, each deal's matches
averaged first, so a deal counts once, see :func:`deal_win_share`), the
expert's and the heuristics' mean scores, and whether the issue's target holds (>= 1.3x,
both intervals above 1.0x, higher mean score; at 0.2 s a move >= 1.2x in fairy500 4p and
sono-arcana 4p).  ``--json`` adds every deal's matches in short (``per_deal``).

The full measurement (the issue's): ``--seconds 1 --games 200`` (200 deals, each
played once per arrangement: 800 matches at 4 players), hours of one core per game.
``--iterations N`` gives a machine-independent, reproducible budget instead of time.
``--quick`` is a smoke run (a few deals, a tiny budget).  ``--settings JSON`` adds
expert settings (``'{"endgame": false}'``) to compare variants on the same deals.
``--endgame-duel CARDS`` measures Extendori's last tricks alone (see
:func:`endgame_duel`).  ``--out DIR`` stores every match in a lab directory per row
(``DIR/<game>-<players>p``, Parquet: the lab extra): a long row stopped part-way (a
session's end, Ctrl-C) and started again with the same arguments plays only the deals
it lacks, and its figures cover every stored match.

Run ``python benchmarks/bench_expert.py --help``.  Everything is seeded.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import sys
import time
from pathlib import Path
from typing import Any

import xtarot
from xtarot.agents.heuristic import STRATEGIES
from xtarot.lab import run_tournament

#: the player counts measured by default, per game (``--all-counts``: every count)
USUAL: dict[str, tuple[int, ...]] = {
    "arcana-duel": (2,),
    "extendori": (4, 5),
    "fairy500": (4, 5, 6),
    "grail-mahjong": (3, 4),
    "matto": (3, 4),
    "sono-arcana": (3, 4, 5),
}

#: (game, players) -> the least multiple of the fair share the issue asks for at 0.2 s
FAST_TARGETS = {("fairy500", 4): 1.2, ("sono-arcana", 4): 1.2}


def measure(
    game: str,
    players: int,
    *,
    games: int,
    seed: int,
    budget: dict[str, Any],
    workers: int,
    progress: bool = False,
    out: str | None = None,
    full: bool = False,
) -> dict[str, Any]:
    """One duplicate tournament: one expert, ``players - 1`` heuristics (its matches
    stored in, and resumed from, the lab directory ``out`` if given)."""
    info = next(i for i in xtarot.games() if i.id == game)
    options = {} if full else dict(info.bulk_options)
    lineup = ["expert"] + ["heuristic"] * (players - 1)
    started = time.perf_counter()

    def report(done: int, planned: int) -> None:
        if progress:
            print(f"  {game} {players}p: {done}/{planned} matches", file=sys.stderr, flush=True)

    result = run_tournament(
        game,
        players,
        lineup,
        games,
        seed=seed,
        options=options,
        settings={"expert": budget},
        workers=workers,
        duplicate=True,
        on_progress=report,
        out=out,
        command=" ".join(sys.argv),
    )
    wall = time.perf_counter() - started
    mine = result.agents["expert"]
    others = [a for name, a in result.agents.items() if name != "expert"]
    other_scores = [x for a in others for x in a.scores]
    other_mean = sum(other_scores) / len(other_scores) if other_scores else 0.0
    lo, hi = mine.win_interval
    x_fair = mine.win_share * players
    _, deal_half = deal_win_share(result.rows)
    dlo, dhi = max(0.0, x_fair - deal_half * players), x_fair + deal_half * players
    edge, edge_half = score_edge(result.rows)
    seconds = budget.get("seconds")
    need = FAST_TARGETS.get((game, players), 0.0) if seconds is not None and seconds < 1 else 1.3
    return {
        "game": game,
        "players": players,
        "options": options,
        "deals": result.deals,  # with --out: every deal stored there
        "matches": result.games,
        "budget": budget,
        "x_fair": x_fair,
        "x_fair_ci95": [lo * players, hi * players],
        "x_fair_deal_ci95": [dlo, dhi],
        "mean_score": mine.mean_score,
        "heuristic_mean_score": other_mean,
        "score_edge": edge,
        "score_edge_ci95": [edge - edge_half, edge + edge_half],
        "target": need or None,
        "met": (x_fair >= need and min(lo * players, dlo) > 1.0 and mine.mean_score > other_mean)
        if need
        else None,
        "seconds": wall,  # this sitting's
        # every match's own time, summed (core-seconds; with --out, over every sitting)
        "match_seconds": sum(float(r.get("seconds", 0.0)) for r in result.rows),
        "per_deal": per_deal(result.rows),
    }


def per_deal(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each deal's matches in short: the expert's seat, its wins (shared wins split) and
    every seat's score, per arrangement, so a row can be re-analysed without replaying."""
    out: dict[Any, dict[str, Any]] = {}
    for row in rows:
        names, ranks = list(row["agents"]), [int(r) for r in row["ranks"]]
        seat = names.index("expert")
        winners = [s for s, r in enumerate(ranks) if r == 1]
        win = 1 / len(winners) if seat in winners else 0.0
        deal = out.setdefault(
            (row.get("seed"), row.get("index")),
            {"seed": row.get("seed"), "index": row.get("index"), "matches": []},
        )
        deal["matches"].append(
            {"seat": seat, "win": win, "scores": [float(x) for x in row["scores"]]}
        )
    return list(out.values())


def deal_win_share(rows: list[dict[str, Any]]) -> tuple[float, float]:
    """The expert's win share averaged per deal first, and the half-width of its 95%
    interval over the deals (normal approximation).

    A duplicate deal's arrangements are not independent matches: at an odd player count
    the Williams design has ``2n`` rows, so the expert holds each seat's cards twice, the
    two matches differing only in where the identical heuristics sit. A Wilson interval
    over matches counts them as independent; this one counts each deal once.
    """
    return _mean_and_half(
        [sum(m["win"] for m in deal["matches"]) / len(deal["matches"]) for deal in per_deal(rows)]
    )


def score_edge(rows: list[dict[str, Any]]) -> tuple[float, float]:
    """The expert's mean score minus the heuristics' in the same matches, averaged per
    deal first (a duplicate deal's arrangements share their luck), and the half-width
    of its 95% interval (normal approximation over the deals)."""
    by_deal: dict[Any, list[float]] = {}
    for row in rows:
        names, scores = list(row["agents"]), [float(x) for x in row["scores"]]
        mine = [x for name, x in zip(names, scores, strict=True) if name == "expert"]
        theirs = [x for name, x in zip(names, scores, strict=True) if name != "expert"]
        if mine and theirs:
            gap = sum(mine) / len(mine) - sum(theirs) / len(theirs)
            by_deal.setdefault((row.get("seed"), row.get("index")), []).append(gap)
    return _mean_and_half([sum(g) / len(g) for g in by_deal.values()])


def _mean_and_half(values: list[float]) -> tuple[float, float]:
    """The mean of per-deal values and the half-width of its 95% interval (normal
    approximation); with fewer than two deals the spread is unknown: ``inf``."""
    k = len(values)
    if k == 0:
        return 0.0, math.inf
    mean = sum(values) / k
    if k < 2:
        return mean, math.inf
    var = sum((x - mean) ** 2 for x in values) / (k - 1)
    return mean, 1.96 * math.sqrt(var / k)


def endgame_duel(
    players: int, cards: int, positions: int, iterations: int, seed: int
) -> dict[str, Any]:
    """Extendori's last tricks alone: ``positions`` heuristic self-play hands stopped
    when the seat to play holds ``cards`` cards in the last batch; from each, every
    seat in turn is played by the heuristic, the expert with play-outs only
    (``endgame=False``) and the expert solving the endgame, the others by heuristics.
    Per agent: the mean points the seat takes from there, its paired edge over the
    heuristic with a standard error, and its wins (shared wins split)."""
    import statistics

    from xtarot.agents import ExpertAgent, decision_for
    from xtarot.agents.endgame import extendori_solvable

    game = xtarot.load("extendori", players=players, hands=1)
    others = [STRATEGIES["extendori"](100 + s) for s in range(players)]
    kinds = ("heuristic", "playouts", "solver")
    taken: dict[str, list[int]] = {k: [] for k in kinds}
    wins = dict.fromkeys(kinds, 0.0)
    started = time.perf_counter()
    for p in range(positions):
        state = game.new_state(seed=seed * 100_000 + p)
        while not extendori_solvable(state, cards):  # type: ignore[arg-type]
            state.apply(others[state.current_player].act(decision_for(state)))  # type: ignore[index]
        for seat in range(players):
            for kind in kinds:
                agent = (
                    STRATEGIES["extendori"](p)
                    if kind == "heuristic"
                    else ExpertAgent(p * 10 + seat, iterations=iterations, endgame=kind == "solver")
                )
                world = state.clone()
                before = world.points[seat]  # type: ignore[attr-defined]
                while not world.is_terminal:
                    d = decision_for(world)
                    who = agent if d.seat == seat else others[d.seat]
                    world.apply(who.act(d) if len(d.legal) > 1 else d.legal[0])
                taken[kind].append(world.points[seat] - before)  # type: ignore[attr-defined]
                winners = world.scores().winners
                wins[kind] += 1 / len(winners) if seat in winners else 0.0
    rows = {}
    for kind in kinds:
        edge = [a - b for a, b in zip(taken[kind], taken["heuristic"], strict=True)]
        se = statistics.stdev(edge) / len(edge) ** 0.5 if len(edge) > 1 else 0.0
        rows[kind] = {
            "points": statistics.mean(taken[kind]),
            "edge": statistics.mean(edge),
            "edge_se": se,
            "wins": wins[kind],
        }
    return {
        "players": players,
        "cards": cards,
        "positions": positions,
        "trials": len(taken["heuristic"]),
        "iterations": iterations,
        "rows": rows,
        "seconds": time.perf_counter() - started,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="deals per row (default 200)")
    parser.add_argument("--seconds", type=float, default=None, help="expert's time a move")
    parser.add_argument("--iterations", type=int, default=None, help="expert's play-outs a move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--settings",
        default="",
        help="more expert settings as JSON, e.g. '{\"endgame\": false}' to compare variants",
    )
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--only", default="", help="comma list of game ids")
    parser.add_argument("--players", default="", help="comma list of player counts")
    parser.add_argument("--all-counts", action="store_true", help="every allowed player count")
    parser.add_argument("--quick", action="store_true", help="smoke run: 2 deals, 8 play-outs")
    parser.add_argument(
        "--full",
        action="store_true",
        help="whole matches (each game's default options) instead of single hands",
    )
    parser.add_argument(
        "--endgame-duel",
        type=int,
        default=0,
        metavar="CARDS",
        help="instead: extendori's last CARDS tricks from --games positions (--players, "
        "default 4), heuristic vs expert with play-outs vs expert solving the endgame",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--progress", action="store_true", help="matches done, on stderr")
    parser.add_argument(
        "--out",
        metavar="DIR",
        help="store every match under DIR/<game>-<players>p (lab extra); run again with the "
        "same arguments to play only the deals still missing",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.games = min(args.games, 2)
        if args.seconds is None and args.iterations is None:
            args.iterations = 8
    if args.seconds is None and args.iterations is None:
        args.seconds = 1.0
    if args.games < 1:
        parser.error("--games must be at least 1")
    budget: dict[str, Any] = {}
    if args.iterations is not None:
        budget["iterations"] = args.iterations
    if args.seconds is not None:
        budget["seconds"] = args.seconds
    if args.settings:
        try:
            extra = json.loads(args.settings)
        except json.JSONDecodeError as exc:
            parser.error(f"--settings is not JSON ({exc}); e.g. '{{\"estimate\": false}}'")
        if not isinstance(extra, dict):
            parser.error("--settings must be a JSON object of expert settings")
        budget.update(extra)
    if args.endgame_duel:
        n = int(args.players.split(",")[0]) if args.players.strip() else 4
        duel = endgame_duel(n, args.endgame_duel, args.games, args.iterations or 40, args.seed)
        if args.json:
            print(json.dumps(duel))
            return 0
        for kind, row in duel["rows"].items():
            print(
                f"{kind:10} points taken {row['points']:6.2f}  edge over the heuristic "
                f"{row['edge']:+.2f} (se {row['edge_se']:.2f})  wins {row['wins']:.1f}"
                f"/{duel['trials']}"
            )
        print(f"({n}p, last {args.endgame_duel} tricks, {duel['seconds']:.0f} s)")
        return 0
    only = {g.strip() for g in args.only.split(",") if g.strip()}
    counts = {int(p) for p in args.players.split(",") if p.strip()}
    known = {i.id: i for i in xtarot.games()}
    unknown = only - set(known)
    if unknown:
        parser.error(f"unknown games {sorted(unknown)}; games: {', '.join(sorted(known))}")
    rows = []
    for gid, info in known.items():
        if (only and gid not in only) or gid not in STRATEGIES:
            continue
        wanted = tuple(info.players) if args.all_counts else USUAL.get(gid, tuple(info.players))
        for n in wanted:
            if counts and n not in counts:
                continue
            try:
                row = measure(
                    gid,
                    n,
                    games=args.games,
                    seed=args.seed,
                    budget=budget,
                    workers=args.workers,
                    progress=args.progress,
                    out=str(Path(args.out) / f"{gid}-{n}p") if args.out else None,
                    full=args.full,
                )
            except ImportError as exc:
                if not args.out:
                    raise
                # the lab store needs pandas and pyarrow
                parser.error(f"--out needs the lab extra ({exc}): pip install 'xtarot[lab]'")
            except ValueError as exc:
                if not args.out:
                    raise
                from xtarot.lab.store import LabError  # loaded: the run opened a store

                if not isinstance(exc, LabError):  # only the store's own complaint
                    raise
                parser.error(f"--out: {exc}")  # e.g. a directory of another budget
            rows.append(row)
            if not args.json:
                lo, hi = row["x_fair_ci95"]
                dlo, dhi = row["x_fair_deal_ci95"]
                met = {True: "yes", False: "NO", None: "-"}[row["met"]]
                print(
                    f"{gid:14} {n}p  {row['x_fair']:.2f}x [{lo:.2f}, {hi:.2f}] "
                    f"(per deal [{dlo:.2f}, {dhi:.2f}])  "
                    f"score {row['mean_score']:8.1f} vs {row['heuristic_mean_score']:8.1f} "
                    f"(edge {row['score_edge']:+.1f} +- "
                    f"{(row['score_edge_ci95'][1] - row['score_edge_ci95'][0]) / 2:.1f})  "
                    f"target {row['target'] or '-'}: {met}  "
                    f"({row['matches']} matches, {row['seconds']:.0f} s)",
                    flush=True,
                )
    out = {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "budget": budget,
        "deals": args.games,
        "seed": args.seed,
        "rows": rows,
    }
    if args.json:
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
