"""Web play: ``xtarot serve`` — tables with friends and bots in the browser.

Part of the default install (FastAPI, uvicorn, SQLAlchemy, platformdirs; a PostgreSQL
driver with ``pip install 'xtarot[postgres]'``).  :func:`create_app` builds the FastAPI
application; :func:`serve` runs it with uvicorn.  Tables live in a SQL database as their
action logs (a SQLite file in the user's data directory unless ``--db`` names another
SQLAlchemy URL), so a restarted server resumes every table.  See ``docs/web.md`` and
``docs/deploy.md``.
"""

from __future__ import annotations

import os
import socket
import sys
import threading
import time
import webbrowser
from typing import Any

__all__ = ["DatabaseInUse", "create_app", "describe_db", "hold_sqlite", "serve"]


def create_app(db: str | None = None, **settings: Any) -> Any:
    """The FastAPI app (see :func:`xtarot.server.app.create_app`)."""
    from xtarot.server.app import create_app as _create

    return _create(db, **settings)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    *,
    bot_delay: float = 0.6,
    log_level: str = "info",
    limits: Any = None,
    root_path: str = "",
    open_browser: bool = False,
    bot_processes: int | None = None,
) -> None:
    """Run the web server until interrupted.  It first prints its version, the address
    to open and where the tables are stored; ``open_browser`` opens the lobby in the
    default browser once the server answers.  ``root_path`` is the path prefix a
    reverse proxy serves it under (``/cards``), for the links it hands out.
    ``bot_processes``: worker processes for the searching bots (``None``: one per CPU
    but one, at least one and at most 8; 0: threads of the server's process)."""
    import uvicorn

    import xtarot
    from xtarot.server.app import create_app as _create
    from xtarot.server.store import Store, default_url

    _lock = hold_sqlite(db or default_url())  # held until the server stops
    store = Store(db)
    if bot_processes is None:
        bot_processes = max(1, min(8, (os.cpu_count() or 2) - 1))
    app = _create(store=store, bot_delay=bot_delay, limits=limits, bot_processes=bot_processes)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    if ":" in shown:
        shown = f"[{shown}]"
    url = f"http://{shown}:{port}{root_path.rstrip('/')}/"
    print(f"xtarot {xtarot.__version__}: open {url} in a browser (Ctrl-C stops)", flush=True)
    print(f"xtarot: tables are stored in {describe_db(store.url)}", flush=True)
    where = f"{bot_processes} worker processes" if bot_processes else "threads of this process"
    print(f"xtarot: searching bots (hard, expert...) think in {where}", flush=True)
    if open_browser:
        threading.Thread(target=_open_when_up, args=(host, port, url), daemon=True).start()
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=65536,
        root_path=root_path.rstrip("/"),
    )


class DatabaseInUse(RuntimeError):
    """Another server process already serves this SQLite database."""


def hold_sqlite(url: str) -> object | None:
    """For a SQLite file: an exclusive lock on ``FILE.lock`` for this process's life, so
    that a second ``xtarot serve`` on the same file stops at once with a clear error
    (SQLite serves one process: two would each think they own the same tables).
    ``None`` for other databases, an in-memory one, or where locks are unsupported."""
    if not url.startswith("sqlite:///") or url in ("sqlite:///", "sqlite:///:memory:"):
        return None
    try:
        import fcntl
    except ImportError:  # Windows: no advisory locks here
        return None
    path = url.removeprefix("sqlite:///")
    handle = open(path + ".lock", "a")  # noqa: SIM115  (kept open: it is the lock)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise DatabaseInUse(
            f"another xtarot serve already uses {path}: a SQLite database serves one "
            "process. To run several processes, give them one PostgreSQL database: "
            "--db postgresql+psycopg://USER@HOST/DATABASE (see docs/deploy.md)"
        ) from None
    return handle


def describe_db(url: str) -> str:
    """Where the tables live, for people: a SQLite file's path, another database's URL
    without its password.

    >>> describe_db("sqlite:////home/me/.local/share/xtarot/tables.db")
    '/home/me/.local/share/xtarot/tables.db (SQLite)'
    >>> describe_db("postgresql+psycopg://cards:secret@db.example/xtarot")
    'postgresql+psycopg://cards:***@db.example/xtarot'
    """
    if url.startswith("sqlite:///"):
        return f"{url.removeprefix('sqlite:///')} (SQLite)"
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def _open_when_up(host: str, port: int, url: str, wait: float = 30.0) -> None:
    """Open ``url`` in the default browser once the server accepts connections."""
    target = "127.0.0.1" if host in ("0.0.0.0", "") else ("::1" if host == "::" else host)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((target, port), timeout=1):
                break
        except OSError:
            time.sleep(0.1)
    else:
        return  # the server never came up: it has said why
    # Without a screen, Python would start a text browser (lynx, w3m) in this very
    # terminal, over the server's output: only a browser the user named ($BROWSER) then.
    screenless = sys.platform.startswith("linux") and not any(
        os.environ.get(v) for v in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER")
    )
    if screenless or not webbrowser.open(url):
        print(f"xtarot: no browser could be opened here; open {url} yourself", flush=True)
