"""Searching bots think in worker processes (``--bot-processes``): a table of `hard`
bots plays to its end through the pool, the pool's moves are legal, and the server
says where its bots think."""

from __future__ import annotations

import os
import time
import warnings
from pathlib import Path

import pytest

with warnings.catch_warnings():  # starlette's notice about httpx versions
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

import xtarot
from xtarot.server import create_app
from xtarot.server.botpool import NICENESS, SEARCHING, BotPool, think


def test_think_answers_for_the_seat_to_act_only() -> None:
    state = xtarot.load("extendori", players=3).new_state(seed=5)
    text = think("hard", 1, {"seconds": 0.05}, state)
    assert state.game.action(text) in state.legal_actions()
    assert {"hard", "expert", "ismcts", "pimc"} == SEARCHING
    with pytest.raises(ValueError, match="at least one process"):
        BotPool(0)


def test_a_table_of_hard_bots_plays_through_the_pool(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'tables.db'}"
    app = create_app(db, bot_delay=0, bot_seconds=0.05, bot_processes=1)
    with TestClient(app) as client:
        body = {
            "game": "extendori",
            "players": 3,
            "seats": ["hard", "hard", "random"],
            "options": {"hands": 1},
        }
        t = client.post("/api/tables", json=body).json()
        deadline = time.monotonic() + 120
        while not client.get(f"/api/tables/{t['id']}").json()["finished"]:
            assert time.monotonic() < deadline, "the table of bots did not finish"
            time.sleep(0.2)
        pool = app.state.hub.pool
        assert pool is not None and pool._executor is not None  # the pool did the thinking
        record = client.get(f"/api/tables/{t['id']}/record").json()
        assert xtarot.replay(record).is_terminal  # every move legal, replayed


@pytest.mark.skipif(not hasattr(os, "nice"), reason="no CPU priorities here")
def test_workers_think_at_a_lower_cpu_priority_than_the_server() -> None:
    """Where cores are short, the server's event loop goes first and the bots search
    in what it leaves (docs/deploy.md)."""
    pool = BotPool(1)
    try:
        niceness = pool._pool().submit(os.nice, 0).result(timeout=60)
    finally:
        pool.close()
    ours = os.nice(0)
    assert niceness == min(19, ours + NICENESS)
    assert niceness > ours or ours == 19  # (tests run at the lowest priority already)


def test_a_worker_ends_when_its_server_is_killed(tmp_path: Path) -> None:
    """A server killed outright cannot stop its bot workers: they notice that their
    parent is gone and exit (before this, they waited for work forever)."""
    import subprocess
    import sys

    code = (
        "import asyncio, os, xtarot\n"
        "from xtarot.server.botpool import BotPool\n"
        "pool = BotPool(1)\n"
        "state = xtarot.load('extendori', players=3).new_state(seed=5)\n"
        "asyncio.run(pool.act('random', 1, {}, state))\n"
        "print(*pool._executor._processes, flush=True)\n"
        "os._exit(0)  # as a SIGKILL: no shutdown of any kind\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src")}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env
    )
    assert out.returncode == 0, out.stderr
    workers = [int(pid) for pid in out.stdout.split()]
    assert workers
    deadline = time.monotonic() + 15
    while any(Path(f"/proc/{pid}").exists() for pid in workers):
        assert time.monotonic() < deadline, f"bot workers {workers} outlived their server"
        time.sleep(0.1)
