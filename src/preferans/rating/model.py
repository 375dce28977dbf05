"""The rating model: OpenSkill's Plackett-Luce over whole games, one team of one per seat.

A rating is a normal belief about a player's skill, mean ``mu`` and deviation ``sigma``
(OpenSkill's scale: a new player is 25 ± 8.33).  A game orders its seats by their final
balance, higher first; equal balances are ties.  The number shown to a player is ``mu`` with
the interval ``± 2·sigma`` (about 95%: "27.4 ± 6.1"); the ladder ranks by the interval's lower
end, ``mu − 2·sigma`` (:func:`ordinal`), so that a player is placed above another only when
the games say so, not because he has played few of them.

A holder that sits in several seats of one game (a computer level at a table against the
computer takes both other seats) is rated once for all of them: each seat's update starts
from the same prior, the mean moves by the sum of the seats' moves and the precisions add
(:func:`combine`), as if the seats were separate games with the same prior.

>>> after = rate_seats([Rating(25.0, 25 / 3), Rating(25.0, 25 / 3), Rating(25.0, 25 / 3)],
...                    [30.0, -10.0, -20.0])
>>> [round(r.mu, 3) for r in after]
[27.869, 25.717, 21.414]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MU = 25.0
"""A new player's mean (OpenSkill's default)."""
SIGMA = MU / 3
"""A new player's deviation (OpenSkill's default)."""
Z = 2.0
"""The shown interval is ``mu ± Z·sigma``; the ladder ranks by ``mu − Z·sigma``."""

MODEL = PlackettLuce(mu=MU, sigma=SIGMA)
"""The one model every rating goes through (OpenSkill's defaults: beta = sigma/2,
tau = mu/300)."""


@dataclass(frozen=True)
class Rating:
    """A holder's rating: mean, deviation and the rated games behind it."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def low(self) -> float:
        """The lower end of the shown interval (what the ladder ranks by)."""
        return ordinal(self.mu, self.sigma)

    def shown(self) -> str:
        """The rating as a player reads it.

        >>> Rating(27.43, 3.06).shown()
        '27.4 ± 6.1'
        """
        return shown(self.mu, self.sigma)

    def to_json(self) -> dict[str, float | int | str]:
        return {"mu": round(self.mu, 3), "sigma": round(self.sigma, 3), "games": self.games,
                "low": round(self.low, 3), "high": round(self.mu + Z * self.sigma, 3),
                "shown": self.shown()}


def ordinal(mu: float, sigma: float) -> float:
    """``mu − 2·sigma``: the number the ladder ranks by."""
    return mu - Z * sigma


def shown(mu: float, sigma: float) -> str:
    """``"mu ± 2·sigma"`` with one decimal each."""
    return f"{mu:.1f} ± {Z * sigma:.1f}"


def ranks(balances: Sequence[float]) -> list[int]:
    """Each seat's place by balance (1 = the highest; equal balances share a place).

    >>> ranks([10.0, -5.0, 10.0, -5.0])
    [1, 3, 1, 3]
    """
    return [1 + sum(1 for other in balances if other > mine + 1e-9) for mine in balances]


def rate_seats(before: Sequence[Rating], balances: Sequence[float]) -> list[Rating]:
    """Every seat's rating after a game that ended with ``balances`` (OpenSkill's update,
    one team of one per seat; ``games`` goes up by one)."""
    if len(before) != len(balances) or len(before) < 2:
        raise ValueError("a rated game needs a rating and a balance for each of 2+ seats")
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = MODEL.rate(teams, ranks=ranks(balances))
    return [Rating(team[0].mu, team[0].sigma, r.games + 1)
            for team, r in zip(after, before, strict=True)]


def combine(prior: Rating, updates: Sequence[Rating]) -> Rating:
    """One holder's rating after a game in which he held several seats, each updated from
    the same ``prior`` (module docstring); one game more.

    >>> one = Rating(26.0, 8.0, 1)
    >>> combine(Rating(25.0, 25 / 3), [one]) == one
    True
    """
    if len(updates) == 1:
        return updates[0]
    base = math.sqrt(prior.sigma ** 2 + MODEL.tau ** 2)  # the prior as the update saw it
    mu = prior.mu + sum(u.mu - prior.mu for u in updates)
    precision = sum(1 / u.sigma ** 2 for u in updates) - (len(updates) - 1) / base ** 2
    sigma = 1 / math.sqrt(precision) if precision > 0 else min(u.sigma for u in updates)
    return Rating(mu, sigma, prior.games + 1)
