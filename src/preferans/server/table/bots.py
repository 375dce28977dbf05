"""The computer players of a table: driving them one move at a time, thinking in the worker
processes within the level's budget, the fallback move, the stand-in's move for an absent
friend.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from typing import Any

import anyio.to_thread

from ...actions import IllegalAction
from .common import SaveFailed, _phase_name
from .seats import bot_seed
from .thinking import Pickled, Seat, ThinkingError

log = logging.getLogger("preferans.server")

class TableBots:
    """The computer players of a table (a part of :class:`.table.Table`)."""

    # --- the computer players ------------------------------------------------------------------
    def _ensure_driver(self) -> None:
        if self._driver is not None and not self._driver.done():
            return
        if self.bot_to_move() is None:
            return
        self._driver = asyncio.get_running_loop().create_task(self._drive())

    async def _drive(self) -> None:
        """Move the computer players one action at a time until the human is to act."""
        try:
            await self._drive_steps()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: the computer players stopped", self.id)

    async def _drive_steps(self) -> None:
        while True:
            async with self.lock:
                seat = self.bot_to_move()
                if seat is None:
                    return
                version = self._version()
                observation = self.seat_observation(seat)
                # the seat's legal tokens, as game.legal_actions() writes them: the game
                # has not changed when the move is applied (the version is checked below)
                legal = set(observation["legal"])
            if self.bot_delay > 0:
                await asyncio.sleep(self.bot_delay)
            token = await self._think(seat, observation)
            async with self.lock:
                if self._version() != version or self.bot_to_move() != seat:
                    continue
                if token not in legal:
                    self._log_fallback(seat, f"chose {token!r}, not a legal action")
                    token = self._random_legal(seat, legal)
                try:
                    event = self._apply(seat, token)
                except (IllegalAction, ValueError) as exc:
                    self._log_fallback(seat, f"chose an illegal action {token!r} ({exc})")
                    event = self._apply(seat, self._random_legal(seat, legal))
                try:
                    await self._save(f"{self.names[seat]}'s move was taken back")
                except SaveFailed:
                    return
                await self._publish(event)

    def _random_legal(self, seat: int, legal: set[str]) -> str:
        """The random baseline's decision: a legal action drawn with the table's own seed."""
        return random.Random(f"{self.seed}:{seat}:{self.seq}").choice(sorted(legal))

    def _log_fallback(self, seat: int, what: str) -> None:
        """Log (once per seat and phase) that a computer player fell back to a random move:
        the levels may not know every variant's tokens yet (Rogue naming, ALONE, BLIND...)."""
        phase = _phase_name(self.game.deal)
        if (seat, phase) in self._fallbacks_logged:
            return
        self._fallbacks_logged.add((seat, phase))
        log.warning("game %s (%s): %s %s in %s: playing a random legal action (logged once)",
                    self.id, self.rules.name, self.names[seat], what, phase)

    async def _think(self, seat: int, observation: dict[str, Any]) -> str:
        """The computer player's decision: in a thinking process when the table has them and
        the player is the one the table made, else in a thread.  A player that fails, or a
        process that dies or hangs, gets the random legal fallback."""
        if self.thinking is None or self.bots.get(seat) is not self._own_bots.get(seat):
            return await anyio.to_thread.run_sync(self._choose, seat, observation)
        who = self._seats.get(seat)
        if who is None:
            who = self._seats[seat] = Seat(
                self._thinking_id, seat, self.levels.get(seat, self.bot_level),
                json.dumps(self.rules.to_json(), sort_keys=True), bot_seed(self.seed, seat))
        sheet = observation.get("sheet")
        if sheet is not None and sheet is self.sheet_json():
            # the sheet is pickled once per deal, not with every decision
            if self._sheet_pickled is None or self._sheet_pickled[0] is not sheet:
                self._sheet_pickled = (sheet, Pickled(sheet))
            observation = {**observation, "sheet": self._sheet_pickled[1]}
        try:
            return await self.thinking.choose(who, observation)
        except ThinkingError as exc:
            return self._fallback(seat, observation, f"failed to choose ({exc})")

    def _fallback(self, seat: int, observation: dict[str, Any], what: str) -> str:
        self._log_fallback(seat, what)
        legal = set(observation.get("legal") or [])
        return self._random_legal(seat, legal) if legal else "PASS"

    def _choose(self, seat: int, observation: dict[str, Any]) -> str:
        """Ask a computer player (in a worker thread); a failing player gets a random legal
        move (the random baseline), so a variant the levels do not know never stalls."""
        try:
            return str(self.bots[seat].choose(observation))
        except Exception as exc:
            return self._fallback(seat, observation,
                                  f"failed to choose ({type(exc).__name__}: {exc})")

    async def stand_in_move(self, seat: int, decision: tuple[int, int]) -> None:
        """The move clock ran out: the stand-in makes this one decision for ``seat`` (unless
        the human has decided meanwhile)."""
        async with self.lock:
            if self.decision() != decision or self.seat_to_act() != seat or self.paused:
                return
            observation = self.seat_observation(seat)
            legal = set(observation["legal"])
        token = await self._think(seat, observation)
        async with self.lock:
            if self.decision() != decision or self.seat_to_act() != seat:
                return  # the human was quicker
            if token not in legal:
                token = self._random_legal(seat, legal)
            event = self._apply(seat, token)
            try:
                await self._save(f"the move for {self.names[seat]} was taken back")
            except SaveFailed:
                return
            await self._publish(event)
        self._ensure_driver()

    @property
    def thinking_table(self) -> str:
        """This table object's name in the thinking processes."""
        return self._thinking_id
