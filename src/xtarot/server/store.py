"""Persistence of web tables: SQLAlchemy, a SQLite file by default.

A table is stored as its action log, never as a pickled position:

- ``xtarot_tables``: one row per table — the game, player count, options, match seed,
  every hand's deal (``state.deals``, which grows when a new hand starts), the seats
  (human or bot, with the *hash* of each seat's secret token, never the token itself)
  and, once the match is over, its result;
- ``xtarot_actions``: the actions in order, one row each (``table_id``, ``n``, ``text``);
- ``xtarot_chat``: what the people at the table wrote (not part of the game record);
- ``xtarot_players``: player identities (the public id is a hash of the secret key the
  browser keeps; the key itself is never stored) and their latest display name;
- ``xtarot_ratings`` / ``xtarot_results``: each identity's rating per game, and each
  rated seat of each finished match with its rating before and after
  (:mod:`xtarot.server.ratings`);
- ``xtarot_processes`` / ``xtarot_leases``: the server processes sharing a PostgreSQL
  database and which of them owns each live table (:mod:`xtarot.server.lease`).

An action is stored only as action ``n`` of its table: ``(table_id, n)`` is the key of
``xtarot_actions``, so when two server processes append move ``n`` of one table at the
same moment exactly one insert succeeds and the other raises :class:`MoveTaken`.

Loading a table rebuilds the position with :func:`xtarot.replay` from these pieces, so a
restarted server resumes every table exactly where it stood.  Any SQLAlchemy URL works
(``sqlite:///path.db``, ``postgresql+psycopg://...``); :func:`default_url` is a SQLite
file in the user's data directory.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy import text as sql
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

__all__ = [
    "CHANNEL",
    "ChatTaken",
    "MoveTaken",
    "SeatSpec",
    "Store",
    "StoredTable",
    "default_url",
    "hash_token",
    "metadata",
]

log = logging.getLogger("xtarot.server")

#: The PostgreSQL notification channel the server processes talk on
#: (:mod:`xtarot.server.cluster`).
CHANNEL = "xtarot"
#: Worker threads a server process on a database server stores and reads with (and
#: so about the most connections it opens: :data:`THREADS` and a few).
THREADS = 20


class MoveTaken(RuntimeError):
    """Another server process stored this table's move ``n`` first."""


class ChatTaken(RuntimeError):
    """Another server process stored this table's chat message ``n`` first."""


def _duplicate(err: IntegrityError) -> bool:
    """A unique key was violated (not, say, a missing table)."""
    code = getattr(err.orig, "sqlstate", None) or getattr(err.orig, "pgcode", None)
    if code is not None:
        return str(code) == "23505"
    return "UNIQUE" in str(err.orig).upper()  # SQLite says "UNIQUE constraint failed"


metadata = MetaData()

tables_t = Table(
    "xtarot_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("deals", Text, nullable=False),
    Column("seats", Text, nullable=False),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("finished", Boolean, nullable=False, default=False),
    Column("result", Text, nullable=True),
)

actions_t = Table(
    "xtarot_actions",
    metadata,
    Column("table_id", String(32), ForeignKey("xtarot_tables.id"), primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("text", String(200), nullable=False),
    Column("at", Float, nullable=False),
)


#: Per-table settings added after the first schema (a table of their own, so databases
#: made by earlier versions gain it without a migration): the move clock, whether the
#: table is listed in the lobby.
settings_t = Table(
    "xtarot_table_settings",
    metadata,
    Column("table_id", String(32), ForeignKey("xtarot_tables.id"), primary_key=True),
    Column("data", Text, nullable=False),
    Column("listed", Boolean, nullable=False, default=False),
)


#: The table talk: free text or a quick phrase's id, per table in order.
chat_t = Table(
    "xtarot_chat",
    metadata,
    Column("table_id", String(32), ForeignKey("xtarot_tables.id"), primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("name", String(64), nullable=True),
    Column("text", String(400), nullable=True),
    Column("phrase", String(32), nullable=True),
    Column("at", Float, nullable=False),
)


#: Player identities: the public id (a hash of the browser's secret key) and a name.
players_t = Table(
    "xtarot_players",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(64), nullable=True),
    Column("created", Float, nullable=False),
    Column("seen", Float, nullable=False),
)

#: A rating per game and identity (openskill's mu and sigma); bots have fixed ids.
ratings_t = Table(
    "xtarot_ratings",
    metadata,
    Column("game", String(64), primary_key=True),
    Column("player", String(32), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("matches", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)

#: Every seat of every rated match: who sat there, the place and the rating change.
results_t = Table(
    "xtarot_results",
    metadata,
    Column("table_id", String(32), ForeignKey("xtarot_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("game", String(64), nullable=False),
    Column("player", String(32), nullable=True, index=True),
    Column("name", String(64), nullable=True),
    Column("rank", Integer, nullable=False),
    Column("score", Float, nullable=False),
    Column("before", Float, nullable=True),
    Column("after", Float, nullable=True),
    Column("at", Float, nullable=False),
)


#: The server processes sharing the database, each renewing its row while it runs
#: (``expires``: seconds since the epoch, by the database's clock).
processes_t = Table(
    "xtarot_processes",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("host", String(255), nullable=False),
    Column("pid", Integer, nullable=False),
    Column("address", String(255), nullable=True),
    Column("started", Float, nullable=False),
    Column("expires", Float, nullable=False),
)

#: Which process owns a live table (runs its bots and its move clock) until when.
leases_t = Table(
    "xtarot_leases",
    metadata,
    Column("table_id", String(32), ForeignKey("xtarot_tables.id"), primary_key=True),
    Column("owner", String(64), nullable=False, index=True),
    Column("expires", Float, nullable=False),
)


def default_url() -> str:
    """``sqlite:///<user data dir>/xtarot/tables.db`` (the folder is created)."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("xtarot", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'tables.db'}"


def hash_token(token: str) -> str:
    """The stored form of a seat token (SHA-256, hex)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class SeatSpec:
    """One seat: a human (reached with a secret token) or a bot by name.

    An *open* human seat (``open=True``) is offered in the lobby: it has no token until
    someone claims it, and then keeps the claimer's."""

    kind: str  # "human" or "bot"
    bot: str | None = None
    token_hash: str | None = None
    open: bool = False
    #: the display name its player gave (humans only)
    name: str | None = None
    #: the public id of the player identity that last held the seat (humans only)
    player: str | None = None

    @property
    def free(self) -> bool:
        """An open seat nobody has claimed yet."""
        return self.kind == "human" and self.open and self.token_hash is None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "bot": self.bot, "token_hash": self.token_hash}
        if self.open:
            out["open"] = True
        if self.name:
            out["name"] = self.name
        if self.player:
            out["player"] = self.player
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SeatSpec:
        return cls(
            data["kind"],
            data.get("bot"),
            data.get("token_hash"),
            bool(data.get("open")),
            data.get("name"),
            data.get("player"),
        )


@dataclass
class StoredTable:
    """A table as stored: enough to rebuild its exact position."""

    id: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    deals: list[dict[str, Any]]
    seats: list[SeatSpec]
    actions: list[str] = field(default_factory=list)
    created: float = 0.0
    finished: bool = False
    result: dict[str, Any] | None = None
    #: ``clock``: seconds per move before a bot plays for an absent human (None: no
    #: clock); ``listed``: shown in the lobby's list of open tables.
    settings: dict[str, Any] = field(default_factory=dict)

    def record(self) -> dict[str, Any]:
        """The match as an xtarot record (what :func:`xtarot.replay` reads)."""
        from xtarot.engine.core import RECORD_FORMAT, RECORD_VERSION

        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.game,
            "players": self.players,
            "options": dict(self.options),
            "seed": self.seed,
            "deals": self.deals,
            "actions": list(self.actions),
            "result": self.result,
        }


class Store:
    """Tables and their action logs in a SQL database (thread-safe via SQLAlchemy)."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_url()
        #: a local SQLite file: writes take well under a millisecond
        self.local = self.url.startswith("sqlite")
        kwargs: dict[str, Any] = {}
        if self.url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
        else:  # a database server may restart: a pooled connection is checked first
            kwargs["pool_pre_ping"] = True
            # moves are stored from worker threads (THREADS at once): concurrent commits
            # share the database's disk flushes.  A connection per thread is kept open:
            # a pool smaller than that opened and closed the rest as moves came in (a
            # quarter of the threads' time, and a PostgreSQL backend started for each)
            kwargs["pool_size"], kwargs["max_overflow"] = THREADS, 4
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        from xtarot.server.migrations import upgrade

        upgrade(self.engine)  # Alembic migrations; concurrent starts wait for each other
        self._insert_action = insert(actions_t)
        dialect = self.engine.dialect.name
        if dialect in ("postgresql", "sqlite"):
            from sqlalchemy.dialects.postgresql import insert as pg_insert
            from sqlalchemy.dialects.sqlite import insert as sqlite_insert

            new = (pg_insert if dialect == "postgresql" else sqlite_insert)(actions_t)
            self._insert_new_action: Any = new.on_conflict_do_nothing().returning(actions_t.c.n)
        else:  # pragma: no cover - the server runs on PostgreSQL or SQLite
            self._insert_new_action = None

    def close(self) -> None:
        self.engine.dispose()

    def create(
        self, table: StoredTable, *, then: Callable[[Connection, str], None] | None = None
    ) -> None:
        """Store a new table (``then(connection, table_id)``: more to store in the same
        transaction, e.g. its lease)."""
        with self.engine.begin() as conn:
            self._insert_table(conn, table)
            if then is not None:
                then(conn, table.id)

    @staticmethod
    def _insert_table(conn: Connection, table: StoredTable) -> None:
        now = time.time()
        conn.execute(
            insert(tables_t).values(
                id=table.id,
                game=table.game,
                players=table.players,
                options=json.dumps(table.options),
                seed=table.seed,
                deals=json.dumps(table.deals),
                seats=json.dumps([s.to_dict() for s in table.seats]),
                created=now,
                updated=now,
                finished=table.finished,
                result=None,
            )
        )
        for n, text in enumerate(table.actions):
            conn.execute(insert(actions_t).values(table_id=table.id, n=n, text=text, at=now))
        if table.settings:
            conn.execute(
                insert(settings_t).values(
                    table_id=table.id,
                    data=json.dumps(table.settings),
                    listed=bool(table.settings.get("listed")),
                )
            )

    def claim_seat(self, table_id: str, seat: int, token_hash: str) -> bool:
        """Give a free open seat its claimer's token hash; ``False`` if it was taken
        (the check and the write are one transaction)."""
        with self.engine.begin() as conn:
            row = conn.execute(
                select(tables_t.c.seats).where(tables_t.c.id == table_id).with_for_update()
            ).first()
            if row is None:
                return False
            seats = json.loads(row.seats)
            if not 0 <= seat < len(seats):
                return False
            spec = SeatSpec.from_dict(seats[seat])
            if not spec.free:
                return False
            spec.token_hash = token_hash
            seats[seat] = spec.to_dict()
            conn.execute(
                update(tables_t).where(tables_t.c.id == table_id).values(seats=json.dumps(seats))
            )
        return True

    def set_seat(self, table_id: str, seat: int, spec: SeatSpec) -> None:
        """Store one seat as it now is (a bot put in it, a new link)."""
        with self.engine.begin() as conn:
            row = conn.execute(
                select(tables_t.c.seats).where(tables_t.c.id == table_id).with_for_update()
            ).first()
            if row is None:
                return
            seats = json.loads(row.seats)
            if 0 <= seat < len(seats):
                seats[seat] = spec.to_dict()
                conn.execute(
                    update(tables_t)
                    .where(tables_t.c.id == table_id)
                    .values(seats=json.dumps(seats))
                )

    def edit_seat(self, table_id: str, seat: int, **fields: Any) -> SeatSpec | None:
        """Change some fields of one seat (its ``name``, ``player``) and leave the rest
        as stored (another server process may have changed them); returns the seat as
        now stored (``None``: no such table or seat)."""
        with self.engine.begin() as conn:
            row = conn.execute(
                select(tables_t.c.seats).where(tables_t.c.id == table_id).with_for_update()
            ).first()
            if row is None:
                return None
            seats = json.loads(row.seats)
            if not 0 <= seat < len(seats):
                return None
            spec = SeatSpec.from_dict(seats[seat])
            for key, value in fields.items():
                setattr(spec, key, value)
            seats[seat] = spec.to_dict()
            conn.execute(
                update(tables_t).where(tables_t.c.id == table_id).values(seats=json.dumps(seats))
            )
        return spec

    def seats(self, table_id: str) -> list[SeatSpec] | None:
        """A table's seats as stored (``None``: no such table)."""
        query = select(tables_t.c.seats).where(tables_t.c.id == table_id)
        with self.engine.connect() as conn:
            raw = conn.execute(query).scalar()
        return None if raw is None else [SeatSpec.from_dict(d) for d in json.loads(raw)]

    def settings(self, table_id: str) -> dict[str, Any]:
        """A table's settings as stored (``{}``: none)."""
        query = select(settings_t.c.data).where(settings_t.c.table_id == table_id)
        with self.engine.connect() as conn:
            raw = conn.execute(query).scalar()
        return json.loads(raw) if raw else {}

    def update_settings(self, table_id: str, **changes: Any) -> dict[str, Any]:
        """Change some of a table's settings (the host's choices, the rematch's id);
        returns them all."""
        with self.engine.begin() as conn:
            row = conn.execute(
                select(settings_t.c.data)
                .where(settings_t.c.table_id == table_id)
                .with_for_update()  # two processes changing two settings keep both
            ).first()
            data = {**(json.loads(row.data) if row is not None else {}), **changes}
            values = {"data": json.dumps(data), "listed": bool(data.get("listed"))}
            if row is None:
                conn.execute(insert(settings_t).values(table_id=table_id, **values))
            else:
                conn.execute(
                    update(settings_t).where(settings_t.c.table_id == table_id).values(**values)
                )
        return data

    def touch_player(self, player: str, name: str | None) -> None:
        """Remember a player identity (and its latest name) when it sits down."""
        now = time.time()
        with self.engine.begin() as conn:
            row = conn.execute(select(players_t.c.id).where(players_t.c.id == player)).first()
            if row is None:
                conn.execute(insert(players_t).values(id=player, name=name, created=now, seen=now))
            else:
                values: dict[str, Any] = {"seen": now}
                if name:
                    values["name"] = name
                conn.execute(update(players_t).where(players_t.c.id == player).values(**values))

    def add_chat(self, table_id: str, message: dict[str, Any]) -> None:
        """Store one chat message (``n``, ``seat``, ``name``, ``text`` or ``phrase``);
        raises :class:`ChatTaken` when message ``n`` exists already (another server
        process stored it first)."""
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(chat_t).values(
                        table_id=table_id,
                        n=message["n"],
                        seat=message["seat"],
                        name=message.get("name"),
                        text=message.get("text"),
                        phrase=message.get("phrase"),
                        at=time.time(),
                    )
                )
        except IntegrityError as err:
            if _duplicate(err):
                raise ChatTaken(f"chat message {message['n']} of {table_id} exists") from None
            raise

    def chat(
        self, table_id: str, limit: int = 50, since: int | None = None
    ) -> list[dict[str, Any]]:
        """The latest ``limit`` chat messages of a table, oldest first (``since``: only
        those numbered ``since`` or later)."""
        query = select(chat_t).where(chat_t.c.table_id == table_id)
        if since is not None:
            query = query.where(chat_t.c.n >= since)
        query = query.order_by(chat_t.c.n.desc()).limit(limit)
        with self.engine.connect() as conn:
            rows = list(conn.execute(query))
        out = []
        for row in reversed(rows):
            item: dict[str, Any] = {"n": row.n, "seat": row.seat, "name": row.name}
            if row.phrase is not None:
                item["phrase"] = row.phrase
            else:
                item["text"] = row.text
            out.append(item)
        return out

    def chat_count(self, table_id: str) -> int:
        """How many chat messages a table has (the next message's number)."""
        query = select(chat_t.c.n).where(chat_t.c.table_id == table_id).order_by(chat_t.c.n.desc())
        with self.engine.connect() as conn:
            last = conn.execute(query.limit(1)).scalar()
        return 0 if last is None else int(last) + 1

    def last_move_at(self, table_id: str) -> float | None:
        """When the table's latest move was made (``time.time()``), or ``None``."""
        query = select(actions_t.c.at).where(actions_t.c.table_id == table_id)
        with self.engine.connect() as conn:
            return conn.execute(query.order_by(actions_t.c.n.desc()).limit(1)).scalar()

    def overdue(self, now: float, min_clock: int) -> list[str]:
        """Unfinished, open tables with a move clock of at least ``min_clock`` seconds
        that ran out: their latest move (or their creation) is older than the clock."""
        query = (
            select(tables_t.c.id, tables_t.c.created, settings_t.c.data)
            .join(settings_t, settings_t.c.table_id == tables_t.c.id)
            .where(tables_t.c.finished.is_(False))
        )
        last = (
            select(actions_t.c.table_id, func.max(actions_t.c.at).label("at"))
            .group_by(actions_t.c.table_id)
            .subquery()
        )
        query = query.add_columns(last.c.at).join(
            last, last.c.table_id == tables_t.c.id, isouter=True
        )
        out = []
        with self.engine.connect() as conn:
            for row in conn.execute(query):
                data = json.loads(row.data)
                clock = data.get("clock")
                if not isinstance(clock, int) or clock < min_clock or data.get("closed"):
                    continue
                if (row.at or row.created) + clock <= now:
                    out.append(row.id)
        return out

    def unfinished_bot_only(self) -> list[str]:
        """Ids of unfinished tables with bots in every seat, oldest first."""
        query = (
            select(tables_t.c.id, tables_t.c.seats)
            .where(tables_t.c.finished.is_(False))
            .order_by(tables_t.c.created)
        )
        with self.engine.connect() as conn:
            rows = list(conn.execute(query))
        return [
            row.id for row in rows if all(s.get("kind") == "bot" for s in json.loads(row.seats))
        ]

    def listed(self, limit: int = 50) -> list[str]:
        """Ids of unfinished tables listed in the lobby, newest first."""
        query = (
            select(tables_t.c.id)
            .join(settings_t, settings_t.c.table_id == tables_t.c.id)
            .where(settings_t.c.listed.is_(True), tables_t.c.finished.is_(False))
            .order_by(tables_t.c.created.desc())
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return list(conn.execute(query).scalars())

    def append(
        self,
        table_id: str,
        n: int,
        text: str,
        *,
        deals: list[dict[str, Any]] | None = None,
        result: dict[str, Any] | None = None,
        at: float | None = None,
        notify: str | None = None,
    ) -> None:
        """Log action number ``n`` (0-based); store new deals and the final result.

        Raises :class:`MoveTaken` when the table has an action ``n`` already (another
        server process appended it first): nothing is stored then.  ``notify``: a
        payload sent on :data:`CHANNEL` once the move is committed (see :meth:`notify`:
        never for a move that was not stored)."""
        now = time.time() if at is None else at
        move = {"deals": deals, "result": result}
        with self.engine.connect() as conn:
            try:
                with conn.begin():
                    conn.execute(
                        self._insert_action, {"table_id": table_id, "n": n, "text": text, "at": now}
                    )
                    self._after_insert(conn, table_id, n, now, move)
            except IntegrityError as err:
                if _duplicate(err):
                    raise MoveTaken(f"table {table_id} has a move {n} already") from None
                raise
            if notify is not None:
                self._announce(conn, [notify])

    def append_many(self, moves: list[dict[str, Any]]) -> list[MoveTaken | None]:
        """Several tables' moves (each the keyword arguments of :meth:`append`) in one
        transaction, so one commit (one disk flush) and one worker thread for them all:
        what the server does with the moves that arrive while the event loop is busy
        (:class:`xtarot.server.writer.MoveWriter`).  Returns, per move, ``None`` (stored)
        or a :class:`MoveTaken` (move ``n`` of that table existed: nothing of it is
        stored, the others are).  Raises when the transaction fails: then none is.

        A move that exists is skipped (``ON CONFLICT DO NOTHING``) rather than failing
        the transaction, and the moves are inserted in the order of their keys, so two
        processes' transactions cannot wait for each other's rows in a cycle."""
        order = sorted(range(len(moves)), key=lambda i: (moves[i]["table_id"], moves[i]["n"]))
        outcomes: list[MoveTaken | None] = [None] * len(moves)
        notes: list[str] = []
        with self.engine.connect() as conn:
            with conn.begin():
                for i in order:
                    move = moves[i]
                    table_id, n = move["table_id"], move["n"]
                    now = time.time() if move.get("at") is None else move["at"]
                    row = {"table_id": table_id, "n": n, "text": move["text"], "at": now}
                    if conn.execute(self._insert_new_action, row).first() is None:
                        outcomes[i] = MoveTaken(f"table {table_id} has a move {n} already")
                        continue
                    self._after_insert(conn, table_id, n, now, move)
                    if move.get("notify") is not None:
                        notes.append(move["notify"])
            if notes:
                self._announce(conn, notes)
        return outcomes

    def _after_insert(
        self, conn: Connection, table_id: str, n: int, now: float, move: dict[str, Any]
    ) -> None:
        """The table's row after a move just inserted (its deals, its result)."""
        values: dict[str, Any] = {"updated": now}
        if move.get("deals") is not None:
            values["deals"] = json.dumps(move["deals"])
        if move.get("result") is not None:
            values["finished"] = True
            values["result"] = json.dumps(move["result"])
        if len(values) > 1 or n % 16 == 0:  # the timestamp needs no update per move
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(**values))

    @staticmethod
    def _announce(conn: Connection, payloads: list[str]) -> None:
        """Right after their commit, on the same connection: the notifications of the
        moves just stored (see :meth:`notify`).  A failure is logged, not raised: the
        moves are stored, and the other processes find them when they next compare the
        tables' heads (a lease renewal, every few seconds)."""
        try:
            with conn.begin():
                _notify_all(conn, payloads)
        except Exception as err:
            log.warning("moves stored but not announced to the other processes (%s)", err)

    def notify(self, *payloads: str) -> None:
        """Send each payload on :data:`CHANNEL`, in order (PostgreSQL only), in a
        transaction of its own that does not wait for the disk.

        Moves are announced this way too, after their commit, not inside it: PostgreSQL
        lets one transaction that notifies commit at a time (a database-wide lock held
        from just before its commit until the commit is done), so a move's notification
        sent in the move's own transaction made every process's moves wait in one line
        for one disk flush after another: a few hundred moves a second at best, a few
        dozen when the disk is busy.  Committed first, moves share flushes; nothing in
        the notifying transaction needs to reach the disk, so the lock is held only for
        an instant.  A notification is so never sent for a move that is not stored; one
        lost with a crash is made good by the next comparison of heads."""
        with self.engine.begin() as conn:
            _notify_all(conn, list(payloads))

    def moves_since(
        self, table_id: str, n: int
    ) -> tuple[list[tuple[str, float]], list[dict[str, Any]]]:
        """A table's actions from number ``n`` on (text and time), then its deals (read
        after the actions, so they include every deal those actions need)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(actions_t.c.text, actions_t.c.at)
                .where(actions_t.c.table_id == table_id, actions_t.c.n >= n)
                .order_by(actions_t.c.n)
            ).all()
            deals = conn.execute(select(tables_t.c.deals).where(tables_t.c.id == table_id)).scalar()
        return [(r.text, r.at) for r in rows], json.loads(deals) if deals else []

    def heads(self, table_ids: list[str]) -> dict[str, int]:
        """How many actions each of these tables has stored (tables without any: 0)."""
        if not table_ids:
            return {}
        query = (
            select(actions_t.c.table_id, func.max(actions_t.c.n))
            .where(actions_t.c.table_id.in_(table_ids))
            .group_by(actions_t.c.table_id)
        )
        with self.engine.connect() as conn:
            found = {row[0]: int(row[1]) + 1 for row in conn.execute(query)}
        return {t: found.get(t, 0) for t in table_ids}

    def vote_rematch(
        self,
        table_id: str,
        seat: int,
        token_hash: str,
        humans: list[int],
        build: Callable[[dict[int, str]], tuple[StoredTable, dict[int, int]]],
    ) -> tuple[dict[str, Any], StoredTable | None]:
        """Record ``seat``'s vote for a rematch (``token_hash``: the hash of its token at
        the new table); when every one of ``humans`` has voted and no rematch exists
        yet, ``build(votes)`` makes the new table (and where each old seat sits there),
        which is stored in the same transaction, so that exactly one rematch is made
        whichever server processes the votes reach.  Returns the old table's settings
        after the vote and the new table if this call made it."""
        with self.engine.begin() as conn:
            row = conn.execute(
                select(settings_t.c.data).where(settings_t.c.table_id == table_id).with_for_update()
            ).first()
            data = json.loads(row.data) if row is not None else {}
            made = None
            if data.get("rematch") is None:
                votes = {int(k): v for k, v in (data.get("votes") or {}).items()}
                votes[seat] = token_hash
                data["votes"] = {str(k): v for k, v in sorted(votes.items())}
                if set(votes) >= set(humans):
                    made, moved = build(votes)
                    self._insert_table(conn, made)
                    data["rematch"], data["moved"] = made.id, {str(k): v for k, v in moved.items()}
            values = {"data": json.dumps(data), "listed": bool(data.get("listed"))}
            if row is None:
                conn.execute(insert(settings_t).values(table_id=table_id, **values))
            else:
                conn.execute(
                    update(settings_t).where(settings_t.c.table_id == table_id).values(**values)
                )
        return data, made

    def load(self, table_id: str) -> StoredTable | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).first()
            if row is None:
                return None
            texts = conn.execute(
                select(actions_t.c.text)
                .where(actions_t.c.table_id == table_id)
                .order_by(actions_t.c.n)
            ).scalars()
            actions = list(texts)
            extra = conn.execute(
                select(settings_t.c.data).where(settings_t.c.table_id == table_id)
            ).scalar()
        return StoredTable(
            id=row.id,
            game=row.game,
            players=row.players,
            options=json.loads(row.options),
            seed=row.seed,
            deals=json.loads(row.deals),
            seats=[SeatSpec.from_dict(s) for s in json.loads(row.seats)],
            actions=actions,
            created=row.created,
            finished=bool(row.finished),
            result=json.loads(row.result) if row.result else None,
            settings=json.loads(extra) if extra else {},
        )

    def ids(self, *, finished: bool | None = None) -> list[str]:
        query = select(tables_t.c.id).order_by(tables_t.c.created)
        if finished is not None:
            query = query.where(tables_t.c.finished == finished)
        with self.engine.connect() as conn:
            return list(conn.execute(query).scalars())


#: Notifications in order, in one statement of a transaction that does not wait for
#: its commit to reach the disk (it writes nothing but the notifications).
_NOTIFY_ALL = sql(
    "SELECT pg_notify(:channel, payload) FROM "
    "(SELECT set_config('synchronous_commit', 'off', true)) AS no_flush, "
    "unnest(CAST(:payloads AS text[])) AS payload"
)


def _notify_all(conn: Connection, payloads: list[str]) -> None:
    conn.execute(_NOTIFY_ALL, {"channel": CHANNEL, "payloads": payloads})


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.close()
