"""The message bus between the server processes: Redis publish/subscribe (redis-py's asyncio
client), for several processes behind one address (:mod:`.cluster`).

Two channels per table, so one table's messages stay in order (Redis delivers a channel's
messages in the order one connection published them, and each process publishes a table's
messages one after the other): ``preferans:in:<game>`` carries what the processes holding a
socket of the table send its owner (a socket opened, a browser's message, a socket closed),
``preferans:out:<game>`` the owner's frames back to every process holding a socket of it.
A message is a JSON object; ``t`` is when it was published (seconds since 1970), from which
the receiver measures the bus's lag.

A lost connection to Redis is noticed by the reader (the next read fails), which connects
again with a growing pause (at most :data:`RECONNECT_MOST` seconds) and subscribes again to
every channel it had; then ``on_reconnect`` runs, so that the processes ask the owners for
the state again (what was published meanwhile is lost: the clients resume from the full
state).  A publish while Redis is down raises :class:`BusDown`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

import orjson

log = logging.getLogger("preferans.server")

PREFIX = "preferans:"
RECONNECT_LEAST = 0.1
RECONNECT_MOST = 2.0
"""The pauses between attempts to reach Redis again (doubling from the least)."""
LAG_WINDOW = 200
"""The messages the lag figures are taken over."""

Handler = Callable[[dict[str, Any]], None]


class BusDown(Exception):
    """Redis cannot be reached now (the message was not published)."""


def channel_in(game_id: str) -> str:
    """The channel of the messages for a table's owner.

    >>> channel_in("abc")
    'preferans:in:abc'
    """
    return f"{PREFIX}in:{game_id}"


def channel_out(game_id: str) -> str:
    """The channel of a table's frames, from its owner to every process holding a socket."""
    return f"{PREFIX}out:{game_id}"


class Bus:
    """One process's connection to the bus: ``publish``, ``subscribe``/``unsubscribe`` a
    channel with a handler (called on the event loop, in the order of the channel), and the
    figures of :meth:`stats`."""

    def __init__(self, url: str, on_reconnect: Callable[[], Awaitable[None]] | None = None
                 ) -> None:
        try:
            import redis.asyncio as aioredis
        except ImportError as exc:  # pragma: no cover - the extra is missing
            raise RuntimeError("--bus needs redis-py: pip install 'preferans[cluster]'") from exc
        self.url = url
        self._redis = aioredis.Redis.from_url(url, socket_connect_timeout=2,
                                              socket_keepalive=True, health_check_interval=5)
        self._handlers: dict[str, Handler] = {}
        self._pubsub: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._changed = asyncio.Event()
        self.on_reconnect = on_reconnect
        self.connected = False
        self.connected_since = 0.0
        """When (``time.monotonic``) the connection was last made."""
        self.published = 0
        self.received = 0
        self.reconnects = 0
        self.failed_publishes = 0
        self._lags: deque[float] = deque(maxlen=LAG_WINDOW)

    async def start(self) -> None:
        """Connect (raises :class:`BusDown` when Redis cannot be reached) and start reading."""
        try:
            await self._redis.ping()
        except Exception as exc:
            raise BusDown(f"Redis at {self.url} cannot be reached ({exc})") from exc
        self._pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        self.connected = True
        self.connected_since = time.monotonic()
        self._reader = asyncio.get_running_loop().create_task(self._read_forever())

    async def close(self) -> None:
        task, self._reader = self._reader, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            if self._pubsub is not None:
                await self._pubsub.aclose()
        with contextlib.suppress(Exception):
            await self._redis.aclose()

    async def publish(self, channel: str, message: dict[str, Any]) -> int:
        """Publish ``message`` (stamped with ``t``); the processes that received it (0: no
        process listens on that channel).  Raises :class:`BusDown`."""
        message["t"] = time.time()
        try:
            receivers = int(await self._redis.publish(channel, orjson.dumps(message)))
        except Exception as exc:
            self.failed_publishes += 1
            raise BusDown(str(exc)) from exc
        self.published += 1
        return receivers

    async def subscribe(self, channel: str, handler: Handler) -> None:
        """Call ``handler`` with every message of ``channel`` from now on."""
        first = channel not in self._handlers
        self._handlers[channel] = handler
        if first and self.connected:
            with contextlib.suppress(Exception):  # a lost connection subscribes it again
                await self._pubsub.subscribe(channel)
        self._changed.set()

    async def unsubscribe(self, channel: str) -> None:
        if self._handlers.pop(channel, None) is not None and self.connected:
            with contextlib.suppress(Exception):
                await self._pubsub.unsubscribe(channel)

    async def mark_alive(self, node: str, seconds: float) -> None:
        """Say that process ``node`` lives, for ``seconds`` (raises :class:`BusDown`)."""
        try:
            await self._redis.set(f"{PREFIX}node:{node}", b"1", px=int(seconds * 1000))
        except Exception as exc:
            raise BusDown(str(exc)) from exc

    async def alive(self, nodes: list[str]) -> set[str]:
        """The processes of ``nodes`` whose mark has not run out (raises :class:`BusDown`)."""
        if not nodes:
            return set()
        try:
            values = await self._redis.mget([f"{PREFIX}node:{node}" for node in nodes])
        except Exception as exc:
            raise BusDown(str(exc)) from exc
        return {node for node, value in zip(nodes, values, strict=True) if value is not None}

    def subscribed(self, channel: str) -> bool:
        return channel in self._handlers

    async def _read_forever(self) -> None:
        pause = RECONNECT_LEAST
        while True:
            if not self.connected:  # lost: try again, pausing longer each time
                await asyncio.sleep(pause)
                pause = min(pause * 2, RECONNECT_MOST)
                await self._reconnect()
                continue
            try:
                if not self._pubsub.subscribed:
                    self._changed.clear()
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(self._changed.wait(), 1.0)
                    if not self._pubsub.subscribed:
                        await self._redis.ping()  # nothing to read: notice a lost Redis
                        continue
                message = await self._pubsub.get_message(timeout=1.0)
                pause = RECONNECT_LEAST
                if message is None or message.get("type") != "message":
                    continue
                self._deliver(message)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self.connected:
                    log.warning("the bus (Redis at %s) is lost: %s", self.url, exc)
                self.connected = False

    async def _reconnect(self) -> None:
        """Connect again and subscribe to every channel again; then ``on_reconnect``."""
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()
        self._pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        try:
            await self._redis.ping()
            if self._handlers:
                await self._pubsub.subscribe(*self._handlers)
        except Exception:
            return  # still down: the reader tries again
        self.connected = True
        self.connected_since = time.monotonic()
        self.reconnects += 1
        log.warning("the bus (Redis at %s) is back: %d channels subscribed again", self.url,
                    len(self._handlers))
        if self.on_reconnect is not None:
            try:
                await self.on_reconnect()
            except Exception:
                log.exception("resuming after the bus came back failed")

    def _deliver(self, message: dict[str, Any]) -> None:
        channel = message["channel"]
        if isinstance(channel, bytes):
            channel = channel.decode()
        handler = self._handlers.get(channel)
        if handler is None:
            return
        try:
            data = orjson.loads(message["data"])
        except orjson.JSONDecodeError:
            return
        self.received += 1
        sent = data.get("t")
        if isinstance(sent, float | int):
            self._lags.append(max(0.0, time.time() - float(sent)))
        try:
            handler(data)
        except Exception:
            log.exception("a bus message on %s failed", channel)

    def stats(self) -> dict[str, Any]:
        """The status page's figures: connected, channels, messages, reconnects, and the lag
        (ms: the last, the median and the 95th percentile of the last messages)."""
        lags = sorted(self._lags)

        def at(q: float) -> float | None:
            return round(lags[min(len(lags) - 1, int(q * len(lags)))] * 1000, 2) if lags \
                else None

        return {"connected": self.connected, "channels": len(self._handlers),
                "published": self.published, "received": self.received,
                "failed_publishes": self.failed_publishes, "reconnects": self.reconnects,
                "lag_ms": {"last": round(self._lags[-1] * 1000, 2) if self._lags else None,
                           "p50": at(0.5), "p95": at(0.95)}}
