"""A small reverse proxy for tests: serves a local xtarot server under a path prefix and
strips the prefix on the way in, as nginx's ``location /cards/ { proxy_pass
http://127.0.0.1:8000/; proxy_set_header Host $host; }`` does (docs/deploy.md).  HTTP
requests keep their Host header; websockets are relayed message by message."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
from typing import Any

import httpx
import uvicorn
import websockets
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

#: Response headers the proxy sets itself rather than copying.
HOP = {"content-length", "content-encoding", "transfer-encoding", "connection"}


class PrefixProxy:
    """``PrefixProxy("/cards", backend_port).start()``; ``base`` is its address."""

    def __init__(self, prefix: str, backend_port: int) -> None:
        self.prefix = prefix.rstrip("/")
        self.backend = f"127.0.0.1:{backend_port}"
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        self.base = f"http://127.0.0.1:{self.port}"
        methods = ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS"]
        app = Starlette(
            routes=[
                Route("/{rest:path}", self.http, methods=methods),
                WebSocketRoute("/{rest:path}", self.websocket),
            ]
        )
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> PrefixProxy:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the proxy did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    def _inner(self, path: str) -> str | None:
        if path == self.prefix:
            return "/"
        if path.startswith(self.prefix + "/"):
            return path[len(self.prefix) :]
        return None

    async def http(self, request: Request) -> Response:
        inner = self._inner(request.url.path)
        if inner is None:
            return PlainTextResponse(f"the proxy serves only {self.prefix}/", status_code=404)
        url = f"http://{self.backend}{inner}"
        if request.url.query:
            url += f"?{request.url.query}"
        async with httpx.AsyncClient() as client:
            answer = await client.request(
                request.method,
                url,
                content=await request.body(),
                headers=[(k, v) for k, v in request.headers.items() if k != "content-length"],
            )
        headers = {k: v for k, v in answer.headers.items() if k.lower() not in HOP}
        return Response(answer.content, answer.status_code, headers=headers)

    async def websocket(self, ws: WebSocket) -> None:
        inner = self._inner(ws.url.path)
        if inner is None:
            await ws.close(code=4404)
            return
        await ws.accept()
        async with websockets.connect(f"ws://{self.backend}{inner}") as upstream:

            async def down() -> None:
                async for message in upstream:
                    await ws.send_text(message if isinstance(message, str) else message.decode())

            relay = asyncio.get_running_loop().create_task(down())
            try:
                while True:
                    text: Any = await ws.receive_text()
                    await upstream.send(text)
            except (WebSocketDisconnect, websockets.ConnectionClosed):
                pass
            finally:
                relay.cancel()
                with contextlib.suppress(BaseException):
                    await relay
