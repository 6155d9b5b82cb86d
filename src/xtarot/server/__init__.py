"""Web play: ``xtarot serve`` — tables with friends and bots in the browser.

Needs the ``web`` extra (``pip install 'xtarot[web]'``: FastAPI, uvicorn, SQLAlchemy,
platformdirs).  :func:`create_app` builds the FastAPI application; :func:`serve` runs
it with uvicorn.  Tables live in a SQL database as their action logs (a SQLite file in
the user's data directory unless ``--db`` names another SQLAlchemy URL), so a restarted
server resumes every table.  See ``docs/web.md``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app", "serve"]


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
) -> None:
    """Run the web server until interrupted."""
    import uvicorn

    from xtarot.server.app import create_app as _create
    from xtarot.server.store import Store

    store = Store(db)
    app = _create(store=store, bot_delay=bot_delay, limits=limits)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    print(f"xtarot: open http://{shown}:{port}/  (tables stored in {store.url})", flush=True)
    uvicorn.run(app, host=host, port=port, log_level=log_level, ws_max_size=65536)
