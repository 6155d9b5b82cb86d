"""Live tables: positions in memory, websocket clients, bots, hints and persistence.

The :class:`Hub` owns every table that is loaded.  A table is created with a seat list
(humans and bots); each human seat gets a secret token, of which only a hash is
stored.  Clients talk to a table over one websocket each (see ``docs/web.md`` for the
protocol).  Every change of position goes through :meth:`Hub.act`: the engine
validates the action (``state.apply`` raises :class:`xtarot.IllegalAction` and leaves
the state unchanged), the action is appended to the table's log in the database, and
then every client is sent *its own* view — ``state.view(seat)`` for a seat,
``state.public_view()`` for a spectator — and nothing else about the position.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import xtarot
from xtarot.agents import AGENTS, Agent, RandomAgent, decision_for, make_agent
from xtarot.agents.heuristic import STRATEGIES
from xtarot.engine import Action, ConfigError, IllegalAction, RecordError, State
from xtarot.server import rematch
from xtarot.server.botpool import SEARCHING, BotPool
from xtarot.server.lease import LEASE_SECONDS
from xtarot.server.people import (
    CHAT_KEEP,
    PHRASES,
    clean_chat,
    clean_name,
)
from xtarot.server.ratings import rate_match, table_results
from xtarot.server.store import ChatTaken, MoveTaken, SeatSpec, Store, StoredTable, hash_token
from xtarot.server.table import (
    LOG_SIZE,
    MAX_CLOCK,
    MAX_MESSAGE,
    MAX_REFUSALS,
    MAX_SEED,
    MIN_CLOCK,
    RATE_BURST,
    RATE_PER_SECOND,
    RETRY_AWAY,
    TURN_BASED,
    Connection,
    Fetched,
    Limits,
    LiveTable,
    LogEntry,
    RateLimiter,
    TableError,
    Unavailable,
    close_later,
    log_entry,
    replay_with_log,
    to_json,
)
from xtarot.server.writer import MoveWriter

if TYPE_CHECKING:
    from xtarot.server.cluster import Cluster

__all__ = [  # the table's pieces (xtarot.server.table) are named here too
    "LOG_SIZE",
    "MAX_MESSAGE",
    "MAX_REFUSALS",
    "RATE_BURST",
    "RATE_PER_SECOND",
    "TURN_BASED",
    "Connection",
    "Hub",
    "Limits",
    "LiveTable",
    "LogEntry",
    "TableError",
    "Unavailable",
    "hint_agent",
    "log_entry",
    "replay_with_log",
    "stand_in_agent",
]

log = logging.getLogger("xtarot.server")


def _bot_settings(name: str, seconds: float) -> dict[str, Any]:
    """A search bot's thinking time: the server's ``bot_seconds`` (the ``hard`` level
    thinks for it too; it runs in a worker thread like every bot, so a table waits
    for it but other tables do not)."""
    return {"seconds": seconds} if name in ("ismcts", "pimc", "expert", "hard") else {}


def hint_agent(game_id: str, seed: int | None, seconds: float) -> Agent:
    """The hint bot: the game's heuristic when there is one, else a short ISMCTS."""
    if game_id in STRATEGIES:
        return make_agent("heuristic", seed)
    return make_agent("ismcts", seed, seconds=seconds)


def stand_in_agent(game_id: str, seed: int) -> Agent:
    """The bot that moves for a human whose clock ran out: quick and sensible (the
    game's heuristic, else random)."""
    return make_agent("heuristic" if game_id in STRATEGIES else "random", seed)


class Hub:
    """Every loaded table, the database behind them, and the bots' pace."""

    def __init__(
        self,
        store: Store,
        *,
        bot_delay: float = 0.6,
        bot_seconds: float = 1.0,
        hint_seconds: float = 0.5,
        rate: tuple[float, float] = (RATE_PER_SECOND, RATE_BURST),
        limits: Limits | None = None,
        bot_processes: int = 0,
        cluster: bool | None = None,
        lease_seconds: float = LEASE_SECONDS,
        address: str | None = None,
    ) -> None:
        self.store = store
        self.rate = rate
        self.limits = limits or Limits()
        self.creators: dict[str, RateLimiter] = {}  # client address -> table creation bucket
        self.bot_delay = bot_delay
        self.bot_seconds = bot_seconds
        self.hint_seconds = hint_seconds
        self.tables: dict[str, LiveTable] = {}
        self._opening: dict[str, asyncio.Future[Fetched | None]] = {}
        #: searching bots think in these worker processes (None: in threads)
        self.pool = BotPool(bot_processes) if bot_processes > 0 else None
        #: stores moves on a database server, a batch per pass of the event loop
        self.writer = MoveWriter(store)
        self.audit = False  # tests: keep every payload sent per connection
        #: several server processes share this database (PostgreSQL): who owns which
        #: table, and what the others changed (None: this process is the only one)
        self.cluster: Cluster | None = None
        if cluster is None:
            cluster = store.engine.dialect.name == "postgresql"
        if cluster:
            from xtarot.server.cluster import Cluster

            self.cluster = Cluster(self, lease_seconds=lease_seconds, address=address)

    # -- creating and loading ----------------------------------------------------------
    def create(
        self,
        game_id: str,
        players: int | None,
        options: dict[str, Any],
        seats: list[str],
        seed: int | None = None,
        *,
        clock: int | None = None,
        listed: bool | None = None,
        host: str | None = None,
        tokens: dict[int, str] | None = None,
        learn: bool = False,
    ) -> tuple[LiveTable, dict[int, str]]:
        """A new table; returns it and the secret token of every human seat.

        A seat is ``"human"`` (a join link), ``"open"`` (a human seat anyone can claim
        from the lobby) or a bot name.  ``clock``: seconds a human has per move before a
        bot plays that move (and, while the player is away, the next ones); ``listed``
        shows the table in the lobby (default: when it has an open seat); ``host``: the
        public id of the creator's player identity (:func:`~xtarot.server.people.player_id`),
        who may then manage the table; ``tokens``: the human seats' tokens when they are
        already known (a rematch's derive from the old table's); ``learn``: a learn
        table (:mod:`xtarot.server.learn`: the page coaches, the match is not rated)."""
        stored, state, tokens = self._prepare(
            game_id,
            players,
            options,
            seats,
            seed,
            clock=clock,
            listed=listed,
            host=host,
            tokens=tokens,
            learn=learn,
        )
        # with other processes: this one runs the new table (its lease is stored with it)
        lease = None if self.cluster is None else self.cluster.leases.take
        self.store.create(stored, then=lease)
        return self._register(stored, state, leased=lease is not None), tokens

    def _register(self, stored: StoredTable, state: State, *, leased: bool = False) -> LiveTable:
        """A table just stored, now live in this process (``leased``: its lease was
        stored with it)."""
        table = self._live(stored, state)
        self.tables[stored.id] = table
        if self.cluster is not None and leased:
            self.cluster.owned.add(stored.id)
        elif self.cluster is not None:
            self.cluster.loaded(table, ask=False)
        return table

    def _prepare(
        self,
        game_id: str,
        players: int | None,
        options: dict[str, Any],
        seats: list[str],
        seed: int | None = None,
        *,
        clock: int | None = None,
        listed: bool | None = None,
        host: str | None = None,
        tokens: dict[int, str] | None = None,
        token_hashes: dict[int, str] | None = None,
        learn: bool = False,
    ) -> tuple[StoredTable, State, dict[int, str]]:
        """A new table as it is to be stored (checked as :meth:`create` says), its
        first position and its human seats' tokens (``token_hashes``: human seats
        whose token only the players know: a rematch's)."""
        if clock is not None and (
            isinstance(clock, bool)
            or not isinstance(clock, int)
            or not MIN_CLOCK <= clock <= MAX_CLOCK
        ):
            raise TableError(
                f"clock must be a whole number of seconds from {MIN_CLOCK} to {MAX_CLOCK}, "
                "or null for no clock"
            )
        if listed is not None and not isinstance(listed, bool):
            raise TableError("listed must be true or false")
        if seed is not None and (
            isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < MAX_SEED
        ):
            raise TableError(f"seed must be a whole number from 0 to {MAX_SEED - 1}")
        for name, value in options.items():
            if isinstance(value, int) and not isinstance(value, bool):
                cap = self.limits.cap(name)
                if value > cap:
                    raise TableError(
                        f"option {name}={value} is too large for this server (at most {cap})"
                    )
        infos = {i.id: i for i in xtarot.games()}
        if game_id not in infos:
            raise TableError(f"unknown game {game_id!r}; games: {', '.join(infos)}")
        if players is None:
            players = len(seats) if seats else infos[game_id].min_players
        try:
            game = xtarot.load(game_id, players=players, **options)
        except ConfigError as err:
            raise TableError(str(err)) from None
        if len(seats) != game.players:
            raise TableError(f"{game_id} with {game.players} players needs {game.players} seats")
        specs: list[SeatSpec] = []
        given = tokens or {}
        hashed = token_hashes or {}
        tokens = {}
        for i, kind in enumerate(seats):
            if kind == "human" and i in hashed:
                specs.append(SeatSpec("human", None, hashed[i]))
            elif kind == "human":
                tokens[i] = given.get(i) or secrets.token_urlsafe(18)
                specs.append(SeatSpec("human", None, hash_token(tokens[i])))
            elif kind == "open":
                specs.append(SeatSpec("human", None, None, open=True))
            elif kind in AGENTS:
                if kind == "heuristic" and game_id not in STRATEGIES:
                    raise TableError(
                        f"no heuristic bot for {game_id} yet; choose "
                        + ", ".join(a for a in AGENTS if a != "heuristic")
                    )
                specs.append(SeatSpec("bot", kind))
            else:
                raise TableError(
                    f"seat {i}: {kind!r} is neither 'human', 'open' nor a bot ({', '.join(AGENTS)})"
                )
        if all(sp.kind == "bot" for sp in specs):
            playing = sum(1 for t in self.tables.values() if t.bot_only and not t.state.is_terminal)
            if playing >= self.limits.max_bot_tables:
                raise TableError(
                    f"this server runs at most {self.limits.max_bot_tables} bots-only tables at "
                    "once; wait for one to finish or seat a human"
                )
        self._make_room()
        state = game.new_state(seed=seed)
        table_id = secrets.token_urlsafe(9)
        stored = StoredTable(
            id=table_id,
            game=game.id,
            players=game.players,
            options=dict(game.options),
            seed=state.seed,
            deals=list(state.deals),
            seats=specs,
            settings={
                "clock": clock,
                "listed": any(sp.open for sp in specs) if listed is None else listed,
                "host": host,
            }
            | ({"learn": True} if learn else {}),
        )
        return stored, state, tokens

    def _live(self, stored: StoredTable, state: State) -> LiveTable:
        table = LiveTable(stored.id, state.game, state, stored.seats, len(state.deals))
        settings = stored.settings
        table.clock = settings.get("clock")
        table.listed = bool(settings.get("listed"))
        table.host = settings.get("host")
        table.muted = set(settings.get("muted") or [])
        table.spectator_chat = bool(settings.get("spectator_chat"))
        table.shuffle = bool(settings.get("shuffle"))
        table.closed = bool(settings.get("closed"))
        table.learn = bool(settings.get("learn"))
        table.social.rematch = settings.get("rematch")
        table.social.moved = {int(k): v for k, v in (settings.get("moved") or {}).items()}
        table.social.votes = {int(k): v for k, v in (settings.get("votes") or {}).items()}
        for i, spec in enumerate(stored.seats):
            if spec.kind == "bot" and spec.bot:
                table.agents[i] = self.seat_agent(spec.bot, stored.seed, i, len(stored.actions))
        return table

    def seat_agent(self, name: str, seed: int, seat: int, n: int) -> Agent:
        """The bot ``name`` for ``seat`` of a match with ``seed``, taking over at move
        ``n`` (its seed derived from the three, so a table's bots are reproducible)."""
        return make_agent(
            name, (seed * 31 + seat * 7919 + n) % (2**63), **_bot_settings(name, self.bot_seconds)
        )

    def get(self, table_id: str) -> LiveTable | None:
        """A loaded table, loading it from the database (by replay) when needed."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if not isinstance(table_id, str) or len(table_id) > 32:
            return None
        fetched = self._fetch(table_id)
        return None if fetched is None else self._install(fetched)

    async def open(self, table_id: str) -> LiveTable | None:
        """:meth:`get` for a client arriving: on a database server the reading is done
        in a worker thread (many clients arriving at once must not hold up every other
        table), once per table however many arrive together."""
        table = self.tables.get(table_id)
        if table is not None or self.store.local:
            return table or self.get(table_id)
        if not isinstance(table_id, str) or len(table_id) > 32:
            return None
        pending = self._opening.get(table_id)
        if pending is None:
            pending = asyncio.ensure_future(asyncio.to_thread(self._fetch, table_id))
            self._opening[table_id] = pending
            pending.add_done_callback(lambda _: self._opening.pop(table_id, None))
        fetched = await asyncio.shield(pending)
        table = self.tables.get(table_id)  # another client's arrival loaded it meanwhile
        if table is not None or fetched is None:
            return table
        return self._install(fetched)

    def _fetch(self, table_id: str) -> Fetched | None:
        """What loading a table reads from the database (any thread)."""
        stored = self.store.load(table_id)
        if stored is None:
            return None
        return Fetched(
            stored,
            self.store.chat(table_id, CHAT_KEEP),
            self.store.chat_count(table_id),
            self.store.last_move_at(table_id) or stored.created,
            table_results(self.store, table_id) if stored.finished else [],
        )

    def _install(self, fetched: Fetched) -> LiveTable | None:
        """A table read from the database, replayed into memory."""
        stored = fetched.stored
        self._make_room()
        try:
            state, moves = replay_with_log(stored.record())
        except RecordError as err:  # e.g. a rule changed since the table was stored
            log.error("table %s cannot be resumed: %s", stored.id, err)
            return None
        table = self._live(stored, state)
        table.log = moves
        table.social.chat, table.social.chat_n = fetched.chat, fetched.chat_n
        table.moved_at = fetched.moved_at
        if table.state.is_terminal:
            table.results = fetched.results
        self.tables[stored.id] = table
        if self.cluster is not None:
            self.cluster.loaded(table)
        return table

    def owns(self, table: LiveTable) -> bool:
        """Whether this process runs the table's bots and move clock: always, unless
        several processes share the database and another one holds its lease."""
        return self.cluster is None or table.id in self.cluster.owned

    def unload(self, table_id: str) -> None:
        """Drop a table from memory (it stays in the database)."""
        table = self.tables.pop(table_id, None)
        if table is None:
            return
        if table.clock_task is not None:  # a turn-based clock: the sweep takes over
            table.clock_task.cancel()
        if self.cluster is not None:
            self.cluster.unloaded(table)

    def _make_room(self) -> None:
        """Unload idle tables if memory holds the most allowed; else refuse."""
        if len(self.tables) < self.limits.max_live_tables:
            return
        self.unload_idle(0.0)
        if len(self.tables) >= self.limits.max_live_tables:
            raise TableError(
                f"the server is full ({self.limits.max_live_tables} tables in play); "
                "try again later"
            )

    def unload_idle(self, idle: float | None = None) -> int:
        """Drop from memory the tables nobody is connected to and nothing runs on, idle
        for ``idle`` seconds (default: the limit); they stay in the database and load
        again on demand.  Returns how many were unloaded."""
        idle = self.limits.idle_unload if idle is None else idle
        now = time.monotonic()
        gone = [
            t.id
            for t in self.tables.values()
            if t.unused and not t.busy and now - t.last_active >= idle
        ]
        for table_id in gone:
            self.unload(table_id)
        return len(gone)

    def wake_overdue(self) -> list[str]:
        """Turn-based tables not in memory whose move clock has run out: load them, so
        that the bot plays the move (called by the server's sweep)."""
        woken = []
        for table_id in self.store.overdue(time.time(), TURN_BASED):
            if table_id in self.tables:
                continue
            try:
                table = self.get(table_id)
            except TableError:
                break  # full: the next sweep tries again
            if table is not None and not self.owns(table):
                self._let_go(table)  # another server process runs it
            elif table is not None and not table.state.is_terminal:
                self.wake_bots(table)
                woken.append(table_id)
        return woken

    def _let_go(self, table: LiveTable) -> None:
        """A table loaded to be run that another server process runs: out of memory
        again unless someone here is at it."""
        if table.unused:
            self.unload(table.id)

    def resume_bot_tables(self) -> list[str]:
        """At start-up: tables with bots in every seat go on playing (up to the limit)."""
        resumed: list[str] = []
        for table_id in self.store.unfinished_bot_only():
            if len(resumed) >= self.limits.max_bot_tables:
                break
            try:
                table = self.get(table_id)
            except TableError:
                break
            if table is not None and not self.owns(table):
                self._let_go(table)
            elif table is not None and not table.state.is_terminal:
                self.wake_bots(table)
                resumed.append(table_id)
        return resumed

    def allow_creation(self, client: str) -> bool:
        """The table-creation rate limit of one client address."""
        bucket = self.creators.get(client)
        if bucket is None:
            if len(self.creators) > 10_000:
                self.creators.clear()  # bounded memory; a flood starts over
            bucket = self.creators[client] = RateLimiter(
                self.limits.tables_per_minute / 60.0, self.limits.table_burst
            )
        return bucket.allow()

    def record(self, table_id: str) -> dict[str, Any] | None:
        """The record of a finished match (``None`` if unknown or still being played)."""
        table = self.get(table_id)
        if table is None or not table.state.is_terminal:
            return None
        meta = {
            "client": "xtarot serve",
            "xtarot": xtarot.__version__,
            "table": table.id,
            "seats": [s.bot or "human" for s in table.seats],
        }
        return table.state.record(meta)

    # -- playing -----------------------------------------------------------------------
    def state_text(
        self, table: LiveTable, seat: int | None, common: dict[str, str] | None = None
    ) -> str:
        """The state message ``seat`` (``None``: a spectator) is sent, as JSON text: the
        table, its seats, the seat's view, its latest moves as the seat saw them, the
        clock, the rematch, the settings and, once finished, the results.  Made from
        parts: the view is read without its copy (it is made into text at once), each
        log entry is made into text once, and ``common`` (:meth:`common_parts`) holds
        the parts every seat is sent (tests/test_server.py holds it to the plain JSON
        of the same message, field by field)."""
        parts = common if common is not None else self.common_parts(table)
        state = table.state
        view = state.peek_view(seat) if seat is not None else state.peek_public_view()
        return (
            f'{{"type":"state","table":{parts["table"]},"n":{table.n},'
            f'"seat":{to_json(seat)},"seats":{parts["seats"]},'
            f'"finished":{parts["finished"]},"view":{to_json(view)},'
            f'"log":{table.log_text(seat)},"clock":{parts["clock"]},'
            f'"rematch":{parts["rematch"]},"settings":{parts["settings"]},'
            f'"results":{parts["results"]}}}'
        )

    def common_parts(self, table: LiveTable) -> dict[str, str]:
        """The parts of :meth:`state_text` that are the same for every seat, as text."""
        finished = table.state.is_terminal
        return {
            "table": to_json(table.id),
            "seats": to_json(table.seat_info()),
            "finished": to_json(finished),
            "clock": to_json(table.clock_info()),
            "rematch": to_json(table.rematch_info()),
            "settings": to_json(table.settings()),
            "results": to_json(table.results if finished else None),
        }

    def broadcast(self, table: LiveTable) -> None:
        """Send each client its own view (made once per seat)."""
        cache: dict[int | None, str] = {}
        common: dict[str, str] | None = None
        for conn in list(table.conns):
            if not conn.joined:
                continue
            if conn.seat not in cache:
                common = common or self.common_parts(table)
                cache[conn.seat] = self.state_text(table, conn.seat, common)
            conn.push_text(cache[conn.seat])

    async def act(
        self,
        table: LiveTable,
        seat: int,
        text: str,
        n: int | None = None,
        *,
        wake: bool = True,
        clock: bool = False,
    ) -> str:
        """Apply ``text`` for ``seat``; persist, broadcast, wake the bots.  Returns the
        canonical action text.  Raises :class:`IllegalAction` / :class:`TableError`.
        ``clock``: the move clock ran out and a bot plays this move for the player (the
        log entry says so).

        With several server processes on one database, the move is stored only as
        move ``n`` of the table: when another process stored that move first, this one
        loads what it missed and tries again on the new position (a move for an
        explicit position ``n`` is then refused: the game moved on)."""
        cluster = self.cluster
        for _ in range(3):
            if cluster is not None and n is not None and n > table.n:
                await cluster.catch_up(table)  # the client was shown it by another process
            done = await self._act(table, seat, text, n, clock)
            if done is not None:
                break
            assert cluster is not None
            await cluster.catch_up(table)
        else:
            raise TableError("other moves at this table came first; try again")
        if wake:
            self.wake_bots(table)
        return done

    async def _act(
        self, table: LiveTable, seat: int, text: str, n: int | None, clock: bool
    ) -> str | None:
        """One try of :meth:`act` (``None``: another process stored this move first,
        and the table is as it was)."""
        async with table.lock:
            state = table.state
            if state.is_terminal:
                raise TableError("the match is over")
            if table.closed:
                raise TableError("the host closed this table")
            if n is not None and n != table.n:
                raise TableError(
                    f"that move was for position {n}, but the table is at {table.n}: "
                    "the game moved on"
                )
            if state.current_player != seat:
                raise TableError(f"it is seat {state.current_player}'s turn, not seat {seat}'s")
            index = table.n
            try:
                resolved = state.game.action(text)
            except IllegalAction:
                resolved = None
            entry = (
                log_entry(state, resolved)
                if resolved is not None and resolved in state.legal_actions()
                else None
            )
            if clock and entry is not None:
                entry = replace(entry, clock=True)
            # A local SQLite file stores the move at once (no await): it is made on the
            # table's position.  A database server takes a while, during which clients may
            # be sent the position: the move is made on a copy, which becomes the table's
            # position once stored (nobody is shown a move the database does not have).
            local = self.store.local
            after = state if local else state.clone()
            # the resolved action when it is legal (no second parse); else the text, which
            # raises IllegalAction with the reason and leaves the state unchanged
            action = after.apply(resolved if entry is not None else text)
            if local and entry is not None:
                table.log.append(entry)
            deals = list(after.deals) if len(after.deals) != table.deals_stored else None
            result = after.scores().to_dict() if after.is_terminal else None
            at = time.time()
            try:
                if local:  # a local SQLite commit is quicker than a thread hop
                    self.store.append(table.id, index, action.text, deals=deals, result=result)
                else:
                    note = None
                    if self.cluster is not None:
                        note = self.cluster.move_note(table, index, action.text, at, clock, deals)
                    await self.writer.append(
                        table.id,
                        index,
                        action.text,
                        deals=deals,
                        result=result,
                        at=at,
                        notify=note,
                    )
            except Exception as err:
                if not local and isinstance(err, MoveTaken):
                    if self.cluster is not None:
                        return None  # the table is as it was: the caller catches up, retries
                    raise TableError("another server stored a move here first") from None
                if not local:  # the table is as it was
                    log.warning("could not store move %s of table %s: %s", index, table.id, err)
                    raise Unavailable(
                        "the database is unavailable: that move was not saved; "
                        "try again in a moment"
                    ) from None
                # Keep memory and database in step: rebuild the position from the log.
                log.exception("could not store action %s of table %s", index, table.id)
                stored = self.store.load(table.id)
                if stored is not None:
                    table.state, table.log = replay_with_log(stored.record())
                raise TableError("the server could not save that move; try again") from None
            if not local:
                table.state = after
                if entry is not None:
                    table.log.append(entry)
            if deals is not None:
                table.deals_stored = len(deals)
            table.moved_at = at
            if result is not None:
                await self._rate(table, result)
            table.last_active = time.monotonic()
            self._set_clock(table)  # the next human's clock goes out with this state
            self.broadcast(table)
        return action.text

    async def _rate(self, table: LiveTable, result: dict[str, Any]) -> None:
        """Rate the finished match (a failure is logged: the match itself is saved);
        a learn table's is not rated."""
        if table.learn:
            return
        args = (self.store, table.id, table.game.id, table.seats, result)
        try:
            if self.store.local:
                table.results = rate_match(*args)
            else:
                table.results = await asyncio.to_thread(rate_match, *args)
        except Exception:
            log.exception("could not rate the match of table %s", table.id)
        self.tell(table, "results")

    def _stand_in(self, table: LiveTable, seat: int) -> Agent | None:
        """Who plays for ``seat`` now: its bot, or a stand-in while its player is away."""
        if seat in table.agents:
            return table.agents[seat]
        if seat in table.autopilot and seat not in table.online():
            if seat not in table.stand_ins:
                table.stand_ins[seat] = stand_in_agent(table.game.id, table.n * 13 + seat)
            return table.stand_ins[seat]
        return None

    def wake_bots(self, table: LiveTable) -> None:
        """Start the table's bot loop if a bot is to act and none is running; start
        (or stop) the move clock of a human to act.  With several server processes,
        only the table's owner runs its bots and clock (the others show the clock)."""
        self._set_clock(table)
        seat = table.state.current_player
        if seat is None or table.closed or not self.owns(table):
            return
        if self._stand_in(table, seat) is None:
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        table.bot_task = asyncio.get_running_loop().create_task(self._bots(table))

    def _set_clock(self, table: LiveTable) -> None:
        seat = table.state.current_player
        human = (
            seat is not None
            and table.clock is not None
            and not table.closed
            and self._stand_in(table, seat) is None
        )
        if human and table.clock_seat == seat and table.clock_n == table.n:
            return  # this move's clock is already running
        if table.clock_task is not None:
            table.clock_task.cancel()
            table.clock_task = None
        table.clock_seat = table.clock_deadline = None
        if not human or table.clock is None:
            return
        table.clock_seat, table.clock_n = seat, table.n
        # a short clock starts when the move is to be made here; a turn-based one at the
        # last move, wherever (and whenever) this table was loaded
        start = table.moved_at if table.turn_based else max(table.moved_at, table.loaded_at)
        seconds = max(0.0, start + table.clock - time.time())
        table.clock_deadline = time.monotonic() + seconds
        if self.owns(table):
            table.clock_task = asyncio.get_running_loop().create_task(
                self._clock(table, seat, table.n, seconds)  # type: ignore[arg-type]
            )

    async def _clock(self, table: LiveTable, seat: int, n: int, seconds: float) -> None:
        """The clock of ``seat`` for position ``n``: when it runs out, a bot moves."""
        await asyncio.sleep(seconds)
        if table.n != n or table.state.current_player != seat or not self.owns(table):
            return
        table.clock_task = None
        if seat not in table.online():
            table.autopilot.add(seat)  # away: the stand-in keeps playing until they return
        agent = stand_in_agent(table.game.id, n * 17 + seat)
        action = await self._choose(table, seat, agent)
        log.info(
            "table %s: seat %s's clock ran out; %s played %s", table.id, seat, agent.name, action
        )
        while True:
            try:
                await self.act(table, seat, action.text, n, clock=True)
            except Unavailable:  # the database is away: the same move again
                await asyncio.sleep(RETRY_AWAY)
                if table.n == n and self.owns(table):
                    continue
            except (IllegalAction, TableError):
                pass
            return

    async def _choose(self, table: LiveTable, seat: int, agent: Agent) -> Action:
        snapshot = table.state.clone()
        spec = table.seats[seat]
        try:
            # the snapshot is this move's own copy: an agent that only reads its view
            # may read the snapshot's (no copy of the view for it)
            peek = bool(getattr(agent, "reads_view_only", False))
            if agent.name == "random":
                return agent.act(decision_for(snapshot, peek=peek))
            if (
                self.pool is not None
                and spec.kind == "bot"
                and spec.bot in SEARCHING
                and table.agents.get(seat) is agent
            ):
                seed = (table.state.seed * 31 + seat * 7919 + table.n * 104729) % (2**63)
                settings = _bot_settings(spec.bot, self.bot_seconds)
                text = await self.pool.act(spec.bot, seed, settings, snapshot)
                return snapshot.game.action(text)
            return await asyncio.to_thread(agent.act, decision_for(snapshot, peek=peek))
        except Exception:
            # A bot that fails must not stall the table: this move is a random one.
            log.exception("bot %s at seat %s of table %s failed", agent.name, seat, table.id)
            return RandomAgent(table.n).act(decision_for(snapshot))

    async def _bots(self, table: LiveTable) -> None:
        while True:
            seat = table.state.current_player
            if seat is None or not self.owns(table):
                return
            agent = self._stand_in(table, seat)
            if agent is None:
                return
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            n = table.n
            if self._stand_in(table, seat) is not agent or table.state.current_player != seat:
                continue  # the player came back (or the position moved) while we waited
            action = await self._choose(table, seat, agent)
            try:
                # a stand-in for a player who is away after their clock ran out
                by_clock = seat not in table.agents
                await self.act(table, seat, action.text, n, wake=False, clock=by_clock)
            except Unavailable:
                await asyncio.sleep(RETRY_AWAY)  # the database is away: this move again
                continue
            except (IllegalAction, TableError) as err:
                if table.n != n:
                    continue  # a stale move: the position changed while the bot thought
                log.error("bot at seat %s of table %s failed: %s", seat, table.id, err)
                return
            self._set_clock(table)

    async def hint(self, table: LiveTable, seat: int, lang: str) -> dict[str, Any]:
        """The hint bot's move and reason for ``seat`` (only when it is that seat's turn)."""
        if table.state.current_player != seat:
            raise TableError("a hint is for your own turn")
        if seat in table.hint_busy:
            raise TableError("a hint is already being worked out")
        table.hint_busy.add(seat)
        try:
            n = table.n
            snapshot = table.state.clone()
            agent = hint_agent(table.game.id, n * 7 + seat, self.hint_seconds)
            try:
                peek = bool(getattr(agent, "reads_view_only", False))
                action = await asyncio.to_thread(agent.act, decision_for(snapshot, peek=peek))
                why = agent.explain()
            except Exception:
                log.warning("hint bot failed on table %s at %s", table.id, n, exc_info=True)
                raise TableError("the hint bot could not work this position out; sorry") from None
            return {
                "type": "hint",
                "n": n,
                "action": action.text,
                "bot": agent.name,
                "text": why.text(lang) if why is not None else "",
            }
        finally:
            table.hint_busy.discard(seat)

    # -- clients -----------------------------------------------------------------------
    def connection(
        self, send: Callable[[str], Any], close: Callable[[int], Any] | None = None
    ) -> Connection:
        """A new client connection with this hub's rate limit."""
        return Connection(send, close, limiter=RateLimiter(*self.rate))

    def join(self, table: LiveTable, conn: Connection, name: str | None = None) -> None:
        """``conn`` joins (its seat checked already); ``name``, already cleaned, is
        the seat's display name from now on."""
        if conn.seat is not None:
            for old in [c for c in table.conns if c.joined and c.seat == conn.seat]:
                self._take_over(table, old)
            spec = table.seats[conn.seat]
            fields: dict[str, Any] = {}
            if name is not None and spec.name != name:
                fields["name"] = name
            if conn.player is not None and spec.player != conn.player:
                fields["player"] = conn.player
            if fields:
                self.store.edit_seat(table.id, conn.seat, **fields)
                for key, value in fields.items():
                    setattr(spec, key, value)
                self.tell(table, "seats")
            if conn.player is not None:
                self.store.touch_player(conn.player, spec.name)
        conn.joined = True
        table.last_active = time.monotonic()
        if conn.seat is not None:
            table.autopilot.discard(conn.seat)  # the player is back
        if self.audit and conn.audit is None:
            conn.audit = []
        table.conns.add(conn)
        conn.push(
            {
                "type": "welcome",
                "table": table.summary(),
                "seat": conn.seat,
                "chat": list(table.social.chat),
                "host": table.host is not None and conn.player == table.host,
            }
        )
        if table.social.rematch is not None and conn.seat is not None and conn.token:
            conn.push(rematch.message(table, conn))  # the rematch began meanwhile
        if self.cluster is not None:
            self.cluster.joined(table, conn)
        self._set_clock(table)
        self.broadcast(table)  # everyone sees who is connected
        self.wake_bots(table)

    async def check_token(self, table: LiveTable, seat: int, token: str) -> bool:
        """Whether ``token`` opens ``seat``.  With several server processes the seats
        are read from the database first: another process may have just given the seat
        a new token (a claim, the host's new link)."""
        if self.cluster is not None:
            self.cluster.reseat(table, await asyncio.to_thread(self.store.seats, table.id))
        return table.check_token(seat, token)

    def tell(self, table: LiveTable, kind: str) -> None:
        """Tell the other server processes that ``kind`` of the table changed in the
        database (``seats``, ``settings``, ``chat``, ``results``); nothing when this
        process is the only one."""
        if self.cluster is not None:
            self.cluster.tell(table.id, kind)

    # -- the people at the table -------------------------------------------------------
    def rename(self, table: LiveTable, conn: Connection, raw: Any) -> None:
        """A seated player's new display name (raises :class:`TableError`)."""
        if conn.seat is None:
            raise TableError("spectators have no seat to name")
        try:
            name = clean_name(raw)
        except ValueError as err:
            raise TableError(str(err)) from None
        self.store.edit_seat(table.id, conn.seat, name=name)
        table.seats[conn.seat].name = name
        self.tell(table, "seats")
        if conn.player is not None:
            self.store.touch_player(conn.player, name)
        self.broadcast(table)

    def chat(
        self, table: LiveTable, conn: Connection, text: Any = None, phrase: Any = None
    ) -> None:
        """A chat message from a seated player, sent to every client of the table and
        stored with it (raises :class:`TableError` saying what was wrong)."""
        if conn.seat is None and not table.spectator_chat:
            raise TableError("spectators can read the chat but not write in it")
        if conn.seat is not None and conn.seat in table.muted:
            raise TableError("the host muted your seat's chat")
        if (text is None) == (phrase is None):
            raise TableError("chat needs a 'text' or a 'phrase' (one of them)")
        seat = -1 if conn.seat is None else conn.seat  # -1: a spectator
        message: dict[str, Any] = {"type": "chat", "n": table.social.chat_n, "seat": seat}
        if phrase is not None:
            if phrase not in PHRASES:
                raise TableError(f"unknown phrase {phrase!r}; phrases: {', '.join(PHRASES)}")
            message["phrase"] = phrase
        else:
            try:
                message["text"] = clean_chat(text)
            except ValueError as err:
                raise TableError(str(err)) from None
        if not conn.chat_limiter.allow():
            raise TableError("you are writing too fast: wait a moment (message not sent)")
        message["name"] = table.seats[conn.seat].name if conn.seat is not None else None
        for _ in range(5):
            try:
                self.store.add_chat(table.id, message)
                break
            except ChatTaken:  # another server process wrote message n first: after it
                self.deliver_chat(table, self.store.chat(table.id, since=table.social.chat_n))
                message["n"] = table.social.chat_n
        else:
            raise TableError("the table's chat is busy: message not sent; try again")
        self.deliver_chat(table, [{k: v for k, v in message.items() if k != "type"}])
        self.tell(table, "chat")

    def deliver_chat(self, table: LiveTable, messages: list[dict[str, Any]]) -> None:
        """Chat messages stored (by this or another server process) that this table's
        clients here have not had yet: kept and sent to each of them."""
        for item in messages:
            if item["n"] < table.social.chat_n:
                continue
            table.social.add(item)
            for other in list(table.conns):
                if other.joined:
                    other.push({"type": "chat", **item})

    def vote_rematch(self, table: LiveTable, conn: Connection) -> None:
        """``conn``'s seat asks for another match with the same players and options.
        When every human seat has asked (bots agree at once), the new table is made
        and each human seat is sent its own link to it (:mod:`xtarot.server.rematch`)."""
        rematch.vote(self, table, conn)

    def _take_over(self, table: LiveTable, old: Connection, why: str | None = None) -> None:
        """One live connection per seat: the newest wins; the old one is told and closed
        (``why``: another reason it must go, e.g. the host gave the seat a new link)."""
        table.conns.discard(old)
        old.joined = False
        old.push(
            {
                "type": "error",
                "code": "taken_over",
                "message": why
                or f"seat {old.seat} was opened in another window; this one is closed",
            }
        )
        with contextlib.suppress(asyncio.QueueFull):
            old.queue.put_nowait(None)
        if old.close is not None:
            asyncio.get_running_loop().create_task(close_later(old))
        if self.cluster is not None:
            self.cluster.presence(table)

    def leave(self, table: LiveTable, conn: Connection) -> None:
        table.last_active = time.monotonic()
        table.conns.discard(conn)
        with contextlib.suppress(asyncio.QueueFull):
            conn.queue.put_nowait(None)
        if conn.joined:
            self.broadcast(table)
        if self.cluster is not None:
            self.cluster.presence(table)
        if table.state.is_terminal and table.unused:
            self.unload(table.id)  # finished and nobody looking: free the memory

    def claim(self, table: LiveTable, seat: int) -> str:
        """Claim a free open seat from the lobby; returns its new secret token."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(table.seats):
            raise TableError(f"seat must be a number from 0 to {len(table.seats) - 1}")
        if table.state.is_terminal:
            raise TableError("the match is over")
        if not table.seats[seat].free:
            raise TableError(f"seat {seat + 1} is not free (taken, a bot, or invite-only)")
        token = secrets.token_urlsafe(18)
        if not self.store.claim_seat(table.id, seat, hash_token(token)):
            raise TableError(f"seat {seat + 1} was just taken")
        table.seats[seat].token_hash = hash_token(token)
        self.tell(table, "seats")
        self.broadcast(table)
        return token

    def open_tables(self) -> list[dict[str, Any]]:
        """The tables listed in the lobby that are not over, newest first."""
        out = []
        for table_id in self.store.listed():
            table = self.get(table_id)
            if table is not None and not table.state.is_terminal and not table.closed:
                out.append(table.summary())
        return out

    async def shutdown(self) -> None:
        if self.cluster is not None:
            await self.cluster.stop()
        if self.pool is not None:
            self.pool.close()
        for table in self.tables.values():
            if table.clock_task is not None:
                table.clock_task.cancel()
            if table.bot_task is not None:
                table.bot_task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await table.bot_task
