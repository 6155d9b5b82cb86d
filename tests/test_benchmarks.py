"""Smoke test: the playout benchmark runs end to end (tiny time boxes)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "bench_playouts.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    src = str(ROOT / "src")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH")) if p)
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


def test_quick_run_prints_a_table() -> None:
    proc = _run("--quick", "--games", "sono-arcana")
    assert proc.returncode == 0, proc.stderr
    assert "sono-arcana" in proc.stdout
    assert "µs/action" in proc.stdout
    assert "× OpenSpiel" in proc.stdout


def test_quick_json_has_a_row_per_player_count() -> None:
    proc = _run("--quick", "--json", "--games", "sono-arcana", "--no-openspiel")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    rows = [r for r in result["rows"] if r["engine"] == "xtarot"]
    assert [r["players"] for r in rows] == [3, 4, 5]
    for row in rows:
        assert row["error"] is None
        assert row["us_per_action"] > 0
        assert row["actions_per_game"] > 0


def test_bots_benchmark_quick_json() -> None:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT / "src"), env.get("PYTHONPATH")) if p)
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_bots.py"), "--quick", "--json",
         "--games", "sono-arcana"],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert [r["players"] for r in out["strength"]] == [3, 4, 5]
    assert out["speed"][0]["game"] == "sono-arcana" and out["speed"][0]["per_second"] > 0


def test_heuristics_benchmark_json_rows() -> None:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT / "src"), env.get("PYTHONPATH")) if p)
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_heuristics.py"), "--json",
         "--games", "grail-mahjong", "--players", "2", "3", "--matches", "12"],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [(r["game"], r["players"]) for r in rows] == [("grail-mahjong", 2), ("grail-mahjong", 3)]
    for row in rows:
        assert row["matches"] >= 12 and row["deals"] * 2 <= row["matches"]
        lo, hi = row["x_fair_ci95"]
        assert 0 <= lo <= row["x_fair"] <= hi


def test_heuristics_benchmark_full_matches(bench_script: Callable[[str], Any]) -> None:
    """``--full`` plays the game's own match (extendori at 3 players: three hands, one
    per player) instead of single hands: the same deals' points add up over the hands."""
    bench = bench_script("bench_heuristics")
    single = bench.measure("extendori", 3, 6, 1)
    full = bench.measure("extendori", 3, 6, 1, full=True)
    assert single["options"] == {"hands": 1} and full["options"] == {}
    assert single["matches"] == full["matches"] == 6
    # the points of three hands against those of one
    assert full["mean_score"] + full["others_mean_score"] > 2 * (
        single["mean_score"] + single["others_mean_score"]
    )


def test_speed_benchmark_plays_the_same_moves_both_ways(
    bench_script: Callable[[str], Any],
) -> None:
    """``bench_speed`` times heuristic play-outs with copied and with peeked views: both
    ways play the same moves, and the row carries both rates."""
    bench = bench_script("bench_speed")
    row = bench.measure("sono-arcana", 3, 0.05)
    assert row["same_moves"] is True
    assert row["copied_per_s"] > 0 and row["peeked_per_s"] > 0
    assert row["speedup"] == row["peeked_per_s"] / row["copied_per_s"]


def test_speed_benchmark_compares_compiled_and_pure_moves(
    bench_script: Callable[[str], Any],
) -> None:
    """``bench_speed``'s default run times the play-outs as installed and in a
    pure-Python process: both sides report a rate and play the same moves."""
    bench = bench_script("bench_speed")
    result = bench.compare(["sono-arcana"], 0.05, 0, [], 1)
    (row,) = result["rows"]
    assert row["same_moves"] is True
    assert row["compiled_per_s"] > 0 and row["pure_per_s"] > 0
    assert row["ratio"] == row["compiled_per_s"] / row["pure_per_s"]


def test_speed_benchmark_times_the_expert_both_ways(
    bench_script: Callable[[str], Any],
) -> None:
    """``bench_speed`` times ``expert`` at a time a move as installed and in pure
    Python: play-outs a move and a CPU second both ways, and the same moves at a fixed
    number of play-outs."""
    bench = bench_script("bench_speed")
    result = bench.compare([], 0.05, 0, [], 1, None, ["sono-arcana"], 0.05)
    assert result["rows"] == [] and result["lab"] == []
    (row,) = result["expert"]
    assert row["same_moves"] is True
    assert row["compiled_per_move"] > 0 and row["pure_per_move"] > 0
    assert row["ratio"] == row["compiled_per_cpu_s"] / row["pure_per_cpu_s"]
