"""Learn tables (``POST /api/learn``, :mod:`xtarot.server.learn`): set up for a guided
first hand, marked as such for the page, kept after a restart, never rated.  The coach
itself is tested in the browser (``test_web_learn.py``)."""

from __future__ import annotations

import json
import time
import warnings
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

with warnings.catch_warnings():  # starlette's notice about httpx versions
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

import xtarot
from xtarot.agents import decision_for
from xtarot.server import create_app
from xtarot.server.hub import Hub, Limits, hint_agent
from xtarot.server.learn import LEARN

FAST = (10_000.0, 10_000.0)
KEY = "learner-key-0123456789abcdef"


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tables.db'}"


def next_of(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        msg = ws.receive_json()
        if msg["type"] == kind:
            return msg


def test_a_learn_table_for_every_game_and_bad_requests(db: str) -> None:
    """One learn table per game: the learner in Seat 1, easy bots, the setup's player
    count, options and first deal; marked learn (also after a restart); Learn again
    takes the next deal; the games without one and bad values are refused."""
    assert set(LEARN) == {g.id for g in xtarot.games()}
    ids = {}
    limits = Limits(table_burst=50)
    with TestClient(create_app(db, bot_delay=0, rate=FAST, limits=limits)) as client:
        games = {g["id"]: g for g in client.get("/api/games").json()["games"]}
        for game, setup in LEARN.items():
            assert games[game]["learn"] is True
            res = client.post("/api/learn", json={"game": game, "player": KEY})
            assert res.status_code == 201, res.text
            t = res.json()
            assert t["learn"] is True and t["players"] == setup.players
            assert [s["kind"] for s in t["seats"]] == ["human"] + ["bot"] * (setup.players - 1)
            assert {s["bot"] for s in t["seats"][1:]} == {"easy"}
            assert t["seats"][0]["link"].endswith(f"&seat=0&token={t['seats'][0]['token']}")
            for name, value in setup.options.items():
                assert t["options"][name] == value
            ids[game] = t["id"]
            live = client.app.state.hub.tables[t["id"]]
            assert live.state.seed == setup.seeds[0] and live.learn and live.host is not None
        again = client.post("/api/learn", json={"game": "matto", "again": 1}).json()
        assert client.app.state.hub.tables[again["id"]].state.seed == LEARN["matto"].seeds[1]
        plain = client.post(
            "/api/tables", json={"game": "matto", "players": 3, "seats": ["human"] * 3}
        ).json()
        assert plain["learn"] is False
        for body, words in [
            ({"game": "chess"}, "games to learn"),
            ({}, "games to learn"),
            ({"game": "matto", "again": -1}, "'again'"),
            ({"game": "matto", "again": True}, "'again'"),
            ({"game": "matto", "player": "x"}, "player key"),
        ]:
            res = client.post("/api/learn", json=body)
            assert res.status_code == 400 and words in res.json()["error"], (body, res.text)
    with TestClient(create_app(db, bot_delay=0)) as client:  # a restart
        for game, table_id in ids.items():
            info = client.get(f"/api/tables/{table_id}").json()
            assert info["learn"] is True and info["game"] == game
        assert client.get(f"/api/tables/{plain['id']}").json()["learn"] is False


def test_the_learner_following_the_hints_wins_a_learn_hand_that_is_not_rated(db: str) -> None:
    """Grail Mahjong's first learn deal, the learner taking every hint (the coach shows
    it): the hand ends with the learner's agari, and the match, though it has a player
    identity in it, is not rated."""
    with TestClient(create_app(db, bot_delay=0, rate=FAST)) as client:
        t = client.post("/api/learn", json={"game": "grail-mahjong", "player": KEY}).json()
        live = client.app.state.hub.tables[t["id"]]
        with client.websocket_connect(f"/ws/{t['id']}") as ws:
            hello = {"type": "hello", "seat": 0, "token": t["seats"][0]["token"], "player": KEY}
            ws.send_text(json.dumps(hello))
            assert next_of(ws, "welcome")["table"]["learn"] is True
            deadline = time.monotonic() + 60
            moves = 0
            while not live.state.is_terminal:
                assert time.monotonic() < deadline, "the learn hand did not end"
                if live.state.current_player != 0:
                    time.sleep(0.005)
                    continue
                ws.send_text(json.dumps({"type": "hint", "lang": "en"}))
                hint = next_of(ws, "hint")
                ws.send_text(json.dumps({"type": "act", "action": hint["action"], "n": hint["n"]}))
                while ws.receive_json()["type"] not in ("ok", "error"):
                    pass
                moves += 1
        result = live.state.view(0)["results"][-1]
        assert result["end"] == "agari" and result["winners"] == [0], result
        assert moves <= 12
        assert live.results == []
        assert client.get("/api/tables/" + t["id"]).json()["results"] == []
        assert client.get("/api/leaderboard/grail-mahjong").json()["players"] == []


@pytest.mark.parametrize("game", sorted(LEARN))
def test_every_learn_deal_is_won_by_taking_the_hints(game: str) -> None:
    """Every deal of LEARN, played with the server's own bots (seeded as the hub seeds a
    table's bots) while the learner takes the hint bot's move (seeded as the hub seeds a
    hint): the learner wins (the deals were chosen this way; about 3 s for all)."""
    setup = LEARN[game]
    hub = SimpleNamespace(bot_seconds=1.0)  # all Hub.seat_agent reads
    for seed in setup.seeds:
        g = xtarot.load(game, players=setup.players, **setup.options)
        state = g.new_state(seed=seed)
        bots = {s: Hub.seat_agent(hub, "easy", seed, s, 0) for s in range(1, setup.players)}  # type: ignore[arg-type]
        while not state.is_terminal:
            seat = state.current_player
            agent = hint_agent(game, len(state.history) * 7, 0.5) if seat == 0 else bots[seat]
            state.apply(agent.act(decision_for(state.clone() if seat == 0 else state)))
        assert 0 in state.scores().winners, (game, seed, state.scores().totals)
