"""The HTTP API fuzzed from its own OpenAPI schema (schemathesis), on one process over
SQLite (here) and on two processes over PostgreSQL (``tests/test_cluster.py``; the helpers are in
``tests/api_fuzz_support.py``).

Every operation of ``/openapi.json`` is called with requests schemathesis makes from its
schema, valid ones and deliberately invalid ones, at random addresses and at a real table
(a seat of it open to claim).  Each answer must be no server error, no traceback, a
status and a body the schema declares, a refusal for what the schema forbids, and a
refusal must change nothing: not the database (tables, seats, settings, chat, players;
the real table's moves) nor any process's copy of the table.  The server's log must show
no traceback.  Hypothesis runs derandomized, so a failure reproduces.
"""

from __future__ import annotations

import importlib.util
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed")
pytest.importorskip("httpx", reason="httpx is not installed")
if importlib.util.find_spec("schemathesis") is None:  # not imported here: it takes seconds
    pytest.skip("schemathesis is not installed", allow_module_level=True)

from hypothesis import strategies as st

from api_fuzz_support import (
    OPERATIONS,
    Tracebacks,
    api_schema,
    cases,
    check_request,
    fuzz_every_operation,
    watch_log,
)

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from xtarot.server import create_app
from xtarot.server.hub import Limits


# -- one process, SQLite ------------------------------------------------------------------
@pytest.fixture(scope="module")
def one_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    db = f"sqlite:///{tmp_path_factory.mktemp('schema') / 'tables.db'}"
    # bots wait an hour before a move: nothing moves a table but the requests
    limits = Limits(tables_per_minute=1e9, table_burst=1e9, max_live_tables=10_000)
    app = create_app(db, bot_delay=3600.0, limits=limits)
    with TestClient(app, raise_server_exceptions=True) as client:
        # eight seats open to claim (the most any game has): a claim can succeed
        body = {"game": "fairy500", "seats": ["open"] * 8, "seed": 4}
        table = client.post("/api/tables", json=body).json()
        yield client, app, table


def test_the_schema_declares_every_body_and_answer(one_process: Any) -> None:
    _client, app, _table = one_process
    schema = app.openapi()
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            assert "422" not in operation["responses"], (method, path)  # a 400 here
            assert "503" in operation["responses"], (method, path)
            if method == "post":
                body = operation["requestBody"]["content"]["application/json"]["schema"]
                assert body["type"] == "object", path
    new_table = schema["paths"]["/api/tables"]["post"]
    assert new_table["requestBody"]["content"]["application/json"]["schema"]["required"] == [
        "game",
        "seats",
    ]
    assert "201" in new_table["responses"] and "200" not in new_table["responses"]
    # and every operation is fuzzed below
    declared = [f"{m.upper()} {p}" for p, item in schema["paths"].items() for m in item]
    assert sorted(declared) == OPERATIONS


def test_a_bad_parameter_or_address_is_an_error_like_any_other(one_process: Any) -> None:
    client, _app, table = one_process
    res = client.get(f"/api/tables/{table['id']}/qr.svg", params={"seat": "one"})
    assert res.status_code == 400
    assert res.json() == {"error": res.json()["error"]} and "'seat' in the query" in res.text
    res = client.get("/api/leaderboard/sono-arcana", params={"limit": "many"})
    assert res.status_code == 400 and "'limit' in the query" in res.json()["error"]
    res = client.get("/api/nothing/here")
    assert (res.status_code, res.json()) == (404, {"error": "not found"})
    res = client.put(f"/api/tables/{table['id']}", json={})
    assert res.status_code == 405 and res.json()["error"] == "method not allowed"
    assert "GET" in res.headers["allow"]
    # a seat that is not a number is a malformed request, not a conflict
    res = client.post(f"/api/tables/{table['id']}/claim", json={"seat": "1"})
    assert res.status_code == 400 and "'seat' must be a seat number" in res.json()["error"]


@pytest.fixture(scope="module")
def server_log() -> Iterator[Tracebacks]:
    with watch_log() as log:
        yield log


def fuzz_one_process(one_process: Any, log: Tracebacks, examples: int) -> None:
    client, app, table = one_process
    schema = api_schema(app)

    def request(operation: str, data: st.DataObject) -> None:
        case = data.draw(cases(schema, operation, [table["id"]]), label="request")
        check_request(case, client, "http://testserver", [app.state.hub], [table["id"]], log)

    fuzz_every_operation(examples, request)


def test_fuzz_the_api_from_its_schema_on_one_process(
    one_process: Any, server_log: Tracebacks
) -> None:
    fuzz_one_process(one_process, server_log, examples=6)


@pytest.mark.slow
def test_fuzz_the_api_from_its_schema_on_one_process_at_length(
    one_process: Any, server_log: Tracebacks
) -> None:
    fuzz_one_process(one_process, server_log, examples=200)
