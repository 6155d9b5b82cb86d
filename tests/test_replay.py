"""The replay viewer: ``GET /api/tables/{id}/replay``, ``POST /api/replay`` and the
``/replay`` page.

API tests (FastAPI TestClient): one frame per step, each frame's view exactly the
seat's (or the public) view at that step, the move as that viewer saw it, every hand as
dealt only once the match is over; refusals with clear errors; a seat's replay of a
match still being played shows that seat's views only; uploaded records, bad ones and
oversized ones.

Browser tests (headless Chromium, skipped without it): for every game a bots-only
one-hand match is finished, its replay opened and driven with the ``data-replay``
controls only — next to the end, prev, play at 4× — checking the step counter, that the
game's own layout draws every step, no JavaScript error, and every hand face up at the
end; also a record file opened on ``/replay``.
"""

from __future__ import annotations

import json
import random
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed")
pytest.importorskip("httpx", reason="httpx is not installed")

with warnings.catch_warnings():  # starlette's notice about httpx versions
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

import xtarot
from xtarot.server import create_app
from xtarot.server.app import MAX_RECORD_BODY
from xtarot.server.replays import MAX_STEPS

PLAYERS = {"arcana-duel": 2, "grail-mahjong": 3, "matto": 4}
GAMES = [info.id for info in xtarot.games()]


def info_of(game: str) -> Any:
    return next(i for i in xtarot.games() if i.id == game)


def short_options(game: str) -> dict[str, Any]:
    return dict(getattr(info_of(game), "bulk_options", ()) or ())


@pytest.fixture
def client(tmp_path: Path) -> Any:
    app = create_app(f"sqlite:///{tmp_path / 'tables.db'}", bot_delay=0)
    with TestClient(app) as c:
        yield c


def finished_table(client: TestClient, game: str, seed: int = 4, **options: Any) -> str:
    players = PLAYERS.get(game, 4)
    body = {
        "game": game,
        "players": players,
        "seats": ["random"] * players,
        "options": {**short_options(game), **options},
        "seed": seed,
    }
    res = client.post("/api/tables", json=body)
    assert res.status_code == 201, res.text
    table_id = res.json()["id"]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if client.get(f"/api/tables/{table_id}").json()["finished"]:
            return table_id
        time.sleep(0.05)
    raise AssertionError("the bots did not finish the match in 60 s")


def expected(record: dict[str, Any], seat: int | None) -> list[tuple[Any, str | None]]:
    """Each step's view and the move that led there, as ``seat`` saw it, computed
    independently of the server (a fresh replay per step)."""
    out: list[tuple[Any, str | None]] = []
    for n in range(len(record["actions"]) + 1):
        state = xtarot.replay(record, upto=n)
        view = state.view(seat) if seat is not None else state.public_view()
        move = None
        if n:
            before = xtarot.replay(record, upto=n - 1)
            action = before.game.action(record["actions"][n - 1])
            move = before.action_seen_by(action, seat)
        out.append((view, move))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_frames_are_each_steps_view_from_each_perspective(client: TestClient, game: str) -> None:
    table_id = finished_table(client, game)
    record = client.get(f"/api/tables/{table_id}/record").json()
    players = record["players"]
    rng = random.Random(game)
    for seat in [None, rng.randrange(players)]:
        query = "" if seat is None else f"?seat={seat}"
        res = client.get(f"/api/tables/{table_id}/replay{query}")
        assert res.status_code == 200, res.text
        data = res.json()
        assert data["game"] == game and data["seat"] == seat and data["finished"]
        assert data["steps"] == len(record["actions"])
        assert len(data["frames"]) == len(record["actions"]) + 1
        want = expected(record, seat)
        for frame, (view, move) in zip(data["frames"], want, strict=True):
            assert frame["view"] == view, f"step {frame['n']}"
            assert (frame["move"] or {}).get("text") == move
        assert data["frames"][-1]["match_over"] and data["frames"][-1]["hand_over"]
        assert not any(f["match_over"] for f in data["frames"][:-1])
        assert [f["n"] for f in data["frames"]] == list(range(len(want)))
        # every hand as dealt, once the match is over
        assert [d["hands"] for d in data["deals"]] == [d["hands"] for d in record["deals"]]
        assert data["result"] == record["result"]
        assert data["hands"][0]["first"] == 0 and data["hands"][-1]["last"] == data["steps"]


def test_hands_and_hand_ends_in_a_two_hand_match(client: TestClient) -> None:
    table_id = finished_table(client, "extendori", hands=2)
    data = client.get(f"/api/tables/{table_id}/replay").json()
    assert [h["hand"] for h in data["hands"]] == [0, 1]
    assert len(data["deals"]) == 2
    ends = [f["n"] for f in data["frames"] if f["hand_over"]]
    assert ends == [data["hands"][1]["first"], data["steps"]]
    first = data["frames"][data["hands"][1]["first"]]
    assert first["hand"] == 1 and first["move"]["hand"] == 0  # the move that ended hand 1
    assert data["hands"][0]["last"] == data["hands"][1]["first"]


def test_replay_is_cached_per_table_and_seat(client: TestClient) -> None:
    table_id = finished_table(client, "sono-arcana")
    a = client.get(f"/api/tables/{table_id}/replay?seat=1")
    b = client.get(f"/api/tables/{table_id}/replay?seat=1")
    assert a.content == b.content
    assert a.headers.get("content-encoding") == "gzip"  # the client asked for it
    plain = client.get(
        f"/api/tables/{table_id}/replay?seat=1", headers={"Accept-Encoding": "identity"}
    )
    assert "content-encoding" not in plain.headers and plain.json() == a.json()


def test_the_cache_is_bounded_in_entries_and_bytes() -> None:
    from xtarot.server.replays import ReplayCache

    cache = ReplayCache(size=3, max_bytes=400)
    for i in range(5):
        cache.put(i, (b"x" * 40, b"y" * 10))
    assert list(cache.items) == [2, 3, 4] and cache.bytes == 150
    cache.put("big", (b"x" * 200, b""))  # over a quarter of the budget: not kept
    assert "big" not in cache.items and cache.get(3) is not None
    cache.put(None, (b"x", b"y"))  # uploads are not kept
    assert None not in cache.items
    for i in range(5, 12):
        cache.put(i, (b"x" * 90, b""))
    assert cache.bytes <= 400 and len(cache.items) <= 3


def test_refusals_say_what_was_wrong(client: TestClient) -> None:
    res = client.get("/api/tables/nosuchtable/replay")
    assert res.status_code == 404 and "no table" in res.json()["error"]
    body = {"game": "sono-arcana", "players": 4, "seats": ["human", "random", "random", "random"]}
    table = client.post("/api/tables", json=body).json()
    table_id = table["id"]
    res = client.get(f"/api/tables/{table_id}/replay")
    assert res.status_code == 409
    assert "the match is not over yet" in res.json()["error"]
    # a seat without its token, with another seat's, or the token in the query string
    res = client.get(f"/api/tables/{table_id}/replay?seat=0")
    assert res.status_code == 409
    res = client.get(
        f"/api/tables/{table_id}/replay?seat=1",
        headers={"Authorization": f"Bearer {table['seats'][0]['token']}"},
    )
    assert res.status_code == 403 and "token" in res.json()["error"]
    res = client.get(f"/api/tables/{table_id}/replay?seat=0&token={table['seats'][0]['token']}")
    assert res.status_code == 409
    res = client.get(f"/api/tables/{table_id}/replay?seat=9")
    assert res.status_code == 400 and "no seat 9" in res.json()["error"]
    res = client.get(f"/api/tables/{table_id}/replay?seat=x")
    assert res.status_code == 400


def test_a_seat_replays_an_unfinished_match_seeing_only_its_own_views(
    client: TestClient,
) -> None:
    body = {
        "game": "fairy500",
        "players": 4,
        "seats": ["human", "random", "random", "random"],
        "options": {"hands": 1},
        "seed": 11,
    }
    table = client.post("/api/tables", json=body).json()
    table_id, token = table["id"], table["seats"][0]["token"]
    hub = client.app.state.hub
    live = hub.get(table_id)
    rng = random.Random(3)
    # seat 0 plays a few moves (the bots answer at once)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        ws.send_text(json.dumps({"type": "hello", "seat": 0, "token": token}))
        moves = 0
        deadline = time.monotonic() + 30
        while moves < 6 and time.monotonic() < deadline and not live.state.is_terminal:
            if live.state.current_player == 0:
                action = rng.choice(live.state.legal_actions())
                ws.send_text(json.dumps({"type": "act", "action": str(action)}))
                while ws.receive_json()["type"] not in ("ok", "error"):
                    pass
                moves += 1
            else:
                time.sleep(0.02)
    assert not live.state.is_terminal
    record = live.state.record()
    res = client.get(
        f"/api/tables/{table_id}/replay?seat=0", headers={"Authorization": f"Bearer {token}"}
    )
    assert res.status_code == 200, res.text
    data = res.json()
    assert data["seat"] == 0 and not data["finished"]
    assert data["deals"] is None and data["result"] is None
    assert len(data["frames"]) == len(record["actions"]) + 1
    for frame, (view, move) in zip(data["frames"], expected(record, 0), strict=True):
        assert frame["view"] == view
        assert (frame["move"] or {}).get("text") == move
    # nothing in the answer names a card seat 0 has not seen: another seat's card shows
    # only once it was played or named, or when the declarer's hand lies open (misère)
    text = res.text
    open_seats = {
        f["view"]["contract"]["declarer"] for f in data["frames"] if f["view"].get("open_hand")
    }
    for other in {1, 2, 3} - open_seats:
        for code in record["deals"][0]["hands"][other]:
            if f'"{code}"' in text:
                assert any(code in a.split() for a in record["actions"]), (
                    f"{code} of Seat {other + 1}'s hand leaked"
                )
    # the public and another seat stay closed before the end
    assert client.get(f"/api/tables/{table_id}/replay").status_code == 409


def test_a_record_uploaded_gives_the_same_frames(client: TestClient) -> None:
    table_id = finished_table(client, "matto")
    record = client.get(f"/api/tables/{table_id}/record").json()
    res = client.post("/api/replay", json=record)
    assert res.status_code == 200, res.text
    mine = res.json()
    theirs = client.get(f"/api/tables/{table_id}/replay").json()
    assert mine["frames"] == theirs["frames"] and mine["deals"] == theirs["deals"]
    seat = client.post("/api/replay?seat=2", json=record).json()
    assert seat["seat"] == 2 and seat["frames"][5]["view"] == xtarot.replay(record, upto=5).view(2)
    # a record from `xtarot play --save` (a state's record with its meta)
    state = xtarot.load("sono-arcana", players=4).new_state(seed=5)
    rng = random.Random(5)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    res = client.post("/api/replay", json=state.record({"client": "xtarot play"}))
    assert res.status_code == 200 and res.json()["steps"] == len(state.history)


def test_an_unfinished_record_shows_what_the_saving_seat_saw(client: TestClient) -> None:
    state = xtarot.load("fairy500", players=4, hands=1).new_state(seed=3)
    rng = random.Random(3)
    for _ in range(12):
        state.apply(rng.choice(state.legal_actions()))
    record = state.record({"client": "xtarot play", "human_seat": 2})
    data = client.post("/api/replay", json=record).json()
    assert data["seat"] == 2 and data["deals"] is None and not data["finished"]
    assert data["frames"][-1]["view"] == state.view(2)
    other = client.post("/api/replay?seat=1", json=record).json()  # the file is the reader's
    assert other["seat"] == 1 and other["deals"] is None


def test_bad_and_oversized_records_are_refused_clearly(client: TestClient) -> None:
    table_id = finished_table(client, "sono-arcana")
    record = client.get(f"/api/tables/{table_id}/record").json()
    cases = [
        ({**record, "format": "other"}, "not an xtarot record"),
        ({**record, "actions": [*record["actions"][:3], "play Zz"]}, "action 4"),
        ({**record, "game": "no-such-game"}, "cannot be loaded"),
        ({k: v for k, v in record.items() if k != "deals"}, "'deals'"),
        ({**record, "result": {"totals": [1, 2, 3, 4]}}, "result differs"),
        ([1, 2], "JSON object"),
    ]
    for body, words in cases:
        res = client.post("/api/replay", json=body)
        assert res.status_code == 400, (words, res.text)
        assert words in res.json()["error"], res.json()
    res = client.post(
        "/api/replay", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert res.status_code == 400
    res = client.post("/api/replay?seat=7", json=record)
    assert res.status_code == 400 and "no seat 7" in res.json()["error"]
    big = {**record, "meta": {"padding": "x" * MAX_RECORD_BODY}}
    res = client.post("/api/replay", json=big)
    assert res.status_code == 413 and str(MAX_RECORD_BODY) in res.json()["error"]
    # over 8 KiB is fine here (a real record is), unlike the other routes
    assert len(json.dumps(record)) > 2000
    long = {**record, "actions": ["pass"] * (MAX_STEPS + 1)}
    res = client.post("/api/replay", json=long)
    assert res.status_code == 400 and "too long" in res.json()["error"]
    res = client.post(
        "/api/replay", content=json.dumps(record), headers={"content-type": "text/plain"}
    )
    assert res.status_code == 415


def test_the_replay_page_and_its_short_link(client: TestClient) -> None:
    page = client.get("/replay")
    assert page.status_code == 200
    assert "static/replay.js" in page.text and "Content-Security-Policy" in page.headers
    assert "<script>" not in page.text and "onclick" not in page.text
    res = client.get("/replay/abc123", follow_redirects=False)
    assert res.status_code == 307 and res.headers["location"] == "../replay#t=abc123"


# -- the page in a real browser ------------------------------------------------------
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}

PAGE_JS = """() => {
  const c = document.getElementById('step-count');
  const board = document.getElementById('board');
  const dealt = document.getElementById('dealt');
  return {
    step: Number(c.dataset.step), steps: Number(c.dataset.steps), text: c.textContent,
    boardStep: Number(board.dataset.step), drawn: board.children.length,
    generic: document.querySelectorAll('#board dl.generic').length,
    note: document.querySelectorAll('#board .layout-note').length,
    actions: document.querySelectorAll('[data-action]').length,
    current: [...document.querySelectorAll('#log li.current')].map(li => Number(li.dataset.n)),
    dealt: dealt.dataset.shown === '1' && !dealt.hidden,
    dealtCards: [...document.querySelectorAll('#dealt .dealt-seat')].map(
      row => [...row.querySelectorAll('svg.xcard')].map(s => s.dataset.card)),
    width: document.documentElement.scrollWidth,
    playing: document.getElementById('play').dataset.playing === '1',
  };
}"""


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from test_web_e2e import Server, free_port

    db = tmp_path_factory.mktemp("replay") / "tables.db"
    srv = Server(f"sqlite:///{db}", free_port()).start()
    try:
        yield srv
    finally:
        srv.stop()


def finished_web_table(web: Any, game: str) -> tuple[str, dict[str, Any]]:
    import httpx

    players = PLAYERS.get(game, 4)
    body = {
        "game": game,
        "players": players,
        "seats": ["random"] * players,
        "options": short_options(game),
        "seed": 4,
    }
    res = httpx.post(web.base + "/api/tables", json=body, timeout=10)
    assert res.status_code == 201, res.text
    table_id = res.json()["id"]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if httpx.get(f"{web.base}/api/tables/{table_id}", timeout=10).json()["finished"]:
            break
        time.sleep(0.1)
    else:
        raise AssertionError("the bots did not finish the match in 60 s")
    record = httpx.get(f"{web.base}/api/tables/{table_id}/record", timeout=10).json()
    return table_id, record


def open_page(browser: Any, size: str) -> tuple[Any, Any, list[str]]:
    phone = size == "phone"
    ctx = browser.new_context(viewport=SIZES[size], is_mobile=phone, device_scale_factor=1)
    ctx.add_init_script("localStorage.setItem('xtarot.lang', 'en')")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return ctx, page, errors


def state_of(page: Any) -> dict[str, Any]:
    return page.evaluate(PAGE_JS)


def check_step(page: Any, n: int, steps: int, size: str) -> dict[str, Any]:
    st = state_of(page)
    assert st["step"] == n and st["boardStep"] == n, st
    assert st["steps"] == steps and st["text"] == f"Step {n} / {steps}"
    assert st["drawn"] > 0 and st["generic"] == 0 and st["note"] == 0, "not the game's layout"
    assert st["actions"] == 0, "a move is clickable in a replay"
    assert st["current"] == ([n] if n else []), st["current"]
    assert st["width"] <= SIZES[size]["width"] + 1, f"sideways scroll: {st['width']} px"
    return st


def check_dealt(st: dict[str, Any], record: dict[str, Any]) -> None:
    assert st["dealt"], "the hands as dealt are not shown at the end"
    want = [sorted(h) for deal in record["deals"] for h in deal["hands"]]
    assert [sorted(row) for row in st["dealtCards"]] == want  # every card face up


def drive_to_the_end(page: Any, record: dict[str, Any], size: str) -> None:
    steps = len(record["actions"])
    page.wait_for_function(
        "() => Number(document.getElementById('step-count').dataset.steps) > 0", timeout=20000
    )
    st = check_step(page, 0, steps, size)
    assert not st["dealt"]
    nxt = page.locator("[data-replay=next]")
    for n in range(1, steps + 1):
        nxt.click()
        st = check_step(page, n, steps, size)
        assert st["dealt"] == (n == steps)
    check_dealt(st, record)
    nxt.click()  # past the end: stays there
    check_step(page, steps, steps, size)
    page.locator("[data-replay=prev]").click()
    assert not check_step(page, steps - 1, steps, size)["dealt"]
    for _ in range(min(4, steps - 1)):
        page.locator("[data-replay=prev]").click()
    back = max(0, steps - 5)
    check_step(page, back, steps, size)
    page.select_option("#speed", "4")
    page.locator("[data-replay=play]").click()
    assert state_of(page)["playing"]
    page.wait_for_function(
        f"() => Number(document.getElementById('step-count').dataset.step) === {steps}",
        timeout=20000,
    )
    st = check_step(page, steps, steps, size)
    assert not st["playing"]  # play stops at the end
    check_dealt(st, record)
    page.locator("[data-replay=start]").click()
    check_step(page, 0, steps, size)
    page.locator("[data-replay=end]").click()
    check_dealt(check_step(page, steps, steps, size), record)


def drive_a_few_steps(page: Any, record: dict[str, Any], size: str) -> None:
    """The first steps one by one, the end (with every hand dealt) and back to the start:
    that the replay opened and runs (every step of every game is driven elsewhere)."""
    steps = len(record["actions"])
    page.wait_for_function(
        "() => Number(document.getElementById('step-count').dataset.steps) > 0", timeout=20000
    )
    assert not check_step(page, 0, steps, size)["dealt"]
    for n in range(1, 4):
        page.locator("[data-replay=next]").click()
        assert not check_step(page, n, steps, size)["dealt"]
    page.locator("[data-replay=end]").click()
    check_dealt(check_step(page, steps, steps, size), record)
    page.locator("[data-replay=start]").click()
    check_step(page, 0, steps, size)


SLOW_REPLAYS = {"arcana-duel", "extendori", "matto"}


@pytest.mark.parametrize(
    "game",
    # the longest replays run on demand (pytest -m slow): arcana-duel's (about 20 s),
    # extendori's and matto's (about 15 s each); every game's replay frames are checked
    # in the default run by test_frames_are_each_steps_view_from_each_perspective
    [pytest.param(g, marks=[pytest.mark.slow] if g in SLOW_REPLAYS else []) for g in GAMES],
)
def test_replay_page_of_every_game(web: Any, browser: Any, game: str) -> None:
    table_id, record = finished_web_table(web, game)
    # every step at desktop size; sono-arcana's first steps and end at phone size too
    sizes = ["desktop", "phone"] if game == "sono-arcana" else ["desktop"]
    for size in sizes:
        ctx, page, errors = open_page(browser, size)
        try:
            page.goto(f"{web.base}/replay/{table_id}")  # the short link
            assert page.url.endswith(f"/replay#t={table_id}")
            if size == "desktop":
                drive_to_the_end(page, record, size)
            else:
                drive_a_few_steps(page, record, size)
            assert errors == [], errors
        finally:
            ctx.close()


def test_replay_page_keys_perspective_share_link_and_table_links(web: Any, browser: Any) -> None:
    table_id, record = finished_web_table(web, "fairy500")
    steps = len(record["actions"])
    ctx, page, errors = open_page(browser, "desktop")
    try:
        page.goto(f"{web.base}/replay#t={table_id}&seat=1&step=3")
        page.wait_for_function("() => document.getElementById('step-count').dataset.step === '3'")
        assert page.locator("#perspective").input_value() == "1"
        assert page.locator("#hand-box").is_visible()  # the seat's own hand
        page.keyboard.press("ArrowRight")
        check_step(page, 4, steps, "desktop")
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowLeft")
        check_step(page, 2, steps, "desktop")
        page.keyboard.press("End")
        check_dealt(check_step(page, steps, steps, "desktop"), record)
        page.keyboard.press("Home")
        check_step(page, 0, steps, "desktop")
        page.keyboard.press("ArrowRight")
        href = page.locator("#share").get_attribute("href")
        assert href == f"replay#t={table_id}&seat=1&step=1"
        page.select_option("#perspective", "")  # the public view
        page.wait_for_function("() => !document.getElementById('hand-box').checkVisibility()")
        check_step(page, 1, steps, "desktop")
        page.locator("#lang").click()  # in Japanese
        assert "1 / " in page.locator("#step-count").text_content()
        assert page.locator("#perspective option").first.text_content() == "公開（観戦者）"
        page.locator("#lang").click()
        # the table page links to the replay once the match is over
        page.goto(f"{web.base}/table#t={table_id}")
        link = page.locator("#replay-link")
        link.wait_for(state="visible", timeout=10000)
        assert link.get_attribute("href") == f"replay#t={table_id}"
        again = page.locator("#board .overlay .replay-hand-link")
        assert again.get_attribute("href") == f"replay#t={table_id}&hand=0"
        link.click()
        page.wait_for_function(
            "() => Number(document.getElementById('step-count').dataset.steps) > 0"
        )
        check_step(page, 0, steps, "desktop")
        # the lobby's "my tables" links a finished table's replay
        page.goto(f"{web.base}/table#t={table_id}&seat=2&token=wrong")  # not remembered
        page.evaluate(
            "(id) => localStorage.setItem('xtarot.tables', JSON.stringify("
            "[{id, seat: null, game: 'fairy500', link: 'table#t=' + id, at: 1}]))",
            table_id,
        )
        page.goto(f"{web.base}/")
        mine = page.locator(f'#my-tables li[data-table="{table_id}"] a.replay-link')
        mine.wait_for(timeout=10000)
        assert mine.get_attribute("href") == f"replay#t={table_id}"
        assert errors == [], errors
    finally:
        ctx.close()
    # on a phone, the seat's ten cards as dealt are one row (overlapping), as at the table
    ctx, page, errors = open_page(browser, "phone")
    try:
        page.goto(f"{web.base}/replay#t={table_id}&seat=1&step=0")
        page.wait_for_function("() => document.querySelectorAll('#hand .card svg').length")
        tops = page.evaluate("[...document.querySelectorAll('#hand .card')].map(c => c.offsetTop)")
        assert len(tops) == 10 and len(set(tops)) == 1, tops
        assert errors == [], errors
    finally:
        ctx.close()


def test_replay_page_opens_a_record_file(web: Any, browser: Any, tmp_path: Path) -> None:
    state = xtarot.load("matto", players=3).new_state(seed=9)
    rng = random.Random(9)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    path = xtarot.save_record(state, tmp_path / "game.json")
    record = json.loads(path.read_text("utf-8"))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**record, "actions": ["end", "end"]}), "utf-8")
    ctx, page, errors = open_page(browser, "phone")
    try:
        page.goto(f"{web.base}/replay")
        page.locator("#file").set_input_files(str(bad))
        message = page.locator("#message")
        message.wait_for(state="visible")
        assert "not a valid record" in message.text_content()
        page.locator("#file").set_input_files(str(path))
        drive_a_few_steps(page, record, "phone")
        assert page.locator("#share").is_hidden()  # nothing on the server to link to
        errors = [e for e in errors if "400" not in e]  # the bad file's refusal
        assert errors == [], errors
    finally:
        ctx.close()


def test_replay_page_of_a_match_still_being_played(web: Any, browser: Any) -> None:
    import httpx

    body = {"game": "sono-arcana", "players": 4, "seats": ["human", "random", "random", "random"]}
    table = httpx.post(web.base + "/api/tables", json=body, timeout=10).json()
    table_id, token = table["id"], table["seats"][0]["token"]
    ctx, page, errors = open_page(browser, "desktop")
    urls: list[str] = []
    page.on("request", lambda r: urls.append(r.url))
    try:
        page.goto(f"{web.base}/replay#t={table_id}")  # a spectator: not yet
        message = page.locator("#message")
        message.wait_for(state="visible")
        assert "not over yet" in message.text_content()
        back = message.locator("a")
        assert back.get_attribute("href") == f"table#t={table_id}"
        page.goto(f"{web.base}/")  # then a fresh load of the replay page
        page.goto(f"{web.base}/replay#t={table_id}&seat=0&token={token}")
        page.wait_for_function("() => document.getElementById('board').dataset.step === '0'")
        assert page.locator("#perspective option").all_text_contents() == ["Seat 1"]
        assert "Your seat's view so far" in page.locator("#status").text_content()
        assert page.locator("#share").is_hidden() and page.locator("#dealt").is_hidden()
        assert page.locator("#hand-box").is_visible()
        assert not [u for u in urls if token in u.split("#")[0]], "the token went into a URL"
        errors = [e for e in errors if "409" not in e]  # the spectator's refusal
        assert errors == [], errors
    finally:
        ctx.close()
