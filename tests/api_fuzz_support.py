"""Fuzzing the HTTP API from its own OpenAPI schema (schemathesis): what the tests in
``tests/test_api_schema.py`` (one process, SQLite) and ``tests/test_cluster.py`` (two
processes, PostgreSQL) share."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from xtarot.server.hub import Hub
from xtarot.server.store import actions_t, chat_t, players_t, settings_t, tables_t


def checks() -> list[Any]:
    """What every answer is checked for (schemathesis's own checks).  Not its
    ``positive_data_acceptance``: a request can match the schema and still be refused
    (options a game does not have, seats that do not match the player count)."""
    import schemathesis  # here: importing it takes a second or two

    return [
        schemathesis.checks.not_a_server_error,
        schemathesis.checks.status_code_conformance,
        schemathesis.checks.content_type_conformance,
        schemathesis.checks.response_schema_conformance,
        schemathesis.checks.negative_data_rejection,
    ]


#: Hypothesis for the fuzzers: derandomized (a failure reproduces), no database of
#: examples, no deadline (a table's creation may wait for the disk).
FUZZ = {
    "derandomize": True,
    "database": None,
    "deadline": None,
    "suppress_health_check": list(HealthCheck),
}


#: Every operation of the API's schema (a new one must be added here to be fuzzed:
#: ``tests/test_api_schema.py`` checks this list against the schema).
OPERATIONS = [
    "GET /api/games",
    "GET /api/games/{game_id}/rules",
    "GET /api/leaderboard/{game_id}",
    "GET /api/players/{player}",
    "GET /api/tables",
    "GET /api/tables/{table_id}",
    "GET /api/tables/{table_id}/qr.svg",
    "GET /api/tables/{table_id}/record",
    "GET /api/tables/{table_id}/replay",
    "POST /api/learn",
    "POST /api/me",
    "POST /api/replay",
    "POST /api/tables",
    "POST /api/tables/{table_id}/claim",
]


def api_schema(app: Any) -> Any:
    """``app``'s OpenAPI schema, as schemathesis reads it."""
    import schemathesis  # here: importing it takes a second or two

    return schemathesis.openapi.from_dict(app.openapi())


def cases(schema: Any, label: str, table_ids: list[str]) -> st.SearchStrategy[Any]:
    """Requests for the operation ``label`` ("GET /api/games") of ``schema``, valid
    and invalid, at any table id and (half of them) at each of ``table_ids``."""
    import schemathesis

    method, path = label.split(" ", 1)
    operation = schema[path][method]
    modes = (schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE)
    anywhere = [operation.as_strategy(generation_mode=mode) for mode in modes]
    if "{table_id}" not in path:
        return st.one_of(anywhere)
    at_tables = [
        operation.as_strategy(generation_mode=mode, path_parameters={"table_id": table_id})
        for mode in modes
        for table_id in table_ids
    ]
    return st.one_of(st.one_of(anywhere), st.one_of(at_tables))


def send(client: Any, case: Any, base: str) -> Any:
    """The request ``case`` describes, sent with ``client`` (an httpx client)."""
    kw = case.as_transport_kwargs(base_url=base)
    extra: dict[str, Any] = {}
    if "json" in kw:
        extra["json"] = kw["json"]
    elif "data" in kw:
        data = kw["data"]
        extra["content"] = data if isinstance(data, bytes) else str(data).encode()
    return client.request(
        kw["method"], kw["url"], headers=kw.get("headers"), params=kw.get("params"), **extra
    )


def stored(hub: Hub, watched: list[str]) -> dict[str, Any]:
    """What a request could change in the database: every table's identity and seats,
    settings, chat and players; the moves of the ``watched`` tables (nothing else moves
    them: they have no bots and no clock)."""
    with hub.store.engine.connect() as conn:
        tables = conn.execute(
            select(tables_t.c.id, tables_t.c.game, tables_t.c.options, tables_t.c.seats)
        ).all()
        return {
            "tables": sorted(map(tuple, tables)),
            "settings": sorted(map(tuple, conn.execute(select(settings_t)).all())),
            "chat": conn.execute(select(func.count()).select_from(chat_t)).scalar(),
            "players": sorted(
                map(tuple, conn.execute(select(players_t.c.id, players_t.c.name)).all())
            ),
            "moves": [
                conn.execute(
                    select(func.count())
                    .select_from(actions_t)
                    .where(actions_t.c.table_id == table_id)
                ).scalar()
                for table_id in watched
            ],
        }


def in_memory(hubs: list[Hub], watched: list[str]) -> list[Any]:
    """Each process's copy of each watched table: its position and seats."""
    out = []
    for hub in hubs:
        for table_id in watched:  # process-major: hub 0's tables, then hub 1's
            live = hub.tables.get(table_id)
            out.append(None if live is None else (live.state.snapshot(), live.seat_info()))
    return out


class Tracebacks(logging.Handler):
    """Collects every log record with a traceback (``exc_info``) or at ERROR and above."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.bad: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info or record.levelno >= logging.ERROR:
            self.bad.append(self.format(record))


@contextmanager
def watch_log() -> Iterator[Tracebacks]:
    """The servers' log (they run in this process), watched for tracebacks."""
    handler = Tracebacks()
    loggers = [logging.getLogger(name) for name in ("xtarot", "uvicorn", "fastapi")]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield handler
    finally:
        for logger in loggers:
            logger.removeHandler(handler)


def same_copies(before: list[Any], after: list[Any]) -> bool:
    """Whether every copy held both before and after is unchanged (a process may load
    a table it did not hold, or unload an idle one: neither changes it)."""
    return all(b == a for b, a in zip(before, after, strict=True) if None not in (a, b))


def settle(hubs: list[Hub], watched: list[str], seconds: float = 5) -> None:
    """Wait until every process that holds a watched table has the same copy of it
    (another process learns of a change by notification, a moment later)."""
    deadline = time.monotonic() + seconds
    while True:
        copies = in_memory(hubs, watched)
        agree = all(
            len({repr(c) for c in copies[i :: len(watched)] if c is not None}) <= 1
            for i in range(len(watched))
        )
        if agree or time.monotonic() > deadline:
            return
        time.sleep(0.02)


def check_request(
    case: Any,
    client: Any,
    base: str,
    hubs: list[Hub],
    watched: list[str],
    log: Tracebacks,
) -> Any:
    """Send ``case`` (to the process at ``base``) and check its answer; a refusal must
    leave the database and every process's copy of the watched tables as they were."""
    if len(hubs) > 1:
        settle(hubs, watched)
    before_db, before_copies = stored(hubs[0], watched), in_memory(hubs, watched)
    response = send(client, case, base)
    case.validate_response(response, checks=checks())
    assert "Traceback" not in response.text
    if response.status_code >= 400:
        body = response.json()
        assert isinstance(body.get("error"), str) and body["error"], body
        what = f"a refused {case.method} {case.path} ({response.status_code}) changed"
        assert stored(hubs[0], watched) == before_db, f"{what} the database"
        assert same_copies(before_copies, in_memory(hubs, watched)), f"{what} a table in memory"
    assert not log.bad, log.bad[0]
    return response


def fuzz_every_operation(examples: int, request: Callable[[str, st.DataObject], None]) -> None:
    """``request(operation, data)`` run by hypothesis ``examples`` times for each
    operation in turn (one test, so that its servers start once)."""
    for operation in OPERATIONS:

        @settings(max_examples=examples, **FUZZ)
        @given(data=st.data())
        def fuzz(data: st.DataObject) -> None:
            request(operation, data)  # noqa: B023 (run here, in this iteration)

        try:
            fuzz()
        except BaseException as err:
            err.add_note(f"fuzzing {operation}")
            raise
