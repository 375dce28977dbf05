"""Several server processes behind one address: each table has one owner, the others pass
its sockets' messages on (issue 37).

With ``--bus`` (and a database every process shares, PostgreSQL), a table belongs to the
one process holding its lease in the store (:meth:`GameStore.acquire`: owner, epoch,
expiry).  The owner alone plays the table: it serialises its moves, saves each with its
epoch (the database refuses the save once the epoch has moved on: fencing) and renews its
leases every :data:`RENEW_EVERY` of the lease time.  A socket may land on any process:

- on the owner, it joins the table as in one process;
- on a process that does not own the table, a :class:`Link` passes the browser's messages
  to the owner over the bus (``preferans:in:<game>``) and the owner's frames come back on
  ``preferans:out:<game>`` to every process holding a socket of the table, in order; on
  the owner the socket is a :class:`RemoteSocket`, which the table treats as any other;
- nobody holds the lease, or its holder's lease ran out (the process died, or let the table
  go): the process takes the lease (a new epoch) and restores the table from the store.

An owner that dies (``kill -9``) renews nothing: its leases run out after the lease time
(:data:`LEASE_SECONDS`), the processes holding sockets of its tables notice (they look at
the leases of those tables every :data:`.watch.WATCH_EVERY` seconds, and at once when a message
finds nobody listening) and one of them takes each table over; its sockets get the
table's state from the new owner.  An owner whose lease was taken over (it stalled past
the lease time) learns it at its next renewal or save (refused), lets the table go, and its
sockets reconnect to the new owner.  The frames published while Redis is away are lost:
once it is back, every process asks the owners for the state of its sockets again.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import secrets
import socket as socketlib
import time
from collections.abc import Awaitable, Callable
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, Protocol

import anyio.to_thread
from starlette.websockets import WebSocket, WebSocketState

from ..lang.language import say, socket_language
from ..security.limits import SOCKETS_PER_TABLE
from ..store.fastjson import dumps
from ..store.faults import StoreError
from ..store.games import GameStore
from ..store.leases import Lease
from ..table.spectators import SPECTATOR
from .bus import Bus, BusDown, channel_in, channel_out
from .watch import LeaseWatch

if TYPE_CHECKING:
    from ..store.saved import SavedGame
    from ..table.table import Table

log = logging.getLogger("preferans.server")

LEASE_SECONDS = 5.0
"""How long a lease lasts unless renewed: a dead owner's tables go on elsewhere after it."""
RENEW_EVERY = 1 / 3
"""The owner renews its leases every third of the lease time."""
MOVED = 1012
"""The close code of a socket whose table moved to another process (the page reconnects)."""
SEQ_STRIDE = 1 << 20
"""A table taken over counts its frames (``seq``) from ``epoch * SEQ_STRIDE``: its frames'
numbers go on growing across owners, so a page never takes a new frame for an old one."""
DEMOTED = 0
"""Not a close: the frame that tells a socket's holder its seat moved to another browser
(the socket watches from then on: :meth:`..table.friends.TableFriends.seats_changed`)."""


class OpenTables(Protocol):
    """What the cluster needs of this process's open tables (:class:`..table.tables.Tables`
    gives it): the tables open here, a table restored from the store, and a word when an
    idle table leaves memory."""

    open: dict[str, Table]
    on_close: list[Callable[[str], Awaitable[None]]]

    async def load(self, game_id: str, saved: SavedGame | None = None) -> Table | None: ...


def node_name() -> str:
    """This process's name in the leases: host, pid and a random part (a restarted process
    is a new owner)."""
    return f"{socketlib.gethostname()[:30]}:{os.getpid()}:{secrets.token_hex(3)}"


class RemoteSocket:
    """On the owner, a socket held by another process: what the table sends it goes over the
    bus (batched per table and loop iteration, in order)."""

    def __init__(self, cluster: Cluster, game_id: str, sid: str, lang: str) -> None:
        self.cluster = cluster
        self.game_id = game_id
        self.sid = sid
        self.state = SimpleNamespace(lang=lang)
        self.application_state = WebSocketState.CONNECTED

    async def send_text(self, text: str) -> None:
        if self.application_state is not WebSocketState.CONNECTED:
            raise RuntimeError("the remote socket is closed")
        self.cluster.outbox(self.game_id).put(self.sid, text)

    async def send_json(self, payload: Any) -> None:
        import json

        await self.send_text(json.dumps(payload))

    async def close(self, code: int = 1000) -> None:
        self.application_state = WebSocketState.DISCONNECTED
        self.cluster.outbox(self.game_id).close(self.sid, code)

    def demoted(self) -> None:
        """The seat of this socket moved to another browser: its holder opens it again as
        a spectator's (after a lost bus, a restart of the owner)."""
        self.cluster.outbox(self.game_id).close(self.sid, DEMOTED)


class Outbox:
    """A table's frames for other processes, published in order: the frames of one loop
    iteration go as one message."""

    def __init__(self, bus: Bus, game_id: str) -> None:
        self.bus = bus
        self.channel = channel_out(game_id)
        self._frames: list[list[Any]] = []
        self._wake = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._send_forever())
        self.sent = 0

    def put(self, sid: str, text: str) -> None:
        self._frames.append([sid, text])
        self._wake.set()

    def close(self, sid: str, code: int) -> None:
        self._frames.append([sid, None, code])
        self._wake.set()

    def moved(self) -> None:
        self._frames.append(["*", None, MOVED])
        self._wake.set()

    async def _send_forever(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            frames, self._frames = self._frames, []
            if not frames:
                continue
            try:
                await self.bus.publish(self.channel, {"f": frames})
                self.sent += len(frames)
            except BusDown as exc:  # the holders ask for the state again once it is back
                log.warning("frames of %s lost: the bus is down (%s)", self.channel, exc)

    async def stop(self) -> None:
        await asyncio.sleep(0)  # what was put in this iteration still goes
        if self._frames:
            frames, self._frames = self._frames, []
            with contextlib.suppress(BusDown):
                await self.bus.publish(self.channel, {"f": frames})
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task


class Link:
    """A browser's socket on this process, at a table played here or elsewhere."""

    _numbers = itertools.count(1)

    def __init__(self, cluster: Cluster, socket: WebSocket, game_id: str, seat: int) -> None:
        self.cluster = cluster
        self.socket = socket
        self.game_id = game_id
        self.seat = seat
        self.sid = f"{cluster.node}/{next(self._numbers)}"
        self.table: Table | None = None
        """The table when this process owns it; None: forwarded to the owner."""
        self.pending: list[str] = []
        """Messages that found no owner listening: sent once the table has one again."""
        self._out: asyncio.Queue[tuple[str | None, int]] = asyncio.Queue()
        self._writer = asyncio.get_running_loop().create_task(self._write_forever())
        self.closed = False

    async def _write_forever(self) -> None:
        while True:
            text, code = await self._out.get()
            try:
                if text is None:
                    await self.socket.close(code=code)
                    return
                await self.socket.send_text(text)
            except Exception:
                return

    def deliver(self, text: str | None, code: int = 1000) -> None:
        """A frame of the owner for this socket (None: close it with ``code``)."""
        self._out.put_nowait((text, code))

    async def open(self) -> None:
        """Join the table: here if this process owns it (or takes it now), else through the
        owner."""
        table = await self.cluster.route(self.game_id)
        if table is not None:
            await self.go_local(table)
        else:
            await self.go_remote()

    async def go_local(self, table: Table) -> None:
        self.table = table
        while not self._out.empty():  # the old owner's last frames: the state below is newer
            self._out.get_nowait()
        if getattr(self.socket.state, "demoted", False):  # its seat moved meanwhile
            self.seat = SPECTATOR
        await table.connect(self.socket, self.seat)
        pending, self.pending = self.pending, []
        for text in pending:
            await table.receive(self.socket, text)

    async def go_remote(self) -> None:
        self.table = None
        await self.ask_owner()

    async def ask_owner(self) -> None:
        """Ask the owner for the table's state on this socket (its frames follow)."""
        await self._to_owner({"op": "open", "sid": self.sid, "seat": self.seat,
                              "lang": socket_language(self.socket)})

    async def resend(self, refresh: bool = False) -> bool:
        """Ask the owner again, and send it what found nobody; whether it was heard.  With
        ``refresh`` (the bus came back: frames may be lost) the owner sends the table's state
        again; without, an owner that knows this socket already sent it its state, and a
        second one would show a move in flight as not yet made."""
        if not await self._quiet_to_owner({"op": "open", "sid": self.sid, "seat": self.seat,
                                           "lang": socket_language(self.socket),
                                           "refresh": refresh}):
            return False
        pending, self.pending = self.pending, []
        for text in pending:
            if not await self._quiet_to_owner({"op": "msg", "sid": self.sid, "text": text}):
                self.pending.append(text)
        return True

    async def _quiet_to_owner(self, message: dict[str, Any]) -> bool:
        try:
            return await self.cluster.bus.publish(channel_in(self.game_id), message) > 0
        except BusDown:
            return False

    async def receive(self, text: str) -> None:
        if self.table is not None:
            await self.table.receive(self.socket, text)
            return
        if self.pending:  # behind the ones still waiting for an owner
            self.pending.append(text)
            self.cluster.look_soon(self.game_id)
            return
        if not await self._to_owner({"op": "msg", "sid": self.sid, "text": text}):
            self.pending.append(text)

    async def _to_owner(self, message: dict[str, Any]) -> bool:
        """Publish to the owner; False (and the lease looked at at once) when no process
        listens for the table or the bus is down."""
        try:
            heard = await self.cluster.bus.publish(channel_in(self.game_id), message)
        except BusDown:
            return False
        if heard == 0:
            self.cluster.look_soon(self.game_id)
            return False
        return True

    async def close(self) -> None:
        self.closed = True
        if self.table is not None:
            self.table.disconnect(self.socket)
        else:
            with contextlib.suppress(BusDown):
                await self.cluster.bus.publish(channel_in(self.game_id),
                                               {"op": "close", "sid": self.sid})
        self._writer.cancel()


class Cluster(LeaseWatch):
    """This process's part of the cluster: the tables it owns (their leases, renewed), the
    sockets of other owners' tables it holds (:class:`Link`), the bus."""

    def __init__(self, store: GameStore, bus_url: str, tables: OpenTables,
                 lease_seconds: float = LEASE_SECONDS, node: str | None = None) -> None:
        self.store = store
        self.tables = tables
        self.node = node or node_name()
        self.lease_seconds = lease_seconds
        self.bus = Bus(bus_url, on_reconnect=self._resume)
        self.owned: dict[str, Lease] = {}
        self.links: dict[str, dict[str, Link]] = {}
        """Game -> this process's sockets of it (played here or forwarded)."""
        self.remotes: dict[str, dict[str, RemoteSocket]] = {}
        """Game owned here -> the sockets other processes hold of it."""
        self._outboxes: dict[str, Outbox] = {}
        self._inbound: dict[tuple[str, str], asyncio.Task[None]] = {}
        self._taking: dict[str, asyncio.Lock] = {}
        self._looking: set[str] = set()
        self._tasks: list[asyncio.Task[None]] = []
        self._missing: dict[str, int] = {}
        """Process -> how many heartbeats in a row its mark was missing."""
        self.holders_lost = 0
        self.renewals = 0
        self.renewal_failures = 0
        self.takeovers = 0
        self.lost = 0
        self.forwarded = 0

    # --- life --------------------------------------------------------------------------------
    async def start(self) -> None:
        await self.bus.start()
        with contextlib.suppress(BusDown):
            await self.bus.mark_alive(self.node, self.lease_seconds * 2)
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._renew_forever()),
                       loop.create_task(self._watch_forever())]
        self.tables.on_close.append(self._closed)

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for game_id in list(self.owned):
            lease = self.owned.pop(game_id)
            with contextlib.suppress(Exception):
                await self.store.write(self.store.release, game_id, self.node, lease.epoch)
        for outbox in list(self._outboxes.values()):
            await outbox.stop()
        await self.bus.close()

    @property
    def ttl_ms(self) -> int:
        return int(self.lease_seconds * 1000)

    # --- owning ------------------------------------------------------------------------------
    async def route(self, game_id: str) -> Table | None:
        """The table if this process owns it now (taking the lease when it is free or ran
        out, and restoring the table from the store); None when another process owns it."""
        table = self.tables.open.get(game_id)
        if table is not None and game_id in self.owned:
            return table
        lock = self._taking.setdefault(game_id, asyncio.Lock())
        async with lock:
            table = self.tables.open.get(game_id)
            if table is not None and game_id in self.owned:
                return table
            started = time.monotonic()  # the lease runs from before it was asked for
            lease = await anyio.to_thread.run_sync(self.store.acquire, game_id, self.node,
                                                   self.ttl_ms)
            if lease.owner != self.node:
                return None
            try:
                table = await self.tables.load(game_id)  # read after the lease: the last save
            except Exception:
                with contextlib.suppress(Exception):
                    await self.store.write(self.store.release, game_id, self.node, lease.epoch)
                raise
            if table is None:
                return None
            self.own(table, lease, started)
            if lease.epoch > 1:
                self.takeovers += 1
            await self.bus.subscribe(channel_in(game_id),
                                     lambda message: self._inbox(game_id, message))
            return table

    def own(self, table: Table, lease: Lease, since: float) -> None:
        self.owned[table.id] = lease
        table.epoch = lease.epoch
        table.lease_until = since + self.lease_seconds * 0.9
        table.seq = max(table.seq, lease.epoch * SEQ_STRIDE)
        table.on_fenced = lambda: asyncio.get_running_loop().create_task(
            self.let_go(table.id, "its save was refused (fenced)"))

    async def let_go(self, game_id: str, why: str) -> None:
        """The lease is lost (taken over): stop playing the table here; its sockets here ask
        the new owner, those elsewhere are told to ask again."""
        if self.owned.pop(game_id, None) is None:
            return
        self.lost += 1
        log.warning("table %s: %s; it is played elsewhere now", game_id, why)
        table = self.tables.open.pop(game_id, None)
        await self.bus.unsubscribe(channel_in(game_id))
        for remote in self.remotes.pop(game_id, {}).values():
            remote.application_state = WebSocketState.DISCONNECTED
        outbox = self._outboxes.pop(game_id, None)
        if outbox is not None:
            outbox.moved()
            await outbox.stop()
        if table is not None:
            await table.stop()
            for link in list(self.links.get(game_id, {}).values()):
                table.disconnect(link.socket)
        for link in list(self.links.get(game_id, {}).values()):
            await link.open()

    async def _closed(self, game_id: str) -> None:
        """An idle table left memory: its lease is given up."""
        lease = self.owned.pop(game_id, None)
        await self.bus.unsubscribe(channel_in(game_id))
        self.remotes.pop(game_id, None)
        outbox = self._outboxes.pop(game_id, None)
        if outbox is not None:
            await outbox.stop()
        if lease is not None:
            with contextlib.suppress(StoreError):
                await self.store.write(self.store.release, game_id, self.node, lease.epoch)

    async def _renew_forever(self) -> None:
        while True:
            await asyncio.sleep(self.lease_seconds * RENEW_EVERY)
            await self._heartbeat()
            held = {game_id: lease.epoch for game_id, lease in self.owned.items()}
            if not held:
                continue
            started = time.monotonic()
            try:
                lost = await anyio.to_thread.run_sync(self.store.renew, self.node, held,
                                                      self.ttl_ms)
            except StoreError as exc:
                self.renewal_failures += 1
                log.warning("the leases cannot be renewed: %s", exc)
                continue
            self.renewals += len(held) - len(lost)
            for game_id in held:
                table = self.tables.open.get(game_id)
                if table is not None and game_id not in lost:
                    table.lease_until = started + self.lease_seconds * 0.9
            for game_id in lost:
                await self.let_go(game_id, "its lease was taken over")

    async def _heartbeat(self) -> None:
        """Say this process lives (a mark in Redis lasting two lease times), and forget the
        sockets of processes whose mark ran out twice in a row (they died: their browsers
        reconnect elsewhere), so their seats count as away and their tables may leave
        memory.  Not in the lease time after Redis came back (the marks were lost with it)."""
        try:
            await self.bus.mark_alive(self.node, self.lease_seconds * 2)
            holders = sorted({sid.rsplit("/", 1)[0] for remotes in self.remotes.values()
                              for sid in remotes})
            alive = await self.bus.alive(holders)
        except BusDown:
            return
        if time.monotonic() - self.bus.connected_since < self.lease_seconds * 2:
            return
        for node in holders:
            if node in alive:
                self._missing.pop(node, None)
                continue
            self._missing[node] = self._missing.get(node, 0) + 1
            if self._missing[node] < 2:
                continue
            del self._missing[node]
            log.warning("process %s is gone: its sockets are forgotten", node)
            for game_id, remotes in list(self.remotes.items()):
                table = self.tables.open.get(game_id)
                for sid in [sid for sid in remotes if sid.rsplit("/", 1)[0] == node]:
                    remote = remotes.pop(sid)
                    remote.application_state = WebSocketState.DISCONNECTED
                    if table is not None:
                        table.disconnect(remote)
                        self.holders_lost += 1

    # --- the owner's side of other processes' sockets ----------------------------------------
    def outbox(self, game_id: str) -> Outbox:
        outbox = self._outboxes.get(game_id)
        if outbox is None:
            outbox = self._outboxes[game_id] = Outbox(self.bus, game_id)
        return outbox

    def _inbox(self, game_id: str, message: dict[str, Any]) -> None:
        """A message for a table owned here: handled after the earlier ones of the same
        socket (the sockets of a table go on side by side, as in one process)."""
        sid = message.get("sid")
        if not isinstance(sid, str):
            return
        key = (game_id, sid)
        previous = self._inbound.get(key)
        task = asyncio.get_running_loop().create_task(self._handle(game_id, message, previous))
        self._inbound[key] = task
        task.add_done_callback(lambda done: self._inbound.get(key) is done
                               and self._inbound.pop(key, None))

    async def _reload_party(self, table: Table) -> None:
        """The friends' part of a table owned here, read again (a lobby change, the
        rematch's link, made through another process), and every socket told."""
        from ..table.party import Party

        saved = await anyio.to_thread.run_sync(self.store.get, table.id)
        if saved is not None and saved.friends and table.party is not None:
            table.party = Party.from_json(saved.friends)
            # a seat moved to another browser: its old sockets, wherever they are, watch
            if not await table.seats_changed(dict(saved.seats or {})):
                await table.refresh()

    async def party_changed(self, game_id: str) -> None:
        """A friends' table was changed in the store here: its owner, wherever it is, reads
        it again."""
        table = self.tables.open.get(game_id)
        if table is not None and game_id in self.owned:
            await self._reload_party(table)
            return
        with contextlib.suppress(BusDown):
            await self.bus.publish(channel_in(game_id), {"op": "party", "sid": "-"})

    async def _handle(self, game_id: str, message: dict[str, Any],
                      previous: asyncio.Task[None] | None) -> None:
        if previous is not None:
            with contextlib.suppress(Exception):
                await previous
        table = self.tables.open.get(game_id)
        sid = message.get("sid")
        if table is None or game_id not in self.owned or not isinstance(sid, str):
            return
        remotes = self.remotes.setdefault(game_id, {})
        op = message.get("op")
        self.forwarded += 1
        try:
            if op == "party":  # a friends' table changed in the store by another process
                await self._reload_party(table)
            elif op == "open":
                remote = remotes.get(sid)
                if remote is not None and message.get("refresh") is False:
                    return  # asked again because a later message found nobody: it has its state
                if remote is None:
                    lang = message.get("lang") if isinstance(message.get("lang"), str) else "en"
                    remote = RemoteSocket(self, game_id, sid, lang)
                    if len(table.sockets) >= SOCKETS_PER_TABLE:
                        await remote.send_text(dumps({
                            "type": "error", "code": "too_many_sockets",
                            "message": say("error.too_many_sockets", lang)}))
                        await remote.close(4429)
                        return
                    remotes[sid] = remote
                seat = message.get("seat")
                await table.connect(remote, seat if isinstance(seat, int) else 0)
            elif op == "msg":
                remote = remotes.get(sid)
                text = message.get("text")
                if remote is not None and isinstance(text, str):
                    await table.receive(remote, text)
            elif op == "close":
                remote = remotes.pop(sid, None)
                if remote is not None:
                    remote.application_state = WebSocketState.DISCONNECTED
                    table.disconnect(remote)
        except Exception:
            log.exception("table %s: a forwarded message failed", game_id)

    # --- the holder's side ---------------------------------------------------------------------
    async def attach(self, socket: WebSocket, game_id: str, seat: int) -> Link:
        """A socket of this process joins a table wherever it is played."""
        link = Link(self, socket, game_id, seat)
        links = self.links.setdefault(game_id, {})
        links[link.sid] = link
        if not self.bus.subscribed(channel_out(game_id)):
            await self.bus.subscribe(channel_out(game_id),
                                     lambda message: self._frames(game_id, message))
        try:
            await link.open()
        except BaseException:
            await self.detach(link)
            raise
        return link

    async def detach(self, link: Link) -> None:
        await link.close()
        links = self.links.get(link.game_id, {})
        links.pop(link.sid, None)
        if not links:
            self.links.pop(link.game_id, None)
            await self.bus.unsubscribe(channel_out(link.game_id))

    def _frames(self, game_id: str, message: dict[str, Any]) -> None:
        """The owner's frames: each to its socket here (others' are not this process's)."""
        links = self.links.get(game_id)
        frames = message.get("f")
        if not links or not isinstance(frames, list):
            return
        for frame in frames:
            sid, text = frame[0], frame[1]
            if sid == "*":  # the owner let the table go: ask whoever owns it now
                self.look_soon(game_id)
                continue
            link = links.get(sid)
            if link is None or link.table is not None:
                continue
            if text is None and len(frame) > 2 and frame[2] == DEMOTED:
                link.seat = SPECTATOR  # its seat moved: it asks for the public view from now
            elif text is None:
                link.deliver(None, int(frame[2]) if len(frame) > 2 else 1000)
            else:
                link.deliver(text)

    # --- the status page -----------------------------------------------------------------------
    def status(self) -> dict[str, Any]:
        sockets_here = sum(len(links) for links in self.links.values())
        return {
            "node": self.node,
            "pid": os.getpid(),
            "tables_owned": len(self.owned),
            "sockets_held": sockets_here,
            "sockets_forwarded": sum(1 for links in self.links.values()
                                     for link in links.values() if link.table is None),
            "remote_sockets_served": sum(len(r) for r in self.remotes.values()),
            "lease_seconds": self.lease_seconds,
            "lease_renewals": self.renewals,
            "lease_renewal_failures": self.renewal_failures,
            "takeovers": self.takeovers,
            "leases_lost": self.lost,
            "remote_sockets_of_dead_processes_forgotten": self.holders_lost,
            "messages_forwarded_to_owner": self.forwarded,
            "bus": self.bus.stats(),
        }

