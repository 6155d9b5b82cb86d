"""The database schema is made by Alembic migrations: the migrated schema is exactly the
tables the code declares (SQLite and PostgreSQL), a database made before migrations is
upgraded with its data, processes started together on an empty PostgreSQL database do
not race, and a second server on one SQLite file is refused with a clear error."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, insert, select, text

import xtarot
from test_server_faults import postgres  # noqa: F401  (a fixture)
from xtarot.server import DatabaseInUse, hold_sqlite
from xtarot.server.migrations import HEAD
from xtarot.server.store import Store, actions_t, chat_t, metadata, settings_t, tables_t

ENV = {**os.environ, "PYTHONPATH": str(Path(xtarot.__file__).resolve().parents[1])}


def differences(url: str) -> list[object]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return list(compare_metadata(MigrationContext.configure(conn), metadata))
    finally:
        engine.dispose()


def version(url: str) -> str:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return str(conn.execute(text("SELECT version_num FROM alembic_version")).scalar())
    finally:
        engine.dispose()


def test_the_migrated_schema_is_the_declared_one_on_sqlite(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'tables.db'}"
    Store(url).close()
    assert differences(url) == []
    assert version(url) == HEAD
    Store(url).close()  # opening it again changes nothing
    assert version(url) == HEAD


def test_a_database_made_before_migrations_keeps_its_tables(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = create_engine(url)
    metadata.create_all(engine, tables=[tables_t, actions_t, settings_t, chat_t])
    with engine.begin() as conn:  # a table as the older server stored it
        conn.execute(
            insert(tables_t).values(
                id="old",
                game="matto",
                players=3,
                options="{}",
                seed=7,
                deals=json.dumps([]),
                seats=json.dumps([{"kind": "bot", "bot": "random", "token_hash": None}] * 3),
                created=1.0,
                updated=1.0,
                finished=False,
                result=None,
            )
        )
    engine.dispose()
    store = Store(url)
    try:
        with store.engine.connect() as conn:
            assert conn.execute(select(tables_t.c.id)).scalars().all() == ["old"]
    finally:
        store.close()
    assert differences(url) == [] and version(url) == HEAD


def test_processes_started_together_on_an_empty_postgres_database(postgres: str) -> None:  # noqa: F811
    code = "import sys; from xtarot.server.store import Store; Store(sys.argv[1]).close()"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code, postgres], env=ENV, stderr=subprocess.PIPE, text=True
        )
        for _ in range(4)
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    assert differences(postgres) == [] and version(postgres) == HEAD


def test_a_second_server_on_one_sqlite_file_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'tables.db'}"
    assert hold_sqlite("sqlite:///:memory:") is None
    assert hold_sqlite("postgresql+psycopg://xt@localhost/x") is None
    held = hold_sqlite(url)
    assert held is not None
    with pytest.raises(DatabaseInUse, match="give them one PostgreSQL database"):
        hold_sqlite(url)
    started = time.monotonic()
    run = subprocess.run(
        [sys.executable, "-m", "xtarot.cli.main", "serve", "--port", "1", "--db", url],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 1, run.stderr
    assert "another xtarot serve already uses" in run.stderr and "postgresql" in run.stderr
    assert time.monotonic() - started < 30
    held.close()  # type: ignore[attr-defined]
    again = hold_sqlite(url)  # the first server stopped: the next may start
    assert again is not None
    again.close()  # type: ignore[attr-defined]
