"""A puzzle as JSON (``preferans-puzzle/1``, documented in ``docs/puzzles.md``), its id and
the key that finds repeats.

A puzzle holds the solver position (``preferans-position/1``), the facts that decide what
matters (kind, level, declarer, the tricks taken so far), the goal, the solution and its
line, every other card's cost, the grade and themes, and where it came from: a generated
puzzle keeps the record's deal up to the position (``deal``: dealer, hands, talon, the
actions played before it), so replaying it rebuilds the table as it stood; a classic
problem keeps its published source.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Mapping
from typing import Any, Final

from ..cards import Card
from ..rules import Rules
from ..solver import Position, SolverError
from .goal import Goal, Situation
from .grade import grade_of
from .judge import Verdict
from .themes import themes

FORMAT: Final = "preferans-puzzle/1"
KINDS: Final = ("contract", "misere", "allpass")


class PuzzleError(ValueError):
    """A puzzle object that is not a valid preferans-puzzle/1 (the message says why)."""


def _name(card: int) -> str:
    return str(Card.from_index(card))


def situation_json(sit: Situation) -> dict[str, Any]:
    return {"kind": sit.kind, "level": sit.level, "declarer": sit.declarer,
            "taken": list(sit.taken), "whisted": sit.whisted}


def situation_from(obj: Mapping[str, Any], pos: Position) -> Situation:
    """The situation of a puzzle object (its position gives the mover and tricks left)."""
    kind = obj.get("kind")
    if kind not in KINDS:
        raise PuzzleError(f"kind {kind!r}: one of {', '.join(KINDS)}")
    level, declarer, taken = obj.get("level", 0), obj.get("declarer"), obj.get("taken")
    if not isinstance(level, int) or not (level == 0 or 6 <= level <= 10):
        raise PuzzleError(f"level {level!r}: 0 or 6..10")
    if kind == "contract" and level == 0:
        raise PuzzleError("a contract needs its level")
    if kind == "allpass":
        if declarer is not None:
            raise PuzzleError("an all-pass has no declarer")
    elif not isinstance(declarer, int) or isinstance(declarer, bool) or not 0 <= declarer <= 2:
        raise PuzzleError(f"declarer {declarer!r}: a position seat 0..2")
    if (not isinstance(taken, list) or len(taken) != 3
            or not all(isinstance(t, int) and 0 <= t <= 10 for t in taken)):
        raise PuzzleError("'taken' must be three trick counts")
    return Situation(kind, level, declarer, pos.to_move, (taken[0], taken[1], taken[2]),
                     pos.tricks_left, bool(obj.get("whisted", True)))


def canonical_key(pos: Position, goal: Goal) -> str:
    """A key equal for positions that are the same puzzle: seats turned so that the mover is
    seat 0, and the suits other than trumps renamed in every order, the least kept."""
    turn = pos.to_move
    seats = [(turn + k) % 3 for k in range(3)]
    free = [s for s in range(4) if s != pos.trump]
    best: tuple[Any, ...] | None = None
    for perm in itertools.permutations(free):
        mapping = dict(zip(free, perm, strict=True))
        if pos.trump is not None:
            mapping[pos.trump] = pos.trump

        def move(card: int) -> int:
            return mapping[card >> 3] * 8 + (card & 7)  # noqa: B023

        hands = tuple(sorted(move(c) for c in range(32) if pos.hands[s] >> c & 1)
                      for s in seats)
        key = (hands, tuple(move(c) for c in pos.trick), (pos.leader - turn) % 3,
               tuple(mapping[s] for s in pos.talon_leads))
        if best is None or key < best:
            best = key
    tail = (pos.trump, pos.mode, (pos.side - turn) % 3, goal.code, goal.direction, goal.bound,
            (goal.counted - turn) % 3)
    return json.dumps([best, tail])


def puzzle_id(key: str) -> str:
    return "p" + hashlib.sha1(key.encode()).hexdigest()[:11]


def build(pos: Position, sit: Situation, rules: Rules, verdict: Verdict,
          source: Mapping[str, Any], deal: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The puzzle object for a position the judge kept."""
    goal = verdict.goal
    assert goal is not None and verdict.reason is None
    tags = themes(pos, sit, goal, verdict.line, verdict.obvious)
    first = verdict.solution
    decisions = sum(1 for s in verdict.line if s.player and not s.forced)
    grade = grade_of(alternatives=len(verdict.groups) - 1, decisions=decisions,
                     goal=goal.code, themes=tags, lead=not pos.trick and not pos.talon_leads)
    wants_more = sit.wants_more()
    alternatives = []
    for group in verdict.groups:
        if group == first:
            continue
        v = verdict.values[group[0]]
        alternatives.append({"cards": [_name(c) for c in group], "value": v,
                             "cost": (verdict.value - v) if wants_more else (v - verdict.value)})
    alternatives.sort(key=lambda a: (-a["cost"], a["cards"]))
    key = canonical_key(pos, goal)
    out: dict[str, Any] = {
        "format": FORMAT,
        "id": puzzle_id(key),
        "rules": rules.to_json(),
        **situation_json(sit),
        "position": pos.to_json(),
        "to_play": pos.to_move,
        "side": sorted(sit.player_side()),
        "goal": goal.to_json(),
        "value": verdict.value,
        "solution": [_name(c) for c in first],
        "line": [s.to_json() for s in verdict.line],
        "line_end": verdict.line_end,
        "alternatives": alternatives,
        "obvious": None if verdict.obvious is None else _name(verdict.obvious),
        "grade": grade,
        "themes": tags,
        "source": dict(source),
    }
    if deal is not None:
        out["deal"] = dict(deal)
    return out


def read_position(obj: Mapping[str, Any]) -> Position:
    """The puzzle's solver position, checked."""
    try:
        return Position.from_json(obj.get("position"))  # type: ignore[arg-type]
    except SolverError as exc:
        raise PuzzleError(f"position: {exc}") from None
