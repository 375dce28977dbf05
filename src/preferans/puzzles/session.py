"""Playing a puzzle: the player's cards so far, the solver answering for the other side.

:func:`advance` takes a puzzle and the cards the player has played (his side's cards only,
in order) and replays them from the puzzle's position: each must be legal and keep the goal
(a run equivalent to the solution's counts as the same card); after each, the solver
answers for the other side with its best card (:func:`.judge.answer`, as on the stored
line) and the player's forced cards are played for him, until it is his turn again.  The
puzzle is **solved** when the goal is decided or the player reaches a turn where several
runs keep it (where the stored line ends); a card that fails is **wrong**, with what it
costs.  Bounded work: at most ten cards, each a solve of a position of ten cards or fewer.

>>> from preferans.puzzles.shipped import generated
>>> puzzle = generated()[0]
>>> advance(puzzle, [])["status"]
'continue'
>>> advance(puzzle, puzzle["solution"][:1])["status"] in ("continue", "solved")
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import Card
from ..solver import solve_moves
from .cardplay import equivalent_groups, legal, trick_taker
from .goal import Goal
from .judge import answer, decided
from .puzzle import read_position, situation_from

MAX_CARDS = 10

PUBLIC = ("format", "id", "rules", "kind", "level", "declarer", "taken", "position",
          "to_play", "side", "goal", "grade", "themes")
"""What a page is shown of a puzzle before it is solved (never the solution or the line)."""


class PlayError(ValueError):
    """Cards that are not a play of this puzzle (the message says why)."""


def public(puzzle: Mapping[str, Any]) -> dict[str, Any]:
    """The puzzle as a page sees it before it is solved."""
    return {k: puzzle[k] for k in PUBLIC if k in puzzle}


def advance(puzzle: Mapping[str, Any], cards: Sequence[str]) -> dict[str, Any]:
    """Replay the player's ``cards``; see the module docstring.  Raises :class:`PlayError`
    for cards that cannot be played (not a card, not his turn, not legal)."""
    if len(cards) > MAX_CARDS:
        raise PlayError(f"at most {MAX_CARDS} cards")
    pos = read_position(puzzle)
    sit = situation_from(puzzle, pos)
    goal = Goal.from_json(puzzle["goal"])
    side = frozenset(puzzle["side"])
    wants_more = sit.wants_more()
    taken = list(puzzle["taken"])
    counted = 0
    played: list[dict[str, Any]] = []

    def play(card: int, player: bool, forced: bool = False) -> None:
        nonlocal pos, counted
        seat = pos.to_move
        taker = trick_taker(pos, card)
        if taker is not None:
            taken[taker] += 1
            counted += taker == goal.counted
        entry: dict[str, Any] = {"seat": seat, "card": str(Card.from_index(card)),
                                 "player": player}
        if forced:
            entry["forced"] = True
        played.append(entry)
        pos = pos.play(card)

    def over() -> bool:
        return not pos.hands[pos.to_move] or decided(goal, counted, pos.tricks_left)

    def answer_until_player() -> None:
        while not over():
            cards_now = legal(pos)
            if pos.to_move in side:
                if len(cards_now) != 1:
                    return
                play(cards_now[0], True, forced=True)
            else:
                play(answer(pos, solve_moves(pos), wants_more), False)

    def result(status: str, **extra: Any) -> dict[str, Any]:
        return {"status": status, "played": played, "position": pos.to_json(),
                "to_play": pos.to_move, "taken": taken, "legal": _names(legal(pos))
                if status == "continue" else [], **extra}

    answer_until_player()
    for k, name in enumerate(cards):
        if over():
            raise PlayError(f"card {k + 1} ({name}): the puzzle is over")
        try:
            card = Card.parse(name).index
        except ValueError:
            raise PlayError(f"card {k + 1}: {name!r} is not a card") from None
        if card not in legal(pos):
            raise PlayError(f"card {k + 1} ({name}) may not be played here")
        values = solve_moves(pos)
        if not goal.meets(counted + values[card]):
            best = max(values.values()) if wants_more else min(values.values())
            cost = abs(best - values[card])
            return result("wrong", card=str(Card.from_index(card)), cost=cost)
        play(card, True)
        answer_until_player()
    if over():
        return result("solved")
    values = solve_moves(pos)
    good = [g for g in equivalent_groups(pos, legal(pos)) if goal.meets(counted + values[g[0]])]
    if len(good) > 1:
        return result("solved")
    return result("continue")


def _names(cards: list[int]) -> list[str]:
    return [str(Card.from_index(c)) for c in cards]


