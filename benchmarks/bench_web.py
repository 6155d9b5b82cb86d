"""Load test of ``xtarot serve``: many tables of bots playing over websockets on loopback.

Starts a real server process (uvicorn, 127.0.0.1 only, a temporary SQLite database),
creates ``--tables`` tables (default 50) of ``--game`` with every seat a websocket
client, and lets every client play random legal moves, pausing about ``--think``
seconds before each (default 0.5 s, a quick player; the server's own bots wait 0.6 s).
Every move's round trip is timed: from sending the move to receiving the view that
contains it.  Reports p50/p95/p99/max round trip, moves per second, the server's CPU
time per move and its resident memory.

``--think 0.05`` is a stress run (about 350 moves a second): on a small, busy machine
the round trip then measures mostly waiting for a CPU, which the server's CPU time per
move (about 1 ms) and the cores it kept busy show.

    PYTHONPATH=src python benchmarks/bench_web.py              # 50 tables, <= 60 s
    PYTHONPATH=src python benchmarks/bench_web.py --quick      # 5 tables, a smoke run
    PYTHONPATH=src python benchmarks/bench_web.py --json       # one JSON object
    # the same while 4 tables of `hard` bots think, in threads or in worker processes
    PYTHONPATH=src python benchmarks/bench_web.py --hard-tables 4 --bot-processes 0
    PYTHONPATH=src python benchmarks/bench_web.py --hard-tables 4 --bot-processes 1
    # 200 tables on 1 and on 2 server processes sharing a PostgreSQL database (a
    # throwaway one from Debian's postgresql package, or --db URL of your own)
    PYTHONPATH=src python benchmarks/bench_web.py --tables 200 --postgres --processes 1
    PYTHONPATH=src python benchmarks/bench_web.py --tables 200 --postgres --processes 2

The figures of issue #36 (README, Performance), on a 2-core machine that also runs the
800 clients and the database:

    # scale-out: each process held to half a core (a cgroup quota, root), as if each
    # had a small machine of its own; the clients ask for far more than they get
    B="PYTHONPATH=src python benchmarks/bench_web.py --tables 200 --postgres --seats table"
    $B --processes 1 --think 0.05 --seconds 30 --warmup 5 --cpus-per-process 0.5
    $B --processes 2 --think 0.05 --seconds 30 --warmup 5 --cpus-per-process 0.5
    # round trips at a lively human pace (2 s a move), with 20 tables of hard bots
    $B --processes 2 --think 2 --seconds 40 --warmup 10
    $B --processes 2 --think 2 --seconds 40 --warmup 10 --hard-tables 20 --bot-processes 1

``--warmup S`` leaves out the round trips of the first S seconds, when 800 clients
connect and every table's first move comes at once (the p95 of each 10-second window
is printed as well).  ``--pg-in-memory`` puts the throwaway database in /dev/shm,
which shows how much of a round trip is the disk's flush.

With ``--processes N`` (PostgreSQL only) N ``xtarot serve`` processes run on N ports of
one database, as behind a load balancer without sticky sessions: table ``i`` is created
on process ``i mod N`` and its seat ``s`` connects to process ``(i + s) mod N``, so most
tables have seats on several processes (each move reaches the others by PostgreSQL's
notifications).  The server CPU and memory figures are the sum over the processes; the
database's CPU share is reported when the benchmark started the database itself.

Bounded: at most 200 tables, at most 8 processes, at most 300 s, loopback only.  Needs
only xtarot (the web server and ``websockets`` are part of the default install), and for
``--postgres`` Debian's ``postgresql`` package and ``psycopg``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import glob
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
MAX_TABLES = 200
MAX_PROCESSES = 8
MAX_SECONDS = 300.0
WINDOW = 10.0  # seconds per window of the p95-over-time figures
CGROUP_V2 = Path("/sys/fs/cgroup")
CGROUP_V1 = Path("/sys/fs/cgroup/cpu")
PERIOD_US = 100_000


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_mib(pid: int) -> float | None:
    """Resident memory of a process in MiB (Linux /proc), or None."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process (Linux /proc), or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def children(pid: int) -> list[int]:
    """The process ``pid`` and all its descendants (Linux /proc)."""
    parent: dict[int, int] = {}
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            fields = Path(stat).read_text().rsplit(")", 1)[1].split()
            parent[int(stat.split("/")[2])] = int(fields[1])
        except (OSError, IndexError, ValueError):
            continue
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        todo.extend(c for c, pp in parent.items() if pp == p)
    return found


def join_my_cgroup(pids: list[int]) -> None:
    """Move processes into this process's CPU cgroup where that is allowed (``runuser``
    and ``pg_ctl`` may start the database outside it): a benchmark run in a cgroup of
    its own, to keep other work on the machine from its CPU, keeps its database too."""
    mine = None
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            if "cpu" in controllers.split(","):
                mine = CGROUP_V1 / path.lstrip("/")
            elif controllers == "" and mine is None and (CGROUP_V2 / "cgroup.controllers").exists():
                mine = CGROUP_V2 / path.lstrip("/")
    if mine is None or mine in (CGROUP_V1, CGROUP_V2):
        return
    for pid in pids:
        with contextlib.suppress(OSError):
            (mine / "cgroup.procs").write_text(str(pid))


@contextmanager
def throwaway_postgres(in_memory: bool = False) -> Iterator[tuple[str, int]]:
    """A PostgreSQL server from Debian's package in a temporary folder, on a free port:
    its SQLAlchemy URL and its postmaster's process id.  ``in_memory``: the folder in
    /dev/shm, so a commit's flush reaches no disk (the server measured without the
    machine's disk; fsync stays on)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        raise SystemExit("--postgres needs PostgreSQL (apt-get install postgresql)")
    bin_dir = Path(found[-1]).parent
    as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    shm = "/dev/shm" if in_memory and Path("/dev/shm").is_dir() else None
    if in_memory and shm is None:
        raise SystemExit("--pg-in-memory needs /dev/shm (a tmpfs)")
    folder = Path(tempfile.mkdtemp(prefix="xtarot-bench-pg-", dir=shm))
    folder.chmod(0o755)
    if as_user:
        shutil.chown(folder, "postgres", "postgres")
    data, port = folder / "data", free_port()

    def run(*args: str) -> None:
        subprocess.run([*as_user, *args], check=True, capture_output=True, timeout=120)

    try:
        run(str(bin_dir / "initdb"), "-D", str(data), "-A", "trust", "-U", "xt", "--no-sync")
        opts = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c max_connections=300"
        run(
            str(bin_dir / "pg_ctl"),
            "-D",
            str(data),
            "-o",
            opts,
            "-l",
            str(folder / "log"),
            "-w",
            "start",
        )
        run(str(bin_dir / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "xt", "bench")
        pid = int((data / "postmaster.pid").read_text().split()[0])
        join_my_cgroup(children(pid))
        yield f"postgresql+psycopg://xt@127.0.0.1:{port}/bench", pid
    finally:
        subprocess.run(
            [*as_user, str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def cpu_quota(cpus: float | None) -> Iterator[Any]:
    """Yield a function that holds a process, and the processes it starts later, to
    ``cpus`` cores of CPU time: a cgroup CPU quota per process (cgroup v2 ``cpu.max``, or
    v1 ``cpu.cfs_quota_us``), as if each server process ran on a machine of its own with
    that many cores.  Needs a writable cgroup CPU controller (root, or a delegated
    cgroup); the cgroups are removed afterwards."""
    made: list[Path] = []

    def limit(pid: int) -> None:
        if cpus is None:
            return
        quota = str(max(1000, int(cpus * PERIOD_US)))
        name = f"xtarot-bench-{os.getpid()}-{len(made)}"
        try:
            if (CGROUP_V2 / "cgroup.controllers").exists():
                with contextlib.suppress(OSError):  # may be enabled already
                    (CGROUP_V2 / "cgroup.subtree_control").write_text("+cpu")
                group = CGROUP_V2 / name
                group.mkdir()
                made.append(group)
                (group / "cpu.max").write_text(f"{quota} {PERIOD_US}")
            else:
                group = CGROUP_V1 / name
                group.mkdir()
                made.append(group)
                (group / "cpu.cfs_period_us").write_text(str(PERIOD_US))
                (group / "cpu.cfs_quota_us").write_text(quota)
            (group / "cgroup.procs").write_text(str(pid))
        except OSError as err:
            raise SystemExit(
                f"--cpus-per-process needs a writable cgroup CPU controller (root, or a "
                f"delegated cgroup) under {CGROUP_V2}: {err}"
            ) from err

    try:
        yield limit
    finally:
        for group in reversed(made):
            parent = group.parent / "cgroup.procs"
            with contextlib.suppress(OSError):
                for pid in (group / "cgroup.procs").read_text().split():
                    parent.write_text(pid)
            deadline = time.monotonic() + 5
            while True:
                try:
                    group.rmdir()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        print(f"could not remove the cgroup {group}", file=sys.stderr)
                        break
                    time.sleep(0.1)


def start_server(port: int, db: str, processes: int, bot_tables: int) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""),
    }
    code = (  # one load client creates every table: no creation rate limit here
        "from xtarot.server import serve; from xtarot.server.hub import Limits; "
        f"serve('127.0.0.1', {port}, {db!r}, bot_delay=0, log_level='warning', "
        f"bot_processes={processes}, "
        f"limits=Limits(tables_per_minute=1e9, table_burst=1e9, max_bot_tables={bot_tables}))"
    )
    return subprocess.Popen(
        [sys.executable, "-c", code], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )


async def http_json(port: int, method: str, path: str, body: Any = None) -> Any:
    """A tiny HTTP/1.1 client (no extra dependency) for the JSON API."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    data = b"" if body is None else json.dumps(body).encode()
    head = (
        f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
    )
    writer.write(head.encode() + data)
    await writer.drain()
    raw = await reader.read()
    writer.close()
    _head, _, payload = raw.partition(b"\r\n\r\n")
    return json.loads(payload)


async def wait_ready(port: int, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            err = proc.stderr.read().decode() if proc.stderr else ""
            raise SystemExit(f"the server exited: {err[-2000:]}")
        try:
            await http_json(port, "GET", "/api/games")
            return
        except (OSError, json.JSONDecodeError):
            await asyncio.sleep(0.1)
    raise SystemExit("the server did not start in 30 s")


def glance(raw: str, seat: int) -> tuple[str, int, bool, bool] | None:
    """From a message's text without parsing it all: its type, its ``n``, whether the
    match is over and whether it is ``seat``'s turn; None when the text is not laid out
    as the server writes its state messages (then it is parsed in full).  Only the
    client whose turn it is parses the message: the load generator must not eat the
    cores the servers are measured on."""
    if not raw.startswith('{"type":"state",'):
        return None
    at = raw.find(',"n":')
    end = raw.find(",", at + 5)
    view = raw.find(',"view":{')
    turn = raw.find('"current_player":', view)
    if min(at, end, view, turn) < 0:
        return None
    finished = raw.find(',"finished":true,', 0, view) >= 0
    mine = raw.startswith(f'"current_player":{seat},', turn)
    return "state", int(raw[at + 5 : end]), finished, mine


async def seat_client(
    port: int,
    table: dict[str, Any],
    seat: int,
    think: float,
    rtts: list[tuple[float, float]],
    deadline: float,
    rng: random.Random,
) -> int:
    """Play one seat with random legal moves until the match ends; return moves made."""
    import websockets

    moves = 0
    uri = f"ws://127.0.0.1:{port}/ws/{table['id']}"
    # a generous handshake time: hundreds of clients connect at once on a busy machine
    async with websockets.connect(uri, max_size=2**22, open_timeout=60) as ws:
        token = table["seats"][seat]["token"]
        await ws.send(json.dumps({"type": "hello", "seat": seat, "token": token}))
        sent_at: float | None = None
        waiting_for = -1
        loop = asyncio.get_running_loop()
        # one time limit for the whole game (cheaper than one per message)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout_at(loop.time() + max(0.1, deadline - time.monotonic())):
                while True:
                    raw = await ws.recv()
                    assert isinstance(raw, str)
                    quick = glance(raw, seat)
                    if quick is None:
                        msg = json.loads(raw)
                        if msg["type"] == "error":
                            if "too many" in msg["message"]:
                                await asyncio.sleep(0.2)
                            sent_at = None
                            continue
                        if msg["type"] != "state":
                            continue
                        quick = ("state", msg["n"], msg["finished"], True)
                    _, n, finished, mine = quick
                    if sent_at is not None and n >= waiting_for:
                        now = time.perf_counter()
                        rtts.append((now, now - sent_at))
                        sent_at = None
                    if finished:
                        return moves
                    if not mine or sent_at is not None:
                        continue
                    legal = json.loads(raw)["view"].get("legal_actions") or []
                    if legal:
                        if think:
                            await asyncio.sleep(think * (0.5 + rng.random()))
                        action = rng.choice(legal)
                        sent_at = time.perf_counter()
                        waiting_for = n + 1
                        await ws.send(json.dumps({"type": "act", "action": action, "n": n}))
                        moves += 1
    return moves


def total(values: list[float | None]) -> float | None:
    return None if any(v is None for v in values) else sum(v for v in values if v is not None)


def tree_cpu(pid: int | None) -> float | None:
    """CPU time of a process and its children (the database server's backends)."""
    if pid is None:
        return None
    return sum(cpu_seconds(p) or 0.0 for p in children(pid))


async def run(args: argparse.Namespace) -> dict[str, Any]:
    tables_n = min(args.tables, MAX_TABLES)
    seconds = min(args.seconds, MAX_SECONDS)
    n_proc = max(1, min(args.processes, MAX_PROCESSES))
    with contextlib.ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        db_pid: int | None = None
        if args.postgres:
            db, db_pid = stack.enter_context(throwaway_postgres(args.pg_in_memory))
        else:
            db = args.db or f"sqlite:///{Path(tmp) / 'bench.db'}"
        if n_proc > 1 and not db.startswith("postgresql"):
            raise SystemExit("--processes above 1 needs PostgreSQL: --postgres or --db URL")
        ports = [free_port() for _ in range(n_proc)]
        procs: list[subprocess.Popen[bytes]] = []
        limit = stack.enter_context(cpu_quota(args.cpus_per_process))
        try:
            for port in ports:
                procs.append(start_server(port, db, args.bot_processes, max(2, args.hard_tables)))
                limit(procs[-1].pid)
            for port, proc in zip(ports, procs, strict=True):
                await wait_ready(port, proc)
            pids = [proc.pid for proc in procs]

            def rss() -> float | None:
                return total([rss_mib(pid) for pid in pids])

            rss_idle = rss()

            async def create(seat: str, seed: int, port: int) -> dict[str, Any]:
                body = {
                    "game": args.game,
                    "players": args.players,
                    "seats": [seat] * args.players,
                    "seed": seed,
                }
                created = await http_json(port, "POST", "/api/tables", body)
                if "id" not in created:
                    raise SystemExit(f"could not create a table of {seat} seats: {created}")
                return dict(created)

            tables = [await create("human", 1000 + i, ports[i % n_proc]) for i in range(tables_n)]
            for i in range(args.hard_tables):  # bots only: they think all the time
                await create("hard", 5000 + i, ports[i % n_proc])
            rss_tables = rss()
            rtts: list[tuple[float, float]] = []
            each_start = [cpu_seconds(pid) for pid in pids]
            cpu_start = total(each_start)
            db_start = tree_cpu(db_pid)
            client_start = sum(os.times()[:2])
            start = time.monotonic()
            start_pc = time.perf_counter()
            deadline = start + seconds
            peak = [rss_tables or 0.0]

            async def sample_memory() -> None:
                while True:
                    value = rss()
                    if value:
                        peak[0] = max(peak[0], value)
                    await asyncio.sleep(0.5)

            sampler = asyncio.create_task(sample_memory())
            # seat s of table i on process (i + s) mod N: tables across processes; with
            # --seats table, every seat of table i on process i mod N (its owner)
            spread = args.seats == "spread"
            jobs = [
                seat_client(
                    ports[(i + s) % n_proc if spread else i % n_proc],
                    t,
                    s,
                    args.think,
                    rtts,
                    deadline,
                    random.Random(i * 10 + s),
                )
                for i, t in enumerate(tables)
                for s in range(args.players)
            ]
            moves = await asyncio.gather(*jobs)
            elapsed = time.monotonic() - start
            each_end = [cpu_seconds(pid) for pid in pids]
            cpu_end = total(each_end)
            db_end = tree_cpu(db_pid)
            client_cpu = sum(os.times()[:2]) - client_start
            sampler.cancel()
            finished = 0
            for t in tables:
                info = await http_json(ports[0], "GET", f"/api/tables/{t['id']}")
                finished += bool(info.get("finished"))
            rss_end = rss()
            sqlite = Path(tmp) / "bench.db"
            db_size = sqlite.stat().st_size if sqlite.exists() else None
        finally:
            for proc in procs:
                proc.terminate()
            for proc in procs:
                try:
                    proc.wait(20)
                except subprocess.TimeoutExpired:
                    proc.kill()
    counted = [(at - start_pc, rtt) for at, rtt in rtts if at - start_pc >= args.warmup]
    ms = sorted(rtt * 1000 for _, rtt in counted)

    def pct(p: float, values: list[float] | None = None) -> float:
        values = ms if values is None else values
        return values[min(len(values) - 1, int(p * len(values)))] if values else float("nan")

    windows: dict[int, list[float]] = {}
    for at, rtt in counted:
        windows.setdefault(int(at // WINDOW), []).append(rtt * 1000)
    by_window = [round(pct(0.95, sorted(windows[k])), 1) for k in sorted(windows) if windows[k]]

    return {
        "game": args.game,
        "players": args.players,
        "tables": tables_n,
        "clients": tables_n * args.players,
        "think_s": args.think,
        "hard_tables": args.hard_tables,
        "bot_processes": args.bot_processes,
        "processes": n_proc,
        "seats": args.seats,
        "database": "postgresql" if db.startswith("postgresql") else "sqlite",
        "seconds": round(elapsed, 2),
        "tables_finished": finished,
        "moves": sum(moves),
        "moves_per_second": round(sum(moves) / elapsed, 1) if elapsed else None,
        "warmup_s": args.warmup,
        "cpus_per_process": args.cpus_per_process,
        "rtt_p95_ms_by_window": by_window,
        "rtt_ms": {
            "p50": round(pct(0.50), 2),
            "p95": round(pct(0.95), 2),
            "p99": round(pct(0.99), 2),
            "max": round(ms[-1], 2) if ms else None,
            "mean": round(statistics.fmean(ms), 2) if ms else None,
        },
        "server_rss_mib": {
            "idle": rss_idle,
            "with_tables": rss_tables,
            "peak": round(peak[0], 1),
            "end": rss_end,
        },
        "db_bytes": db_size,
        "server_cpu_ms_per_move": (
            round(1000 * (cpu_end - cpu_start) / max(1, sum(moves)), 3)
            if cpu_start is not None and cpu_end is not None
            else None
        ),
        "client_cpu_share": round(client_cpu / elapsed, 2) if elapsed else None,
        "server_cpu_share_each": [
            round((e - b) / elapsed, 2) if e is not None and b is not None and elapsed else None
            for b, e in zip(each_start, each_end, strict=True)
        ],
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "server_cpu_share": (
            round((cpu_end - cpu_start) / elapsed, 2)
            if cpu_start is not None and cpu_end is not None and elapsed
            else None
        ),
        "db_cpu_share": (
            round((db_end - db_start) / elapsed, 2)
            if db_start is not None and db_end is not None and elapsed
            else None
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="concurrent tables (<= 200)")
    parser.add_argument("--game", default="sono-arcana")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument(
        "--think", type=float, default=0.5, help="mean pause before a move (s; bots: 0.6)"
    )
    parser.add_argument("--seconds", type=float, default=60.0, help="time limit (<= 300 s)")
    parser.add_argument("--quick", action="store_true", help="5 tables, 20 s at most")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--hard-tables", type=int, default=0, help="tables of hard bots thinking meanwhile"
    )
    parser.add_argument(
        "--processes", type=int, default=1, help="server processes on one database (<= 8)"
    )
    parser.add_argument(
        "--seats",
        choices=["spread", "table"],
        default="spread",
        help="with --processes: 'spread' connects seat s of table i to process (i + s) mod N "
        "(no affinity), 'table' every seat of table i to process i mod N (a load balancer "
        "that routes by table)",
    )
    parser.add_argument(
        "--postgres",
        action="store_true",
        help="run on a throwaway PostgreSQL server (Debian's postgresql package)",
    )
    parser.add_argument(
        "--pg-in-memory",
        action="store_true",
        help="with --postgres: its data in /dev/shm, so commits wait for no disk",
    )
    parser.add_argument("--db", help="the database's SQLAlchemy URL (default: a temporary SQLite)")
    parser.add_argument(
        "--bot-processes",
        type=int,
        default=0,
        help="the server's worker processes for searching bots (0: threads)",
    )
    parser.add_argument(
        "--warmup",
        type=float,
        default=0.0,
        help="leave the round trips of the first S seconds (800 clients connecting, the "
        "first moves of every table at once) out of the percentiles",
    )
    parser.add_argument(
        "--cpus-per-process",
        type=float,
        help="hold each server process to this many cores of CPU time (a cgroup quota; "
        "root): N processes then have N times the CPU of one, as on N machines, while "
        "the clients and the database keep the rest",
    )
    args = parser.parse_args()
    if args.pg_in_memory and not args.postgres:
        parser.error("--pg-in-memory goes with --postgres")
    if args.cpus_per_process is not None and args.cpus_per_process <= 0:
        parser.error("--cpus-per-process must be above 0")
    if args.quick:
        args.tables, args.seconds = 5, 20.0
    result = asyncio.run(run(args))
    if args.json:
        print(json.dumps(result))
        return
    r, m = result["rtt_ms"], result["server_rss_mib"]
    print(
        f"{result['tables']} tables of {result['game']} ({result['clients']} websocket clients, "
        f"think {result['think_s']} s): {result['moves']} moves in {result['seconds']} s "
        f"({result['moves_per_second']} moves/s), {result['tables_finished']} matches finished"
    )
    if result["processes"] > 1 or result["database"] != "sqlite":
        print(
            f"on {result['processes']} server process(es) sharing one {result['database']} "
            + (
                "database (table i on process i mod N, its seat s on process (i + s) mod N)"
                if result["seats"] == "spread"
                else "database (table i and all its seats on process i mod N)"
            )
        )
    if result["hard_tables"]:
        n = result["bot_processes"]
        where = f"{n} worker process(es)" if n else "threads of the server"
        print(f"meanwhile {result['hard_tables']} tables of hard bots thinking in {where}")
    if result["cpus_per_process"]:
        print(f"each server process held to {result['cpus_per_process']} cores (a cgroup quota)")
    verdict = "ok" if r["p95"] < 50 else "ABOVE TARGET"
    print(
        f"move round trip: p50 {r['p50']} ms, p95 {r['p95']} ms ({verdict}: target < 50 ms), "
        f"p99 {r['p99']} ms, max {r['max']} ms"
        + (f" (the first {result['warmup_s']:g} s left out)" if result["warmup_s"] else "")
    )
    print(
        f"p95 by {WINDOW:g} s window: "
        + " / ".join(f"{x:g}" for x in result["rtt_p95_ms_by_window"])
        + " ms"
    )
    print(
        f"server memory (RSS): idle {m['idle']:.1f} MiB, with tables {m['with_tables']:.1f} MiB, "
        f"peak {m['peak']:.1f} MiB"
        + (f"; database {result['db_bytes'] / 1024:.0f} KiB" if result["db_bytes"] else "")
    )
    print(
        f"server CPU: {result['server_cpu_ms_per_move']} ms per move, "
        f"{result['server_cpu_share']} cores busy on average "
        f"({' + '.join(str(x) for x in result['server_cpu_share_each'])}; the bench clients: "
        f"{result['client_cpu_share']} cores"
        + (f", the database: {result['db_cpu_share']} cores" if result["db_cpu_share"] else "")
        + "); "
        f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
