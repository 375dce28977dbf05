"""A puzzle as plain text (``preferans puzzles show``): the table, the goal, and on request
the solution, its line and what every other card costs.

>>> from preferans.puzzles.shipped import generated
>>> text = render(generated()[0])
>>> "Goal:" in text and "Solution" not in text
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..cards import Card, CardSet
from ..display import hand_line
from .grade import GRADE_NAMES

_KIND = {"contract": "contract", "misere": "misère", "allpass": "all-pass"}


def _tricks(n: int) -> str:
    return f"{n} trick{'' if n == 1 else 's'}"


def _card(name: str) -> str:
    return Card.parse(name).symbol


def render(puzzle: Mapping[str, Any], solution: bool = False) -> str:
    """The puzzle in words; ``solution``: with the answer, its line and the alternatives."""
    pos = puzzle["position"]
    kind = puzzle["kind"]
    head = f"Puzzle {puzzle['id']}: {_KIND[kind]}"
    if kind == "contract":
        trump = pos["trump"]
        strain = "no trumps" if trump is None else f"{Card.parse('A' + trump).suit.symbol} trumps"
        head += f" {puzzle['level']}, {strain}, declarer seat {puzzle['declarer']}"
    elif kind == "misere":
        head += f", declarer seat {puzzle['declarer']}"
    head += (f"; grade {puzzle['grade']} ({GRADE_NAMES[puzzle['grade']]})"
             f"; themes: {', '.join(puzzle['themes']) or '—'}")
    lines = [head]
    for seat, hand in enumerate(pos["hands"]):
        mark = " ← to play" if seat == puzzle["to_play"] else ""
        side = "you" if seat in puzzle["side"] else "solver"
        lines.append(f"  seat {seat} ({side}, {_tricks(puzzle['taken'][seat])} taken): "
                     f"{hand_line(CardSet.parse(hand))}{mark}")
    if pos["trick"]:
        leader = pos["leader"]
        played = ", ".join(f"seat {(leader + k) % 3} {_card(c)}"
                           for k, c in enumerate(pos["trick"]))
        lines.append(f"  on the table: {played}")
    lines.append(f"Goal: {puzzle['goal']['text']}.")
    if solution:
        lines.append(f"Solution: {' or '.join(_card(c) for c in puzzle['solution'])} "
                     f"(the obvious {_card(puzzle['obvious'])} fails)")
        steps = [f"{'' if s['player'] else '('}seat {s['seat']} {_card(s['card'])}"
                 f"{'' if s['player'] else ')'}" for s in puzzle["line"]]
        end = "decided" if puzzle["line_end"] == "decided" else "then more than one way works"
        lines.append(f"Line (the solver's answers in brackets): {', '.join(steps)}; {end}.")
        for alt in puzzle["alternatives"]:
            cards = " or ".join(_card(c) for c in alt["cards"])
            lines.append(f"  {cards}: costs {_tricks(alt['cost'])}")
    return "\n".join(lines)
