"""The two-player game's dummy: the third hand of every deal.
"""

from __future__ import annotations

from ..actions import (
    OPEN,
    Action,
    ActionKind,
)
from ..phase import Phase

DUMMY = 2
"""The dummy's seat in the two-player game: the third hand of every deal (000: "There is
always a dummy player to the left hand side of the dealer")."""


class DummyDeal:
    """Who defends with two players: the dummy always passes; the other defender decides alone."""

    __slots__ = ()

    def _partner_of_dummy(self) -> int:
        """The two-player game's defender who is not the dummy."""
        return next(s for s in self.defenders if s != DUMMY)

    def _apply_defence_two(self, seat: int, act: Action) -> None:
        """Two players: the dummy always passes; the other defender decides alone.

        000: "A whisting player can choose to whist alone against games at six or seven
        tricks ... If a whister whists with the dummy, the hand is played just like open
        whists in three player games."
        """
        if act.kind is ActionKind.PASS:
            self._finish("passed")
        elif act.kind is ActionKind.HALF:
            self.half_whister = seat
            self._finish("halfwhist")
        else:
            self.whisters = (seat,)
            if self._alone_allowed():
                self.phase = Phase.DEFENCE_MODE
            else:
                self._apply_mode(OPEN)

    def _alone_allowed(self) -> bool:
        return (
            self.rules.dummy_lone_whist
            and self.contract is not None
            and self.contract.level in (6, 7)
        )
