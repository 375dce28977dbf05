"""The grading checked against our computer players: which levels find a puzzle's card.

Each level (``make_player(level, rules, seed, budget=None)``, reproducible whatever the
machine's load) chooses in the puzzle's position from its own seat's observation (the seat
that acts: a whister playing the passer's open cards acts for both), as at the table: it
does not see the hidden hands.  It finds the puzzle when its card is in the solution run.
Only generated puzzles can be asked (they carry the deal up to the position).

>>> from preferans.puzzles.shipped import generated
>>> puzzle = generated()[0]
>>> finds(puzzle, "easy", seed=0) in (True, False)
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..cards import CardSet
from ..game import Game
from ..players import make_player
from ..rules import Rules

LEVELS = ("easy", "normal", "hard", "crazy")


def position_game(puzzle: Mapping[str, Any]) -> Game:
    """The table as it stood at the puzzle's position (its deal replayed)."""
    deal = puzzle.get("deal")
    if deal is None:
        raise ValueError("a classic problem has no deal to replay")
    rules = Rules.from_json(puzzle["rules"])
    game = Game(rules, ("A", "B", "C"), first_dealer=deal["dealer"])
    game.start_deal([CardSet.parse(h) for h in deal["hands"]], deal["talon"])
    for token in deal["actions"]:
        game.apply(token)
    return game


def finds(puzzle: Mapping[str, Any], level: str, seed: int = 0) -> bool:
    """Whether ``level`` plays a card of the puzzle's solution run."""
    game = position_game(puzzle)
    deal = game.deal
    assert deal is not None and deal.to_act is not None
    rules = Rules.from_json(puzzle["rules"])
    player = make_player(level, rules, seed=seed, budget=None)
    card = player.choose(game.observation(deal.to_act))
    return card.upper() in {c.upper() for c in puzzle["solution"]}


def level_table(puzzles: Iterable[Mapping[str, Any]], levels: Sequence[str] = LEVELS,
                seed: int = 0) -> dict[int, dict[str, Any]]:
    """Per grade: the puzzles asked and, per level, the share it found."""
    table: dict[int, dict[str, Any]] = {}
    for k, puzzle in enumerate(puzzles):
        row = table.setdefault(puzzle["grade"], {"puzzles": 0, **{lv: 0 for lv in levels}})
        row["puzzles"] += 1
        for level in levels:
            row[level] += finds(puzzle, level, seed=seed + k)
    return {g: table[g] for g in sorted(table)}
