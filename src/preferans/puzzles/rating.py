"""A browser's puzzle rating, by OpenSkill (the Plackett-Luce model of the ``openskill``
package): each try is a game between the player and the puzzle.

The player's rating lives in his browser (it sends it with each try and keeps the answer);
a puzzle's rating is fixed by its grade (``mu`` 15 + 5 × grade, ``sigma`` 3: grade 1 is 20,
grade 5 is 40, the player starts at 25 ± 8.3).  A puzzle solved at the first try, without
the hint, is a win; a wrong card or the hint first is a loss.  What the page shows is the
rating's ordinal (``mu − 3 sigma``: a cautious estimate that rises as it grows sure), times
40, so a new player starts at 0 and a strong one reaches 1,500 and more.

>>> start = new_rating()
>>> won = rate(start, grade=3, solved=True)
>>> won["mu"] > start["mu"] and won["sigma"] < start["sigma"]
True
>>> rate(start, grade=3, solved=False)["mu"] < start["mu"]
True
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from openskill.models import PlackettLuce

SHOWN_SCALE = 40
MU_BOUNDS = (-100.0, 200.0)
SIGMA_BOUNDS = (0.05, 25.0)


@cache
def _model() -> PlackettLuce:
    return PlackettLuce()


def new_rating() -> dict[str, float]:
    """A new player's rating."""
    r = _model().rating()
    return _shown(r.mu, r.sigma)


def shown(mu: float, sigma: float) -> int:
    """The number a page shows for a rating: its ordinal times :data:`SHOWN_SCALE`."""
    return round(max(0.0, mu - 3 * sigma) * SHOWN_SCALE)


def _shown(mu: float, sigma: float) -> dict[str, float]:
    return {"mu": mu, "sigma": sigma, "shown": shown(mu, sigma)}


def checked(mu: Any, sigma: Any) -> tuple[float, float]:
    """A rating sent by a browser, checked (it is data: numbers within bounds)."""
    for name, x, (lo, hi) in (("mu", mu, MU_BOUNDS), ("sigma", sigma, SIGMA_BOUNDS)):
        if isinstance(x, bool) or not isinstance(x, int | float) or not math.isfinite(x):
            raise ValueError(f"{name} must be a number")
        if not lo <= x <= hi:
            raise ValueError(f"{name} must be within {lo}..{hi}")
    return float(mu), float(sigma)


def rate(player: dict[str, Any], grade: int, solved: bool) -> dict[str, float]:
    """The player's rating after a try at a puzzle of ``grade``."""
    mu, sigma = checked(player.get("mu"), player.get("sigma"))
    model = _model()
    me = model.rating(mu=mu, sigma=sigma)
    puzzle = model.rating(mu=15.0 + 5.0 * grade, sigma=3.0)
    ranks = [0, 1] if solved else [1, 0]
    [[after], _] = model.rate([[me], [puzzle]], ranks=ranks)
    return _shown(after.mu, after.sigma)
