"""The structural variants: small parts the deal, the sheet and the game are made of.

Each variant lives in a module of its own and answers a few named decision points
(:mod:`preferans.variants.base` lists the deal's): the Rogue (:mod:`.rogue`), Racing
(:mod:`.racing`), Classical's halves (:mod:`.classical`) and half-time choice
(:mod:`.halftime`), the two-player dummy and the four-player sitting dealer
(:mod:`.seating`, :mod:`.dummy`, :mod:`.sitting_dealer`, :mod:`.invite`), and blind bids
(:mod:`.blind`).  A hand bid is the auction's own (:mod:`preferans.auction`).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from ..actions import Action
from ..auction import Auction
from ..outcome import DealOutcome
from ..phase import Phase
from ..scoring import DealScore, ScoringError
from .base import VariantState
from .blind import BlindDeal, BlindSheet
from .classical import ClassicalSheet
from .dummy import DummyDeal
from .halftime import HalftimeDeal, HalftimeSheet
from .invite import InviteDeal
from .racing import RacingSheet
from .rogue import RogueDeal, RogueSheet
from .sitting_dealer import SittingDealerDeal

__all__ = ["DealVariants", "SheetVariants", "VariantState"]


class DealVariants(
    RogueDeal, HalftimeDeal, DummyDeal, InviteDeal, SittingDealerDeal, BlindDeal, VariantState
):
    """The variants' part of a deal: the decision points :class:`~preferans.deal.Deal` asks."""

    __slots__ = ()

    def _new_auction(self, allpass_streak: int, blind_run: int | None,
                     forced_allpass: bool) -> Auction:
        """Who bids (the dummy never does), from which level, and whether blind bids open
        the auction (not in a compulsory all-pass)."""
        rules = self.rules  # type: ignore[attr-defined]
        seats = self.seats  # type: ignore[attr-defined]
        bidders = seats[1:] if self.dummy is not None else seats
        blind = blind_run if rules.blind_bids and not forced_allpass else None
        return Auction(rules, bidders, rules.min_bid_level(allpass_streak), blind)

    def _start_variants(
        self,
        forced_allpass: bool,
        rogue_lists: Sequence[Sequence[str]] | None,
        halftime: tuple[int, int] | None,
    ) -> None:
        """How the deal opens: the auction, the Rogue's naming (no auction) or, before
        either, the leader's half-time choice."""
        rules = self.rules  # type: ignore[attr-defined]
        self._soloist: int | None = None
        self._rogue_items: tuple[str, ...] = ()
        self.forced_allpass = forced_allpass
        self.rogue_item: str | None = None
        self.invited = False
        self.dealer_shared = False
        if rules.rogue != "none" and (not rules.classical_halves or rogue_lists is not None):
            self._start_rogue(rogue_lists)
        self._start_halftime(halftime)

    def _variant_to_act(self, phase: Phase) -> int | None:
        """Who acts in a variant's own phase (``None`` once the deal is done)."""
        if phase is Phase.NAME:
            return self._soloist
        if phase is Phase.INVITE:
            return self.dealer if self.invited else self.declarer  # type: ignore[attr-defined]
        if phase is Phase.HALFTIME:
            return self.halftime[0]  # type: ignore[index]
        return None

    def _apply_variant(self, phase: Phase, act: Action) -> None:
        """A variant's own phase: the Rogue's name, the half-time choice, the invitation."""
        if phase is Phase.NAME:
            self._apply_name(act)
        elif phase is Phase.HALFTIME:
            self._apply_halftime(act)
        elif phase is Phase.INVITE:
            self._apply_invite(act)


class SheetVariants(RogueSheet, RacingSheet, ClassicalSheet, HalftimeSheet, BlindSheet):
    """The variants' part of the sheet: the decision points :class:`~preferans.sheet.Sheet`
    asks, in the order :meth:`~preferans.sheet.Sheet.record` asks them."""

    def _start_variants(self) -> None:
        """Each variant's state (every sheet has it all; a variant not played keeps its
        starting values)."""
        self._start_rogue_sheet()
        self._start_racing()
        self._start_classical()
        self._start_blind()
        self._start_halftime_sheet()

    def _check_deal(self, outcome: DealOutcome, second_half: tuple[int, int] | None) -> None:
        """Whether this deal may be written at all (a ``ScoringError`` if not): a half-time
        choice due and allowed, a compulsory all-pass played as one."""
        if second_half is not None:
            self._check_second_half(second_half)
        if self.forced_allpass and outcome.kind != "allpass":
            raise ScoringError("this deal is a compulsory all-pass (Racing)")

    def _allpass_stake(self, outcome: DealOutcome) -> int | None:
        """The stake of an all-pass where a variant sets it (else ``None``: the rules')."""
        stake = self.forced_stake if outcome.kind == "allpass" else None
        if self.stage is not None and outcome.kind == "allpass":
            run = self.dealer_run + 1
            stake = self.rules.allpass_stake(run) if self.stage == "second half" else 1
        if outcome.kind == "allpass" and outcome.blind_passers:
            # 000: "They are doubled again when there is at least one blind pass."
            stake = 2 * (stake or self.rules.allpass_stake(self.allpass_streak + 1))
        return stake

    def _variant_score(
        self, outcome: DealOutcome, score: DealScore, second_half: tuple[int, int] | None
    ) -> list[Any]:
        """After the deal is scored: the blind multipliers, the Rogue list's check, the
        leader's half-time choice taking effect; the notes to write."""
        notes = self._multiply(outcome, score) if self.rules.blind_bids else []
        self._check_rogue(outcome)
        if self.halftime_pending:
            self.halftime_pending = False
            if second_half is not None:
                self._apply_second_half(second_half)
        return notes

    def _after_pools(
        self, outcome: DealOutcome, game_point: Fraction, mountain: list[Fraction]
    ) -> list[Any]:
        """After the pools are closed: the second half's hill."""
        if self.stage == "second half":
            return self._second_half_hill(outcome, game_point, mountain)
        return []

    def _after_streak(
        self,
        outcome: DealOutcome,
        streak: int,
        pool: list[Fraction],
        mountain: list[Fraction],
        whists: list[list[Fraction]],
    ) -> list[Any]:
        """Once the all-pass streak is known: Racing's rounds."""
        if self.rules.racing_rounds:
            return self._racing(outcome, streak, pool, mountain, whists)
        return []

    def _after_record(self, outcome: DealOutcome) -> None:
        """The deal is written: the Rogue list, the halves' stage, the bombs move on."""
        if outcome.rogue_item is not None:
            self.rogue_lists[outcome.declarer].remove(outcome.rogue_item)  # type: ignore[index]
        if self.stage is not None:
            self._classical(outcome)
        if self.rules.blind_bids:
            self._write_bombs(outcome)

    def _variant_end(self, end: str) -> bool | None:
        """Whether the game is over as a variant says (``None``: the pools decide)."""
        if self.stage is not None and self.stage != "second half":
            return False
        if self.over:
            return True
        if end == "lists":
            return not any(self.rogue_lists)
        if end == "rounds":
            return self.round > self.rules.racing_rounds
        return None

    def _settled_pools(self) -> tuple[list[Fraction], int | None]:
        """The pools and pool size the balance settles (Racing: the pools have earned their
        bonuses, so only the mountains are shared out)."""
        if self.rules.racing_rounds:
            return [Fraction(self.rules.pool)] * len(self.pool), None
        return self.pool, self.pool_size

    def _variant_json(self) -> dict[str, Any]:
        """The variants' keys of the sheet's JSON, in their order."""
        return {
            **({"rogue_lists": [list(x) for x in self.rogue_lists]} if self.rogue_lists else {}),
            **({"racing": self._racing_json()} if self.rules.racing_rounds else {}),
            **({"classical": self._classical_json()} if self.stage is not None else {}),
            **({"bombs": [list(b) for b in self.bombs]} if self.rules.blind_bids else {}),
        }

    def next_deal_options(self) -> dict[str, Any]:
        """What the next deal needs to know of the variants (keyword arguments of
        :class:`~preferans.deal.Deal`): the Rogue lists, a compulsory all-pass, the blind
        run, the half-time choice."""
        lists = self.rogue_lists or None
        if self.stage not in (None, "first half"):
            lists = None  # Classical: the Rogue lists are the first half only
        blind = (
            self.blind_run
            if self.rules.blind_bids and self.stage in (None, "second half")
            else None
        )
        # Classical (halftime_choice): the first deal after the first half opens with the
        # leader's choice of the second half (phase halftime, SECOND p t).
        halftime = None
        if self.halftime_pending and self.halftime is not None:
            halftime = (self.halftime["leader"], self.halftime["smallest_hill"])
        return {
            "rogue_lists": lists,
            "forced_allpass": self.forced_allpass,
            "blind_run": blind,
            "halftime": halftime,
        }

    def next_dealer(self, dealer: int) -> int:
        """Who deals next after ``dealer``: Racing's new round has its own first dealer;
        Classical's dealer stays after an all-pass; else the deal passes to the left."""
        if self.next_round_dealer is not None:
            return self.next_round_dealer
        if self.dealer_stays:
            return dealer
        return (dealer + 1) % self.rules.players
