"""The lab: deterministic parallel runs (1 worker, 2 workers, Ray), seat bias detection,
resume and merge, duplicate arrangements, variants, luck, reports and the CLI."""

from __future__ import annotations

import base64
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pandas")
pytest.importorskip("pyarrow")

import xtarot
from xtarot.agents import Decision, HeuristicAgent, RandomAgent
from xtarot.engine import Action
from xtarot.lab import (
    analyse,
    merge,
    read_rows,
    run_compare,
    run_luck,
    run_seats,
    run_tournament,
    write_report,
)
from xtarot.lab.runner import Bot, Design, execute, williams
from xtarot.lab.store import LabError

ROOT = Path(__file__).resolve().parents[1]


def _plain(df: Any) -> Any:
    """A run's rows without the timing column (the only one that may differ)."""
    return df.drop(columns=["seconds"]).reset_index(drop=True)


# -- a bot that plays well only at one table seat --------------------------------------------
class Rigged:
    """The heuristic at table seat 0, random play everywhere else."""

    name = "rigged"

    def __init__(self, seed: int) -> None:
        self.good = HeuristicAgent(seed)
        self.bad = RandomAgent(seed)

    def act(self, decision: Decision) -> Action:
        return (self.good if decision.seat == 0 else self.bad).act(decision)

    def explain(self) -> None:
        return None


def rigged(seed: int) -> Rigged:
    return Rigged(seed)


class Slow:
    """A bot that thinks a second a move without using the CPU: its matches last
    minutes, as a searching bot's do."""

    name = "slow"

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def act(self, decision: Decision) -> Action:
        time.sleep(1.0)
        return decision.legal[0]

    def explain(self) -> None:
        return None


def slow(seed: int) -> Slow:
    return Slow(seed)


# -- determinism across backends ---------------------------------------------------------------
def test_rows_are_identical_for_one_and_two_workers() -> None:
    design = Design.build("matto", 3, agents=["heuristic", "random"])
    one = execute(design, 7, range(24), workers=1)
    two = execute(design, 7, range(24), workers=2, chunk=5)
    strip = [{k: v for k, v in r.items() if k != "seconds"} for r in one]
    assert strip == [{k: v for k, v in r.items() if k != "seconds"} for r in two]
    assert [r["index"] for r in one] == list(range(24))
    # game i of another seed or another index is another match
    assert len({r["game_seed"] for r in one}) == 24
    assert execute(design, 8, [0], workers=1)[0]["game_seed"] != one[0]["game_seed"]


def test_searching_bots_go_a_game_at_a_time() -> None:
    """With a bot that searches every move, a run hands out, stores and counts one game
    at a time (progress that moves, little lost to a stop); cheap bots keep larger
    chunks.  The rows are the same either way."""

    def batches(agents: list[str], chunk: int | None = None) -> list[list[int]]:
        got: list[list[int]] = []

        def keep(rows: list[dict[str, Any]]) -> None:
            got.append(sorted({int(r["index"]) for r in rows}))

        design = Design.build("sono-arcana", 3, agents=agents)
        execute(design, 1, range(16), workers=1, chunk=chunk, on_rows=keep)
        return got

    one_by_one = [[i] for i in range(16)]
    assert batches(["ismcts:iterations=2", "random"]) == one_by_one
    assert batches(["heuristic", "random"]) == [[i, i + 1] for i in range(0, 16, 2)]
    assert batches(["heuristic", "random"], chunk=8) == [list(range(8)), list(range(8, 16))]


@pytest.fixture(scope="module")
def ray_local() -> Iterator[Any]:
    ray = pytest.importorskip("ray")
    from xtarot.lab.runner import ray_connect

    ray_connect("local", 2)
    yield ray
    ray.shutdown()


def test_ray_local_gives_the_same_table_as_multiprocessing(ray_local: Any) -> None:
    kwargs: dict[str, Any] = {"agents": ["heuristic"], "games": 30, "seed": 3}
    local = run_seats("sono-arcana", 4, workers=1, **kwargs)
    pool = run_seats("sono-arcana", 4, workers=2, **kwargs)
    on_ray = run_seats("sono-arcana", 4, workers=2, ray="local", **kwargs)
    assert _plain(local.rows).equals(_plain(pool.rows))
    assert _plain(local.rows).equals(_plain(on_ray.rows))
    assert local.data["seats"] == on_ray.data["seats"]
    # the second step's studies on the same Ray: a feel study and a tuning study (its
    # trials' matches played together as Ray tasks) give what one process gives
    from xtarot.lab.studies import run_feel
    from xtarot.lab.tune import run_tune

    feel: dict[str, Any] = {"games": 6, "seed": 2, "variants": ["default", "teams=true"]}
    here = run_feel("sono-arcana", 4, workers=1, **feel)
    there = run_feel("sono-arcana", 4, workers=2, ray="local", **feel)
    assert _plain(here.rows).equals(_plain(there.rows))
    assert here.data["variants"] == there.data["variants"]
    tune: dict[str, Any] = {"targets": ["seats", "drama"], "space": ["hands=1..2"],
                            "trials": 3, "batch": 3, "games": 4, "seed": 1}  # fmt: skip
    trials = run_tune("grail-mahjong", 2, workers=1, **tune).data["trials"]
    assert run_tune("grail-mahjong", 2, workers=2, ray="local", **tune).data["trials"] == trials


# -- seat advantage ------------------------------------------------------------------------
def test_a_bot_that_favours_one_seat_is_detected() -> None:
    rig = run_seats("sono-arcana", 3, agents=[rigged], games=150, seed=3, by="table", workers=1)
    seats = rig.to_dict()["seats"]
    assert rig.to_dict()["favoured"] is True
    assert rig.to_dict()["win_test"]["p_value"] < 0.001
    assert seats[0]["win_share_ci95"][0] > 1 / 3  # seat 0 wins clearly more than its share
    assert seats[0]["p_value"] < 0.01
    assert all(s["win_share"] < seats[0]["win_share"] for s in seats[1:])
    # the same bot everywhere without the rig: no seat stands out
    fair = run_seats("sono-arcana", 3, agents=["random"], games=150, seed=3, by="table", workers=1)
    assert fair.to_dict()["favoured"] is False
    assert fair.to_dict()["win_test"]["p_value"] > 0.05


def test_seats_json_shape_and_play_order() -> None:
    r = run_seats("arcana-duel", 2, agents=["random"], games=12, seed=1, workers=1)
    data = r.to_dict()
    for key in ("game", "players", "options", "games", "agents", "seats"):
        assert key in data
    assert [s["seat"] for s in data["seats"]] == [0, 1]
    assert sum(s["win_share"] for s in data["seats"]) == pytest.approx(1.0)
    for s in data["seats"]:
        lo, hi = s["win_share_ci95"]
        assert 0 <= lo <= s["win_share"] <= hi <= 1
    # seat 0 in play order is arcana-duel's first attacker
    for row in r.rows.itertuples():
        state = xtarot.load("arcana-duel").new_state(seed=int(row.game_seed))
        assert row.first == state.deals[0]["first_attacker"]
    assert list(r.table["seat"]) == [0, 1]


# -- resume and merge ------------------------------------------------------------------------
def test_resume_after_an_interruption_and_merge_give_the_same_table(tmp_path: Path) -> None:
    kwargs: dict[str, Any] = {"agents": ["random"], "seed": 5, "workers": 1}
    whole = run_seats("sono-arcana", 3, games=40, out=tmp_path / "whole", **kwargs)

    def stop(done: int, total: int) -> None:
        if done >= 10:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_seats("sono-arcana", 3, games=40, out=tmp_path / "resumed", on_progress=stop, **kwargs)
    partial = read_rows(tmp_path / "resumed")
    assert 10 <= len(partial) < 40
    resumed = run_seats("sono-arcana", 3, games=40, out=tmp_path / "resumed", **kwargs)
    assert resumed.data["played"] == 40 - len(partial)
    assert _plain(resumed.rows).equals(_plain(whole.rows))
    assert resumed.data["seats"] == whole.data["seats"]
    manifest = json.loads((tmp_path / "resumed" / "manifest.json").read_text())
    assert [r["finished"] is not None for r in manifest["runs"]] == [True, True]
    # the stopped run says so, and counts only the games it stored
    assert [r["stopped"] for r in manifest["runs"]] == [True, False]
    assert [r["games_stored"] for r in manifest["runs"]] == [len(partial), 40 - len(partial)]

    run_seats("sono-arcana", 3, games=20, out=tmp_path / "a", **kwargs)
    run_seats("sono-arcana", 3, games=20, start=20, out=tmp_path / "b", **kwargs)
    merged = merge([tmp_path / "a", tmp_path / "b"], tmp_path / "merged")
    assert _plain(merged).equals(_plain(whole.rows))
    again = analyse(tmp_path / "merged")
    assert again[0].data["seats"] == whole.data["seats"]
    assert len(json.loads((tmp_path / "merged" / "manifest.json").read_text())["runs"]) == 2


def test_a_directory_refuses_another_design(tmp_path: Path) -> None:
    run_seats("sono-arcana", 3, agents=["random"], games=4, workers=1, out=tmp_path / "d")
    with pytest.raises(LabError, match="another design"):
        run_seats("sono-arcana", 4, agents=["random"], games=4, workers=1, out=tmp_path / "d")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(LabError, match="not empty"):
        run_seats("sono-arcana", 3, agents=["random"], games=4, workers=1, out=tmp_path / "other")


# -- tournaments ---------------------------------------------------------------------------
def test_williams_arrangements_balance_seats_and_neighbours() -> None:
    for n in range(2, 9):
        rows = williams(n)
        assert len(rows) == (n if n % 2 == 0 else 2 * n)
        for row in rows:
            assert sorted(row) == list(range(n))
        for seat in range(n):
            counts = Counter(row[seat] for row in rows)
            assert set(counts.values()) == {len(rows) // n}
        pairs = Counter((row[i], row[i + 1]) for row in rows for i in range(n - 1))
        assert len(pairs) == n * (n - 1)  # every ordered pair of neighbours occurs
        assert len(set(pairs.values())) == 1  # equally often


def test_duplicate_tournament_plays_each_deal_in_every_arrangement(tmp_path: Path) -> None:
    result = run_tournament(
        "sono-arcana", 4, ["heuristic", "random", "random", "random"], 6, seed=1,
        duplicate=True, workers=2, out=tmp_path / "t",
    )  # fmt: skip
    assert result.deals == 6 and result.arrangements == 4 and result.games == 24
    df = read_rows(tmp_path / "t")
    assert len(df) == 24
    for _, deal in df.groupby("index"):
        assert deal["deal"].nunique() == 1 and deal["game_seed"].nunique() == 1
        seats = [list(a).index("heuristic") for a in deal["agents"]]
        assert sorted(seats) == [0, 1, 2, 3]  # the heuristic holds every seat's cards once
    data = result.to_dict()
    assert data["duplicate"] is True and data["deals"] == 6
    assert all(len(a["rating_ci95"]) == 2 for a in data["agents"])
    one = run_tournament("sono-arcana", 4, ["heuristic", "random"], 6, seed=1, duplicate=True)
    assert (
        one.to_dict()["agents"]
        == run_tournament(
            "sono-arcana", 4, ["heuristic", "random"], 6, seed=1, duplicate=True, workers=2
        ).to_dict()["agents"]
    )


def test_tournament_chunks_change_when_progress_comes_not_the_matches() -> None:
    seen: list[int] = []
    one = run_tournament(
        "arcana-duel", 2, ["heuristic", "random"], 3, seed=2, duplicate=True, chunk=1,
        on_progress=lambda done, total: seen.append(done),
    )  # fmt: skip
    assert seen == [0, 2, 4, 6]  # a deal (its two arrangements) at a time
    whole = run_tournament("arcana-duel", 2, ["heuristic", "random"], 3, seed=2, duplicate=True)

    def timeless(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]

    assert timeless(one.rows) == timeless(whole.rows)


def test_duplicate_lineup_permutes_neighbours_not_only_rotates() -> None:
    lineup = Design.build(
        "sono-arcana", 4, agents=["heuristic", "random", "pimc", "ismcts"], duplicate=True
    ).lineups[0]
    seatings = [s for _, s in lineup.arrangements(4, 0)]
    left_of = {(s[i], s[(i + 1) % 4]) for s in seatings for i in range(4)}
    assert len(left_of) == 12  # every bot sits left of every other at least once
    rotated = Design.build("sono-arcana", 4, agents=["heuristic", "random", "pimc", "ismcts"])
    turns = [s for i in range(4) for _, s in rotated.lineups[0].arrangements(4, i)]
    assert len({(s[i], s[(i + 1) % 4]) for s in turns for i in range(4)}) == 4  # rotation only


def test_identical_bots_are_not_separated_by_their_ratings() -> None:
    result = run_tournament("sono-arcana", 3, ["random", "random"], 60, seed=4)
    assert result.separable() is False
    lo1, hi1 = result.agents["random#1"].rating_interval
    lo2, hi2 = result.agents["random#2"].rating_interval
    assert lo1 < hi2 and lo2 < hi1


# -- variants and luck ---------------------------------------------------------------------------
def test_compare_uses_the_same_deals_and_sees_a_real_difference() -> None:
    r = run_compare(
        "fairy500", 4, ["all_pass=redeal"], games=24, seed=1, workers=2,
        options={"hands": 1},
    )  # fmt: skip
    data = r.to_dict()
    assert data["baseline"] == "default"
    assert [v["variant"] for v in data["variants"]] == ["default", "all_pass=redeal"]
    vs = data["variants"][1]["vs_baseline"]
    assert vs["same_deals"] == 1.0  # all_pass does not change the deal
    assert data["variants"][1]["options"]["all_pass"] == "redeal"
    assert set(r.rows["lineup"]) == {"self", "skill"}
    assert 0 <= vs["length"]["p_value"] <= 1 and "q_value" in vs["length"]
    # hands=1 against full matches: much shorter, and the test says so
    short = run_compare("grail-mahjong", 2, ["hands=1"], games=20, seed=1, workers=1,
                        strong=None).to_dict()  # fmt: skip
    diff = short["variants"][1]["vs_baseline"]["length"]
    assert diff["difference"] < 0 and diff["difference_ci95"][1] < 0 and diff["q_value"] < 0.05
    with pytest.raises(xtarot.ConfigError):
        run_compare("fairy500", 4, ["all_pass=never"], games=2, workers=1)


def test_luck_curve_rises_and_the_duplicate_edge_is_positive() -> None:
    r = run_luck("sono-arcana", 3, games=30, seed=1, workers=1)
    data = r.to_dict()
    assert data["deals"] == 30 and data["arrangements_per_deal"] == 6  # Williams, odd n
    curve = [p["win_share"] for p in data["curve"]]
    assert curve[0] > 1 / 3  # the heuristic beats random bots in one hand already
    assert curve[-1] > 0.95 and curve[-1] >= curve[0]
    assert data["hands_for_90"] is not None and data["hands_for_75"] <= data["hands_for_90"]
    assert data["duplicate_edge"]["ci95"][0] > 0
    share = data["variance"]["deal_share"]
    assert share is not None and 0 <= share <= 1
    assert data["match_hands"] == 1


def test_a_stopped_tournament_closes_its_run_and_resumes(tmp_path: Path) -> None:
    args: tuple[Any, ...] = ("matto", 3, ["heuristic", "random"], 12)
    kwargs: dict[str, Any] = {"seed": 3, "workers": 1, "chunk": 2}
    whole = run_tournament(*args, **kwargs)

    def stop(done: int, total: int) -> None:
        if done >= 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_tournament(*args, out=tmp_path / "t", on_progress=stop, **kwargs)
    stored = {int(i) for i in read_rows(tmp_path / "t")["index"]}
    assert 0 < len(stored) < 12
    resumed = run_tournament(*args, out=tmp_path / "t", **kwargs)
    assert resumed.to_dict()["agents"] == whole.to_dict()["agents"]
    runs = json.loads((tmp_path / "t" / "manifest.json").read_text())["runs"]
    assert [(r["stopped"], r["games_stored"]) for r in runs] == [
        (True, len(stored)), (False, 12 - len(stored))
    ]  # fmt: skip


# -- report --------------------------------------------------------------------------------
@pytest.mark.slow  # about 30 s (matplotlib): on demand (pytest -m slow)
def test_report_holds_its_plots(tmp_path: Path) -> None:
    run_seats("matto", 3, agents=["random"], games=12, workers=1, out=tmp_path / "runs" / "s")
    run_luck("arcana-duel", 2, games=6, workers=1, out=tmp_path / "runs" / "l")
    run_compare("sono-arcana", 4, ["teams=true"], games=8, workers=1, out=tmp_path / "runs" / "c")
    run_tournament("matto", 3, ["heuristic", "random"], 6, out=tmp_path / "runs" / "t")
    from xtarot.lab.studies import run_feel, run_skill
    from xtarot.lab.tune import run_tune

    run_skill("sono-arcana", 3, ladder=["random", "easy", "normal"], games=3, workers=1,
              boot=10, out=tmp_path / "runs" / "k")  # fmt: skip
    run_feel("matto", 3, games=6, workers=1, out=tmp_path / "runs" / "f")
    run_tune("grail-mahjong", 2, targets=["minutes=5", "drama"], space=["hands=1..3"],
             trials=3, batch=3, games=4, workers=1, out=tmp_path / "runs" / "u")  # fmt: skip
    out = tmp_path / "report.html"
    figures = write_report(tmp_path / "runs", out)
    page = out.read_text("utf-8")
    images = re.findall(r'<img alt="figure" src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page)
    assert figures == len(images) >= 13
    assert all(base64.b64decode(i)[:8] == b"\x89PNG\r\n\x1a\n" for i in images)
    for title in ("Seat advantage", "Distributions and events", "Rule variants",
                  "Skill against luck", "Tournament", "Skill trace", "How a match feels",
                  "Tuning study", "Pareto front", "xtarot lab feel"):  # fmt: skip
        assert title in page
    # self-contained: nothing to fetch (the images' base64 may spell "http" by chance)
    words = re.sub(r"base64,[A-Za-z0-9+/=]+", "", page)
    assert "http" not in words.replace("http-equiv", "")
    with pytest.raises(LabError):
        write_report(tmp_path / "nothing-here", tmp_path / "x.html")


# -- the command line ------------------------------------------------------------------------
def _xtarot(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full = dict(os.environ)
    full["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT / "src"), str(ROOT / "tests"), full.get("PYTHONPATH")) if p
    )
    full.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "xtarot.cli.main", *args],
        capture_output=True, text=True, env=full, timeout=120, check=False,
    )  # fmt: skip


def test_cli_seats_json_and_text(tmp_path: Path) -> None:
    proc = _xtarot("lab", "seats", "sono-arcana", "-p", "3", "--agents", "random", "--games",
                   "9", "--workers", "1", "--json", "--out", str(tmp_path / "s"))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["players"] == 3 and data["games"] == 9 and [s["seat"] for s in data["seats"]] == [
        0, 1, 2,
    ]  # fmt: skip
    manifest = json.loads((tmp_path / "s" / "manifest.json").read_text())
    assert manifest["runs"][0]["command"].startswith("xtarot lab seats sono-arcana")
    assert manifest["runs"][0]["versions"]["xtarot"] == xtarot.__version__
    text = _xtarot("lab", "seats", "sono-arcana", "-p", "3", "--games", "6", "--workers", "1",
                   "--agents", "test_lab:rigged", "--lang", "ja")  # fmt: skip
    assert text.returncode == 0, text.stderr
    assert "1番席" in text.stdout and "3番席" in text.stdout and "0番席" not in text.stdout


def _descendants(pid: int) -> set[int]:
    """The processes below ``pid`` (children, grandchildren...), read from /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            # "pid (command) state ppid ...": the command may hold spaces
            fields = stat[stat.rindex(")") + 2 :].split()
            if fields[0] != "Z":  # a zombie has finished
                parents[int(entry.name)] = int(fields[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {p for p, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _running(pids: set[int]) -> set[int]:
    """Those of ``pids`` still running (neither gone nor a zombie)."""
    left = set()
    for pid in pids:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        if stat[stat.rindex(")") + 2] != "Z":
            left.add(pid)
    return left


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")
def test_sigterm_stops_a_run_and_its_worker_processes(tmp_path: Path) -> None:
    """``kill`` (SIGTERM) of a lab run stops it as Ctrl-C does: the workers stop with it
    (before: they went on playing the matches they held, unseen, for minutes)."""
    full = dict(os.environ)
    full["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT / "src"), str(ROOT / "tests"), full.get("PYTHONPATH")) if p
    )
    out = tmp_path / "run"
    args = ["lab", "seats", "sono-arcana", "-p", "3", "--agents", "test_lab:slow", "--games",
            "40", "--workers", "2", "--out", str(out), "--lang", "en"]  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-m", "xtarot.cli.main", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=full,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        workers: set[int] = set()
        # the forkserver and its two workers, the workers well into their first match
        while len(workers) < 3 and time.monotonic() < deadline:
            time.sleep(0.5)
            workers = _descendants(proc.pid)
        assert len(workers) >= 3, "the run never started its workers"
        time.sleep(3)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    said = " ".join(err.split())
    assert "Interrupted. Finished chunks are saved in" in said and "to resume" in said
    deadline = time.monotonic() + 15
    while _running(workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _running(workers), "worker processes went on after the run stopped"
    run = json.loads((out / "manifest.json").read_text())["runs"][0]
    assert run["stopped"] is True and run["finished"] is not None
    assert run["games_stored"] == len({int(i) for i in read_rows(out)["index"]}) < 40


def test_cli_reports_bad_input_clearly() -> None:
    bad_game = _xtarot("lab", "seats", "chess", "--games", "2")
    assert bad_game.returncode == 2 and "unknown game 'chess'" in bad_game.stderr
    bad_bot = _xtarot("lab", "seats", "matto", "--agents", "genius", "--games", "2")
    assert bad_bot.returncode == 2 and "unknown bot 'genius'" in bad_bot.stderr
    bad_variant = _xtarot("lab", "compare", "fairy500", "--variant", "all_pass", "--games", "2")
    assert bad_variant.returncode == 2 and "KEY=VALUE" in bad_variant.stderr


def test_lab_imports_without_its_extra() -> None:
    code = (
        "import sys\n"
        "for m in ('pandas', 'pyarrow', 'ray', 'matplotlib', 'scipy'): sys.modules[m] = None\n"
        "import xtarot.lab, xtarot.cli.main\n"
        "from xtarot.lab import run_tournament\n"
        "r = run_tournament('matto', 3, ['heuristic', 'random'], 4, seed=1)\n"
        "assert r.games == 4\n"
        "try:\n"
        "    from xtarot.lab import run_seats\n"
        "except ImportError as err:\n"
        "    print(err)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "pip install 'xtarot[lab]'" in proc.stdout


def test_ray_missing_keeps_multiprocessing_working() -> None:
    code = (
        "import sys\n"
        "sys.modules['ray'] = None\n"
        "from xtarot.lab.runner import Design, execute\n"
        "d = Design.build('matto', 3, agents=['random'])\n"
        "assert len(execute(d, 1, range(6), workers=2, chunk=2)) == 6\n"
        "try:\n"
        "    execute(d, 1, range(2), ray='local')\n"
        "except ImportError as err:\n"
        "    print(err)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "Ray is not installed" in proc.stdout


def test_bot_specs() -> None:
    assert Bot.parse("pimc:12").settings == (("worlds", 12),)
    assert Bot.parse("ismcts:iterations=30:c=0.5").settings == (("iterations", 30), ("c", 0.5))
    assert Bot.parse("test_lab:rigged").factory is rigged
    for bad in ("genius", "ismcts:fast", "random:x"):
        with pytest.raises(ValueError):
            Bot.parse(bad)


def test_findings_document_names_its_commands_and_significance(tmp_path: Path) -> None:
    from xtarot.lab.findings import run_findings

    chosen = {"seats-arcana-duel-2", "luck-sono-arcana-4", "compare-sono-arcana-4"}
    lines: list[str] = []
    studies = run_findings(
        tmp_path / "f", tmp_path / "findings.md", scale=0.01, workers=1,
        log=lines.append, only=lambda s: s.name in chosen,
    )  # fmt: skip
    assert {s.name for s in studies} == chosen and len(lines) == 3
    text = (tmp_path / "findings.md").read_text("utf-8")
    for study in studies:
        assert study.command(tmp_path / "f") in text
        manifest = json.loads((tmp_path / "f" / study.name / "manifest.json").read_text())
        assert manifest["runs"][0]["command"] == study.command(tmp_path / "f")
    headings = ("## In short", "## 1. Seat advantage", "## 2. Skill against luck",
                "## 3. Every option against its default", "## 4. Event frequencies")  # fmt: skip
    assert all(h in text for h in headings)
    assert "| arcana-duel | 2 | 10 | 50.0% |" in text
    assert "teams=true" in text and "`end.annihilation`" in text
