"""The web server: HTTP API, websocket protocol, hidden information, bad input,
persistence and resumption (FastAPI TestClient, no browser)."""

from __future__ import annotations

import json
import os
import random
import threading
import time
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("fastapi", reason="the web extra is not installed")
pytest.importorskip("httpx", reason="httpx is not installed")

with warnings.catch_warnings():  # starlette's notice about httpx versions
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

import xtarot
from xtarot.agents.heuristic import STRATEGIES
from xtarot.server import create_app
from xtarot.server.hub import LOG_SIZE, MAX_MESSAGE, MAX_REFUSALS
from xtarot.server.store import Store, default_url, hash_token


@pytest.fixture
def db(tmp_path: Path) -> str:
    """SQLite by default; XTAROT_TEST_DB_URL runs the same tests on another database
    (e.g. ``postgresql+psycopg://user:pw@127.0.0.1/xtarot``)."""
    return os.environ.get("XTAROT_TEST_DB_URL") or f"sqlite:///{tmp_path / 'tables.db'}"


@pytest.fixture
def client(db: str) -> Any:
    with TestClient(create_app(db, bot_delay=0, hint_seconds=0.1)) as c:
        yield c


@pytest.fixture
def fast_client(db: str) -> Any:
    """No practical rate limit: whole matches of random moves as fast as they come."""
    with TestClient(create_app(db, bot_delay=0, rate=(10_000.0, 10_000.0))) as c:
        yield c


def new_table(client: TestClient, seats: list[str], game: str = "sono-arcana", **extra: Any):
    body = {"game": game, "players": len(seats), "seats": seats, **extra}
    res = client.post("/api/tables", json=body)
    assert res.status_code == 201, res.text
    return res.json()


def hello(ws: Any, table: dict[str, Any], seat: int | None) -> dict[str, Any]:
    msg: dict[str, Any] = {"type": "hello"}
    if seat is not None:
        msg |= {"seat": seat, "token": table["seats"][seat]["token"]}
    ws.send_text(json.dumps(msg))
    welcome = ws.receive_json()
    assert welcome["type"] == "welcome", welcome
    return welcome


def next_of(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        msg = ws.receive_json()
        if msg["type"] == kind:
            return msg


def latest_state(ws: Any) -> dict[str, Any]:
    """Ask for the current state and return it (skipping queued messages)."""
    ws.send_text(json.dumps({"type": "state"}))
    return next_of(ws, "state")


def fresh_state(ws: Any, live: Any) -> dict[str, Any]:
    """The state message for the table's current position (older queued ones skipped)."""
    ws.send_text(json.dumps({"type": "state"}))
    while (msg := next_of(ws, "state"))["n"] != live.n:
        pass
    return msg


def short_options(info: xtarot.GameInfo) -> dict[str, Any]:
    """One-hand options for long multi-hand games, as the conformance kit uses."""
    return dict(getattr(info, "bulk_options", ()) or ())


# -- HTTP -------------------------------------------------------------------------------
def test_pages_static_files_and_security_headers(client: TestClient) -> None:
    for path in ("/", "/table", "/static/cards.js", "/static/table.js", "/static/style.css"):
        res = client.get(path)
        assert res.status_code == 200, path
        assert res.headers["x-content-type-options"] == "nosniff"
        assert "default-src 'self'" in res.headers["content-security-policy"]
    assert "<script" in client.get("/").text


def test_games_lists_every_registered_game_with_its_bots(client: TestClient) -> None:
    games = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    assert set(games) == {i.id for i in xtarot.games()}
    for gid, g in games.items():
        assert ("heuristic" in g["bots"]) == (gid in STRATEGIES)
        assert "random" in g["bots"] and "ismcts" in g["bots"]
    assert games["sono-arcana"]["players"] == [3, 5]


def test_create_table_gives_secret_links_and_stores_only_hashes(
    client: TestClient, db: str
) -> None:
    t = new_table(client, ["human", "heuristic", "human", "random"], seed=3)
    humans = [s for s in t["seats"] if s["kind"] == "human"]
    assert [s["seat"] for s in humans] == [0, 2]
    assert all("token" not in s for s in t["seats"] if s["kind"] == "bot")
    assert len({s["token"] for s in humans}) == 2
    for s in humans:
        assert s["link"].endswith(f"/table#t={t['id']}&seat={s['seat']}&token={s['token']}")
    assert t["spectator"].endswith(f"/table#t={t['id']}")
    stored = Store(db).load(t["id"])
    assert stored is not None
    assert stored.seats[0].token_hash == hash_token(humans[0]["token"])
    if db.startswith("sqlite:///"):  # the raw database file never holds a token
        raw = Path(db.removeprefix("sqlite:///")).read_bytes()
        assert humans[0]["token"].encode() not in raw
    info = client.get(f"/api/tables/{t['id']}").json()
    assert info["game"] == "sono-arcana" and info["players"] == 4
    assert [s["kind"] for s in info["seats"]] == ["human", "bot", "human", "bot"]
    assert "token_hash" not in json.dumps(info)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"game": "nope", "seats": ["human"] * 4}, "unknown game 'nope'"),
        ({"game": "sono-arcana", "seats": ["human"] * 6}, "3 to 5 players, not 6"),
        ({"game": "sono-arcana", "players": 4, "seats": ["human"] * 3}, "needs 4 seats"),
        ({"game": "sono-arcana", "seats": ["human", "alien", "random"]}, "seat 1: 'alien'"),
        (
            {"game": "sono-arcana", "seats": ["human"] * 3, "options": {"teams": True}},
            "teams=True needs 4 players",
        ),
        (
            {"game": "sono-arcana", "seats": ["human"] * 3, "options": {"colour": 1}},
            "unknown option colour",
        ),
        ({"game": "sono-arcana", "seats": "human"}, "'seats' must be a list"),
        ({"game": 5, "seats": []}, "'game' must be a game id"),
        ({"game": "sono-arcana", "seats": ["human"] * 3, "seed": "x"}, "seed must be"),
        ({"game": "sono-arcana", "players": True, "seats": []}, "'players' must be"),
    ],
)
def test_create_table_refuses_bad_requests_clearly(
    client: TestClient, body: dict[str, Any], message: str
) -> None:
    res = client.post("/api/tables", json=body)
    assert res.status_code == 400
    assert message in res.json()["error"]


def test_heuristic_bot_only_where_the_game_has_one(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # every game has one today: take one away to see the refusal
    monkeypatch.delitem(STRATEGIES, "matto")
    info = next(i for i in xtarot.games() if i.id == "matto")
    seats = ["heuristic"] * info.min_players
    res = client.post("/api/tables", json={"game": info.id, "seats": seats})
    assert res.status_code == 400
    assert f"no heuristic bot for {info.id}" in res.json()["error"]


JSON_TYPE = {"Content-Type": "application/json"}


def test_malformed_and_oversized_bodies(client: TestClient) -> None:
    res = client.post("/api/tables", content=b"{not json", headers=JSON_TYPE)
    assert res.status_code == 400 and "JSON object" in res.json()["error"]
    res = client.post("/api/tables", content=b"[1, 2]", headers=JSON_TYPE)
    assert res.status_code == 400
    res = client.post("/api/tables", content=b"{" + b" " * 10000 + b"}", headers=JSON_TYPE)
    assert res.status_code == 413
    # every route reads a body the same bounded way (POST /api/me read any size)
    res = client.post("/api/me", content=b'{"key": "' + b"k" * 10000 + b'"}', headers=JSON_TYPE)
    assert res.status_code == 413 and "at most 8192 bytes" in res.json()["error"]
    res = client.post("/api/me", content=b"[1]", headers=JSON_TYPE)
    assert res.status_code == 400 and "player key" in res.json()["error"]
    assert client.get("/api/tables/doesnotexist").status_code == 404
    assert client.get("/api/tables/doesnotexist/record").status_code == 404


# -- websockets: hidden information --------------------------------------------------------
def _player(ws: Any, seat: int, rng: random.Random, errors: list[Any]) -> None:
    """A client that plays random legal moves for its seat until the match is over."""
    acted: set[int] = set()
    sent = ""
    while True:
        msg = ws.receive_json()
        if msg["type"] == "error":
            if "too many messages" in msg["message"]:
                time.sleep(0.3)  # the rate limit refused the move: send it again
                ws.send_text(sent)
            elif "game moved on" not in msg["message"]:
                errors.append((seat, msg))
        if msg["type"] != "state":
            continue
        if msg["finished"]:
            return
        legal = msg["view"].get("legal_actions") or []
        if legal and msg["n"] not in acted:
            acted.add(msg["n"])
            sent = json.dumps({"type": "act", "action": rng.choice(legal), "n": msg["n"]})
            ws.send_text(sent)


def views_by_step(record: dict[str, Any]) -> list[dict[int | None, Any]]:
    """Every seat's view (and the public one) after each number of actions, as JSON;
    under the key ``"log"`` the moves so far as each seat saw them."""
    state = xtarot.replay(record, upto=0)
    seats: list[int | None] = [*range(record["players"]), None]
    seen: dict[int | None, list[dict[str, Any]]] = {s: [] for s in seats}

    def snap() -> dict[Any, Any]:
        out: dict[Any, Any] = {
            s: json.loads(json.dumps(state.view(s) if s is not None else state.public_view()))
            for s in seats
        }
        out["log"] = {s: list(seen[s]) for s in seats}
        return out

    out = [snap()]
    for n, text in enumerate(record["actions"]):
        action = state.game.action(text)
        for s in seats:
            entry = {"n": n, "seat": state.current_player, "hand": len(state.deals) - 1}
            seen[s].append(entry | {"text": state.action_seen_by(action, s)})
        state.apply(action)
        out.append(snap())
    return out


def check_payloads(
    payloads: list[dict[str, Any]], seat: int | None, views: list[dict[int | None, Any]]
) -> int:
    """Every state payload holds exactly this seat's view at its position, nothing else."""
    count = 0
    for msg in payloads:
        assert set(msg) <= {
            "type",
            "table",
            "n",
            "seat",
            "seats",
            "finished",
            "view",
            "message",
            "legal",
            "action",
            "bot",
            "text",
            "log",
            "clock",
            "code",
            "chat",  # the welcome's chat history: what players wrote, none here
            "rematch",  # once over: who asked for another match
            "host",  # the welcome: whether this client is the table's host
            "settings",  # the host's choices (muted seats, spectators' chat...): public
            "results",  # once over: the rated result (public, like the scores)
        }
        if msg["type"] == "welcome":
            assert msg["chat"] == []
        if msg["type"] != "state":
            continue
        assert msg["rematch"] is None or set(msg["rematch"]) == {
            "votes",
            "shuffle",
            "humans",
            "table",
        }
        assert msg["results"] is None or msg["finished"]
        count += 1
        assert msg["seat"] == seat
        assert msg["view"] == views[msg["n"]][seat], (seat, msg["n"])
        # the move log: the latest moves exactly as this seat saw them (face-down masked)
        assert msg["log"] == views[msg["n"]]["log"][seat][-LOG_SIZE:], (seat, msg["n"])
        if seat is None:
            assert "hand" not in msg["view"]
    return count


def test_two_humans_and_two_bots_over_websockets_get_only_their_own_views(
    client: TestClient,
) -> None:
    app = client.app
    app.state.hub.audit = True
    t = new_table(client, ["human", "human", "heuristic", "random"], seed=99)
    errors: list[Any] = []
    with (
        client.websocket_connect(f"/ws/{t['id']}") as w0,
        client.websocket_connect(f"/ws/{t['id']}") as w1,
        client.websocket_connect(f"/ws/{t['id']}") as spectator,
    ):
        hello(spectator, t, None)
        for seat, ws in ((0, w0), (1, w1)):
            ws.send_text(
                json.dumps({"type": "hello", "seat": seat, "token": t["seats"][seat]["token"]})
            )
        threads = [
            threading.Thread(target=_player, args=(ws, s, random.Random(s), errors))
            for s, ws in ((0, w0), (1, w1))
        ]
        for th in threads:
            th.start()
        for th in threads:
            th.join(60)
        assert not any(th.is_alive() for th in threads)
        live = app.state.hub.tables[t["id"]]
        conns = list(live.conns)
    assert not errors, errors
    record = client.get(f"/api/tables/{t['id']}/record").json()
    state = xtarot.replay(record)
    assert state.is_terminal
    views = views_by_step(record)
    by_seat = {c.seat: c.audit for c in conns}
    assert set(by_seat) == {0, 1, None}
    for seat, payloads in by_seat.items():
        assert payloads is not None
        # a payload after every single action, since everyone was connected throughout
        assert check_payloads(payloads, seat, views) >= len(record["actions"])


@pytest.mark.parametrize("info", xtarot.games(), ids=lambda i: i.id)
def test_every_game_sends_each_seat_only_its_view(fast_client: TestClient, info: Any) -> None:
    """Bots play a whole match of every registered game while every seat and a
    spectator listen; each payload must be exactly that seat's view at that moment."""
    client = fast_client
    app = client.app
    app.state.hub.audit = True
    players = info.min_players
    body = {
        "game": info.id,
        "players": players,
        "seats": ["human"] * players,
        "options": short_options(info),
        "seed": 5,
    }
    res = client.post("/api/tables", json=body)
    assert res.status_code == 201, res.text
    t = res.json()
    sockets = [client.websocket_connect(f"/ws/{t['id']}") for _ in range(players + 1)]
    errors: list[Any] = []
    try:
        opened = [s.__enter__() for s in sockets]
        hello(opened[-1], t, None)
        for seat in range(players):
            opened[seat].send_text(
                json.dumps({"type": "hello", "seat": seat, "token": t["seats"][seat]["token"]})
            )
        threads = [
            threading.Thread(target=_player, args=(opened[s], s, random.Random(s), errors))
            for s in range(players)
        ]
        for th in threads:
            th.start()
        for th in threads:
            th.join(120)
        assert not any(th.is_alive() for th in threads)
        conns = list(app.state.hub.tables[t["id"]].conns)
    finally:
        for s in sockets:
            s.__exit__(None, None, None)
    assert not errors, errors
    record = client.get(f"/api/tables/{t['id']}/record").json()
    views = views_by_step(record)
    assert len(conns) == players + 1
    for conn in conns:
        assert check_payloads(conn.audit or [], conn.seat, views) >= len(record["actions"])


# -- websockets: refusals -------------------------------------------------------------------
def test_wrong_tokens_other_seats_and_bad_messages_change_nothing(client: TestClient) -> None:
    t = new_table(client, ["human", "human", "random"], seed=11)
    tid = t["id"]
    with client.websocket_connect(f"/ws/{tid}") as ws:
        ws.send_text(json.dumps({"type": "act", "action": "lot 1"}))
        assert "send hello first" in next_of(ws, "error")["message"]
        ws.send_text(json.dumps({"type": "hello", "seat": 0, "token": t["seats"][1]["token"]}))
        assert "wrong seat or token" in next_of(ws, "error")["message"]
        ws.send_text(json.dumps({"type": "hello", "seat": 2, "token": "x"}))
        assert "wrong seat or token" in next_of(ws, "error")["message"]
        ws.send_text(json.dumps({"type": "hello", "seat": 9, "token": "x"}))
        assert "wrong seat or token" in next_of(ws, "error")["message"]
        ws.send_text(json.dumps({"type": "hello", "seat": "0", "token": t["seats"][0]["token"]}))
        assert "seat number" in next_of(ws, "error")["message"]

        hub = client.app.state.hub
        state = hub.tables[tid].state
        to_act = state.current_player
        seat = to_act if to_act in (0, 1) else 0
        hello(ws, t, seat)
        before = state.snapshot()
        first = next_of(ws, "state")
        n = first["n"]
        other = 1 - seat
        bad = [
            ("{oops", "JSON objects"),
            ("[1,2]", "JSON objects"),
            (json.dumps({"type": 3}), "JSON objects"),
            (json.dumps({"type": "fly"}), "unknown message type"),
            ("x" * (MAX_MESSAGE + 1), "too large"),
            (json.dumps({"type": "act", "action": "lot 1", "seat": other}), "cannot act for"),
            (json.dumps({"type": "act", "action": 7}), "'action' text"),
            (json.dumps({"type": "act", "action": "lot 1", "n": "x"}), "position number"),
            (json.dumps({"type": "act", "action": "lot 1", "n": n + 5}), "game moved on"),
            (json.dumps({"type": "hello", "seat": seat}), "already joined"),
        ]
        for text, message in bad:
            ws.send_text(text)
            assert message in next_of(ws, "error")["message"], text
        if state.current_player == seat:
            ws.send_text(json.dumps({"type": "act", "action": "play Zz"}))
            err = next_of(ws, "error")
            assert "is not an action of sono-arcana; legal now: lot 1" in err["message"]
            assert err["legal"] == [a.text for a in state.legal_actions()]
        assert state.snapshot() == before
        assert latest_state(ws)["n"] == n


def test_acting_out_of_turn_and_spectators_are_refused(client: TestClient) -> None:
    t = new_table(client, ["human", "human", "human"], seed=4)
    hub = client.app.state.hub
    state = hub.tables[t["id"]].state
    idle = (state.current_player + 1) % 3
    legal = state.legal_actions()[0].text
    with (
        client.websocket_connect(f"/ws/{t['id']}") as ws,
        client.websocket_connect(f"/ws/{t['id']}") as watcher,
    ):
        hello(ws, t, idle)
        ws.send_text(json.dumps({"type": "act", "action": legal}))
        assert "turn, not seat" in next_of(ws, "error")["message"]
        ws.send_text(json.dumps({"type": "hint"}))
        assert "your own turn" in next_of(ws, "error")["message"]
        hello(watcher, t, None)
        watcher.send_text(
            json.dumps({"type": "act", "action": legal, "seat": state.current_player})
        )
        assert "spectators cannot act" in next_of(watcher, "error")["message"]
        watcher.send_text(json.dumps({"type": "hint"}))
        assert "no hints" in next_of(watcher, "error")["message"]
    assert len(state.history) == 0


def test_rate_limit_per_connection(client: TestClient) -> None:
    t = new_table(client, ["human", "random", "random"], seed=4)
    with client.websocket_connect(f"/ws/{t['id']}") as ws:
        for _ in range(40):
            ws.send_text(json.dumps({"type": "ping"}))
        kinds = [ws.receive_json() for _ in range(40)]
        refused = [m for m in kinds if m["type"] == "error"]
        assert refused and all("too many messages" in m["message"] for m in refused)
        assert sum(m["type"] == "pong" for m in kinds) >= 15
    with client.websocket_connect(f"/ws/{t['id']}") as ws:
        closed = False
        for _ in range(MAX_REFUSALS + 40):
            ws.send_text(json.dumps({"type": "ping"}))
        seen = []
        try:
            while True:
                seen.append(ws.receive_json())
        except Exception:
            closed = True
        assert closed
        assert any("connection closed" in m.get("message", "") for m in seen)


def test_unknown_table_over_websocket(client: TestClient) -> None:
    with client.websocket_connect("/ws/nosuchtable") as ws:
        msg = ws.receive_json()
        assert msg["type"] == "error" and "no table" in msg["message"]
        assert msg["code"] == "no_table"  # the page shows "this link opens nothing"


def test_a_wrong_token_is_refused_with_a_code(client: TestClient) -> None:
    t = new_table(client, ["human", "random", "random"], seed=4)
    with client.websocket_connect(f"/ws/{t['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "seat": 0, "token": "x" * 24}))
        msg = next_of(ws, "error")
        assert msg["code"] == "bad_token" and "does not open that seat" in msg["message"]


# -- the move log -----------------------------------------------------------------------
def test_the_move_log_masks_face_down_cards_for_other_seats(fast_client: TestClient) -> None:
    """Sono Arcana's parent bids face down: the bidder's log names the card, the
    others' and a spectator's show ``bid down ?``."""
    client = fast_client
    t = new_table(client, ["human", "human", "human"], seed=11)
    live = client.app.state.hub.tables[t["id"]]
    sockets = [client.websocket_connect(f"/ws/{t['id']}") for _ in range(4)]
    opened = [s.__enter__() for s in sockets]
    try:
        for seat in range(3):
            hello(opened[seat], t, seat)
        hello(opened[3], t, None)
        while True:  # play until a parent bids face down
            seat = live.state.current_player
            legal = [a.text for a in live.state.legal_actions()]
            down = [a for a in legal if a.startswith("bid down")]
            action = down[0] if down else legal[0]
            opened[seat].send_text(json.dumps({"type": "act", "action": action}))
            next_of(opened[seat], "ok")
            if down:
                break
        bidder = seat
        logs = {s: fresh_state(opened[s], live)["log"] for s in range(4)}
    finally:
        for s in sockets:
            s.__exit__(None, None, None)
    assert logs[bidder][-1] == {
        "n": len(live.state.history) - 1,
        "seat": bidder,
        "hand": 0,
        "text": down[0],
    }
    for s in range(4):
        if s != bidder:
            assert logs[s][-1]["text"] == "bid down ?"
            assert logs[s][:-1] == logs[bidder][:-1]  # the open moves read the same


# -- rules from the table -----------------------------------------------------------------
@pytest.mark.parametrize("info", xtarot.games(), ids=lambda i: i.id)
def test_rules_of_every_game_in_both_languages(client: TestClient, info: Any) -> None:
    ja = client.get(f"/api/games/{info.id}/rules", params={"lang": "ja"}).json()
    en = client.get(f"/api/games/{info.id}/rules", params={"lang": "en"}).json()
    assert info.name_ja in ja["html"] and ja["html"].startswith("<h1>")
    assert info.name_en.split(" (")[0] in en["html"]
    assert "<script" not in ja["html"] and "**" not in en["html"]
    res = client.get("/api/games/no-such-game/rules")
    assert res.status_code == 404 and "sono-arcana" in res.json()["error"]


# -- open seats and the lobby --------------------------------------------------------------
def test_open_seats_are_listed_and_claimed_once(client: TestClient) -> None:
    t = new_table(client, ["human", "open", "random"], seed=3)
    assert t["listed"] is True
    assert "token" not in t["seats"][1] and t["seats"][1]["open"] is True
    private = new_table(client, ["human", "human", "random"], seed=3)
    listed = client.get("/api/tables").json()["tables"]
    assert [x["id"] for x in listed] == [t["id"]]  # invite-only tables stay private
    assert [s["free"] for s in listed[0]["seats"]] == [False, True, False]
    assert "token" not in json.dumps(listed)
    # claim the open seat: a link with a fresh token; a second claim is refused
    res = client.post(f"/api/tables/{t['id']}/claim", json={"seat": 1})
    assert res.status_code == 200, res.text
    claimed = res.json()
    assert claimed["link"].endswith(f"&seat=1&token={claimed['token']}")
    again = client.post(f"/api/tables/{t['id']}/claim", json={"seat": 1})
    assert again.status_code == 409 and "not free" in again.json()["error"]
    for bad, why in (({"seat": 2}, "not free"), ({"seat": 9}, "from 0 to 2")):
        res = client.post(f"/api/tables/{t['id']}/claim", json=bad)
        assert res.status_code == 409 and why in res.json()["error"], bad
    for bad in ({}, {"seat": "1"}, {"seat": True}):  # not a seat number: malformed
        res = client.post(f"/api/tables/{t['id']}/claim", json=bad)
        assert res.status_code == 400 and "seat number" in res.json()["error"], bad
    assert client.post(f"/api/tables/{private['id']}/claim", json={"seat": 1}).status_code == 409
    assert client.post("/api/tables/nosuch/claim", json={"seat": 1}).status_code == 404
    listed = client.get("/api/tables").json()["tables"]
    assert [s["free"] for s in listed[0]["seats"]] == [False, False, False]
    # the claimed token opens the seat
    with client.websocket_connect(f"/ws/{t['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "seat": 1, "token": claimed["token"]}))
        assert next_of(ws, "welcome")["seat"] == 1


def test_claims_and_settings_survive_a_restart(db: str) -> None:
    with TestClient(create_app(db, bot_delay=0)) as c1:
        t = new_table(c1, ["open", "open", "random"], seed=3, clock=30)
        token = c1.post(f"/api/tables/{t['id']}/claim", json={"seat": 0}).json()["token"]
    with TestClient(create_app(db, bot_delay=0)) as c2:
        info = c2.get(f"/api/tables/{t['id']}").json()
        assert info["clock"] == 30 and info["listed"] is True
        assert [s["free"] for s in info["seats"]] == [False, True, False]
        assert c2.app.state.hub.tables[t["id"]].check_token(0, token)


# -- the move clock ------------------------------------------------------------------------
def test_clock_bounds_are_checked(client: TestClient) -> None:
    for clock in (5, 7 * 86400 + 1, "30", True, 12.5):
        body = {"game": "sono-arcana", "players": 3, "seats": ["human"] * 3, "clock": clock}
        res = client.post("/api/tables", json=body)
        assert res.status_code == 400 and "clock must be" in res.json()["error"], clock


def wait_for(check: Any, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


def test_an_absent_player_does_not_stall_the_table(db: str) -> None:
    """Seat 0's clock runs out while its player is away: a bot plays for it (and goes on
    playing its moves) until the player comes back; then the seat waits for them."""
    with TestClient(create_app(db, bot_delay=0.05)) as client:
        hub = client.app.state.hub
        t = new_table(client, ["human", "random", "random"], seed=5, clock=30)
        live = hub.tables[t["id"]]
        wait_for(lambda: live.state.current_player == 0)
        info = live.clock_info()
        assert info is not None and info["seat"] == 0 and 29 < info["left"] <= 30
        assert live.n == len(live.state.history)

        async def shorten() -> None:  # the API allows 10 s at least; the test can't wait
            live.clock = 0.1  # type: ignore[assignment]
            live.clock_n = None
            hub.wake_bots(live)

        client.portal.call(shorten)  # type: ignore[attr-defined]
        wait_for(lambda: 0 in live.autopilot and sum(e.actor == 0 for e in live.log) >= 2)
        live.clock = 30
        # the stand-in's moves are the clock's; the bots' own moves are not
        assert all(e.clock == (e.actor == 0) for e in live.log)
        assert all("clock" not in e or e["seat"] == 0 for e in live.log_for(1))
        with client.websocket_connect(f"/ws/{t['id']}") as ws:
            hello(ws, t, 0)
            assert 0 not in live.autopilot  # back: no more stand-in
            wait_for(lambda: live.state.current_player in (0, None))
            n = live.n
            msg = fresh_state(ws, live)
            assert msg["seats"][0]["autopilot"] is False
            if live.state.current_player == 0:
                assert msg["clock"]["seat"] == 0
                time.sleep(0.3)
                assert live.n == n  # waits for the player


def test_a_present_player_whose_clock_runs_out_loses_one_move(db: str) -> None:
    with TestClient(create_app(db, bot_delay=0)) as client:
        hub = client.app.state.hub
        t = new_table(client, ["human", "human", "human"], seed=5, clock=30)
        live = hub.tables[t["id"]]
        seat = live.state.current_player
        with client.websocket_connect(f"/ws/{t['id']}") as ws:
            hello(ws, t, seat)

            async def shorten() -> None:
                live.clock = 0.1  # type: ignore[assignment]
                live.clock_n = None
                hub.wake_bots(live)

            client.portal.call(shorten)  # type: ignore[attr-defined]
            wait_for(lambda: live.n >= 1)
            live.clock = 30
            assert live.log[0].actor == seat
            assert seat not in live.autopilot  # present: no autopilot
            # the move is marked as the clock's, in the log every client gets
            msg = fresh_state(ws, live)
            assert msg["log"][0]["clock"] is True and live.log[0].clock


# -- hints ----------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_hint_for_the_seat_to_act(client: TestClient, lang: str) -> None:
    t = new_table(client, ["human", "human", "human"], seed=8)
    state = client.app.state.hub.tables[t["id"]].state
    seat = state.current_player
    with client.websocket_connect(f"/ws/{t['id']}") as ws:
        hello(ws, t, seat)
        ws.send_text(json.dumps({"type": "hint", "lang": lang}))
        hint = next_of(ws, "hint")
    assert hint["action"] in [a.text for a in state.legal_actions()]
    assert hint["bot"] == "heuristic" and hint["text"]
    if lang == "ja":
        assert any(ord(ch) > 0x3000 for ch in hint["text"])
    assert len(state.history) == 0


# -- persistence ----------------------------------------------------------------------------
def test_restart_resumes_tables_exactly_and_seats_come_back(db: str) -> None:
    fast = (10_000.0, 10_000.0)
    with TestClient(create_app(db, bot_delay=0, rate=fast)) as c1:
        t = new_table(c1, ["human", "random", "human"], seed=21)
        hub = c1.app.state.hub
        live = hub.tables[t["id"]]
        rng = random.Random(3)
        with (
            c1.websocket_connect(f"/ws/{t['id']}") as w0,
            c1.websocket_connect(f"/ws/{t['id']}") as w2,
        ):
            hello(w0, t, 0)
            hello(w2, t, 2)
            socks = {0: w0, 2: w2}
            while len(live.state.history) < 20:
                seat = live.state.current_player
                if seat not in socks:
                    time.sleep(0.005)  # the bot moves
                    continue
                ws = socks[seat]
                msg = latest_state(ws)
                if msg["view"]["legal_actions"]:
                    act = {"type": "act", "action": rng.choice(msg["view"]["legal_actions"])}
                    ws.send_text(json.dumps(act | {"n": msg["n"]}))
                    next_of(ws, "ok")
        while live.state.current_player == 1:  # a bot move may be under way
            time.sleep(0.005)
        before = live.state.snapshot()
        n = len(live.state.history)
    # a new server process on the same database
    with TestClient(create_app(db, bot_delay=0, rate=fast)) as c2:
        info = c2.get(f"/api/tables/{t['id']}").json()
        assert info["n"] == n and not info["finished"]
        again = c2.app.state.hub.tables[t["id"]]
        assert again.state.snapshot() == before
        with c2.websocket_connect(f"/ws/{t['id']}") as ws:
            hello(ws, t, 2)
            msg = next_of(ws, "state")
            assert msg["seat"] == 2
            assert msg["view"] == json.loads(json.dumps(again.state.view(2)))
            # the move log is rebuilt from the stored actions, as seat 2 saw them
            views = views_by_step(again.state.record())
            assert msg["log"] == views[n]["log"][2][-LOG_SIZE:]
            assert len(msg["log"]) == min(n, LOG_SIZE)
        assert c2.get(f"/api/tables/{t['id']}/record").status_code == 409


def test_multi_hand_matches_store_every_deal(db: str) -> None:
    """A bots-only match of several hands (later deals come from the match seed and
    are stored as they are dealt) reloads from the database to the identical record."""
    multi = [
        i
        for i in xtarot.games()
        if i.id == "grail-mahjong" or any(o.name in ("hands",) for o in i.options)
    ]
    if not multi:
        pytest.skip("no multi-hand game registered")
    info = multi[0]
    options = {"hands": 2} if any(o.name == "hands" for o in info.options) else {}
    with TestClient(create_app(db, bot_delay=0)) as c1:
        body = {
            "game": info.id,
            "players": info.min_players,
            "seats": ["random"] * info.min_players,
            "options": options,
            "seed": 12,
        }
        res = c1.post("/api/tables", json=body)
        assert res.status_code == 201, res.text
        tid = res.json()["id"]
        table = c1.app.state.hub.tables[tid]
        for _ in range(2000):
            if table.state.is_terminal:
                break
            c1.get(f"/api/tables/{tid}")  # give the bot task time to run
        assert table.state.is_terminal
        record = c1.get(f"/api/tables/{tid}/record").json()
    with TestClient(create_app(db, bot_delay=0)) as c2:
        again = c2.get(f"/api/tables/{tid}/record").json()
    assert again == record
    assert len(record["deals"]) == (2 if options else 1)
    assert xtarot.replay(record).is_terminal


def test_default_database_lives_in_the_user_data_dir(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    url = default_url()
    assert url.startswith("sqlite:///") and url.endswith("tables.db")
    assert str(tmp_path) in url


def test_cli_serve_is_registered() -> None:
    from typer.testing import CliRunner

    from xtarot.cli.main import app

    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    assert "--port" in result.output and "--db" in result.output


class _BrokenBot:
    name = "broken"

    def act(self, decision: Any) -> Any:
        raise RuntimeError("this bot is broken")

    def explain(self) -> None:
        return None


def test_a_failing_bot_does_not_stall_the_table(client: TestClient) -> None:
    t = new_table(client, ["human", "human", "human"], seed=6)
    hub = client.app.state.hub
    live = hub.tables[t["id"]]
    first = live.state.current_player
    bot_seat = (first + 1) % 3
    live.seats[bot_seat].kind = "bot"
    live.agents[bot_seat] = _BrokenBot()  # type: ignore[assignment]
    with client.websocket_connect(f"/ws/{t['id']}") as ws:
        hello(ws, t, first)
        legal = next_of(ws, "state")["view"]["legal_actions"]
        while live.state.current_player == first:
            ws.send_text(json.dumps({"type": "act", "action": legal[0]}))
            msg = next_of(ws, "state")
            legal = msg["view"]["legal_actions"]
        for _ in range(200):
            if live.state.current_player != bot_seat:
                break
            time.sleep(0.01)
    assert live.state.current_player != bot_seat  # the broken bot's seat moved at random


def test_a_table_whose_log_no_longer_replays_is_not_served(client: TestClient, db: str) -> None:
    t = new_table(client, ["human", "human", "human"], seed=6)
    store = Store(db)
    store.append(t["id"], 0, "play Zz")  # a log entry the engine refuses
    client.app.state.hub.tables.clear()
    assert client.get(f"/api/tables/{t['id']}").status_code == 404


def test_lobby_offers_the_three_levels_first_then_every_bot_by_name(client: TestClient) -> None:
    games = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    for g in games.values():
        assert g["bots"][:3] == ["easy", "normal", "hard"]
        assert "expert" in g["bots"] and g["bots"].count("hard") == 1
    js = client.get("/static/i18n.js").text
    for word in ("やさしい", "ふつう", "むずかしい", "bot_levels"):
        assert word in js


def test_level_seats_get_their_bots_and_hard_thinks_for_the_servers_time(
    client: TestClient,
) -> None:
    from xtarot.agents import EasyAgent, HardAgent, NormalAgent

    app = client.app
    t = new_table(client, ["human", "easy", "normal", "hard"], seed=5)
    live = app.state.hub.tables[t["id"]]
    assert isinstance(live.agents[1], EasyAgent)
    assert isinstance(live.agents[2], NormalAgent)
    assert isinstance(live.agents[3], HardAgent)
    assert live.agents[3].seconds == app.state.hub.bot_seconds
    info = client.get(f"/api/tables/{t['id']}").json()
    assert [s["kind"] for s in info["seats"]] == ["human", "bot", "bot", "bot"]


def test_a_resumed_match_does_not_deal_a_hand_it_dealt_before() -> None:
    """A table loaded again from its record (a restart, another server process) deals
    its next hands afresh: replayed, the generator would start again from the match's
    seed and shuffle the next hand as it shuffled the first (Grail Mahjong's third hand
    was its first again), which the players have seen."""
    from xtarot.server.hub import replay_with_log

    for seed in (3, 5):  # replayed without a new seed, these dealt a hand twice
        state = xtarot.load("grail-mahjong", players=3).new_state(seed=seed)
        rng = random.Random(seed)
        while len(state.deals) < 2:
            state.apply(rng.choice(state.legal_actions()))
        resumed, _ = replay_with_log(state.record())
        assert resumed.deals == state.deals  # the stored deals are kept
        while len(resumed.deals) < 3:
            resumed.apply(rng.choice(resumed.legal_actions()))
        assert resumed.deals[2] not in resumed.deals[:2]


def state_message(table: Any, seat: int | None) -> dict[str, Any]:
    """The state message as plain data, field by field (what ``Hub.state_text`` makes
    from parts)."""
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
        "log": table.log_for(seat),
        "clock": table.clock_info(),
        "rematch": table.rematch_info(),
        "settings": table.settings(),
        "results": table.results if state.is_terminal else None,
    }


def test_the_state_text_sent_is_the_state_message_as_json(client: TestClient) -> None:
    """``broadcast`` sends ``Hub.state_text``, made from parts and without copying the
    view: it must be exactly the JSON of the plain message (:func:`state_message`; every
    seat and a spectator, every game, whole matches, moves the clock made, the end)."""
    from dataclasses import replace

    from xtarot.server.table import log_entry, to_json

    hub = client.app.state.hub
    for info in xtarot.games():
        players = info.max_players if info.id != "extendori" else 4
        t = client.post(
            "/api/tables",
            json={
                "game": info.id,
                "seats": ["human"] * players,
                "seed": 7,
                "options": short_options(info),
            },
        ).json()
        live = hub.tables[t["id"]]
        live.muted.add(1)
        rng, step = random.Random(info.id), 0
        while True:
            if step % 8 == 0 or live.state.is_terminal:
                for seat in [None, *range(players)]:
                    expected = to_json(state_message(live, seat))
                    assert hub.state_text(live, seat) == expected, (info.id, step, seat)
            if live.state.is_terminal:
                break
            action = rng.choice(live.state.legal_actions())
            entry = log_entry(live.state, action)
            live.state.apply(action)
            live.log.append(replace(entry, clock=True) if step % 5 == 0 else entry)
            step += 1


_json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.integers(min_value=2**64, max_value=2**70)  # beyond orjson: the fallback
    | st.text()
)
_json_data = st.recursive(
    _json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=6) | st.integers(-9, 99), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(_json_data)
def test_messages_are_the_standard_librarys_json_text(data: Any) -> None:
    """Clients are sent orjson's text where orjson is installed: the same bytes as the
    standard library's compact JSON with characters as they are (what every message was
    before, and still is without orjson), integer keys and huge integers included."""
    from xtarot.server import table as table_module

    expected = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    assert table_module.to_json(data) == expected
    fast = table_module._orjson  # a dependency on CPython
    assert fast is not None
    if not _huge(data):  # what orjson takes, it makes into the same text by itself
        assert fast.dumps(data, option=fast.OPT_NON_STR_KEYS).decode() == expected


def _huge(data: Any) -> bool:
    if isinstance(data, dict):
        return any(_huge(v) for v in data.values())
    if isinstance(data, list):
        return any(_huge(v) for v in data)
    return isinstance(data, int) and not isinstance(data, bool) and data >= 2**64
