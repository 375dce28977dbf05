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

from ..actions import Action
from ..auction import Auction
from ..phase import Phase
from .base import VariantState
from .blind import BlindDeal
from .dummy import DummyDeal
from .halftime import HalftimeDeal
from .invite import InviteDeal
from .rogue import RogueDeal
from .sitting_dealer import SittingDealerDeal

__all__ = ["DealVariants", "VariantState"]


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
