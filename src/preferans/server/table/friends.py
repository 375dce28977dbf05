"""What only a table for friends does: an early finish when every human agrees, the creator's
hand-over of an absent friend's seat, the chat, who is present, who is READY for the next deal
or the rematch.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from starlette.websockets import WebSocket

from ..lang.language import (
    Said,
)
from ..lang.request_errors import MessageError
from ..store.fastjson import dumps
from ..store.faults import StoreError
from .chat import CHAT_MOST, clean_chat
from .party import Party
from .seats import HUMAN
from .spectators import SPECTATOR

SEAT_MOVED = "seat_moved"
"""The message a browser gets when its seat was opened on another device (it watches
from then on)."""

log = logging.getLogger("preferans.server")

class TableFriends:
    """What only a table for friends does (a part of :class:`.table.Table`)."""

    async def finish(self, seat: int, agree: bool = True) -> None:
        """A friend's word on finishing the game now.  It ends when every human at the table
        has agreed (``finish_asked`` and ``finish_waiting`` in the state meanwhile); one
        friend saying no (``agree: false``) withdraws the request.  The deal in progress, if
        any, is not scored; the sheet settles as it stands (:meth:`Sheet.balance`: the
        missing pool points charged unless ``settle_no_missing_pool``), the game is saved
        finished, its record marked ``stopped``."""
        async with self.lock:
            if self.party is None:
                raise MessageError("bad_message", Said("friends.finish_alone"))
            if self.game_over():
                raise MessageError("illegal", Said("table.game_over"))
            if not self.started():
                raise MessageError("not_your_turn", Said("friends.not_started"))
            if not agree:
                if self.finish_asked:
                    self.finish_asked.clear()
                    await self._publish(None)
                return
            self.finish_asked.add(seat)
            if not self.present_humans() <= self.finish_asked:
                await self._publish(None)
                return
            await self._stop_early()

    async def _stop_early(self) -> None:
        """Every friend agreed: the game stops here and is saved finished (lock held)."""
        open_deal = self.game.deal is not None
        self.stopped = {"agreed": sorted(self.finish_asked),
                        "deals": len(self.game.finished_deals), "deal_dropped": open_deal}
        self.game.deal = None  # the deal in progress is not scored
        self.finish_asked.clear()
        self.pause_asked.clear()
        self.paused = False
        self._record_cache = None
        self._deal_cache = None
        # a failed save puts the game back as last saved (not stopped: it goes on), tells
        # every socket and raises SaveFailed
        await self._save(Said("friends.finish_not_saved"))
        await self._publish(None)

    async def hand_over(self, socket: WebSocket, seat: int) -> None:
        """The creator gives the seat of a friend who is away (the stand-in plays it) to the
        computer for the rest of the game: the seat's holder is forgotten (saved first)."""
        party = self.party
        if party is None or self.seat_of(socket) != HUMAN:
            raise MessageError("creator_only", Said("friends.creator_only"))
        if (self.standin is None or seat not in self.humans or seat == HUMAN
                or seat in party.handed or seat not in self.standin.away):
            raise MessageError("not_away", Said("friends.not_away"))

        def forget(seats: dict[str, str], friends: dict[str, Any]) -> Party:
            handed = Party.from_json(friends).hand_over(seat)
            seats.pop(str(seat), None)
            friends.clear()
            friends.update(handed.to_json())
            return handed

        try:
            self.party = await self.store.write(self.store.change_friends, self.id, forget)
        except (StoreError, KeyError) as exc:
            raise MessageError("save_failed", Said("table.not_saved_short")) from exc
        self.seats.pop(str(seat), None)
        self.standin.handed.add(seat)
        await self.refresh()

    async def seats_changed(self, seats: dict[str, str]) -> list[int]:
        """The store's seats after a change made elsewhere (a seat link opened: the seat
        moved to another browser): the sockets of each seat whose holder changed are told
        (:data:`SEAT_MOVED`, in their language) and watch from this moment on, so no frame
        with that seat's cards reaches them again; the seats moved."""
        async with self.lock:
            moved = [int(seat) for seat, held in seats.items() if seat.isdigit()
                     and held and self.seats.get(seat) not in (None, held)]
            self.seats = dict(seats)
            if not moved:
                return moved
            for socket in [s for s in list(self.sockets) if self.seat_of(s) in moved]:
                seat = self.seat_of(socket)
                self._seat_of[socket] = SPECTATOR
                self._sheet_sent.pop(socket, None)
                socket.state.demoted = True  # it opens the table again as a spectator
                demote = getattr(socket, "demoted", None)
                if demote is not None:  # a socket of another process: its holder knows too
                    demote()
                watch = self.party.watch or self.party.invite if self.party else ""
                await self._send(socket, {
                    "type": SEAT_MOVED, "seat": seat, "watch": watch,
                    "message": Said("friends.seat_moved", name=self.names[seat])})
            for seat in moved:
                if self.standin is not None and not self.has_socket(seat):
                    self.standin.left(seat)  # the new browser's grace time to come in
            await self._publish(None)
        self._ensure_driver()
        return moved

    async def _chat(self, socket: WebSocket, text: Any) -> None:
        """A chat message of a friends' table to every socket of it (:mod:`.chat`)."""
        said = clean_chat(text)
        if said is None:
            raise MessageError("bad_message", Said("chat.bad", most=CHAT_MOST))
        if not self.chat.allow(socket):
            raise MessageError("too_many_messages", Said("chat.slow"))
        seat = self.seat_of(socket)
        payload = {"type": "chat", "seat": seat, "name": self.names[seat], "text": said}
        self.chat.said.append(payload)  # a page opened again reads it (:meth:`connect`)
        try:  # kept with the table (first): a restart or another process shows it again
            await self.store.write(self.store.save_chat, self.id, list(self.chat.said))
        except (StoreError, KeyError) as exc:
            log.warning("game %s: the chat was not saved: %s", self.id, exc)
        text_out = dumps(payload)
        for other in list(self.sockets):
            await self._send_text(other, text_out)

    async def _keep_ready(self) -> None:
        """Save who pressed READY for the next deal with the table's party (a restart or
        another process reads it back: :meth:`.table.Table.restore`); a failing database
        only logs (the READY still holds in this process).  Lock held."""
        number, ready = self.deal_number(), tuple(sorted(self.ready))

        def keep(seats: dict[str, str], friends: dict[str, Any]) -> Party:
            party = replace(Party.from_json(friends), deal_ready=ready, deal_ready_at=number)
            friends.clear()
            friends.update(party.to_json())
            return party

        try:
            self.party = await self.store.write(self.store.change_friends, self.id, keep)
        except (StoreError, KeyError) as exc:
            log.warning("game %s: who is ready was not saved: %s", self.id, exc)

    def all_ready(self) -> bool:
        """Whether every human at the table (not away: the stand-in plays for him) pressed
        READY for the next deal; never while all of them are away."""
        present = self.present_humans()
        return bool(present) and present <= self.ready

    def ready_view(self) -> dict[str, list[int]]:
        """Who pressed READY (``ready``) and who is still to (``ready_waiting``): for the next
        deal between deals, for the rematch once the game is over; empty during a deal."""
        if self.game_over():
            party = self.party
            if party is None or party.rematch:
                return {"ready": [], "ready_waiting": []}
            ready = set(party.rematch_ready)
        elif self.deal_over():
            ready = self.ready
        else:
            return {"ready": [], "ready_waiting": []}
        return {"ready": sorted(ready & self.humans),
                "ready_waiting": sorted(self.present_humans() - ready)}

    def present_humans(self) -> set[int]:
        """The humans at the table now (not played by the stand-in): those whose word a pause
        or an early finish waits for."""
        away = self.standin.away if self.standin is not None else set()
        return {h for h in self.humans if h not in away}
