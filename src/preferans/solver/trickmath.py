"""The trick's rules on card indices (0..31, suit = index >> 3), for the solver's Python side.

>>> legal_cards(0b1_0000_0001, (2,), None, None)  # 8 in suit 0 led: follow with card 0
1
>>> trick_winner((3, 9, 5), None, 1)  # the trump (suit 1) wins
1
"""

from __future__ import annotations

SUIT_MASK = tuple(0xFF << (8 * s) for s in range(4))


def legal_cards(
    hand: int, trick: tuple[int, ...], talon_suit: int | None, trump: int | None
) -> int:
    """The mask of cards the seat to move may play."""
    if talon_suit is not None:
        follow = hand & SUIT_MASK[talon_suit]
        return follow or hand
    if not trick:
        return hand
    follow = hand & SUIT_MASK[trick[0] >> 3]
    if follow:
        return follow
    if trump is not None and hand & SUIT_MASK[trump]:
        return hand & SUIT_MASK[trump]
    return hand


def trick_winner(trick: tuple[int, ...], talon_suit: int | None, trump: int | None) -> int:
    """Index (0, 1, 2) in the trick of the card that wins it."""
    if talon_suit is not None:
        suit = talon_suit if any(c >> 3 == talon_suit for c in trick) else trick[0] >> 3
    elif trump is not None and any(c >> 3 == trump for c in trick):
        suit = trump
    else:
        suit = trick[0] >> 3
    return max((c, i) for i, c in enumerate(trick) if c >> 3 == suit)[1]
