"""Who is in the lobby of a table for friends, as its page shows it: each seat holder's lobby
page asks for the lobby every 1.5 s (it is here) and says when it closes (a request sent on
``pagehide``), so a friend who left is shown away from the first second, with the seconds
left of the grace time counted down (as the table's plate does: :mod:`.standin`), and no
longer as "joined".  A page that stops asking without a word (a lost connection) is away from
its last visit once :data:`STALE` seconds have passed.

Kept with the party in the store (``Party.lobby``: seat -> when last here or gone, by the
wall clock, and whether gone), so every process behind one address and a restarted server
read the same; a visit is written at most every :data:`NOTE_EVERY` seconds a seat.  Pure
functions of that data and the time: the routes are :mod:`..web.friends`.

>>> marks = here({}, 1, 100.0)
>>> away(marks, [1], 103.0, 30), here(marks, 1, 101.0) is None
([], True)
>>> away(gone(marks, 1, 104.0), [1], 110.2, 30)
[{'seat': 1, 'left': 24, 'grace': 30, 'closed': True}]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

STALE = 6.0
"""Seconds without a visit after which a lobby page counts as gone (it asks every 1.5 s)."""
NOTE_EVERY = 2.0
"""A visit is written to the store at most this often a seat (the others are the same)."""

Marks = Mapping[int, tuple[float, bool]]
"""Seat -> (when its lobby page was last here or went, by the wall clock; whether it went)."""


def here(marks: Marks, seat: int, now: float) -> dict[int, tuple[float, bool]] | None:
    """The marks with ``seat``'s page here at ``now``, or None when nothing need be written
    (it was noted here less than :data:`NOTE_EVERY` seconds ago)."""
    when, went = marks.get(seat, (0.0, True))
    if not went and 0 <= now - when < NOTE_EVERY:
        return None
    return {**marks, seat: (now, False)}


def gone(marks: Marks, seat: int, now: float) -> dict[int, tuple[float, bool]]:
    """The marks with ``seat``'s page closed at ``now``: away from this second."""
    return {**marks, seat: (now, True)}


def away(marks: Marks, seats: Iterable[int], now: float,
         grace: float) -> list[dict[str, Any]]:
    """The friends of ``seats`` (those who took a seat) whose lobby page is gone:
    ``{"seat", "left", "grace", "closed"}`` with the seconds left of the grace time (0: past
    it); ``closed``: his page said it closed (else it stopped asking).  A seat never noted
    (a table from before, a friend who took his seat by a request alone) counts as here."""
    out = []
    for seat in seats:
        if seat not in marks:
            continue
        when, went = marks[seat]
        if not went and now - when <= STALE:
            continue
        left = max(0, math.ceil(grace - max(0.0, now - when)))
        out.append({"seat": seat, "left": left, "grace": int(grace), "closed": went})
    return out
