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
from dataclasses import dataclass, field
from typing import Any

import xtarot
from xtarot.agents import AGENTS, Agent, RandomAgent, decision_for, make_agent
from xtarot.agents.heuristic import STRATEGIES
from xtarot.engine import ConfigError, Game, IllegalAction, RecordError, State
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


class TableError(ValueError):
    """A request about tables that cannot be served (bad game, seats, options...)."""


def _bot_settings(name: str, seconds: float) -> dict[str, Any]:
    return {"seconds": seconds} if name in ("ismcts", "pimc") else {}


def hint_agent(game_id: str, seed: int | None, seconds: float) -> Agent:
    """The hint bot: the game's heuristic when there is one, else a short ISMCTS."""
    if game_id in STRATEGIES:
        return make_agent("heuristic", seed)
    return make_agent("ismcts", seed, seconds=seconds)


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
    seat: int | None = None
    joined: bool = False
    lang: str = "en"
    limiter: RateLimiter = field(default_factory=RateLimiter)
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
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

    @property
    def n(self) -> int:
        return len(self.state.history)

    def seat_info(self) -> list[dict[str, Any]]:
        online = {c.seat for c in self.conns if c.joined and c.seat is not None}
        return [
            {"seat": i, "kind": s.kind, "bot": s.bot, "connected": s.kind == "bot" or i in online}
            for i, s in enumerate(self.seats)
        ]

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
            "finished": self.state.is_terminal,
            "current_player": self.state.current_player,
        }

    def check_token(self, seat: int, token: str) -> bool:
        if not 0 <= seat < len(self.seats):
            return False
        spec = self.seats[seat]
        if spec.kind != "human" or spec.token_hash is None:
            return False
        return hmac.compare_digest(spec.token_hash, hash_token(token))


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
    ) -> None:
        self.store = store
        self.rate = rate
        self.bot_delay = bot_delay
        self.bot_seconds = bot_seconds
        self.hint_seconds = hint_seconds
        self.tables: dict[str, LiveTable] = {}
        self.audit = False  # tests: keep every payload sent per connection

    # -- creating and loading ----------------------------------------------------------
    def create(
        self,
        game_id: str,
        players: int | None,
        options: dict[str, Any],
        seats: list[str],
        seed: int | None = None,
    ) -> tuple[LiveTable, dict[int, str]]:
        """A new table; returns it and the secret token of every human seat."""
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
        tokens: dict[int, str] = {}
        for i, kind in enumerate(seats):
            if kind == "human":
                tokens[i] = secrets.token_urlsafe(18)
                specs.append(SeatSpec("human", None, hash_token(tokens[i])))
            elif kind in AGENTS:
                if kind == "heuristic" and game_id not in STRATEGIES:
                    raise TableError(
                        f"no heuristic bot for {game_id} yet; choose "
                        + ", ".join(a for a in AGENTS if a != "heuristic")
                    )
                specs.append(SeatSpec("bot", kind))
            else:
                raise TableError(
                    f"seat {i}: {kind!r} is neither 'human' nor a bot ({', '.join(AGENTS)})"
                )
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise TableError("seed must be a whole number")
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
        )
        self.store.create(stored)
        table = self._live(stored, state)
        self.tables[table_id] = table
        return table, tokens

    def _live(self, stored: StoredTable, state: State) -> LiveTable:
        table = LiveTable(stored.id, state.game, state, stored.seats, len(state.deals))
        for i, spec in enumerate(stored.seats):
            if spec.kind == "bot" and spec.bot:
                seed = (stored.seed * 31 + i * 7919 + len(stored.actions)) % (2**63)
                table.agents[i] = make_agent(
                    spec.bot, seed, **_bot_settings(spec.bot, self.bot_seconds)
                )
        return table

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
        try:
            state = xtarot.replay(stored.record())
        except RecordError as err:  # e.g. a rule changed since the table was stored
            log.error("table %s cannot be resumed: %s", table_id, err)
            return None
        table = self._live(stored, state)
        self.tables[table_id] = table
        return table

    def record(self, table_id: str) -> dict[str, Any] | None:
        """The record of a finished match (``None`` if unknown or still being played)."""
        table = self.get(table_id)
        if table is None or not table.state.is_terminal:
            return None
        meta = {
            "client": "xtarot serve",
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
        self, table: LiveTable, seat: int, text: str, n: int | None = None, *, wake: bool = True
    ) -> str:
        """Apply ``text`` for ``seat``; persist, broadcast, wake the bots.  Returns the
        canonical action text.  Raises :class:`IllegalAction` / :class:`TableError`."""
        async with table.lock:
            state = table.state
            if state.is_terminal:
                raise TableError("the match is over")
            if n is not None and n != table.n:
                raise TableError(
                    f"that move was for position {n}, but the table is at {table.n}: "
                    "the game moved on"
                )
            if state.current_player != seat:
                raise TableError(f"it is seat {state.current_player}'s turn, not seat {seat}'s")
            index = table.n
            action = state.apply(text)  # IllegalAction: state unchanged
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
                    table.state = xtarot.replay(stored.record())
                raise TableError("the server could not save that move; try again") from None
            if deals is not None:
                table.deals_stored = len(deals)
            self.broadcast(table)
        if wake:
            self.wake_bots(table)
        return action.text

    def wake_bots(self, table: LiveTable) -> None:
        """Start the table's bot loop if a bot is to act and none is running."""
        seat = table.state.current_player
        if seat is None or seat not in table.agents:
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        table.bot_task = asyncio.get_running_loop().create_task(self._bots(table))

    async def _bots(self, table: LiveTable) -> None:
        while True:
            seat = table.state.current_player
            if seat is None or seat not in table.agents:
                return
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            n = table.n
            snapshot = table.state.clone()
            agent = table.agents[seat]
            try:
                if agent.name == "random":
                    action = agent.act(decision_for(snapshot))
                else:
                    action = await asyncio.to_thread(agent.act, decision_for(snapshot))
            except Exception:
                # A bot that fails must not stall the table: this move is a random one.
                log.exception("bot %s at seat %s of table %s failed", agent.name, seat, table.id)
                action = RandomAgent(n).act(decision_for(snapshot))
            try:
                await self.act(table, seat, action.text, n, wake=False)
            except (IllegalAction, TableError) as err:
                if table.n != n:
                    continue  # a stale move: the position changed while the bot thought
                log.error("bot at seat %s of table %s failed: %s", seat, table.id, err)
                return

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
            action = await asyncio.to_thread(agent.act, decision_for(snapshot))
            why = agent.explain()
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
    def connection(self, send: Callable[[str], Any]) -> Connection:
        """A new client connection with this hub's rate limit."""
        return Connection(send, limiter=RateLimiter(*self.rate))

    def join(self, table: LiveTable, conn: Connection) -> None:
        conn.joined = True
        if self.audit and conn.audit is None:
            conn.audit = []
        table.conns.add(conn)
        conn.push(
            {
                "type": "welcome",
                "table": table.summary(),
                "seat": conn.seat,
            }
        )
        self.broadcast(table)  # everyone sees who is connected
        self.wake_bots(table)

    def leave(self, table: LiveTable, conn: Connection) -> None:
        table.conns.discard(conn)
        with contextlib.suppress(asyncio.QueueFull):
            conn.queue.put_nowait(None)
        if conn.joined:
            self.broadcast(table)
        if table.state.is_terminal and not table.conns:
            self.tables.pop(table.id, None)  # finished and nobody looking: free the memory

    async def shutdown(self) -> None:
        for table in self.tables.values():
            if table.bot_task is not None:
                table.bot_task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await table.bot_task
