"""Who is in the lobby of a table for friends, as its page shows it: each seat holder's lobby
page asks for the lobby every 1.5 s (it is here) and says when it closes (a beacon on
``pagehide``), so a friend who left is shown away from the first second, with the seconds
left of the grace time counted down (as the table's plate does: :mod:`.standin`), and no
longer as "joined".  A page that stops asking without a word (a lost connection) is away from
its last visit once :data:`STALE` seconds have passed.

Kept in this process's memory, bounded (:data:`GAMES_MOST` tables): a restart forgets who
left, and every seat then counts as here until its page is missed for :data:`STALE` seconds.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any

from .standin import GRACE_SECONDS

STALE = 6.0
"""Seconds without a visit after which a lobby page counts as gone (it asks every 1.5 s)."""
GAMES_MOST = 4096
"""Lobbies remembered at once (the least recently asked for are forgotten first)."""


class LobbyPresence:
    """The lobby pages of the tables for friends gathering in this process."""

    def __init__(self, grace: float = GRACE_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.grace = grace
        self.clock = clock
        self._games: OrderedDict[str, dict[int, tuple[float, bool]]] = OrderedDict()
        """Game -> seat -> (when its page was last here or left, whether it left)."""

    def _seats(self, game: str) -> dict[int, tuple[float, bool]]:
        seats = self._games.get(game)
        if seats is None:
            seats = self._games[game] = {}
            while len(self._games) > GAMES_MOST:
                self._games.popitem(last=False)
        self._games.move_to_end(game)
        return seats

    def here(self, game: str, seat: int) -> None:
        """A lobby page of ``seat`` asked for the lobby: he is here."""
        self._seats(game)[seat] = (self.clock(), False)

    def left(self, game: str, seat: int) -> None:
        """The lobby page of ``seat`` closed: he is away from this second."""
        self._seats(game)[seat] = (self.clock(), True)

    def away(self, game: str, seats: Iterable[int]) -> list[dict[str, Any]]:
        """The friends of ``seats`` (those who took a seat) whose lobby page is gone:
        ``{"seat", "left", "grace", "closed"}`` with the seconds left of the grace time (0:
        past it); ``closed``: his page said it closed (else it stopped asking)."""
        known = self._seats(game)
        now = self.clock()
        out = []
        for seat in seats:
            when, gone = known.setdefault(seat, (now, False))  # first asked: here
            if not gone and now - when <= STALE:
                continue
            left = max(0, math.ceil(self.grace - (now - when)))
            out.append({"seat": seat, "left": left, "grace": int(self.grace), "closed": gone})
        return out
