"""Classical's halves (1971): the first half's Rogue lists, half-time's all-passes, the
second half with its staying dealer, its limit on successful games and its final lap.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..i18n.notes import Note
from ..outcome import DealOutcome
from ..outcome import partners as _partners
from ..outcome import succeeded as _succeeded
from ..points import show_points as _show


class ClassicalSheet:
    """Classical on the sheet: the stage, the staying dealer, the second half's hill."""

    def _start_classical(self) -> None:
        """Classical (``rules.classical_halves``): the halves and the staying dealer."""
        rules = self.rules
        self.stage: str | None = "first half" if rules.classical_halves else None
        """Classical: ``first half`` (the Rogue lists), ``half-time`` or ``second half``."""
        self.halftime_left = 0
        self.dealer_run = 0
        """Classical: all-passes in a row of the dealer who stays (second half)."""
        self.dealer_stays = False
        """Classical: the dealer of the last deal deals the next one too."""
        self.first_dealer: int | None = None
        """Classical: the game's first dealer (the final lap ends before his deal)."""
        self.second_half_deals = 0
        self.final_lap = False
        """Classical: the final lap has started (``rules.final_lap_after``)."""
        self.over = False
        """Classical: the final lap is over."""

    def _classical(self, outcome: DealOutcome) -> None:
        """Classical: move from the first half to half-time to the second; the staying dealer.

        000: "Two laps of all-pass hands are played in the half-time."  "Dealer moves after
        each hand except all-pass in the second half, when dealer stays up to three all-pass
        in a row, then it moves even in case of all-pass."
        """
        rules = self.rules
        self.dealer_stays = False
        if self.first_dealer is None:
            self.first_dealer = outcome.dealer
        if self.stage == "first half" or outcome.kind == "allpass":
            self.compulsory_hands += 1
        elif self.stage == "second half" and _succeeded(outcome):
            self.second_half_made += 1
        if self.stage == "first half" and not any(self.rogue_lists):
            self.stage = "half-time"
            self.halftime_left = rules.halftime_laps * len(self.players)
            if rules.halftime_choice:
                self._halftime_choice()
                self.halftime_pending = True
        elif self.stage == "half-time":
            self.halftime_left -= 1
        elif self.stage == "second half":
            if outcome.kind == "allpass":
                self.dealer_run += 1
                self.dealer_stays = self.dealer_run < rules.dealer_stays
                if not self.dealer_stays:
                    self.dealer_run = 0
            else:
                self.dealer_run = 0
            n = len(self.players)
            if self.final_lap and not self.dealer_stays:
                self.over = (outcome.dealer + 1) % n == self.first_dealer
            self.second_half_deals += 1
            if self.final_lap_after and self.second_half_deals >= self.final_lap_after:
                self.final_lap = True
        if self.stage == "half-time" and self.halftime_left <= 0:
            self.stage = "second half"
        self.forced_allpass = self.stage == "half-time"

    def _second_half_hill(
        self, outcome: DealOutcome, game_point: Fraction, mountain: list[Fraction]
    ) -> list[str]:
        """Classical's second half: the limit on successful games, the staying dealer's offset.

        000: "If number of games played successfully in the second half exceeds those in the
        first half or all-pass, the soloist writes a half of the game point on his/her hill
        as if it were a result of a game in the first half that should have been played to
        satisfy the rule that number of successful games in the second half shall be within
        that of the compulsory hands or all-pass" (``second_half_limit``).  Reading: the
        allowance is the first half's deals plus every all-pass of the game so far
        (half-time and second half); a successful game (made, unplayed, half-whisted, a
        clean misère) beyond it writes half its game point (as the deal scored it, bombs and
        blind doubling included) on its soloist's mountain, on top of its usual scoring.

        000: "Some let the staying dealer of three all-pass write up to ten points on his/her
        hill to offset his/her advantage during these hands" (``staying_dealer_hill``, a house
        rule): written after the last all-pass of the dealer's full run.
        """
        rules = self.rules
        notes: list[str] = []
        declarer = outcome.declarer
        if (rules.second_half_limit and declarer is not None and outcome.kind != "allpass"
                and _succeeded(outcome)
                and self.second_half_made + 1 > self.compulsory_hands):
            half = game_point / 2
            partners = _partners(outcome)  # a shared game: half of it each (dealer_share)
            for seat in partners:
                mountain[seat] += half / len(partners)
            params = {"declarer": declarer, "game": self.second_half_made + 1,
                      "hands": self.compulsory_hands, "points": _show(half)}
            if len(partners) > 1:
                notes.append(Note("second_half_shared", dealer=outcome.dealer, **params))
            else:
                notes.append(Note("second_half", **params))
        if (rules.staying_dealer_hill and outcome.kind == "allpass"
                and self.dealer_run + 1 == rules.dealer_stays):
            mountain[outcome.dealer] += rules.staying_dealer_hill
            notes.append(Note("staying_dealer", dealer=outcome.dealer, deals=rules.dealer_stays,
                              points=rules.staying_dealer_hill))
        return notes

    def _classical_json(self) -> dict[str, Any]:
        return {
            "stage": self.stage,
            "halftime_left": self.halftime_left,
            "dealer_run": self.dealer_run,
            "dealer_stays": self.dealer_stays,
            "second_half_deals": self.second_half_deals,
            "final_lap": self.final_lap,
            "compulsory_hands": self.compulsory_hands,
            "second_half_made": self.second_half_made,
            **({"halftime": dict(self.halftime)} if self.halftime is not None else {}),
        }
