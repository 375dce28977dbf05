"""Blind bids in a deal: a blind winner forces the whist.
"""

from __future__ import annotations

from ..bids import Bid


class BlindDeal:
    """The whist a blind bid forces."""

    __slots__ = ()

    def _blind_forces(self, contract: Bid) -> bool:
        """000: "Players are always required to whist against ... games up to and including
        the same suit and one larger number of tricks than bid if a blind bid wins the
        auction." """
        bid = self.bid
        if not self.auction.blind_high or bid is None or bid.misere:
            return False
        top = Bid(min(bid.level + 1, 10), bid.trump)
        return contract.step <= top.step
