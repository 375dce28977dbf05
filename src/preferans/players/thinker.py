"""What every decision of a Monte Carlo player shares: the rules, the level, the clock, the
seat's score model, the worlds it draws, the work kept from one decision of a deal to the
next, and the notes :meth:`.montecarlo.MonteCarloPlayer.explain` reads.

The decision modules (:mod:`.auction`, :mod:`.declarer`, :mod:`.defence`, :mod:`.play`,
:mod:`.variant_calls`) are functions of a :class:`Thinker` and a seat's view; the player
(:class:`.montecarlo.MonteCarloPlayer`) is a thinker that picks which of them answers.
"""

from __future__ import annotations

import random
import time
from typing import Any

from ..rules import Rules
from .clock import FLOOR_WORLDS, SAMPLE_SHARE, Clock, Deadline
from .levels import HARD, LEVELS_BY_NAME, Level
from .sampling import Sampler, World
from .utility import ScoreModel, cached_model
from .view import SeatView


class Thinker:
    """A Monte Carlo player's state between decisions, and the tools every decision uses.

    ``budget``: seconds of wall-clock time per decision (see :mod:`.clock`), read from
    ``clock``; ``None`` for none.  :attr:`deadline` is the clock of the decision under way.
    """

    def __init__(self, rules: Rules, seed: int = 0, level: Level | str = HARD,
                 threads: int = 2, *, budget: float | None = None,
                 clock: Clock = time.perf_counter) -> None:
        if budget is not None and not budget > 0:
            raise ValueError(f"a decision budget must be a positive number of seconds, "
                             f"not {budget!r}")
        self.rules = rules
        self.seed = seed
        self.level = LEVELS_BY_NAME[level] if isinstance(level, str) else level
        self.threads = threads
        self.budget = budget
        self.clock = clock
        self.deadline = Deadline(None, clock)
        """The clock of the decision under way (and the worlds each of its stages used)."""
        self.waited = 0.0
        """Seconds the next decision already waited before it started (the web server's
        thinking process sets it): spent from its budget (see :mod:`.clock`)."""
        self.last_deadline: Deadline | None = None
        self.bid_cache: dict[tuple[Any, ...], dict[str, Any]] = {}
        """The bidding analysis, once per deal and seat (:func:`.auction.bid_analysis`)."""
        self.declarer_cache: dict[tuple[Any, ...], dict[str, Any]] = {}
        """The declarer's worlds after the talon and their solves
        (:func:`.declarer.declarer_worlds`)."""
        self.inference_cache: dict[tuple[Any, ...], dict[int, int]] = {}
        """The card-play inference's solves (:func:`.inference.play_weights`)."""
        self.explaining: dict[str, Any] | None = None
        """While an explanation is asked for: what the decision computed (see :meth:`note`)."""

    def model(self, view: SeatView) -> ScoreModel:
        """The seat's score model: the sheet's own scoring (the sheet itself only where the
        level values decisions by the score)."""
        return cached_model(
            self.rules,
            view.seat,
            dealer=view.dealer,
            sheet=view.sheet if self.level.score_aware else None,
            allpass_streak=view.allpass_streak,
        )

    def sample(self, view: SeatView, rng: random.Random, n: int) -> list[World]:
        """``n`` worlds for ``view`` (fewer when the clock runs short), noted on the clock."""
        deadline = self.deadline
        stop = None if deadline.budget is None else (lambda: deadline.over(SAMPLE_SHARE))
        worlds = Sampler(view, rng).sample(n, oversample=self.level.oversample, stop=stop,
                                           floor=FLOOR_WORLDS)
        deadline.note("sample", n, len(worlds))
        return worlds

    def note(self, kind: str, unit: str, values: dict[str, float], worlds: int,
             **extra: Any) -> None:
        """Keep a decision's values for an explanation (nothing when none is asked for):
        ``values`` maps each option (an action token) to the value the player compared."""
        if self.explaining is not None:
            self.explaining.update(kind=kind, unit=unit, values=dict(values),
                                   worlds=worlds, **extra)
