"""A plain Python minimax solver: slow, short and obviously correct.

It is the yardstick for the C solver.  :func:`solve` is full minimax over
every legal card (memoised on the exact state, which changes nothing but
speed).  :func:`solve_ab` answers the same question for larger positions
(full deals): it asks "can the counted seat take at least t tricks?" with
``any``/``all`` over the legal cards, memoised, and tries one card per run of
equivalent cards (cards of one hand with no card of another hand between
them, cards on the table counting as in play).
"""

from __future__ import annotations

import sys
from functools import cache
from typing import NamedTuple

from preferans.solver.position import Position
from preferans.solver.trickmath import SUIT_MASK, legal_cards, trick_winner

__all__ = ["SUIT_MASK", "legal_cards", "play", "solve", "solve_ab", "solve_moves",
           "solve_with_moves", "trick_winner"]

class Rules(NamedTuple):
    trump: int | None
    side: int
    side_maximises: bool
    talon: tuple[int, ...]


def _cards(mask: int) -> list[int]:
    return [i for i in range(32) if mask >> i & 1]


def play(pos: Position, card: int) -> Position:
    """The position after the seat to move plays ``card`` (:meth:`Position.play`)."""
    return pos.play(card)


def _rules(pos: Position) -> Rules:
    return Rules(pos.trump, pos.side, pos.mode == "contract", pos.talon_leads)


def _children(rules: Rules, hands, trick, leader, tpos, cards_of):
    """(card, tricks the counted seat wins by it, next state) for each move tried."""
    mover = (leader + len(trick)) % 3
    talon_suit = rules.talon[tpos] if tpos < len(rules.talon) else None
    legal = legal_cards(hands[mover], trick, talon_suit, rules.trump)
    for card in cards_of(legal, hands, trick):
        new_hands = list(hands)
        new_hands[mover] &= ~(1 << card)
        new_trick = (*trick, card)
        if len(new_trick) < 3:
            yield card, 0, (tuple(new_hands), new_trick, leader, tpos)
            continue
        winner = (leader + trick_winner(new_trick, talon_suit, rules.trump)) % 3
        won = int(winner == rules.side)
        if talon_suit is not None:
            yield card, won, (tuple(new_hands), (), leader, tpos + 1)
        else:
            yield card, won, (tuple(new_hands), (), winner, tpos)


def _all_cards(legal: int, hands, trick) -> list[int]:
    return _cards(legal)


def _one_per_run(legal: int, hands, trick) -> list[int]:
    in_play = hands[0] | hands[1] | hands[2]
    for c in trick:
        in_play |= 1 << c
    mover_hand = legal  # legal cards all come from the mover's hand
    out = []
    for card in _cards(legal):
        # skip a card when the next higher card in play of its suit is also legal (same run)
        nxt = next(
            (c for c in range(card + 1, (card | 7) + 1) if in_play >> c & 1),
            None,
        )
        if nxt is not None and mover_hand >> nxt & 1:
            continue
        out.append(card)
    return out


def _value_function(rules: Rules):
    @cache
    def value(hands, trick, leader, tpos) -> int:
        mover = (leader + len(trick)) % 3
        if not hands[mover]:
            return 0
        maximising = (mover == rules.side) == rules.side_maximises
        results = [
            won + value(*state)
            for _card, won, state in _children(rules, hands, trick, leader, tpos, _all_cards)
        ]
        return max(results) if maximising else min(results)

    return value


def _state(pos: Position):
    return (pos.hands, pos.trick, pos.leader, 0)


def solve(pos: Position) -> int:
    """Tricks of the counted seat from here with best play by all (full minimax)."""
    pos.validate()
    return _value_function(_rules(pos))(*_state(pos))


def solve_moves(pos: Position) -> dict[int, int]:
    """Value after each legal card of the seat to move (full minimax)."""
    pos.validate()
    rules = _rules(pos)
    value = _value_function(rules)
    return {
        card: won + value(*state) for card, won, state in _children(rules, *_state(pos), _all_cards)
    }


def solve_with_moves(pos: Position) -> tuple[int, dict[int, int]]:
    """:func:`solve` and :func:`solve_moves` together, sharing one memo."""
    pos.validate()
    rules = _rules(pos)
    value = _value_function(rules)
    moves = {
        card: won + value(*state) for card, won, state in _children(rules, *_state(pos), _all_cards)
    }
    return value(*_state(pos)), moves


def _at_least_function(rules: Rules):
    @cache
    def at_least(hands, trick, leader, tpos, target) -> bool:
        """Can the counted seat take at least ``target`` tricks from here?"""
        if target <= 0:
            return True
        mover = (leader + len(trick)) % 3
        if target > hands[mover].bit_count():
            return False
        maximising = (mover == rules.side) == rules.side_maximises
        children = _children(rules, hands, trick, leader, tpos, _one_per_run)
        tests = (at_least(*state, target - won) for _card, won, state in children)
        return any(tests) if maximising else all(tests)

    return at_least


def solve_ab(pos: Position) -> int:
    """Same value as :func:`solve`, fast enough for full deals."""
    pos.validate()
    at_least = _at_least_function(_rules(pos))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        value = 0
        while value < pos.tricks_left and at_least(*_state(pos), value + 1):
            value += 1
        return value
    finally:
        sys.setrecursionlimit(limit)
