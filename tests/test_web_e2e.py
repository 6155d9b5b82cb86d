"""End-to-end web play in real headless Chromium (Debian ``chromium`` + Playwright).

Two browser contexts (a desktop and a phone-sized one) join one sono-arcana table with
two bots and click through a whole match; then a server is stopped mid-match and
restarted on the same database, and the browser gets its seat back and finishes.

The server runs as a real ``xtarot serve`` process on 127.0.0.1.  Chromium is the
system one (``/usr/bin/chromium``, or ``XTAROT_CHROMIUM``); ``playwright install``
is never needed.
"""

from __future__ import annotations

import os
import random
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import xtarot
from browser_support import CHROMIUM, have_chromium

ROOT = Path(__file__).resolve().parents[1]

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright is not installed (pip install playwright)"
)
httpx = pytest.importorskip("httpx", reason="httpx is not installed")
if not have_chromium():
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """An ``xtarot serve`` process on loopback."""

    def __init__(self, db: str, port: int, *args: str) -> None:
        self.db, self.port, self.args = db, port, args
        self.base = f"http://127.0.0.1:{port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Server:
        # the xtarot these tests imported: the source tree, or an installed wheel
        env = {**os.environ, "PYTHONPATH": str(Path(xtarot.__file__).resolve().parents[1])}
        cmd = [sys.executable, "-m", "xtarot.cli.main", "serve", "--port", str(self.port)]
        cmd += ["--db", self.db, "--bot-delay", "0", *self.args]
        self.proc = subprocess.Popen(
            cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.base + "/api/games", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None:
                raise RuntimeError("xtarot serve exited at start")
            time.sleep(0.1)
        raise RuntimeError("xtarot serve did not start in 30 s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.proc = None


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the module's tests (each makes its own tables and browser
    contexts): starting ``xtarot serve`` costs seconds of CPU."""
    db = tmp_path_factory.mktemp("web-e2e") / "tables.db"
    srv = Server(f"sqlite:///{db}", free_port()).start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Server]:
    """A server of the test's own, which it may stop and start again."""
    srv = Server(f"sqlite:///{tmp_path / 'tables.db'}", free_port()).start()
    try:
        yield srv
    finally:
        srv.stop()


def create(server: Server, seats: list[str], seed: int) -> dict[str, Any]:
    body = {"game": "sono-arcana", "players": 4, "seats": seats, "seed": seed}
    res = httpx.post(server.base + "/api/tables", json=body, timeout=10)
    assert res.status_code == 201, res.text
    return res.json()


STATUS_JS = """() => {
  const s = document.getElementById('status');
  return {finished: s.dataset.finished === '1', turn: s.dataset.turn === '1',
          n: Number(s.dataset.n || -1), pending: document.body.classList.contains('pending')};
}"""


def status(page: Any) -> dict[str, Any]:
    return page.evaluate(STATUS_JS)


def click_a_move(page: Any, rng: random.Random) -> bool:
    """On this seat's turn, click a legal move the way a player does; True if clicked."""
    st = status(page)
    if st["finished"] or not st["turn"] or st["pending"]:
        return False
    try:
        buttons = page.locator("#choices button[data-action]")
        if buttons.count():
            buttons.nth(rng.randrange(buttons.count())).click(timeout=3000)
            return True
        cards = page.locator("#hand button.card.legal")
        if cards.count():
            cards.nth(rng.randrange(cards.count())).click(timeout=3000)
            return True
    except sync_api.Error:
        return False  # the table moved on while we clicked: look again
    return False


def play_until(pages: list[Any], done: Any, seconds: float, seed: int = 1) -> None:
    rng = random.Random(seed)
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "the match did not progress in time"
        if not any(click_a_move(p, rng) for p in pages):
            time.sleep(0.03)


def test_two_browsers_play_a_whole_match(server: Server, browser: Any, tmp_path: Path) -> None:
    table = create(server, ["human", "human", "heuristic", "random"], seed=2024)
    links = {s["seat"]: s["link"] for s in table["seats"] if "link" in s}
    assert sorted(links) == [0, 1]
    desk = browser.new_context(viewport={"width": 1100, "height": 900})
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True
    )
    errors: list[str] = []
    pages = []
    for ctx, seat in ((desk, 0), (phone, 1)):
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(links[seat])
        page.wait_for_selector("#hand button.card", timeout=10000)
        pages.append(page)
    # the phone layout fits the screen (no sideways scrolling)
    width = pages[1].evaluate("() => document.documentElement.scrollWidth")
    assert width <= 392
    # a spectator sees the table but no hand (its own context: a second tab in the same
    # context would make the first a throttled background tab)
    spectator = browser.new_context(viewport={"width": 800, "height": 700})
    watcher = spectator.new_page()
    watcher.goto(table["spectator"])
    watcher.wait_for_selector("#board .sa-lot", timeout=10000)
    assert watcher.locator("#hand button.card").count() == 0

    # language switch: Japanese labels on the table
    pages[0].click("#lang")
    pages[0].wait_for_function("() => document.documentElement.lang === 'ja'")
    assert "手札" in pages[0].inner_text("#hand-box")

    # a hint from the bots on seat 0's first turn
    play_until(pages[1:], lambda: status(pages[0])["turn"], 30)
    pages[0].click("#hint")
    pages[0].wait_for_function(
        "() => !document.getElementById('hint-text').textContent.includes('考え中')"
        " && document.getElementById('hint-text').textContent.length > 3",
        timeout=15000,
    )
    pages[0].screenshot(path=str(tmp_path / "sono-arcana-ja.png"), full_page=True)

    play_until(pages, lambda: all(status(p)["finished"] for p in pages), 60)

    # the final scores shown equal the server's, and the record downloads and replays
    info = httpx.get(server.base + f"/api/tables/{table['id']}").json()
    assert info["finished"] is True
    res = httpx.get(server.base + f"/api/tables/{table['id']}/record")
    assert res.status_code == 200
    assert "attachment" in res.headers["content-disposition"]
    state = xtarot.replay(res.json())
    assert state.is_terminal
    totals = state.scores().totals
    rows = pages[0].locator("#scores table.scores tr").all_inner_texts()[1:]
    shown = [float(r.split("\t")[1]) for r in rows]
    assert shown == [float(t) for t in totals]
    assert pages[1].locator("#download").get_attribute("href").endswith("/record")
    watcher.wait_for_function("() => document.getElementById('status').dataset.finished === '1'")
    shot = os.environ.get("XTAROT_SCREENSHOT")
    if shot:
        pages[0].screenshot(path=shot, full_page=True)
    assert not errors, errors
    for ctx in (desk, phone, spectator):
        ctx.close()


@pytest.mark.slow  # on demand: tests/test_server_faults.py kills and restarts the server on
# SQLite and PostgreSQL in every run, and tests/test_cluster_browser.py has a browser
# reconnect by itself to a live server with the same position and hand
def test_restart_resumes_the_table_and_the_seat(
    own_server: Server, browser: Any, tmp_path: Path
) -> None:
    server = own_server
    table = create(server, ["human", "random", "heuristic", "random"], seed=77)
    ctx = browser.new_context(viewport={"width": 900, "height": 800})
    page = ctx.new_page()
    page.goto(table["seats"][0]["link"])
    page.wait_for_selector("#hand button.card", timeout=10000)

    def my_turn_after_12() -> bool:
        st = status(page)  # and no move of ours still on its way
        return st["n"] >= 12 and st["turn"] and not st["pending"]

    play_until([page], my_turn_after_12, 30)
    before_n = status(page)["n"]
    before_hand = page.locator("#hand button.card").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )

    server.stop()
    page.wait_for_function(
        "() => document.getElementById('conn').textContent.length > 0", timeout=10000
    )
    server.start()  # same database, same port
    info = httpx.get(server.base + f"/api/tables/{table['id']}").json()
    assert info["n"] == before_n
    # the browser reconnects by itself and gets its seat (and hand) back
    page.wait_for_function(
        "() => document.getElementById('conn').textContent === ''", timeout=20000
    )
    page.wait_for_function(
        f"() => Number(document.getElementById('status').dataset.n) === {before_n}"
    )
    after_hand = page.locator("#hand button.card").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    assert after_hand == before_hand
    assert status(page)["turn"]

    play_until([page], lambda: status(page)["finished"], 60)
    record = httpx.get(server.base + f"/api/tables/{table['id']}/record").json()
    assert xtarot.replay(record).is_terminal
    ctx.close()


def test_lobby_creates_a_table_and_joins_it(server: Server, browser: Any) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + "/")
    page.wait_for_selector("#game option[value='sono-arcana']", state="attached")
    page.select_option("#game", "sono-arcana")
    page.select_option("#players", "3")
    assert page.locator("#seats select").count() == 3
    page.select_option("#seats select[data-seat='1']", "human")
    page.select_option("#seats select[data-seat='2']", "random")
    page.click("#create-btn")
    page.wait_for_selector("#links a.join")
    assert page.locator("#links a.join").count() == 2
    table_id = page.get_attribute("#created", "data-table")
    info = httpx.get(server.base + f"/api/tables/{table_id}").json()
    assert [s["kind"] for s in info["seats"]] == ["human", "human", "bot"]
    page.click("#links a.join[data-seat='1']")
    page.wait_for_selector("#hand button.card", timeout=10000)
    assert page.locator("#seats .seat-box.me").inner_text().startswith("Seat 2")
    # a bad request shows the engine's message in the lobby
    page.goto(server.base + "/")
    page.wait_for_selector("#game option[value='sono-arcana']", state="attached")
    page.select_option("#game", "sono-arcana")
    page.select_option("#players", "3")
    assert page.locator("[data-opt='teams']").count() == 0  # teams: 4 players only
    page.select_option("#game", "grail-mahjong")
    page.fill("[data-opt='hands']", "0")
    page.click("#create-btn")
    page.wait_for_selector("#create-error:not([hidden])")
    assert "option hands=0 must be 1 or more" in page.inner_text("#create-error")
    assert not errors, errors
    ctx.close()


def test_lobby_offers_the_difficulty_levels_first_in_both_languages(
    server: Server, browser: Any
) -> None:
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + "/")
    page.wait_for_selector("#game option[value='sono-arcana']", state="attached")
    page.select_option("#game", "sono-arcana")
    page.select_option("#players", "3")
    seat = "#seats select[data-seat='1']"
    groups = page.locator(f"{seat} optgroup")
    assert groups.count() == 2
    levels = groups.nth(0).locator("option")
    assert [levels.nth(i).get_attribute("value") for i in range(3)] == ["easy", "normal", "hard"]
    assert "Easy" in levels.nth(0).inner_text()
    page.select_option(seat, "hard")
    page.click("#lang")
    page.wait_for_function("() => document.documentElement.lang === 'ja'")
    page.wait_for_selector(f"{seat} option[value='easy']", state="attached")
    labels = page.locator(f"{seat} optgroup").nth(0).locator("option")
    assert "やさしい" in labels.nth(0).inner_text()
    assert "むずかしい" in labels.nth(2).inner_text()
    assert page.locator(f"{seat} optgroup").nth(0).get_attribute("label") == "ボットの強さ"
    assert errors == []
