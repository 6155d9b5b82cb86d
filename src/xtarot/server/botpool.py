"""Searching bots think in worker processes, off the server's event loop.

A ``hard``, ``expert``, ``ismcts`` or ``pimc`` bot spends its whole budget (a second by
default) running Python. In a thread of the server's process it holds the interpreter
lock most of that time, so every other table's moves wait behind it. With a pool
(``xtarot serve --bot-processes N``) the bot runs in one of ``N`` worker processes
instead: the server sends the position, the worker builds the bot (its seed derived
from the table's seed, the seat and the move number, so a table's bots stay
reproducible), lets it see only that seat's decision (its view and a world sampler,
as everywhere) and sends back the move's text. The server then checks the answer
against the table's position as it is *now* before applying it (a move that is stale
or illegal is dropped; ``Hub.act`` refuses it). A worker ends by itself when its server
is gone, even one killed outright.  Workers run at a lower CPU priority than their
server (:data:`NICENESS`): where cores are short, the operating system gives them what
the server's event loop leaves, so a thinking bot takes its play-outs from the spare
CPU time, not from other tables' moves (it thinks for the same seconds, with fewer
play-outs when the machine is busy).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from xtarot.agents import decision_for, make_agent
from xtarot.engine import State

__all__ = ["SEARCHING", "BotPool", "think"]

#: The bots worth a process: they search for their whole time budget.
SEARCHING = frozenset({"hard", "expert", "ismcts", "pimc"})


#: How much lower the bot workers' CPU priority is than their server's (Unix ``nice``).
NICENESS = 10


def _start_worker(parent: int) -> None:
    """In a worker (the pool's initializer): a lower CPU priority, and an end when the
    server is gone."""
    if hasattr(os, "nice"):  # Unix
        os.nice(NICENESS)
    _exit_with_parent(parent)


def _exit_with_parent(parent: int) -> None:
    """End this worker process when the server that started it is gone.  A server
    killed outright (SIGKILL, a crash) cannot stop its workers, and a worker waits for
    work forever: this one notices within a second that its parent changed and exits."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="xtarot-parent-watch", daemon=True).start()


def think(name: str, seed: int, settings: dict[str, Any], state: State) -> str:
    """In a worker: bot ``name``'s move for the seat to act (its decision only)."""
    agent = make_agent(name, seed, **settings)
    return agent.act(decision_for(state)).text


class BotPool:
    """A pool of ``processes`` workers (started on first use, with ``spawn``: the
    server's threads and event loop are not copied into them)."""

    def __init__(self, processes: int) -> None:
        if processes < 1:
            raise ValueError("a bot pool needs at least one process")
        self.processes = processes
        self._executor: ProcessPoolExecutor | None = None

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                self.processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(os.getpid(),),
            )
        return self._executor

    async def act(self, name: str, seed: int, settings: dict[str, Any], state: State) -> str:
        """The move's text (raises what the bot raised)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool(), think, name, seed, settings, state)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
