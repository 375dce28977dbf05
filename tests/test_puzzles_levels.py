"""The difficulty check: the table as it stood is rebuilt from a puzzle's deal, and a level
chooses there from its own seat's observation."""

from __future__ import annotations

import pytest

from preferans.cards import CardSet
from preferans.puzzles.levels import finds, level_table, position_game
from preferans.puzzles.shipped import classics, generated


def test_the_deal_replayed_is_the_puzzles_position() -> None:
    for puzzle in generated()[:50]:
        game = position_game(puzzle)
        deal = game.deal
        assert deal is not None
        seat = deal.hand_to_play
        assert seat == puzzle["to_play"]
        assert deal.hand(seat) == CardSet.parse(puzzle["position"]["hands"][seat])
        obs = game.observation(deal.to_act)
        # a seat's observation: its own hand and only the hands exposed to it
        assert obs["seat"] == deal.to_act
        for seat_text, cards in obs.get("exposed", {}).items():
            assert deal.open_defence or deal.kind == "misere" or int(seat_text) == deal.to_act
            assert CardSet.parse(cards) == deal.hand(int(seat_text))
        shown = {int(s) for s in obs.get("exposed", {})} | {deal.to_act}
        if not deal.open_defence and deal.kind != "misere":
            assert shown <= {deal.to_act, *(s for s in puzzle["side"])}


def test_levels_choose_from_the_observation() -> None:
    sample = [p for p in generated() if p["grade"] in (1, 5)][:6]
    table = level_table(sample, levels=("easy", "normal"))
    assert sum(row["puzzles"] for row in table.values()) == len(sample)
    for row in table.values():
        assert 0 <= row["easy"] <= row["puzzles"] and 0 <= row["normal"] <= row["puzzles"]
    assert finds(sample[0], "normal", seed=1) in (True, False)


def test_a_classic_problem_has_no_deal_to_replay() -> None:
    with pytest.raises(ValueError):
        position_game(classics()[0])
