"""Every game's table in real headless Chromium, played by clicking the UI only.

For each registered game, at a desktop size (1280×800) and a phone size (390×844), a
person at seat 1 plays a whole hand against random bots by clicking: legal moves are
the elements with ``data-action`` (buttons, bidding cells, field cards...) and the
playable hand cards.  Throughout, the page must stay within its height bound, never
scroll sideways, keep the hand on screen without scrolling, raise no JavaScript error,
use the game's own layout (not the generic listing) and number seats from 1.  A
screenshot of each table at mid-hand is kept under the test's tmp dir (and copied to
``XTAROT_SCREENSHOTS`` when that names a folder).

Skipped without Chromium or Playwright (see ``test_web_e2e.py``).
"""

from __future__ import annotations

import os
import random
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

import xtarot
from test_web_e2e import Server, free_port, httpx, sync_api

#: (width, height, phone?) and the page height allowed: two screens on a desktop; on a
#: phone the side panels (seats, moves, scores) stack below the table.
SIZES = {
    "desktop": ({"width": 1280, "height": 800}, False, 2 * 800),
    "phone": ({"width": 390, "height": 844}, True, 4 * 844),
}

GAMES = [info.id for info in xtarot.games()]
PLAYERS = {"arcana-duel": 2, "grail-mahjong": 3, "matto": 4}
#: Deals whose first hand lasts a while under random play (grail-mahjong's seed 4 can
#: end in two moves when a bot discards Rc).
SEEDS = {"grail-mahjong": 16}

METRICS_JS = """() => {
  const hand = document.getElementById('hand-box').getBoundingClientRect();
  const cards = [...document.querySelectorAll('#hand button.card')]
    .map(c => c.getBoundingClientRect());
  const seats = [...document.querySelectorAll('#seats .seat-box strong')].map(e => e.textContent);
  return {
    height: document.documentElement.scrollHeight,
    width: document.documentElement.scrollWidth,
    handTop: hand.top, handBottom: hand.bottom, handHeight: hand.height,
    cardsTop: Math.min(1e9, ...cards.map(c => c.top)),
    cardsBottom: Math.max(-1, ...cards.map(c => c.bottom)),
    viewport: window.innerHeight,
    generic: document.querySelectorAll('#board dl.generic').length,
    seats,
    text: document.body.innerText,
  };
}"""

STATUS_JS = """() => {
  const s = document.getElementById('status');
  return {finished: s.dataset.finished === '1', turn: s.dataset.turn === '1',
          n: Number(s.dataset.n || -1), pending: document.body.classList.contains('pending')};
}"""

CLICKABLE = (
    "#choices [data-action]:not([disabled]), #board [data-action]:not([disabled]), "
    "#hand button.card.legal"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    db = tmp_path_factory.mktemp("web-tables") / "tables.db"
    srv = Server(f"sqlite:///{db}", free_port()).start()
    try:
        yield srv
    finally:
        srv.stop()


def check_page(page: Any, size: str, players: int) -> dict[str, Any]:
    """The bounds every table keeps, at any moment of the match."""
    m = page.evaluate(METRICS_JS)
    viewport, _phone, max_height = SIZES[size]
    assert m["width"] <= viewport["width"] + 1, f"sideways scroll: {m['width']} px"
    assert m["height"] <= max_height, f"page {m['height']} px tall (bound {max_height})"
    # the hand, every card of it, is on screen without scrolling
    assert m["handTop"] >= 0 and m["handBottom"] <= m["viewport"] + 1, m
    if m["cardsBottom"] >= 0:  # the hand holds cards
        assert m["cardsTop"] >= 0 and m["cardsBottom"] <= m["viewport"], m
    assert m["generic"] == 0, "the generic listing instead of the game's table"
    # seats read from 1 for people
    assert [s.split(" (")[0] for s in m["seats"]] == [f"Seat {i + 1}" for i in range(players)]
    assert m["seats"][0].startswith("Seat 1 (you")
    assert "Seat 0" not in m["text"]
    return m


def click_a_move(page: Any, rng: random.Random) -> bool:
    st = page.evaluate(STATUS_JS)
    if st["finished"] or not st["turn"] or st["pending"]:
        return False
    try:
        dismiss = page.locator("#board .overlay .dismiss")
        if dismiss.count() and dismiss.first.is_visible():
            dismiss.first.click(timeout=2000)  # a hand's summary over the board: read, OK
            return True
        moves = page.locator(CLICKABLE)
        count = moves.count()
        if not count:
            return False
        moves.nth(rng.randrange(count)).click(timeout=1500)
    except sync_api.Error:
        return False  # the table moved on while we clicked: look again
    return True


#: Hands by clicking at phone size run on demand (``pytest -m slow``): in the default
#: run every game's phone layout is checked by tests/test_web_feel.py (no legal control
#: covered, Learn), and whole matches are played at phone size by test_web_e2e and
#: test_cluster_browser.  Arcana Duel's shortest match is its whole match (about 130
#: decisions): by clicking, on demand at both sizes (its table is played in the default
#: run by test_web_feel).  Extendori's and Matto's hands (their longest, 13 s and
#: 11 s) are on demand too: test_web_feel clicks their tables through several decisions
#: at phone size in the default run.  Sono Arcana's desktop hand is also played against
#: the built wheel (``installed``).
SLOW_DESKTOPS = {"arcana-duel", "extendori", "matto"}


def _hand_marks(game: str, size: str) -> list[pytest.MarkDecorator]:
    marks = [pytest.mark.slow] if size == "phone" or game in SLOW_DESKTOPS else []
    if (game, size) == ("sono-arcana", "desktop"):
        marks.append(pytest.mark.installed)
    return marks


@pytest.mark.parametrize(
    ("game", "size"),
    [pytest.param(g, s, marks=_hand_marks(g, s)) for g in GAMES for s in SIZES],
)
def test_a_whole_hand_by_clicking(
    server: Server, browser: Any, game: str, size: str, tmp_path: Path
) -> None:
    info = next(i for i in xtarot.games() if i.id == game)
    players = PLAYERS.get(game, 4)
    options = dict(getattr(info, "bulk_options", ()) or ())
    body = {
        "game": game,
        "players": players,
        "seats": ["human"] + ["random"] * (players - 1),
        "options": options,
        "seed": SEEDS.get(game, 4),
    }
    res = httpx.post(server.base + "/api/tables", json=body, timeout=10)
    assert res.status_code == 201, res.text
    table = res.json()
    viewport, phone, _bound = SIZES[size]
    ctx = browser.new_context(viewport=viewport, is_mobile=phone, device_scale_factor=1)
    ctx.add_init_script("localStorage.setItem('xtarot.lang', 'en')")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(table["seats"][0]["link"])
    page.wait_for_selector("#status[data-n]", timeout=15000)

    rng = random.Random(f"{game}-{size}")
    clicks = 0
    shot = None
    deadline = time.monotonic() + 240
    while True:
        facts = httpx.get(server.base + f"/api/tables/{table['id']}", timeout=10).json()
        if facts["finished"] or facts["hand"] > 1:
            break
        assert time.monotonic() < deadline, f"{game}: the hand did not end ({clicks} clicks)"
        if click_a_move(page, rng):
            clicks += 1
            if clicks % 7 == 0:
                page.wait_for_timeout(60)
                check_page(page, size, players)
            if clicks == 6 and shot is None:
                page.wait_for_timeout(150)
                shot = tmp_path / f"{game}-{size}-mid-hand.png"
                page.screenshot(path=str(shot))
        else:
            page.wait_for_timeout(25)
    assert clicks >= 3, f"{game}: only {clicks} moves were clicked"
    page.wait_for_timeout(400)
    m = check_page(page, size, players)
    # the hand (or match) summary is shown, over the board or beside it
    assert page.locator("#board .overlay, #summary:not([hidden])").count() >= 1
    assert shot is not None and shot.stat().st_size > 10_000
    end = tmp_path / f"{game}-{size}-end.png"
    page.screenshot(path=str(end), full_page=True)
    keep = os.environ.get("XTAROT_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        for f in (shot, end):
            shutil.copy(f, Path(keep) / f.name)
    assert not errors, errors
    assert m["height"] > 0
    ctx.close()


def test_japanese_tables_translate_what_players_read(server: Server, browser: Any) -> None:
    """In Japanese, the status line, seat names, buttons and the move log read in
    Japanese (fairy500's auction: 'bid 7nt' → a Japanese contract name)."""
    body = {"game": "fairy500", "players": 4, "seats": ["human"] + ["random"] * 3, "seed": 2}
    table = httpx.post(server.base + "/api/tables", json=body, timeout=10).json()
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    ctx.add_init_script("localStorage.setItem('xtarot.lang', 'ja')")
    page = ctx.new_page()
    page.goto(table["seats"][0]["link"])
    page.wait_for_function("() => document.getElementById('status').dataset.turn === '1'")
    text = page.inner_text("body")
    assert "1番席" in text and "あなたの番です" in text
    labels = page.locator("#choices [data-action], #board [data-action]").all_inner_texts()
    joined = " ".join(labels)
    assert "パス" in joined or "ノートランプ" in joined or "切り札" in joined, joined[:300]
    assert "bid " not in joined and "pass" not in joined.lower().split()
    ctx.close()


def test_a_wrong_link_says_what_happened_and_offers_to_watch(server: Server, browser: Any) -> None:
    body = {"game": "matto", "players": 3, "seats": ["human", "random", "random"], "seed": 1}
    table = httpx.post(server.base + "/api/tables", json=body, timeout=10).json()
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    ctx.add_init_script("localStorage.setItem('xtarot.lang', 'en')")
    page = ctx.new_page()
    page.goto(f"{server.base}/table#t={table['id']}&seat=0&token=not-the-token")
    page.wait_for_selector("#stale:not([hidden])", timeout=10000)
    assert "does not open a seat" in page.inner_text("#stale")
    watch = page.locator("#stale-watch")
    assert watch.is_visible() and watch.get_attribute("href").endswith(f"#t={table['id']}")
    page.goto("about:blank")
    page.goto(f"{server.base}/table#t=nosuchtable")
    page.wait_for_selector("#stale:not([hidden])", timeout=10000)
    assert "There is no table nosuchtable" in page.inner_text("#stale")
    assert page.locator("#stale-watch").is_hidden()
    ctx.close()


def test_lobby_lists_open_tables_and_my_tables(server: Server, browser: Any) -> None:
    """A host creates a table with an open seat and a move clock from the lobby; a
    second browser sees it in the lobby's open tables, takes the seat and plays; both
    browsers list the table under "my tables".  Options show only where they apply."""
    host = browser.new_context(viewport={"width": 1280, "height": 800})
    host.add_init_script("localStorage.setItem('xtarot.lang', 'en')")
    page = host.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + "/")
    page.wait_for_selector("#game option[value='fairy500']", state="attached")
    page.select_option("#game", "fairy500")
    page.select_option("#players", "5")
    assert page.locator("[data-opt='pairs']").count() == 0  # pairs: 4 players only
    page.select_option("#players", "4")
    assert page.locator("[data-opt='pairs']").count() == 1
    page.select_option("#seats select[data-seat='1']", "open")
    page.select_option("#clock", "60")
    page.click("#create-btn")
    page.wait_for_selector("#links a.join")
    table_id = page.get_attribute("#created", "data-table")
    info = httpx.get(server.base + f"/api/tables/{table_id}").json()
    assert info["clock"] == 60 and info["listed"] is True
    assert [s["free"] for s in info["seats"]] == [False, True, False, False]
    page.wait_for_selector(f"#my-tables li[data-table='{table_id}']")

    guest = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    guest.add_init_script("localStorage.setItem('xtarot.lang', 'en')")
    other = guest.new_page()
    other.on("pageerror", lambda e: errors.append(str(e)))
    other.goto(server.base + "/")
    row = other.locator(f"#open-tables li[data-table='{table_id}']")
    row.wait_for(timeout=10000)
    row.locator("button.join-open[data-seat='1']").click()
    other.wait_for_selector("#hand button.card", timeout=10000)
    assert other.locator("#seats .seat-box.me").inner_text().startswith("Seat 2")
    info = httpx.get(server.base + f"/api/tables/{table_id}").json()
    assert [s["free"] for s in info["seats"]] == [False, False, False, False]
    other.goto(server.base + "/")
    other.wait_for_selector(f"#my-tables li[data-table='{table_id}'] a")
    assert other.locator(f"#open-tables li[data-table='{table_id}'] button").count() == 0
    assert not errors, errors
    host.close()
    guest.close()


def test_a_seat_opened_in_a_second_window_is_taken_over(server: Server, browser: Any) -> None:
    body = {"game": "matto", "players": 3, "seats": ["human", "random", "random"], "seed": 2}
    table = httpx.post(server.base + "/api/tables", json=body, timeout=10).json()
    link = table["seats"][0]["link"]
    first_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    first_ctx.add_init_script("localStorage.setItem('xtarot.lang', 'en')")
    first = first_ctx.new_page()
    first.goto(link)
    first.wait_for_selector("#status[data-n]", timeout=10000)
    second_ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    second = second_ctx.new_page()
    second.goto(link)
    second.wait_for_selector("#status[data-n]", timeout=10000)
    first.wait_for_selector("#stale:not([hidden])", timeout=10000)
    assert "opened in another window" in first.inner_text("#stale")
    assert first.locator("#stale-watch").inner_text() == "Take the seat back here"
    assert second.locator("#stale").is_hidden()
    first_ctx.close()
    second_ctx.close()


def test_the_move_clock_counts_down_on_the_table(server: Server, browser: Any) -> None:
    body = {"game": "matto", "players": 3, "seats": ["human"] * 3, "seed": 3, "clock": 30}
    table = httpx.post(server.base + "/api/tables", json=body, timeout=10).json()
    info = httpx.get(server.base + f"/api/tables/{table['id']}", timeout=10).json()
    seat = info["current_player"]
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    ctx.add_init_script("localStorage.setItem('xtarot.lang', 'en')")
    page = ctx.new_page()
    page.goto(table["seats"][seat]["link"])
    # The clock is drawn by the page's script after the first state arrives: until then
    # there is no element, and a predicate that throws ends the wait at once.
    page.wait_for_function(
        "() => document.querySelector('#status .clock')?.textContent.includes('s left')"
    )
    first = page.inner_text("#status .clock")
    page.wait_for_timeout(2200)
    later = page.inner_text("#status .clock")

    def left(text: str) -> int:
        return int(text.split(":")[-1].split("s left")[0])

    # 30 s from the table's start: the page may take a few seconds to come up on a busy machine
    assert "Move clock" in first and 15 <= left(first) <= 30
    assert left(later) <= left(first) - 1  # it counts down
    ctx.close()


@pytest.mark.installed
def test_every_game_opens_with_its_own_layout(server: Server, browser: Any) -> None:
    """One page per game (the installed wheel's check that every layout ships and
    loads): the game's layout is registered, draws the table and leaves no note, and the
    page logs no error."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    for game in GAMES:
        players = PLAYERS.get(game, 4)
        body = {"game": game, "players": players, "seats": ["human"] + ["random"] * (players - 1)}
        table = httpx.post(server.base + "/api/tables", json=body, timeout=10).json()
        page.goto(table["seats"][0]["link"])
        page.wait_for_selector("#status[data-n]")
        assert page.evaluate("(g) => XLayouts.has(g)", game), game
        assert page.locator("#board .layout-note").count() == 0, game
        assert page.locator("#board dl.generic").count() == 0, game
        assert page.locator("#board *").count() > 5, game  # the layout drew the table
    assert errors == [], errors
    ctx.close()


@pytest.mark.installed
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_layout_that_cannot_load_is_said_in_words(
    server: Server, browser: Any, lang: str
) -> None:
    """A game's layout script that fails to load (as when an installation lacks it):
    the table says so, in the reader's language, with what to do, instead of showing
    the debug listing as if it were the table; the hand and the moves still work."""
    body = {"game": "matto", "players": 3, "seats": ["human", "random", "random"], "seed": 1}
    table = httpx.post(server.base + "/api/tables", json=body, timeout=10).json()
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    ctx.add_init_script(f"localStorage.setItem('xtarot.lang', '{lang}')")
    page = ctx.new_page()
    page.route("**/static/games/matto.js", lambda route: route.abort())
    page.goto(table["seats"][0]["link"])
    page.wait_for_selector("#board .layout-note.missing", timeout=15000)
    note = page.inner_text("#board .layout-note")
    if lang == "en":
        assert "This game's table could not be loaded" in note
        assert "Reload the page" in note and "pip install --force-reinstall xtarot" in note
    else:
        assert "このゲームの卓を読み込めませんでした" in note and "再読み込み" in note
    assert page.locator("#board dl.generic").count() == 0
    page.wait_for_function("() => document.getElementById('status').dataset.turn === '1'")
    assert page.locator(CLICKABLE).count() > 0  # the moves can still be made
    ctx.close()


@pytest.mark.installed
def test_a_game_without_a_layout_is_labelled_as_a_plain_listing(
    server: Server, browser: Any
) -> None:
    """A plugin game that ships no layout (here matto, its script blocked and no
    longer named as a layout the page means to load) is shown as the generic listing,
    labelled as such."""
    body = {"game": "matto", "players": 3, "seats": ["human", "random", "random"], "seed": 1}
    table = httpx.post(server.base + "/api/tables", json=body, timeout=10).json()
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    ctx.add_init_script("localStorage.setItem('xtarot.lang', 'en')")
    # (a page fulfilled by the test itself would lose its access to the local server)
    ctx.add_init_script(
        "new MutationObserver(() => document.querySelectorAll('script[data-layout=matto]')"
        ".forEach((s) => s.removeAttribute('data-layout')))"
        ".observe(document, {childList: true, subtree: true});"
    )
    page = ctx.new_page()
    page.route("**/static/games/matto.js", lambda route: route.abort())
    page.goto(table["seats"][0]["link"])
    page.wait_for_selector("#board .layout-note.plain", timeout=15000)
    assert "has no table layout" in page.inner_text("#board .layout-note")
    assert page.locator("#board > dl.generic").count() == 1
    ctx.close()


@pytest.mark.installed
def test_a_table_behind_a_reverse_proxy_under_a_path(browser: Any, tmp_path: Path) -> None:
    """``xtarot serve --root-path /cards`` behind a proxy that serves it at /cards/ and
    strips the prefix (as nginx's ``location /cards/ { proxy_pass http://…/; }``): the
    lobby lists the games, a table link handed out names the prefix, the table's page,
    layout, websocket and rules all work through it."""
    from prefix_proxy import PrefixProxy

    backend = Server(f"sqlite:///{tmp_path / 't.db'}", free_port(), "--root-path", "/cards")
    backend.start()
    proxy = PrefixProxy("/cards", backend.port).start()
    try:
        base = f"{proxy.base}/cards"
        body = {"game": "matto", "players": 3, "seats": ["human", "random", "random"], "seed": 1}
        res = httpx.post(base + "/api/tables", json=body, timeout=10)
        assert res.status_code == 201, res.text
        link = res.json()["seats"][0]["link"]
        assert link.startswith(base + "/table#t=")
        ctx = browser.new_context(viewport={"width": 1280, "height": 800})
        ctx.add_init_script("localStorage.setItem('xtarot.lang', 'en')")
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(base + "/")
        page.wait_for_function("() => document.querySelectorAll('#game option').length >= 6")
        page.goto(link)
        page.wait_for_function("() => document.getElementById('status').dataset.turn === '1'")
        assert page.locator("#board dl.generic, #board .layout-note").count() == 0
        rng = random.Random(5)
        clicks = 0
        deadline = time.monotonic() + 60
        while clicks < 4 and time.monotonic() < deadline:
            if click_a_move(page, rng):
                clicks += 1
            else:
                page.wait_for_timeout(25)
        assert clicks == 4
        page.click("#rules")
        page.wait_for_function(
            "() => document.getElementById('rules-body').textContent.length > 200"
        )
        assert not errors, errors
        ctx.close()
    finally:
        proxy.stop()
        backend.stop()
