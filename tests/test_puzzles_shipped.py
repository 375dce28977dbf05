"""The shipped puzzles: every one recomputed by the solver, none repeating another, graded
and tagged; the classic problems' published answers are the solver's."""

from __future__ import annotations

from collections import Counter

import pytest

from preferans.cards import Card
from preferans.puzzles.cardplay import equivalent_groups, legal, trick_taker
from preferans.puzzles.goal import Goal
from preferans.puzzles.puzzle import FORMAT, canonical_key, read_position, situation_from
from preferans.puzzles.shipped import classic_line_faults, classic_value, classics, generated
from preferans.puzzles.themes import THEMES
from preferans.puzzles.verify import problems
from preferans.solver import Position, solve_moves


def test_at_least_a_thousand_puzzles_ship_graded_and_tagged() -> None:
    puzzles = generated()
    assert len(puzzles) >= 1000
    assert all(p["format"] == FORMAT for p in puzzles)
    grades = Counter(p["grade"] for p in puzzles)
    assert set(grades) == {1, 2, 3, 4, 5}
    themes = Counter(t for p in puzzles for t in p["themes"])
    for theme in ("all-pass", "whisting", "trump-control", "throw-in", "squeeze",
                  "misere-catching"):
        assert themes[theme] > 0, theme
    assert set(themes) <= set(THEMES)


def test_every_shipped_puzzle_is_confirmed_by_the_solver() -> None:
    # about 1.3 ms a puzzle: the whole set runs in the normal suite
    wrong = {p["id"]: problems(p) for p in generated()}
    assert {k: v for k, v in wrong.items() if v} == {}


def test_each_step_of_each_line_has_exactly_one_solution_run() -> None:
    # independent of verify.py: walk each line with the solver
    for p in generated():
        pos = read_position(p)
        sit = situation_from(p, pos)
        goal = Goal.from_json(p["goal"])
        taken = 0
        for step in p["line"]:
            card = Card.parse(step["card"]).index
            assert pos.to_move == step["seat"]
            if step["player"]:
                values = solve_moves(pos)
                good = [g for g in equivalent_groups(pos, legal(pos))
                        if goal.meets(taken + values[g[0]])]
                assert len(good) == 1, p["id"]
                assert sorted(step["accepted"]) == sorted(str(Card.from_index(c))
                                                          for c in good[0])
                assert card in good[0]
            before = pos
            pos = pos.play(card)
            if len(before.trick) == 2 and trick_taker(before, card) == goal.counted:
                taken += 1
        assert sit.mover == p["to_play"]


def test_no_shipped_puzzle_repeats_another() -> None:
    puzzles = generated()
    ids = [p["id"] for p in puzzles]
    assert len(set(ids)) == len(ids)
    keys = [canonical_key(read_position(p), Goal.from_json(p["goal"])) for p in puzzles]
    assert len(set(keys)) == len(keys)
    # one puzzle per deal and side (a board's rotations share its cards)
    stories = [(str(p["deal"]["hands"]), p["deal"]["dealer"], p["kind"], p["level"],
                p["declarer"], p["to_play"] == p["declarer"])
               for p in puzzles if p["kind"] != "allpass"]
    assert len(set(stories)) == len(stories)


def test_a_tampered_puzzle_is_refused() -> None:
    p = dict(generated()[0])
    wrong = next(a["cards"][0] for a in p["alternatives"])
    p["solution"] = [wrong]
    assert any(line.startswith("solution:") for line in problems(p))
    p = dict(generated()[0])
    p["position"] = {**p["position"], "leader": (p["position"]["leader"] + 1) % 3}
    assert problems(p)


@pytest.mark.parametrize("problem", classics(), ids=lambda p: p["id"])
def test_classic_problems_published_answers_are_the_solvers(problem: dict) -> None:
    assert problem["source"]["problem_url"].startswith("https://")
    assert classic_value(problem) == problem["answer"]
    assert classic_line_faults(problem) == []
    if "key_card" in problem:
        pos = Position.from_json(problem["position"])
        values = solve_moves(pos)
        defending = pos.to_move != pos.side
        best = min(values.values()) if defending else max(values.values())
        good = [g for g in equivalent_groups(pos, legal(pos)) if values[g[0]] == best]
        assert len(good) == 1
        assert Card.parse(problem["key_card"]).index in good[0]
