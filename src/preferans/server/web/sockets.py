"""A table's WebSocket, ``GET /ws/{id}``: who may open it (the seat holder, a spectator
with the watch code), the bounds on it (sockets per client and per table, messages a
second), and its messages passed to the table (:mod:`..table.sockets`), or to the process
that owns the table when several share them (:mod:`..cluster`)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import anyio.to_thread
from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ..lang.language import say, set_socket_language, store_message
from ..lang.request_errors import rules_problem
from ..security.limits import FLOOD_CLOSE, SOCKETS_PER_TABLE, Bucket, client_key
from ..security.tokens import held_seats, holder, seat_token, token_hash
from ..store.faults import StoreError
from ..store.saved import SavedGame
from ..table.lobby import may_watch
from ..table.party import Party
from ..table.seats import HUMAN
from ..table.spectators import SPECTATOR
from ..table.table import Table
from ..table.tables import GAME_ID, Tables
from .deps import ClusterDep, SocketLimits, SocketLimitsDep, StoreDep, TablesDep

log = logging.getLogger("preferans.server")

router = APIRouter()


async def refuse(socket: WebSocket, code: str, message: str, close: int, **extra: Any) -> None:
    await socket.send_json({"type": "error", "code": code, "message": message, **extra})
    await socket.close(code=close)


@router.websocket("/ws/{game_id}")
async def table_socket(socket: WebSocket, game_id: str, store: StoreDep, tables: TablesDep,
                       cluster: ClusterDep, limits: SocketLimitsDep) -> None:
    if not limits.openings.allow(client_key(socket)):  # refused before any work is done
        await socket.close(code=4429)
        return
    await socket.accept()
    lang = set_socket_language(socket)
    token = seat_token(socket.cookies)
    unknown = say("error.ws_no_game", lang, game=game_id)
    if not GAME_ID.match(game_id):
        await refuse(socket, "unknown_game", unknown, 4404)
        return
    table = tables.open.get(game_id)
    try:
        saved = None
        if table is None:
            saved = await anyio.to_thread.run_sync(store.get, game_id)
            if saved is None:
                await refuse(socket, "unknown_game", unknown, 4404)
                return
        seats = table.seats if table is not None else saved.seats if saved else None
        friends = (table.party is not None if table is not None
                   else saved is not None and saved.friends is not None)
        whose = holder(seats, token, HUMAN, friends=friends)
        if whose == "free" and socket.app.state.seat_tokens.minted(token):
            mine = await store.write(store.claim, game_id, HUMAN, token_hash(token))
            whose = "mine" if mine else "theirs"
            if mine and table is not None:
                table.seats[str(HUMAN)] = token_hash(token)
            elif saved is not None:
                saved = await anyio.to_thread.run_sync(store.get, game_id)
        if (whose == "theirs" and table is not None and token is not None
                and (not friends or (table.party is not None and table.party.started))):
            # a seat just moved to this browser through another process (its seat link, a
            # sign-in to an account): the store knows before this process's copy does
            fresh = await anyio.to_thread.run_sync(store.get, game_id)
            if fresh is not None and held_seats(fresh.seats, token_hash(token)):
                if friends:
                    await table.seats_changed(dict(fresh.seats or {}))
                else:
                    table.seats.update(fresh.seats or {})
                whose = "mine"
        watching = False
        if whose != "mine" and friends:
            party = (table.party if table is not None
                     else Party.from_json(saved.friends or {}) if saved else None)
            watching = may_watch(party, socket.query_params.get("watch"))
        if whose != "mine" and not watching:
            message = say("error.not_yours" if whose == "theirs" else "error.open_table",
                          lang)
            await refuse(socket, "not_yours", message, 4403)
            return
        if table is None and cluster is None:
            try:
                table = await tables.load(game_id, saved)
            except StoreError:
                raise
            except Exception as exc:
                log.warning("game %s cannot be restored: %s", game_id, exc)
                await refuse(socket, "damaged",
                             say("error.ws_damaged", lang, game=game_id,
                                 problem=rules_problem(exc, lang)),
                             4404)
                return
    except StoreError as exc:
        await refuse(socket, "database",
                     say("error.cannot_read_game", lang, problem=store_message(exc, lang)),
                     4503)
        return
    if cluster is not None:
        await shared_socket(socket, game_id, table, saved, token, watching, lang,
                           tables, cluster, limits)
        return
    if table is None:
        await refuse(socket, "unknown_game", unknown, 4404)
        return
    if not table.started():  # friends still gathering: the lobby page, not the table
        await refuse(socket, "not_started", say("friends.not_started", lang), 4409)
        return
    client = client_key(socket)
    if len(table.sockets) >= SOCKETS_PER_TABLE or not limits.per_client.take(client):
        await refuse(socket, "too_many_sockets", say("error.too_many_sockets", lang), 4429)
        return
    mine = held_seats(table.seats, token_hash(token)) if token else []
    seat = SPECTATOR if watching else (
        mine[0] if table.party is not None and mine else HUMAN)
    try:
        await table.connect(socket, seat)
        async for message in flood_limited(socket, lang, limits):
            text = message.get("text")
            await table.receive(socket, text if text is not None else message.get("bytes"))
    except WebSocketDisconnect:
        pass
    finally:
        table.disconnect(socket)
        limits.per_client.give(client)


async def flood_limited(socket: WebSocket, lang: str, limits: SocketLimits
                        ) -> AsyncIterator[dict[str, Any]]:
    """A socket's messages until it closes, at most ``rate`` a second (``burst`` at
    once): a flood is dropped and said once, and a socket that keeps flooding is
    closed."""
    bucket = Bucket(limits.rate, limits.burst)
    dropped = 0
    while True:
        message = await socket.receive()
        if message["type"] == "websocket.disconnect":
            return
        if not bucket.allow():
            dropped += 1
            if dropped == 1:
                await socket.send_json({"type": "error", "code": "too_many_messages",
                                        "message": say("error.too_many_messages", lang)})
            elif dropped > FLOOD_CLOSE:
                await socket.close(code=4429)
                return
            continue
        dropped = 0
        yield message


async def shared_socket(socket: WebSocket, game_id: str, table: Table | None,
                        saved: SavedGame | None, token: str | None, watching: bool,
                        lang: str, tables: Tables, cluster: Any, limits: SocketLimits) -> None:
    """A table's socket when several processes share the tables (:mod:`..cluster`): the
    table is played here if this process owns it (or takes it now), else by its owner,
    to which the socket's messages go over the bus."""
    assert cluster is not None
    if table is not None:
        seats, party = table.seats, table.party
    else:
        assert saved is not None
        if saved.damage or tables.replay_problem(saved):
            problem = saved.damage or tables.replay_problem(saved) or ""
            await refuse(socket, "damaged", say("error.ws_damaged", lang, game=game_id,
                                                problem=problem), 4404)
            return
        seats = dict(saved.seats or {})
        party = Party.from_json(saved.friends) if saved.friends else None
    if party is not None and not party.started:
        await refuse(socket, "not_started", say("friends.not_started", lang), 4409)
        return
    client = client_key(socket)
    if not limits.per_client.take(client):
        await refuse(socket, "too_many_sockets", say("error.too_many_sockets", lang), 4429)
        return
    mine = held_seats(seats, token_hash(token)) if token else []
    seat = SPECTATOR if watching else (mine[0] if party is not None and mine else HUMAN)
    link = None
    try:
        try:
            link = await cluster.attach(socket, game_id, seat)
        except StoreError as exc:
            await refuse(socket, "database", say("error.cannot_read_game", lang,
                                                 problem=store_message(exc, lang)),
                         4503)
            return
        async for message in flood_limited(socket, lang, limits):
            text = message.get("text")
            if text is None:
                text = (message.get("bytes") or b"")[:65536].decode("utf-8", "replace")
            await link.receive(text)
    except WebSocketDisconnect:
        pass
    finally:
        if link is not None:
            await cluster.detach(link)
        limits.per_client.give(client)
