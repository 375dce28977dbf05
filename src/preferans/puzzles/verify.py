"""Re-verify a puzzle with the solver (``preferans puzzles check``).

Everything the puzzle claims is recomputed: the position is legal, its id is its key's,
the goal is the one that matters under its rules, exactly one run of cards keeps it at the
first turn and at every later turn of the player's line, the line's answers are the
solver's, every alternative's cost is right, the obvious card fails; for a generated puzzle,
replaying its deal up to the position gives the same position.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..analysis.after_deal import counted_side, solver_mode, solver_position
from ..cards import CardSet
from ..game import Game
from ..rules import Rules, RulesError
from .judge import judge
from .puzzle import (
    FORMAT,
    PuzzleError,
    build,
    read_position,
    situation_from,
)


def _replayed(obj: Mapping[str, Any], rules: Rules) -> dict[str, Any] | None:
    """The solver position reached by replaying the puzzle's deal, or None without one."""
    deal = obj.get("deal")
    if deal is None:
        return None
    game = Game(rules, ("A", "B", "C"), first_dealer=deal["dealer"])
    game.start_deal([CardSet.parse(h)
                     for h in deal["hands"]], deal["talon"])
    for token in deal["actions"]:
        game.apply(token)
    live = game.deal
    if live is None:
        raise PuzzleError("the deal is over before the position")
    mode = solver_mode(live)
    seat = live.hand_to_play
    if mode is None or seat is None:
        raise PuzzleError("the deal's actions do not lead to a card to play")
    return solver_position(live, counted_side(live, mode, seat), mode).to_json()


def problems(obj: Mapping[str, Any], *, replay_deal: bool = True) -> list[str]:
    """What is wrong with the puzzle (empty when the solver confirms all of it)."""
    if not isinstance(obj, Mapping) or obj.get("format") != FORMAT:
        return [f"not a {FORMAT} object"]
    try:
        rules = Rules.from_json(obj.get("rules"))
        pos = read_position(obj)
        sit = situation_from(obj, pos)
    except (PuzzleError, RulesError, ValueError) as exc:
        return [str(exc)]
    verdict = judge(pos, sit, rules)
    if verdict.reason is not None:
        return [f"the solver does not confirm it: {verdict.reason}"]
    fresh = build(pos, sit, rules, verdict, obj.get("source") or {}, obj.get("deal"))
    out = []
    for key in ("id", "goal", "value", "solution", "line", "line_end", "alternatives",
                "obvious", "grade", "themes", "to_play", "side"):
        if fresh[key] != obj.get(key):
            out.append(f"{key}: the puzzle says {obj.get(key)!r}, the solver {fresh[key]!r}")
    if replay_deal and "deal" in obj:
        try:
            replayed = _replayed(obj, rules)
        except (ValueError, KeyError, TypeError) as exc:
            return [*out, f"deal: {exc}"]
        if replayed != obj["position"]:
            out.append("deal: replaying it gives another position")
    return out
