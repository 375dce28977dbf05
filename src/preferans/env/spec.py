"""The fixed action space of the research environment: every decision as one integer.

The same ids serve every preset (an id a preset never uses is simply never legal), so a
network trained on one preset reads another's actions the same way:

======== ============================================================================
ids      meaning
======== ============================================================================
0–31     a card, by its index ``suit * 8 + rank`` (``7S`` = 0 … ``AH`` = 31): the card
         played in the play; **one card of a discard** in the discard (the declarer's
         two cards after the talon) and in the all-pass exchange: a discard is two
         single-card steps, the lower index first (see :func:`discard_steps`)
32–56    the ordinary bids ``6S 6C 6D 6H 6NT 7S`` … ``10NT`` (ladder step + 32); the
         declarer's final contract after the discard uses the same ids
57       ``MISERE`` (a bid, or the contract of a misère)
58       ``PASS``
59–62    ``WHIST`` ``HALF`` (half-whist) ``OPEN`` ``CLOSED`` (the lone whister's choice)
63–71    the variant calls: ``RESIGN`` ``REFUSE`` ``ALONE`` ``SEE`` ``POOL`` ``HILL``
         ``INVITE`` ``ACCEPT`` ``DECLINE``
72–96    blind bids ``BLIND 6S`` … ``BLIND 10NT`` (Classical)
97       ``BLIND PASS``
98–100   hand bids ``9S HAND`` ``MISERE HAND`` ``10S HAND`` (Classical)
101–105  Rogue's ``TRICKS 6`` … ``TRICKS 10``
106–117  Classical's half-time choice: the k-th ``SECOND p t`` the rules offer
======== ============================================================================

Chance outcomes are cards too: chance action ``c`` deals card ``c`` (ten to each hand
from the dealer's left, then the two talon cards).
"""

from __future__ import annotations

from functools import cache
from typing import Final

from ..actions import (
    ACCEPT,
    ALONE,
    BLIND_PASS,
    CLOSED,
    DECLINE,
    HALF,
    HILL,
    INVITE,
    OPEN,
    PASS,
    PLAY_ACTIONS,
    POOL,
    REFUSE,
    RESIGN,
    SEE,
    WHIST,
    Action,
    ActionKind,
)
from ..bids import MISERE, Bid
from ..cards import Card

NUM_CARDS: Final = 32
FIRST_BID: Final = 32
MISERE_ID: Final = 57
PASS_ID: Final = 58
FIRST_BLIND: Final = 72
BLIND_PASS_ID: Final = 97
FIRST_HAND_BID: Final = 98
FIRST_TRICKS: Final = 101
FIRST_SECOND: Final = 106
SECOND_OFFERS: Final = 12
NUM_ACTIONS: Final = FIRST_SECOND + SECOND_OFFERS
"""The number of distinct actions (118)."""

_LADDER: Final = Bid.ladder()
_WORDS: Final = (PASS, WHIST, HALF, OPEN, CLOSED, RESIGN, REFUSE, ALONE, SEE, POOL, HILL,
                 INVITE, ACCEPT, DECLINE)
_HAND_BIDS: Final = (Bid.parse("9S"), MISERE, Bid.parse("10S"))


def _table() -> list[Action | None]:
    out: list[Action | None] = [None] * NUM_ACTIONS
    for i in range(NUM_CARDS):
        out[i] = PLAY_ACTIONS[i]
    for step, bid in enumerate(_LADDER):
        out[FIRST_BID + step] = Action(ActionKind.BID, bid=bid)
        out[FIRST_BLIND + step] = Action(ActionKind.BID, bid=bid, blind=True)
    out[MISERE_ID] = Action(ActionKind.BID, bid=MISERE)
    for k, word in enumerate(_WORDS):
        out[PASS_ID + k] = word
    out[BLIND_PASS_ID] = BLIND_PASS
    for k, bid in enumerate(_HAND_BIDS):
        out[FIRST_HAND_BID + k] = Action(ActionKind.BID, bid=bid, hand=True)
    for level in range(6, 11):
        out[FIRST_TRICKS + level - 6] = Action(ActionKind.TRICKS, level=level)
    return out


ACTIONS: Final[tuple[Action | None, ...]] = tuple(_table())
"""The engine action of each id (``None`` for the half-time offers: they depend on the
state, see :meth:`preferans.env.core.PreferansCore.legal_actions`)."""

_ID_OF: Final[dict[Action, int]] = {a: i for i, a in enumerate(ACTIONS) if a is not None}
for _step, _bid in enumerate(_LADDER):  # the contract after the discard: the bid's id
    _ID_OF[Action(ActionKind.CONTRACT, bid=_bid)] = FIRST_BID + _step
_ID_OF[Action(ActionKind.CONTRACT, bid=MISERE)] = MISERE_ID

ACTION_NAMES: Final[tuple[str, ...]] = tuple(
    str(a) if a is not None else f"SECOND#{i - FIRST_SECOND}" for i, a in enumerate(ACTIONS)
)
"""A short name of each id (a card id reads as the card; a discard step is shown as
``discard QH`` by :func:`action_name`)."""


def action_id(action: Action) -> int:
    """The id of an engine action (a card's id for a play; not for a two-card discard)."""
    kind = action.kind
    if kind is ActionKind.PLAY:
        return action.cards[0].index
    bid = action.bid
    if (kind is ActionKind.BID or kind is ActionKind.CONTRACT) and bid is not None and \
            not action.blind and not action.hand and action.seat is None:
        # the plain bids and contracts, without hashing the action (the auction's hot path)
        return MISERE_ID if bid.misere else FIRST_BID + bid.step
    try:
        return _ID_OF[action]
    except KeyError:
        raise ValueError(f"{action} has no id in the environment's action space") from None


def discard_steps(action: Action) -> tuple[int, int]:
    """The two single-card steps of a discard: the lower card index first.

    >>> discard_steps(Action.parse("DISCARD QH 7S"))
    (0, 29)
    """
    if action.kind is not ActionKind.DISCARD:
        raise ValueError(f"{action} is not a discard")
    a, b = (c.index for c in action.cards)
    return (a, b) if a < b else (b, a)


def card_of(action_id: int) -> Card:
    """The card of a card id (0–31)."""
    return Card.from_index(action_id)


AUCTION_CALLS: Final[tuple[int, ...]] = (
    *range(FIRST_BID, MISERE_ID + 1), PASS_ID, PASS_ID + 8,  # bids, PASS, SEE
    *range(FIRST_BLIND, FIRST_HAND_BID + 3),
)
"""The ids an auction call can have (the information-state tensor's auction vocabulary)."""
CALL_INDEX: Final[dict[int, int]] = {a: i for i, a in enumerate(AUCTION_CALLS)}

DEFENCE_CALLS: Final[tuple[str, ...]] = ("WHIST", "PASS", "HALF", "OPEN", "CLOSED", "ALONE")
"""The calls of the defence as the tensors write them."""

KINDS: Final[tuple[str, ...]] = ("allpass", "contract", "misere", "passed", "halfwhist",
                                 "resigned")
"""What a deal turned out to be (the engine's ``Deal.kind``)."""


def bid_index(token: str | None) -> int | None:
    """0–24 for an ordinary bid (its ladder step), 25 for misère, ``None`` for none."""
    if token is None:
        return None
    return _bid_index(token)


@cache
def _bid_index(token: str) -> int:
    bid = Bid.parse(token)
    return 25 if bid.misere else bid.step
