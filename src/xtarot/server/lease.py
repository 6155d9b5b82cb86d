"""Who owns a live table when several server processes share one PostgreSQL database.

Whatever must happen once per table — its bots' moves, its move clock, waking it when a
turn-based clock runs out — is done by the process holding the table's **lease**: a row
of ``xtarot_leases`` (the table, the owner process, until when).  Each process renews
all of its leases with one statement every third of the lease's length; a process that
dies stops renewing, its leases expire, and another process takes each of them over
(:meth:`Leases.acquire` for tables it has loaded, :meth:`Leases.adopt` for the others).
Times are the database's clock (``clock_timestamp()``), so the machines' clocks need not
agree.  A lease only decides who *runs* a table: the moves themselves are safe without
it (a move is stored only as move ``n`` of its table, :meth:`Store.append`), so two
processes that both believe they own a table for a moment at worst both compute a bot's
move, and only one of them is stored.

Each process also keeps a row in ``xtarot_processes`` (renewed with its leases): where
it runs, and until when it is taken to be alive (other processes forget the seats
connected to a process whose row expired).  PostgreSQL only; SQLite has one process.
"""

from __future__ import annotations

import os
import secrets
import socket

from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine

__all__ = ["LEASE_SECONDS", "Leases", "process_id"]

#: How long a table's lease lasts without renewal (seconds): the tables of a process
#: that dies are taken over within about this long (and a third of it).
LEASE_SECONDS = 6.0

#: The database's clock, in seconds since the epoch.
_NOW = "extract(epoch from clock_timestamp())"

_RENEW = text(
    f"UPDATE xtarot_leases SET expires = {_NOW} + :ttl WHERE owner = :me RETURNING table_id"
)
_HEARTBEAT = text(f"UPDATE xtarot_processes SET expires = {_NOW} + :ttl WHERE id = :me")
_REGISTER = text(
    "INSERT INTO xtarot_processes (id, host, pid, address, started, expires) "
    f"VALUES (:me, :host, :pid, :address, {_NOW}, {_NOW} + :ttl) "
    "ON CONFLICT (id) DO UPDATE SET expires = excluded.expires, address = excluded.address"
)
_ACQUIRE = text(
    "INSERT INTO xtarot_leases (table_id, owner, expires) "
    f"SELECT t, :me, {_NOW} + :ttl FROM unnest(CAST(:ids AS varchar[])) AS t "
    "ON CONFLICT (table_id) DO UPDATE SET owner = excluded.owner, expires = excluded.expires "
    f"WHERE xtarot_leases.owner = excluded.owner OR xtarot_leases.expires < {_NOW} "
    "RETURNING table_id"
)
_ADOPT = text(
    f"UPDATE xtarot_leases SET owner = :me, expires = {_NOW} + :ttl WHERE table_id IN ("
    f"SELECT table_id FROM xtarot_leases WHERE expires < {_NOW} "
    "ORDER BY expires LIMIT :limit FOR UPDATE SKIP LOCKED) RETURNING table_id"
)
_TAKE = text(
    f"INSERT INTO xtarot_leases (table_id, owner, expires) VALUES (:t, :me, {_NOW} + :ttl)"
)
_RELEASE = text("DELETE FROM xtarot_leases WHERE owner = :me AND table_id = ANY(:ids)")
_EXPIRE = text("UPDATE xtarot_leases SET expires = 0 WHERE owner = :me")
_ALIVE = text(f"SELECT id FROM xtarot_processes WHERE expires >= {_NOW}")
#: Rows of processes dead for a minute are removed (they are only for people to read).
_FORGET = text(f"DELETE FROM xtarot_processes WHERE expires < {_NOW} - 60")
_UNREGISTER = text("DELETE FROM xtarot_processes WHERE id = :me")


def process_id() -> str:
    """This process's name in the database: host, process id and a random part (a
    restarted process on the same host may get the same process id).

    >>> a, b = process_id(), process_id()
    >>> a != b and a.split(":")[1] == str(os.getpid())
    True
    """
    host = socket.gethostname()[:40]
    return f"{host}:{os.getpid()}:{secrets.token_hex(4)}"


class Leases:
    """The lease rows of one process (``me``), lasting ``seconds`` from each renewal."""

    def __init__(self, engine: Engine, me: str, seconds: float, address: str | None = None):
        if seconds <= 0:
            raise ValueError("a lease lasts a positive number of seconds")
        self.engine, self.me, self.seconds, self.address = engine, me, float(seconds), address

    def _args(self, **more: object) -> dict[str, object]:
        return {"me": self.me, "ttl": self.seconds, **more}

    def register(self) -> None:
        """Add this process's row (at start)."""
        with self.engine.begin() as conn:
            conn.execute(
                _REGISTER,
                self._args(host=socket.gethostname()[:255], pid=os.getpid(), address=self.address),
            )

    def unregister(self) -> None:
        """At a clean stop: this process's leases expire at once (other processes take
        its tables over at their next renewal) and its row goes."""
        with self.engine.begin() as conn:
            conn.execute(_EXPIRE, self._args())
            conn.execute(_UNREGISTER, self._args())

    def renew(self) -> set[str]:
        """Extend every lease this process still holds; returns their tables (a lease
        another process took over after it expired is no longer among them)."""
        with self.engine.begin() as conn:
            conn.execute(_HEARTBEAT, self._args())
            return set(conn.execute(_RENEW, self._args()).scalars())

    def acquire(self, table_ids: list[str]) -> set[str]:
        """Take the leases of these tables that nobody holds, that expired, or that
        this process holds already; returns those it now holds."""
        if not table_ids:
            return set()
        with self.engine.begin() as conn:
            return set(conn.execute(_ACQUIRE, self._args(ids=list(table_ids))).scalars())

    def take(self, conn: Connection, table_id: str) -> None:
        """In ``conn``'s transaction: the lease of a table being created."""
        conn.execute(_TAKE, self._args(t=table_id))

    def adopt(self, limit: int) -> list[str]:
        """Take over up to ``limit`` expired leases of any table (their owner died or
        stopped); each is taken by one process only."""
        if limit <= 0:
            return []
        with self.engine.begin() as conn:
            return list(conn.execute(_ADOPT, self._args(limit=limit)).scalars())

    def release(self, table_ids: list[str]) -> None:
        """Give up these tables' leases (the tables left this process's memory)."""
        if table_ids:
            with self.engine.begin() as conn:
                conn.execute(_RELEASE, self._args(ids=list(table_ids)))

    def alive(self) -> set[str]:
        """The processes whose row has not expired (and forget long-dead ones)."""
        with self.engine.begin() as conn:
            conn.execute(_FORGET)
            return set(conn.execute(_ALIVE).scalars())
