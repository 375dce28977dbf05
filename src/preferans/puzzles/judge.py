"""Whether a position is a puzzle: exactly one card keeps what matters, and its line.

A position is a puzzle for the side to play when, with every hand open and the solver
answering for the other side:

1. the seat to play has at least three legal cards (a choice, not a forced card);
2. a goal that matters under the rules is open (:func:`.goal.goal_for`);
3. exactly one card keeps it: one run of equivalent cards (:func:`.cardplay.
   equivalent_groups`: a K beside a Q is one card in effect); every other card fails it
   against best play;
4. the obvious card (:mod:`.obvious`) is not that card;
5. the solution line goes on, the solver answering, while exactly one run of cards keeps
   the goal at each turn of the player's side (a turn with one legal card counts, marked
   ``forced``); it ends when the goal is decided (tricks won or lost make it certain:
   ``decided``) or at the first later turn where several runs keep it (``open``: from there
   more than one way works, as a chess puzzle ends where more than one move wins).

The other side's answers are the solver's best cards for it: the most tricks it can take
from there, the lowest card (by index) among equals, so the line is reproducible.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..cards import Card
from ..rules import Rules
from ..solver import Position, solve_moves
from .cardplay import equivalent_groups, legal, trick_taker
from .goal import Goal, Situation, goal_for
from .obvious import obvious_card

REJECTIONS = ("forced", "no_goal", "several", "obvious")
"""Why a candidate position is not kept (counted by the generator)."""


@dataclass
class Step:
    """One card of the solution line."""

    seat: int                   # position seat
    card: int                   # the card played on the line
    player: bool                # the player's side (True) or the solver's answer
    cards: list[int] = field(default_factory=list)  # the player's accepted run
    forced: bool = False        # the player's only legal card

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "card": str(Card.from_index(self.card)),
                               "player": self.player}
        if self.player:
            out["accepted"] = [str(Card.from_index(c)) for c in self.cards]
            if self.forced:
                out["forced"] = True
        return out


@dataclass
class Verdict:
    """What the judge found: ``reason`` is None for a puzzle, else one of REJECTIONS."""

    reason: str | None
    goal: Goal | None = None
    value: int = 0
    values: dict[int, int] = field(default_factory=dict)
    groups: list[list[int]] = field(default_factory=list)
    solution: list[int] = field(default_factory=list)
    obvious: int | None = None
    line: list[Step] = field(default_factory=list)
    line_end: str = "decided"


def decided(goal: Goal, counted_taken: int, tricks_left: int) -> bool:
    """Whether the goal is certain whatever is played: ``counted_taken`` tricks taken by the
    counted seat since the puzzle's position, ``tricks_left`` still to play."""
    if goal.direction == "at_least":
        return counted_taken >= goal.bound
    return counted_taken + tricks_left <= goal.bound


def answer(pos: Position, values: Mapping[int, int], wants_more: bool) -> int:
    """The solver's answer for the side against the player: its best value, lowest card."""
    return min(legal(pos), key=lambda c: (values[c] if wants_more else -values[c], c))


def solution_line(pos: Position, goal: Goal, side: frozenset[int], wants_more: bool
                  ) -> tuple[list[Step], str]:
    """The line from ``pos`` (the player to move, exactly one run keeping the goal) and how
    it ends: ``decided`` or ``open`` (see the module docstring)."""
    steps: list[Step] = []
    taken = 0
    while pos.hands[pos.to_move]:
        if decided(goal, taken, pos.tricks_left):
            return steps, "decided"
        cards = legal(pos)
        values = solve_moves(pos)
        if pos.to_move in side:
            groups = equivalent_groups(pos, cards)
            good = [g for g in groups if goal.meets(taken + values[g[0]])]
            if len(good) != 1:
                if not good:
                    raise AssertionError("the solver's value fell on the solution line")
                return steps, "open"
            card = good[0][0]  # the lowest of the run: win cheaply, discard low
            steps.append(Step(pos.to_move, card, True, good[0], forced=len(cards) == 1))
        else:
            card = answer(pos, values, wants_more)
            steps.append(Step(pos.to_move, card, False))
        if trick_taker(pos, card) == goal.counted:
            taken += 1
        pos = pos.play(card)
    return steps, "decided"


def judge(pos: Position, sit: Situation, rules: Rules) -> Verdict:
    """Judge ``pos`` (the solver position of ``sit``); see the module docstring."""
    cards = legal(pos)
    if len(cards) < 3:
        return Verdict("forced")
    values = solve_moves(pos)
    wants_more = sit.wants_more()
    best = max(values.values()) if wants_more else min(values.values())
    goal = goal_for(sit, rules, best)
    if goal is None:
        return Verdict("no_goal", value=best, values=values)
    groups = equivalent_groups(pos, cards)
    good = [g for g in groups if goal.meets(values[g[0]])]
    verdict = Verdict(None, goal, best, values, groups)
    if len(good) != 1 or len(good) == len(groups):
        verdict.reason = "several"
        return verdict
    verdict.solution = good[0]
    side = sit.player_side()
    verdict.obvious = obvious_card(pos, wants_tricks=sit.kind == "contract", partners=side)
    if verdict.obvious in good[0]:
        verdict.reason = "obvious"
        return verdict
    verdict.line, verdict.line_end = solution_line(pos, goal, side, wants_more)
    return verdict
