"""The browser's own reconnection when the server process it plays through dies (issue 36).

Two ``xtarot serve`` processes, ``A`` and ``B``, on one PostgreSQL database behind a
plain TCP load balancer (this test's :class:`Balancer`: each new connection goes to the
first process still alive, as any health-checking balancer does; no sticky sessions).
A player in Chromium plays a few moves through ``A``; ``A`` is killed with SIGKILL; the
page says it is reconnecting, reconnects by itself with its token (through the balancer,
now to ``B``, which takes the table over once ``A``'s lease runs out), shows the same
position and hand, and plays the match to its end.  Nothing the page was told was
applied is lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed")
httpx = pytest.importorskip("httpx", reason="httpx is not installed")
pytest.importorskip("websockets.sync.client", reason="websockets is not installed")
pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")

import xtarot  # noqa: E402
from pg_support import free_port, running_postgres  # noqa: E402
from test_cluster import Server  # noqa: E402
from test_web_e2e import play_until, status  # noqa: E402


class Balancer:
    """A TCP load balancer in a thread: a new connection goes to the first backend that
    accepts it; when a backend dies, its connections are closed on the client side."""

    def __init__(self, backends: list[Server]) -> None:
        self.backends = backends
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    def __enter__(self) -> Balancer:
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self._serve(), self.loop).result(10)
        return self

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self._close(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)

    async def _close(self) -> None:
        self.server.close()
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _serve(self) -> None:
        self.server = await asyncio.start_server(self._client, "127.0.0.1", self.port)

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream = None
        for backend in self.backends:
            if not backend.alive():
                continue
            with contextlib.suppress(OSError):
                upstream = await asyncio.open_connection("127.0.0.1", backend.port)
                break
        if upstream is None:
            writer.close()
            return
        up_reader, up_writer = upstream

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(OSError, asyncio.CancelledError):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            with contextlib.suppress(OSError):
                dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[tuple[Server, Server, Balancer]]:
    with running_postgres() as pg:
        a = Server(pg.url, tmp_path, "A")
        b = Server(pg.url, tmp_path, "B")
        try:
            a.launch()
            a.wait_ready()  # A creates the schema; B finds it
            b.launch()
            b.wait_ready()
            with Balancer([a, b]) as balancer:
                yield a, b, balancer
        finally:
            a.stop()
            b.stop()


def test_the_browser_reconnects_when_its_server_process_is_killed(
    cluster: tuple[Server, Server, Balancer], browser: Any
) -> None:
    a, b, balancer = cluster
    body = {"game": "sono-arcana", "players": 3, "seats": ["human", "random", "random"]}
    res = httpx.post(balancer.base + "/api/tables", json=body | {"seed": 36}, timeout=10)
    assert res.status_code == 201, res.text
    table = res.json()
    link = table["seats"][0]["link"]
    assert link.startswith(balancer.base)  # the join link goes through the balancer

    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    ctx.add_init_script("localStorage.setItem('xtarot.lang', 'en')")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(link)
    page.wait_for_selector("#hand button.card", timeout=15000)

    def my_turn_after(n: int) -> Any:
        def done() -> bool:
            st = status(page)  # and no move of ours still on its way
            return bool(st["n"] >= n and st["turn"] and not st["pending"])

        return done

    play_until([page], my_turn_after(6), 30)
    before = status(page)["n"]
    hand = page.locator("#hand button.card").evaluate_all("els => els.map(e => e.dataset.card)")

    a.kill()  # the process the page plays through: no shutdown of any kind
    page.wait_for_function(
        "() => document.getElementById('conn').textContent.length > 0", timeout=10000
    )
    # back by itself, through the balancer to B, once B has taken the table over
    page.wait_for_function(
        "() => document.getElementById('conn').textContent === ''", timeout=30000
    )
    page.wait_for_function(
        f"() => Number(document.getElementById('status').dataset.n) >= {before}", timeout=10000
    )
    assert status(page)["n"] == before  # the seat to act is this one: nothing moved on
    again = page.locator("#hand button.card").evaluate_all("els => els.map(e => e.dataset.card)")
    assert again == hand

    play_until([page], lambda: status(page)["finished"], 90)
    record = httpx.get(f"{b.base}/api/tables/{table['id']}/record", timeout=10).json()
    state = xtarot.replay(record)
    assert state.is_terminal and len(state.history) >= before
    assert errors == [], errors
    ctx.close()
