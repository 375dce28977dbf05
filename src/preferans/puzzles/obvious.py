"""The obvious card: what a player who looks only at his hand and the trick would play.

A puzzle is only a puzzle when this card fails.  The rule is the table's rule of thumb, with
no counting and no planning:

- a seat that wants tricks (both sides of a contract) leads the top card of its longest suit;
  following, it plays low when its partner already wins the trick, else wins as cheaply as it
  can, else plays low;
- a seat that wants none (the misère declarer and its catchers, every all-pass player) leads
  its lowest card; following, it plays its highest card that does not win the trick as it
  stands, else (every card wins) its highest.

Ties go to the longer suit, then the higher suit.

>>> from preferans.solver import Position
>>> pos = Position(hands=(0b1100_0000 | 1 << 8, 0b11 | 1 << 9, 0b1_0000 | 1 << 10),
...                trick=(), leader=0, mode="contract", side=0)
>>> obvious_card(pos, wants_tricks=True, partners=frozenset())  # AS from AS KS 7C
7
"""

from __future__ import annotations

from ..solver import Position
from .cardplay import current_winner, legal, winning_now


def _suit_length(hand: int, card: int) -> int:
    return ((hand >> (8 * (card >> 3))) & 0xFF).bit_count()


def obvious_card(pos: Position, *, wants_tricks: bool, partners: frozenset[int]) -> int:
    """The obvious card of the seat to move; ``partners``: the seats on its side."""
    cards = legal(pos)
    hand = pos.hands[pos.to_move]

    def rank(c: int) -> int:
        return c & 7

    def by_length(c: int) -> tuple[int, int]:
        return _suit_length(hand, c), c >> 3

    if not pos.trick and not pos.talon_leads:
        if wants_tricks:
            return max(cards, key=lambda c: (*by_length(c), rank(c)))
        return min(cards, key=lambda c: (rank(c), -_suit_length(hand, c), -(c >> 3)))
    lowest = min(cards, key=lambda c: (rank(c), -_suit_length(hand, c), -(c >> 3)))
    winners = [c for c in cards if winning_now(pos, c)]
    if wants_tricks:
        if current_winner(pos) in partners or not winners:
            return lowest
        return min(winners, key=lambda c: (c >> 3 == pos.trump, rank(c)))
    losers = [c for c in cards if c not in winners]
    if losers:
        return max(losers, key=lambda c: (rank(c), *by_length(c)))
    return max(cards, key=lambda c: (rank(c), *by_length(c)))
