"""Four players (``dealer_whist``): the sitting dealer may look at a defender's hand and whist.
"""

from __future__ import annotations

from ..actions import (
    Action,
    ActionKind,
)


class SittingDealerDeal:
    """The sitting dealer's LOOK, then PASS or WHIST."""

    __slots__ = ()

    def _apply_dealer(self, act: Action) -> None:
        dealer = self.dealer
        self.defence.append((dealer, act))
        if act.kind is ActionKind.LOOK:
            self._looked = act.seat
        elif act.kind is ActionKind.PASS:
            self._finish(self._pending_kind)  # type: ignore[arg-type]
        else:
            self.whisters = (dealer,)
            self.open_defence = True
            for seat in self.defenders:
                self._controller[seat] = dealer
            bits = sum(1 << s for s in self.defenders)
            self._expose(bits, at_once=self.rules.open_before_lead)
            self._start_play()
