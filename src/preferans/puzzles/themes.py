"""Theme tags of a puzzle, read off its position and its solution line.

- ``misere-catching``: the defenders of a misère catch it; ``misere-play``: the declarer
  plays it clean;
- ``all-pass``: an all-pass, every trick written;
- ``whisting``: the defenders of a contract (to defeat it, or to take their quota);
- ``trump-control``: a trump contract where the key card is a trump, or the obvious card was
  a trump and the solution keeps it (drawing trumps, ruffing, or holding them back);
- ``squeeze``: on the line an opponent who cannot follow suit (and does not ruff) holds two
  suits or more, and even his best discard unguards one: a card of the player's side in the
  discarded suit becomes the highest left in that suit;
- ``throw-in``: on the line an opponent wins a trick the player's side led and must lead
  next, and the goal holds with him on lead but would fail were the player's side on lead
  in the same cards (he is thrown in: his every lead gives something away).

>>> sorted(THEMES)[:3]
['all-pass', 'misere-catching', 'misere-play']
"""

from __future__ import annotations

from typing import Final

from ..solver import Position, solve
from ..solver.trickmath import SUIT_MASK
from .cardplay import legal, trick_taker
from .goal import Goal, Situation
from .judge import Step

THEMES: Final = ("misere-catching", "misere-play", "all-pass", "whisting", "trump-control",
                 "squeeze", "throw-in")


def _masters(pos: Position, suit: int) -> int:
    """The card of ``suit`` highest among those still in the hands (as a one-bit mask)."""
    left = (pos.hands[0] | pos.hands[1] | pos.hands[2]) & SUIT_MASK[suit]
    return 1 << (left.bit_length() - 1) if left else 0


def _unguards(pos: Position, card: int, side: frozenset[int]) -> bool:
    """Whether discarding ``card`` makes a card of ``side`` the highest left in its suit."""
    suit = card >> 3
    before = _masters(pos, suit)
    after_pos = pos.play(card)
    after = _masters(after_pos, suit)
    ours = 0
    for s in side:
        ours |= after_pos.hands[s]
    return bool(after and after != before and after & ours)


def _squeeze(pos: Position, step: Step, side: frozenset[int]) -> bool:
    if step.player or (not pos.trick and not pos.talon_leads):
        return False
    led = pos.talon_leads[0] if pos.talon_leads else pos.trick[0] >> 3
    hand = pos.hands[pos.to_move]
    if hand & SUIT_MASK[led] or (pos.trump is not None and step.card >> 3 == pos.trump):
        return False
    suits = sum(1 for s in range(4) if hand & SUIT_MASK[s])
    return suits >= 2 and _unguards(pos, step.card, side)


def _throw_in(pos: Position, card: int, goal: Goal, side: frozenset[int], taken: int) -> bool:
    """``card`` completes a trick: is its taker thrown in?  ``taken``: the counted seat's
    tricks since the puzzle's position, this trick included."""
    taker = trick_taker(pos, card)
    if taker is None or taker in side or pos.leader not in side:
        return False
    after = pos.play(card)
    if not after.hands[after.to_move] or after.talon_leads:
        return False
    if not goal.meets(taken + solve(after)):
        return False
    for seat in side:
        swapped = Position(hands=after.hands, trick=(), leader=seat, trump=after.trump,
                           mode=after.mode, side=after.side)
        if goal.meets(taken + solve(swapped)):
            return False
    return True


def themes(pos: Position, sit: Situation, goal: Goal, line: list[Step],
           obvious: int | None) -> list[str]:
    """The puzzle's themes, in :data:`THEMES` order."""
    side = sit.player_side()
    found: set[str] = set()
    if sit.kind == "allpass":
        found.add("all-pass")
    elif sit.kind == "misere":
        found.add("misere-play" if sit.mover == sit.declarer else "misere-catching")
    else:
        if sit.mover != sit.declarer:
            found.add("whisting")
        trump = pos.trump
        key = line[0].card if line else None
        if trump is not None and (
            (key is not None and key >> 3 == trump)
            or (obvious is not None and obvious >> 3 == trump)
        ):
            found.add("trump-control")
    p, taken = pos, 0
    for step in line:
        if step.card not in legal(p):
            raise ValueError(f"line card {step.card} is not legal")
        if _squeeze(p, step, side):
            found.add("squeeze")
        if trick_taker(p, step.card) == goal.counted:
            taken += 1
        if len(p.trick) == 2 and _throw_in(p, step.card, goal, side, taken):
            found.add("throw-in")
        p = p.play(step.card)
    return [t for t in THEMES if t in found]
