"""What the host of a table may do: the player identity that created it manages it.

A client whose player identity is the table's host sends ``{"type": "host", "do": ...}``:

- ``"bot"`` with ``seat`` and ``bot`` (a level or a bot's name): a bot takes the seat —
  an empty seat, a seat whose player is not connected (for good: the seat is a bot's
  from then on), or, before the first move, another bot's seat (to change its level);
- ``"fill"``: a ``normal`` bot (or ``bot``) in every seat nobody has taken yet, so the
  match starts without the missing players;
- ``"link"`` with ``seat``: a new secret link for a human seat (the old one stops
  working; whoever used it is disconnected); only the host is told the new token;
- ``"mute"`` with ``seat`` and ``on``: that seat's chat is muted or not;
- ``"spectator_chat"`` with ``on``: spectators may write in the chat or not;
- ``"shuffle"`` with ``on``: a rematch shuffles the seats or keeps them;
- ``"close"``: the table stops before its end (no more moves; out of the lobby).

Every choice is stored with the table, so it survives a restart, and the other server
processes sharing the database are told to read it again (:mod:`xtarot.server.cluster`).
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from xtarot.agents import AGENTS
from xtarot.agents.heuristic import STRATEGIES
from xtarot.server.store import SeatSpec, hash_token
from xtarot.server.table import Connection, LiveTable, TableError

if TYPE_CHECKING:
    from xtarot.server.hub import Hub

__all__ = ["COMMANDS", "command", "stop"]

COMMANDS = ("bot", "fill", "link", "mute", "spectator_chat", "shuffle", "close")


def _error(message: str) -> Exception:
    return TableError(message)


def _seat(table: LiveTable, raw: Any) -> int:
    n = len(table.seats)
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw < n:
        raise _error(f"'seat' must be a seat number from 0 to {n - 1}")
    return raw


def _flag(raw: Any) -> bool:
    if not isinstance(raw, bool):
        raise _error("'on' must be true or false")
    return raw


def _bot_name(table: LiveTable, raw: Any) -> str:
    if raw not in AGENTS or (raw == "heuristic" and table.game.id not in STRATEGIES):
        names = [a for a in AGENTS if a != "heuristic" or table.game.id in STRATEGIES]
        raise _error(f"'bot' must be one of: {', '.join(names)}")
    return str(raw)


def _seat_bot(hub: Hub, table: LiveTable, seat: int, bot: str) -> None:
    """Put bot ``bot`` in ``seat`` (checked by the caller)."""
    table.seats[seat] = spec = SeatSpec("bot", bot)
    table.agents[seat] = hub.seat_agent(bot, table.state.seed, seat, table.n)
    table.autopilot.discard(seat)
    table.stand_ins.pop(seat, None)
    hub.store.set_seat(table.id, seat, spec)


def _untaken(table: LiveTable, seat: int) -> bool:
    """Nobody has taken this seat: open and unclaimed, or a link never opened."""
    spec = table.seats[seat]
    if spec.kind != "human" or seat in table.online():
        return False
    return spec.free or (spec.player is None and spec.name is None)


def stop(table: LiveTable) -> None:
    """The table is closed: no more moves, no bot, no clock, out of the lobby."""
    table.closed = True
    for task in (table.clock_task, table.bot_task):
        if task is not None:
            task.cancel()
    table.clock_task = table.bot_task = None
    table.clock_seat = table.clock_deadline = None
    table.listed = False


def command(hub: Hub, table: LiveTable, conn: Connection, msg: dict[str, Any]) -> None:
    """Carry out one host command from ``conn`` (raises ``TableError`` saying why not)."""
    if table.host is None or conn.player != table.host:
        raise _error("only the table's host (the player who created it) can do that")
    what = msg.get("do")
    if what not in COMMANDS:
        raise _error(f"unknown host command {what!r}; commands: {', '.join(COMMANDS)}")
    if what == "close":
        if table.state.is_terminal:
            raise _error("the match is over already")
        stop(table)
        hub.store.update_settings(table.id, closed=True, listed=False)
    elif what in ("spectator_chat", "shuffle"):
        on = _flag(msg.get("on"))
        setattr(table, what, on)
        hub.store.update_settings(table.id, **{what: on})
    elif what == "mute":
        seat, on = _seat(table, msg.get("seat")), _flag(msg.get("on"))
        if on:
            table.muted.add(seat)
        else:
            table.muted.discard(seat)
        hub.store.update_settings(table.id, muted=sorted(table.muted))
    else:
        if table.state.is_terminal or table.closed:
            raise _error("the match is over: its seats no longer change")
        if what == "link":
            seat = _seat(table, msg.get("seat"))
            spec = table.seats[seat]
            if spec.kind != "human":
                raise _error(f"seat {seat + 1} is a bot's; a link is for a human seat")
            token = secrets.token_urlsafe(18)
            spec.token_hash, spec.player, spec.name = hash_token(token), None, None
            hub.store.set_seat(table.id, seat, spec)
            for old in [c for c in table.conns if c.joined and c.seat == seat]:
                hub._take_over(table, old, "the host gave this seat a new link")
            conn.push({"type": "host_link", "seat": seat, "token": token})
        elif what == "bot":
            seat, bot = _seat(table, msg.get("seat")), _bot_name(table, msg.get("bot"))
            spec = table.seats[seat]
            if spec.kind == "bot" and table.n > 0:
                raise _error("bots' levels change before the first move only")
            if spec.kind == "human" and seat in table.online():
                raise _error(f"seat {seat + 1}'s player is at the table")
            _seat_bot(hub, table, seat, bot)
        else:  # fill
            bot = _bot_name(table, msg.get("bot", "normal"))
            empty = [s for s in range(len(table.seats)) if _untaken(table, s)]
            if not empty:
                raise _error("every seat is taken already")
            for seat in empty:
                _seat_bot(hub, table, seat, bot)
    hub.tell(table, "seats" if what in ("link", "bot", "fill") else "settings")
    hub.broadcast(table)
    hub.wake_bots(table)
