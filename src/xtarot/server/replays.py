"""Replays: a match as frames a page can draw, one per step.

:func:`frames` replays a record (:func:`xtarot.replay` validates it) and returns, for
every step ``n = 0..len(actions)``, the position's view from one perspective
(``state.view(seat)``, or ``state.public_view()`` for a spectator), the move that led
there as that viewer saw it (the hub's :func:`~xtarot.server.hub.log_entry`, i.e.
``state.action_seen_by``), the hand number and whether a hand or the match ended there.
Every seat's cards as dealt (the record's ``deals``) are added only when the caller
says the viewer may see them: a finished table, or a record the viewer uploaded.

Replaying costs CPU: a record over :data:`MAX_STEPS` actions is refused, and
:class:`ReplayCache` keeps the encoded answers of finished tables per (table, seat).
"""

from __future__ import annotations

import gzip
import json
from collections import OrderedDict
from typing import Any

import xtarot
from xtarot.engine import IllegalAction, RecordError
from xtarot.server.hub import log_entry

__all__ = ["MAX_STEPS", "ReplayCache", "ReplayError", "frames"]

#: The most actions a replay is computed for (a long match of many hands stays below).
MAX_STEPS = 5000
#: Answers kept by :class:`ReplayCache`, and the bytes they may take in all.
CACHE_SIZE = 32
CACHE_BYTES = 64 * 1024 * 1024


class ReplayError(ValueError):
    """A record that cannot be replayed (the message says why), or one too long."""


def frames(
    record: dict[str, Any],
    seat: int | None,
    *,
    deals: bool,
    upto: int | None = None,
    as_saved: bool = False,
) -> dict[str, Any]:
    """The frames of ``record`` seen from ``seat`` (``None``: a spectator), up to
    ``upto`` actions (default all).  ``deals``: include every hand as dealt (only
    for viewers allowed to see them).  ``as_saved``: a record of a match that is not
    over is shown as ``xtarot replay`` shows it, without the deals and, when no seat
    is asked for, from the seat that saved it (``meta.human_seat``, else seat 0).
    Raises :class:`ReplayError`."""
    if not isinstance(record, dict):
        raise ReplayError("a record is a JSON object")
    actions = record.get("actions")
    if isinstance(actions, list) and len(actions) > MAX_STEPS:
        raise ReplayError(
            f"the match is too long to replay here ({len(actions)} moves; at most {MAX_STEPS})"
        )
    try:
        state = xtarot.replay(record, upto=0)
        whole = xtarot.replay(record)  # the whole record, its result included, must hold
    except RecordError as err:
        raise ReplayError(f"not a valid record: {err}") from None
    except (TypeError, ValueError, KeyError) as err:  # options of the wrong kind...
        raise ReplayError(f"not a valid record: {err}") from None
    players = state.players
    if as_saved and not whole.is_terminal:
        deals = False
        if seat is None:
            saver = (record.get("meta") or {}).get("human_seat", 0)
            valid = isinstance(saver, int) and not isinstance(saver, bool) and saver < players
            seat = saver if valid and saver >= 0 else 0
    if seat is not None and (isinstance(seat, bool) or not 0 <= seat < players):
        raise ReplayError(f"no seat {seat!r}: seats are 0..{players - 1}")
    index = -1 if seat is None else seat
    texts = actions[: len(actions) if upto is None else min(upto, len(actions))]

    def view() -> dict[str, Any]:
        return state.view(seat) if seat is not None else state.public_view()

    out: list[dict[str, Any]] = [
        {"n": 0, "hand": 0, "move": None, "view": view(), "hand_over": False, "match_over": False}
    ]
    log: list[dict[str, Any]] = []
    for i, text in enumerate(texts):
        try:
            action = state.game.action(text)
            entry = log_entry(state, action)
            state.apply(action)
        except IllegalAction as err:  # replayed once already: cannot happen
            raise ReplayError(f"not a valid record: action {i + 1} ({text!r}): {err}") from None
        move = {"n": entry.n, "seat": entry.actor, "hand": entry.hand, "text": entry.seen[index]}
        log.append(move)
        hand = len(state.deals) - 1
        out.append(
            {
                "n": i + 1,
                "hand": hand,
                "move": move,
                "view": view(),
                "hand_over": hand != entry.hand or state.is_terminal,
                "match_over": state.is_terminal,
            }
        )
    hands: list[dict[str, Any]] = []
    for f in out:
        if not hands or hands[-1]["hand"] != f["hand"]:
            hands.append({"hand": f["hand"], "first": f["n"], "last": f["n"]})
        hands[-1]["last"] = f["n"]
    for h in hands[:-1]:
        h["last"] += 1  # the move that ended a hand shows the next one's deal
    finished = state.is_terminal
    return {
        "format": "xtarot-replay",
        "game": state.game.id,
        "players": players,
        "options": dict(state.game.options),
        "seat": seat,
        "steps": len(texts),
        "finished": finished,
        "hands": hands,
        "log": log,
        "frames": out,
        "deals": [_dealt(d, players) for d in record["deals"][: len(state.deals)]]
        if deals
        else None,
        "result": state.scores().to_dict() if finished else None,
    }


def _dealt(deal: dict[str, Any], players: int) -> dict[str, Any]:
    """A hand as dealt: every seat's cards (``hands``) and the other piles."""
    hands = deal.get("hands")
    piles = {k: v for k, v in deal.items() if k != "hands"}
    if not isinstance(hands, list) or len(hands) != players:
        hands = None
    return {"hands": hands, "piles": piles}


def encode(data: dict[str, Any]) -> tuple[bytes, bytes]:
    """The JSON body and its gzip (replays compress about tenfold)."""
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    return body, gzip.compress(body, compresslevel=6)


class ReplayCache:
    """Encoded replays (JSON bytes and their gzip) by key, the least used dropped;
    a finished table's frames never change, so they are computed once per seat."""

    def __init__(self, size: int = CACHE_SIZE, max_bytes: int = CACHE_BYTES) -> None:
        self.size = size
        self.max_bytes = max_bytes
        self.bytes = 0
        self.items: OrderedDict[Any, tuple[bytes, bytes]] = OrderedDict()

    def get(self, key: Any) -> tuple[bytes, bytes] | None:
        found = self.items.get(key)
        if found is not None:
            self.items.move_to_end(key)
        return found

    def put(self, key: Any, item: tuple[bytes, bytes]) -> tuple[bytes, bytes]:
        size = len(item[0]) + len(item[1])
        if key is None or size > self.max_bytes // 4:  # an upload, or too big to keep
            return item
        old = self.items.pop(key, None)
        if old is not None:
            self.bytes -= len(old[0]) + len(old[1])
        self.items[key] = item
        self.bytes += size
        while len(self.items) > self.size or self.bytes > self.max_bytes:
            _, dropped = self.items.popitem(last=False)
            self.bytes -= len(dropped[0]) + len(dropped[1])
        return item
