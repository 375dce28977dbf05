"""The all-pass as the auction sees it: what passing risks when nobody has bid.

With :attr:`.Level.allpass_solved` (Crazy) the bidding worlds solve this seat's all-pass
tricks double dummy against the other two (:func:`allpass_opening`), scaled to real play by
:data:`ALLPASS_REAL`; otherwise the rough count of :func:`.evaluation.allpass_tricks`.  The
all-pass's card play is the card play's (:mod:`.play`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..rules import Rules
from ..solver import Position
from .evaluation import allpass_tricks
from .levels import Level
from .sampling import World, weighted_mean
from .solving import opening_position, talon_leads
from .utility import ScoreModel
from .view import SeatView

ALLPASS_REAL = 0.75
"""A hand's all-pass tricks in real play per trick double dummy against the other two (the
solver's all-pass: the other two play together against it): 336 hands of the all-pass deals
of 116 whole pulya-10 games, Crazy and Hard at the table, took 3.33 tricks where double dummy
gave 4.52; the fit was 0.753 × double dummy − 0.07."""
ALLPASS_KEY = 99
"""The bidding analysis's batch index of a world's all-pass (strains are 0..4, rivals < 0)."""
ALLPASS_WORLDS = 100
"""The all-pass is solved in at most this many of the bidding worlds (its mean is all PASS
needs; all 400 made Crazy's first call 65 % slower)."""


def interpolate(table: Sequence[float], tricks: float) -> float:
    """``table`` (values for 0..10 tricks) read at a fractional trick count."""
    est = max(0.0, min(10.0, tricks))
    lo = int(est)
    frac = est - lo
    return table[lo] * (1 - frac) + table[min(10, lo + 1)] * frac


def allpass_in_bidding(level: Level, rules: Rules, view: SeatView) -> bool:
    """Whether the bidding analysis solves the all-pass (:attr:`Level.allpass_solved`):
    a plain three-hand auction where nobody has bid yet."""
    return (level.allpass_solved and view.players == 3 and rules.players == 3
            and view.dummy is None and not view.extras
            and not any(t.upper() != "PASS" for _, t in view.auction))


def allpass_opening(view: SeatView, world: World, rules: Rules) -> Position:
    """This seat's all-pass in ``world`` before the first lead, the talon's leads as the
    rules turn it."""
    return opening_position(view, dict(enumerate(world.hands)), mode="allpass",
                            side=view.seat, trump=None,
                            leads=talon_leads(view, world, rules.allpass_talon))


def allpass_worth(view: SeatView, model: ScoreModel,
                  analysis: Mapping[str, Any] | None) -> float:
    """What an all-pass is worth to this seat: by the tricks the bidding worlds solved
    (``analysis["allpass"]``, scaled by :data:`ALLPASS_REAL`) or else the evaluation's."""
    table = model.allpass_table()
    solved = analysis.get("allpass") if analysis else None
    if solved:
        assert analysis is not None
        return weighted_mean([interpolate(table, ALLPASS_REAL * t) for t in solved],
                             analysis["weights"][: len(solved)])
    return interpolate(table, allpass_tricks(view.hand))
