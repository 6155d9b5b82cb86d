"""Moves stored in batches: one worker thread and one commit for the moves that arrive
together.

On a database server every move is stored from a worker thread (the event loop must
not wait for the database).  Handing a move to a thread and its answer back costs the
event loop more than anything else it does for the move once the messages are cheap
(about a fifth of a busy server process's time, measured with py-spy), and each move's
own commit costs the database a disk flush.  A :class:`MoveWriter` collects the moves
that the event loop handles in one pass, from any tables, and stores them with one
:meth:`Store.append_many <xtarot.server.store.Store.append_many>`: one hand-off and one
commit for them all.  When the loop is idle a pass holds one move, which is stored on
its own as before; the busier the server, the larger the batches.

Each move's caller still learns exactly what happened to its move: stored, or taken
by another process first (:class:`~xtarot.server.store.MoveTaken`, nothing of it
stored), or its own error: when a batch's transaction fails (and so stores none of
its moves) each move is tried again on its own, so one move's failure (or a database
that is away) is reported to that move's caller, as without batches.
"""

from __future__ import annotations

import asyncio
from typing import Any

from xtarot.server.store import Store

__all__ = ["MoveWriter"]


class MoveWriter:
    """Stores moves for the event loop it runs on, a batch per pass of the loop."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._pending: list[tuple[dict[str, Any], asyncio.Future[None]]] = []
        self._writing: set[asyncio.Task[None]] = set()
        #: batches stored and moves in them (for the curious and for tests)
        self.batches = 0
        self.moves = 0

    async def append(self, table_id: str, n: int, text: str, **extra: Any) -> None:
        """Store move ``n`` of ``table_id`` (the arguments of ``Store.append``);
        raises what storing it raised."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._pending.append(({"table_id": table_id, "n": n, "text": text, **extra}, done))
        if len(self._pending) == 1:  # the first of this pass: write once the pass is over
            loop.call_soon(self._flush)
        await done

    def _flush(self) -> None:
        batch, self._pending = self._pending, []
        task = asyncio.get_running_loop().create_task(self._write(batch))
        self._writing.add(task)
        task.add_done_callback(self._writing.discard)

    async def _write(self, batch: list[tuple[dict[str, Any], asyncio.Future[None]]]) -> None:
        moves = [move for move, _ in batch]
        outcomes: list[BaseException | None]
        try:
            if len(moves) == 1:
                outcomes = await asyncio.to_thread(self._one_by_one, moves)
            else:
                outcomes = list(await asyncio.to_thread(self.store.append_many, moves))
        except Exception:  # the batch's transaction failed, and stored none of them:
            # each move on its own, so that one move's failure is that move's alone
            outcomes = await asyncio.to_thread(self._one_by_one, moves)
        self.batches += 1
        self.moves += len(moves)
        for (_, done), outcome in zip(batch, outcomes, strict=True):
            if done.done():  # its caller was cancelled
                continue
            if outcome is None:
                done.set_result(None)
            else:
                done.set_exception(outcome)

    def _one_by_one(self, moves: list[dict[str, Any]]) -> list[BaseException | None]:
        """In a worker thread: each move in a transaction of its own."""
        outcomes: list[BaseException | None] = []
        for move in moves:
            try:
                self.store.append(**move)
                outcomes.append(None)
            except Exception as err:
                outcomes.append(err)
        return outcomes
