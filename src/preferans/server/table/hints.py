"""The table's HINT: what Hard (Crazy, at the Crazy level) would do now and why, from the
human seat's own observation.

A game started with hints switched on (the settings' checkbox; off by default) answers the
browser's ``{"type": "hint"}`` on the human's turn with::

    {"type": "hint", "seq": 17, "hint": {...preferans-hint/1...}}

(see :mod:`preferans.players.explain`), only to the socket that asked.  The hint is worked
out in the table's thinking process (:meth:`preferans.server.thinking.Thinking.explain`),
within the level's decision budget, never on the event loop; a table without thinking
processes uses a thread.  The player gets the human seat's observation only, the one the
page itself is drawn from, so a hint can name no card the seat may not see.

Every hint given is counted in the game's summary (``hints_used``): the statistics mark
such games.  Errors: ``hints_off`` (the game was started without hints),
``not_your_turn``, ``hint_failed``.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

import anyio.to_thread
from starlette.websockets import WebSocket

from ...players import make_player
from ...rules import Rules
from ..lang.language import Said
from ..lang.request_errors import MessageError
from .seats import HUMAN, bot_seed
from .thinking import Seat, Thinking


def hint_level(difficulty: str) -> str:
    """The level whose thinking a hint shows: Crazy at the Crazy level, else Hard.

    >>> hint_level("crazy"), hint_level("easy")
    ('crazy', 'hard')
    """
    return "crazy" if difficulty == "crazy" else "hard"


def hint_summary(on: bool, used: int) -> dict[str, Any]:
    """The hint figures a game's summary carries (:func:`..store.stats.summarise`
    gives the rest): whether hints were on, and how many were asked."""
    return {"hints": bool(on), "hints_used": int(used)}


class Asked(Protocol):
    """What a hint needs of its table (:class:`.table.Table` gives it)."""

    lock: asyncio.Lock
    seq: int
    paused: bool
    difficulty: str
    seed: int
    thinking: Thinking | None

    @property
    def rules(self) -> Rules: ...

    @property
    def thinking_table(self) -> str: ...

    def seat_of(self, socket: WebSocket) -> int: ...

    def deal_over(self) -> bool: ...

    def seat_to_act(self) -> int | None: ...

    def seat_observation(self, seat: int) -> dict[str, Any]: ...

    def rules_json(self) -> str: ...

    async def send_to(self, socket: WebSocket, payload: dict[str, Any]) -> None: ...

    async def save_summary(self) -> None: ...


class Hints:
    """A table's hints: on or off for the game, how many were given, the last one."""

    def __init__(self, on: bool = False, used: int = 0) -> None:
        self.on = on
        self.used = used
        self._last: tuple[int, dict[str, Any]] | None = None
        self._player: Any = None
        """The hint player of a table without thinking processes (kept, like a bot)."""

    async def give(self, table: Asked, socket: WebSocket) -> None:
        """Answer a browser's hint request (see the module docstring)."""
        if not self.on:
            raise MessageError("hints_off", Said("table.hints_off"))
        mine = table.seat_of(socket)  # a table for friends: the asking browser's own seat
        async with table.lock:
            if table.deal_over() or table.seat_to_act() != mine or table.paused:
                raise MessageError("not_your_turn", Said("table.hint_not_now"))
            seq = table.seq
            observation = table.seat_observation(mine)
            first = self._last is None or self._last[0] != seq
            if first:
                self.used += 1
        if not first and self._last is not None:
            await table.send_to(socket, {"type": "hint", "seq": seq, "hint": self._last[1]})
            return
        await table.save_summary()
        level = hint_level(table.difficulty)
        try:
            if table.thinking is None:
                hint = await anyio.to_thread.run_sync(self._explain_here, table, level,
                                                      observation)
            else:
                # a seed of its own: never the same player as the seat's stand-in
                seed = bot_seed(table.seed, HUMAN if mine == HUMAN else 100 + mine)
                seat = Seat(table.thinking_table, mine, level, table.rules_json(), seed)
                hint = await table.thinking.explain(seat, observation)
        except Exception as exc:  # ThinkingError, or the player failed in this process
            raise MessageError("hint_failed", f"No hint this time ({exc}).") from None
        self._last = (seq, hint)
        await table.send_to(socket, {"type": "hint", "seq": seq, "hint": hint})

    def _explain_here(self, table: Asked, level: str, observation: dict[str, Any]
                      ) -> dict[str, Any]:

        if self._player is None or self._player.level.name != level:
            self._player = make_player(level, table.rules, bot_seed(table.seed, HUMAN))
        return dict(self._player.explain(observation))
