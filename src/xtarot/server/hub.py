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
import hmac
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import xtarot
from xtarot.agents import AGENTS, Agent, RandomAgent, decision_for, make_agent
from xtarot.agents.heuristic import STRATEGIES
from xtarot.engine import Action, ConfigError, Game, IllegalAction, RecordError, State
from xtarot.server.botpool import SEARCHING, BotPool
from xtarot.server.people import (
    CHAT_BURST,
    CHAT_KEEP,
    CHAT_PER_SECOND,
    PHRASES,
    Social,
    clean_chat,
    clean_name,
    rematch_token,
)
from xtarot.server.ratings import rate_match, table_results
from xtarot.server.store import SeatSpec, Store, StoredTable, hash_token

__all__ = [
    "MAX_MESSAGE",
    "Connection",
    "Hub",
    "LiveTable",
    "TableError",
    "hint_agent",
]

log = logging.getLogger("xtarot.server")

#: Largest websocket message a client may send (bytes of text).
MAX_MESSAGE = 2048
#: Token bucket per connection: sustained messages per second and burst size.
RATE_PER_SECOND = 8.0
RATE_BURST = 20.0
#: A connection that keeps flooding after this many refusals is closed.
MAX_REFUSALS = 50
#: The move clock's bounds (seconds).
MIN_CLOCK = 10
MAX_CLOCK = 7 * 24 * 3600
#: A clock this long or longer makes a turn-based table: its clock counts from the
#: last move's time as stored (so a restart does not give the player their time
#: again), and the table may leave memory while it waits (the sweep brings it back
#: when its clock runs out).
TURN_BASED = 3600
#: How many of the latest moves each state message carries (the table's move log).
LOG_SIZE = 60


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One move as every seat saw it: ``seen[s]`` for seat ``s``, ``seen[-1]`` for a
    spectator (``state.action_seen_by``: a face-down card stays ``?``)."""

    n: int
    actor: int
    hand: int
    seen: tuple[str, ...]
    #: the move clock ran out and a bot made this move for the player (kept in memory
    #: only: a table loaded again after a restart no longer knows it)
    clock: bool = False


def log_entry(state: State, action: Action) -> LogEntry:
    """The log entry of ``action``, about to be applied to ``state``."""
    actor = state.current_player
    assert actor is not None
    seats: list[int | None] = [*range(state.players), None]
    seen = tuple(state.action_seen_by(action, s) for s in seats)
    return LogEntry(len(state.history), actor, len(state.deals) - 1, seen)


def replay_with_log(record: dict[str, Any]) -> tuple[State, list[LogEntry]]:
    """Replay a stored match and rebuild its move log (raises ``RecordError``)."""
    state = xtarot.replay(record, upto=0)
    log_: list[LogEntry] = []
    for i, text in enumerate(record["actions"]):
        try:
            action = state.game.action(text)
            entry = log_entry(state, action)
            state.apply(action)
        except IllegalAction as err:
            raise RecordError(f"action {i} ({text!r}) is not legal: {err}") from None
        log_.append(entry)
    return state, log_


@dataclass(frozen=True)
class Limits:
    """What one server allows, so that a small public server cannot be worn down.

    ``tables_per_minute`` / ``table_burst``: tables one client address may create
    (a token bucket); ``max_live_tables``: tables held in memory at once (idle ones are
    unloaded first; they stay in the database); ``max_bot_tables``: tables with bots in
    every seat playing at once; ``hello_timeout``: seconds a new connection has to say
    hello; ``idle_unload``: seconds without a client or a move before a table leaves
    memory; ``option_caps``: the largest value of whole-number options (``default_cap``
    for the others); ``allow_origins``: web origins besides the server's own that may
    create tables and open websockets (``"*"``: any).
    """

    tables_per_minute: float = 30.0
    table_burst: float = 10.0
    max_live_tables: int = 500
    max_bot_tables: int = 2
    hello_timeout: float = 10.0
    idle_unload: float = 900.0
    option_caps: tuple[tuple[str, int], ...] = (("hands", 100), ("target_score", 10_000))
    default_cap: int = 10_000
    allow_origins: tuple[str, ...] = ()

    def cap(self, option: str) -> int:
        return dict(self.option_caps).get(option, self.default_cap)


#: Seeds are stored as signed 64-bit integers.
MAX_SEED = 2**63


class TableError(ValueError):
    """A request about tables that cannot be served (bad game, seats, options...)."""


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


class RateLimiter:
    """A token bucket: ``allow()`` is False while the client sends too fast."""

    def __init__(self, rate: float = RATE_PER_SECOND, burst: float = RATE_BURST) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.stamp = time.monotonic()
        self.refused = 0

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.refused += 1
        return False


@dataclass(eq=False)
class Connection:
    """One websocket client: its seat (``None`` = spectator) and its outgoing queue."""

    send: Callable[[str], Any]  # async: send one text frame
    close: Callable[[int], Any] | None = None  # async: close the websocket with a code
    seat: int | None = None
    joined: bool = False
    lang: str = "en"
    limiter: RateLimiter = field(default_factory=RateLimiter)
    chat_limiter: RateLimiter = field(
        default_factory=lambda: RateLimiter(CHAT_PER_SECOND, CHAT_BURST)
    )
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    #: the public id of the player identity the client said hello with (None: none)
    player: str | None = None
    #: the seat's token it proved itself with (memory only: a rematch's token derives
    #: from it)
    token: str | None = None
    #: Every payload put on the wire for this client (kept only when auditing).
    audit: list[dict[str, Any]] | None = None

    def push(self, message: dict[str, Any]) -> None:
        text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
        if self.audit is not None:
            self.audit.append(json.loads(text))  # exactly what goes on the wire
        self.queue.put_nowait(text)

    async def pump(self) -> None:
        """Send queued messages in order until ``None`` is queued."""
        while True:
            text = await self.queue.get()
            if text is None:
                return
            await self.send(text)


@dataclass(eq=False)
class LiveTable:
    """A loaded table: the position, the seats, the bots and the clients."""

    id: str
    game: Game
    state: State
    seats: list[SeatSpec]
    deals_stored: int
    agents: dict[int, Agent] = field(default_factory=dict)
    conns: set[Connection] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None
    hint_busy: set[int] = field(default_factory=set)
    log: list[LogEntry] = field(default_factory=list)
    #: seconds per human move before a stand-in bot plays (None: no clock)
    clock: int | None = None
    listed: bool = False
    clock_task: asyncio.Task[None] | None = None
    clock_seat: int | None = None
    clock_deadline: float | None = None  # time.monotonic()
    clock_n: int | None = None
    #: human seats whose player is away after their clock ran out: a bot plays for them
    autopilot: set[int] = field(default_factory=set)
    stand_ins: dict[int, Agent] = field(default_factory=dict)
    #: time.monotonic() of the last move, connection or departure
    last_active: float = field(default_factory=time.monotonic)
    #: time.time() of the last move (or of the table's creation), and of its loading
    moved_at: float = field(default_factory=time.time)
    loaded_at: float = field(default_factory=time.time)
    #: names, chat and the rematch vote (xtarot.server.people)
    social: Social = field(default_factory=Social)
    #: the player identity that created the table (its host), and the host's choices:
    #: seats whose chat is muted, whether spectators may chat, whether a rematch
    #: shuffles the seats, and whether the table was closed before its end
    host: str | None = None
    muted: set[int] = field(default_factory=set)
    spectator_chat: bool = False
    shuffle: bool = False
    closed: bool = False
    #: a learn table (xtarot.server.learn): the page coaches the player; not rated
    learn: bool = False
    #: the rated result of the finished match (xtarot.server.ratings)
    results: list[dict[str, Any]] = field(default_factory=list)

    def settings(self) -> dict[str, Any]:
        """The host's choices, as every client is told them."""
        return {
            "muted": sorted(self.muted),
            "spectator_chat": self.spectator_chat,
            "shuffle": self.shuffle,
            "closed": self.closed,
            "hosted": self.host is not None,
        }

    @property
    def bot_only(self) -> bool:
        """Bots in every seat: the table plays by itself."""
        return all(s.kind == "bot" for s in self.seats)

    @property
    def busy(self) -> bool:
        """A bot is thinking or a move clock is running (a turn-based clock does not
        count: the table waits in the database and the sweep wakes it)."""
        clock = None if self.turn_based else self.clock_task
        return any(t is not None and not t.done() for t in (self.bot_task, clock))

    @property
    def turn_based(self) -> bool:
        return self.clock is not None and self.clock >= TURN_BASED

    def online(self) -> set[int]:
        return {c.seat for c in self.conns if c.joined and c.seat is not None}

    def clock_info(self) -> dict[str, Any] | None:
        """The running move clock: whose, its length and the seconds left."""
        if self.clock_deadline is None or self.clock_seat is None or self.clock is None:
            return None
        left = max(0.0, self.clock_deadline - time.monotonic())
        return {
            "seat": self.clock_seat,
            "seconds": self.clock,
            "left": round(left, 1),
            "turn_based": self.turn_based,
        }

    def log_for(self, seat: int | None) -> list[dict[str, Any]]:
        """The latest moves as ``seat`` saw them (``None``: a spectator)."""
        index = -1 if seat is None else seat
        return [
            {"n": e.n, "seat": e.actor, "hand": e.hand, "text": e.seen[index]}
            | ({"clock": True} if e.clock else {})
            for e in self.log[-LOG_SIZE:]
        ]

    @property
    def n(self) -> int:
        return len(self.state.history)

    def seat_info(self) -> list[dict[str, Any]]:
        online = self.online()
        return [
            {
                "seat": i,
                "kind": s.kind,
                "bot": s.bot,
                "connected": s.kind == "bot" or i in online,
                "open": s.open,
                "free": s.free,
                "autopilot": i in self.autopilot,
                "name": s.name,
                "player": s.player,
            }
            for i, s in enumerate(self.seats)
        ]

    def humans(self) -> list[int]:
        """The human seats someone holds (they vote on a rematch; bots agree at once)."""
        return [
            i for i, s in enumerate(self.seats) if s.kind == "human" and s.token_hash is not None
        ]

    def rematch_info(self) -> dict[str, Any] | None:
        """Once the match is over: who asked for another, and its table when agreed."""
        if not self.state.is_terminal:
            return None
        return {
            "votes": sorted(self.social.votes),
            "shuffle": self.shuffle,
            "humans": self.humans(),
            "table": self.social.rematch,
        }

    def summary(self) -> dict[str, Any]:
        info = self.game.info
        return {
            "id": self.id,
            "game": info.id,
            "name_en": info.name_en,
            "name_ja": info.name_ja,
            "players": self.game.players,
            "options": dict(self.game.options),
            "seats": self.seat_info(),
            "n": self.n,
            "hand": len(self.state.deals),
            "finished": self.state.is_terminal,
            "current_player": self.state.current_player,
            "clock": self.clock,
            "listed": self.listed,
            "closed": self.closed,
            "results": self.results,
            "learn": self.learn,
        }

    def check_token(self, seat: int, token: str) -> bool:
        if not 0 <= seat < len(self.seats):
            return False
        spec = self.seats[seat]
        if spec.kind != "human" or spec.token_hash is None:
            return False
        return hmac.compare_digest(spec.token_hash, hash_token(token))


async def _close_later(conn: Connection) -> None:
    """Close a taken-over connection once its last message has gone out."""
    await asyncio.sleep(0.2)
    with contextlib.suppress(Exception):
        assert conn.close is not None
        await conn.close(4409)


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
    ) -> None:
        self.store = store
        self.rate = rate
        self.limits = limits or Limits()
        self.creators: dict[str, RateLimiter] = {}  # client address -> table creation bucket
        self.bot_delay = bot_delay
        self.bot_seconds = bot_seconds
        self.hint_seconds = hint_seconds
        self.tables: dict[str, LiveTable] = {}
        #: searching bots think in these worker processes (None: in threads)
        self.pool = BotPool(bot_processes) if bot_processes > 0 else None
        self.audit = False  # tests: keep every payload sent per connection

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
        tokens = {}
        for i, kind in enumerate(seats):
            if kind == "human":
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
        self.store.create(stored)
        table = self._live(stored, state)
        self.tables[table_id] = table
        return table, tokens

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
        stored = self.store.load(table_id)
        if stored is None:
            return None
        self._make_room()
        try:
            state, moves = replay_with_log(stored.record())
        except RecordError as err:  # e.g. a rule changed since the table was stored
            log.error("table %s cannot be resumed: %s", table_id, err)
            return None
        table = self._live(stored, state)
        table.log = moves
        table.social.chat = self.store.chat(table_id, CHAT_KEEP)
        table.social.chat_n = self.store.chat_count(table_id)
        table.moved_at = self.store.last_move_at(table_id) or stored.created
        if table.state.is_terminal:
            table.results = table_results(self.store, table_id)
        self.tables[table_id] = table
        return table

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
            if not t.conns and not t.busy and now - t.last_active >= idle
        ]
        for table_id in gone:
            table = self.tables.pop(table_id)
            if table.clock_task is not None:  # a turn-based clock: the sweep takes over
                table.clock_task.cancel()
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
            if table is not None and not table.state.is_terminal:
                self.wake_bots(table)
                woken.append(table_id)
        return woken

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
            if table is not None and not table.state.is_terminal:
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
    def state_message(self, table: LiveTable, seat: int | None) -> dict[str, Any]:
        state = table.state
        view = state.view(seat) if seat is not None else state.public_view()
        return {
            "type": "state",
            "table": table.id,
            "n": table.n,
            "seat": seat,
            "seats": table.seat_info(),
            "finished": state.is_terminal,
            "view": view,
            "log": table.log_for(seat),
            "clock": table.clock_info(),
            "rematch": table.rematch_info(),
            "settings": table.settings(),
            "results": table.results if state.is_terminal else None,
        }

    def broadcast(self, table: LiveTable) -> None:
        """Send each client its own view (computed once per seat)."""
        cache: dict[int | None, dict[str, Any]] = {}
        for conn in list(table.conns):
            if not conn.joined:
                continue
            if conn.seat not in cache:
                cache[conn.seat] = self.state_message(table, conn.seat)
            conn.push(cache[conn.seat])

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
        log entry says so)."""
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
            # the resolved action when it is legal (no second parse); else the text, which
            # raises IllegalAction with the reason and leaves the state unchanged
            action = state.apply(resolved if entry is not None else text)
            if entry is not None:
                table.log.append(replace(entry, clock=True) if clock else entry)
            deals = list(state.deals) if len(state.deals) != table.deals_stored else None
            result = state.scores().to_dict() if state.is_terminal else None
            try:
                if self.store.local:  # a local SQLite commit is quicker than a thread hop
                    self.store.append(table.id, index, action.text, deals=deals, result=result)
                else:
                    await asyncio.to_thread(
                        self.store.append, table.id, index, action.text, deals=deals, result=result
                    )
            except Exception:
                # Keep memory and database in step: rebuild the position from the log.
                log.exception("could not store action %s of table %s", index, table.id)
                stored = self.store.load(table.id)
                if stored is not None:
                    table.state, table.log = replay_with_log(stored.record())
                raise TableError("the server could not save that move; try again") from None
            if deals is not None:
                table.deals_stored = len(deals)
            table.moved_at = time.time()
            if result is not None:
                await self._rate(table, result)
            table.last_active = time.monotonic()
            self._set_clock(table)  # the next human's clock goes out with this state
            self.broadcast(table)
        if wake:
            self.wake_bots(table)
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
        (or stop) the move clock of a human to act."""
        self._set_clock(table)
        seat = table.state.current_player
        if seat is None or table.closed or self._stand_in(table, seat) is None:
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
        table.clock_task = asyncio.get_running_loop().create_task(
            self._clock(table, seat, table.n, seconds)  # type: ignore[arg-type]
        )

    async def _clock(self, table: LiveTable, seat: int, n: int, seconds: float) -> None:
        """The clock of ``seat`` for position ``n``: when it runs out, a bot moves."""
        await asyncio.sleep(seconds)
        if table.n != n or table.state.current_player != seat:
            return
        table.clock_task = None
        if seat not in table.online():
            table.autopilot.add(seat)  # away: the stand-in keeps playing until they return
        agent = stand_in_agent(table.game.id, n * 17 + seat)
        action = await self._choose(table, seat, agent)
        log.info(
            "table %s: seat %s's clock ran out; %s played %s", table.id, seat, agent.name, action
        )
        with contextlib.suppress(IllegalAction, TableError):
            await self.act(table, seat, action.text, n, clock=True)

    async def _choose(self, table: LiveTable, seat: int, agent: Agent) -> Action:
        snapshot = table.state.clone()
        spec = table.seats[seat]
        try:
            if agent.name == "random":
                return agent.act(decision_for(snapshot))
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
            return await asyncio.to_thread(agent.act, decision_for(snapshot))
        except Exception:
            # A bot that fails must not stall the table: this move is a random one.
            log.exception("bot %s at seat %s of table %s failed", agent.name, seat, table.id)
            return RandomAgent(table.n).act(decision_for(snapshot))

    async def _bots(self, table: LiveTable) -> None:
        while True:
            seat = table.state.current_player
            if seat is None:
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
                action = await asyncio.to_thread(agent.act, decision_for(snapshot))
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
            changed = name is not None and spec.name != name
            if conn.player is not None and spec.player != conn.player:
                spec.player, changed = conn.player, True
            if name is not None:
                spec.name = name
            if changed:
                self.store.set_seat(table.id, conn.seat, spec)
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
            conn.push(self._rematch_message(table, conn))  # the rematch began meanwhile
        self._set_clock(table)
        self.broadcast(table)  # everyone sees who is connected
        self.wake_bots(table)

    # -- the people at the table -------------------------------------------------------
    def _name(self, table: LiveTable, seat: int, name: str) -> None:
        table.seats[seat].name = name
        self.store.set_seat(table.id, seat, table.seats[seat])

    def rename(self, table: LiveTable, conn: Connection, raw: Any) -> None:
        """A seated player's new display name (raises :class:`TableError`)."""
        if conn.seat is None:
            raise TableError("spectators have no seat to name")
        try:
            name = clean_name(raw)
        except ValueError as err:
            raise TableError(str(err)) from None
        self._name(table, conn.seat, name)
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
        self.store.add_chat(table.id, message)
        table.social.add({k: v for k, v in message.items() if k != "type"})
        for other in list(table.conns):
            if other.joined:
                other.push(message)

    def vote_rematch(self, table: LiveTable, conn: Connection) -> None:
        """``conn``'s seat asks for another match with the same players and options.
        When every human seat has asked (bots agree at once), the new table is made
        and each human seat is sent its own link to it."""
        if conn.seat is None or conn.token is None:
            raise TableError("spectators cannot vote for a rematch")
        if not table.state.is_terminal:
            raise TableError("a rematch is voted once the match is over")
        social = table.social
        if social.rematch is None:
            social.votes[conn.seat] = rematch_token(conn.token)
            if set(social.votes) >= set(table.humans()):
                self._start_rematch(table)
        self.broadcast(table)
        if social.rematch is not None:
            for other in list(table.conns):
                if other.joined and other.seat is None:
                    other.push({"type": "rematch", "table": social.rematch})
                elif other.joined and other.token is not None:
                    other.push(self._rematch_message(table, other))

    def _start_rematch(self, table: LiveTable) -> None:
        """The same players and options at a new table, seats kept or (the host's
        choice) shuffled; each human's token there derives from their token here."""
        order = list(range(table.game.players))  # order[new seat] = old seat
        if table.shuffle:
            secrets.SystemRandom().shuffle(order)
        old = table.seats
        kinds = [
            (old[o].bot or "random")
            if old[o].kind == "bot"
            else ("human" if old[o].token_hash else "open")
            for o in order
        ]
        tokens = {
            new: table.social.votes[o] for new, o in enumerate(order) if o in table.social.votes
        }
        new_table, _ = self.create(
            table.game.id,
            table.game.players,
            dict(table.game.options),
            kinds,
            clock=table.clock,
            listed=False,
            host=table.host,
            tokens=tokens,
        )
        for new, o in enumerate(order):
            spec = new_table.seats[new]
            spec.name, spec.player = old[o].name, old[o].player
            if spec.name or spec.player:
                self.store.set_seat(new_table.id, new, spec)
        moved = {o: new for new, o in enumerate(order)}
        table.social.rematch, table.social.moved = new_table.id, moved
        self.store.update_settings(table.id, rematch=new_table.id, moved=moved)
        log.info("table %s: rematch at table %s", table.id, new_table.id)
        self.wake_bots(new_table)

    def _rematch_message(self, table: LiveTable, conn: Connection) -> dict[str, Any]:
        assert conn.seat is not None and conn.token is not None
        return {
            "type": "rematch",
            "table": table.social.rematch,
            "seat": table.social.moved.get(conn.seat, conn.seat),
            "token": rematch_token(conn.token),
        }

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
            asyncio.get_running_loop().create_task(_close_later(old))

    def leave(self, table: LiveTable, conn: Connection) -> None:
        table.last_active = time.monotonic()
        table.conns.discard(conn)
        with contextlib.suppress(asyncio.QueueFull):
            conn.queue.put_nowait(None)
        if conn.joined:
            self.broadcast(table)
        if table.state.is_terminal and not table.conns:
            self.tables.pop(table.id, None)  # finished and nobody looking: free the memory

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
        if self.pool is not None:
            self.pool.close()
        for table in self.tables.values():
            if table.clock_task is not None:
                table.clock_task.cancel()
            if table.bot_task is not None:
                table.bot_task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await table.bot_task
