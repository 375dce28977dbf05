"""PASS valued by the rival's contract (a level setting, on for Crazy alone), and level
settings for experiments."""

from __future__ import annotations

import random

import pytest

from preferans.cards import CardSet
from preferans.game import Game
from preferans.players import level_tweaks, make_player
from preferans.players.auction import bid_analysis, pass_value
from preferans.players.montecarlo import CRAZY, HARD
from preferans.players.view import SeatView
from preferans.rules import Rules

RULES = Rules.preset("sochi")
HANDS = [
    CardSet.parse("AC KC QC 9C 8C AD 9D 8D 7D 7H"),   # seat 0, the dealer
    CardSet.parse("AS KS QS JS 10S 9S AH KH 7C 10D"),  # seat 1: a sure six in spades
    CardSet.parse("8S 7S JC 10C KD QD JD 10H QH JH"),  # seat 2
]
TALON = ["9H", "8H"]
RIVAL = "crazy-nobudget/rival_in_pass=1"


def _game() -> Game:
    game = Game(RULES, first_dealer=0)
    game.start_deal(HANDS, TALON)
    return game


def _pass_value(level: str, game: Game, seat: int) -> tuple[float, dict]:
    player = make_player(level, RULES, seed=3, budget=None)
    view = SeatView.from_observation(game.observation(seat))
    analysis = bid_analysis(player, view, random.Random(5))
    return pass_value(player, view, player.model(view), analysis), analysis


def test_after_a_bid_passing_costs_what_the_bidders_contract_costs() -> None:
    game = _game()
    game.apply("6S")  # seat 1, the first hand
    assert game.deal.to_act == 2
    crazy, analysis = _pass_value(RIVAL, game, 2)
    assert analysis["rival"] and {seat for seat, _, _ in analysis["rival"]} == {1}
    # the bidder makes its six in most worlds: this seat loses by passing
    assert crazy < -1.0
    without, analysis = _pass_value("crazy-nobudget/rival_in_pass=0", game, 2)
    assert analysis["rival"] is None and without == 0.0
    default, _ = _pass_value("crazy-nobudget", game, 2)  # Crazy's own setting since 6 Dec
    assert default == crazy
    hard, analysis = _pass_value("hard-nobudget", game, 2)
    assert analysis["rival"] is None and hard == 0.0


def test_before_any_bid_the_rival_is_the_strongest_other_hand_or_the_all_pass() -> None:
    game = _game()
    value, analysis = _pass_value(RIVAL, game, 1)
    seats = {seat for seat, _, _ in analysis["rival"]}
    assert seats <= {0, 2} and seats
    assert value == pytest.approx(value)  # a number, not NaN
    # seat 2 passed: only the dealer is left to declare
    game.apply("PASS")
    game.apply("PASS")
    _, analysis = _pass_value(RIVAL, game, 0)
    assert analysis["rival"] is None  # the last to speak has no rival left


def test_the_rival_is_crazys_alone_and_a_decision_stays_deterministic() -> None:
    game = _game()
    game.apply("6S")
    obs = game.observation(2)
    a = make_player(RIVAL, RULES, seed=9).choose(obs)
    b = make_player(RIVAL, RULES, seed=9).choose(obs)
    assert a == b and a in obs["legal"]
    assert not HARD.rival_in_pass and CRAZY.rival_in_pass  # on for Crazy since 6 Dec


def test_level_settings_are_read_as_their_types() -> None:
    assert level_tweaks("crazy") == ("crazy", {})
    assert level_tweaks("hard-budget=0.5/worlds=50/play_inference=yes") == (
        "hard-budget=0.5", {"worlds": 50, "play_inference": True})
    player = make_player("hard-nobudget/worlds=40", RULES)
    assert player.level.worlds == 40 and player.budget is None
    assert player.level.name == "hard-nobudget/worlds=40"


@pytest.mark.parametrize(("name", "words"), [
    ("crazy/wolds=3", "field"),
    ("crazy/worlds", "FIELD=VALUE"),
    ("crazy/worlds=many", "worlds takes a int"),
    ("crazy/play_inference=maybe", "play_inference"),
    ("crazy/name=x", "field"),
    ("easy/worlds=3", "only normal, hard and crazy"),
])
def test_a_wrong_level_setting_is_named(name: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        make_player(name, RULES)
