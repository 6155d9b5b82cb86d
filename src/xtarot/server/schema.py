"""What the HTTP API's OpenAPI schema (``/openapi.json``, the ``/docs`` page) says about
its bodies and answers.

The handlers read and check their JSON bodies themselves, so that every refusal is one
``{"error": "..."}`` that says what was wrong (see :mod:`xtarot.server.app`); the models
here only *describe* those bodies and answers, for people writing clients and for the
schema-driven fuzzer (``tests/test_api_schema.py``), which checks every answer against
them.  Request bodies are declared with :func:`body`; answers with :func:`answers`.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from xtarot.server.table import MAX_CLOCK, MAX_SEED, MIN_CLOCK

__all__ = [
    "Claim",
    "Claimed",
    "ErrorBody",
    "GameList",
    "Leaderboard",
    "LearnTable",
    "MeAnswer",
    "MeRequest",
    "NewTable",
    "OpenTables",
    "Rules",
    "TableCreated",
    "TableSummary",
    "answers",
    "body",
]

#: A player key (kept by the browser; the server stores only a hash of it).
KEY_PATTERN = r"^[A-Za-z0-9_-]{16,64}$"


class ErrorBody(BaseModel):
    """Every refusal: what was wrong, in a sentence."""

    error: str


# -- request bodies ----------------------------------------------------------------------
class NewTable(BaseModel):
    """``POST /api/tables``."""

    model_config = ConfigDict(extra="allow")

    game: str = Field(description="a game id (GET /api/games)")
    players: int | None = Field(None, description="the number of players (default: seats)")
    seats: list[str] = Field(
        description="per seat: 'human' (a join link), 'open' (anyone may claim it) or a bot"
    )
    options: dict[str, Any] | None = Field(None, description="the game's options by name")
    seed: int | None = Field(None, ge=0, le=MAX_SEED - 1, description="the deals' seed")
    clock: int | None = Field(
        None, ge=MIN_CLOCK, le=MAX_CLOCK, description="seconds a human has per move"
    )
    listed: bool | None = Field(None, description="shown in the lobby (default: open seats)")
    player: str | None = Field(
        None, pattern=KEY_PATTERN, description="the creator's player key: the table's host"
    )


class LearnTable(BaseModel):
    """``POST /api/learn``."""

    model_config = ConfigDict(extra="allow")

    game: str = Field(description="a game with a guided first hand (GET /api/games: learn)")
    again: int = Field(0, ge=0, description="the how-many-th 'learn again' (another deal)")
    player: str | None = Field(None, pattern=KEY_PATTERN, description="the player key")


class Claim(BaseModel):
    """``POST /api/tables/{id}/claim``."""

    model_config = ConfigDict(extra="allow")

    seat: int = Field(description="the open seat to take (0-based)")


class MeRequest(BaseModel):
    """``POST /api/me``."""

    model_config = ConfigDict(extra="allow")

    key: str = Field(pattern=KEY_PATTERN, description="the player key this browser keeps")


# -- answers -------------------------------------------------------------------------------
class SeatLink(BaseModel):
    seat: int
    kind: str
    bot: str | None
    open: bool
    token: str | None = Field(None, description="a human seat's secret (shown once)")
    link: str | None = Field(None, description="a human seat's join link, with its token")


class TableCreated(BaseModel):
    id: str
    game: str
    players: int
    options: dict[str, Any]
    seats: list[SeatLink]
    spectator: str
    record: str
    clock: int | None
    listed: bool
    invite: str
    host: bool
    learn: bool


class Claimed(BaseModel):
    id: str
    seat: int
    token: str
    link: str


class SeatInfo(BaseModel):
    seat: int
    kind: str
    bot: str | None
    connected: bool
    open: bool
    free: bool
    autopilot: bool
    name: str | None
    player: str | None


class TableSummary(BaseModel):
    id: str
    game: str
    name_en: str
    name_ja: str
    players: int
    options: dict[str, Any]
    seats: list[SeatInfo]
    n: int
    hand: int
    finished: bool
    current_player: int | None
    clock: int | None
    listed: bool
    closed: bool
    results: list[Any]
    learn: bool


class OpenTables(BaseModel):
    tables: list[TableSummary]


class GameInfo(BaseModel):
    id: str
    name_en: str
    name_ja: str
    players: list[int]
    options: dict[str, Any]
    bots: list[str]
    default_bot: str
    learn: bool


class GameList(BaseModel):
    games: list[GameInfo]


class Rules(BaseModel):
    game: str
    lang: str
    html: str


class MyTable(BaseModel):
    id: str
    game: str
    seats: list[int]
    turn: bool
    n: int


class MeAnswer(BaseModel):
    player: str
    name: str | None
    tables: list[MyTable]


class Leaderboard(BaseModel):
    game: str
    players: list[dict[str, Any]]


def body(model: type[BaseModel] | None, description: str, **choices: list[Any]) -> dict[str, Any]:
    """``openapi_extra`` declaring a required JSON request body (``model``'s schema, or
    any JSON object); ``choices``: the values a field (or a list's items) may take on
    this server, e.g. its games."""
    schema = model.model_json_schema() if model is not None else {"type": "object"}
    schema.pop("title", None)
    for name, values in choices.items():
        field = schema["properties"][name]
        target = field["items"] if field.get("type") == "array" else field
        target["enum"] = list(values)
    return {
        "requestBody": {
            "required": True,
            "description": description,
            "content": {"application/json": {"schema": schema}},
        }
    }


#: What each refusal means, shared by every operation that may give it.
REFUSALS = {
    400: "the request is malformed (the error says what is wrong)",
    403: "not allowed: a request from another web site, or a wrong token",
    404: "no such table, game or player",
    409: "not now: the table's state does not allow it (the error says why)",
    413: "the body or the match is too large",
    415: "the body must be JSON (Content-Type: application/json)",
    429: "too many new tables from this address",
    503: "the database is unavailable for a moment: nothing changed; try again shortly",
}


def answers(ok: int, model: Any, *refusals: int, media: str | None = None) -> dict[Any, Any]:
    """``responses`` for a route: the success ``ok`` (``model``'s schema, or any JSON
    object for ``None``; ``media``: another media type) and the refusals it may give
    (and 503, the database away), each an :class:`ErrorBody`."""
    out: dict[Any, Any] = {}
    if media is not None:
        out[ok] = {"description": "OK", "content": {media: {}}}
    elif model is None:
        out[ok] = {
            "description": "OK",
            "content": {"application/json": {"schema": {"type": "object"}}},
        }
    else:
        out[ok] = {"description": "OK", "model": model}
    for status in sorted({503, *refusals}):
        out[status] = {"description": REFUSALS[status], "model": ErrorBody}
    return out
