"""A puzzle's difficulty grade, 1 (beginner) to 5 (expert), from what it asks of the player.

The grade is 1 plus one point for each of:

- three or more other runs of cards to choose from (more cards that look playable);
- five or more;
- a line with two decisions or more (turns of the player's side with a choice);
- an all-pass goal (the fewest tricks), or a squeeze or a throw-in on the line;
- a lead (no card on the table to go by);

less one for a declarer making his contract; kept within 1..5.

The points were chosen on a sample of 400 generated puzzles (seed 1) by how often Normal
and Hard missed the card: the number of alternatives, a second decision, the all-pass and
the throw-in, and a lead made the card harder to find; a declarer's make easier; how many
tricks were left, a duck or overtake against the trick in hand, and the alternatives' costs
did not.  ``benchmarks/bench_puzzle_levels.py`` checks the grades on another sample against
all four levels (the table in ``docs/puzzles.md``).

>>> grade_of(alternatives=1, decisions=1, goal="make", themes=[], lead=True)
1
>>> grade_of(alternatives=5, decisions=2, goal="fewest", themes=[], lead=True)
5
"""

from __future__ import annotations

from collections.abc import Sequence

GRADES = (1, 2, 3, 4, 5)
GRADE_NAMES = {1: "beginner", 2: "easy", 3: "medium", 4: "hard", 5: "expert"}


def grade_of(*, alternatives: int, decisions: int, goal: str, themes: Sequence[str],
             lead: bool) -> int:
    """The grade from the puzzle's facts (see the module docstring)."""
    points = int(alternatives >= 3) + int(alternatives >= 5)
    points += int(decisions >= 2)
    points += int(goal == "fewest" or "throw-in" in themes or "squeeze" in themes)
    points += int(lead)
    points -= int(goal == "make")
    return max(1, min(5, 1 + points))
