"""Misère on imagined deals: the declarer's position before the first lead in each world
(the talon taken, the pair the evaluation likes best discarded) and the tricks it must take,
counted the cheap way first (the solver's "can it take no trick?" test) and exactly only where
that test says it must take one.  The auction, the discard and the Rogue's naming solve
misère this way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import overload

from ..solver import Position, misere_can_take_none, solve_batch
from .clock import Deadline
from .evaluation import misere_discard_candidates
from .sampling import World
from .solving import opening_position
from .view import SeatView

MISERE_FLOOR = 8
"""The fewest failing misères counted exactly on a clock (each costs about ten contracts)."""


class MisereOpenings(Sequence[Position]):
    """The misère before the first lead in each world: the seat takes the world's talon
    (``extra``) and discards the pair the evaluation likes best.  Each position is built
    when first read (a decision on a clock may read only some)."""

    def __init__(self, view: SeatView, hand: int, worlds: list[World]) -> None:
        self.view, self.hand, self.worlds = view, hand, worlds
        self._built: dict[int, Position] = {}

    def __len__(self) -> int:
        return len(self.worlds)

    @overload
    def __getitem__(self, i: int) -> Position: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Position]: ...

    def __getitem__(self, i: int | slice) -> Position | Sequence[Position]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        pos = self._built.get(i)
        if pos is None:
            w = self.worlds[i]
            hand12 = self.hand | w.extra
            pair = misere_discard_candidates(hand12, keep=1)[0]
            hands = dict(enumerate(w.hands))
            hands[self.view.seat] = hand12 & ~pair
            pos = self._built[i] = opening_position(self.view, hands, mode="misere",
                                                    side=self.view.seat, trump=None)
        return pos


def misere_openings(view: SeatView, hand: int, worlds: list[World]) -> Sequence[Position]:
    """The misère before the first lead in each world (see :class:`MisereOpenings`)."""
    return MisereOpenings(view, hand, worlds)


def misere_tricks(positions: Sequence[Position], threads: int, exact: int | None = None,
                  deadline: Deadline | None = None) -> list[int]:
    """Misère trick counts: the fast yes/no test on every position first, then an exact count
    where it says the declarer must take a trick.  ``exact``: count at most that many of the
    failing positions exactly and give the others those counts in turn (bidding only needs
    how often misère fails and roughly how badly).  On a ``deadline`` both steps are
    anytime: the counts returned are those of the positions tested (a prefix)."""
    clock = deadline if deadline is not None else Deadline(None)
    dirty: list[int] = []
    tested = 0
    for lo, hi in clock.spans(len(positions), name="misere test"):
        dirty += [i for i in range(lo, hi) if not misere_can_take_none(positions[i])]
        tested = hi
    out = [0] * tested
    if not dirty:
        return out
    counted = dirty if exact is None else dirty[:exact]
    values: list[int] = []
    for lo, hi in clock.spans(len(counted), name="misere count", floor=MISERE_FLOOR,
                              step=MISERE_FLOOR):
        values += solve_batch([positions[i] for i in counted[lo:hi]], threads=threads)
    for j, i in enumerate(dirty):
        out[i] = values[j % len(values)]
    return out
