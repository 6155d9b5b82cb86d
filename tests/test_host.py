"""Player identities, the host's controls, invitations, rematches across a restart,
and ratings (FastAPI TestClient); bad input refused with a reason."""

from __future__ import annotations

import json
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():  # starlette's notice about httpx versions
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from test_people import FAST, hello, new_table, next_of, play_out, state_now
from xtarot.server import create_app
from xtarot.server.people import player_id, rematch_token
from xtarot.server.ratings import shown

ADA = "ada-key-0123456789abcdef"
BOB = "bob-key-0123456789abcdef"
EVE = "eve-key-0123456789abcdef"


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tables.db'}"


def join(ws: Any, table: Any, seat: int | None, name: str | None, key: str | None) -> Any:
    msg: dict[str, Any] = {"type": "hello"}
    if seat is not None:
        msg |= {"seat": seat, "token": table["seats"][seat]["token"]}
    if name is not None:
        msg["name"] = name
    if key is not None:
        msg["player"] = key
    ws.send_text(json.dumps(msg))
    return next_of(ws, "welcome")


def host(ws: Any, **msg: Any) -> None:
    ws.send_text(json.dumps({"type": "host", **msg}))


def state_when(ws: Any, check: Any) -> dict[str, Any]:
    """The first state (asked for again and again: older ones may be queued) that
    passes ``check``."""
    deadline = time.monotonic() + 10
    while not check(msg := state_now(ws)):
        assert time.monotonic() < deadline, msg
    return msg


def error_of(ws: Any) -> str:
    return str(next_of(ws, "error")["message"])


def test_a_player_key_becomes_a_public_id_and_is_never_stored(db: str) -> None:
    assert player_id(ADA) == player_id(ADA) != player_id(BOB)
    for bad in ("short", "x" * 65, "spaces are not keys!", 7, None):
        assert player_id(bad) is None
    with TestClient(create_app(db, bot_delay=0)) as client:
        t = new_table(client, ["human", "random", "random"], player=ADA)
        assert t["host"] is True and t["invite"].endswith(f"/j/{t['id']}")
        with client.websocket_connect(f"/ws/{t['id']}") as ws:
            welcome = join(ws, t, 0, "Ada", ADA)
            assert welcome["host"] is True
            assert welcome["table"]["seats"][0]["player"] == player_id(ADA)
        deadline = time.monotonic() + 10
        while not (me := client.post("/api/me", json={"key": ADA}).json())["tables"][0]["turn"]:
            assert time.monotonic() < deadline, me  # the bots play up to seat 1's turn
        assert me["player"] == player_id(ADA) and me["name"] == "Ada"
        assert [(x["id"], x["game"], x["seats"]) for x in me["tables"]] == [(t["id"], "matto", [0])]
        assert client.post("/api/me", json={"key": BOB}).json()["tables"] == []
        assert "player key" in client.post("/api/me", json={"key": "no"}).json()["error"]
        bad = client.post(
            "/api/tables", json={"game": "matto", "seats": ["human"] * 3, "player": "?"}
        )
        assert bad.status_code == 400 and "player key" in bad.json()["error"]
        with client.websocket_connect(f"/ws/{t['id']}") as ws:
            ws.send_text(json.dumps({"type": "hello", "player": "bad key"}))
            assert next_of(ws, "error")["code"] == "bad_player"
            assert next_of(ws, "welcome")["host"] is False  # joined, without an identity
    path = Path(db.removeprefix("sqlite:///"))
    raw = b"".join(p.read_bytes() for p in path.parent.glob(path.name + "*"))  # with the WAL
    assert ADA.encode() not in raw and player_id(ADA).encode() in raw  # type: ignore[union-attr]


def test_only_the_host_commands_and_every_command_is_checked(db: str) -> None:
    with TestClient(create_app(db, bot_delay=0, rate=FAST)) as client:
        t = new_table(client, ["human", "open", "human"], player=ADA)
        with (
            client.websocket_connect(f"/ws/{t['id']}") as bob,
            client.websocket_connect(f"/ws/{t['id']}") as ada,
        ):
            join(bob, t, 2, "Bob", BOB)
            join(ada, t, None, None, ADA)  # the host may just watch
            host(bob, do="fill")
            assert "only the table's host" in error_of(bob)
            for msg, why in [
                ({"do": "dance"}, "unknown host command 'dance'"),
                ({"do": "bot", "seat": 9, "bot": "easy"}, "seat number from 0 to 2"),
                ({"do": "bot", "seat": 1, "bot": "grandmaster"}, "'bot' must be one of"),
                ({"do": "bot", "seat": 2, "bot": "easy"}, "seat 3's player is at the table"),
                ({"do": "mute", "seat": 1, "on": "yes"}, "'on' must be true or false"),
                ({"do": "link", "seat": 9}, "seat number"),
            ]:
                host(ada, **msg)
                assert why in error_of(ada), msg
            # the host fills the seats nobody took (the open seat and the unopened link)
            host(ada, do="fill", bot="easy")
            live = client.app.state.hub.tables[t["id"]]
            deadline = time.monotonic() + 10
            while [s.kind for s in live.seats] != ["bot", "bot", "human"]:
                assert time.monotonic() < deadline
            assert [s.bot for s in live.seats[:2]] == ["easy", "easy"]
            host(ada, do="fill")
            assert "every seat is taken" in error_of(ada)
    # the seats stay bots after a restart, and the bots play
    with TestClient(create_app(db, bot_delay=0)) as client:
        info = client.get(f"/api/tables/{t['id']}").json()
        assert [s["kind"] for s in info["seats"]] == ["bot", "bot", "human"]


def test_the_host_mutes_relinks_and_closes(db: str) -> None:
    with TestClient(create_app(db, bot_delay=0, rate=FAST)) as client:
        t = new_table(client, ["human", "human", "random"], player=ADA)
        with (
            client.websocket_connect(f"/ws/{t['id']}") as ada,
            client.websocket_connect(f"/ws/{t['id']}") as bob,
            client.websocket_connect(f"/ws/{t['id']}") as watcher,
        ):
            join(ada, t, 0, "Ada", ADA)
            join(bob, t, 1, "Bob", BOB)
            join(watcher, t, None, None, EVE)
            watcher.send_text(json.dumps({"type": "chat", "text": "hi"}))
            assert "spectators can read the chat" in error_of(watcher)
            host(ada, do="spectator_chat", on=True)
            state_when(ada, lambda m: m["settings"]["spectator_chat"])
            watcher.send_text(json.dumps({"type": "chat", "phrase": "hello"}))
            said = next_of(ada, "chat")
            assert said["seat"] == -1 and said["phrase"] == "hello"
            host(ada, do="mute", seat=1, on=True)
            state_when(ada, lambda m: m["settings"]["muted"] == [1])
            bob.send_text(json.dumps({"type": "chat", "text": "let me talk"}))
            assert "muted" in error_of(bob)
            # a new link for seat 2: the old one stops working, its window is told
            host(ada, do="link", seat=1)
            new = next_of(ada, "host_link")
            assert new["seat"] == 1 and new["token"] != t["seats"][1]["token"]
            assert "new link" in error_of(bob)
            host(ada, do="close")
            state_when(ada, lambda m: m["settings"]["closed"])
            ada.send_text(json.dumps({"type": "act", "action": "pass"}))
            assert "closed" in error_of(ada)
        assert client.get("/api/tables").json()["tables"] == []
    with TestClient(create_app(db, bot_delay=0)) as client:
        live = client.app.state.hub.get(t["id"])
        assert live.closed and live.muted == {1} and live.spectator_chat
        assert not live.check_token(1, t["seats"][1]["token"])
        assert live.check_token(1, new["token"])


def test_bot_levels_change_before_the_first_move_only(db: str) -> None:
    with TestClient(create_app(db, bot_delay=5, rate=FAST)) as client:
        t = new_table(client, ["human", "easy", "easy"], game="matto", player=ADA)
        with client.websocket_connect(f"/ws/{t['id']}") as ada:
            join(ada, t, 0, "Ada", ADA)
            host(ada, do="bot", seat=2, bot="hard")
            state_when(ada, lambda m: [s["bot"] for s in m["seats"]] == [None, "easy", "hard"])
            live = client.app.state.hub.tables[t["id"]]
            live.state.apply(live.state.legal_actions()[0])  # the match has begun
            host(ada, do="bot", seat=1, bot="hard")
            assert "before the first move" in error_of(ada)


def finish(client: TestClient, t: Any, socks: dict[int, Any]) -> dict[str, Any]:
    play_out(client, t, socks, seed=3)
    deadline = time.monotonic() + 10
    ws = next(iter(socks.values()))
    while (msg := state_now(ws))["results"] is None:
        assert time.monotonic() < deadline
    return msg


def two_humans_play(
    client: TestClient, first: tuple[str, str], second: tuple[str, str]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """One hand of extendori: seats 1 and 3 humans (name, key), seat 2 an easy bot; the
    table and its final state."""
    t = new_table(client, ["human", "easy", "human"], game="extendori", options={"hands": 1})
    with (
        client.websocket_connect(f"/ws/{t['id']}") as w0,
        client.websocket_connect(f"/ws/{t['id']}") as w2,
    ):
        join(w0, t, 0, *first)
        join(w2, t, 2, *second)
        return t, finish(client, t, {0: w0, 2: w2})


def test_a_match_is_rated_once_and_shown_on_the_leaderboard(db: str) -> None:
    with TestClient(create_app(db, bot_delay=0, rate=FAST)) as client:
        t, msg = two_humans_play(client, ("Ada", ADA), ("Bob", BOB))
        results = msg["results"]
        assert [r["seat"] for r in results] == [0, 1, 2]
        assert [r["player"] for r in results] == [player_id(ADA), "bot-easy", player_id(BOB)]
        assert all(r["before"] == 1000 for r in results)
        ranks = msg["view"]["scores"]["ranks"] if "scores" in msg["view"] else None
        best = min(results, key=lambda r: r["rank"])
        worst = max(results, key=lambda r: r["rank"])
        assert best["after"] > worst["after"], results
        if ranks is not None:
            assert [r["rank"] for r in results] == ranks
        board = client.get("/api/leaderboard/extendori").json()["players"]
        assert {r["player"] for r in board} == {player_id(ADA), player_id(BOB), "bot-easy"}
        assert [r["place"] for r in board] == [1, 2, 3]
        assert board == sorted(board, key=lambda r: -r["rating"])
        names = {r["player"]: r["name"] for r in board}
        assert (
            names[player_id(ADA)] == "Ada"
            and board[[r["player"] for r in board].index("bot-easy")]["bot"] == "easy"
        )
        page = client.get(f"/api/players/{player_id(ADA)}").json()
        assert page["name"] == "Ada" and page["total"] == 1
        assert page["ratings"] == [
            {"game": "extendori", "rating": results[0]["after"], "matches": 1}
        ]
        (match,) = page["matches"]
        assert match["table"] == t["id"] and [p["name"] for p in match["players"]] == [
            "Ada",
            "easy",
            "Bob",
        ]
        assert client.get("/api/players/nobody").status_code == 404
        assert client.get("/api/leaderboard/chess").status_code == 404
        # rating again changes nothing
        hub = client.app.state.hub
        live = hub.get(t["id"])  # finished and left: loaded again
        from xtarot.server.ratings import rate_match

        again = rate_match(
            hub.store, t["id"], "extendori", live.seats, live.state.scores().to_dict()
        )
        assert again == results
        assert client.get(f"/api/players/{player_id(ADA)}").json()["total"] == 1
    # the ratings survive a restart
    with TestClient(create_app(db, bot_delay=0)) as client:
        assert client.get("/api/leaderboard/extendori").json()["players"] == board
        assert client.get(f"/api/tables/{t['id']}").json()["results"] == results


def test_matches_without_an_identity_or_with_one_in_two_seats_are_not_rated(db: str) -> None:
    with TestClient(create_app(db, bot_delay=0, rate=FAST)) as client:
        _, msg = two_humans_play(client, ("Ada", ADA), ("Ada again", ADA))
        assert msg["results"] == []
        assert client.get("/api/leaderboard/extendori").json()["players"] == []


def test_a_rematch_link_is_told_again_after_a_restart_and_seats_can_shuffle(db: str) -> None:
    with TestClient(create_app(db, bot_delay=0, rate=FAST)) as client:
        t = new_table(
            client, ["human", "random", "human"], game="extendori", options={"hands": 1}, player=ADA
        )
        with (
            client.websocket_connect(f"/ws/{t['id']}") as w0,
            client.websocket_connect(f"/ws/{t['id']}") as w2,
        ):
            join(w0, t, 0, "Ada", ADA)
            join(w2, t, 2, "Bob", BOB)
            host(w0, do="shuffle", on=True)
            finish(client, t, {0: w0, 2: w2})
            w0.send_text(json.dumps({"type": "rematch"}))
            w2.send_text(json.dumps({"type": "rematch"}))
            m0, m2 = next_of(w0, "rematch"), next_of(w2, "rematch")
    assert m0["token"] == rematch_token(t["seats"][0]["token"])
    assert {m0["seat"], m2["seat"]} <= {0, 1, 2} and m0["seat"] != m2["seat"]
    with TestClient(create_app(db, bot_delay=0)) as client:
        # after the restart the old table still tells each seat its way to the rematch
        with client.websocket_connect(f"/ws/{t['id']}") as again:
            hello(again, t, 2)
            assert next_of(again, "rematch") == m2
        new = client.app.state.hub.get(m0["table"])
        assert new.check_token(m0["seat"], m0["token"]) and new.check_token(m2["seat"], m2["token"])
        assert new.seats[m0["seat"]].name == "Ada" and new.host == player_id(ADA)
        kinds = sorted(s.kind for s in new.seats)
        assert kinds == ["bot", "human", "human"]


def test_invitations_lead_to_the_waiting_room_and_draw_a_qr_code(db: str) -> None:
    with TestClient(create_app(db, bot_delay=0)) as client:
        t = new_table(client, ["human", "open", "open"], player=ADA)
        res = client.get(f"/j/{t['id']}", follow_redirects=False)
        assert res.status_code == 307 and res.headers["location"] == f"../invite#t={t['id']}"
        page = client.get("/invite")
        assert page.status_code == 200 and "static/invite.js" in page.text
        svg = client.get(f"/api/tables/{t['id']}/qr.svg?seat=1")
        assert svg.status_code == 200 and svg.headers["content-type"] == "image/svg+xml"
        assert svg.text.lstrip().startswith("<svg") and "<path" in svg.text
        assert client.get(f"/api/tables/{t['id']}/qr.svg?seat=7").status_code == 400
        assert client.get("/api/tables/nope/qr.svg").status_code == 404
        assert client.get("/players").status_code == 200


def test_shown_rating_starts_at_1000() -> None:
    assert shown(25.0, 25 / 3) == 1000
    assert shown(30.0, 2.0) == 1000 + 40 * 24


def test_a_turn_based_clock_counts_from_the_stored_last_move(db: str) -> None:
    from sqlalchemy import create_engine, update

    from xtarot.server.hub import Limits
    from xtarot.server.store import tables_t

    with TestClient(create_app(db, bot_delay=0)) as client:
        bad = client.post(
            "/api/tables", json={"game": "matto", "seats": ["human"] * 3, "clock": 7 * 86400 + 1}
        )
        assert bad.status_code == 400 and "from 10 to 604800" in bad.json()["error"]
        t = new_table(client, ["human", "human", "human"], clock=86400)
        with client.websocket_connect(f"/ws/{t['id']}") as ws:
            hello(ws, t, 0)
            clock = state_now(ws)["clock"]
            assert clock["turn_based"] is True and 86000 < clock["left"] <= 86400
        # nobody here and only a day's clock running: the table may leave memory
        assert client.app.state.hub.unload_idle(0.0) == 1
    # two days later (the table was made then), a server starts: its sweep finds the
    # table whose clock ran out, and a bot makes the move for the absent player
    engine = create_engine(db)
    with engine.begin() as conn:
        conn.execute(update(tables_t).values(created=time.time() - 2 * 86400))
    engine.dispose()
    with TestClient(create_app(db, bot_delay=0, limits=Limits(idle_unload=4.0))) as client:
        deadline = time.monotonic() + 20
        while client.get(f"/api/tables/{t['id']}").json()["n"] < 1:
            assert time.monotonic() < deadline, "the overdue move was not made"
            time.sleep(0.2)
        live = client.app.state.hub.tables[t["id"]]
        assert live.state.history and live.autopilot  # the absent player's bot goes on
        # the next player's clock starts from that move: a whole day
        assert live.clock_info() is None or live.clock_info()["left"] > 86000
