"""The database schema's history, as Alembic migrations, and how a server applies them.

Every server process calls :func:`upgrade` when it opens its database: the schema is
brought to the newest revision inside one transaction that first takes a lock (a
PostgreSQL advisory lock; SQLite locks the whole file), so processes started at the
same moment on an empty database do not race: the first creates the schema, the others
wait and then find it done.  A database made before migrations existed (by
``create_all``) is upgraded the same way: each migration creates only what is missing.

To change the schema: change ``xtarot.server.store``'s tables, then add a revision here
(``alembic revision`` with ``script_location`` set to this folder, or by hand after the
existing ones), and ``tests/test_migrations.py`` checks that the migrated schema is the
tables the code declares.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError

__all__ = ["HEAD", "current", "upgrade"]

#: The newest revision.
HEAD = "0003"
#: The PostgreSQL advisory lock held while migrating (any fixed number).
LOCK_ID = 7_240_501


def config(connection: object | None = None) -> object:
    """An Alembic configuration for this folder (``connection``: the one to use)."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def upgrade(engine: Engine) -> None:
    """Bring the database's schema to :data:`HEAD` (concurrent callers wait).  A
    database at :data:`HEAD` already is left alone without loading Alembic (every
    server process, and every worker of ``--workers``, calls this at start)."""
    if current(engine) == HEAD:
        return
    from alembic import command

    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:id)"), {"id": LOCK_ID})
        command.upgrade(config(conn), "head")  # type: ignore[arg-type]


def current(engine: Engine) -> str | None:
    """The database's revision (``None``: none yet, or not readable)."""
    try:
        with engine.connect() as conn:
            return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
    except SQLAlchemyError:
        return None
