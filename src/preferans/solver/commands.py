"""Command-line entry points of the solver, free of any CLI framework.

``preferans solve FILE [--json]`` and ``preferans bench solver [--json]`` call
:func:`solve_command` and :func:`bench_solver_command`.
"""

from __future__ import annotations

import json
import sys

from preferans.cards import Card, CardSet, Suit
from preferans.solver import Position, SolverError, solve, solve_moves


def _describe(pos: Position) -> str:
    if pos.mode == "contract":
        game = (
            "no-trump contract"
            if pos.trump is None
            else f"contract in {Suit(pos.trump).name.lower()}"
        )
        who = f"declarer seat {pos.side}"
    elif pos.mode == "misere":
        game, who = "misère", f"declarer seat {pos.side}"
    else:
        game, who = "all-pass", f"counted player seat {pos.side}"
        if pos.talon_leads:
            game += " (talon leads " + " ".join(Suit(s).letter for s in pos.talon_leads) + ")"
    table = " ".join(str(Card.from_index(c)) for c in pos.trick)
    trick = f"; on the table: {table}" if table else ""
    return (
        f"{game}, {who}; seat {pos.to_move} to move, {pos.tricks_left} "
        f"trick{'s' if pos.tricks_left != 1 else ''} left{trick}"
    )


def solve_command(path: str, as_json: bool) -> int:
    """Solve the position in ``path`` (records.md format); print value and moves."""
    from preferans.jsonfile import JsonFileError, read_object_file

    try:
        obj = read_object_file(path, "a position")
    except JsonFileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        pos = Position.from_json(obj)
        value = solve(pos)
        moves = solve_moves(pos)
    except (SolverError, ValueError, TypeError) as exc:
        print(f"error: bad position in {path}: {exc}", file=sys.stderr)
        return 2
    ordered = [c for c in CardSet(sum(1 << c for c in moves)).sorted_for_display()]
    named = {str(c): moves[c.index] for c in ordered}
    if as_json:
        print(json.dumps({"value": value, "moves": named}))
        return 0
    counted = "the declarer" if pos.mode != "allpass" else f"seat {pos.side}"
    goal = "maximises" if pos.mode == "contract" else "minimises"
    print(_describe(pos))
    print(
        f"value: {value} trick{'s' if value != 1 else ''} for {counted} ({goal}), best play by all"
    )
    print("moves:")
    for card, v in named.items():
        print(f"  {card:<4}{v}")
    return 0


def bench_solver_command(as_json: bool, quick: bool = False, passes: int | None = None) -> int:
    """Run the solver benchmark and print its figures (text or one JSON object)."""
    from preferans.solver.bench import format_text, run

    if passes is not None and passes < 1:
        print(f"--passes must be at least 1, not {passes}", file=sys.stderr)
        return 2
    figures = run(quick=quick, passes=passes)
    if as_json:
        print(json.dumps(figures))
    else:
        print(format_text(figures))
    return 0
