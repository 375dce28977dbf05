"""Card facts on solver positions the puzzles need: legal cards, equivalent cards, who wins.

Card indices are 0..31 (suit = index >> 3, rank = index & 7, seven lowest), as in
:mod:`preferans.solver`.

>>> from preferans.solver import Position
>>> pos = Position(hands=(0b1011, 0b0100 << 8, 0b0100), leader=0)  # 7 8 10 of spades; 9S out
>>> [sorted(g) for g in equivalent_groups(pos, legal(pos))]
[[0, 1], [3]]
"""

from __future__ import annotations

from ..cards import mask_indices
from ..solver import Position
from ..solver.trickmath import legal_cards, trick_winner


def talon_suit(pos: Position) -> int | None:
    """The suit the talon sets for the current trick (all-pass), or None."""
    return pos.talon_leads[0] if pos.talon_leads else None


def legal(pos: Position) -> list[int]:
    """The cards the seat to move may play, lowest index first."""
    return mask_indices(legal_cards(pos.hands[pos.to_move], pos.trick, talon_suit(pos), pos.trump))


def equivalent_groups(pos: Position, cards: list[int]) -> list[list[int]]:
    """The mover's cards split into runs that are one card in effect: same suit, and no card
    between them in another hand or on the table (cards gone in earlier tricks do not
    separate them).  The solver gives the cards of a run the same value."""
    others = sum(h for s, h in enumerate(pos.hands) if s != pos.to_move)
    for c in pos.trick:
        others |= 1 << c
    groups: list[list[int]] = []
    for c in sorted(cards):
        if groups:
            last = groups[-1][-1]
            between = ((1 << c) - 1) & ~((1 << (last + 1)) - 1)
            if last >> 3 == c >> 3 and not between & others:
                groups[-1].append(c)
                continue
        groups.append([c])
    return groups


def winning_now(pos: Position, card: int) -> bool:
    """Whether ``card`` would win the current trick as it stands (later hands aside)."""
    trick = (*pos.trick, card)
    return trick_winner(trick, talon_suit(pos), pos.trump) == len(trick) - 1


def trick_taker(pos: Position, card: int) -> int | None:
    """The seat that takes the trick ``card`` completes, or None if the trick goes on."""
    if len(pos.trick) != 2:
        return None
    trick = (*pos.trick, card)
    return (pos.leader + trick_winner(trick, talon_suit(pos), pos.trump)) % 3


def current_winner(pos: Position) -> int | None:
    """The seat winning the trick so far, or None before the lead."""
    if not pos.trick:
        return None
    return (pos.leader + trick_winner(pos.trick, talon_suit(pos), pos.trump)) % 3
