"""Decisions on a clock: a wall-clock budget per decision, and anytime sampling and solving.

A Monte Carlo decision draws worlds and solves them.  With a budget, both are *anytime*:
candidate worlds are drawn until the level's count or a share of the budget
(:data:`SAMPLE_SHARE`), then the worlds are solved in spans of :data:`SPAN_WORLDS` until
every one is solved or the next span would end past the budget (its length guessed from
the longest span yet).  The decision then uses the worlds solved, never fewer than
:data:`FLOOR_WORLDS` (or every world when there are fewer): the floor is solved even when
the budget is already spent, in steps of :data:`FLOOR_STEP` worlds, up to the hard line
(:data:`HARD_SHARE` of the budget): on a machine so busy that the floor would end past it,
the decision stops there with no fewer than :data:`LEAST_WORLDS`.  With no budget
(``None``) every stage is one span: the decision is the one the player made before it had
a clock, and a budget that does not bind gives that same decision (the same worlds, the
same solver values, only solved in spans).

The clock is injectable (``time.perf_counter`` by default) so that tests can drive it.

>>> ticks = iter(range(100))
>>> d = Deadline(6.5, clock=lambda: float(next(ticks)))  # a second per look
>>> [span for span in d.spans(100, floor=16, step=16)]  # past the hard line, 8.1 s
[(0, 4), (4, 8), (8, 12)]
>>> d.stages[-1]
Stage(name='', planned=100, used=12, last_span=6.0)
>>> list(Deadline(None).spans(100))
[(0, 100)]
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

Clock = Callable[[], float]

FLOOR_WORLDS = 16
"""The fewest worlds a sampled decision uses (all of them when a stage has fewer)."""
SPAN_WORLDS = 16
"""Worlds solved per span between two looks at the clock."""
FLOOR_STEP = 4
"""Worlds of the floor solved between two looks at the clock (the floor in one span took
2.4 s of a 1.2 s budget on a two-core machine with six other busy processes)."""
HARD_SHARE = 1.25
"""The share of the budget past which not even the floor goes on (Crazy: 1.5 s), once
:data:`LEAST_WORLDS` are solved."""
LEAST_WORLDS = 8
"""The fewest worlds a decision on a clock solves when the floor would run past the hard
line (a stage with fewer solves them all)."""
SAMPLE_SHARE = 0.3
"""The share of the budget the drawing of candidate worlds may take."""
MODE_FLOOR = 0
"""The fewest imagined deals a lone whister plays out closed (the OPEN/CLOSED choice): none,
as a play-out is the costliest piece of work a decision has (~40-75 ms of CPU) and OPEN is
the sane default; CLOSED needs :data:`MODE_CLOSED_MIN` of them played."""
MODE_CLOSED_MIN = 2
"""The fewest play-outs on which a lone whister may choose CLOSED (else OPEN)."""
BUDGETS = {"normal": 0.3, "hard": 0.3, "crazy": 1.2}
"""Default budget per level, in seconds of wall-clock time: the point after which no new
span starts.  Below the targets (Hard p95 0.5 s, Crazy p95 1.5 s, no decision over 3 s)
to leave room for the last span and the work around the solving: with six busy processes
on two cores, Hard at 0.4 s gave p95 0.54 s, hence 0.3 s."""


@dataclass
class Stage:
    """One anytime stage of a decision: the worlds (or deals) it planned and used."""

    name: str
    planned: int
    used: int
    last_span: float = 0.0
    """Seconds into the decision when the stage's last span began."""


@dataclass
class Deadline:
    """The clock of one decision: started when the decision starts (``waited`` seconds
    before, when it waited for the player to start on it).

    ``budget``: seconds, or ``None`` for no limit.

    >>> Deadline(1.0, clock=lambda: 10.0, waited=0.75).over(share=0.7)
    True
    """

    budget: float | None
    clock: Clock = time.perf_counter
    waited: float = 0.0
    """Seconds the decision already waited before its player started on it (in the thinking
    process's queue, or for a core on a busy machine): they count against the budget."""
    start: float = field(init=False)
    stages: list[Stage] = field(default_factory=list, init=False)

    def __post_init__(self) -> None:
        self.start = self.clock() - max(0.0, self.waited)

    def elapsed(self) -> float:
        return self.clock() - self.start

    def over(self, share: float = 1.0, ahead: float = 0.0) -> bool:
        """Whether ``share`` of the budget is spent (or would be, ``ahead`` seconds on)."""
        if self.budget is None:
            return False
        return self.elapsed() + ahead >= self.budget * share

    def spans(self, n: int, *, floor: int = FLOOR_WORLDS, step: int = SPAN_WORLDS,
              name: str = "") -> Iterator[tuple[int, int]]:
        """Ranges ``(lo, hi)`` of ``n`` items to solve in turn: first the floor, in steps of
        :data:`FLOOR_STEP` (``floor <= 0``: a stage whose floor an earlier one met; none when
        the budget is spent), stopped only at the hard line once :data:`LEAST_WORLDS` are
        solved; then spans of ``step``, no one started when it would end past the budget (its
        length guessed from the slowest pace yet).  The stage is noted in :attr:`stages` when
        the caller has taken every range it was given.

        >>> ticks = iter(range(100))  # a second per look: the floor runs past the hard line
        >>> d = Deadline(4.0, clock=lambda: float(next(ticks)))
        >>> list(d.spans(100, floor=16))
        [(0, 4), (4, 8)]
        """
        if self.budget is None or n <= 0:
            if n > 0:
                yield 0, n
            self.stages.append(Stage(name, n, max(0, n)))
            return
        lo = 0
        if floor <= 0 and self.over():  # the floor is met already, and the time is spent
            self.stages.append(Stage(name, n, 0, self.elapsed()))
            return
        floor = min(n, max(0, floor))
        least = min(floor, LEAST_WORLDS)
        hi = min(floor, FLOOR_STEP) if floor > 0 else min(n, step)
        longest = 0.0
        last_span = 0.0
        while True:
            begun = self.clock()
            last_span = begun - self.start
            yield lo, hi
            per_world = (self.clock() - begun) / max(1, hi - lo)
            lo = hi
            if lo >= n:
                break
            if lo < floor:  # the floor, a step at a time, up to the hard line
                ahead = per_world * min(FLOOR_STEP, floor - lo)
                if lo >= least and self.over(share=HARD_SHARE, ahead=ahead):
                    break
                hi = min(floor, lo + FLOOR_STEP)
                continue
            longest = max(longest, per_world * step)  # a span's worlds at the slowest pace
            if self.over(ahead=longest):
                break
            hi = min(n, lo + step)
        self.stages.append(Stage(name, n, lo, last_span))

    def note(self, name: str, planned: int, used: int) -> None:
        self.stages.append(Stage(name, planned, used))


def default_budget(level: str) -> float | None:
    """The budget a level plays with by default (``None`` for the levels without one)."""
    return BUDGETS.get(level)


__all__ = ["BUDGETS", "FLOOR_STEP", "FLOOR_WORLDS", "HARD_SHARE", "LEAST_WORLDS",
           "MODE_CLOSED_MIN", "MODE_FLOOR", "SAMPLE_SHARE", "SPAN_WORLDS", "Clock",
           "Deadline", "Stage", "default_budget"]
