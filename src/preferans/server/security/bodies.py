"""A bound on every request's body, applied before the body is read.

Every JSON route takes a few hundred bytes (a new game's settings, a seat, a name); only the
review of an uploaded record takes more (:data:`UPLOAD_BODY`, 2 MB).  A body declared longer
than its route's bound (``Content-Length``) is answered 413 at once, unread; one sent without
a length (chunked) is counted as it arrives and answered 413 as soon as it passes the bound,
the route seeing the client gone.  Nothing larger than the bound is ever held in memory.

>>> bound_of("/api/review"), bound_of("/api/games"), bound_of("/api/friends/x/join")
(2000000, 65536, 65536)
"""

from __future__ import annotations

from collections.abc import Mapping

from starlette.datastructures import Headers
from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..lang.language import request_language, say

BODY_MOST = 64 * 1024
"""The longest body of any route but the upload's: a new game's house rules, the largest
JSON the pages send, are about 2 KB."""
UPLOAD_BODY = 2_000_000
"""The longest uploaded record (``POST /api/review``): 400 deals are about 700 KB."""
ROUTE_BOUNDS: Mapping[str, tuple[int, str]] = {
    "/api/review": (UPLOAD_BODY, "error.upload.too_large")}
"""Routes whose bodies may be longer than :data:`BODY_MOST`, and the words of their 413."""


def bound_of(path: str) -> int:
    """The longest body a request to ``path`` may send."""
    return ROUTE_BOUNDS.get(path.rstrip("/") or "/", (BODY_MOST, ""))[0]


def _too_large_key(path: str) -> str:
    return ROUTE_BOUNDS.get(path.rstrip("/") or "/", (BODY_MOST, "error.body_too_large"))[1]


class _TooLarge(Exception):
    """The body passed its bound while it was read."""


class BodyLimit:
    """ASGI middleware bounding each HTTP request's body (see the module docstring)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        most = bound_of(scope.get("path", ""))
        length = Headers(scope=scope).get("content-length")
        if length is not None:
            declared = int(length) if length.strip().isdigit() else None
            if declared is None or declared > most:
                await self._refuse(scope, receive, send, most)
                return
        received = 0
        started = False
        over = False

        async def counted() -> Message:
            nonlocal received, over
            if over:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > most:
                    over = True
                    raise _TooLarge
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            if over:
                return  # the 413 is said: the route's own answer goes nowhere
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except _TooLarge:
            pass
        except Exception:
            if not over:
                raise
        if over and not started:
            await self._refuse(scope, receive, send, most)

    @staticmethod
    async def _refuse(scope: Scope, receive: Receive, send: Send, most: int) -> None:
        said = say(_too_large_key(scope.get("path", "")),
                   request_language(HTTPConnection(scope)), most=f"{most:,}")
        response = JSONResponse({"detail": said, "message": said, "code": "body_too_large"},
                                status_code=413, headers={"Connection": "close"})
        await response(scope, receive, send)
