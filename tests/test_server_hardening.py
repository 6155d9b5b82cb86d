"""The web server against an outsider: no crash from any input, no cross-site use,
bounded resources, one connection per seat (FastAPI TestClient, no browser)."""

from __future__ import annotations

import json
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed")
pytest.importorskip("httpx", reason="httpx is not installed")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

from xtarot.server import create_app
from xtarot.server.hub import MAX_SEED, Limits
from xtarot.server.store import Store

JSON_TYPE = {"Content-Type": "application/json"}


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tables.db'}"


def app_client(db: str, **settings: Any) -> TestClient:
    settings.setdefault("bot_delay", 0)
    return TestClient(create_app(db, **settings))


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
    while (reply := ws.receive_json())["type"] != "welcome":
        pass
    return reply


def next_of(ws: Any, kind: str) -> dict[str, Any]:
    while (msg := ws.receive_json())["type"] != kind:
        pass
    return msg


def alive(ws: Any) -> bool:
    ws.send_text(json.dumps({"type": "ping"}))
    return next_of(ws, "pong")["type"] == "pong"


def table_count(db: str) -> int:
    return len(Store(db).ids())


# -- no crash from any input ----------------------------------------------------------------
def test_a_failing_hint_bot_is_an_error_message_not_a_dropped_connection(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import xtarot.server.hub as hub_module

    class Broken:
        name = "broken"

        def act(self, decision: Any) -> Any:
            raise KeyError("end")

        def explain(self) -> None:
            return None

    monkeypatch.setattr(hub_module, "hint_agent", lambda *a: Broken())
    with app_client(db) as client:
        t = new_table(client, ["human", "human", "human"], seed=3)
        seat = client.app.state.hub.tables[t["id"]].state.current_player
        with client.websocket_connect(f"/ws/{t['id']}") as ws:
            hello(ws, t, seat)
            ws.send_text(json.dumps({"type": "hint"}))
            err = next_of(ws, "error")
            assert "hint bot could not work this position out" in err["message"]
            assert alive(ws)


def test_any_exception_in_a_message_is_reported_and_the_table_lives_on(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with app_client(db) as client:
        t = new_table(client, ["human", "human", "human"], seed=3)
        hub = client.app.state.hub
        live = hub.tables[t["id"]]
        seat = live.state.current_player
        legal = live.state.legal_actions()[0].text
        with client.websocket_connect(f"/ws/{t['id']}") as ws:
            hello(ws, t, seat)

            async def boom(*args: Any, **kwargs: Any) -> str:
                raise RuntimeError("a bug")

            monkeypatch.setattr(hub, "act", boom)
            ws.send_text(json.dumps({"type": "act", "action": legal}))
            err = next_of(ws, "error")
            assert "could not handle that message" in err["message"]
            assert "Traceback" not in err["message"] and "a bug" not in err["message"]
            monkeypatch.undo()
            assert alive(ws)
            ws.send_text(json.dumps({"type": "act", "action": legal}))
            assert next_of(ws, "ok")["action"] == legal


def test_binary_frames_are_refused_clearly(db: str) -> None:
    with app_client(db) as client:
        t = new_table(client, ["human", "random", "random"], seed=3)
        with client.websocket_connect(f"/ws/{t['id']}") as ws:
            ws.send_bytes(b"\x00\x01binary")
            err = next_of(ws, "error")
            assert "binary frames are not accepted" in err["message"]
            hello(ws, t, 0)
            assert alive(ws)


@pytest.mark.parametrize(
    ("extra", "why"),
    [
        ({"seed": 2**70}, "seed must be a whole number from 0 to"),
        ({"seed": -1}, "seed must be a whole number from 0 to"),
        ({"seed": MAX_SEED}, "seed must be a whole number from 0 to"),
        ({"seed": "7"}, "seed must be a whole number"),
        ({"game": "grail-mahjong", "options": {"hands": 10**12}}, "hands=1000000000000 is too"),
        ({"game": "grail-mahjong", "options": {"hands": 101}}, "(at most 100)"),
        ({"clock": 10**30}, "clock must be"),
    ],
)
def test_out_of_range_requests_are_refused_and_change_nothing(
    db: str, extra: dict[str, Any], why: str
) -> None:
    with app_client(db) as client:
        body = {"game": "sono-arcana", "players": 3, "seats": ["human"] * 3} | extra
        res = client.post("/api/tables", json=body)
        assert res.status_code == 400, res.text
        assert why in res.json()["error"]
        assert table_count(db) == 0
    assert MAX_SEED == 2**63
    with app_client(db) as client:  # the largest seed is fine
        new_table(client, ["human"] * 3, seed=MAX_SEED - 1)


# -- no cross-site use ---------------------------------------------------------------------
def test_state_changing_requests_need_json_from_this_site(db: str) -> None:
    body = json.dumps({"game": "sono-arcana", "players": 3, "seats": ["human"] * 3})
    with app_client(db) as client:
        # a form-style post from another site (no preflight): refused
        res = client.post(
            "/api/tables",
            content=body,
            headers={"Content-Type": "text/plain", "Origin": "http://evil.example"},
        )
        assert res.status_code == 403 and "other web sites" in res.json()["error"]
        res = client.post("/api/tables", content=body, headers={"Content-Type": "text/plain"})
        assert res.status_code == 415 and "application/json" in res.json()["error"]
        res = client.post(
            "/api/tables",
            content=body,
            headers=JSON_TYPE | {"Origin": "http://evil.example"},
        )
        assert res.status_code == 403
        assert table_count(db) == 0
        # the server's own pages (same origin) and non-browser clients (no Origin) may
        res = client.post(
            "/api/tables", content=body, headers=JSON_TYPE | {"Origin": "http://testserver"}
        )
        assert res.status_code == 201
        assert client.post("/api/tables", content=body, headers=JSON_TYPE).status_code == 201
        csp = client.get("/").headers["content-security-policy"]
        assert "connect-src 'self';" in csp and "ws:" not in csp


def test_websockets_from_another_site_are_refused(db: str) -> None:
    with app_client(db) as client:
        t = new_table(client, ["human", "random", "random"], seed=3)
        with pytest.raises(WebSocketDisconnect) as info:  # noqa: SIM117
            with client.websocket_connect(
                f"/ws/{t['id']}", headers={"Origin": "http://evil.example"}
            ) as ws:
                ws.receive_json()
        assert info.value.code == 4403
        with client.websocket_connect(
            f"/ws/{t['id']}", headers={"Origin": "http://testserver"}
        ) as ws:
            hello(ws, t, 0)
    # --allow-origin lets a deployment's other origin in
    limits = Limits(allow_origins=("https://cards.example",))
    with app_client(db, limits=limits) as client:
        with client.websocket_connect(
            f"/ws/{t['id']}", headers={"Origin": "https://cards.example"}
        ) as ws:
            hello(ws, t, 0)
        res = client.post(
            "/api/tables",
            json={"game": "matto", "players": 3, "seats": ["human"] * 3},
            headers={"Origin": "https://cards.example"},
        )
        assert res.status_code == 201


# -- bounded resources ---------------------------------------------------------------------
def test_table_creation_is_rate_limited_per_client(db: str) -> None:
    with app_client(db, limits=Limits(tables_per_minute=6, table_burst=3)) as client:
        for _ in range(3):
            new_table(client, ["human"] * 3)
        body = {"game": "sono-arcana", "players": 3, "seats": ["human"] * 3}
        res = client.post("/api/tables", json=body)
        assert res.status_code == 429 and "at most 6 a minute" in res.json()["error"]
        assert table_count(db) == 3


def test_live_tables_are_capped_and_idle_ones_make_room(db: str) -> None:
    with app_client(db, limits=Limits(max_live_tables=2)) as client:
        hub = client.app.state.hub
        a = new_table(client, ["human", "random", "random"], seed=1)
        b = new_table(client, ["human", "random", "random"], seed=2)
        with (
            client.websocket_connect(f"/ws/{a['id']}") as wa,
            client.websocket_connect(f"/ws/{b['id']}") as wb,
        ):
            hello(wa, a, 0)
            hello(wb, b, 0)
            body = {"game": "sono-arcana", "players": 3, "seats": ["human"] * 3}
            res = client.post("/api/tables", json=body)
            assert res.status_code == 400 and "the server is full" in res.json()["error"]
            assert table_count(db) == 2
        # nobody at the tables any more: they are unloaded to make room, and come back
        c = new_table(client, ["human"] * 3, seed=3)
        assert c["id"] in hub.tables and len(hub.tables) <= 2
        assert client.get(f"/api/tables/{a['id']}").status_code == 200


def test_bots_only_tables_are_capped(db: str) -> None:
    with app_client(db, bot_delay=5.0, limits=Limits(max_bot_tables=1)) as client:
        new_table(client, ["random"] * 3, seed=1)
        body = {"game": "sono-arcana", "players": 3, "seats": ["random"] * 3}
        res = client.post("/api/tables", json=body)
        assert res.status_code == 400 and "at most 1 bots-only" in res.json()["error"]
        new_table(client, ["human", "random", "random"], seed=2)  # a human: fine


def test_a_connection_that_never_says_hello_is_closed(db: str) -> None:
    with app_client(db, limits=Limits(hello_timeout=0.2)) as client:
        t = new_table(client, ["human", "random", "random"], seed=3)
        with client.websocket_connect(f"/ws/{t['id']}") as ws:
            err = next_of(ws, "error")
            assert "no hello within 0.2 s" in err["message"]
            with pytest.raises(WebSocketDisconnect):
                ws.receive_json()


def test_idle_tables_leave_memory_and_reload_on_demand(db: str) -> None:
    with app_client(db) as client:
        hub = client.app.state.hub
        t = new_table(client, ["human", "human", "human"], seed=3)
        live = hub.tables[t["id"]]
        seat = live.state.current_player
        with client.websocket_connect(f"/ws/{t['id']}") as ws:
            hello(ws, t, seat)
            ws.send_text(json.dumps({"type": "act", "action": live.state.legal_actions()[0].text}))
            next_of(ws, "ok")
            assert hub.unload_idle(0.0) == 0  # someone is connected
        before = live.state.snapshot()
        assert hub.unload_idle(0.0) == 1
        assert t["id"] not in hub.tables
        assert client.get(f"/api/tables/{t['id']}").json()["n"] == 1
        assert hub.tables[t["id"]].state.snapshot() == before


def test_bots_only_tables_resume_at_start_up(db: str) -> None:
    with app_client(db, bot_delay=30.0) as c1:  # the bots wait: the table stays unfinished
        t = new_table(c1, ["random"] * 3, seed=4)
        assert c1.get(f"/api/tables/{t['id']}").json()["n"] == 0
    with app_client(db, bot_delay=0) as c2:  # a restart: nobody connects, the bots play on
        deadline = time.monotonic() + 20
        while not c2.get(f"/api/tables/{t['id']}").json()["finished"]:
            assert time.monotonic() < deadline, "the bots-only table did not resume"
            time.sleep(0.02)


# -- one live connection per seat ---------------------------------------------------------
def test_a_second_window_takes_the_seat_over(db: str) -> None:
    with app_client(db) as client:
        t = new_table(client, ["human", "human", "human"], seed=3)
        live = client.app.state.hub.tables[t["id"]]
        seat = live.state.current_player
        legal = live.state.legal_actions()[0].text
        with client.websocket_connect(f"/ws/{t['id']}") as old:
            hello(old, t, seat)
            with client.websocket_connect(f"/ws/{t['id']}") as new:
                hello(new, t, seat)
                err = next_of(old, "error")
                assert err["code"] == "taken_over" and "another window" in err["message"]
                with pytest.raises(WebSocketDisconnect) as info:
                    while True:
                        old.receive_json()
                assert info.value.code == 4409
                assert [c for c in live.conns if c.seat == seat] != []
                assert len([c for c in live.conns if c.seat == seat]) == 1
                new.send_text(json.dumps({"type": "act", "action": legal}))
                assert next_of(new, "ok")["n"] == 1


# -- fuzz ----------------------------------------------------------------------------------
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
KEYS = ["game", "players", "seats", "options", "seed", "clock", "listed", "seat", "type", "action"]
bodies = st.one_of(
    st.binary(max_size=200),
    json_values.map(lambda v: json.dumps(v).encode()),
    st.dictionaries(st.sampled_from(KEYS), json_values, max_size=6).map(
        lambda d: json.dumps(d).encode()
    ),
    st.fixed_dictionaries(
        {
            "game": st.sampled_from(["sono-arcana", "fairy500", "matto", "x"]),
            "players": st.integers(-2, 12) | st.none(),
            "seats": st.lists(st.sampled_from(["human", "open", "random", "bot", ""]), max_size=9),
            "options": st.dictionaries(
                st.sampled_from(["hands", "teams", "pairs", "zz"]), json_values
            ),
            "seed": st.integers(-(2**70), 2**70) | st.none(),
        }
    ).map(lambda d: json.dumps(d).encode()),
)


@pytest.fixture(scope="module")
def fuzz_app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    db = f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'tables.db'}"
    limits = Limits(tables_per_minute=1e9, table_burst=1e9, max_live_tables=10_000)
    with TestClient(create_app(db, bot_delay=5.0, limits=limits, rate=(1e6, 1e6))) as client:
        table = new_table(client, ["human", "open", "human"], seed=9)
        yield client, table


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    body=bodies,
    path=st.sampled_from(["/api/tables", "/api/tables/{id}/claim", "/api/tables/nope/claim"]),
)
def test_fuzz_http_bodies_never_500(fuzz_app: Any, body: bytes, path: str) -> None:
    client, table = fuzz_app
    before = client.get(f"/api/tables/{table['id']}").json()
    res = client.post(path.format(id=table["id"]), content=body, headers=JSON_TYPE)
    assert res.status_code < 500, (res.status_code, res.text)
    assert "Traceback" not in res.text
    if res.status_code >= 400:
        assert isinstance(res.json()["error"], str) and res.json()["error"]
        after = client.get(f"/api/tables/{table['id']}").json()
        assert after == before  # a refusal changes nothing


messages = st.one_of(
    st.text(max_size=300),
    json_values.map(json.dumps),
    st.dictionaries(st.sampled_from([*KEYS, "n", "token", "lang"]), json_values, max_size=5).map(
        json.dumps
    ),
    st.fixed_dictionaries(
        {
            "type": st.sampled_from(["hello", "act", "hint", "state", "ping", "nope"]),
            "seat": st.integers(-3, 5) | st.none() | st.text(max_size=3),
            "action": st.text(max_size=30) | st.sampled_from(["lot 1", "lot 2", "pass"]),
            "n": st.integers(-5, 5) | st.booleans(),
        }
    ).map(json.dumps),
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(batch=st.lists(messages, min_size=1, max_size=8))
def test_fuzz_websocket_messages_never_break_the_connection(
    fuzz_app: Any, batch: list[str]
) -> None:
    client, table = fuzz_app
    live = client.app.state.hub.tables[table["id"]]
    with client.websocket_connect(f"/ws/{table['id']}") as ws:
        for text in batch:
            before = live.state.snapshot()
            ws.send_text(text)
            assert alive(ws)  # every message got its answer and the connection lives
            after = live.state.snapshot()
            # a stranger (no token) can never move the table
            assert after == before
