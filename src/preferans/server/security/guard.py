"""The network's edge: which hosts the server answers for and which pages may send it work.

- **Host** (DNS rebinding): Starlette's ``TrustedHostMiddleware`` with the allowed hosts
  (``localhost``, ``127.0.0.1`` and ``::1`` unless configured: ``--allowed-host``, or
  ``PREFERANS_ALLOWED_HOSTS``, comma-separated); anything else is answered 400.
- **Origin** (another site's page acting with the player's cookie): a WebSocket handshake
  and every request that is not a plain read (POST, PUT, PATCH, DELETE) whose ``Origin``
  names another site than the server's own (the scheme and host it was reached at) or an
  allowed origin (``--allowed-origin``, ``PREFERANS_ALLOWED_ORIGINS``) is refused: 403 with
  the reason in the request's language, a socket closed before it opens (4403).  A request
  without ``Origin`` comes from no browser page (browsers send it on both) and goes on.
- **Forwarded addresses** (``X-Forwarded-For``, ``X-Forwarded-Proto``) are believed only
  from the reverse proxies the operator names (``--trusted-proxy``,
  ``PREFERANS_TRUSTED_PROXIES``); by default none, so a client cannot pass for another
  address to slip past the per-client bounds (:mod:`.limits`, :mod:`.connections`).
- **The public address** (``--public-url``, :mod:`.links`): its host is answered and its
  origin allowed as well (the app adds them to the lists above).

>>> same_site("http://127.0.0.1:8000", "http", "127.0.0.1:8000", ())
True
>>> same_site("http://evil.example", "http", "127.0.0.1:8000", ())
False
>>> same_site("null", "http", "localhost:8000", ())
False
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

from starlette.datastructures import Headers
from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from ..lang.language import request_language, say

DEFAULT_HOSTS = ("localhost", "127.0.0.1", "::1")
"""The hosts the server answers for unless told others (``--allowed-host``)."""
ENV_HOSTS = "PREFERANS_ALLOWED_HOSTS"
"""Environment variable: more allowed hosts, comma-separated (``*.example.org`` allowed)."""
ENV_ORIGINS = "PREFERANS_ALLOWED_ORIGINS"
"""Environment variable: more allowed origins (``https://preferans.example.org``)."""
ENV_PROXIES = "PREFERANS_TRUSTED_PROXIES"
"""Environment variable: the reverse proxies whose ``X-Forwarded-For`` is believed (their
addresses, comma-separated; ``--trusted-proxy``)."""
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def _listed(value: str | None) -> list[str]:
    return [item.strip() for item in (value or "").split(",") if item.strip()]


def allowed_hosts(given: Iterable[str] | None = None) -> list[str]:
    """The hosts to answer for: ``given`` (else the defaults) and the environment's."""
    hosts = list(given) if given else list(DEFAULT_HOSTS)
    return [*hosts, *_listed(os.environ.get(ENV_HOSTS))]


def allowed_origins(given: Iterable[str] | None = None) -> list[str]:
    """The origins allowed besides the server's own: ``given`` and the environment's."""
    return [o.rstrip("/").lower() for o in [*(given or ()), *_listed(os.environ.get(ENV_ORIGINS))]]


def trusted_proxy_list(given: Iterable[str] | None = None) -> list[str]:
    """The proxies whose forwarded addresses are believed: ``given`` and the environment's
    (none by default: the peer's own address is the client's, whatever it claims)."""
    return list(dict.fromkeys([*(given or ()), *_listed(os.environ.get(ENV_PROXIES))]))


def same_site(origin: str, scheme: str, host: str, allowed: Sequence[str]) -> bool:
    """Whether a request reached at ``scheme://host`` may come from a page of ``origin``."""
    origin = origin.strip().rstrip("/").lower()
    if origin in allowed:
        return True
    secure = scheme in ("https", "wss")
    own = f"{'https' if secure else 'http'}://{host.strip().lower()}"
    return origin == own


class OriginGuard:
    """ASGI middleware refusing WebSockets and writes sent by another site's page."""

    def __init__(self, app: ASGIApp, allowed: Sequence[str] = ()) -> None:
        self.app = app
        self.allowed = list(allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket") or (
                kind == "http" and scope.get("method", "GET") not in WRITES):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        origin = headers.get("origin")
        if origin is None or same_site(origin, scope.get("scheme", "http"),
                                       headers.get("host", ""), self.allowed):
            await self.app(scope, receive, send)
            return
        if kind == "websocket":
            await send({"type": "websocket.close", "code": 4403,
                        "reason": "cross-origin socket refused"})
            return
        lang = request_language(HTTPConnection(scope))
        response = JSONResponse({"detail": say("error.cross_origin", lang)}, status_code=403)
        await response(scope, receive, send)
