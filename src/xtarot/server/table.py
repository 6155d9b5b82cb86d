"""A live table's pieces: the table in memory, its clients' connections, its move log,
and what one server allows.

:class:`LiveTable` is a loaded table (position, seats, bots, clients, the host's
choices); :class:`Connection` one websocket client with its queue and rate limits;
:class:`LogEntry` one move as each seat saw it.  The :class:`~xtarot.server.hub.Hub`
(which re-exports these names) owns and changes them.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import xtarot
from xtarot.agents import Agent
from xtarot.engine import Action, Game, IllegalAction, RecordError, State
from xtarot.server.people import CHAT_BURST, CHAT_PER_SECOND, Social
from xtarot.server.store import SeatSpec, StoredTable, hash_token

try:
    import orjson as _orjson
except ImportError:  # pragma: no cover - a platform without its wheels
    _orjson = None  # type: ignore[assignment]

__all__ = [
    "LOG_SIZE",
    "MAX_CLOCK",
    "MAX_MESSAGE",
    "MAX_REFUSALS",
    "MAX_SEED",
    "MIN_CLOCK",
    "RATE_BURST",
    "RATE_PER_SECOND",
    "RETRY_AWAY",
    "TURN_BASED",
    "Connection",
    "Fetched",
    "Limits",
    "LiveTable",
    "LogEntry",
    "RateLimiter",
    "TableError",
    "Unavailable",
    "close_later",
    "log_entry",
    "replay_with_log",
    "to_json",
]

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
    #: the entry as each seat is sent it (JSON text by seat index, -1: spectators),
    #: made once (:meth:`LiveTable.log_text`)
    texts: dict[int, str] = field(default_factory=dict, init=False, repr=False, compare=False)

    def item(self, index: int) -> dict[str, Any]:
        """The entry as seat ``index`` (-1: a spectator) is sent it."""
        return {"n": self.n, "seat": self.actor, "hand": self.hand, "text": self.seen[index]} | (
            {"clock": True} if self.clock else {}
        )

    def text(self, index: int) -> str:
        """:meth:`item` as JSON text (made once per seat)."""
        found = self.texts.get(index)
        if found is None:
            found = self.texts[index] = to_json(self.item(index))
        return found


def to_json(data: Any) -> str:
    """The JSON text clients are sent: compact, UTF-8 characters as they are.

    Made by orjson where it is installed (it is a dependency on CPython; the server
    made every seat's view into JSON with the standard library's encoder at about a
    sixth of a move's CPU time), else by :func:`json.dumps` with the same output
    (tests/test_server.py holds the two to the same text); what orjson refuses (an
    integer beyond 64 bits) goes to :func:`json.dumps` too.

    >>> to_json({"seat": 0, "名": "ア", "n": [1, 2.5, None, True]})
    '{"seat":0,"名":"ア","n":[1,2.5,null,true]}'
    """
    if _orjson is not None:
        try:
            return _orjson.dumps(data, option=_orjson.OPT_NON_STR_KEYS).decode()
        except _orjson.JSONEncodeError:
            pass
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def log_entry(state: State, action: Action) -> LogEntry:
    """The log entry of ``action``, about to be applied to ``state``."""
    actor = state.current_player
    assert actor is not None
    seats: list[int | None] = [*range(state.players), None]
    seen = tuple(state.action_seen_by(action, s) for s in seats)
    return LogEntry(len(state.history), actor, len(state.deals) - 1, seen)


def replay_with_log(record: dict[str, Any]) -> tuple[State, list[LogEntry]]:
    """Replay a stored match and rebuild its move log (raises ``RecordError``).  An
    unfinished match gets a new, unpredictable seed for the hands still to be dealt
    (:meth:`State.reseed`): nobody who knows the stored seed can tell them in advance
    (a replay alone would deal them from a seed derived from the stored one)."""
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
    if not state.is_terminal:
        state.reseed(secrets.randbits(63))
    return state, log_


@dataclass(frozen=True)
class Fetched:
    """A table as read from the database to be loaded: its record and settings, its
    latest chat and the next chat message's number, its latest move's time, and its
    rated results (a finished match)."""

    stored: StoredTable
    chat: list[dict[str, Any]]
    chat_n: int
    moved_at: float
    results: list[dict[str, Any]]


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


class Unavailable(TableError):
    """The database cannot be reached for a moment (it is restarting...): nothing
    changed, and the same request may succeed shortly."""


#: How long a bot or a move clock waits before trying again to store its move while
#: the database is unavailable (seconds).
RETRY_AWAY = 1.0


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
    #: when it said hello (time.time()): of two connections to one seat on two server
    #: processes, the later one stays
    joined_at: float = 0.0

    def push(self, message: dict[str, Any]) -> None:
        self.push_text(to_json(message))

    def push_text(self, text: str) -> None:
        """Send a message already made into JSON text (:func:`to_json`)."""
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
    #: the seats connected to other server processes, by process (xtarot.server.cluster)
    elsewhere: dict[str, frozenset[int]] = field(default_factory=dict)
    #: websockets open on this table here, hello said or not: a table with one is not
    #: unloaded (a client between its connection and its hello would be left holding a
    #: table this process no longer keeps up to date)
    sessions: int = 0

    @property
    def unused(self) -> bool:
        """No client here, not even one still to say hello."""
        return not self.conns and not self.sessions

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

    def here(self) -> set[int]:
        """The seats connected to this server process."""
        return {c.seat for c in self.conns if c.joined and c.seat is not None}

    def online(self) -> set[int]:
        """The seats connected to any server process."""
        seats = self.here()
        for more in self.elsewhere.values():
            seats |= more
        return seats

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
        return [e.item(index) for e in self.log[-LOG_SIZE:]]

    def log_text(self, seat: int | None) -> str:
        """:meth:`log_for` as JSON text, from each entry's text made once."""
        index = -1 if seat is None else seat
        return "[" + ",".join(e.text(index) for e in self.log[-LOG_SIZE:]) + "]"

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


async def close_later(conn: Connection) -> None:
    """Close a taken-over connection once its last message has gone out."""
    await asyncio.sleep(0.2)
    with contextlib.suppress(Exception):
        assert conn.close is not None
        await conn.close(4409)
