"""Speed of seeded random playouts: every registered xtarot game against OpenSpiel.

For every game ``xtarot.games()`` lists and every player count it allows, whole
matches are played through the public API in exactly this loop::

    state = game.new_state(seed=i)
    while not state.is_terminal:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])

and, in the same run, the same loop is driven from Python over OpenSpiel's
``oh_hell`` and ``hearts`` (when ``pyspiel`` is importable; chance nodes are
sampled from ``chance_outcomes()`` by probability with the same Python rng: their
time counts, they do not count as actions).

The rows are timed in rounds: each round times every row once, OpenSpiel's
included, so a row and the baseline it is divided by are timed minutes apart at
most, under the same load.  Time is the process's CPU time (``time.process_time``),
so other jobs on a shared machine slow a row less than they would its wall time.

Reported per row: µs per action (CPU time, ``new_state`` included, divided by the
number of player decisions applied; the median of the rounds), actions per game,
games per second, the memory one mid-game state holds (tracemalloc, xtarot only),
the cost of one ``state.clone()`` of that state (µs, best of 3 batches; xtarot
only) and "× OpenSpiel": the median over the rounds of our µs/action divided by
the mean µs/action of ``oh_hell`` and ``hearts`` in the same round.  The target
(issue 40; issue 18's was 1.5×) is every game at ≤ 1.0× OpenSpiel's cost per
action.

Run ``python benchmarks/bench_playouts.py --help`` for the options.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import xtarot

#: the OpenSpiel games of the baseline (default parameters).
OPENSPIEL_GAMES = ("oh_hell", "hearts")
#: the target: every xtarot game at no more than this × OpenSpiel's cost per action
#: (issue 40; issue 18's was 1.5)
TARGET_RATIO = 1.0
#: rounds: each times every row once (and the clone column's batches)
REPETITIONS = 3
INSTALL_HINT = 'pip install "xtarot[openspiel]"   (or: pip install open-spiel)'


@dataclass
class Row:
    """One measured configuration."""

    engine: str  # "xtarot" or "openspiel"
    game: str
    players: int
    us_per_action: float | None = None
    actions_per_game: float | None = None
    games_per_second: float | None = None
    games_timed: int = 0
    state_kib: float | None = None
    clone_us: float | None = None
    ratio: float | None = None  # × OpenSpiel: the median of the rounds' ratios
    repetitions_us: list[float] = field(default_factory=list)  # per round, in round order
    ratios: list[float] = field(default_factory=list)  # per round: × that round's baseline
    per_game: list[float] = field(default_factory=list)  # per round: actions per game
    per_second: list[float] = field(default_factory=list)  # per round: games per CPU second
    error: str | None = None


# ---------------------------------------------------------------------------
# The playout loops (kept exactly as documented: this is what is timed)
# ---------------------------------------------------------------------------


def _xtarot_playout(game: Any, seed: int, rng: random.Random) -> int:
    state = game.new_state(seed=seed)
    n = 0
    while not state.is_terminal:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        n += 1
    return n


def _openspiel_playout(game: Any, seed: int, rng: random.Random) -> int:
    del seed  # OpenSpiel states are not seeded: the deal comes from the chance nodes
    state = game.new_initial_state()
    n = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            r = rng.random()
            action = outcomes[-1][0]
            for outcome, probability in outcomes:
                r -= probability
                if r < 0.0:
                    action = outcome
                    break
            state.apply_action(action)
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            n += 1
    return n


Playout = Callable[[Any, int, random.Random], int]


def _repetition(
    playout: Playout, game: Any, seconds: float, first_seed: int
) -> tuple[float, int, int]:
    """Whole games until ``seconds`` of CPU time are used (at least one): (CPU time,
    actions, games)."""
    rng = random.Random(first_seed)
    seed = first_seed
    actions = 0
    games = 0
    clock = time.process_time
    start = clock()
    while True:
        actions += playout(game, seed, rng)
        seed += 1
        games += 1
        elapsed = clock() - start
        if elapsed >= seconds:
            return elapsed, actions, games


def measure_round(row: Row, playout: Playout, game: Any, seconds: float, k: int) -> None:
    """Time round ``k`` of ``row`` (``seconds`` of CPU time) and note it."""
    elapsed, actions, games = _repetition(playout, game, seconds, first_seed=k * 1_000_000_000)
    row.repetitions_us.append(elapsed * 1e6 / max(actions, 1))
    row.per_game.append(actions / games)
    row.per_second.append(games / elapsed)
    row.games_timed += games


def summarise(row: Row) -> None:
    """The row's figures: the medians of its rounds."""
    if not row.repetitions_us:
        return
    row.us_per_action = statistics.median(row.repetitions_us)
    row.actions_per_game = statistics.fmean(row.per_game)
    row.games_per_second = statistics.median(row.per_second)
    if row.ratios:
        row.ratio = statistics.median(row.ratios)


def _midgame(game: Any, actions_per_game: float | None) -> Any:
    """The state halfway through the seeded game both memory columns look at."""
    half = int((actions_per_game or 0) // 2)
    rng = random.Random(12345)
    state = game.new_state(seed=12345)
    for _ in range(half):
        if state.is_terminal:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def state_kib(game: Any, actions_per_game: float | None) -> float | None:
    """Memory retained by one state halfway through a seeded game (tracemalloc, KiB)."""
    gc.collect()
    tracemalloc.start()
    try:
        state = _midgame(game, actions_per_game)
        gc.collect()
        size, _peak = tracemalloc.get_traced_memory()
    except Exception:
        return None
    finally:
        tracemalloc.stop()
    del state
    return size / 1024


#: time per batch of clones; the clone column is the best of ``REPETITIONS`` batches.
CLONE_BATCH_SECONDS = 0.02


def clone_us(game: Any, actions_per_game: float | None) -> float | None:
    """µs per ``state.clone()`` of the same halfway state (best of a few batches)."""
    try:
        state = _midgame(game, actions_per_game)
        clock = time.process_time
        per_batch = 1
        while True:  # size a batch to about CLONE_BATCH_SECONDS
            start = clock()
            for _ in range(per_batch):
                state.clone()
            elapsed = clock() - start
            if elapsed >= CLONE_BATCH_SECONDS or per_batch >= 1 << 16:
                break
            per_batch *= 2
        best = elapsed / per_batch
        for _ in range(REPETITIONS - 1):
            start = clock()
            for _ in range(per_batch):
                state.clone()
            best = min(best, (clock() - start) / per_batch)
    except Exception:
        return None
    return best * 1e6


# ---------------------------------------------------------------------------
# Driving the rows
# ---------------------------------------------------------------------------


def _load_pyspiel() -> Any | None:
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel


def run(args: argparse.Namespace, log: Callable[[str], None]) -> dict[str, Any]:
    wanted_games = set(args.games.split(",")) if args.games else None
    wanted_players = {int(p) for p in args.players.split(",")} if args.players else None
    known = {info.id for info in xtarot.games()}
    if wanted_games:
        unknown = sorted(wanted_games - known - set(OPENSPIEL_GAMES))
        if unknown:
            raise SystemExit(
                f"unknown game(s) {', '.join(unknown)}; registered: {', '.join(sorted(known))}"
            )

    # (row, playout, game); a game that fails to load gets its error and no timing
    timed: list[tuple[Row, Playout, Any]] = []
    rows: list[Row] = []
    for info in xtarot.games():
        if wanted_games and info.id not in wanted_games:
            continue
        for players in info.players:
            if wanted_players and players not in wanted_players:
                continue
            row = Row("xtarot", info.id, players)
            rows.append(row)
            try:
                timed.append((row, _xtarot_playout, xtarot.load(info.id, players=players)))
            except Exception as exc:  # a game being written elsewhere must not stop the run
                row.error = f"{type(exc).__name__}: {exc}"

    pyspiel = None if args.no_openspiel else _load_pyspiel()
    openspiel_rows: list[Row] = []
    note = None
    if args.no_openspiel:
        note = "OpenSpiel baseline skipped (--no-openspiel)."
    elif pyspiel is None:
        note = f"OpenSpiel (pyspiel) is not installed, so there is no baseline; {INSTALL_HINT}"
    else:
        for name in OPENSPIEL_GAMES:
            game = pyspiel.load_game(name)
            row = Row("openspiel", name, game.num_players())
            openspiel_rows.append(row)
            timed.append((row, _openspiel_playout, game))

    for row, playout, game in timed:  # warm up every row once
        try:
            _repetition(playout, game, args.warmup, first_seed=1_000_000)
        except Exception as exc:
            row.error = f"{type(exc).__name__}: {exc}"
    seconds = args.seconds / REPETITIONS
    for k in range(REPETITIONS):
        log(f"  round {k + 1} of {REPETITIONS}…")
        for row, playout, game in timed:
            if row.error is None:
                try:
                    measure_round(row, playout, game, seconds, k)
                except Exception as exc:
                    row.error = f"{type(exc).__name__}: {exc}"
        # this round's baseline, and every row's ratio to it
        base = [r.repetitions_us[k] for r in openspiel_rows if len(r.repetitions_us) > k]
        if openspiel_rows and len(base) == len(OPENSPIEL_GAMES):
            mean = statistics.fmean(base)
            for row, _, _ in timed:
                if len(row.repetitions_us) > k:
                    row.ratios.append(row.repetitions_us[k] / mean)
    for row, _, game in timed:
        summarise(row)
        if row.engine == "xtarot" and row.error is None and not args.no_memory:
            row.state_kib = state_kib(game, row.actions_per_game)
            row.clone_us = clone_us(game, row.actions_per_game)

    measured = [r.us_per_action for r in openspiel_rows if r.us_per_action is not None]
    baseline = statistics.fmean(measured) if len(measured) == len(OPENSPIEL_GAMES) else None

    target_rows = [r for r in rows if r.ratio is not None]
    target: dict[str, Any] = {"games": "every game", "max_ratio": TARGET_RATIO}
    if target_rows:
        worst = max(target_rows, key=lambda r: r.ratio or 0.0)
        assert worst.ratio is not None
        target.update(
            worst_ratio=round(worst.ratio, 3),
            worst=f"{worst.game} {worst.players}p",
            met=worst.ratio <= TARGET_RATIO,
        )
    else:
        target.update(worst_ratio=None, worst=None, met=None)

    return {
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpu_count": os.cpu_count(),
        "xtarot": xtarot.__version__,
        "openspiel": _openspiel_version() if pyspiel is not None else None,
        "seconds_per_row": args.seconds,
        "repetitions": REPETITIONS,
        "openspiel_us_per_action": baseline,
        "target": target,
        "note": note,
        "rows": [asdict(r) for r in rows + openspiel_rows],
    }


def _openspiel_version() -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("open-spiel")
    except PackageNotFoundError:
        return "unknown"


# ---------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------

COLUMNS = (
    "engine",
    "game",
    "players",
    "µs/action",
    "actions/game",
    "games/s",
    "state KiB",
    "clone µs",
    "× OpenSpiel",
)


def _cells(row: dict[str, Any]) -> list[str]:
    if row["error"]:
        return [row["engine"], row["game"], str(row["players"]), "error", "", "", "", "", ""]

    def fmt(value: float | None, spec: str) -> str:
        return "n/a" if value is None else format(value, spec)

    ratio = fmt(row["ratio"], ".2f")
    if row["ratio"] is not None and row["engine"] == "xtarot":
        ratio += " ✓" if row["ratio"] <= TARGET_RATIO else " ✗"
    return [
        row["engine"],
        row["game"],
        str(row["players"]),
        fmt(row["us_per_action"], ".1f"),
        fmt(row["actions_per_game"], ".1f"),
        fmt(row["games_per_second"], ",.0f"),
        fmt(row["state_kib"], ".1f"),
        fmt(row.get("clone_us"), ".1f"),
        ratio,
    ]


def header_lines(result: dict[str, Any]) -> list[str]:
    openspiel = result["openspiel"] or "not installed"
    return [
        f"Python {result['python']} ({result['implementation']}) on {result['platform']}, "
        f"{result['cpu_count']} CPUs",
        f"xtarot {result['xtarot']}, open-spiel {openspiel}; "
        f"{result['seconds_per_row']:g} CPU s per row, median of {result['repetitions']} "
        "interleaved rounds",
    ]


def footer_lines(result: dict[str, Any]) -> list[str]:
    lines = []
    if result["openspiel_us_per_action"]:
        lines.append(
            f"OpenSpiel baseline: mean of {' and '.join(OPENSPIEL_GAMES)} = "
            f"{result['openspiel_us_per_action']:.1f} µs/action (Python-driven loop; "
            "× OpenSpiel is the median of each round's ratio)."
        )
    target = result["target"]
    if target["met"] is None:
        lines.append(f"Target (every game ≤ {TARGET_RATIO:.1f}× OpenSpiel): not measured.")
    else:
        verdict = "MET" if target["met"] else "NOT MET"
        lines.append(
            f"Target (every game ≤ {TARGET_RATIO:.1f}× OpenSpiel's cost per action): "
            f"{verdict} (worst {target['worst_ratio']:.2f}×, {target['worst']})."
        )
    if result["note"]:
        lines.append(result["note"])
    for row in result["rows"]:
        if row["error"]:
            lines.append(f"error in {row['game']} ({row['players']} players): {row['error']}")
    return lines


def print_table(result: dict[str, Any], plain: bool) -> None:
    rows = [_cells(r) for r in result["rows"]]
    console = None
    if not plain:
        try:
            from rich.console import Console
            from rich.table import Table
        except ImportError:
            plain = True
        else:
            console = Console()
            if not console.is_terminal:  # piped: do not squeeze the table into 80 columns
                console = Console(width=max(console.width, 120))
            table = Table(title="Random playouts: cost per action")
            for i, name in enumerate(COLUMNS):
                table.add_column(name, justify="left" if i < 2 else "right", no_wrap=True)
            for cells in rows:
                table.add_row(*cells)
    if console is None:
        for line in header_lines(result):
            print(line)
        widths = [max(len(c), *(len(r[i]) for r in rows)) for i, c in enumerate(COLUMNS)]
        aligned = [
            "  ".join(
                c.ljust(w) if i < 2 else c.rjust(w)
                for i, (c, w) in enumerate(zip(r, widths, strict=True))
            )
            for r in [list(COLUMNS), *rows]
        ]
        print(aligned[0])
        print("  ".join("-" * w for w in widths))
        for line in aligned[1:]:
            print(line)
        for line in footer_lines(result):
            print(line)
        return
    for line in header_lines(result):
        console.print(line, highlight=False)
    console.print(table)
    for line in footer_lines(result):
        console.print(line, highlight=False)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="µs per action of seeded random playouts, xtarot games vs OpenSpiel."
    )
    parser.add_argument("--games", help="comma-separated game ids (default: every registered game)")
    parser.add_argument("--players", help="comma-separated player counts (default: all)")
    parser.add_argument(
        "--seconds",
        type=float,
        default=2.0,
        help="CPU time per measured row, over all rounds (default 2)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object instead")
    parser.add_argument("--quick", action="store_true", help="smoke run: tiny time boxes")
    parser.add_argument("--plain", action="store_true", help="plain text table, no rich")
    parser.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel rows")
    parser.add_argument(
        "--no-memory", action="store_true", help="skip the state-size and clone-cost columns"
    )
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    if args.quick:
        args.seconds = min(args.seconds, 0.06)
    args.warmup = min(0.5, args.seconds / 4)
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)

    def log(message: str) -> None:
        if not args.json:
            print(message, file=sys.stderr, flush=True)

    result = run(args, log)
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
    else:
        print_table(result, args.plain)
    return 1 if any(r["error"] for r in result["rows"]) else 0


if __name__ == "__main__":
    sys.exit(main())
