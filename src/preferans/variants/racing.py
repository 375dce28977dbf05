"""Racing (000, "Racing", on Piter): the rules that are not the sheet's bookkeeping.

The sheet (:class:`preferans.sheet.Sheet`) keeps the rounds; this module says what a deal
means for them: the stake of the all-pass that a failure forces, and how a bonus is
shared.

000: "If there's a failed misere, following hand is an all-pass without doubles (2 points)
if the soloist won a trick, with doubled points if two, and with tripled points if three or
more.  If there's a failed 9 or 10 trick game that overbid misere, following hand is an
all-pass without doubled points if the soloist was in short of one trick, with doubled
points if two, and with tripled points if three or more."

>>> from preferans.bids import Bid
>>> from preferans.outcome import DealOutcome
>>> failure_stake(DealOutcome("misere", 2, 3, 0, Bid.parse("MISERE"), tricks=(2, 4, 4)))
2
>>> failure_stake(DealOutcome("contract", 2, 3, 0, Bid.parse("9S"), ("WHIST", "PASS"), (1,),
...                           tricks=(5, 5, 0), overbid_misere=True))
3
"""

from __future__ import annotations

from fractions import Fraction

from ..outcome import DealOutcome


def failure_stake(outcome: DealOutcome) -> int | None:
    """The stake (1, 2 or 3) of the all-pass this deal forces next, or ``None``."""
    declarer, contract = outcome.declarer, outcome.contract
    if declarer is None or contract is None:
        return None
    if outcome.kind == "misere":
        taken = outcome.tricks[declarer]
        return min(taken, 3) if taken else None
    if outcome.kind == "contract" and outcome.overbid_misere and contract.level >= 9:
        under = contract.level - outcome.tricks[declarer]
        return min(under, 3) if under > 0 else None
    return None


def share_bonus(winners: list[int], amount: int, whists: list[list[Fraction]]) -> None:
    """Each winner writes ``amount`` / len(winners) on every other player.

    000: "The points are shared equally in case of a tie."
    """
    n = len(whists)
    part = Fraction(amount, len(winners))
    for w in winners:
        for other in range(n):
            if other != w:
                whists[w][other] += part
