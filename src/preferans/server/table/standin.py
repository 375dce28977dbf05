"""The stand-in of a table for friends: a computer player of the table's chosen level that
decides for a human who is out of time or away.

- **The move clock** (``clock`` seconds a decision, 0: none): when a human's decision has
  waited that long, the stand-in makes that one decision (:meth:`Table.stand_in_move`); the
  state frames carry the clock (``"clock": {"seat", "left"}``: seconds left, as the server
  counted them when it sent the frame).
- **Away**: a human seat whose last socket closed more than ``grace`` seconds ago (30 by
  default) is played by the stand-in, like a computer seat, until a socket of that seat
  opens again; the human takes the seat back at his next decision.  The state frames list
  those seats (``"stand_in": [seats]``) and the stand-in's name (``"stand_in_name"``); a seat
  within its grace time is in ``"away"`` from the first second, with the seconds left.

Decisions made by the stand-in are marked: the event has ``"stand_in": true`` and the
record's deal lists their indices in ``"stand_in"`` (an optional field: :mod:`.table`).
Pure asyncio on the table's event loop: nothing here blocks.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Sequence
from typing import Any, Protocol

GRACE_SECONDS = 30.0
"""How long a human may be gone (no socket of his seat open) before the stand-in plays."""
STAND_IN_NAMES = ("Misha", "Lena", "Sasha")
"""The stand-in takes the first of these names nobody at the table has."""


def stand_in_name(names: Sequence[str]) -> str:
    """The stand-in's name at a table of ``names``.

    >>> stand_in_name(["Anna", "Boris", "Misha"])
    'Lena'
    """
    taken = {name.casefold() for name in names}
    return next((name for name in STAND_IN_NAMES if name.casefold() not in taken), "Computer")


class Seated(Protocol):
    """What the stand-in needs of its table (:class:`.table.Table` gives it)."""

    names: list[str]
    humans: frozenset[int]
    paused: bool
    save_error: Any

    def seat_to_act(self) -> int | None: ...

    def decision(self) -> tuple[int, int]: ...

    def started(self) -> bool: ...

    def has_socket(self, seat: int) -> bool: ...

    async def stand_in_move(self, seat: int, decision: tuple[int, int]) -> None: ...

    async def refresh(self) -> None: ...


class StandIn:
    """The stand-in of one table (see the module docstring)."""

    def __init__(self, table: Seated, clock: float, grace: float = GRACE_SECONDS,
                 handed: Sequence[int] = ()) -> None:
        self.table = table
        self.clock = float(clock)
        """Seconds a human has for a decision (0: no clock)."""
        self.grace = grace
        self.handed: set[int] = set(handed)
        """Seats the creator gave to the computer for the rest of the game."""
        self.away: set[int] = set(handed)
        """Human seats the stand-in plays now (their browsers are gone, or handed over)."""
        self.name = stand_in_name(table.names)
        self._timer: asyncio.Task[None] | None = None
        self._timed: tuple[int, Any] | None = None
        self._deadline = 0.0
        self._graces: dict[int, asyncio.Task[None]] = {}
        self._grace_until: dict[int, float] = {}
        """A human seat whose browsers are gone -> when (``time.monotonic``) his grace ends."""

    # --- the move clock ------------------------------------------------------------------
    def arm(self) -> None:
        """Start the clock for the decision now due, if it is a human's (called whenever a
        state is published; a decision already timed keeps its deadline)."""
        table = self.table
        seat = table.seat_to_act()
        if (not self.clock or seat is None or seat not in table.humans or seat in self.away
                or table.paused or table.save_error is not None or not table.started()):
            self.disarm()
            return
        key = (seat, table.decision())
        if self._timed == key and self._timer is not None and not self._timer.done():
            return
        self.disarm()
        self._timed = key
        self._deadline = time.monotonic() + self.clock
        self._timer = asyncio.get_running_loop().create_task(self._expire(seat, key[1]))

    def disarm(self) -> None:
        if self._timer is not None and not self._timer.done():
            self._timer.cancel()
        self._timer = None
        self._timed = None

    def shown(self) -> dict[str, Any] | None:
        """The clock as a state frame shows it: the seat it runs for, seconds left."""
        if self._timed is None or self._timer is None or self._timer.done():
            return None
        return {"seat": self._timed[0], "seconds": self.clock,
                "left": round(max(0.0, self._deadline - time.monotonic()), 2)}

    async def _expire(self, seat: int, decision: Any) -> None:
        await asyncio.sleep(max(0.0, self._deadline - time.monotonic()))
        self._timer = None
        self._timed = None
        await self.table.stand_in_move(seat, decision)

    # --- away and back -------------------------------------------------------------------
    def left(self, seat: int, tell: bool = True) -> None:
        """The last socket of a human seat closed: after the grace time, the stand-in plays.
        Every socket is told at once (``tell``; the socket opening that finds a seat without
        a browser shows it in its own first state instead)."""
        if seat not in self.table.humans or seat in self._graces or seat in self.away:
            return
        with contextlib.suppress(RuntimeError):  # no loop: the server is stopping
            self._graces[seat] = asyncio.get_running_loop().create_task(self._gone(seat, tell))
            self._grace_until[seat] = time.monotonic() + self.grace

    def away_left(self) -> list[dict[str, Any]]:
        """The humans gone within their grace time, as the state frames show them from the
        first second (``"away": [{"seat", "left", "grace"}]``: seconds left as the server
        counted them when it sent the frame); the seats already played by the stand-in are
        in ``stand_in``."""
        now = time.monotonic()
        return [{"seat": seat, "left": round(max(0.0, until - now), 1), "grace": self.grace}
                for seat, until in sorted(self._grace_until.items())
                if seat in self._graces and seat not in self.away]

    def from_now(self) -> None:
        """The table has just been restored (a server restart): every human seat with no
        socket open is gone from now on; after the grace time the stand-in plays it."""
        for seat in sorted(self.table.humans):
            if not self.table.has_socket(seat):
                self.left(seat, tell=False)

    async def _gone(self, seat: int, tell: bool = True) -> None:
        try:
            await asyncio.sleep(0)  # left() has noted the grace's end: every plate shows it
            if tell:
                await self.table.refresh()
            await asyncio.sleep(max(0.0, self._grace_until.get(seat, 0.0) - time.monotonic()))
            if self.table.has_socket(seat):
                return
            self.away.add(seat)
            self._forget_grace(seat)
            await self.table.refresh()
        finally:
            self._forget_grace(seat)

    def _forget_grace(self, seat: int) -> None:
        """The grace of ``seat`` is over (unless a newer one has started since)."""
        if self._graces.get(seat) is asyncio.current_task():
            self._graces.pop(seat, None)
            self._grace_until.pop(seat, None)

    def back(self, seat: int) -> bool:
        """A socket of ``seat`` opened: the human takes his seat back (at his next decision);
        True when the stand-in was playing it."""
        task = self._graces.pop(seat, None)
        self._grace_until.pop(seat, None)
        if task is not None and not task.done():
            task.cancel()
            return True  # the plates showed him away within his grace time
        if seat in self.away and seat not in self.handed:
            self.away.discard(seat)
            return True
        return False

    def stop(self) -> None:
        self.disarm()
        for task in self._graces.values():
            task.cancel()
        self._graces.clear()
        self._grace_until.clear()
