"""Computer players.

Every player answers one question: given what its seat may see (an
observation, see :meth:`preferans.deal.Deal.observation`), which legal action
does it take?  Players never see hidden cards.

>>> from preferans.rules import Rules
>>> from preferans.players import make_player
>>> bot = make_player("random", Rules.preset("sochi"), seed=1)
>>> make_player("crazy", Rules.preset("sochi")).budget  # seconds per decision
1.2
>>> make_player("crazy-nobudget", Rules.preset("sochi")).budget is None
True
>>> make_player("hard-budget=2.5", Rules.preset("sochi")).budget
2.5
"""

from __future__ import annotations

import math
import time
from typing import Final

from ..rules import Rules
from . import clock as _clock
from .base import Player, RandomPlayer
from .clock import Clock
from .easy import EasyPlayer
from .montecarlo import CRAZY, HARD, NORMAL, MonteCarloPlayer

LEVELS = ("easy", "normal", "hard", "crazy")
LEVEL_BUDGET: Final = "level"
"""``make_player(budget=...)``: the level's own budget (:data:`.clock.BUDGETS`)."""
MAX_BUDGET = 3600.0


def parse_player(name: str) -> tuple[str, float | str | None]:
    """A player name: a level, optionally with its budget: ``crazy`` (the budget the caller
    chooses), ``crazy-budget`` (the level's budget), ``crazy-nobudget`` (none),
    ``crazy-budget=0.8`` (0.8 s per decision).  Returns the level and the budget
    (:data:`LEVEL_BUDGET`, ``None``, seconds, or ``""`` when the name does not say).

    >>> parse_player("Crazy-NoBudget")
    ('crazy', None)
    >>> parse_player("hard")
    ('hard', '')
    """
    key = name.strip().lower()
    level, sep, suffix = key.partition("-")
    if not sep:
        return key, ""
    if suffix == "nobudget":
        return level, None
    if suffix == "budget":
        return level, LEVEL_BUDGET
    if suffix.startswith("budget="):
        text = suffix[len("budget="):]
        try:
            seconds = float(text)
        except ValueError:
            seconds = math.nan
        if not 0 < seconds <= MAX_BUDGET:
            raise ValueError(f"player {name!r}: the budget must be a number of seconds in "
                             f"(0, {MAX_BUDGET:g}], not {text!r}")
        return level, seconds
    raise ValueError(f"player {name!r}: after the level comes -budget, -nobudget or "
                     f"-budget=SECONDS, not -{suffix}")


def make_player(level: str, rules: Rules, seed: int = 0, *,
                budget: float | str | None = LEVEL_BUDGET,
                clock: Clock = time.perf_counter) -> Player:
    """A computer player of this level; ``random`` is a baseline picking any legal action.

    ``budget``: the wall-clock seconds a Normal, Hard or Crazy decision may take (see
    :mod:`.clock`): the level's own by default (:data:`.clock.BUDGETS`), ``None`` for none
    (reproducible whatever the machine's load).  A budget in the name (``crazy-nobudget``,
    ``crazy-budget=0.8``, ``crazy-budget``; see :func:`parse_player`) wins over this one.
    ``clock``: where the time is read (tests pass a fake one).
    """
    key, named = parse_player(level)
    if named != "":
        budget = named
    if key == "random":
        return RandomPlayer(seed)
    if key == "easy":
        return EasyPlayer(rules, seed)
    if key in ("normal", "hard", "crazy"):
        seconds = _clock.BUDGETS.get(key) if budget == LEVEL_BUDGET else budget
        if isinstance(seconds, str):
            raise ValueError(f"unknown budget {budget!r} (seconds, None or {LEVEL_BUDGET!r})")
        return MonteCarloPlayer(rules, seed, {"normal": NORMAL, "hard": HARD, "crazy": CRAZY}[key],
                                budget=seconds, clock=clock)
    known = ", ".join((*LEVELS, "random"))
    raise ValueError(f"unknown player level {level!r} (known: {known})")


__all__ = ["LEVELS", "LEVEL_BUDGET", "EasyPlayer", "MonteCarloPlayer", "Player",
           "RandomPlayer", "make_player", "parse_player"]
