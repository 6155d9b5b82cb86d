"""The people at a table (FastAPI TestClient): display names, chat with quick phrases,
the rematch vote, and all of it surviving a restart; bad input refused with a reason."""

from __future__ import annotations

import json
import random
import re
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():  # starlette's notice about httpx versions
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from xtarot.server import create_app
from xtarot.server.people import PHRASES, clean_chat, clean_name

FAST = (10_000.0, 10_000.0)
XSS = '<img src=x onerror="alert(1)">'


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tables.db'}"


def new_table(client: TestClient, seats: list[str], game: str = "matto", **extra: Any) -> Any:
    body = {"game": game, "players": len(seats), "seats": seats, **extra}
    res = client.post("/api/tables", json=body)
    assert res.status_code == 201, res.text
    return res.json()


def hello(ws: Any, table: Any, seat: int | None, name: str | None = None) -> dict[str, Any]:
    msg: dict[str, Any] = {"type": "hello"}
    if seat is not None:
        msg |= {"seat": seat, "token": table["seats"][seat]["token"]}
    if name is not None:
        msg["name"] = name
    ws.send_text(json.dumps(msg))
    while (got := ws.receive_json())["type"] != "welcome":
        pass
    return got


def next_of(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        msg = ws.receive_json()
        if msg["type"] == kind:
            return msg


def state_now(ws: Any) -> dict[str, Any]:
    ws.send_text(json.dumps({"type": "state"}))
    return next_of(ws, "state")


def seats_when(ws: Any, check: Any) -> list[dict[str, Any]]:
    """The seats of the first state (asked for again and again) that passes ``check``."""
    deadline = time.monotonic() + 10
    while not check(seats := state_now(ws)["seats"]):
        assert time.monotonic() < deadline, seats
    return seats


def test_names_and_chat_texts_are_checked() -> None:
    assert clean_name(" 花子 ") == "花子"
    assert clean_name(XSS[:24]) == XSS[:24]  # any text: the page sets it as text
    for bad, why in [
        ("", "1 to 24"),
        ("   ", "1 to 24"),
        ("a" * 25, "1 to 24"),
        ("bell\x07", "control characters (U+0007)"),
        ("evil\u202eeman", "control characters (U+202E)"),
        (7, "must be text"),
    ]:
        with pytest.raises(ValueError, match=re.escape(why)):
            clean_name(bad)
    assert clean_chat("a" * 200) == "a" * 200
    with pytest.raises(ValueError, match="1 to 200"):
        clean_chat("a" * 201)


def test_names_show_on_the_seats_for_everyone(db: str) -> None:
    with TestClient(create_app(db, bot_delay=0)) as client:
        t = new_table(client, ["human", "human", "easy"])
        with (
            client.websocket_connect(f"/ws/{t['id']}") as w0,
            client.websocket_connect(f"/ws/{t['id']}") as w1,
            client.websocket_connect(f"/ws/{t['id']}") as spec,
        ):
            hello(w0, t, 0, "  Ada  ")
            hello(w1, t, 1, XSS)
            hello(spec, t, None, "Watcher")  # a spectator's name is not a seat's
            seats = seats_when(spec, lambda seats: seats[0]["name"] is not None)
            assert [s["name"] for s in seats] == ["Ada", None, None]  # XSS is 29 long
            w1.send_text(json.dumps({"type": "name", "name": XSS[:24]}))
            # as text, unchanged
            seats_when(spec, lambda seats: seats[1]["name"] == XSS[:24])
            # a new name, later
            w0.send_text(json.dumps({"type": "name", "name": "Ada L."}))
            seats_when(w1, lambda seats: seats[0]["name"] == "Ada L.")
            w0.send_text(json.dumps({"type": "name", "name": "x" * 30}))
            assert "1 to 24 characters" in next_of(w0, "error")["message"]
            spec.send_text(json.dumps({"type": "name", "name": "Eve"}))
            assert "spectators" in next_of(spec, "error")["message"]
        info = client.get(f"/api/tables/{t['id']}").json()
        assert info["seats"][0]["name"] == "Ada L."


def test_a_bad_name_in_hello_is_said_and_the_seat_joins_without_it(db: str) -> None:
    with TestClient(create_app(db, bot_delay=0)) as client:
        t = new_table(client, ["human", "random", "random"])
        with client.websocket_connect(f"/ws/{t['id']}") as ws:
            ws.send_text(
                json.dumps(
                    {"type": "hello", "seat": 0, "token": t["seats"][0]["token"], "name": ""}
                )
            )
            err = next_of(ws, "error")
            assert err["code"] == "bad_name" and "joined without a name" in err["message"]
            assert next_of(ws, "welcome")["seat"] == 0
            assert state_now(ws)["seats"][0]["name"] is None


def test_chat_reaches_every_client_and_is_refused_with_reasons(db: str) -> None:
    with TestClient(create_app(db, bot_delay=0)) as client:
        t = new_table(client, ["human", "human", "random"])
        with (
            client.websocket_connect(f"/ws/{t['id']}") as w0,
            client.websocket_connect(f"/ws/{t['id']}") as w1,
            client.websocket_connect(f"/ws/{t['id']}") as spec,
        ):
            hello(w0, t, 0, "Ada")
            hello(w1, t, 1, "花子")
            hello(spec, t, None)
            w0.send_text(json.dumps({"type": "chat", "text": f"hi {XSS}"}))
            for ws in (w0, w1, spec):
                msg = next_of(ws, "chat")
                assert msg == {
                    "type": "chat",
                    "n": 0,
                    "seat": 0,
                    "name": "Ada",
                    "text": f"hi {XSS}",
                }
            w1.send_text(json.dumps({"type": "chat", "phrase": "hello"}))
            for ws in (w0, w1, spec):
                msg = next_of(ws, "chat")
                assert msg == {"type": "chat", "n": 1, "seat": 1, "name": "花子", "phrase": "hello"}
            refusals = [
                (spec, {"type": "chat", "text": "let me play"}, "spectators can read the chat"),
                (w0, {"type": "chat", "text": "x" * 201}, "1 to 200 characters"),
                (w0, {"type": "chat", "text": "\x1b[31m"}, "control characters"),
                (w0, {"type": "chat", "phrase": "insult"}, "unknown phrase 'insult'"),
                (w0, {"type": "chat"}, "needs a 'text' or a 'phrase'"),
                (w0, {"type": "chat", "text": "a", "phrase": "gg"}, "needs a 'text' or a 'phrase'"),
            ]
            for ws, msg, why in refusals:
                ws.send_text(json.dumps(msg))
                assert why in next_of(ws, "error")["message"], why
            # a burst of five, then too fast
            for i in range(4):
                w1.send_text(json.dumps({"type": "chat", "text": f"spam {i}"}))
            w1.send_text(json.dumps({"type": "chat", "text": "one too many"}))
            assert "too fast" in next_of(w1, "error")["message"]
        assert set(PHRASES) >= {"hello", "nice", "thanks", "gg"}


def test_names_and_chat_survive_a_restart(db: str) -> None:
    with TestClient(create_app(db, bot_delay=0)) as c1:
        t = new_table(c1, ["human", "human", "random"])
        with c1.websocket_connect(f"/ws/{t['id']}") as w0:
            hello(w0, t, 0, "Ada")
            w0.send_text(json.dumps({"type": "chat", "text": "see you after the restart"}))
            next_of(w0, "chat")
            w0.send_text(json.dumps({"type": "chat", "phrase": "wait"}))
            next_of(w0, "chat")
    with (
        TestClient(create_app(db, bot_delay=0)) as c2,
        c2.websocket_connect(f"/ws/{t['id']}") as w1,
    ):
        welcome = hello(w1, t, 1, "Bob")
        assert welcome["chat"] == [
            {"n": 0, "seat": 0, "name": "Ada", "text": "see you after the restart"},
            {"n": 1, "seat": 0, "name": "Ada", "phrase": "wait"},
        ]
        assert [s["name"] for s in welcome["table"]["seats"]] == ["Ada", "Bob", None]
        w1.send_text(json.dumps({"type": "chat", "text": "back"}))
        assert next_of(w1, "chat")["n"] == 2  # numbering goes on


def play_out(client: TestClient, t: Any, socks: dict[int, Any], seed: int) -> None:
    """Random legal moves for the human seats until the match ends (bots move alone)."""
    live = client.app.state.hub.tables[t["id"]]
    rng = random.Random(seed)
    deadline = time.monotonic() + 120
    while not live.state.is_terminal:
        assert time.monotonic() < deadline, "the match did not end"
        seat = live.state.current_player
        if seat not in socks:
            time.sleep(0.002)
            continue
        msg = state_now(socks[seat])
        if msg["view"]["legal_actions"] and msg["view"]["current_player"] == seat:
            act = {"type": "act", "action": rng.choice(msg["view"]["legal_actions"]), "n": msg["n"]}
            socks[seat].send_text(json.dumps(act))
            while socks[seat].receive_json()["type"] not in ("ok", "error"):
                pass


def test_a_rematch_starts_when_every_human_agrees(db: str) -> None:
    with TestClient(create_app(db, bot_delay=0, rate=FAST)) as client:
        t = new_table(client, ["human", "random", "human"], game="extendori", options={"hands": 1})
        with (
            client.websocket_connect(f"/ws/{t['id']}") as w0,
            client.websocket_connect(f"/ws/{t['id']}") as w2,
            client.websocket_connect(f"/ws/{t['id']}") as spec,
        ):
            hello(w0, t, 0, "Ada")
            hello(w2, t, 2, "Bob")
            hello(spec, t, None)
            w0.send_text(json.dumps({"type": "rematch"}))
            assert "once the match is over" in next_of(w0, "error")["message"]
            play_out(client, t, {0: w0, 2: w2}, seed=4)
            deadline = time.monotonic() + 10
            while (msg := state_now(w0))["rematch"] is None:  # older states were queued
                assert time.monotonic() < deadline
            assert msg["rematch"] == {
                "votes": [],
                "shuffle": False,
                "humans": [0, 2],
                "table": None,
            }
            spec.send_text(json.dumps({"type": "rematch"}))
            assert "spectators cannot vote" in next_of(spec, "error")["message"]
            w0.send_text(json.dumps({"type": "rematch"}))
            deadline = time.monotonic() + 10
            while (state_now(w2)["rematch"] or {}).get("votes") != [0]:  # (older states)
                assert time.monotonic() < deadline
            w2.send_text(json.dumps({"type": "rematch"}))
            m0, m2 = next_of(w0, "rematch"), next_of(w2, "rematch")
            watch = next_of(spec, "rematch")
            # seat 2's page comes back to the old table (still open here): its link again
            with client.websocket_connect(f"/ws/{t['id']}") as again:
                hello(again, t, 2)
                assert next_of(again, "rematch") == m2
        new_id = m0["table"]
        assert m2["table"] == watch["table"] == new_id != t["id"]
        assert (m0["seat"], m2["seat"]) == (0, 2) and "token" not in watch
        assert m0["token"] != m2["token"]
        info = client.get(f"/api/tables/{new_id}").json()
        assert info["game"] == "extendori" and info["options"]["hands"] == 1
        assert [s["kind"] for s in info["seats"]] == ["human", "bot", "human"]
        assert info["seats"][1]["bot"] == "random"
        assert [s["name"] for s in info["seats"]] == ["Ada", None, "Bob"]
        # each new link opens its own seat, and only that one
        new = client.app.state.hub.tables[new_id]
        assert new.check_token(0, m0["token"]) and new.check_token(2, m2["token"])
        assert not new.check_token(0, m2["token"])
