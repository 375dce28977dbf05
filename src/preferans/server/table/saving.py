"""A table's saves: the record committed after every action, off the event loop, and a
save that fails taken back (the game replayed from the last saved record, every socket
told why) or refused because another process owns the table now (fenced)."""

from __future__ import annotations

import asyncio
import functools
import logging
import time

from ...game import Game
from ..lang.language import Rendered, Said, store_message
from ..store.faults import Fenced, StoreError
from ..store.ratings import rate_finished
from ..store.schema import FINISHED, PLAYING
from .common import SaveFailed

log = logging.getLogger("preferans.server")


class TableSaving:
    """The saves of a table (a part of :class:`.table.Table`)."""

    async def _save(self, taken_back: Said) -> None:
        """Commit the record after an action (on the store's writer thread: the loop goes
        on), so a crash loses nothing that a browser has seen.

        If the database fails, the game goes back to the last saved record, every socket
        gets a ``save_failed`` error (``taken_back`` says what was undone), the computer
        players stop, and :class:`SaveFailed` is raised.  Called with the lock held."""
        sheet = self.sheet_json()
        over = self.game_over()
        record = self.record_encoded()
        fenced = False
        try:
            if self.epoch is None:
                await self.store.save_async(
                    self.id,
                    record=record,
                    status=FINISHED if over else PLAYING,
                    result=list(sheet.get("balance", [])) if over else None,
                    summary=self.summary(sheet),
                )
            else:
                if self.lease_until is not None and time.monotonic() > self.lease_until:
                    raise Fenced(self.store.location, self.id, self.epoch, None)
                await self.store.save_async(
                    self.id, record=record, status=FINISHED if over else PLAYING,
                    result=list(sheet.get("balance", [])) if over else None,
                    summary=self.summary(sheet), epoch=self.epoch)
        except (StoreError, KeyError) as exc:
            if isinstance(exc, KeyError):
                exc = StoreError(self.store.location, "no longer holds this game", str(exc))
            fenced = isinstance(exc, Fenced)
            await self._roll_back(exc, taken_back)
            if fenced and self.on_fenced is not None:
                self.on_fenced()
            raise SaveFailed(exc.message) from exc
        self._saved_record = record
        self.save_error = None
        self.touch()
        if over:
            self._rate_when_over()

    def _rate_when_over(self) -> None:
        """The game has ended and is saved: rate it once (:mod:`..store.ratings`: off the
        loop, idempotent across processes; a failure is logged and the game stays to be rated
        by :func:`..store.ratings.rate_unrated`)."""
        if getattr(self, "_rating_task", None) is not None:
            return

        async def rate() -> None:
            try:
                await asyncio.to_thread(rate_finished, self.store, self.id)
            except Exception:
                log.exception("game %s: not rated", self.id)

        self._rating_task = asyncio.get_running_loop().create_task(rate())

    async def _roll_back(self, exc: StoreError, taken_back: Said) -> None:
        """Put the game back to the last saved record and tell every socket why."""
        log.warning("game %s: not saved: %s", self.id, exc.message)
        self.game = Game.from_record(self._saved_record.value)
        stopped = self._saved_record.value.get("stopped")
        self.stopped = stopped if isinstance(stopped, dict) else None  # an early finish too
        self._record_cache = None
        self._deal_cache = None
        self._sheet_cache = None
        self.save_error = exc
        await self._publish(None)  # nobody is thinking now: the players wait for a retry
        payload = {
            "type": "error",
            "code": "save_failed",
            "problem": exc.problem,
            "message": Said("table.not_saved", taken_back=taken_back, problem=Rendered(
                store_message(exc, "en"), functools.partial(store_message, exc))),
        }
        for socket in list(self.sockets):
            await self._send(socket, payload)
