"""A table's sockets: connecting and leaving, a browser's message taken in, a frame published to
every socket (each its own seat's view).
"""

from __future__ import annotations

import logging
from typing import Any

from starlette.websockets import WebSocket, WebSocketState

from ... import i18n
from ..lang.language import (
    Said,
    localize,
    socket_language,
)
from ..lang.request_errors import MessageError
from ..store.fastjson import dumps
from .common import SaveFailed
from .messages import parse_message
from .seats import HUMAN
from .spectators import SPECTATOR

log = logging.getLogger("preferans.server")

class TableSockets:
    """A table's sockets (a part of :class:`.table.Table`)."""

    # --- sockets -------------------------------------------------------------------------------
    async def connect(self, socket: WebSocket, seat: int = HUMAN) -> None:
        """Add an accepted socket of ``seat``: it gets that seat's current state, and the
        computer players go on (after a failed save, they try again)."""
        async with self.lock:
            self.touch()
            self.save_error = None
            self.sockets.add(socket)
            self._seat_of[socket] = seat
            back = self.standin is not None and self.standin.back(seat)
            if self.standin is not None:  # after a restart: the others' grace time starts
                for other in self.humans:
                    if other != seat and not self.has_socket(other):
                        self.standin.left(other, tell=False)  # shown in this state
            if back:
                await self._publish(None)  # every plate: the human is back
            else:
                await self._send(socket, self._publishable(self.state(None, seat)))
            if self.party is not None and (history := self.chat.history()) is not None:
                await self._send(socket, history)  # the chat so far, after a reload too
        self._ensure_driver()

    def disconnect(self, socket: WebSocket) -> None:
        """Forget a closed socket (the last of a human's seat: the stand-in's grace time
        starts)."""
        self.sockets.discard(socket)
        seat = self._seat_of.pop(socket, None)
        self.chat.forget(socket)
        if self.standin is not None and seat is not None and not self.has_socket(seat):
            self.standin.left(seat)
        self._langs.pop(socket, None)
        self._sheet_sent.pop(socket, None)
        self.touch()

    async def receive(self, socket: WebSocket, text: str | bytes | None) -> None:
        """Handle one browser message; a bad one gets an error reply and changes nothing."""
        self.touch()
        try:
            message = parse_message(text, friends=self.party is not None)
            kind = message["type"]
            if self.seat_of(socket) == SPECTATOR:
                raise MessageError("spectator", Said("friends.spectator"))
            if kind == "action":
                await self._human_action(message["token"].strip(), self.seat_of(socket))
            elif kind == "next_deal":
                await self._next_deal(self.seat_of(socket))
            elif kind == "pause":
                await self._set_paused(True, self.seat_of(socket))
            elif kind == "resume":
                await self._set_paused(False)
            elif kind == "hint":
                await self.hints.give(self, socket)
            elif kind == "hand_over":
                await self.hand_over(socket, message["seat"])
            elif kind == "chat":
                await self._chat(socket, message.get("text"))
            elif kind == "finish":
                await self.finish(self.seat_of(socket), message.get("agree", True))
        except MessageError as exc:
            await self._send(socket, exc.payload())
        except SaveFailed:
            pass  # every socket has been told, the table is back at its last saved state
        except Exception:
            log.exception("game %s: a message failed", self.id)
            await self._send(socket, MessageError(
                "server_error", Said("error.server_error")).payload())

    async def send_to(self, socket: WebSocket, payload: dict[str, Any]) -> None:
        """Send one message to one socket (a hint goes only to the browser that asked)."""
        await self._send(socket, payload)

    async def _publish(self, event: dict[str, Any] | None) -> None:
        """Send the new state to every socket of the table, encoded once per language."""
        self.seq += 1
        self._words_fresh()  # a friend's new «он / она»: the sheet is sent anew in it
        if self.standin is not None:
            self.standin.arm()
        payloads = {HUMAN: self._publishable(self.state(event))}
        if not self.sockets:
            return
        texts: dict[tuple[int, str, bool], str] = {}
        langs = self._langs
        sent = self._sheet_sent
        sheet = payloads[HUMAN]["observation"].get("sheet")
        for socket in list(self.sockets):
            lang = langs.get(socket)
            if lang is None:  # a socket's language is set when it opens
                lang = langs[socket] = i18n.normalize(socket_language(socket))
            seat = self._seat_of.get(socket, HUMAN)
            with_sheet = sent.get(socket) is not sheet
            text = texts.get((seat, lang, with_sheet))
            if text is None:
                payload = payloads.get(seat)
                if payload is None:
                    payload = payloads[seat] = self._publishable(self.state(event, seat))
                text = texts[seat, lang, with_sheet] = self.encode_state(payload, lang,
                                                                         with_sheet)
            if await self._send_text(socket, text):
                sent[socket] = sheet

    async def _send(self, socket: WebSocket, payload: dict[str, Any]) -> None:
        lang = socket_language(socket)
        if payload.get("type") != "state":
            await self._send_text(socket, dumps(localize(payload, lang)))
            return
        # a state sent to one socket (the one just opened) always carries the sheet
        if await self._send_text(socket, self.encode_state(payload, lang)):
            self._sheet_sent[socket] = payload["observation"].get("sheet")

    async def _send_text(self, socket: WebSocket, text: str) -> bool:
        """Send ``text``; False (and the socket forgotten) when it could not be sent."""
        if socket.application_state is not WebSocketState.CONNECTED:
            self._forget(socket)
            return False
        try:
            await socket.send_text(text)
        except Exception:
            self._forget(socket)
            return False
        return True

    def _forget(self, socket: WebSocket) -> None:
        self.sockets.discard(socket)
        self._seat_of.pop(socket, None)
        self.chat.forget(socket)
        self._langs.pop(socket, None)
        self._sheet_sent.pop(socket, None)

    async def refresh(self) -> None:
        """Send every socket the state again (a seat changed hands, a friend went away or
        came back); a friend gone past his grace time no longer holds up the next deal that
        every other human is READY for."""
        async with self.lock:
            if self.ready and self.all_ready() and self.deal_over() and not self.game_over():
                try:
                    await self._deal_again()
                except SaveFailed:
                    return  # every socket has been told
            else:
                await self._publish(None)
        self._ensure_driver()
