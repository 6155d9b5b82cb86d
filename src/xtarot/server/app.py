"""The FastAPI application: HTTP API, the websocket protocol and the static client.

Routes (see ``docs/web.md``):

- ``GET /`` the lobby (create a table), ``GET /table`` the table page;
- ``GET /api/games`` the games, their player counts, options and the bots available;
- ``POST /api/tables`` create a table: ``{"game", "players", "options", "seats", "seed"?}``
  -> the table id, one join link per human seat (with its secret token) and a spectator
  link;
- ``GET /api/tables/{id}`` public facts (game, seats, who is connected, finished);
- ``GET /api/tables/{id}/record`` the record of a finished match (a JSON download);
- ``GET /api/tables/{id}/replay`` a finished match as frames (``?seat=N``: from that
  seat); before the end only for a seat, with its token (``Authorization: Bearer``);
- ``POST /api/learn`` a learn table: ``{"game", "player"?, "again"?}`` (the same answer);
- ``POST /api/replay`` a record (the JSON body) -> the same frames;
- ``GET /replay`` the replay page (``#t=ID`` a table, or a record file to open);
- ``WS /ws/{id}`` one websocket per client;
- invitations, player identities, ratings and history: :mod:`xtarot.server.routes_people`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import html
import json
import logging
import re
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any
from urllib.parse import quote, urlsplit

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from markdown_it import MarkdownIt
from sqlalchemy.exc import OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException

import xtarot
from xtarot.agents import AGENTS
from xtarot.agents.heuristic import STRATEGIES
from xtarot.agents.levels import LEVELS
from xtarot.engine import IllegalAction, plugins
from xtarot.engine.registry import rules_markdown
from xtarot.server.bodies import error as _error
from xtarot.server.bodies import json_object as _json_object
from xtarot.server.host import command as host_command
from xtarot.server.hub import (
    MAX_MESSAGE,
    MAX_REFUSALS,
    RATE_BURST,
    RATE_PER_SECOND,
    Connection,
    Hub,
    Limits,
    LiveTable,
    TableError,
    Unavailable,
)
from xtarot.server.learn import LEARN, learn_setup
from xtarot.server.lease import LEASE_SECONDS
from xtarot.server.people import clean_name, player_id
from xtarot.server.replays import MAX_STEPS, ReplayCache, ReplayError, encode, frames
from xtarot.server.routes_people import add_people_routes
from xtarot.server.schema import (
    Claim,
    Claimed,
    GameList,
    LearnTable,
    NewTable,
    OpenTables,
    Rules,
    TableCreated,
    TableSummary,
    answers,
    body,
)
from xtarot.server.store import THREADS, Store

__all__ = ["create_app"]

log = logging.getLogger("xtarot.server")

#: Largest record accepted by ``POST /api/replay``.
MAX_RECORD_BODY = 512 * 1024
#: What a client is told while the database cannot be reached (e.g. it is restarting).
UNAVAILABLE = "the database is unavailable for a moment: nothing changed; try again shortly"

STATIC = resources.files("xtarot.server").joinpath("static")

SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'"
    ),
}


def create_app(
    db: str | None = None,
    *,
    store: Store | None = None,
    bot_delay: float = 0.6,
    bot_seconds: float = 1.0,
    hint_seconds: float = 0.5,
    rate: tuple[float, float] | None = None,
    limits: Limits | None = None,
    bot_processes: int = 0,
    cluster: bool | None = None,
    lease_seconds: float = LEASE_SECONDS,
    address: str | None = None,
) -> FastAPI:
    """The web app over the database at ``db`` (an SQLAlchemy URL; default: a SQLite
    file in the user's data directory).  ``bot_delay`` is the pause before each bot
    move (seconds), ``bot_seconds`` the thinking time of search bots, ``hint_seconds``
    that of the ISMCTS hint bot for games without a heuristic; ``rate`` the messages
    per second and burst allowed per connection; ``limits`` what one server allows
    (:class:`xtarot.server.hub.Limits`: table creation rate, live and bots-only tables,
    hello timeout, idle unloading, option caps, allowed origins); ``bot_processes``
    worker processes for the searching bots (0: they think in threads of this process;
    :mod:`xtarot.server.botpool`).  ``cluster``: other server processes may share the
    database (default: on PostgreSQL; :mod:`xtarot.server.cluster`), each table run by
    the holder of its lease, which lasts ``lease_seconds``; ``address``: where this
    process serves (shown in the database's list of processes)."""
    hub = Hub(
        store or Store(db),
        bot_delay=bot_delay,
        bot_seconds=bot_seconds,
        hint_seconds=hint_seconds,
        rate=rate or (RATE_PER_SECOND, RATE_BURST),
        limits=limits,
        bot_processes=bot_processes,
        cluster=cluster,
        lease_seconds=lease_seconds,
        address=address,
    )
    allowed = hub.limits.allow_origins

    async def sweep() -> None:
        while True:
            await asyncio.sleep(max(1.0, min(60.0, hub.limits.idle_unload / 4)))
            if count := hub.unload_idle():
                log.info("unloaded %d idle tables (they stay in the database)", count)
            try:
                if woken := hub.wake_overdue():
                    log.info("turn-based tables whose clock ran out: %s", ", ".join(woken))
            except Exception:  # the database may be away for a moment: next time
                log.warning("could not look for turn-based tables to wake", exc_info=True)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if not hub.store.local:  # a database server: stores and reads in worker threads
            asyncio.get_running_loop().set_default_executor(
                ThreadPoolExecutor(THREADS, thread_name_prefix="xtarot-db")
            )
        if hub.cluster is not None:
            await hub.cluster.start()
        resumed = hub.resume_bot_tables()
        if resumed:
            log.info("resumed %d bots-only tables: %s", len(resumed), ", ".join(resumed))
        sweeper = asyncio.get_running_loop().create_task(sweep())
        yield
        sweeper.cancel()
        await hub.shutdown()

    app = FastAPI(title="xtarot", version=xtarot.__version__, lifespan=lifespan)
    app.state.hub = hub

    @app.middleware("http")
    async def headers(request: Request, call_next: Any) -> Response:
        if request.method not in ("GET", "HEAD", "OPTIONS"):
            # state-changing requests: JSON only (no form posts), from this site only
            if not _same_site(request.headers.get("origin"), request.headers.get("host"), allowed):
                response = _error(403, "requests from other web sites are not accepted")
            elif request.headers.get("content-type", "").split(";")[0].strip() != JSON:
                response = _error(415, f"send a JSON body with Content-Type: {JSON}")
            else:
                response = await call_next(request)
        else:
            response = await call_next(request)
        for key, value in SECURITY_HEADERS.items():
            response.headers.setdefault(key, value)
        return response

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

    @app.get("/", include_in_schema=False)
    async def index() -> HTMLResponse:
        return HTMLResponse(index_html())

    @app.get("/table", include_in_schema=False)
    async def table_page() -> HTMLResponse:
        return HTMLResponse(table_html())

    @app.get("/replay", include_in_schema=False)
    async def replay_page() -> HTMLResponse:
        return HTMLResponse(replay_html())

    @app.get("/replay/{table_id}", include_in_schema=False)
    async def replay_link(table_id: str) -> Response:
        # relative, so that it works under a path prefix too: /x/replay/ID -> /x/replay#t=ID
        target = f"../replay#t={quote(table_id, safe='')}"
        return Response(status_code=307, headers={"Location": target})

    add_people_routes(app, hub, _page)

    @app.get("/layouts/{name}", include_in_schema=False)
    async def plugin_layout(name: str) -> Response:
        game_id, _, ext = name.rpartition(".")
        files = plugin_layouts().get(game_id, {})
        if ext not in files:
            return _error(404, f"no plugin layout file {name!r}")
        media = "text/javascript" if ext == "js" else "text/css"
        return Response(files[ext], media_type=f"{media}; charset=utf-8")

    @app.get("/api/games", responses=answers(200, GameList))
    async def list_games() -> dict[str, Any]:
        out = []
        for info in xtarot.games():
            data = info.to_dict()
            # the levels for people first, then every bot by name for researchers
            named = [b for b in AGENTS if b != "heuristic" or info.id in STRATEGIES]
            data["bots"] = [*LEVELS, *(b for b in named if b not in LEVELS)]
            # people see the levels first and start at normal (the heuristic, or for a
            # game without one a short search) rather than at a research bot's name
            data["default_bot"] = "normal"
            # a guided first hand (POST /api/learn) for the games that have one
            data["learn"] = info.id in LEARN
            out.append(data)
        return {"games": out}

    @app.get("/api/games/{game_id}/rules", responses=answers(200, Rules, 404))
    async def game_rules(game_id: str, lang: str = "en") -> JSONResponse:
        html = rules_html(game_id, lang)
        if html is None:
            return _error(404, f"no rules for {game_id!r}; games: {', '.join(_game_ids())}")
        return JSONResponse({"game": game_id, "lang": lang, "html": html})

    @app.post(
        "/api/tables",
        status_code=201,
        responses=answers(201, TableCreated, 400, 403, 413, 415, 429),
        openapi_extra=body(
            NewTable, "the new table", game=_game_ids(), seats=["human", "open", *AGENTS]
        ),
    )
    async def create_table(request: Request) -> JSONResponse:
        data = await _json_object(request, "the body must be a JSON object")
        if isinstance(data, JSONResponse):
            return data
        host = creator(request, data)
        if isinstance(host, JSONResponse):
            return host
        game = data.get("game")
        players = data.get("players")
        options = data.get("options") or {}
        seats = data.get("seats")
        seed = data.get("seed")
        clock = data.get("clock")
        listed = data.get("listed")
        if not isinstance(game, str):
            return _error(400, "'game' must be a game id (see /api/games)")
        if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
            return _error(400, "'players' must be a whole number")
        if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
            return _error(400, "'options' must be an object of option values")
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            return _error(400, "'seats' must be a list: 'human', 'open' or a bot name per seat")
        if players is None:
            players = len(seats)
        try:
            table, tokens = hub.create(
                game, players, options, seats, seed, clock=clock, listed=listed, host=host
            )
        except TableError as err:
            return _error(400, str(err))
        return created(request, table, tokens, host)

    @app.post(
        "/api/learn",
        status_code=201,
        responses=answers(201, TableCreated, 400, 403, 413, 415, 429),
        openapi_extra=body(LearnTable, "the game to learn", game=list(LEARN)),
    )
    async def create_learn_table(request: Request) -> JSONResponse:
        """A learn table (:mod:`xtarot.server.learn`): ``{"game", "player"?, "again"?}``
        -> the same answer as ``POST /api/tables``; ``again``: the how-many-th *Learn
        again* (another friendly deal)."""
        data = await _json_object(request, 'the body must be a JSON object: {"game": id}')
        if isinstance(data, JSONResponse):
            return data
        host = creator(request, data)
        if isinstance(host, JSONResponse):
            return host
        game, again = data.get("game"), data.get("again", 0)
        setup = learn_setup(game) if isinstance(game, str) else None
        if setup is None:
            return _error(400, f"'game' must be one of the games to learn: {', '.join(LEARN)}")
        if isinstance(again, bool) or not isinstance(again, int) or again < 0:
            return _error(400, "'again' must be a whole number from 0")
        try:
            table, tokens = hub.create(
                game,
                setup.players,
                dict(setup.options),
                setup.seats(),
                setup.seed(again),
                host=host,
                learn=True,
            )
        except TableError as err:
            return _error(400, str(err))
        return created(request, table, tokens, host)

    def creator(request: Request, data: dict[str, Any]) -> str | JSONResponse | None:
        """Who creates a new table: the public id of the body's ``player`` key (None
        without one), or the refusal (too many new tables from this address, or a
        malformed key)."""
        client = request.client.host if request.client else "?"
        if not hub.allow_creation(client):
            per = hub.limits.tables_per_minute
            return _error(429, f"too many new tables from your address (at most {per:g} a minute)")
        key = data.get("player")
        host = player_id(key) if key is not None else None
        if key is not None and host is None:
            return _error(
                400, "'player' must be the browser's player key (16-64 URL-safe characters)"
            )
        return host

    def created(
        request: Request, table: LiveTable, tokens: dict[int, str], host: str | None
    ) -> JSONResponse:
        """The answer to a new table: its id, a join link per human seat..."""
        base = str(request.base_url).rstrip("/")
        links = []
        for seat, spec in enumerate(table.seats):
            item: dict[str, Any] = {
                "seat": seat,
                "kind": spec.kind,
                "bot": spec.bot,
                "open": spec.open,
            }
            if seat in tokens:
                item["token"] = tokens[seat]
                item["link"] = f"{base}/table#t={table.id}&seat={seat}&token={tokens[seat]}"
            links.append(item)
        hub.wake_bots(table)
        return JSONResponse(
            {
                "id": table.id,
                "game": table.game.id,
                "players": table.game.players,
                "options": dict(table.game.options),
                "seats": links,
                "spectator": f"{base}/table#t={table.id}",
                "record": f"{base}/api/tables/{table.id}/record",
                "clock": table.clock,
                "listed": table.listed,
                "invite": f"{base}/j/{table.id}",
                "host": host is not None,
                "learn": table.learn,
            },
            status_code=201,
        )

    @app.get("/api/tables", responses=answers(200, OpenTables))
    async def open_tables() -> dict[str, Any]:
        """Tables listed in the lobby (open seats to claim, or to watch)."""
        return {"tables": hub.open_tables()}

    @app.post(
        "/api/tables/{table_id}/claim",
        responses=answers(200, Claimed, 400, 403, 404, 409, 413, 415),
        openapi_extra=body(Claim, "the seat to take", seat=list(range(_most_players()))),
    )
    async def claim_seat(table_id: str, request: Request) -> JSONResponse:
        """Take a free open seat: ``{"seat": n}`` -> its secret link (once)."""
        data = await _json_object(request, 'the body must be a JSON object: {"seat": n}')
        if isinstance(data, JSONResponse):
            return data
        table = hub.get(table_id)
        if table is None:
            return _error(404, f"no table {table_id!r}")
        seat = data.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int):
            return _error(400, f"'seat' must be a seat number from 0 to {len(table.seats) - 1}")
        try:
            token = hub.claim(table, seat)
        except TableError as err:
            return _error(409, str(err))
        base = str(request.base_url).rstrip("/")
        return JSONResponse(
            {
                "id": table.id,
                "seat": seat,
                "token": token,
                "link": f"{base}/table#t={table.id}&seat={seat}&token={token}",
            }
        )

    @app.get("/api/tables/{table_id}", responses=answers(200, TableSummary, 404))
    async def table_info(table_id: str) -> JSONResponse:
        table = hub.get(table_id)
        if table is None:
            return _error(404, f"no table {table_id!r}")
        return JSONResponse(table.summary())

    @app.get("/api/tables/{table_id}/record", responses=answers(200, None, 404, 409))
    async def table_record(table_id: str) -> JSONResponse:
        table = hub.get(table_id)
        if table is None:
            return _error(404, f"no table {table_id!r}")
        record = hub.record(table_id)
        if record is None:
            return _error(409, "the match is not over yet; its record holds hidden cards")
        name = f"xtarot-{table.game.id}-{table_id}.json"
        return JSONResponse(
            record, headers={"Content-Disposition": f'attachment; filename="{name}"'}
        )

    replays = ReplayCache()
    replaying = asyncio.Semaphore(2)  # replays are CPU work: two at a time

    def compute(
        record: dict[str, Any], seat: int | None, deals: bool, extra: dict[str, Any]
    ) -> tuple[bytes, bytes]:
        as_saved = bool(extra.pop("as_saved", False))
        return encode({**frames(record, seat, deals=deals, as_saved=as_saved), **extra})

    async def replay_response(
        request: Request,
        key: Any,
        record: dict[str, Any],
        seat: int | None,
        *,
        deals: bool,
        extra: dict[str, Any] | None = None,
    ) -> Response:
        cached = replays.get(key) if key is not None else None
        if cached is None:
            async with replaying:
                try:
                    item = await asyncio.to_thread(compute, record, seat, deals, extra or {})
                except ReplayError as err:
                    return _error(400, str(err))
            cached = replays.put(key, item)
        body, zipped = cached
        headers = {"Cache-Control": "no-store", "Vary": "Accept-Encoding"}
        if zipped and "gzip" in request.headers.get("accept-encoding", ""):
            headers["Content-Encoding"] = "gzip"
            body = zipped
        return Response(body, media_type=JSON, headers=headers)

    @app.get("/api/tables/{table_id}/replay", responses=answers(200, None, 400, 403, 404, 409, 413))
    async def table_replay(table_id: str, request: Request, seat: str | None = None) -> Response:
        """A match as frames: the public view (or ``?seat=N``'s) at every step, every
        hand as dealt once it is over.  Before the end, only a seat that shows its token
        (``Authorization: Bearer TOKEN``) gets its own frames so far."""
        table = hub.get(table_id)
        if table is None:
            return _error(404, f"no table {table_id!r}")
        who = _seat_param(seat)
        if isinstance(who, JSONResponse):
            return who
        if who is not None and not 0 <= who < table.game.players:
            return _error(400, f"no seat {who}: seats are 0..{table.game.players - 1}")
        if len(table.state.history) > MAX_STEPS:
            return _error(
                413, f"the match is too long to replay here ({table.n} moves; at most {MAX_STEPS})"
            )
        extra = {
            "table": table.id,
            "seats": [{"kind": s.kind, "bot": s.bot} for s in table.seats],
        }
        record = hub.record(table_id)
        if record is not None:
            key = (table_id, who)
            return await replay_response(request, key, record, who, deals=True, extra=extra)
        # not over: a seat's own frames so far, for that seat only, with its token
        auth = request.headers.get("authorization", "")
        token = auth[7:].strip() if auth[:7].lower() == "bearer " else ""
        if who is None or not token:
            return _error(
                409,
                "the match is not over yet: its replay opens when it ends "
                "(a player may replay their own seat's view with the seat's token)",
            )
        if not table.check_token(who, token):
            return _error(403, "wrong seat or token: this token does not open that seat")
        so_far = table.state.record()
        key = (table_id, who, len(so_far["actions"]), "so far")
        return await replay_response(request, key, so_far, who, deals=False, extra=extra)

    @app.post(
        "/api/replay",
        responses=answers(200, None, 400, 403, 413, 415),
        openapi_extra=body(None, "a record, as `xtarot play --save` writes it"),
    )
    async def replay_record(request: Request, seat: str | None = None) -> Response:
        """Frames of an uploaded record (the body: a record as ``xtarot play --save``
        writes it, or a table's download); ``?seat=N`` for a seat's view.  A match
        that is not over is shown as ``xtarot replay`` shows it: from the seat that
        saved it, without the deals."""
        data = await _json_object(
            request, "the body must be an xtarot record (a JSON object)", limit=MAX_RECORD_BODY
        )
        if isinstance(data, JSONResponse):
            return data
        who = _seat_param(seat)
        if isinstance(who, JSONResponse):
            return who
        extra = {"as_saved": True}  # an unfinished match: as the saving seat saw it
        return await replay_response(request, None, data, who, deals=True, extra=extra)

    @app.exception_handler(OperationalError)
    async def database_away(request: Request, err: Exception) -> JSONResponse:
        log.warning("%s %s: the database is unavailable: %s", request.method, request.url, err)
        return _error(503, UNAVAILABLE)

    @app.exception_handler(RequestValidationError)
    async def bad_parameter(request: Request, err: RequestValidationError) -> JSONResponse:
        # a query or path parameter of the wrong type: the same kind of answer as every
        # other refusal (FastAPI's own would be a 422 in another shape)
        first = err.errors()[0] if err.errors() else {}
        where = [str(part) for part in first.get("loc", ())]
        name = f"{where[-1]!r} in the {where[0]}" if len(where) >= 2 else "a parameter"
        return _error(400, f"bad {name}: {first.get('msg', 'not valid')}")

    @app.exception_handler(StarletteHTTPException)
    async def http_refusal(request: Request, err: StarletteHTTPException) -> JSONResponse:
        # no such route (404), another method (405): {"error": ...} like the rest
        response = _error(err.status_code, str(err.detail).lower())
        for key, value in (err.headers or {}).items():
            response.headers[key] = value
        return response

    def openapi() -> dict[str, Any]:
        """The schema, without FastAPI's 422 answers: a bad parameter is a 400 here,
        declared with each route (:mod:`xtarot.server.schema`)."""
        if app.openapi_schema is None:
            schema = get_openapi(title=app.title, version=app.version, routes=app.routes)
            for item in schema["paths"].values():
                for operation in item.values():
                    operation["responses"].pop("422", None)
            for name in ("HTTPValidationError", "ValidationError"):
                schema.get("components", {}).get("schemas", {}).pop(name, None)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]

    @app.exception_handler(Exception)
    async def internal_error(request: Request, err: Exception) -> JSONResponse:
        log.warning("%s %s failed", request.method, request.url.path, exc_info=err)
        return _error(500, "the server could not do that (an internal error, logged)")

    @app.websocket("/ws/{table_id}")
    async def websocket(ws: WebSocket, table_id: str) -> None:
        if not _same_site(ws.headers.get("origin"), ws.headers.get("host"), allowed):
            await ws.close(code=4403)  # before accept: the handshake gets a 403
            return
        await ws.accept()
        try:
            table = await hub.open(table_id)
        except (TableError, OperationalError) as err:  # the server is full, the database away
            full = isinstance(err, TableError)
            code, text = ("full", str(err)) if full else ("away", UNAVAILABLE)
            await ws.send_text(json.dumps({"type": "error", "code": code, "message": text}))
            await ws.close(code=1013)  # try again later
            return
        if table is None:
            await ws.send_text(
                json.dumps(
                    {"type": "error", "code": "no_table", "message": f"no table {table_id!r}"}
                )
            )
            await ws.close(code=4404)
            return
        table.sessions += 1  # (before any await: it is not unloaded under this client)
        conn = hub.connection(ws.send_text, lambda code: ws.close(code=code))
        loop = asyncio.get_running_loop()
        pump = loop.create_task(conn.pump())
        hello_by = loop.time() + hub.limits.hello_timeout
        closing = False
        try:
            while True:
                wait = None if conn.joined else max(0.05, hello_by - loop.time())
                try:
                    message = await asyncio.wait_for(ws.receive(), wait)
                except TimeoutError:
                    _refuse(conn, f"no hello within {hub.limits.hello_timeout:g} s: closed")
                    closing = True
                    break
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    _refuse(conn, "binary frames are not accepted: send JSON text messages")
                    continue
                try:
                    keep = await _handle(hub, table, conn, text)
                except OperationalError as err:
                    log.warning("table %s: the database is unavailable: %s", table.id, err)
                    _refuse(conn, UNAVAILABLE, code="away")
                    keep = True
                except Exception:  # a bug must not drop the connection or the table
                    log.warning("message on table %s failed", table.id, exc_info=True)
                    _refuse(
                        conn, "the server could not handle that message (logged); nothing changed"
                    )
                    keep = True
                if not keep:
                    closing = True
                    break
        except (WebSocketDisconnect, RuntimeError):  # gone, or a receive after close
            pass
        finally:
            table.sessions -= 1
            hub.leave(table, conn)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(pump, timeout=2)
            pump.cancel()
            if closing:
                with contextlib.suppress(Exception):
                    await ws.close(code=1008)

    return app


JSON = "application/json"


def _seat_param(seat: str | None) -> int | JSONResponse | None:
    """A replay's ``?seat=``: a seat number, ``None`` for the public view (no value or
    ``public``), or the 400 answer saying what is allowed."""
    if seat in (None, "", "public"):
        return None
    try:
        return int(seat)  # type: ignore[arg-type]
    except ValueError:
        return _error(400, "'seat' must be a seat number (0-based) or 'public'")


def _same_site(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> bool:
    """Whether a request from ``origin`` may change things here: no Origin header (not a
    browser), this server's own origin, or one of the ``--allow-origin`` ones."""
    if origin is None:
        return True
    if "*" in allowed or origin.rstrip("/") in allowed:
        return True
    parsed = urlsplit(origin)
    return bool(host) and parsed.scheme in ("http", "https") and parsed.netloc == host


def _game_ids() -> list[str]:
    return [info.id for info in xtarot.games()]


def _most_players() -> int:
    return max(info.max_players for info in xtarot.games())


@functools.lru_cache(maxsize=1)
def builtin_layouts() -> frozenset[str]:
    """The games whose layout ships with xtarot (``static/games/<id>.js``), as the table
    page names them (``<script … data-layout="<id>">``): what the page expects, whether
    or not the files made it into this installation.

    >>> sorted(builtin_layouts())[:3]
    ['arcana-duel', 'extendori', 'fairy500']
    """
    page = STATIC.joinpath("table.html").read_text(encoding="utf-8")
    return frozenset(re.findall(r'<script src="static/games/[^"]+" data-layout="([^"]+)">', page))


@functools.lru_cache(maxsize=1)
def plugin_layouts() -> dict[str, dict[str, str]]:
    """The web layouts of plugin games (``xtarot.layouts`` entry points): game id ->
    ``{"js": text, "css": text}`` (css optional).  A layout for an unknown game, for a
    built-in one, or a package without ``<id>.js`` is reported and left out."""
    out: dict[str, dict[str, str]] = {}
    known = set(_game_ids())
    for game_id, package in list(plugins.group("xtarot.layouts").items()):
        files: dict[str, str] = {}
        try:
            folder = resources.files(package)
            for ext in ("js", "css"):
                path = folder.joinpath(f"{game_id}.{ext}")
                if path.is_file():
                    files[ext] = path.read_text(encoding="utf-8")
        except (TypeError, ModuleNotFoundError, OSError, UnicodeDecodeError) as exc:
            problem = f"cannot read the layout package: {exc}"
        else:
            problem = ""
            if game_id not in known:
                problem = f"no game {game_id!r} is registered"
            elif game_id in builtin_layouts():
                problem = "a built-in game keeps its own layout"
            elif "js" not in files:
                problem = f"the package {getattr(package, '__name__', package)} has no {game_id}.js"
        if problem:
            plugins.reject("xtarot.layouts", game_id, problem)
            continue
        out[game_id] = files
    return out


def _page(name: str) -> str:
    """A static page with this server's version in its footer.  Every address in the
    pages is relative, so they work behind a path prefix (``--root-path``) too."""
    page = STATIC.joinpath(name).read_text(encoding="utf-8")
    return page.replace("__XTAROT_VERSION__", html.escape(xtarot.__version__))


@functools.lru_cache(maxsize=1)
def index_html() -> str:
    """The lobby page."""
    return _page("index.html")


@functools.lru_cache(maxsize=1)
def table_html() -> str:
    """The table page, with a ``<script>`` (and stylesheet) for every plugin layout;
    ``data-layout`` tells the page which games' layouts it means to load, so that one
    that fails to load is reported on the table instead of passing unnoticed."""
    return _with_plugin_layouts(_page("table.html"), "static/table.js")


def _with_plugin_layouts(page: str, main: str) -> str:
    """``page`` with a stylesheet and script for every plugin layout, before ``main``."""
    links = scripts = ""
    for game_id, files in sorted(plugin_layouts().items()):
        quoted = html.escape(game_id, quote=True)
        if "css" in files:
            links += f'<link rel="stylesheet" href="layouts/{quoted}.css">\n'
        scripts += f'<script src="layouts/{quoted}.js" data-layout="{quoted}"></script>\n'
    page = page.replace("</head>", links + "</head>", 1)
    return page.replace(f'<script src="{main}">', scripts + f'<script src="{main}">', 1)


@functools.lru_cache(maxsize=1)
def replay_html() -> str:
    """The replay page, with the plugin layouts as on the table page."""
    return _with_plugin_layouts(_page("replay.html"), "static/replay.js")


@functools.lru_cache(maxsize=32)
def rules_html(game_id: str, lang: str) -> str | None:
    """A game's rules summary (``xtarot/rules/GAME.LANG.md``, or a plugin's) as HTML,
    raw HTML in the text escaped; ``None`` for an unknown game.  English when
    ``lang`` has no text."""
    if game_id not in _game_ids():
        return None
    found = rules_markdown(game_id, lang if lang in ("en", "ja") else "en")
    if found is None:
        return None
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    return str(md.render(found[1]))


def _refuse(conn: Connection, message: str, **extra: Any) -> None:
    conn.push({"type": "error", "message": message, **extra})


async def _handle(hub: Hub, table: Any, conn: Connection, text: str) -> bool:
    """Handle one client message; ``False`` closes the connection."""
    if not conn.limiter.allow():
        if conn.limiter.refused > MAX_REFUSALS:
            _refuse(conn, "too many messages: connection closed")
            return False
        _refuse(conn, "too many messages: slow down (message ignored)")
        return True
    if len(text) > MAX_MESSAGE:
        _refuse(conn, f"message too large (at most {MAX_MESSAGE} bytes); ignored")
        return True
    try:
        msg = json.loads(text)
    except json.JSONDecodeError:
        _refuse(conn, "messages are JSON objects with a 'type'; ignored")
        return True
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        _refuse(conn, "messages are JSON objects with a 'type'; ignored")
        return True
    kind = msg["type"]
    lang = msg.get("lang")
    if lang in ("en", "ja"):
        conn.lang = lang
    if kind == "hello":
        if conn.joined:
            _refuse(conn, "already joined")
            return True
        seat = msg.get("seat")
        name = msg.get("name")
        if msg.get("player") is not None:
            conn.player = player_id(msg.get("player"))
            if conn.player is None:
                _refuse(conn, "'player' is not a player key; joined without one", code="bad_player")
        if name is not None:
            try:
                name = clean_name(name)
            except ValueError as err:
                _refuse(conn, f"{err}; joined without a name", code="bad_name")
                name = None
        if seat is None:
            conn.seat = None
        else:
            token = msg.get("token")
            if isinstance(seat, bool) or not isinstance(seat, int) or not isinstance(token, str):
                _refuse(conn, "hello needs a seat number and its token (or no seat to watch)")
                return True
            if not await hub.check_token(table, seat, token):
                _refuse(
                    conn, "wrong seat or token: this link does not open that seat", code="bad_token"
                )
                return True
            conn.seat, conn.token = seat, token
        hub.join(table, conn, name if conn.seat is not None else None)
        return True
    if kind == "ping":
        conn.push({"type": "pong"})
        return True
    if not conn.joined:
        _refuse(conn, "send hello first")
        return True
    if kind == "act":
        if conn.seat is None:
            _refuse(conn, "spectators cannot act")
            return True
        claimed = msg.get("seat", conn.seat)
        if claimed != conn.seat:
            _refuse(conn, f"you hold seat {conn.seat}; you cannot act for seat {claimed}")
            return True
        action = msg.get("action")
        n = msg.get("n")
        if not isinstance(action, str) or len(action) > 100:
            _refuse(conn, "act needs an 'action' text, e.g. 'play Kc'")
            return True
        if n is not None and (isinstance(n, bool) or not isinstance(n, int)):
            _refuse(conn, "'n' must be the position number the move is for")
            return True
        try:
            done = await hub.act(table, conn.seat, action, n)
        except IllegalAction as err:
            _refuse(conn, str(err), legal=list(getattr(err, "legal", []) or []))
            return True
        except Unavailable as err:
            _refuse(conn, str(err), code="away")
            return True
        except TableError as err:
            _refuse(conn, str(err))
            return True
        conn.push({"type": "ok", "action": done, "n": table.n})
        return True
    if kind == "hint":
        if conn.seat is None:
            _refuse(conn, "spectators get no hints")
            return True
        try:
            conn.push(await hub.hint(table, conn.seat, conn.lang))
        except TableError as err:
            _refuse(conn, str(err))
        return True
    if kind == "state":
        conn.push_text(hub.state_text(table, conn.seat))
        return True
    if kind in ("name", "chat", "rematch", "host"):
        try:
            if kind == "host":
                host_command(hub, table, conn, msg)
            elif kind == "name":
                hub.rename(table, conn, msg.get("name"))
            elif kind == "chat":
                hub.chat(table, conn, msg.get("text"), msg.get("phrase"))
            else:
                hub.vote_rematch(table, conn)
        except TableError as err:
            _refuse(conn, str(err))
        return True
    _refuse(
        conn,
        f"unknown message type {kind!r}; types: hello, act, hint, state, name, chat, "
        "rematch, host, ping",
    )
    return True
