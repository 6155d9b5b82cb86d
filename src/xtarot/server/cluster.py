"""Several server processes on one PostgreSQL database: what each tells the others.

Any process accepts any client of any table.  The database is the single source of
truth; each process keeps in memory a copy of the tables its clients are at (and of
those it runs), kept current like this:

- **Moves.**  A process stores a move only as move ``n`` of its table (the key
  ``(table_id, n)``, :meth:`~xtarot.server.store.Store.append`); the same transaction
  sends a PostgreSQL notification (``NOTIFY xtarot``) with the move.  Every process
  listens (``LISTEN`` on a connection of its own, psycopg's async connection); one with
  that table in memory applies the move to its copy and sends each of *its own* clients
  its own view.  When another process stored move ``n`` first, the insert fails, the
  process loads what it missed (:meth:`Cluster.catch_up`) and the move is tried again on
  the new position or refused with the reason (:meth:`~xtarot.server.hub.Hub.act`).  A
  move that starts a new hand is loaded from the database with its stored deal.
- **Seats, settings, chat, ratings** are written to the database first (seats and
  settings under a row lock, chat as message ``n`` with the same check as moves), then
  the other processes are told which of them to read again.
- **Presence** (which seats are connected, and where) is not stored: each process tells
  the others the seats connected to it, for each table, whenever that changes; a process
  that loads a table asks the others (``who``).  A seat opened on a second process
  closes its older connection on the first (the newest wins, as in one process).
- **Ownership.**  What must happen once — the bots' moves, the move clock, waking
  turn-based tables, resuming bots-only tables — is done by the holder of the table's
  lease (:mod:`xtarot.server.lease`), renewed here every third of its length.  Leases of
  a process that died expire and are taken over: by a process that has the table in
  memory, else by any process (it loads the table), so no table is left without one.
- **Missed notifications** (the listening connection dropped: the database restarted):
  at every renewal each process compares its tables with the stored logs and loads what
  it lacks; after listening again, it reads every table's seats, settings and chat anew
  and asks for everyone's presence.

SQLite has one process: then there is no cluster and the hub works alone as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import OperationalError

from xtarot.engine import IllegalAction, RecordError
from xtarot.server import rematch
from xtarot.server.host import stop as stop_table
from xtarot.server.lease import LEASE_SECONDS, Leases, process_id
from xtarot.server.people import CHAT_KEEP
from xtarot.server.ratings import table_results
from xtarot.server.store import CHANNEL, SeatSpec
from xtarot.server.table import Connection, LiveTable, TableError, log_entry, replay_with_log

if TYPE_CHECKING:
    from xtarot.server.hub import Hub

__all__ = ["Cluster", "listen_url"]

log = logging.getLogger("xtarot.server")

#: Tables whose owner died that one process takes over at each renewal, at most.
ADOPT_BATCH = 25
#: The same warning (the database is away...) at most this often (seconds).
WARN_EVERY = 10.0


def listen_url(url: str) -> str:
    """The libpq address of an SQLAlchemy PostgreSQL URL (for psycopg's own connection).

    >>> listen_url("postgresql+psycopg://xt:pw@db.example:5433/xtarot?sslmode=require")
    'postgresql://xt:pw@db.example:5433/xtarot?sslmode=require'
    """
    from sqlalchemy.engine import make_url

    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


@dataclass
class _Job:
    """What to read again for one table: kinds (``moves``, ``seats``, ``settings``,
    ``chat``, ``results``) and moves told by notifications."""

    kinds: set[str] = field(default_factory=set)
    hints: list[dict[str, Any]] = field(default_factory=list)


class Cluster:
    """This process's part in a cluster of server processes sharing one database."""

    def __init__(
        self, hub: Hub, *, lease_seconds: float = LEASE_SECONDS, address: str | None = None
    ) -> None:
        self.hub = hub
        self.store = hub.store
        self.me = process_id()
        self.leases = Leases(hub.store.engine, self.me, lease_seconds, address)
        #: the tables whose lease this process holds
        self.owned: set[str] = set()
        self.listening = asyncio.Event()
        self._told: dict[str, list[int]] = {}  # table -> seats we last said are here
        self._jobs: dict[str, _Job] = {}
        self._working: set[str] = set()
        self._outbox: asyncio.Queue[str] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._spawned: set[asyncio.Task[None]] = set()
        self._renewed = time.monotonic()
        self._warned: dict[str, float] = {}

    # -- starting and stopping -----------------------------------------------------------
    async def start(self) -> None:
        """Register this process, listen, and renew leases from now on."""
        await asyncio.to_thread(self.leases.register)
        self._outbox = asyncio.Queue()
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._listen()),
            loop.create_task(self._talk()),
            loop.create_task(self._renewals()),
        ]
        try:
            await asyncio.wait_for(self.listening.wait(), 15)
        except TimeoutError:
            log.warning("not listening to the other server processes yet; going on")
        log.info("server process %s shares the database with any others", self.me)

    async def stop(self) -> None:
        """Stop: the other processes take this one's tables over at once."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []
        bye = self._payload(None, "bye")
        try:
            await asyncio.to_thread(self.leases.unregister)
            await asyncio.to_thread(self.store.notify, bye)
        except Exception as err:  # the database is away: the leases expire by themselves
            log.warning("could not hand this process's tables over: %s", err)
        self.owned.clear()

    # -- ownership ---------------------------------------------------------------------
    def loaded(self, table: LiveTable, *, ask: bool = True) -> None:
        """A table came into this process's memory: take its lease if nobody holds it
        (in a worker thread: the renewal does it too, should this fail), and (``ask``)
        ask the other processes who is connected to it."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # called from outside the server's loop (tests)
            with contextlib.suppress(Exception):
                if table.id in self.leases.acquire([table.id]):
                    self.owned.add(table.id)
        else:
            self._spawn(self._acquire(table.id))
        if ask:
            self.tell(table.id, "who")

    async def _acquire(self, table_id: str) -> None:
        try:
            got = await asyncio.to_thread(self.leases.acquire, [table_id])
        except Exception as err:
            self._warn("lease", "could not take a table's lease (%s); retrying later", err)
            return
        if table_id in got and table_id not in self.owned:
            self._gained(table_id)

    def unloaded(self, table: LiveTable) -> None:
        """A table left this process's memory: its lease goes (another process that has
        it in memory takes it at its next renewal)."""
        self._told.pop(table.id, None)
        if table.id in self.owned:
            self.owned.discard(table.id)
            try:
                asyncio.get_running_loop()
            except RuntimeError:  # called from outside the server's loop (tests)
                self._release(table.id)
            else:
                self._spawn(asyncio.to_thread(self._release, table.id))

    def _release(self, table_id: str) -> None:
        try:
            self.leases.release([table_id])
        except Exception as err:  # it expires by itself
            self._warn("lease", "could not give a table's lease up (%s)", err)

    def _gained(self, table_id: str) -> None:
        table = self.hub.tables.get(table_id)
        if table is None:  # it left memory meanwhile
            self._spawn(asyncio.to_thread(self._release, table_id))
            return
        self.owned.add(table_id)
        log.info("table %s: this process runs it now", table_id)
        table.clock_seat = table.clock_n = None  # its clock runs here from now on
        self.hub.wake_bots(table)

    def _lost(self, table_id: str) -> None:
        """Another process runs the table now: stop its clock here (a bot thinking here
        stops before its next move; a move it makes meanwhile is checked like any)."""
        self.owned.discard(table_id)
        table = self.hub.tables.get(table_id)
        if table is not None and table.clock_task is not None:
            table.clock_task.cancel()
            table.clock_task = None
        log.info("table %s: another process runs it now", table_id)

    async def _adopt(self, table_id: str) -> None:
        """Take over a table whose owner stopped: load it and run it."""
        try:
            table = await self.hub.open(table_id)
        except (TableError, OperationalError):  # this process is full; the database away
            table = None
        if table is None:
            self._spawn(asyncio.to_thread(self._release, table_id))
            return
        log.info("table %s: taken over (the process that ran it stopped)", table_id)
        self.owned.add(table_id)
        table.clock_seat = table.clock_n = None
        self.hub.wake_bots(table)
        if not table.busy and table.unused:
            self.hub.unload(table_id)  # nothing to run: whoever loads it next owns it

    # -- telling the others ------------------------------------------------------------
    def _payload(self, table_id: str | None, kind: str, **data: Any) -> str:
        body = {"p": self.me, "t": table_id, "k": kind, **data}
        return json.dumps(body, ensure_ascii=False, separators=(",", ":"))

    def tell(self, table_id: str, kind: str, **data: Any) -> None:
        """Tell the other processes something about a table (sent in order, soon)."""
        if self._outbox is not None:
            self._outbox.put_nowait(self._payload(table_id, kind, **data))

    def move_note(
        self,
        table: LiveTable,
        n: int,
        text: str,
        at: float,
        clock: bool,
        deals: list[dict[str, Any]] | None,
    ) -> str:
        """The notification stored with move ``n`` (sent when it is committed)."""
        extra: dict[str, Any] = {}
        if clock:  # made by the clock, here, where it runs: who is on autopilot now
            extra = {"c": 1, "ap": sorted(table.autopilot)}
        if deals is not None:
            extra["d"] = 1  # a new hand: its deal is read from the database
        return self._payload(table.id, "m", n=n, a=text, at=at, **extra)

    def joined(self, table: LiveTable, conn: Connection) -> None:
        """A client said hello here: an older connection to its seat elsewhere closes."""
        conn.joined_at = time.time()
        if conn.seat is not None:
            self.tell(table.id, "join", s=conn.seat, at=conn.joined_at)
        self.presence(table)

    def presence(self, table: LiveTable, *, force: bool = False) -> None:
        """Tell the others which seats are connected here, if that changed."""
        seats = sorted(table.here())
        if not force and self._told.get(table.id, []) == seats:
            return
        self._told[table.id] = seats
        self.tell(table.id, "here", s=seats)

    async def _talk(self) -> None:
        """Send what :meth:`tell` queued, in order, a batch per transaction."""
        assert self._outbox is not None
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty() and len(batch) < 100:
                batch.append(self._outbox.get_nowait())
            try:
                await asyncio.to_thread(self.store.notify, *batch)
            except Exception as err:
                self._warn("talk", "could not tell the other server processes (%s)", err)

    # -- listening ---------------------------------------------------------------------
    async def _listen(self) -> None:
        """Listen on the channel for as long as the process runs, connecting again
        (and catching up on everything) when the connection drops."""
        import psycopg

        delay, again = 0.25, False
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(
                    listen_url(self.store.url),
                    autocommit=True,
                    keepalives=1,
                    keepalives_idle=10,
                    keepalives_interval=5,
                    keepalives_count=3,
                )
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    delay = 0.25
                    if again:
                        log.info("listening to the other server processes again")
                        self._resync()
                    again = True
                    async for note in conn.notifies():
                        self._on(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as err:
                self._warn("listen", "lost the other server processes' news (%s)", err)
            self.listening.clear()
            again = True
            await asyncio.sleep(delay)
            delay = min(2.0, delay * 2)

    def _on(self, payload: str) -> None:
        """One notification from another process."""
        try:
            msg = json.loads(payload)
        except ValueError:
            return
        if not isinstance(msg, dict) or msg.get("p") == self.me:
            return
        kind, proc = msg.get("k"), str(msg.get("p"))
        if kind == "bye":
            self._forget({proc})
            return
        table = self.hub.tables.get(msg.get("t"))  # type: ignore[arg-type]
        if table is None:
            return
        if kind == "m" and isinstance(msg.get("n"), int):
            self.schedule(table, (), msg)
        elif kind in ("seats", "settings", "chat", "results"):
            self.schedule(table, (kind,))
        elif kind == "here":
            self._here(table, proc, msg.get("s"))
        elif kind == "join":
            self._join(table, proc, msg.get("s"), msg.get("at"))
        elif kind == "who" and table.here():
            self.presence(table, force=True)

    def _here(self, table: LiveTable, proc: str, seats: Any) -> None:
        new = frozenset(s for s in seats or () if isinstance(s, int))
        old = table.elsewhere.get(proc, frozenset())
        if new == old:
            return
        if new:
            table.elsewhere[proc] = new
        else:
            table.elsewhere.pop(proc, None)
        table.autopilot -= new - old  # a player is back (on another process)
        self.hub.broadcast(table)
        self.hub.wake_bots(table)

    def _join(self, table: LiveTable, proc: str, seat: Any, at: Any) -> None:
        if not isinstance(at, int | float):
            return
        for conn in [c for c in table.conns if c.joined and c.seat == seat]:
            if (conn.joined_at, self.me) < (float(at), proc):
                self.hub._take_over(table, conn)

    def _forget(self, procs: set[str]) -> None:
        """These processes stopped: their clients are gone."""
        for table in list(self.hub.tables.values()):
            if any(p in table.elsewhere for p in procs):
                for p in procs:
                    table.elsewhere.pop(p, None)
                self.hub.broadcast(table)
                self.hub.wake_bots(table)

    # -- catching up -------------------------------------------------------------------
    def schedule(
        self, table: LiveTable, kinds: Iterable[str] = (), hint: dict[str, Any] | None = None
    ) -> None:
        """Bring a table up to date soon (one worker per table, in order)."""
        job = self._jobs.setdefault(table.id, _Job())
        job.kinds.update(kinds)
        if hint is not None:
            job.hints.append(hint)
        if table.id not in self._working:
            self._working.add(table.id)
            self._spawn(self._work(table.id))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._spawned.add(task)
        task.add_done_callback(self._spawned.discard)

    async def _work(self, table_id: str) -> None:
        try:
            while (job := self._jobs.pop(table_id, None)) is not None:
                table = self.hub.tables.get(table_id)
                if table is None:
                    continue
                try:
                    await self._do(table, job)
                except OperationalError as err:  # the database is away: the renewal retries
                    self._warn("read", "could not read a table's changes (%s); later", err)
                except Exception:
                    log.warning("could not bring table %s up to date", table_id, exc_info=True)
        finally:
            self._working.discard(table_id)

    async def _do(self, table: LiveTable, job: _Job) -> None:
        store, changed = self.store, False
        if "seats" in job.kinds:
            changed |= self.reseat(table, await asyncio.to_thread(store.seats, table.id))
        if "settings" in job.kinds:
            changed |= self.resettle(table, await asyncio.to_thread(store.settings, table.id))
        if "chat" in job.kinds:
            since = table.social.chat_n
            self.hub.deliver_chat(
                table, await asyncio.to_thread(store.chat, table.id, CHAT_KEEP, since)
            )
        if job.hints or "moves" in job.kinds:
            await self.catch_up(table, job.hints, from_db="moves" in job.kinds)
        if "results" in job.kinds:
            table.results = await asyncio.to_thread(table_results, store, table.id)
            changed = True
        if changed:
            self.hub.broadcast(table)
            self.hub.wake_bots(table)

    async def catch_up(
        self, table: LiveTable, hints: list[dict[str, Any]] | None = None, *, from_db: bool = True
    ) -> None:
        """Apply to the table's copy here the moves other processes stored: those told
        in ``hints`` (notifications) when they follow on, else (or with ``from_db``)
        whatever the database has beyond this copy; then send each client here its
        view, and run the bots if this process owns the table."""
        async with table.lock:
            before = table.n
            for hint in sorted(hints or (), key=lambda h: int(h["n"])):
                if hint["n"] < table.n:
                    continue  # known already
                if hint["n"] > table.n or hint.get("d"):
                    from_db = True  # a gap (a missed notification) or a new deal
                    break
                if not self._apply(table, str(hint["a"]), float(hint["at"]), bool(hint.get("c"))):
                    from_db = True
                    break
                if hint.get("c"):
                    table.autopilot = set(hint.get("ap") or ())
            if from_db:
                try:
                    await self._from_db(table)
                except Exception as err:
                    self._warn("read", "could not read a table's moves (%s); later", err)
            if table.n == before:
                return
            if table.state.is_terminal:
                try:
                    table.results = await asyncio.to_thread(table_results, self.store, table.id)
                except Exception:
                    table.results = []  # the rating's own notification brings them
            table.last_active = time.monotonic()
            self.hub._set_clock(table)
            self.hub.broadcast(table)
        self.hub.wake_bots(table)

    async def _from_db(self, table: LiveTable) -> None:
        rows, deals = await asyncio.to_thread(self.store.moves_since, table.id, table.n)
        if not rows:
            return
        if len(deals) > len(table.state.deals):  # a new hand began: deal it as stored
            await self._rebuild(table, rows[-1][1])
            return
        for text, at in rows:
            dealt = len(table.state.deals)
            if not self._apply(table, text, at, False) or len(table.state.deals) != dealt:
                await self._rebuild(table, rows[-1][1])
                return

    def _apply(self, table: LiveTable, text: str, at: float, clock: bool) -> bool:
        """Apply one stored move to the copy here (``False``: it does not apply)."""
        state = table.state
        try:
            action = state.game.action(text)
        except IllegalAction:
            return False
        if action not in state.legal_actions():
            return False
        entry = log_entry(state, action)
        state.apply(action)
        table.log.append(replace(entry, clock=True) if clock else entry)
        table.moved_at = at
        return True

    async def _rebuild(self, table: LiveTable, at: float) -> None:
        """The table's position again from everything stored (its deals included)."""
        stored = await asyncio.to_thread(self.store.load, table.id)
        if stored is None:
            return
        try:
            table.state, table.log = replay_with_log(stored.record())
        except RecordError as err:
            log.error("table %s cannot be replayed: %s", table.id, err)
            return
        table.deals_stored = len(stored.deals)
        table.moved_at = at

    def reseat(self, table: LiveTable, seats: list[SeatSpec] | None) -> bool:
        """The seats as stored (another process changed them); ``True`` if any did.
        A client here whose token no longer opens its seat is closed."""
        if not seats or len(seats) != len(table.seats):
            return False
        changed = False
        for i, new in enumerate(seats):
            old = table.seats[i]
            if new.to_dict() == old.to_dict():
                continue
            changed = True
            table.seats[i] = new
            if new.kind == "bot" and new.bot and (old.kind != "bot" or old.bot != new.bot):
                table.agents[i] = self.hub.seat_agent(new.bot, table.state.seed, i, table.n)
                table.autopilot.discard(i)
                table.stand_ins.pop(i, None)
            for conn in [c for c in table.conns if c.joined and c.seat == i]:
                if new.kind == "bot":
                    self.hub._take_over(table, conn, "the host seated a bot here")
                elif conn.token is None or not table.check_token(i, conn.token):
                    self.hub._take_over(table, conn, "the host gave this seat a new link")
        return changed

    def resettle(self, table: LiveTable, data: dict[str, Any]) -> bool:
        """The host's choices and the rematch as stored (another process changed them)."""
        table.muted = set(data.get("muted") or [])
        table.spectator_chat = bool(data.get("spectator_chat"))
        table.shuffle = bool(data.get("shuffle"))
        table.listed = bool(data.get("listed"))
        if data.get("closed") and not table.closed:
            stop_table(table)
        started = table.social.rematch is None
        rematch.settle(table, data)
        if started and table.social.rematch is not None:
            rematch.tell(table)
        return True

    def _resync(self) -> None:
        """After notifications may have been missed: read every table here again."""
        for table in list(self.hub.tables.values()):
            self.schedule(table, ("moves", "seats", "settings", "chat"))
            self.tell(table.id, "who")
            self.presence(table, force=True)

    # -- renewing ----------------------------------------------------------------------
    async def _renewals(self) -> None:
        every = self.leases.seconds / 3
        while True:
            await asyncio.sleep(every)
            try:
                await self.renew()
            except Exception:
                log.warning("the lease renewal failed", exc_info=True)

    async def renew(self) -> None:
        """Renew this process's leases, take those of tables here nobody runs, take
        over tables whose owner died, forget stopped processes' clients, and load the
        moves this process missed."""
        hub = self.hub
        here = list(hub.tables)
        room = max(0, min(ADOPT_BATCH, hub.limits.max_live_tables - len(here)))
        try:
            owned, alive, heads, orphans = await asyncio.to_thread(self._renew_db, here, room)
        except Exception as err:
            self._warn("renew", "the database is unavailable (%s); retrying", err)
            if time.monotonic() - self._renewed > self.leases.seconds:
                for table_id in list(self.owned):  # they may be taken over: stop them
                    self._lost(table_id)
            return
        self._renewed = time.monotonic()
        for table_id in self.owned - owned:
            self._lost(table_id)
        for table_id in owned - self.owned:
            self._gained(table_id)
        gone = {p for t in hub.tables.values() for p in t.elsewhere} - alive
        if gone:
            self._forget(gone)
        for table_id, n in heads.items():
            table = hub.tables.get(table_id)
            if table is not None and n > table.n:
                self.schedule(table, ("moves",))
        for table_id in orphans:
            await self._adopt(table_id)

    def _renew_db(
        self, here: list[str], room: int
    ) -> tuple[set[str], set[str], dict[str, int], list[str]]:
        owned = self.leases.renew()
        owned |= self.leases.acquire([t for t in here if t not in owned])
        alive = self.leases.alive()
        heads = self.store.heads(here)
        adopted = self.leases.adopt(room)
        owned |= set(adopted) & set(here)
        return owned, alive, heads, [t for t in adopted if t not in here]

    def _warn(self, key: str, message: str, *args: Any) -> None:
        now = time.monotonic()
        if now - self._warned.get(key, -WARN_EVERY) >= WARN_EVERY:
            self._warned[key] = now
            log.warning(message, *args)
