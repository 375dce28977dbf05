"""The puzzles that come with the package, in ``preferans/data/puzzles/``.

- ``generated.jsonl``: puzzles found by ``preferans puzzles generate`` in records of our
  computer players' matches, one ``preferans-puzzle/1`` object a line;
- ``classic.json``: composed problems from published collections, every hand open as
  printed, with the published answer and its source (``preferans-classics/1``, described in
  ``docs/puzzles.md``); the tests check each answer against the solver.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from ..cards import Card
from ..solver import Position, solve, solve_moves
from .cardplay import trick_taker


def _text(name: str) -> str:
    return (resources.files("preferans") / "data" / "puzzles" / name).read_text(encoding="utf-8")


@cache
def generated() -> tuple[dict[str, Any], ...]:
    """Every shipped generated puzzle, in file order."""
    return tuple(json.loads(line) for line in _text("generated.jsonl").splitlines()
                 if line.strip())


@cache
def classics() -> tuple[dict[str, Any], ...]:
    """The shipped classic problems."""
    data = json.loads(_text("classic.json"))
    return tuple(data["problems"])


def classic_value(problem: dict[str, Any]) -> int:
    """What the solver answers to a classic problem's question (the declarer's tricks, or the
    defence's, from the position as printed)."""
    pos = Position.from_json(problem["position"])
    declarer = solve(pos)
    if problem["question"] == "declarer_tricks":
        return declarer
    if problem["question"] == "defence_tricks":
        return pos.tricks_left - declarer
    raise ValueError(f"unknown question {problem['question']!r}")


def classic_line_faults(problem: dict[str, Any]) -> list[str]:
    """The cards of a problem's published line that lose against best play (each card must
    keep the value for its side)."""
    pos = Position.from_json(problem["position"])
    value = solve(pos)
    faults = []
    taken = 0  # the declarer's tricks on the line so far
    for k, name in enumerate(problem.get("line", [])):
        moves = {str(Card.from_index(i)): v for i, v in solve_moves(pos).items()}
        if name not in moves:
            faults.append(f"card {k + 1} ({name}) is not legal")
            break
        if taken + moves[name] != value:
            faults.append(f"card {k + 1} ({name}) gives {taken + moves[name]}, not {value}")
        if trick_taker(pos, Card.parse(name).index) == pos.side:
            taken += 1
        pos = pos.play(name)
    return faults
