"""Web play: ``xtarot serve`` — tables with friends and bots in the browser.

Part of the default install (FastAPI, uvicorn, SQLAlchemy, platformdirs; a PostgreSQL
driver with ``pip install 'xtarot[postgres]'``).  :func:`create_app` builds the FastAPI
application; :func:`serve` runs it with uvicorn.  Tables live in a SQL database as their
action logs (a SQLite file in the user's data directory unless ``--db`` names another
SQLAlchemy URL), so a restarted server resumes every table.  See ``docs/web.md`` and
``docs/deploy.md``.
"""

from __future__ import annotations

import dataclasses
import json
import os
import socket
import sys
import threading
import time
import webbrowser
from typing import Any

__all__ = [
    "DatabaseInUse",
    "ServeError",
    "WorkersNeedPostgres",
    "create_app",
    "describe_db",
    "hold_sqlite",
    "serve",
    "worker_app",
]

#: The environment variable through which ``serve(workers=N)`` hands its settings to
#: the worker processes uvicorn starts (each builds its app with :func:`worker_app`).
WORKER_SETTINGS = "XTAROT_SERVE_SETTINGS"


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
    workers: int = 1,
    lease_seconds: float | None = None,
    ws_compression: bool = False,
) -> None:
    """Run the web server until interrupted.  It first prints its version, the address
    to open and where the tables are stored; ``open_browser`` opens the lobby in the
    default browser once the server answers.  ``root_path`` is the path prefix a
    reverse proxy serves it under (``/cards``), for the links it hands out.
    ``bot_processes``: worker processes for the searching bots (``None``: one per CPU
    but one, at least one and at most 8, shared out among the server processes; 0:
    threads of the server's process).  ``workers``: server processes sharing the port
    and the database (uvicorn's supervisor starts them and starts a new one when one
    dies); more than one needs PostgreSQL (:class:`WorkersNeedPostgres`).
    ``lease_seconds``: how long a table's owner may be silent before another process
    takes the table over (PostgreSQL; :mod:`xtarot.server.lease`).  ``ws_compression``:
    let websocket clients ask for compressed messages (permessage-deflate), a fifth
    less CPU per move without (docs/deploy.md)."""
    import uvicorn

    import xtarot
    from xtarot.server.lease import LEASE_SECONDS
    from xtarot.server.store import Store, default_url

    url_db = db or default_url()
    if workers > 1 and not url_db.startswith("postgresql"):
        raise WorkersNeedPostgres(
            f"--workers {workers} needs a PostgreSQL database: the server processes share "
            "their tables through it, and SQLite serves one process. Give one with --db "
            "postgresql+psycopg://USER@HOST/DATABASE (see docs/deploy.md)"
        )
    _lock = hold_sqlite(url_db)  # held until the server stops
    store = Store(db)  # the schema is migrated here, once, before any worker starts
    if bot_processes is None:
        bot_processes = max(1, min(8, (os.cpu_count() or 2) - 1) // max(1, workers))
    settings: dict[str, Any] = {
        "bot_delay": bot_delay,
        "bot_processes": bot_processes,
        "lease_seconds": lease_seconds or LEASE_SECONDS,
        "address": f"{host}:{port}",
    }
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    if ":" in shown:
        shown = f"[{shown}]"
    url = f"http://{shown}:{port}{root_path.rstrip('/')}/"
    print(f"xtarot {xtarot.__version__}: open {url} in a browser (Ctrl-C stops)", flush=True)
    print(f"xtarot: tables are stored in {describe_db(store.url)}", flush=True)
    where = f"{bot_processes} worker processes" if bot_processes else "threads of this process"
    if workers > 1:
        where += " per server process"
        print(f"xtarot: {workers} server processes share port {port} and the database", flush=True)
    print(f"xtarot: searching bots (hard, expert...) think in {where}", flush=True)
    if open_browser:
        threading.Thread(target=_open_when_up, args=(host, port, url), daemon=True).start()
    common: dict[str, Any] = {
        "host": host,
        "port": port,
        "log_level": log_level,
        "ws_max_size": 65536,
        # permessage-deflate costs about a fifth of a move's CPU time at a busy table for
        # messages of 1-4 kB; off unless asked for, as in Node's ws and Socket.IO
        "ws_per_message_deflate": ws_compression,
        "root_path": root_path.rstrip("/"),
    }
    if workers > 1:
        store.close()
        os.environ[WORKER_SETTINGS] = json.dumps(
            {**settings, "db": store.url, "limits": _limits_dict(limits)}
        )
        uvicorn.run("xtarot.server:worker_app", factory=True, workers=workers, **common)
        return
    from xtarot.server.app import create_app as _create

    app = _create(store=store, limits=limits, **settings)
    uvicorn.run(app, **common)


def worker_app() -> Any:
    """The app of one of the server processes ``serve(workers=N)`` starts (its settings
    come in the environment)."""
    from xtarot.server.app import create_app as _create
    from xtarot.server.hub import Limits

    settings = json.loads(os.environ[WORKER_SETTINGS])
    limits = settings.pop("limits")
    if limits is not None:  # JSON made its tuples lists
        limits["option_caps"] = tuple(tuple(cap) for cap in limits["option_caps"])
        limits["allow_origins"] = tuple(limits["allow_origins"])
        limits = Limits(**limits)
    return _create(settings.pop("db"), limits=limits, **settings)


def _limits_dict(limits: Any) -> dict[str, Any] | None:
    return None if limits is None else dataclasses.asdict(limits)


class ServeError(RuntimeError):
    """The server cannot start as asked (the message says why and what to do)."""


class WorkersNeedPostgres(ServeError):
    """Several server processes were asked for on a database other than PostgreSQL."""


class DatabaseInUse(ServeError):
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
