"""What one finished deal produced, in the form the score sheet needs.

:class:`DealOutcome` is the boundary between the deal (``deal.py``, the state
machine) and the pulya sheet (``sheet.py``, the scoring): the deal says *what
happened*, the sheet decides *what it is worth* under the rules and the sheet's
own state (pools, the all-pass streak).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .bids import Bid
from .cards import Card

DealKind = Literal["contract", "misere", "allpass", "passed", "halfwhist", "resigned"]
DefenceCall = Literal["WHIST", "PASS", "HALF"]


@dataclass(frozen=True)
class DealOutcome:
    """The facts of one deal.

    Seats are table seats (0..players-1).  With four players the dealer sits
    out: in all-pass the dealer is credited with the tricks the talon cards
    won (``tricks[dealer]``), otherwise the dealer has 0 tricks.

    - ``kind``: ``contract`` (played), ``misere``, ``allpass``, ``passed``
      (nobody whisted: the contract counts as made without play), ``halfwhist``
      (a half-whist stood: made without play, the half-whister credited), ``resigned``
      (declarer resigned after the talon: three undertricks of ``contract``, the winning
      bid or the contract named, without play).
    - ``contract``: the declared contract (``None`` for all-pass).
    - ``defence``: every defence call in the order spoken, reopening included,
      e.g. ``("PASS", "HALF", "WHIST")``.
    - ``whisters``: the seats that finally whist, in speaking order.
    - ``half_whister``: the seat whose half-whist stood (kind ``halfwhist``),
      or whose half-whist was overturned by a reopening whist (then its
      consolation goes to the reopening whister), else ``None``.
    - ``open_defence``: ``True``/``False`` for a lone whister's choice, else ``None``.
    - ``tricks``: tricks won per seat (all zeros for ``passed``/``halfwhist``).
    - ``forced``: the defence was forced (Stalingrad), for the record's sake.
    - ``talon``: the two talon cards as dealt (for talon prizes; ``()`` when unknown).
    - ``talon_refused``: declarer refused the talon (``REFUSE``) and played his own cards.

    With four players and ``dealer_whist`` the dealer may be the (lone) whister:
    ``whisters == (dealer,)``; the tricks stay with the defending seats.
    """

    kind: DealKind
    dealer: int
    players: int = 3
    declarer: int | None = None
    contract: Bid | None = None
    defence: tuple[DefenceCall, ...] = ()
    whisters: tuple[int, ...] = ()
    half_whister: int | None = None
    open_defence: bool | None = None
    tricks: tuple[int, ...] = (0, 0, 0)
    forced: bool = False
    talon: tuple[Card, ...] = ()
    talon_refused: bool = False
    alone: bool = False
    """Two players: the whister defended a 6 or 7 alone, the dummy's hand unused (000); he owes
    ``rules.dummy_alone_quota`` tricks.  The dummy's tricks are always counted as the other
    defender's, so ``tricks`` has one count per player."""
    rogue_item: str | None = None
    """Rogue: the game of the declarer's list this deal played (``"6S"``, ``"8"``,
    ``"MISERE"``); the sheet strikes it off his list."""
    blind: bool = False
    """The declarer won the auction with a blind bid (Classical ``blind_bids``)."""
    off_hill: tuple[int, ...] = ()
    """Seats whose pool points of this deal come off their own mountain instead (HILL)."""
    hand_game: bool = False
    """The declarer won with a hand bid and played without the talon (Classical)."""
    blind_passers: tuple[int, ...] = ()
    """Seats that passed blind in the auction (an all-pass with one writes bombs)."""
    overbid_misere: bool = False
    """The declarer's bid outbid another player's misère (Racing's ``failure_allpass``)."""
    invited: bool = False
    """Four players (``rules.dealer_share``): the soloist of a misère or a ten invited the
    sitting dealer (``INVITE``)."""
    dealer_shared: bool = False
    """... and the dealer accepted (``ACCEPT``): he shares the soloist's profit or losses
    equally (000); the sheet splits the soloist's scoring half and half with him."""

    def defenders(self) -> tuple[int, ...]:
        """The two defending seats in speaking order, declarer's left first."""
        if self.declarer is None:
            return ()
        seats = []
        seat = self.declarer
        for _ in range(self.players - 1):
            seat = (seat + 1) % self.players
            if self.players == 4 and seat == self.dealer:
                continue
            seats.append(seat)
        return tuple(seats)


def partners(outcome: DealOutcome) -> tuple[int, ...]:
    """The seats that score the soloist's game: the soloist, and the dealer who shares it
    (``dealer_share``); none for an all-pass."""
    if outcome.declarer is None or outcome.kind == "allpass":
        return ()
    if outcome.dealer_shared:
        return (outcome.declarer, outcome.dealer)
    return (outcome.declarer,)


def succeeded(outcome: DealOutcome) -> bool:
    """Whether the declarer's game succeeded (made, passed out, half-whisted, clean misère)."""
    if outcome.kind in ("passed", "halfwhist"):
        return True
    if outcome.declarer is None or outcome.contract is None or outcome.kind == "resigned":
        return False
    taken = outcome.tricks[outcome.declarer]
    return taken == 0 if outcome.contract.misere else taken >= outcome.contract.level
