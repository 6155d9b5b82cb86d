"""The people at a table, in real headless Chromium: two players (a desktop in English and
a phone in Japanese) name themselves (in the lobby and at the table), chat both ways with
free text and a quick phrase each sees in their own language, play a whole hand by
clicking, and agree to a rematch, which seats them at a new table under the same names.
Names and chat holding HTML are shown as text.  Skipped without Chromium or Playwright."""

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
    body = {
        "game": "fairy500",
        "players": 4,
        "seats": ["human", "random", "human", "random"],
        "options": {"hands": 1},
        "seed": 3,
    }
    table = httpx.post(server.base + "/api/tables", json=body, timeout=10).json()
    errors: list[str] = []
    a = page_for(browser, "en", False, errors)
    b = page_for(browser, "ja", True, errors)

    # A names herself in the lobby once; the browser remembers it
    a.goto(server.base + "/")
    a.fill("#my-name", f"  {NAME_A} ")
    a.click("#save-name")
    assert a.inner_text("#name-note") == "Saved."
    assert a.input_value("#my-name") == NAME_A
    a.goto(table["seats"][0]["link"])
    a.wait_for_selector("#status[data-n]")
    # B opens the link first and names herself at the table
    b.goto(table["seats"][2]["link"])
    b.wait_for_selector("#status[data-n]")
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

    # the whole hand, by clicking in both browsers
    rng = random.Random(7)
    deadline = time.monotonic() + 240
    while not httpx.get(server.base + f"/api/tables/{table['id']}", timeout=10).json()["finished"]:
        assert time.monotonic() < deadline, "the hand did not end"
        if not (click_a_move(a, rng) or click_a_move(b, rng)):
            a.wait_for_timeout(25)
    a.screenshot(path=str(tmp_path / "people-desktop-end.png"))
    b.screenshot(path=str(tmp_path / "people-phone-end.png"))

    # a rematch: A asks, B sees who is waiting, B agrees; both move to the new table
    a.wait_for_selector("#rematch-btn:not([disabled])")
    a.click("#rematch-btn")
    b.wait_for_function(
        "() => document.getElementById('rematch-note').textContent.includes('同意待ち')"
    )
    assert "花子" in b.inner_text("#rematch-note")
    b.click("#rematch-btn")
    for page in (a, b):
        page.wait_for_function(
            "(old) => !location.hash.includes('t=' + old) && "
            "document.getElementById('status').dataset.n === '0' || "
            "(!location.hash.includes('t=' + old) && document.getElementById('status').dataset.n)",
            arg=table["id"],
            timeout=20000,
        )
    new_id = a.evaluate("() => new URLSearchParams(location.hash.slice(1)).get('t')")
    assert new_id != table["id"]
    assert b.evaluate("() => new URLSearchParams(location.hash.slice(1)).get('t')") == new_id
    assert b.evaluate("() => new URLSearchParams(location.hash.slice(1)).get('seat')") == "2"
    info = httpx.get(server.base + f"/api/tables/{new_id}", timeout=10).json()
    assert [s["name"] for s in info["seats"]] == [NAME_A, None, NAME_B, None]
    a.wait_for_function(
        "(n) => [...document.querySelectorAll('#seats .seat-box strong')]"
        ".some((e) => e.textContent === n)",
        arg=NAME_B,
    )
    assert seat_names(a)[0] == f"{NAME_A} (you)"
    assert chat_lines(a) == []  # a new table, a new chat
    assert not errors, errors
