"""A puzzle's difficulty grade, 1 (easy) to 5 (hardest), from what it asks of the player.

The grade adds one point to 1 for each of:

- every further decision on the line (a turn of the player's side with two runs of cards
  or more, after the first);
- a first card that goes against the trick in hand: the solution wins the trick as it
  stands where the obvious card would not, or the other way round (a duck, an overtake, an
  unblock);
- four runs of cards or more to choose from at the first turn;
- six tricks or more still to play (a long way to see);
- a squeeze or a throw-in on the line;

capped at 5.  ``tests/test_puzzles_levels.py`` and the note in ``docs/puzzles.md`` check it
against our four computer levels: the harder the grade, the fewer levels find the card.

>>> grade_of(decisions=1, against=False, choices=3, tricks_left=3, themes=[])
1
>>> grade_of(decisions=3, against=True, choices=5, tricks_left=8, themes=["squeeze"])
5
"""

from __future__ import annotations

from collections.abc import Sequence

GRADES = (1, 2, 3, 4, 5)
GRADE_NAMES = {1: "beginner", 2: "easy", 3: "medium", 4: "hard", 5: "expert"}


def grade_of(*, decisions: int, against: bool, choices: int, tricks_left: int,
             themes: Sequence[str]) -> int:
    """The grade from the line's facts (see the module docstring)."""
    points = max(0, decisions - 1)
    points += int(against)
    points += int(choices >= 4)
    points += int(tricks_left >= 6)
    points += int("squeeze" in themes or "throw-in" in themes)
    return min(5, 1 + points)
