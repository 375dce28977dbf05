"""Racing (000, "Racing", on Piter): rounds of pools, each with its bonuses.

:class:`RacingSheet` is Racing's part of the sheet (:class:`preferans.sheet.Sheet`): the
rounds, their bonuses, the compulsory all-pass that opens a round or follows a failure, the
next round's dealer.  :func:`failure_stake` says the stake of the all-pass that a failure
forces, :func:`share_bonus` how a bonus is shared.

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
from typing import Any

from ..i18n.notes import Note
from ..outcome import DealOutcome
from ..points import json_number


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


class RacingSheet:
    """Racing on the sheet: the rounds, their bonuses, the all-pass a failure forces."""

    def _start_racing(self) -> None:
        """Racing (``rules.racing_rounds``): the rounds, each with its own pools and mountains."""
        self.round = 1
        """Racing: the round in progress (past the last once the game is over)."""
        self.rounds: list[dict[str, list[Fraction]]] = []
        """Racing: each finished round's ``pool`` and ``mountain``."""
        self._round_base: tuple[list[Fraction], list[Fraction]] = (list(self.pool),
                                                                   list(self.mountain))
        self._round_filled = False
        self.round_first_dealer: int | None = None
        self.next_round_dealer: int | None = None
        """Racing: who must deal the next deal, which starts a new round (else ``None``)."""
        self.forced_allpass = self.rules.racing_rounds > 0
        """Racing: the next deal is a compulsory all-pass (a round's first, or a failure's)."""
        self.forced_stake: int | None = None
        """Racing: the stake of that all-pass when a failure set it."""

    def _racing(
        self,
        outcome: DealOutcome,
        streak: int,
        pool: list[Fraction],
        mountain: list[Fraction],
        whists: list[list[Fraction]],
    ) -> list[str]:
        """Racing: the round's bonuses, its end, the all-pass a failure forces.

        000: "The first player to fill the pool in a round writes 300 points in each of
        his/her whists againts the other players. Player with the smallest hill at the end
        of a round writes 200 points similarly."  "If the limit is reached when minimum bid
        and points for all-pass games are raised, it is extended until an exit from the
        all-pass mode."  "At the end of all rounds, one with highest total of pool receives
        300 point bonus and smallest total hill 200, just like a round."
        """
        rules = self.rules
        n = len(pool)
        first_bonus, hill_bonus = rules.racing_bonuses
        notes: list[str] = []
        if self.round_first_dealer is None:
            self.round_first_dealer = outcome.dealer
            self.next_round_dealer = None
        base_pool, base_mountain = self._round_base
        round_pool = [p - b for p, b in zip(pool, base_pool, strict=True)]
        round_mountain = [m - b for m, b in zip(mountain, base_mountain, strict=True)]
        filled = [p for p in range(n) if round_pool[p] >= rules.pool]
        if filled and not self._round_filled:
            self._round_filled = True
            share_bonus(filled, first_bonus, whists)
            notes.append(Note("round_pool_first", seats=filled, bonus=first_bonus))
        self.forced_stake = failure_stake(outcome) if rules.failure_allpass else None
        self.forced_allpass = self.forced_stake is not None
        if self.forced_allpass:
            notes.append(Note("forced_allpass", stake=self.forced_stake))
        if not self._round_filled or streak or self.forced_allpass:
            return notes
        low = min(round_mountain)
        lows = [p for p in range(n) if round_mountain[p] == low]
        share_bonus(lows, hill_bonus, whists)
        notes.append(Note("round_over", round=self.round, seats=lows, bonus=hill_bonus))
        self.rounds.append({"pool": round_pool, "mountain": round_mountain})
        self._round_base = (list(pool), list(mountain))
        self._round_filled = False
        self.round += 1
        assert self.round_first_dealer is not None
        self.next_round_dealer = (self.round_first_dealer + 1) % n
        self.round_first_dealer = None
        self.forced_allpass = True
        if self.round > rules.racing_rounds:
            self.forced_allpass = False
            self.next_round_dealer = None
            top = max(pool)
            tops = [p for p in range(n) if pool[p] == top]
            share_bonus(tops, first_bonus, whists)
            low = min(mountain)
            lows = [p for p in range(n) if mountain[p] == low]
            share_bonus(lows, hill_bonus, whists)
            notes.append(Note("racing_final", tops=tops, pool_bonus=first_bonus, lows=lows,
                              hill_bonus=hill_bonus))
        return notes

    def _racing_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "rounds": [
                {k: [json_number(x) for x in v] for k, v in r.items()} for r in self.rounds
            ],
            "forced_allpass": self.forced_allpass,
            "forced_stake": self.forced_stake,
        }
