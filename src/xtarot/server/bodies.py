"""Request bodies and refusals, the same for every route.

Every refusal is ``{"error": "…"}`` with its status (:func:`error`); a JSON body is read
at most :data:`MAX_BODY` bytes far, never further (:func:`json_object`), so no route
can be made to hold a large upload in memory.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse

__all__ = ["MAX_BODY", "error", "json_object"]

#: Largest JSON body a route accepts unless it says otherwise (bytes).
MAX_BODY = 8192


def error(status: int, message: str) -> JSONResponse:
    """The refusal ``{"error": message}`` with HTTP ``status``."""
    return JSONResponse({"error": message}, status_code=status)


async def json_object(
    request: Request, what: str, *, limit: int = MAX_BODY
) -> dict[str, Any] | JSONResponse:
    """The request's JSON object body (at most ``limit`` bytes, not read further), or
    the refusal saying what was wrong: 413 when too large, 400 with ``what`` (what to
    send) when it is not a JSON object."""
    too_large = error(413, f"request too large (at most {limit} bytes)")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        return too_large
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return too_large
        chunks.append(chunk)
    body = b"".join(chunks)
    try:
        data = json.loads(body or b"null")
    except (json.JSONDecodeError, UnicodeDecodeError):
        return error(400, what)
    if not isinstance(data, dict):
        return error(400, what)
    return data
