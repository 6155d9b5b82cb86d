"""Heuristic play-outs: what a lab study with heuristic players, a ``normal`` bot's table
and the expert's search wait for (issue #40), measured per game.

For every game with a heuristic, at its usual player count and single hands where the
game has them (``bulk_options``), whole play-outs with the heuristic in every seat,
driven through the public API exactly as ``play_match`` (and so the lab) drives them,
views peeked (``state.peek_view``, as ``play_match`` hands them to the heuristics).

By default, *compiled against pure Python* in the same run: each game is timed in this
process (the modules ``setup.py`` compiled, :mod:`xtarot._compiled`, running compiled)
and right after in a fresh process with ``XTAROT_PURE_PYTHON=1`` (every module from its
source), ``--rounds`` times over.  Reported per row: play-outs per CPU second and CPU
µs per heuristic decision both ways (CPU time of the timed process: a machine shared
with other jobs skews it far less than wall time; the medians of the rounds), the median
of the rounds' ratios, and whether both sides played the same moves (a digest of every
move of the same seeded play-outs).  Then the lab's ``seats`` study with heuristic
players (``run_seats``, one worker, single hands) in matches per CPU second, both ways
in turn ``--rounds`` times (the medians, and the median of the rounds' ratios), its
findings compared too.  Then ``expert`` at ``--expert-seconds`` (1 s) a move on
seeded positions of heuristic matches, both ways in turn: its play-outs a move and per
CPU second of its moves (what its strength at a second a move rests on), and its moves
at a fixed number of play-outs compared.  ``--baseline SRC`` adds a third side to all
three: the tree under ``SRC`` in pure Python (the commit before, say), its moves and
findings compared too (the expert's are not: another tree's expert may choose
otherwise).

``--views`` times instead, in this process only, every decision with a copied view
(``state.view``: how every match was played before 2026-11-27) against a peeked one.

Run ``python benchmarks/bench_speed.py --help``; ``--quick`` for a smoke run,
``--json`` for one JSON object.  Seeded; the figures vary with the machine's load, the
same-run ratios much less.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Sequence
from statistics import median
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


#: the seeded play-outs whose moves both sides must play alike (besides the timed ones)
CHECKED = 20


def _load(game_id: str, players: int) -> Any:
    info = next(i for i in xtarot.games() if i.id == game_id)
    return xtarot.load(game_id, players=players, **dict(info.bulk_options))


def rate(game_id: str, players: int, seconds: float) -> dict[str, Any]:
    """Peeked heuristic play-outs per second and µs per decision in this process, and
    the digest of the moves of seeds ``0 .. CHECKED - 1``."""
    game = _load(game_id, players)
    moves = hashlib.sha256()
    for seed in range(CHECKED):  # also the warm-up
        _playout(game, seed, True, moves)
    # timed in CPU seconds of this process: on a machine shared with other jobs its
    # share of the cores varies from second to second, its CPU time per play-out much less
    start, played, asked = time.process_time(), 0, 0
    while time.process_time() - start < seconds:
        asked += _playout(game, 1_000 + played, True, hashlib.sha256())
        played += 1
    took = time.process_time() - start
    return {
        "game": game_id,
        "players": players,
        "per_s": played / took,
        "us": took / asked * 1e6,
        "moves": moves.hexdigest(),
    }


def lab_seats(game_id: str, players: int, games: int) -> dict[str, Any]:
    """The lab's ``seats`` study with heuristic players (one worker, single hands):
    matches per second in this process, and a digest of what it found."""
    from xtarot.lab import run_seats

    info = next(i for i in xtarot.games() if i.id == game_id)
    start = time.process_time()  # CPU seconds, as in :func:`rate` (one worker: this process)
    result = run_seats(
        game=game_id, players=players, games=games, seed=1, workers=1,
        options=dict(info.bulk_options),
    )  # fmt: skip
    took = time.process_time() - start
    data = {k: v for k, v in result.data.items() if k != "seconds"}  # all but its time
    found = hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode())
    return {"game": game_id, "players": players, "per_s": games / took,
            "found": found.hexdigest()}  # fmt: skip


def _positions(game: Any, count: int) -> list[Any]:
    """``count`` seeded positions of heuristic matches where the seat to act has a
    choice: match ``i``'s ``3 + 4 * (i % 4)``-th such decision (the same on every side)."""
    from xtarot.agents import decision_for

    found = []
    for seed in range(count):
        state = game.new_state(seed=seed)
        bots = [HeuristicAgent(seed * 10 + s) for s in range(game.players)]
        wanted, choices = 3 + 4 * (seed % 4), 0
        while not state.is_terminal:
            decision = decision_for(state)
            if len(decision.legal) > 1:
                if choices == wanted:
                    break
                choices += 1
            state.apply(bots[decision.seat].act(decision))
        if not state.is_terminal:
            found.append(state)
    return found


def expert_rate(game_id: str, players: int, seconds: float) -> dict[str, Any]:
    """``expert`` at ``seconds`` a move on :data:`EXPERT_MOVES` positions: its play-outs
    a move (the median) and per CPU second of its moves (its strength at a second a move
    is the number of play-outs it makes); and a digest of its moves, explanations and
    play-out counts at a fixed :data:`EXPERT_FIXED` play-outs on the first two, which
    must be the same on every side."""
    from xtarot.agents import ExpertAgent, decision_for

    game = _load(game_id, players)
    positions = _positions(game, EXPERT_MOVES)
    moves = hashlib.sha256()
    for i, state in enumerate(positions[:2]):  # also the warm-up
        fixed = ExpertAgent(seed=i, iterations=EXPERT_FIXED)
        move = fixed.act(decision_for(state))
        moves.update(repr((move.text, fixed.explain(), fixed.last_iterations)).encode())
    counts, cpu = [], 0.0
    for i, state in enumerate(positions):
        bot = ExpertAgent(seed=i, seconds=seconds)
        start = time.process_time()
        bot.act(decision_for(state))
        cpu += time.process_time() - start
        counts.append(bot.last_iterations)
    return {
        "game": game_id,
        "players": players,
        "per_move": median(counts),
        "per_cpu_s": sum(counts) / cpu if cpu else 0.0,
        "moves": moves.hexdigest(),
    }


#: the positions ``expert_rate`` times the expert on, and its fixed budget for the digest
EXPERT_MOVES = 8
EXPERT_FIXED = 24


def compiled_now() -> list[str]:
    from xtarot._compiled import compiled

    return compiled()


def pure_side(
    what: str, game_id: str, players: int, amount: float, tree: str | None = None
) -> dict[str, Any]:
    """:func:`rate` (``what="rate"``, ``amount`` seconds), :func:`lab_seats`
    (``"lab"``, ``amount`` matches) or :func:`expert_rate` (``"expert"``, ``amount``
    seconds a move) in a fresh process with ``XTAROT_PURE_PYTHON=1``; of the package
    under ``tree`` (a ``src`` folder) instead of the installed one if given."""
    env = {**os.environ, "XTAROT_PURE_PYTHON": "1"}
    if tree is not None:
        env["PYTHONPATH"] = tree
    args = [sys.executable, __file__, "--side", what, game_id, str(players), str(amount)]
    proc = subprocess.run(args, capture_output=True, text=True, env=env, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"the pure-Python side failed:\n{proc.stderr}")
    return json.loads(proc.stdout.splitlines()[-1])  # type: ignore[no-any-return]


Side = list[dict[str, Any]]


def _in_turn(
    here: Any,
    what: str,
    game_id: str,
    players: int,
    amount: Any,
    rounds: int,
    baseline: str | None,
) -> tuple[Side, Side, Side]:
    """``rounds`` times in turn: ``here`` (:func:`rate`, :func:`lab_seats` or
    :func:`expert_rate`) in this process, the same ``what`` in pure Python, and under
    ``baseline`` if given; the three sides' results."""
    fast: Side = []
    pure: Side = []
    before: Side = []
    for _ in range(rounds):
        fast.append(here(game_id, players, amount))
        pure.append(pure_side(what, game_id, players, amount))
        if baseline is not None:
            before.append(pure_side(what, game_id, players, amount, baseline))
    return fast, pure, before


def compare(
    games: list[str],
    seconds: float,
    lab_games: int,
    lab: list[str],
    rounds: int = 1,
    baseline: str | None = None,
    expert: Sequence[str] = (),
    expert_seconds: float = 1.0,
) -> dict[str, Any]:
    """Compiled (this process) against pure Python (a subprocess), game by game, each
    side ``rounds`` times in turn; with ``baseline`` (another tree's ``src``), that
    tree's play-outs in pure Python too (``before_*``).  ``expert``: the games whose
    ``expert`` is timed at ``expert_seconds`` a move (its play-outs a move; the expert's
    moves at a fixed budget compared, not those of another tree, whose expert may
    differ)."""
    rows = []
    for game_id in games:
        players = PLAYERS.get(game_id, 4)
        fast, pure, before = _in_turn(rate, "rate", game_id, players, seconds, rounds, baseline)
        pairs = list(zip(fast, pure, strict=True))
        if before:
            then = list(zip(fast, before, strict=True))
            extra = {
                "before_per_s": median(b["per_s"] for b in before),
                "vs_before": median(f["per_s"] / b["per_s"] for f, b in then),
                "same_as_before": all(f["moves"] == b["moves"] for f, b in then),
            }
        else:
            extra = {}
        rows.append(
            {
                "game": game_id,
                "players": players,
                "compiled_per_s": median(f["per_s"] for f in fast),
                "compiled_us": median(f["us"] for f in fast),
                "pure_per_s": median(p["per_s"] for p in pure),
                "pure_us": median(p["us"] for p in pure),
                "ratios": [f["per_s"] / p["per_s"] for f, p in pairs],
                "ratio": median(f["per_s"] / p["per_s"] for f, p in pairs),
                "same_moves": all(f["moves"] == p["moves"] for f, p in pairs),
                **extra,
            }
        )
        print(f"  {game_id}: {rows[-1]['ratio']:.2f}x", file=sys.stderr, flush=True)
    studies = []
    for game_id in lab:
        players = PLAYERS.get(game_id, 4)
        fast, pure, before = _in_turn(
            lab_seats, "lab", game_id, players, lab_games, rounds, baseline
        )
        study = {
            "study": f"seats {game_id} -p {players} (heuristic, single hands)",
            "games": lab_games,
            "compiled_per_s": median(f["per_s"] for f in fast),
            "pure_per_s": median(p["per_s"] for p in pure),
            "ratio": median(f["per_s"] / p["per_s"] for f, p in zip(fast, pure, strict=True)),
            "same_findings": all(f["found"] == p["found"] for f, p in zip(fast, pure, strict=True)),
        }
        if before:
            then = list(zip(fast, before, strict=True))
            study["before_per_s"] = median(b["per_s"] for b in before)
            study["vs_before"] = median(f["per_s"] / b["per_s"] for f, b in then)
            study["same_as_before"] = all(f["found"] == b["found"] for f, b in then)
        studies.append(study)
    experts = []
    for game_id in expert:
        players = PLAYERS.get(game_id, 4)
        fast, pure, before = _in_turn(
            expert_rate, "expert", game_id, players, expert_seconds, rounds, baseline
        )
        pairs = list(zip(fast, pure, strict=True))
        row = {
            "game": game_id,
            "players": players,
            "seconds": expert_seconds,
            "compiled_per_move": median(f["per_move"] for f in fast),
            "pure_per_move": median(p["per_move"] for p in pure),
            "compiled_per_cpu_s": median(f["per_cpu_s"] for f in fast),
            "pure_per_cpu_s": median(p["per_cpu_s"] for p in pure),
            "ratio": median(f["per_cpu_s"] / p["per_cpu_s"] for f, p in pairs),
            "same_moves": all(f["moves"] == p["moves"] for f, p in pairs),
        }
        if before:
            then = list(zip(fast, before, strict=True))
            row["before_per_move"] = median(b["per_move"] for b in before)
            row["before_per_cpu_s"] = median(b["per_cpu_s"] for b in before)
            row["vs_before"] = median(f["per_cpu_s"] / b["per_cpu_s"] for f, b in then)
        experts.append(row)
        print(f"  expert {game_id}: {row['ratio']:.2f}x", file=sys.stderr, flush=True)
    return {"compiled": compiled_now(), "rows": rows, "lab": studies, "expert": experts}


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
    parser.add_argument("--seconds", type=float, default=5.0, help="per game, side and round")
    parser.add_argument("--rounds", type=int, default=3, help="compiled, pure, … in turn")
    parser.add_argument("--lab-games", type=int, default=400, help="the lab study's matches")
    parser.add_argument(
        "--lab", nargs="*", default=["fairy500", "grail-mahjong"], help="the lab's games"
    )
    parser.add_argument("--games", nargs="*", help="only these games")
    parser.add_argument(
        "--expert",
        nargs="*",
        default=None,
        help="the games whose expert is timed (default: the play-outs' games; none: no expert)",
    )
    parser.add_argument(
        "--expert-seconds", type=float, default=1.0, help="the expert's time a move (1 s)"
    )
    parser.add_argument(
        "--baseline", metavar="SRC", help="also another tree's src folder (pure Python)"
    )
    parser.add_argument("--views", action="store_true", help="copied against peeked views")
    parser.add_argument("--quick", action="store_true", help="a smoke run")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--side", nargs=4, help=argparse.SUPPRESS)  # the pure side's run
    args = parser.parse_args(argv)
    if args.side:
        what, game_id, players, amount = args.side
        if what == "rate":
            print(json.dumps(rate(game_id, int(players), float(amount))))
        elif what == "expert":
            print(json.dumps(expert_rate(game_id, int(players), float(amount))))
        else:
            print(json.dumps(lab_seats(game_id, int(players), int(float(amount)))))
        return 0
    seconds = 0.5 if args.quick else args.seconds
    lab_games = 20 if args.quick else args.lab_games
    games = [g for g in sorted(STRATEGIES) if not args.games or g in args.games]
    if args.views:
        return _views(games, seconds, lab_games, args.json)
    result = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        **compare(
            games,
            seconds,
            lab_games,
            args.lab,
            1 if args.quick else args.rounds,
            args.baseline,
            games if args.expert is None else [g for g in args.expert if g in STRATEGIES],
            0.2 if args.quick else args.expert_seconds,
        ),
    }
    ok = (
        all(r["same_moves"] and r.get("same_as_before", True) for r in result["rows"])
        and all(r["same_findings"] and r.get("same_as_before", True) for r in result["lab"])
        and all(r["same_moves"] for r in result["expert"])
    )
    if args.json:
        print(json.dumps(result, indent=2))
        return 0 if ok else 1
    print(f"Heuristic play-outs, Python {result['python']} ({result['machine']})")
    print(f"compiled: {', '.join(result['compiled']) or 'none (pure-Python install)'}")
    print(
        f"{'game':<15}{'p':>3}{'compiled/s':>12}{'µs/dec':>9}{'pure/s':>10}{'µs/dec':>9}"
        f"{'ratio':>8}  same moves"
    )
    for r in result["rows"]:
        print(
            f"{r['game']:<15}{r['players']:>3}{r['compiled_per_s']:>12.1f}{r['compiled_us']:>9.0f}"
            f"{r['pure_per_s']:>10.1f}{r['pure_us']:>9.0f}{r['ratio']:>7.2f}x  "
            f"{'yes' if r['same_moves'] else 'NO'}"
            + (
                f"   baseline {r['before_per_s']:.1f}/s: compiled {r['vs_before']:.2f}x, "
                f"same moves {'yes' if r['same_as_before'] else 'NO'}"
                if "vs_before" in r
                else ""
            )
        )
    for lab in result["lab"]:
        print(
            f"Lab {lab['study']}, {lab['games']} matches: {lab['compiled_per_s']:.1f} "
            f"matches/s compiled, {lab['pure_per_s']:.1f} pure ({lab['ratio']:.2f}x; same "
            f"findings: {'yes' if lab['same_findings'] else 'NO'})"
            + (
                f"; baseline {lab['before_per_s']:.1f}/s: compiled {lab['vs_before']:.2f}x, "
                f"same findings {'yes' if lab['same_as_before'] else 'NO'}"
                if "vs_before" in lab
                else ""
            )
        )
    for r in result["expert"]:
        print(
            f"Expert {r['game']} -p {r['players']} at {r['seconds']:g} s a move: "
            f"{r['compiled_per_move']:.0f} play-outs a move compiled, {r['pure_per_move']:.0f} "
            f"pure; per CPU second {r['compiled_per_cpu_s']:.0f} and {r['pure_per_cpu_s']:.0f} "
            f"({r['ratio']:.2f}x; same moves at {EXPERT_FIXED} play-outs: "
            f"{'yes' if r['same_moves'] else 'NO'})"
            + (
                f"; baseline {r['before_per_move']:.0f} a move, {r['before_per_cpu_s']:.0f} "
                f"per CPU s: compiled {r['vs_before']:.2f}x"
                if "vs_before" in r
                else ""
            )
        )
    return 0 if ok else 1


def _views(games: list[str], seconds: float, lab_games: int, as_json: bool) -> int:
    """Copied against peeked views, in this process (``--views``)."""
    rows = []
    for game_id in games:
        row = measure(game_id, PLAYERS.get(game_id, 4), seconds)
        rows.append(row)
        print(f"  {game_id}: {row['speedup']:.1f}x", file=sys.stderr, flush=True)
    lab = lab_rate(lab_games)
    result = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "rows": rows,
        "lab": lab,
    }
    if as_json:
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
