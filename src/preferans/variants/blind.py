"""Blind bids in a deal: a blind winner forces the whist.
"""

from __future__ import annotations

from ..bids import Bid
from ..i18n.notes import Note
from ..outcome import DealOutcome
from ..outcome import succeeded as _succeeded
from ..scoring import DealScore


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


class BlindSheet:
    """Blind bids on the sheet: the doubled game, the bombs, the dealer's blind run."""

    def _start_blind(self) -> None:
        self.bombs: list[list[int]] = [[] for _ in self.players]
        """Blind bidding: each player's bombs, oldest first (1 simple, 2 double, 3 tree)."""
        self.blind_run = 0
        """Blind bidding: blind all-passes in a row of the dealer who deals next."""

    def _multiply(self, outcome: DealOutcome, score: DealScore) -> list[str]:
        """Blind bidding: a blind winner's game counts double, the declarer's oldest bomb
        multiplies it by 2, 4 or 8 and is used up when the game succeeds.

        000: "The points are doubled if the soloist has a simple bomb, quadrupled if he/she
        has a double bomb, and eight times higher if he/she has a tree. It is doubled again
        if the soloist won the auction by a blind bid. If he/she has more than one bombs, the
        oldest one is used. The used bomb disappears if the soloist was successful and
        remains if he/she failed."
        """
        declarer = outcome.declarer
        if declarer is None or outcome.kind == "allpass":
            return []
        factor = 2 if outcome.blind else 1
        bombs = self.bombs[declarer]
        notes: list[str] = [Note("blind")] if outcome.blind else []
        if bombs:
            factor *= 2 ** bombs[0]
            notes.append(Note("bomb", declarer=declarer, factor=2 ** bombs[0]))
            if _succeeded(outcome):
                bombs.pop(0)
        if factor == 1:
            return []
        score.pool = [p * factor for p in score.pool]
        score.mountain = [m * factor for m in score.mountain]
        score.whists = [[w * factor for w in row] for row in score.whists]
        return notes

    def _write_bombs(self, outcome: DealOutcome) -> None:
        """Blind bidding: a blind all-pass writes bombs; the dealer's blind run.

        000: "If three players passed in the auction and at least one of them did so
        blindly, who called pass blindly writes a bomb in his/her pool and who did not a
        bomb one degree less than who did (none in case of simple bombs). The dealer, when
        four play, gets the same bomb as the others if everyone passes blindly or as one who
        looked at one's hand otherwise. The type of bomb is a single, a double, or a triple
        bomb if it was the first, second or third blind all-pass in a row during staying
        deals of the current dealer."
        """
        if outcome.kind != "allpass" or not outcome.blind_passers:
            self.blind_run = 0
            return
        degree = min(self.blind_run + 1, 3)
        n = len(self.players)
        bidders = [s for s in range(n) if not (n == 4 and s == outcome.dealer)]
        all_blind = set(bidders) <= set(outcome.blind_passers)
        for seat in range(n):
            blind = seat in outcome.blind_passers or (seat not in bidders and all_blind)
            level = degree if blind else degree - 1
            if level > 0:
                self.bombs[seat].append(level)
        self.blind_run = self.blind_run + 1 if self.dealer_stays else 0
