"""Computer players.

Every player answers one question: given what its seat may see (an
observation, see :meth:`preferans.deal.Deal.observation`), which legal action
does it take?  Players never see hidden cards.

>>> from preferans.rules import Rules
>>> from preferans.players import make_player
>>> bot = make_player("random", Rules.preset("sochi"), seed=1)
"""

from __future__ import annotations

from ..rules import Rules
from .base import Player, RandomPlayer
from .easy import EasyPlayer
from .montecarlo import CRAZY, HARD, NORMAL, MonteCarloPlayer

LEVELS = ("easy", "normal", "hard", "crazy")


def make_player(level: str, rules: Rules, seed: int = 0) -> Player:
    """A computer player of this level; ``random`` is a baseline picking any legal action."""
    key = level.strip().lower()
    if key == "random":
        return RandomPlayer(seed)
    if key == "easy":
        return EasyPlayer(rules, seed)
    if key in ("normal", "hard", "crazy"):
        return MonteCarloPlayer(rules, seed, {"normal": NORMAL, "hard": HARD, "crazy": CRAZY}[key])
    known = ", ".join((*LEVELS, "random"))
    raise ValueError(f"unknown player level {level!r} (known: {known})")


__all__ = ["LEVELS", "EasyPlayer", "MonteCarloPlayer", "Player", "RandomPlayer", "make_player"]
