"""The vote for a rematch: the same players and options at a new table.

Once the match is over, each human seat may ask for another (bots agree at once).  A
vote is stored with the old table's settings as the hash of the seat's token at the new
table — a token derived from its token here (:func:`~xtarot.server.people.rematch_token`),
which only its holder can work out — so the votes may reach different server processes
and survive a restart.  The vote that completes them makes the new table in the same
database transaction (:meth:`~xtarot.server.store.Store.vote_rematch`): exactly one
rematch is made, whichever process counts the last vote.  Then every process tells
each of its own clients the way there: a seat its own link, a spectator the table.
"""

from __future__ import annotations

import logging
import secrets
from typing import TYPE_CHECKING, Any

from xtarot.engine import State
from xtarot.server.people import rematch_token
from xtarot.server.store import StoredTable, hash_token
from xtarot.server.table import Connection, LiveTable, TableError

if TYPE_CHECKING:
    from xtarot.server.hub import Hub

__all__ = ["message", "settle", "tell", "vote"]

log = logging.getLogger("xtarot.server")


def _error(text: str) -> Exception:
    return TableError(text)


def vote(hub: Hub, table: LiveTable, conn: Connection) -> None:
    """``conn``'s seat asks for a rematch (raises ``TableError`` saying why not)."""
    if conn.seat is None or conn.token is None:
        raise _error("spectators cannot vote for a rematch")
    if not table.state.is_terminal:
        raise _error("a rematch is voted once the match is over")
    if table.social.rematch is None:
        first: list[State] = []

        def build(votes: dict[int, str]) -> tuple[StoredTable, dict[int, int]]:
            stored, state, moved = _new_table(hub, table, votes)
            first.append(state)
            return stored, moved

        token_hash = hash_token(rematch_token(conn.token))
        data, made = hub.store.vote_rematch(table.id, conn.seat, token_hash, table.humans(), build)
        settle(table, data)
        if made is not None:
            new = hub._register(made, first[0])
            log.info("table %s: rematch at table %s", table.id, new.id)
            hub.wake_bots(new)
        hub.tell(table, "settings")
    hub.broadcast(table)
    tell(table)


def _new_table(
    hub: Hub, table: LiveTable, votes: dict[int, str]
) -> tuple[StoredTable, State, dict[int, int]]:
    """The rematch as it is to be stored: seats kept or (the host's choice) shuffled,
    each human's token there the one they voted with; and where each old seat sits."""
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
    stored, state, _ = hub._prepare(
        table.game.id,
        table.game.players,
        dict(table.game.options),
        kinds,
        clock=table.clock,
        listed=False,
        host=table.host,
        token_hashes={new: votes[o] for new, o in enumerate(order) if o in votes},
    )
    for new, o in enumerate(order):
        stored.seats[new].name, stored.seats[new].player = old[o].name, old[o].player
    return stored, state, {o: new for new, o in enumerate(order)}


def settle(table: LiveTable, settings: dict[str, Any]) -> None:
    """The votes and the rematch as stored with the table's settings."""
    social = table.social
    social.votes = {int(k): v for k, v in (settings.get("votes") or {}).items()}
    social.rematch = settings.get("rematch")
    social.moved = {int(k): v for k, v in (settings.get("moved") or {}).items()}


def tell(table: LiveTable) -> None:
    """Once the rematch exists: each seated client its own way there, spectators the
    table."""
    if table.social.rematch is None:
        return
    for other in list(table.conns):
        if other.joined and other.seat is None:
            other.push({"type": "rematch", "table": table.social.rematch})
        elif other.joined and other.token is not None:
            other.push(message(table, other))


def message(table: LiveTable, conn: Connection) -> dict[str, Any]:
    """The rematch message for a seated client: its new seat and token there."""
    assert conn.seat is not None and conn.token is not None
    return {
        "type": "rematch",
        "table": table.social.rematch,
        "seat": table.social.moved.get(conn.seat, conn.seat),
        "token": rematch_token(conn.token),
    }
