"""Four players (``dealer_share``): the soloist may invite the sitting dealer to share his game.
"""

from __future__ import annotations

from ..actions import (
    Action,
    ActionKind,
)


class InviteDeal:
    """ALONE or INVITE; the invited dealer's DECLINE or ACCEPT."""

    __slots__ = ()

    def _apply_invite(self, act: Action) -> None:
        """000: "The soloist can invite the dealer to share profit or losses equally in high
        risk hands like misere."  "If dealer accepts the invitation, he/she shares profit or
        losses equally with the soloist."  Then the game goes on as named."""
        if act.kind is ActionKind.INVITE:
            self.invited = True
            return
        self.dealer_shared = act.kind is ActionKind.ACCEPT
        self._play_contract()
