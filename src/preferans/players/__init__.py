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

A level can be changed one setting at a time for experiments (:class:`.levels.Level`'s
fields after ``/``), e.g. Crazy without the rival's contract in its PASS:

>>> make_player("crazy/rival_in_pass=0", Rules.preset("sochi")).level.rival_in_pass
False
"""

from __future__ import annotations

import dataclasses
import math
import time
from typing import Any, Final

from ..rules import Rules
from . import clock as _clock
from .base import Player, RandomPlayer
from .clock import Clock
from .easy import EasyPlayer
from .levels import CRAZY, HARD, NORMAL, Level
from .montecarlo import MonteCarloPlayer

LEVELS = ("easy", "normal", "hard", "crazy")
LEVEL_BUDGET: Final = "level"
"""``make_player(budget=...)``: the level's own budget (:data:`.clock.BUDGETS`)."""
MAX_BUDGET = 3600.0


def level_tweaks(name: str) -> tuple[str, dict[str, Any]]:
    """Split ``crazy/worlds=200/rival_in_pass=0`` into the name before the first ``/`` and
    the :class:`.levels.Level` fields after it, read as the fields' types.

    >>> level_tweaks("crazy-nobudget/worlds=200/play_inference=no")
    ('crazy-nobudget', {'worlds': 200, 'play_inference': False})
    """
    base, *parts = name.split("/")
    types = {f.name: f.type for f in dataclasses.fields(Level)}
    tweaks: dict[str, Any] = {}
    for part in parts:
        field_name, sep, text = part.strip().partition("=")
        kind = types.get(field_name)
        if not sep or kind is None or field_name == "name":
            known = ", ".join(t for t in types if t != "name")
            raise ValueError(f"player {name!r}: after / comes FIELD=VALUE with a level's "
                             f"field ({known}), not {part!r}")
        try:
            if kind in (bool, "bool"):
                if text.lower() not in ("1", "0", "yes", "no", "true", "false"):
                    raise ValueError(text)
                tweaks[field_name] = text.lower() in ("1", "yes", "true")
            elif kind in (int, "int"):
                tweaks[field_name] = int(text)
            else:
                tweaks[field_name] = float(text)
        except ValueError:
            raise ValueError(f"player {name!r}: {field_name} takes a {kind}, not {text!r}"
                             ) from None
    return base, tweaks


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
    base, tweaks = level_tweaks(level)
    key, named = parse_player(base)
    if tweaks and key not in ("normal", "hard", "crazy"):
        raise ValueError(f"player {level!r}: only normal, hard and crazy take level settings")
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
        chosen = {"normal": NORMAL, "hard": HARD, "crazy": CRAZY}[key]
        if tweaks:
            chosen = dataclasses.replace(chosen, name=level.strip().lower(), **tweaks)
        return MonteCarloPlayer(rules, seed, chosen, budget=seconds, clock=clock)
    known = ", ".join((*LEVELS, "random"))
    raise ValueError(f"unknown player level {level!r} (known: {known})")


__all__ = ["LEVELS", "LEVEL_BUDGET", "EasyPlayer", "MonteCarloPlayer", "Player",
           "RandomPlayer", "level_tweaks", "make_player", "parse_player"]
