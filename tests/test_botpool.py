"""Searching bots think in worker processes (``--bot-processes``): a table of `hard`
bots plays to its end through the pool, the pool's moves are legal, and the server
says where its bots think."""

from __future__ import annotations

import time
import warnings
from pathlib import Path

import pytest

with warnings.catch_warnings():  # starlette's notice about httpx versions
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

import xtarot
from xtarot.server import create_app
from xtarot.server.botpool import SEARCHING, BotPool, think


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
