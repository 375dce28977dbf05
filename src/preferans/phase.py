"""The stages of a deal, in order (:class:`Phase`)."""

from __future__ import annotations

from enum import Enum


class Phase(Enum):
    """The stages of a deal, in order."""

    HALFTIME = "halftime"
    """Classical (``halftime_choice``): the first deal after the first half opens with the
    leader's choice of the second half (``SECOND p t``), before its nominal auction."""
    NAME = "name"
    """Rogue: the soloist names a game of his list before the talon (no auction)."""
    AUCTION = "auction"
    DISCARD = "discard"
    CONTRACT = "contract"
    INVITE = "invite"
    """Four players (``dealer_share``): after a misère or a ten is named the soloist says
    ALONE or INVITE; an invited dealer says DECLINE or ACCEPT."""
    DEFENCE = "defence"
    DEFENCE_MODE = "defence mode"
    """A lone whister chooses OPEN or CLOSED."""
    DEALER = "dealer whist"
    """A four-player dealer may look at one defender's hand and whist (``dealer_whist``)."""
    EXCHANGE = "exchange"
    """Before an all-pass each player in turn takes the talon and discards two."""
    PLAY = "play"
    WRITE = "write"
    """Racing: POOL or HILL for an unwhisted game made or a trickless all-pass."""
    DONE = "done"

    @property
    def label(self) -> str:
        return self.value
