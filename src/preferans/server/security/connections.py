"""Bounds on the connections themselves, below the app: how long a request may take to send
its headers and its body, and how many connections one client and the whole process hold.

uvicorn answers a slow request with no timeout of its own (its keep-alive timeout starts
only after a first response), so a client that opens connections and never finishes their
headers ("slow-loris") holds them for ever; with the common limit of 1,024 open files,
1,100 of them stopped every new page and socket.  These bounds are uvicorn's own protocol
classes (its ``http=`` and ``ws=`` options) with three additions:

- **Headers** must be complete :data:`HEADER_SECONDS` after the connection opens (or after
  the previous response on a kept-alive connection); **a body** must be complete
  :data:`BODY_SECONDS` after its headers.  Past that the connection is closed (a 408 when
  nothing was answered yet).
- **Per client**: at most :data:`CONNECTIONS_PER_CLIENT` open connections (HTTP and
  WebSockets) from one address; a trusted proxy's own address (``--trusted-proxy``: Caddy
  in front, with bounds of its own) is not bounded.  **In all**: what the process's open
  files allow, less :data:`FILES_KEPT` for the database, the workers' pipes and the logs.
  A connection over either bound is closed as soon as it opens, before any work.
- What was refused or timed out is logged, at most once every :data:`LOG_EVERY` seconds
  with the counts since.

:func:`raise_open_files` lifts the process's soft limit on open files to the hard one at
start (1,024 by default on most systems, the hard limit often 500 times that).

>>> bounds = ConnectionBounds(per_client=2, total=3, trusted=["10.0.0.1"])
>>> [bounds.admit("1.2.3.4") for _ in range(3)], bounds.admit("10.0.0.1")
([True, True, False], True)
>>> bounds.admit("5.6.7.8"), bounds.admit("10.0.0.1")    # three in all
(False, False)
>>> bounds.release("1.2.3.4"); bounds.admit("5.6.7.8")
True
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import resource
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol

log = logging.getLogger("preferans.server")

HEADER_SECONDS = 10.0
"""Seconds a request may take to send its request line and headers (a phone on a poor line
sends them in well under one)."""
BODY_SECONDS = 60.0
"""Seconds a request may take to send its body once its headers are in (the largest body,
an uploaded record of 2 MB, needs 33 KB/s)."""
CONNECTIONS_PER_CLIENT = 100
"""Open connections of one client address: a browser keeps about six to a server and one
per table's socket; a household behind one address, several of them."""
FILES_KEPT = 128
"""Open files kept out of the connections' bound: the database, the thinking processes'
pipes, the logs, the listening sockets."""
MOST_CONNECTIONS = 65_536
"""The bound in all never goes above this, whatever the open-file limit."""
LOG_EVERY = 10.0
"""Seconds between two log lines about refused or timed-out connections."""


def raise_open_files() -> int:
    """Lift this process's soft limit of open files to its hard limit; the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError) as exc:
            log.warning("the open-file limit stays at %d (%s)", soft, exc)
    return soft if soft != resource.RLIM_INFINITY else MOST_CONNECTIONS + FILES_KEPT


class _Tally:
    """Counts of refused and timed-out connections, logged now and then (never a line per
    connection: a flood must not flood the log too)."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.clients: Counter[str] = Counter()
        self.last = 0.0

    def note(self, what: str, client: str) -> None:
        self.counts[what] += 1
        self.clients[client] += 1
        now = time.monotonic()
        if now - self.last >= LOG_EVERY:
            self.last = now
            top = ", ".join(f"{c} ({n})" for c, n in self.clients.most_common(3))
            log.warning("connections refused or closed in the last %g s: %s; most from %s",
                        LOG_EVERY, ", ".join(f"{n} {w}" for w, n in self.counts.items()), top)
            self.counts.clear()
            self.clients.clear()


class ConnectionBounds:
    """The open connections per client address and in all (see the module docstring)."""

    def __init__(self, per_client: int = CONNECTIONS_PER_CLIENT, total: int | None = None,
                 trusted: Sequence[str] = ()) -> None:
        self.per_client = per_client
        self.total = total if total is not None else MOST_CONNECTIONS
        self.trusted = [ipaddress.ip_network(t, strict=False) for t in trusted if t != "*"]
        self.trust_all = "*" in trusted
        self.held: Counter[str] = Counter()
        self.count = 0
        self.tally = _Tally()

    def admit(self, client: str) -> bool:
        """Count one more connection of ``client``, or False (not counted) over a bound."""
        if self.count >= self.total:
            self.tally.note("over the bound in all", client)
            return False
        if self.held[client] >= self.per_client and not self.is_trusted(client):
            self.tally.note("over a client's bound", client)
            return False
        self.held[client] += 1
        self.count += 1
        return True

    def is_trusted(self, client: str) -> bool:
        """Whether ``client`` is a trusted proxy (its connections are many people's)."""
        if self.trust_all:
            return True
        try:
            address = ipaddress.ip_address(client)
        except ValueError:
            return False
        return any(address in network for network in self.trusted)

    def release(self, client: str) -> None:
        if self.held[client] <= 0:
            return
        self.held[client] -= 1
        if not self.held[client]:
            del self.held[client]
        self.count -= 1


def _peer(transport: asyncio.BaseTransport) -> str:
    peer = transport.get_extra_info("peername")
    if isinstance(peer, tuple) and peer:
        return str(peer[0])
    return "unix" if peer is not None else "unknown"


def guarded_protocols(bounds: ConnectionBounds, header_seconds: float = HEADER_SECONDS,
                      body_seconds: float = BODY_SECONDS) -> tuple[type, type]:
    """uvicorn's HTTP and WebSocket protocol classes with ``bounds`` and the timeouts: pass
    them as ``uvicorn.Config(http=..., ws=...)``."""

    class GuardedHttp(HttpToolsProtocol):  # type: ignore[misc]
        """HTTP/1.1 with a deadline for the headers and one for the body."""

        _peer_host: str | None = None
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            host = _peer(transport)
            if not bounds.admit(host):
                self.transport = transport
                transport.abort()  # before any work: no parser, no task
                return
            self._peer_host = host
            super().connection_made(transport)
            self._arm(header_seconds, "its headers did not arrive in time")

        def connection_lost(self, exc: Exception | None) -> None:
            if self._peer_host is None:  # refused at once
                return
            self._disarm()
            bounds.release(self._peer_host)
            self._peer_host = None
            super().connection_lost(exc)

        def _arm(self, seconds: float, why: str) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(seconds, self._expired, why)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expired(self, why: str) -> None:
            self._deadline = None
            if self.transport is None or self.transport.is_closing():
                return
            bounds.tally.note("too slow", self._peer_host or "unknown")
            if self.cycle is None or self.cycle.response_complete:
                self.transport.write(b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\n"
                                     b"connection: close\r\n\r\n")
            self.transport.close()
            log.debug("a connection from %s closed: %s", self._peer_host, why)

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()
            if self.parser is None or (self.parser.should_upgrade() and self._should_upgrade()):
                return
            headers = dict(self.headers or ())
            length = headers.get(b"content-length", b"0").strip()
            chunked = b"chunked" in headers.get(b"transfer-encoding", b"").lower()
            if chunked or (length.isdigit() and int(length) > 0):
                self._arm(body_seconds, "its body did not arrive in time")

        def on_message_complete(self) -> None:
            self._disarm()
            super().on_message_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():  # the next request's headers, in time too
                self._arm(header_seconds, "its headers did not arrive in time")

        def handle_websocket_upgrade(self) -> None:
            self._disarm()
            self._peer_host = None  # the socket's protocol holds the count from now on
            super().handle_websocket_upgrade()

    base: Any = AutoWebSocketsProtocol

    class GuardedSocket(base):  # type: ignore[misc, valid-type]
        """A WebSocket that gives its client's count back when it closes."""

        _peer_host: str | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            self._peer_host = _peer(transport)  # counted when it opened as HTTP
            super().connection_made(transport)

        def connection_lost(self, exc: Exception | None) -> None:
            if self._peer_host is not None:
                bounds.release(self._peer_host)
                self._peer_host = None
            super().connection_lost(exc)

    return GuardedHttp, GuardedSocket


def uvicorn_options(trusted_proxies: Iterable[str] = ()) -> dict[str, Any]:
    """The options of ``uvicorn.Config`` that bound connections and believe forwarded
    addresses only from ``trusted_proxies`` (none: the peer's own address counts, and a
    client's ``X-Forwarded-For`` is ignored).  Raises the open-file limit first."""
    trusted = [p for p in trusted_proxies if p]
    files = raise_open_files()
    bounds = ConnectionBounds(total=max(64, min(MOST_CONNECTIONS, files - FILES_KEPT)),
                              trusted=trusted)
    http, ws = guarded_protocols(bounds)
    return {"http": http, "ws": ws, "proxy_headers": bool(trusted),
            "forwarded_allow_ips": trusted or None, "timeout_keep_alive": 5}
