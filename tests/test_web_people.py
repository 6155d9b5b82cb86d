"""The people at a table, in real headless Chromium: two players (a desktop in English and
a phone in Japanese) name themselves (in the lobby and at the table); the host creates
the table in the lobby with open seats, the other takes one from the invitation's
waiting room, and the host seats bots in the seats nobody took; they chat both ways with
free text and a quick phrase each sees in their own language, play a whole hand by
clicking (the server restarted in the middle: names, chat and seats survive), see their
new ratings, the leaderboard and a player page, and agree to a
rematch, which seats them at a new table under the same names.  Names and chat holding
HTML are shown as text.  Skipped without Chromium or Playwright."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from test_web_e2e import Server, free_port, httpx
from test_web_tables import click_a_move

NAME_A = "<b>Ada</b>"  # a name that is also HTML: shown as the text it is
NAME_B = "花子"
XSS = '<img src=x onerror="document.title=1">'


@pytest.fixture
def server(tmp_path: Path) -> Any:
    srv = Server(f"sqlite:///{tmp_path / 'tables.db'}", free_port()).start()
    try:
        yield srv
    finally:
        srv.stop()


def page_for(browser: Any, lang: str, phone: bool, errors: list[str]) -> Any:
    size = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 800}
    ctx = browser.new_context(viewport=size, is_mobile=phone)
    ctx.add_init_script(f"localStorage.setItem('xtarot.lang', '{lang}')")
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("dialog", lambda d: errors.append(f"a dialog opened: {d.message}"))
    return page


def seat_names(page: Any) -> list[str]:
    return page.locator("#seats .seat-box strong").all_inner_texts()


def chat_lines(page: Any) -> list[str]:
    return page.locator("#chat-log li:not(.empty)").all_inner_texts()


def test_names_chat_and_a_rematch_between_two_browsers(
    server: Server, browser: Any, tmp_path: Path
) -> None:
    errors: list[str] = []
    a = page_for(browser, "en", False, errors)
    b = page_for(browser, "ja", True, errors)

    # A names herself in the lobby once; the browser remembers it
    a.goto(server.base + "/")
    a.fill("#my-name", f"  {NAME_A} ")
    a.click("#save-name")
    assert a.inner_text("#name-note") == "Saved."
    assert a.input_value("#my-name") == NAME_A
    # A creates the table: her seat, and three open seats for whoever comes
    a.select_option("#game", "fairy500")
    a.select_option("#players", "4")
    a.fill("[data-opt='hands']", "1")
    for s in (1, 2, 3):
        a.select_option(f"#seats select[data-seat='{s}']", "open")
    a.fill("#seed", "3")
    a.click("#create-btn")
    a.wait_for_selector("#invite-box:not([hidden])")
    invite = a.input_value("#invite-link")
    table_id = a.evaluate("() => document.getElementById('created').dataset.table")
    assert invite == f"{server.base}/j/{table_id}"
    a.wait_for_function("() => document.getElementById('invite-qr').naturalWidth > 0")
    a.click("#links a.join")
    a.wait_for_selector("#status[data-n]")
    # B follows the invitation to the waiting room and takes seat 3 there
    b.goto(invite)
    b.wait_for_selector("#invite-seats [data-take='2']")
    assert "1番席" in b.inner_text("#invite-seats") and NAME_A in b.inner_text("#invite-seats")
    b.click("#invite-seats [data-take='2']")
    b.wait_for_selector("#status[data-n]")
    # the host seats bots in the two seats nobody took
    a.wait_for_selector("#host-btn:not([hidden])")
    assert b.locator("#host-btn").is_hidden()  # B is not the host
    a.click("#host-btn")
    a.wait_for_selector("#host-body [data-host='fill']")
    a.click("#host-body [data-host='fill']")
    a.wait_for_function(
        "() => [...document.querySelectorAll('#host-body .host-seat')]"
        ".filter((e) => e.textContent.includes('bot')).length === 2"
    )
    a.click("#host-close")
    table = {"id": table_id}
    # B names herself at the table
    b.click("#seats .seat-box.me .rename")
    b.fill("#name-input", "x" * 24 + "y")  # the field stops at 24 characters
    assert len(b.input_value("#name-input")) == 24
    b.fill("#name-input", NAME_B)
    b.click("#name-save")
    a.wait_for_function(
        "(n) => [...document.querySelectorAll('#seats .seat-box strong')]"
        ".some((e) => e.textContent === n)",
        arg=NAME_B,
    )
    assert seat_names(a)[0] == f"{NAME_A} (you)" and seat_names(a)[2] == NAME_B
    assert a.locator("#seats b").count() == 0  # the name is text, not markup
    assert seat_names(b)[0] == NAME_A and seat_names(b)[2] == f"{NAME_B}（あなた）"
    assert "1番席" in b.inner_text("#seats")  # a named seat still shows its number

    # chat both ways: free text, and a phrase each reads in their own language
    a.fill("#chat-input", f"hello {XSS}")
    a.press("#chat-input", "Enter")
    b.wait_for_function("() => document.querySelectorAll('#chat-log li:not(.empty)').length >= 1")
    assert chat_lines(b) == [f"{NAME_A}: hello {XSS}"]
    assert b.locator("#chat-log img").count() == 0
    b.fill("#chat-input", "よろしく!")
    b.click("#chat-send")
    b.click("#chat-phrases button[data-phrase='hello']")
    a.wait_for_function("() => document.querySelectorAll('#chat-log li:not(.empty)').length >= 3")
    assert chat_lines(a)[1:] == [f"{NAME_B}: よろしく!", f"{NAME_B}: Hi, good luck!"]
    b.wait_for_function("() => document.querySelectorAll('#chat-log li:not(.empty)').length >= 3")
    assert chat_lines(b)[2] == f"{NAME_B}: よろしくお願いします"

    # the server restarts mid-match: both pages reconnect by themselves, and the names,
    # the chat and the seated bots are all still there
    server.stop()
    server.start()
    for page in (a, b):
        page.wait_for_function("() => document.getElementById('conn').textContent === ''")
    # (the browser logs each refused reconnection while the server was down: expected)
    errors[:] = [e for e in errors if "ERR_CONNECTION_REFUSED" not in e]
    b.wait_for_function("() => document.querySelectorAll('#chat-log li:not(.empty)').length >= 3")
    assert chat_lines(b)[0] == f"{NAME_A}: hello {XSS}"
    assert seat_names(a)[0] == f"{NAME_A} (you)" and seat_names(a)[2] == NAME_B

    # the whole hand, by clicking in both browsers
    rng = random.Random(7)
    deadline = time.monotonic() + 240
    while not httpx.get(server.base + f"/api/tables/{table['id']}", timeout=10).json()["finished"]:
        assert time.monotonic() < deadline, "the hand did not end"
        if not (click_a_move(a, rng) or click_a_move(b, rng)):
            a.wait_for_timeout(25)
    a.screenshot(path=str(tmp_path / "people-desktop-end.png"))
    b.screenshot(path=str(tmp_path / "people-phone-end.png"))

    # the match was rated: each sees the ratings, the leaderboard and a player page
    a.wait_for_selector("#scores td.rating a")
    ratings = a.locator("#scores td.rating").all_inner_texts()
    assert len(ratings) == 4 and all(r.split(" ")[0].isdigit() for r in ratings), ratings
    board = b.context.new_page()
    board.goto(f"{server.base}/players#g=fairy500")
    board.wait_for_selector("#board tr[data-player]")
    rows = board.locator("#board tr[data-player]").all_inner_texts()
    assert any(NAME_A in r for r in rows) and any(NAME_B in r for r in rows), rows
    assert any("ボット" in r or "bot" in r for r in rows), rows
    assert board.locator("#board b").count() == 0  # the name is text, not markup
    board.locator("#board a", has_text=NAME_A).click()
    board.wait_for_selector("#player-matches li[data-table]")
    assert board.get_attribute("#player-matches li", "data-table") == table["id"]
    assert NAME_B in board.inner_text("#player-matches")
    board.close()

    # a rematch: A asks, B sees who is waiting, B agrees; both move to the new table
    a.wait_for_selector("#rematch-btn:not([disabled])")
    a.click("#rematch-btn")
    b.wait_for_function(
        "() => document.getElementById('rematch-note').textContent.includes('同意待ち')"
    )
    assert "花子" in b.inner_text("#rematch-note")
    for page in (a, b):  # a mark that the page's reload (new table: new hash) clears
        page.evaluate("() => { window.beforeRematch = true; }")
    b.click("#rematch-btn")
    for page in (a, b):
        # the reloaded page, showing the new table (the old page can show its hash
        # and status for a moment before the reload)
        page.wait_for_function(
            "(old) => !window.beforeRematch && !location.hash.includes('t=' + old) && "
            "document.getElementById('status').dataset.n !== undefined",
            arg=table["id"],
            timeout=20000,
        )
    new_id = a.evaluate("() => new URLSearchParams(location.hash.slice(1)).get('t')")
    assert new_id != table["id"]
    assert b.evaluate("() => new URLSearchParams(location.hash.slice(1)).get('t')") == new_id
    assert b.evaluate("() => new URLSearchParams(location.hash.slice(1)).get('seat')") == "2"
    info = httpx.get(server.base + f"/api/tables/{new_id}", timeout=10).json()
    assert [s["name"] for s in info["seats"]] == [NAME_A, None, NAME_B, None]
    assert [s["bot"] for s in info["seats"]] == [None, "normal", None, "normal"]
    a.wait_for_function(
        "(n) => [...document.querySelectorAll('#seats .seat-box strong')]"
        ".some((e) => e.textContent === n)",
        arg=NAME_B,
    )
    assert seat_names(a)[0] == f"{NAME_A} (you)"
    assert chat_lines(a) == []  # a new table, a new chat
    assert not errors, errors


def test_a_name_saved_while_the_lobby_loads_is_kept(server: Server, browser: Any) -> None:
    """The lobby's game list comes from the server after the page has loaded.  A name
    typed and saved before it arrives is saved in place (no native form submission
    reloading the page), and its note survives the lobby's first translation and a
    language switch (shown in the new language)."""
    errors: list[str] = []
    page = page_for(browser, "en", False, errors)
    held: list[Any] = []
    page.route("**/api/games", lambda route: held.append(route))
    page.goto(server.base + "/")
    assert held, "the lobby asks for its games on load"
    page.click("#lang")  # switching the language while the games load: no error
    page.click("#lang")
    page.fill("#my-name", " Grace ")
    page.click("#save-name")
    assert page.inner_text("#name-note") == "Saved."
    page.click("#create-btn")  # nothing to create yet: no native submission either
    assert page.evaluate("() => location.search") == ""
    held[0].continue_()
    page.wait_for_selector("#game option", state="attached")
    assert page.inner_text("#name-note") == "Saved."
    assert page.input_value("#my-name") == "Grace"
    assert page.evaluate("() => location.search") == ""  # no native GET submission
    page.click("#lang")
    assert page.inner_text("#name-note") == "保存しました。"
    page.unroute("**/api/games")
    page.reload()
    page.wait_for_selector("#game option", state="attached")
    assert page.input_value("#my-name") == "Grace"
    assert not errors, errors
