"""Per-client bounds on what the network may ask of the server: how many uploads a client
runs at once, how many sockets a table and a client hold, how many messages a socket sends
a second.  Each answers at once (allowed or not) and never waits, so a client over its
bound is told so while every other table goes on.

>>> slots = Slots(per_key=1, total=2)
>>> slots.take("1.2.3.4"), slots.take("1.2.3.4"), slots.take("5.6.7.8")
(True, False, True)
>>> slots.give("1.2.3.4"); slots.take("1.2.3.4")
True
>>> bucket = Bucket(rate=2.0, burst=2, clock=iter([0.0, 0.0, 0.0, 0.0, 1.0]).__next__)
>>> [bucket.allow() for _ in range(4)]
[True, True, False, True]
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse

from ..lang.language import request_language, say

UPLOADS_PER_CLIENT = 2
"""Uploaded records one client may have reviewed at once."""
UPLOADS_AT_ONCE = 2
"""Uploaded records the whole server reviews at once (each takes a core while it runs)."""
SOCKETS_PER_TABLE = 8
"""Open sockets of one table (a player's tabs and devices; a few spectators later)."""
SOCKETS_PER_CLIENT = 32
"""Open sockets of one client address, over every table."""
MESSAGES_PER_SECOND = 10.0
"""The rate of messages a socket may keep up (a player clicks a few times a second)."""
MESSAGE_BURST = 20
"""Messages a socket may send at once above that rate."""
FLOOD_CLOSE = 100
"""Messages dropped in a row after which a flooding socket is closed (4429): its reader
would otherwise still cost the server time on every frame."""
ENV_MESSAGE_RATE = "PREFERANS_MESSAGE_RATE"
"""Environment variable: another rate (messages a second per socket, the burst twice it),
for test and load-test servers whose scripted clients answer faster than people."""


def _configured(name: str, default: float) -> tuple[float, bool]:
    """The positive number the environment variable ``name`` gives, and True; else
    ``default`` and whether one was given at all."""
    configured = os.environ.get(name, "").strip()
    try:
        value = float(configured) if configured else default
    except ValueError:
        value = default
    return (value if value > 0 else default), bool(configured)


def message_rate() -> tuple[float, int]:
    """The rate and burst of a socket's messages: the defaults, or ``PREFERANS_MESSAGE_RATE``."""
    rate, configured = _configured(ENV_MESSAGE_RATE, MESSAGES_PER_SECOND)
    return rate, MESSAGE_BURST if not configured else max(MESSAGE_BURST, int(rate * 2))


CREATIONS_PER_MINUTE = 20.0
"""Games and tables for friends a client may create a minute, on average (a player starts
one every few minutes; a rematch, a change of mind: a few more)."""
CREATIONS_BURST = 20
"""Games and tables a client may create at once above that rate."""
ENV_CREATION_RATE = "PREFERANS_CREATION_RATE"
"""Environment variable: another rate of creations (a minute per client, the burst as
many), for test and load-test servers that start many tables from one address."""


def creation_rate() -> tuple[float, int]:
    """The rate (a second) and burst of a client's new games and tables: the defaults, or
    ``PREFERANS_CREATION_RATE`` a minute."""
    per_minute, configured = _configured(ENV_CREATION_RATE, CREATIONS_PER_MINUTE)
    burst = CREATIONS_BURST if not configured else max(CREATIONS_BURST, int(per_minute))
    return per_minute / 60.0, burst


OPENINGS_PER_SECOND = 5.0
"""Sockets a client may open a second, on average (a reload, a few tabs: far fewer)."""
OPENINGS_BURST = 30
"""Sockets a client may open at once above that rate."""
CLIENTS_KEPT = 10_000
"""Clients whose openings are remembered at most (the longest idle are forgotten first)."""


class Openings:
    """How fast each client does one thing (opens sockets, creates games): a
    :class:`Bucket` per client address, the longest idle forgotten first."""

    def __init__(self, rate: float = OPENINGS_PER_SECOND, burst: int = OPENINGS_BURST,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self._buckets: dict[str, Bucket] = {}
        self._lock = threading.Lock()  # the routes that create games run in worker threads

    def allow(self, client: str) -> bool:
        """Whether ``client`` may do it once more now (it is counted if so)."""
        with self._lock:
            bucket = self._buckets.pop(client, None)
            if bucket is None:
                bucket = Bucket(self.rate, self.burst, self.clock)
            self._buckets[client] = bucket  # the most recent last
            while len(self._buckets) > CLIENTS_KEPT:
                del self._buckets[next(iter(self._buckets))]
            return bucket.allow()

    def retry_after(self) -> int:
        """Whole seconds until a client over its bound may try again (one more allowed)."""
        return max(1, math.ceil(1.0 / self.rate))


def creation_refused(request: HTTPConnection) -> JSONResponse | None:
    """429 with the reason in the client's language when it has created games or tables
    faster than :data:`CREATIONS_PER_MINUTE` (after a burst of :data:`CREATIONS_BURST`),
    else None (and the creation is counted).  The app keeps the bounds as
    ``app.state.creations``."""
    creations: Openings = request.app.state.creations
    if creations.allow(client_key(request)):
        return None
    wait = creations.retry_after()
    said = say("error.too_many_games", request_language(request), seconds=wait)
    return JSONResponse({"detail": said, "message": said, "code": "too_many_games"},
                        status_code=429, headers={"Retry-After": str(wait)})


def client_key(conn: HTTPConnection) -> str:
    """Who a request or socket comes from, for the per-client bounds: its address."""
    return conn.client.host if conn.client is not None else "unknown"


@dataclass
class Slots:
    """Counted slots per key and in all (``total`` None: no bound in all): :meth:`take` one
    (False when either is full), :meth:`give` it back."""

    per_key: int
    total: int | None = None
    held: dict[str, int] = field(default_factory=dict)
    count: int = 0

    def take(self, key: str) -> bool:
        if self.held.get(key, 0) >= self.per_key or (
                self.total is not None and self.count >= self.total):
            return False
        self.held[key] = self.held.get(key, 0) + 1
        self.count += 1
        return True

    def give(self, key: str) -> None:
        left = self.held.get(key, 0) - 1
        if left < 0:
            return
        self.count -= 1
        if left > 0:
            self.held[key] = left
        else:
            self.held.pop(key, None)


@dataclass
class Bucket:
    """A token bucket: ``rate`` messages a second on average, ``burst`` at once."""

    rate: float = MESSAGES_PER_SECOND
    burst: int = MESSAGE_BURST
    clock: Callable[[], float] = time.monotonic
    tokens: float = field(init=False)
    last: float = field(init=False)

    def __post_init__(self) -> None:
        self.tokens = float(self.burst)
        self.last = self.clock()

    def allow(self) -> bool:
        """Whether one more message may go through now (it is counted if so)."""
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False
