"""What a person who installs xtarot and runs ``xtarot serve`` gets: the version, the
address to open, where the tables live, ``--open``, pages that work behind a path prefix
(``--root-path``), the version in the pages and in records, and ``xtarot check``
noticing a game layout missing from the installation."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner
from websockets.sync import client as ws_client

with warnings.catch_warnings():  # starlette's notice about httpx versions
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

import xtarot
from xtarot.cli import checks
from xtarot.cli.main import app as cli
from xtarot.server import app as server_app
from xtarot.server import create_app

#: CI runs this module again against the built wheel (conftest.py, `.ci/run`).
pytestmark = pytest.mark.installed

ENV = {**os.environ, "PYTHONPATH": str(Path(xtarot.__file__).resolve().parents[1])}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'tables.db'}", bot_delay=0)) as c:
        yield c


class Serve:
    """An ``xtarot serve`` process; ``lines`` is what it printed on stdout."""

    def __init__(self, *args: str, env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        cmd = [sys.executable, "-m", "xtarot.cli.main", "serve", "--port", str(self.port)]
        self.proc = subprocess.Popen(
            [*cmd, *args],
            env=env or ENV,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        self.base = f"http://127.0.0.1:{self.port}"
        self.lines: list[str] = []

    def wait_up(self) -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, "xtarot serve exited"
            try:
                httpx.get(self.base + "/api/games", timeout=1)
                return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise AssertionError("xtarot serve did not start in 30 s")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            out, _ = self.proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            out, _ = self.proc.communicate()
        self.lines = out.splitlines()


def test_serve_says_its_version_where_to_go_and_where_tables_live(tmp_path: Path) -> None:
    db = tmp_path / "my tables.db"
    opened = tmp_path / "opened.txt"
    browser = tmp_path / "fake-browser"
    browser.write_text(f'#!/bin/sh\necho "$1" > "{opened}"\n')
    browser.chmod(0o755)
    srv = Serve("--db", f"sqlite:///{db}", "--open", env={**ENV, "BROWSER": str(browser)})
    try:
        srv.wait_up()
        deadline = time.monotonic() + 15
        while not opened.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        srv.stop()
    url = f"http://localhost:{srv.port}/"
    assert srv.lines[0] == f"xtarot {xtarot.__version__}: open {url} in a browser (Ctrl-C stops)"
    assert srv.lines[1] == f"xtarot: tables are stored in {db} (SQLite)"
    assert opened.read_text().strip() == url  # --open: the lobby in the default browser


def _extensions(base: str) -> str | None:
    """The websocket extensions the server agreed to for a client that offers
    permessage-deflate (as browsers do), on a spectator's connection to a new table."""
    body = {"game": "matto", "players": 3, "seats": ["human", "human", "random"], "seed": 1}
    table = httpx.post(base + "/api/tables", json=body, timeout=10).json()
    url = base.replace("http", "ws") + f"/ws/{table['id']}"
    with ws_client.connect(url, open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello"}))
        assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
        assert ws.response is not None
        return ws.response.headers.get("Sec-WebSocket-Extensions")


def test_serve_runs_on_uvloop_and_compresses_only_when_asked(tmp_path: Path) -> None:
    """The installed server runs its event loop and HTTP parsing in C (uvloop and
    httptools, dependencies that uvicorn picks up by itself: seen in the libraries the
    process has loaded), and sends websocket messages uncompressed unless started with
    --ws-compression (docs/deploy.md: a fifth of a move's CPU time)."""
    for flags, compressed in (((), False), (("--ws-compression",), True)):
        srv = Serve("--db", f"sqlite:///{tmp_path / 'tables.db'}", *flags)
        try:
            srv.wait_up()
            agreed = _extensions(srv.base)
            if os.name == "posix" and Path(f"/proc/{srv.proc.pid}/maps").exists():
                maps = Path(f"/proc/{srv.proc.pid}/maps").read_text().splitlines()
                libraries = [line.split()[-1] for line in maps if ".so" in line]
                for wanted in ("/uvloop/", "/httptools/parser/", "/orjson/"):
                    assert any(wanted in path for path in libraries), (wanted, libraries)
        finally:
            srv.stop()
        assert (agreed is not None and "permessage-deflate" in agreed) is compressed, agreed


def test_serve_refuses_a_root_path_that_is_not_a_path() -> None:
    res = CliRunner().invoke(cli, ["serve", "--root-path", "cards"])
    assert res.exit_code == 2
    assert "--root-path must be a path such as /cards" in res.output


def test_every_address_in_the_pages_is_relative_and_served(client: TestClient) -> None:
    for page in ("/", "/table", "/replay"):
        text = client.get(page).text
        assert f"xtarot {xtarot.__version__}</footer>" in text  # the version in the footer
        refs = [r for r in re.findall(r'(?:src|href)="([^"]*)"', text) if r not in ("#",)]
        assert len(refs) >= 3
        for ref in refs:
            if ref.startswith("data:"):
                continue
            # absolute addresses would break behind a reverse proxy's path prefix
            assert not ref.startswith("/"), f"{page}: {ref}"
            res = client.get("/" + ref.removeprefix("./"))
            assert res.status_code == 200, f"{page}: {ref} -> {res.status_code}"
            if ref.endswith(".js"):
                assert "javascript" in res.headers["content-type"], ref
    # the scripts build no absolute address of this server either
    absolute = re.compile(r"""[`"'](/api/|/static/|/ws/|/table\b|/replay\b|/layouts/)""")
    scripts = [
        *server_app.STATIC.iterdir(),
        *server_app.STATIC.joinpath("games").iterdir(),
    ]
    checked = [js for js in scripts if js.name.endswith(".js")]
    assert len(checked) >= 14
    for js in checked:
        assert not absolute.search(js.read_text("utf-8")), js.name


def test_behind_a_reverse_proxy_under_a_path(tmp_path: Path) -> None:
    """``--root-path /cards``: a proxy serves xtarot at ``https://host/cards/`` and
    strips the prefix; the pages load, the links handed out name the prefix, the
    websocket answers.  (The browser test in test_web_tables.py plays through a real
    prefix-stripping proxy.)"""
    db = tmp_path / "t.db"  # from the environment, as a service manager would pass it
    srv = Serve("--root-path", "/cards/", env={**ENV, "XTAROT_DB": f"sqlite:///{db}"})
    try:
        srv.wait_up()
        assert "static/style.css" in httpx.get(srv.base + "/").text
        assert httpx.get(srv.base + "/static/games/matto.js").status_code == 200
        body = {"game": "matto", "players": 3, "seats": ["human", "random", "random"]}
        res = httpx.post(srv.base + "/api/tables", json=body, timeout=10)
        assert res.status_code == 201, res.text
        table = res.json()
        assert table["seats"][0]["link"].startswith(f"{srv.base}/cards/table#t={table['id']}")
        assert table["spectator"] == f"{srv.base}/cards/table#t={table['id']}"
    finally:
        srv.stop()
    assert srv.lines[0].startswith(f"xtarot {xtarot.__version__}: open http://localhost:")
    assert f":{srv.port}/cards/ in a browser" in srv.lines[0]
    assert srv.lines[1] == f"xtarot: tables are stored in {db} (SQLite)"


def test_saved_records_and_downloads_name_the_version(client: TestClient, tmp_path: Path) -> None:
    state = xtarot.load("matto", players=3).new_state(seed=1)
    path = xtarot.save_record(state, tmp_path / "r.json", meta={"client": "test"})
    meta = json.loads(path.read_text("utf-8"))["meta"]
    assert meta == {"xtarot": xtarot.__version__, "client": "test"}
    xtarot.replay(json.loads(path.read_text("utf-8")))  # still a valid record
    body = {"game": "extendori", "players": 3, "seats": ["random"] * 3, "seed": 3}
    body["options"] = {"hands": 1}
    res = client.post("/api/tables", json=body)
    assert res.status_code == 201, res.text
    table = res.json()
    deadline = time.monotonic() + 60
    while (res := client.get(f"/api/tables/{table['id']}/record")).status_code != 200:
        assert time.monotonic() < deadline, "the bots' match did not end"
        time.sleep(0.05)
    assert res.json()["meta"]["xtarot"] == xtarot.__version__


def test_check_fails_when_a_built_in_layout_is_missing_from_the_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert checks._layout("matto").ok
    # an installation whose wheel left the game layouts out (as 0.1.0's did)
    static = tmp_path / "static"
    static.mkdir()
    (static / "table.html").write_text(server_app.STATIC.joinpath("table.html").read_text("utf-8"))
    monkeypatch.setattr(server_app, "STATIC", static)
    server_app.builtin_layouts.cache_clear()
    try:
        finding = checks._layout("matto")
    finally:
        server_app.builtin_layouts.cache_clear()
    assert not finding.ok
    assert "static/games/matto.js, static/games/matto.css missing" in finding.text_en
    assert "インストールにありません" in finding.text_ja
