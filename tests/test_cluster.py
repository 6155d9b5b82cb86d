"""Several server processes on one PostgreSQL database (issue 36).

A real PostgreSQL server (``pg_support``, one for the module) and real ``xtarot serve``
processes: ``A`` on one port, and ``B``, two worker processes behind one port
(``--workers 2``), all on one database.  A table whose seats are connected to different
processes plays to the end, every client shown only its own view; PostgreSQL restarted
under load gives clear errors, then play resumes; a process killed with SIGKILL has its
tables taken over by the others while its clients reconnect elsewhere (one test runs
these in turn on one set of processes: starting them is most of its time).  Two
processes storing move ``n`` at the same moment store it once; seats, chat, the host's
commands, the rematch vote and the lobby work across processes (servers in threads of
the test process, started in a blink).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed")
httpx = pytest.importorskip("httpx", reason="httpx is not installed")
ws_client = pytest.importorskip("websockets.sync.client", reason="websockets is not installed")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import xtarot  # noqa: E402
from pg_support import Postgres, free_port, running_postgres  # noqa: E402
from test_server_hardening import bodies, messages  # noqa: E402
from xtarot.server.store import Store  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
#: The lease of the test servers: a killed process's tables go on within about this.
LEASE = 2.0


class Server:
    """One ``xtarot serve`` (``workers`` > 1: uvicorn's supervisor and its workers)."""

    def __init__(self, db: str, folder: Path, name: str, workers: int = 1) -> None:
        self.db, self.workers, self.port = db, workers, free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = folder / f"{name}.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def launch(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        cmd = [sys.executable, "-m", "xtarot.cli.main", "serve", "--port", str(self.port)]
        cmd += ["--db", self.db, "--bot-delay", "0.05", "--tables-per-minute", "6000"]
        cmd += ["--bot-processes", "0", "--lease-seconds", str(LEASE)]
        cmd += ["--workers", str(self.workers)]
        with self.log.open("ab") as out:  # the server's own log, for a failing test
            self.proc = subprocess.Popen(
                cmd, env=env, stdout=out, stderr=out, start_new_session=True
            )

    def wait_ready(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.proc is not None and self.proc.poll() is None, self.tail()
            try:
                if httpx.get(self.base + "/api/games", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"xtarot serve did not start in 60 s: {self.tail()}")

    def kill(self) -> None:
        """SIGKILL the process (and its workers): no shutdown of any kind."""
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc = None

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def tail(self) -> str:
        return self.log.read_text(errors="replace")[-3000:] if self.log.exists() else ""


class Cluster:
    def __init__(self, pg: Postgres, a: Server, b: Server) -> None:
        self.pg, self.a, self.b = pg, a, b


@pytest.fixture(scope="module")
def pg() -> Iterator[Postgres]:
    with running_postgres() as server:
        yield server


def create(base: str, seats: list[str], seed: int, game: str = "sono-arcana") -> dict[str, Any]:
    body = {"game": game, "players": len(seats), "seats": seats, "seed": seed}
    res = httpx.post(base + "/api/tables", json=body, timeout=10)
    assert res.status_code == 201, res.text
    return dict(res.json())


class Client(threading.Thread):
    """A websocket client of one seat (``None``: a spectator), connected to the first
    server of ``bases`` that answers, and to the next one whenever its connection
    drops.  It plays random legal moves, asks for the state again after an error, and
    keeps every state it was shown."""

    def __init__(
        self, bases: list[str], table: dict[str, Any], seat: int | None, seconds: float = 90
    ) -> None:
        super().__init__(daemon=True)
        self.bases, self.table, self.seat = bases, table, seat
        self.deadline = time.monotonic() + seconds
        self.rng = random.Random(hash((table["id"], seat)))
        #: (time.monotonic(), n, view, the seat of the last move) of every state shown
        self.states: list[tuple[float, int, dict[str, Any], int | None]] = []
        self.acked = 0
        self.acted = -1  # the position of its latest move (one move per position)
        self.errors: list[str] = []
        self.connections = 0
        self.finished = False
        self.stop = threading.Event()

    def run(self) -> None:
        i = 0
        while not self.finished and not self.stop.is_set() and time.monotonic() < self.deadline:
            base = self.bases[i % len(self.bases)]
            try:
                url = base.replace("http", "ws") + f"/ws/{self.table['id']}"
                with ws_client.connect(url, open_timeout=5) as ws:
                    self.acted = -1  # a move sent before may have been lost with its server
                    hello: dict[str, Any] = {"type": "hello"}
                    if self.seat is not None:
                        token = self.table["seats"][self.seat]["token"]
                        hello |= {"seat": self.seat, "token": token}
                    ws.send(json.dumps(hello))
                    self.connections += 1
                    self._play(ws)
            except Exception as err:  # a server killed under us, or restarting
                self.errors.append(f"connection to {base}: {err!r}")
            if not self.finished:
                i += 1
                time.sleep(0.2)

    def _play(self, ws: Any) -> None:
        while not self.stop.is_set() and time.monotonic() < self.deadline:
            try:
                msg = json.loads(ws.recv(timeout=1.0))
            except TimeoutError:
                ws.send(json.dumps({"type": "state"}))
                continue
            if msg["type"] == "ok":
                self.acked = max(self.acked, msg["n"])
            elif msg["type"] == "error":
                self.errors.append(msg["message"])
                if msg.get("code") == "taken_over":
                    return
                self.acted = -1  # refused: the move may be made again
                time.sleep(0.3)  # then the state again, and the move again
                ws.send(json.dumps({"type": "state"}))
            elif msg["type"] == "state":
                last = msg["log"][-1]["seat"] if msg["log"] else None
                self.states.append((time.monotonic(), msg["n"], msg["view"], last))
                if msg["finished"]:
                    self.finished = True
                    return
                legal = msg["view"].get("legal_actions") or []
                mine = self.seat is not None and msg["view"]["current_player"] == self.seat
                if mine and legal and self.acted != msg["n"]:
                    self.acted = msg["n"]
                    move = self.rng.choice(legal)
                    ws.send(json.dumps({"type": "act", "action": move, "n": msg["n"]}))


def play(clients: list[Client], seconds: float = 90) -> None:
    for c in clients:
        c.start()
    for c in clients:
        c.join(seconds)
    for c in clients:
        c.stop.set()
    assert all(c.finished for c in clients), [c.errors[-5:] for c in clients if not c.finished]


def check_record(db: str, table_id: str, clients: list[Client]) -> dict[str, Any]:
    """The stored log replays legally, move by move (nothing applied twice, nothing out
    of order), and every view any client was shown is exactly its seat's view (or the
    public view) of the stored match at that position: nothing hidden leaked, nothing
    shown that the database lost."""
    store = Store(db)
    try:
        stored = store.load(table_id)
    finally:
        store.close()
    assert stored is not None
    record = stored.record()
    state = xtarot.replay(record, upto=0)
    wanted: dict[tuple[int, int | None], Any] = {}
    needed = {(n, c.seat) for c in clients for _, n, _, _ in c.states}
    for n in range(len(record["actions"]) + 1):
        for seat in {s for m, s in needed if m == n}:
            view = state.view(seat) if seat is not None else state.public_view()
            wanted[(n, seat)] = json.loads(json.dumps(view))
        if n < len(record["actions"]):
            state.apply(record["actions"][n])
    assert state.is_terminal
    for c in clients:
        assert c.acked <= len(record["actions"])
        for _, n, view, _ in c.states:
            assert view == wanted[(n, c.seat)], (c.seat, n)
    return record


def test_server_processes_on_one_database(pg: Postgres, tmp_path: Path) -> None:
    """Three server processes (A; B's two workers) on one database: a table across
    them, then PostgreSQL restarted under load, then A killed (in that order: A stays
    dead)."""
    a, b = Server(pg.url, tmp_path, "a"), Server(pg.url, tmp_path, "b", workers=2)
    try:
        a.launch()
        b.launch()
        a.wait_ready()
        b.wait_ready()
        cluster = Cluster(pg, a, b)
        a_table_across_processes(cluster)
        postgres_restarted_under_load(cluster)
        the_owner_killed(cluster)
    finally:
        a.stop()
        b.stop()
    for server in (a, b):  # nothing failed unseen in the servers' own logs
        assert "Traceback" not in server.tail(), server.tail()


def a_table_across_processes(cluster: Cluster) -> None:
    """Its seats connected to different processes, the table plays to the end."""
    a, b = cluster.a.base, cluster.b.base
    t = create(a, ["human", "human", "human", "random"], seed=11)
    # seat 0 and a spectator on A; seats 1 and 2 and a spectator on B (whose two worker
    # processes take whichever connection the kernel gives them)
    clients = [Client([a], t, 0), Client([b], t, 1), Client([b], t, 2)]
    watchers = [Client([a], t, None), Client([b], t, None)]
    play(clients + watchers)
    record = check_record(cluster.pg.url, t["id"], clients + watchers)
    for base in (a, b):  # every process tells the same end
        info = httpx.get(f"{base}/api/tables/{t['id']}", timeout=10).json()
        assert info["finished"] and info["n"] == len(record["actions"])
    engine = Store(cluster.pg.url).engine
    # A and B's two workers: three processes, alive (a row renewed a little late on a
    # busy machine may have lapsed for a moment: it is looked at again for a while)
    deadline = time.monotonic() + 15
    while True:
        with engine.connect() as conn:
            alive = conn.exec_driver_sql(
                "SELECT count(*) FROM xtarot_processes WHERE expires > extract(epoch from now())"
            ).scalar()
        if alive == 3 or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    engine.dispose()
    assert alive == 3


def postgres_restarted_under_load(cluster: Cluster) -> None:
    """Clear errors while the database is away, then every table plays on."""
    a, b = cluster.a.base, cluster.b.base
    tables = [
        create(a if i % 2 else b, ["human", "human", "random"], seed=40 + i) for i in range(4)
    ]
    clients = [Client([a, b], t, 0) for t in tables] + [Client([b, a], t, 1) for t in tables]
    for c in clients:
        c.start()
    deadline = time.monotonic() + 30
    while min(len(c.states) for c in clients) < 4:  # all tables well into play
        assert time.monotonic() < deadline, "the tables did not get going"
        time.sleep(0.05)
    cluster.pg.stop("fast")  # the servers' connections to it are dropped
    body = {"game": "sono-arcana", "players": 3, "seats": ["human"] * 3}
    for base in (a, b):  # meanwhile what needs the database is refused, saying why
        res = httpx.post(base + "/api/tables", json=body, timeout=10)
        assert res.status_code == 503 and "database is unavailable" in res.json()["error"]
    time.sleep(0.5)
    cluster.pg.start()
    play_on = time.monotonic()
    for c in clients:
        c.join(60)
    assert all(c.finished for c in clients), [c.errors[-5:] for c in clients if not c.finished]
    print(f"after the restart the tables finished in {time.monotonic() - play_on:.1f} s")
    for t in tables:
        check_record(cluster.pg.url, t["id"], [c for c in clients if c.table is t])
    assert cluster.a.alive() and cluster.b.alive()


def the_owner_killed(cluster: Cluster) -> None:
    """A runs the bots of its tables; it is killed with SIGKILL mid-match: within a few
    seconds another process takes each table over, and the players, reconnecting to B
    with their tokens, lose nothing they were told was applied."""
    a, b = cluster.a.base, cluster.b.base
    tables = [create(a, ["human", "random", "random"], seed=60 + i) for i in range(3)]
    clients = [Client([a, b], t, 0) for t in tables]
    for c in clients:
        c.start()
    deadline = time.monotonic() + 30
    while min(c.acked for c in clients) < 4:
        assert time.monotonic() < deadline, "the tables did not get going"
        time.sleep(0.05)
    cluster.a.kill()
    killed = time.monotonic()
    told = {c.table["id"]: c.acked for c in clients}
    shown = {c.table["id"]: max(n for _, n, _, _ in c.states) for c in clients}
    for c in clients:
        c.join(60)
    assert all(c.finished for c in clients), [c.errors[-5:] for c in clients if not c.finished]
    waits = []
    for c in clients:
        assert c.connections >= 2  # it reconnected, to B
        after = [(at, n, last) for at, n, _, last in c.states if at > killed]
        # nothing it was told or shown before the kill is missing afterwards
        assert after and after[0][1] >= max(told[c.table["id"]], shown[c.table["id"]])
        # the bots move again: another process took the table over
        moved = next(at for at, n, last in after if last not in (None, 0))
        waits.append(moved - killed)
        check_record(cluster.pg.url, c.table["id"], [c])
    print(f"bots moved again {', '.join(f'{w:.1f}' for w in waits)} s after the kill")
    assert max(waits) < 3 * LEASE + 6  # a few seconds (the lease, and a busy machine)


def test_two_processes_storing_move_n_at_once_store_it_once(pg: Postgres) -> None:
    """Two hubs (two server processes' worth) on one database: each is given a
    different move for the same position at the same moment; exactly one is stored,
    the other is refused with the reason, and both copies of the table agree."""
    from xtarot.server.hub import Hub, TableError

    async def race() -> None:
        hubs = [Hub(Store(pg.url), bot_delay=0, lease_seconds=LEASE) for _ in range(2)]
        for hub in hubs:
            assert hub.cluster is not None
            await hub.cluster.start()
        try:
            first, _ = hubs[0].create("sono-arcana", 3, {}, ["human"] * 3, seed=3)
            second = hubs[1].get(first.id)
            assert second is not None
            for _ in range(12):
                n, seat = first.n, first.state.current_player
                assert second.n == n and seat is not None
                legal = [a.text for a in first.state.legal_actions()]
                moves = (legal[0], legal[-1])
                done = await asyncio.gather(
                    hubs[0].act(first, seat, moves[0], n),
                    hubs[1].act(second, seat, moves[1], n),
                    return_exceptions=True,
                )
                stored = [d for d in done if isinstance(d, str)]
                refused = [d for d in done if not isinstance(d, str)]
                assert len(stored) == 1, done
                assert all(isinstance(r, TableError) and "moved on" in str(r) for r in refused)
                for _ in range(200):  # the winner's notification reaches the loser's copy
                    if first.n == second.n == n + 1:
                        break
                    await asyncio.sleep(0.01)
                assert [x.text for x in first.state.history] == [
                    x.text for x in second.state.history
                ]
            record = Store(pg.url).load(first.id)
            assert record is not None
            assert record.actions == [x.text for x in first.state.history]
            assert len(xtarot.replay(record.record()).history) == 12
        finally:
            for hub in hubs:
                await hub.shutdown()
                hub.store.close()

    asyncio.run(race())


def test_moves_that_arrive_together_are_stored_together(pg: Postgres) -> None:
    """The moves the event loop takes in one pass, of any tables, are stored by one
    transaction (:class:`MoveWriter`): every one stored once, with its notification,
    except a move another process stored first, which its caller alone is told of
    (and which sends no notification); a failure of the batch is retried move by
    move, so it is each move's own."""
    import psycopg

    from xtarot.server.cluster import listen_url
    from xtarot.server.hub import Hub
    from xtarot.server.store import CHANNEL, MoveTaken
    from xtarot.server.writer import MoveWriter

    async def together() -> None:
        hub = Hub(Store(pg.url), bot_delay=0, lease_seconds=LEASE)
        listener = psycopg.connect(listen_url(pg.url), autocommit=True)
        listener.execute(f"LISTEN {CHANNEL}")
        try:
            tables = [
                hub.create("sono-arcana", 3, {}, ["human"] * 3, seed=70 + i)[0] for i in range(5)
            ]
            texts = [t.state.legal_actions()[0].text for t in tables]
            hub.store.append(tables[2].id, 0, texts[2])  # "another process" was first
            writer = MoveWriter(hub.store)
            done = await asyncio.gather(
                *(
                    writer.append(t.id, 0, text, at=1.0 + i, notify=f"note {i}")
                    for i, (t, text) in enumerate(zip(tables, texts, strict=True))
                ),
                return_exceptions=True,
            )
            assert [type(d).__name__ for d in done] == ["NoneType"] * 2 + ["MoveTaken"] + [
                "NoneType"
            ] * 2
            assert isinstance(done[2], MoveTaken) and tables[2].id in str(done[2])
            assert (writer.batches, writer.moves) == (1, 5)  # one transaction for them all
            for t, text in zip(tables, texts, strict=True):
                stored = hub.store.load(t.id)
                assert stored is not None and stored.actions == [text]
            heard = {n.payload for n in listener.notifies(timeout=2, stop_after=4)}
            assert heard == {"note 0", "note 1", "note 3", "note 4"}
            # a batch whose transaction fails: each move is tried on its own
            ok, bad = tables[0], "no-such-table"
            done = await asyncio.gather(
                writer.append(ok.id, 1, "any text", at=9.0),
                writer.append(bad, 0, "x", at=9.0),
                return_exceptions=True,
            )
            assert done[0] is None and isinstance(done[1], Exception), done
            assert writer.batches == 2
            stored = hub.store.load(ok.id)
            assert stored is not None and stored.actions == [texts[0], "any text"]
        finally:
            listener.close()
            await hub.shutdown()
            hub.store.close()

    asyncio.run(together())


def test_a_move_is_announced_after_its_commit_not_inside_it(
    pg: Postgres, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL lets one notifying transaction commit at a time, disk flush included:
    a move's notification sent inside the move's transaction put every process's moves
    in one line behind the disk.  The move is committed first and announced by a
    transaction of its own (in order, without waiting for the disk); a move whose
    announcement fails is still stored, and its caller told so."""
    import psycopg
    from sqlalchemy import event
    from sqlalchemy import text as sql

    from xtarot.server import store as store_module
    from xtarot.server.cluster import listen_url
    from xtarot.server.hub import Hub
    from xtarot.server.store import CHANNEL

    store = Store(pg.url)

    async def create() -> str:
        hub = Hub(store, bot_delay=0, lease_seconds=LEASE)
        try:
            return hub.create("sono-arcana", 3, {}, ["human"] * 3, seed=81)[0].id
        finally:
            await hub.shutdown()

    table = asyncio.run(create())
    listener = psycopg.connect(listen_url(pg.url), autocommit=True)
    listener.execute(f"LISTEN {CHANNEL}")
    transactions: list[list[str]] = [[]]

    def seen(conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
        transactions[-1].append(statement)

    def committed(conn: Any) -> None:
        transactions.append([])

    event.listen(store.engine, "before_cursor_execute", seen)
    event.listen(store.engine, "commit", committed)
    try:
        texts = ["a", "b"]
        store.append_many(
            [{"table_id": table, "n": n, "text": t, "notify": f"m{n}"} for n, t in enumerate(texts)]
        )
        store.append(table, 2, "c", notify="m2")
        heard = [n.payload for n in listener.notifies(timeout=2, stop_after=3)]
        assert heard == ["m0", "m1", "m2"]
        writes = [t for t in transactions if any("xtarot_actions" in s for s in t)]
        notes = [t for t in transactions if any("pg_notify" in s for s in t)]
        assert len(writes) == 2 and len(notes) == 2
        assert not any("pg_notify" in s for t in writes for s in t)
        assert all("synchronous_commit" in s for t in notes for s in t if "pg_notify" in s)

        # the announcement fails (here: a statement the database refuses)
        monkeypatch.setattr(store_module, "_NOTIFY_ALL", sql("SELECT no_such_function()"))
        with caplog.at_level("WARNING", logger="xtarot.server"):
            store.append(table, 3, "d", notify="m3")
        stored = store.load(table)
        assert stored is not None and stored.actions == ["a", "b", "c", "d"]
        assert "stored but not announced" in caplog.text
    finally:
        listener.close()
        store.close()


# -- the people at a table, across processes --------------------------------------------
class Threaded:
    """A server in a thread of this test process, with its own event loop, hub and
    listening connection: two of them are two server processes' worth, started in a
    blink (the seats, chat, host and rematch tests)."""

    def __init__(self, db: str) -> None:
        import uvicorn

        from xtarot.server.app import create_app
        from xtarot.server.hub import Limits

        limits = Limits(tables_per_minute=1e6, table_burst=1e6)
        app = create_app(db, bot_delay=0.05, lease_seconds=LEASE, limits=limits)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> Threaded:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert self.thread.is_alive() and time.monotonic() < deadline, "no server"
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(30)


@pytest.fixture(scope="module")
def pair(pg: Postgres) -> Iterator[tuple[Threaded, Threaded]]:
    one, two = Threaded(pg.url).start(), Threaded(pg.url).start()
    yield one, two
    one.stop()
    two.stop()


class Peer:
    """A websocket client whose messages the test reads, each wait with a time limit
    (made by the ``peer`` fixture, which closes it at the end)."""

    def __init__(
        self,
        ws: Any,
        table: dict[str, Any],
        seat: int | None = None,
        *,
        token: str | None = None,
        welcome: bool = True,
        **hello: Any,
    ) -> None:
        self.ws = ws
        self.seat, self.seen = seat, []
        if seat is not None:
            hello |= {"seat": seat, "token": token or table["seats"][seat]["token"]}
        self.send(type="hello", **hello)
        if welcome:
            self.wait(lambda m: m["type"] == "welcome")

    def send(self, **msg: Any) -> None:
        self.ws.send(json.dumps(msg))

    def wait(self, check: Any, seconds: float = 15) -> dict[str, Any]:
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"not seen in {seconds} s; last: {self.seen[-3:]}"
            msg = json.loads(self.ws.recv(timeout=left))
            self.seen.append(msg)
            if check(msg):
                return dict(msg)

    def state(self, check: Any) -> dict[str, Any]:
        """The first state message (from now on) that passes ``check``."""
        return self.wait(lambda m: m["type"] == "state" and check(m))


@pytest.fixture
def peer() -> Iterator[Any]:
    """``peer(server, table, seat, **hello)``: a :class:`Peer` at that server."""
    with contextlib.ExitStack() as stack:

        def connect(server: Threaded, table: dict[str, Any], *args: Any, **kw: Any) -> Peer:
            url = server.base.replace("http", "ws") + f"/ws/{table['id']}"
            ws = stack.enter_context(ws_client.connect(url, open_timeout=10))
            return Peer(ws, table, *args, **kw)

        yield connect


def finish(peers: list[Peer], seconds: float = 60) -> None:
    """Play random legal moves for these seats until each has been shown the end of
    the match (each acts on the states it is sent; the bots move on their own)."""
    rng = random.Random(1)
    latest: dict[int, dict[str, Any]] = {}
    acted: dict[int, int] = {}
    for peer in peers:
        peer.send(type="state")
    deadline = time.monotonic() + seconds
    while len(latest) < len(peers) or not all(m["finished"] for m in latest.values()):
        assert time.monotonic() < deadline, "the match did not end"
        for i, peer in enumerate(peers):
            try:
                msg = json.loads(peer.ws.recv(timeout=0.05))
            except TimeoutError:
                continue
            if msg["type"] != "state":
                continue
            latest[i] = msg
            legal = msg["view"].get("legal_actions") or []
            mine = msg["view"]["current_player"] == peer.seat
            if mine and legal and acted.get(i) != msg["n"] and not msg["finished"]:
                acted[i] = msg["n"]
                peer.send(type="act", action=rng.choice(legal), n=msg["n"])


def test_seats_chat_and_the_host_across_processes(
    pair: tuple[Threaded, Threaded], peer: Any
) -> None:
    one, two = pair
    key = "k" * 32  # the host's player key
    body = {"game": "sono-arcana", "players": 3, "seats": ["human"] * 3, "player": key}
    t = httpx.post(one.base + "/api/tables", json=body, timeout=10).json()
    p0 = peer(one, t, 0, player=key, name="Ada")
    p1 = peer(two, t, 1, name="Bo")
    watcher = peer(two, t)
    # who is connected, and their names, whichever process they are on
    p1.state(lambda m: m["seats"][0]["connected"] and m["seats"][0]["name"] == "Ada")
    p0.state(lambda m: m["seats"][1]["connected"] and m["seats"][1]["name"] == "Bo")
    watcher.state(lambda m: m["seats"][0]["connected"] and m["seats"][1]["connected"])
    # chat written on both at once reaches everyone, each message numbered once
    p0.send(type="chat", text="from A")
    p1.send(type="chat", text="from B")
    for reader in (p0, p1, watcher):
        got = {}
        while len(got) < 2:
            msg = reader.wait(lambda m: m["type"] == "chat")
            got[msg["text"]] = msg["n"]
        assert sorted(got) == ["from A", "from B"] and sorted(got.values()) == [0, 1]
    # a new name on B is seen on A
    p1.send(type="name", name="Bob")
    p0.state(lambda m: m["seats"][1]["name"] == "Bob")
    # the host, on A, mutes seat 1: its chat on B is refused
    p0.send(type="host", do="mute", seat=1, on=True)
    p1.state(lambda m: m["settings"]["muted"] == [1])
    p1.send(type="chat", text="muted?")
    assert "muted" in p1.wait(lambda m: m["type"] == "error")["message"]
    # the host gives seat 2 a new link: the old one no longer opens it, on B either
    p0.send(type="host", do="link", seat=2)
    token = p0.wait(lambda m: m["type"] == "host_link")["token"]
    stale = peer(two, t, 2, welcome=False)
    assert stale.wait(lambda m: m["type"] == "error")["code"] == "bad_token"
    peer(two, t, 2, token=token)
    p0.state(lambda m: m["seats"][2]["connected"])
    # seat 0 opened again, on B: the older connection, on A, is closed
    peer(two, t, 0, player=key)
    assert p0.wait(lambda m: m["type"] == "error")["code"] == "taken_over"


def test_a_rematch_voted_on_two_processes(pair: tuple[Threaded, Threaded], peer: Any) -> None:
    from xtarot.server.people import rematch_token

    one, two = pair
    t = create(one.base, ["human", "human", "random"], seed=9)
    p0, p1 = peer(one, t, 0), peer(two, t, 1)
    finish([p0, p1])
    p0.send(type="rematch")
    p1.state(lambda m: (m["rematch"] or {}).get("votes") == [0])
    p1.send(type="rematch")
    m0 = p0.wait(lambda m: m["type"] == "rematch")
    m1 = p1.wait(lambda m: m["type"] == "rematch")
    assert m0["table"] == m1["table"]  # one rematch, whichever process counted the votes
    for m, seat in ((m0, 0), (m1, 1)):
        assert m["token"] == rematch_token(t["seats"][seat]["token"])
        again = {"id": m["table"], "seats": {m["seat"]: {"token": m["token"]}}}
        peer(two if seat == 0 else one, again, m["seat"])  # it opens the seat


def test_an_open_seat_is_claimed_once_across_processes(
    pair: tuple[Threaded, Threaded], peer: Any
) -> None:
    one, two = pair
    t = create(one.base, ["open", "open", "random"], seed=13)
    for server in (one, two):  # both lobbies list it
        listed = httpx.get(server.base + "/api/tables", timeout=10).json()["tables"]
        assert t["id"] in [x["id"] for x in listed]
    answers: list[Any] = [None, None]

    def claim(i: int, server: Threaded) -> None:
        url = f"{server.base}/api/tables/{t['id']}/claim"
        answers[i] = httpx.post(url, json={"seat": 0}, timeout=10)

    claims = [threading.Thread(target=claim, args=(i, s)) for i, s in enumerate((one, two))]
    for thread in claims:
        thread.start()
    for thread in claims:
        thread.join()
    codes = sorted(r.status_code for r in answers)
    assert codes == [200, 409], [r.text for r in answers]
    won = next(r for r in answers if r.status_code == 200).json()
    for server in (one, two):  # its token opens the seat on either process
        peer(server, {"id": t["id"], "seats": {0: {"token": won["token"]}}}, 0)


def test_several_processes_on_sqlite_are_refused(tmp_path: Path) -> None:
    """(The command line turns this error into its message and exit status 1, as for a
    second server on one SQLite file: tests/test_migrations.py.)"""
    from xtarot.server import ServeError, WorkersNeedPostgres, serve

    url = f"sqlite:///{tmp_path / 'tables.db'}"
    with pytest.raises(WorkersNeedPostgres, match="--workers 2 needs a PostgreSQL database"):
        serve(port=free_port(), db=url, workers=2)
    assert issubclass(WorkersNeedPostgres, ServeError)
    assert not (tmp_path / "tables.db").exists()  # refused before anything was made


@pytest.mark.slow
def test_a_hundred_tables_when_one_of_two_processes_is_killed(pg: Postgres, tmp_path: Path):
    """The issue's fault test at full size: 100 tables played on two processes, one of
    them killed with SIGKILL: every table goes on from the other within a few seconds,
    no table is left without an owner, clients reconnect by themselves with their
    tokens and lose nothing they were told, no move is stored twice."""
    a, b = Server(pg.url, tmp_path, "a"), Server(pg.url, tmp_path, "b")
    try:
        a.launch()
        b.launch()
        a.wait_ready()
        b.wait_ready()
        seats = ["human", "random", "random"]
        tables = [create((a, b)[i % 2].base, seats, seed=100 + i) for i in range(100)]
        clients = [
            Client([(a, b)[i % 2].base, (b, a)[i % 2].base], t, 0, seconds=180)
            for i, t in enumerate(tables)
        ]
        for c in clients:
            c.start()
        deadline = time.monotonic() + 60
        while min(c.acked for c in clients) < 3:
            assert time.monotonic() < deadline, "the tables did not get going"
            time.sleep(0.1)
        assert a.proc is not None
        dead = a.proc.pid
        a.kill()
        killed = time.monotonic()
        told = {c.table["id"]: max([c.acked] + [n for _, n, _, _ in c.states]) for c in clients}
        engine = Store(pg.url).engine
        orphans: list[str] = []
        while time.monotonic() < killed + 3 * LEASE + 10:  # every table has a live owner
            with engine.connect() as conn:
                orphans = list(
                    conn.exec_driver_sql(
                        "SELECT t.id FROM xtarot_tables t WHERE NOT t.finished AND NOT EXISTS "
                        "(SELECT 1 FROM xtarot_leases l JOIN xtarot_processes p "
                        "ON p.id = l.owner WHERE l.table_id = t.id AND p.pid != %(dead)s "
                        "AND l.expires > extract(epoch from now()) "
                        "AND p.expires > extract(epoch from now()))",
                        {"dead": dead},
                    ).scalars()
                )
            if not orphans:
                break
            time.sleep(0.2)
        engine.dispose()
        seen = {
            c.table["id"]: (c.connections, c.states[-1][1:2] if c.states else None, c.errors[-2:])
            for c in clients
        }
        assert not orphans, [(t, seen.get(t)) for t in orphans]
        print(f"every table had a live owner {time.monotonic() - killed:.1f} s after the kill")
        for c in clients:
            c.join(180)
        stuck = [c for c in clients if not c.finished]
        store = Store(pg.url)
        why = [
            (
                c.table["id"],
                c.connections,
                c.states[-1][1] if c.states else None,
                c.states[-1][2].get("current_player") if c.states else None,
                c.acted,
                len(getattr(store.load(c.table["id"]), "actions", [])),
                c.errors[-3:],
            )
            for c in stuck
        ]
        store.close()
        assert not stuck, (why, b.tail())
        for c in clients:
            after = [n for at, n, _, _ in c.states if at > killed]
            assert after and after[0] >= told[c.table["id"]]
            check_record(pg.url, c.table["id"], [c])
    finally:
        a.stop()
        b.stop()
    assert "Traceback" not in b.tail(), b.tail()


# -- fuzzing on two processes (slow) ------------------------------------------------------
@pytest.fixture(scope="module")
def fuzz_pair(pair: tuple[Threaded, Threaded]) -> tuple[Threaded, Threaded, dict[str, Any]]:
    one, two = pair
    return one, two, create(one.base, ["human", "open", "human"], seed=9)


def copies(pair: tuple[Threaded, Threaded], table_id: str) -> list[Any]:
    """Each process's copy of the table (its position), or None where not loaded."""
    out = []
    for server in pair:
        live = server.server.config.app.state.hub.tables.get(table_id)
        out.append(None if live is None else live.state.snapshot())
    return out


@pytest.mark.slow
@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=bodies, where=st.sampled_from([0, 1]), path=st.sampled_from(["", "/{id}/claim"]))
def test_fuzz_http_bodies_on_two_processes(
    fuzz_pair: tuple[Threaded, Threaded, dict[str, Any]], body: bytes, where: int, path: str
) -> None:
    one, two, table = fuzz_pair
    info = f"/api/tables/{table['id']}"
    before = [httpx.get(s.base + info, timeout=10).json() for s in (one, two)]
    url = (one, two)[where].base + "/api/tables" + path.format(id=table["id"])
    res = httpx.post(url, content=body, headers={"Content-Type": "application/json"}, timeout=10)
    assert res.status_code < 500, (res.status_code, res.text)
    assert "Traceback" not in res.text
    if res.status_code >= 400:
        assert isinstance(res.json()["error"], str) and res.json()["error"]
        after = [httpx.get(s.base + info, timeout=10).json() for s in (one, two)]
        assert after == before  # a refusal changes nothing, on either process


@pytest.mark.slow
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(batch=st.lists(messages, min_size=1, max_size=8), where=st.sampled_from([0, 1]))
def test_fuzz_websocket_messages_on_two_processes(
    fuzz_pair: tuple[Threaded, Threaded, dict[str, Any]], batch: list[str], where: int
) -> None:
    one, two, table = fuzz_pair
    url = (one, two)[where].base.replace("http", "ws") + f"/ws/{table['id']}"
    with ws_client.connect(url, open_timeout=10) as ws:
        for text in batch:
            before = copies((one, two), table["id"])
            ws.send(text)
            ws.send(json.dumps({"type": "ping"}))  # every message answered, the connection
            while json.loads(ws.recv(timeout=10))["type"] != "pong":  # alive
                pass
            # a stranger (no token) never moves the table, on either process
            assert copies((one, two), table["id"]) == before


# -- the HTTP API fuzzed from its schema on two processes ------------------------------------
@pytest.fixture(scope="module")
def schema_pair(pair: tuple[Threaded, Threaded]) -> Iterator[Any]:
    if importlib.util.find_spec("schemathesis") is None:
        pytest.skip("schemathesis is not installed")
    from api_fuzz_support import api_schema, watch_log

    one, two = pair
    table = create(one.base, ["open"] * 8, seed=11, game="fairy500")  # seats to claim
    for server in pair:  # each process holds its copy, to be compared at every request
        httpx.get(f"{server.base}/api/tables/{table['id']}", timeout=10).raise_for_status()
    with httpx.Client(timeout=10) as client, watch_log() as log:
        yield one, two, table, client, log, api_schema(one.server.config.app)


def fuzz_two_processes(schema_pair: Any, examples: int) -> None:
    from api_fuzz_support import cases, check_request, fuzz_every_operation

    one, two, table, client, log, schema = schema_pair
    hubs = [s.server.config.app.state.hub for s in (one, two)]

    def request(operation: str, data: st.DataObject) -> None:
        case = data.draw(cases(schema, operation, [table["id"]]), label="request")
        server = data.draw(st.sampled_from([one, two]), label="process")
        check_request(case, client, server.base, hubs, [table["id"]], log)

    fuzz_every_operation(examples, request)


def test_fuzz_the_api_from_its_schema_on_two_processes(schema_pair: Any) -> None:
    """Requests made from the OpenAPI schema, to either process (tests/test_api_schema.py)."""
    fuzz_two_processes(schema_pair, examples=3)


@pytest.mark.slow
def test_fuzz_the_api_from_its_schema_on_two_processes_at_length(schema_pair: Any) -> None:
    fuzz_two_processes(schema_pair, examples=100)
