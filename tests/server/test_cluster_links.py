"""The cluster's forwarding, without Redis or a database: a socket's process asking the owner
again (:meth:`Cluster._look`) and the owner answering a repeated ``open``.

Two races found by ``bench_load.py --humans 3 --processes 2``: a message that found no owner
listening while the socket was asking again stayed pending for ever (the player waited with
no answer), and an owner asked again for a socket it already knew sent it a second state,
which showed a move in flight as not yet made (a page could act twice, answered "not your
turn").
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

pytest.importorskip("redis")

from server_helpers import run_async

from preferans.server.cluster.bus import channel_in
from preferans.server.cluster.cluster import Cluster, Link, RemoteSocket
from preferans.server.store.leases import Lease, now_ms_

GAME = "g1"


class FakeBus:
    """Publishes into a list; ``listeners`` answers how many processes heard each message."""

    def __init__(self, listeners: int = 1) -> None:
        self.listeners = listeners
        self.sent: list[dict[str, Any]] = []
        self.on_publish: Any = None

    async def publish(self, channel: str, message: dict[str, Any]) -> int:
        assert channel == channel_in(GAME)
        self.sent.append(dict(message))
        if self.on_publish is not None:
            self.on_publish(message)
        return self.listeners


class FakeStore:
    def __init__(self, owner: str) -> None:
        self.owner = owner

    def lease(self, game_id: str) -> Lease:
        return Lease(game_id, self.owner, 1, now_ms_() + 60_000)


class FakeTable:
    def __init__(self) -> None:
        self.connected: list[tuple[Any, int]] = []
        self.received: list[str] = []
        self.sockets: dict[Any, int] = {}

    async def connect(self, socket: Any, seat: int) -> None:
        self.connected.append((socket, seat))
        self.sockets[socket] = seat

    async def receive(self, socket: Any, text: str) -> None:
        self.received.append(text)


class FakeSocket:
    state = SimpleNamespace()

    async def send_text(self, text: str) -> None:
        pass

    async def close(self, code: int = 1000) -> None:
        pass


def make_cluster(store: Any = None, listeners: int = 1) -> Cluster:
    cluster = Cluster(store, "redis://127.0.0.1:1/0", SimpleNamespace(open={}), 2.0,
                      node="here")
    cluster.bus = FakeBus(listeners)  # type: ignore[assignment]
    return cluster


def test_a_message_that_found_nobody_while_the_socket_asked_again_is_sent_too():
    async def main() -> list[dict[str, Any]]:
        cluster = make_cluster(FakeStore(owner="there"))
        link = Link(cluster, FakeSocket(), GAME, 1)  # type: ignore[arg-type]
        cluster.links[GAME] = {link.sid: link}
        link.pending = ['{"type": "action", "token": "PASS"}']
        late = '{"type": "chat", "text": "hi"}'

        def meanwhile(message: dict[str, Any]) -> None:
            # while the pending move goes to the owner, the page sends another message that
            # finds nobody (the owner not listening yet): it waits in ``pending`` as well
            if message.get("op") == "msg" and late not in link.pending and \
                    message.get("text") != late:
                link.pending.append(late)

        cluster.bus.on_publish = meanwhile  # type: ignore[attr-defined]
        cluster._looking.add(GAME)
        await cluster._look(GAME)
        await link.close()
        assert link.pending == []
        assert GAME not in cluster._looking
        return cluster.bus.sent  # type: ignore[attr-defined,no-any-return]

    sent = run_async(main())
    texts = [m.get("text") for m in sent if m["op"] == "msg"]
    assert texts == ['{"type": "action", "token": "PASS"}', '{"type": "chat", "text": "hi"}']
    assert all(m["refresh"] is False for m in sent if m["op"] == "open")


def test_an_owner_asked_again_for_a_socket_it_knows_sends_no_second_state():
    async def main() -> tuple[FakeTable, Cluster]:
        cluster = make_cluster()
        table = FakeTable()
        cluster.tables.open[GAME] = table
        cluster.owned[GAME] = Lease(GAME, "here", 1, now_ms_() + 60_000)
        first = {"op": "open", "sid": "there/1", "seat": 2, "lang": "ru"}
        await cluster._handle(GAME, first, None)
        again = {**first, "refresh": False}
        await cluster._handle(GAME, again, None)  # a later message had found nobody
        assert len(table.connected) == 1
        resumed = {**first, "refresh": True}
        await cluster._handle(GAME, resumed, None)  # the bus came back: frames may be lost
        unknown = {"op": "open", "sid": "there/2", "seat": 1, "refresh": False}
        await cluster._handle(GAME, unknown, None)  # a new owner: it never saw this socket
        return table, cluster

    table, cluster = run_async(main())
    assert [seat for _, seat in table.connected] == [2, 2, 1]
    remotes = cluster.remotes[GAME]
    assert sorted(remotes) == ["there/1", "there/2"]
    assert all(isinstance(r, RemoteSocket) for r in remotes.values())
    assert table.connected[0][0] is remotes["there/1"]


def test_a_socket_whose_seat_moved_asks_every_later_owner_for_the_spectators_view():
    """Issue 47: the owner demotes a socket held by another process (its seat was opened on
    another device); the holder's link then asks for the spectator's view, whether it asks
    the owner again (the bus came back, a new owner) or takes the table itself."""
    from preferans.server.cluster.cluster import DEMOTED
    from preferans.server.table.spectators import SPECTATOR

    async def main() -> tuple[list[dict[str, Any]], FakeTable, Link]:
        cluster = make_cluster(FakeStore(owner="there"))
        link = Link(cluster, FakeSocket(), GAME, 1)  # type: ignore[arg-type]
        cluster.links[GAME] = {link.sid: link}
        cluster._frames(GAME, {"f": [[link.sid, '{"type": "seat_moved"}'],
                                     [link.sid, None, DEMOTED]]})
        assert link.seat == SPECTATOR and not link.closed
        await link.resend(refresh=True)
        moved = FakeSocket()
        moved.state = SimpleNamespace(demoted=True)  # the table demoted it here
        here = Link(cluster, moved, GAME, 2)  # type: ignore[arg-type]
        table = FakeTable()
        await here.go_local(table)  # type: ignore[arg-type]
        await link.close()
        here.table = None  # (the fake table keeps no sockets to forget)
        here._writer.cancel()
        return cluster.bus.sent, table, here  # type: ignore[attr-defined]

    sent, table, here = run_async(main())
    opened = [m for m in sent if m["op"] == "open"]
    assert opened and all(m["seat"] == SPECTATOR for m in opened)
    assert table.connected[0][1] == SPECTATOR and here.seat == SPECTATOR
