"""The routes about people rather than games: invitations (with a QR code), player
identities, ratings and match history.

- ``GET /j/{id}`` a table's short invitation link: it leads to ``/invite#t=ID``, a
  waiting room that shows who has arrived and lets a visitor take a free seat (a click
  takes it, never the link itself: messaging apps open links to preview them);
- ``GET /api/tables/{id}/qr.svg`` the invitation as a QR code (SVG, made by segno);
- ``POST /api/me`` ``{"key": KEY}`` -> the public id and name of that player identity,
  its tables still being played, and those where it is its turn;
- ``GET /api/leaderboard/{game}`` a game's ratings, best first;
- ``GET /api/players/{id}`` a player's ratings and latest rated matches;
- ``GET /players`` the leaderboard (``#g=GAME``) and player (``#p=ID``) page.
"""

from __future__ import annotations

import io
import json
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from fastapi import Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from sqlalchemy import select

from xtarot.server.bodies import error as _error
from xtarot.server.bodies import json_object
from xtarot.server.people import player_id
from xtarot.server.ratings import leaderboard, player_page
from xtarot.server.schema import Leaderboard, MeAnswer, MeRequest, answers, body
from xtarot.server.store import players_t, tables_t

if TYPE_CHECKING:
    from fastapi import FastAPI

    from xtarot.server.hub import Hub

__all__ = ["add_people_routes"]


def qr_svg(text: str) -> bytes:
    """``text`` as a QR code in SVG (dark modules on white, a quiet zone of 4)."""
    import segno

    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=6, border=4, xmldecl=False)
    return out.getvalue()


def add_people_routes(app: FastAPI, hub: Hub, page: Any) -> None:
    """Add the routes to ``app``; ``page(name)`` reads a static page."""

    @app.get("/j/{table_id}", include_in_schema=False)
    async def invite_link(table_id: str) -> Response:
        # relative, so that it works under a path prefix too: /x/j/ID -> /x/invite#t=ID
        return Response(
            status_code=307, headers={"Location": f"../invite#t={quote(table_id, safe='')}"}
        )

    @app.get("/invite", include_in_schema=False)
    async def invite_page() -> HTMLResponse:
        return HTMLResponse(page("invite.html"))

    @app.get("/players", include_in_schema=False)
    async def players_page() -> HTMLResponse:
        return HTMLResponse(page("players.html"))

    @app.get(
        "/api/tables/{table_id}/qr.svg",
        response_class=Response,
        responses=answers(200, None, 400, 404, media="image/svg+xml"),
    )
    async def invite_qr(table_id: str, request: Request, seat: int | None = None) -> Response:
        """The table's invitation link (``?seat=N``: for that seat) as a QR code."""
        table = hub.get(table_id)
        if table is None:
            return _error(404, f"no table {table_id!r}")
        link = f"{str(request.base_url).rstrip('/')}/j/{table.id}"
        if seat is not None:
            if not 0 <= seat < table.game.players:
                return _error(400, f"no seat {seat}: seats are 0..{table.game.players - 1}")
            link += f"#s={seat}"
        return Response(
            qr_svg(link), media_type="image/svg+xml", headers={"Cache-Control": "max-age=3600"}
        )

    @app.post(
        "/api/me",
        responses=answers(200, MeAnswer, 400, 403, 413, 415),
        openapi_extra=body(MeRequest, "the player key"),
    )
    async def me(request: Request) -> JSONResponse:
        """Who a player key belongs to (the key stays in the body, out of addresses and
        logs): the public id, the latest name, and the unfinished tables of that
        identity with whose turn it is."""
        what = 'send {"key": KEY}: the player key this browser keeps'
        data = await json_object(request, what)
        if isinstance(data, JSONResponse):
            return data
        ident = player_id(data.get("key"))
        if ident is None:
            return _error(400, what)
        with hub.store.engine.connect() as conn:
            row = conn.execute(select(players_t.c.name).where(players_t.c.id == ident)).first()
            rows = list(
                conn.execute(
                    select(tables_t.c.id, tables_t.c.seats)
                    .where(tables_t.c.finished.is_(False))
                    .where(tables_t.c.seats.contains(ident))
                    .order_by(tables_t.c.updated.desc())
                    .limit(30)
                )
            )
        tables = []
        for row_t in rows:
            seats = [i for i, s in enumerate(json.loads(row_t.seats)) if s.get("player") == ident]
            table = hub.get(row_t.id) if seats else None
            if table is None or table.closed or table.state.is_terminal:
                continue
            tables.append(
                {
                    "id": table.id,
                    "game": table.game.id,
                    "seats": seats,
                    "turn": table.state.current_player in seats,
                    "n": table.n,
                }
            )
        return JSONResponse(
            {"player": ident, "name": row.name if row is not None else None, "tables": tables}
        )

    @app.get("/api/leaderboard/{game_id}", responses=answers(200, Leaderboard, 400, 404))
    async def game_leaderboard(game_id: str, limit: int = 50) -> JSONResponse:
        if not any(info.id == game_id for info in _games()):
            return _error(404, f"no game {game_id!r}")
        limit = max(1, min(limit, 200))
        return JSONResponse({"game": game_id, "players": leaderboard(hub.store, game_id, limit)})

    @app.get("/api/players/{player}", responses=answers(200, None, 404))
    async def player(player: str) -> JSONResponse:
        found = player_page(hub.store, player[:40])
        if found is None:
            return _error(404, f"no player {player!r}")
        return JSONResponse(found)


def _games() -> list[Any]:
    import xtarot

    return list(xtarot.games())
