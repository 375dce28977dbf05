"""The all-pass risk in the auction: PASS before any bid, valued by the all-pass the seat
would play (:attr:`Level.allpass_solved`) or by the rough hand count."""

from __future__ import annotations

import random
import statistics

import pytest

from preferans.cards import CardSet
from preferans.deal import Deal
from preferans.game import Game
from preferans.players import make_player
from preferans.players.allpass import ALLPASS_REAL, ALLPASS_WORLDS
from preferans.players.allpass import interpolate as _interpolate
from preferans.players.auction import bid_analysis, pass_value
from preferans.players.evaluation import allpass_tricks
from preferans.players.view import SeatView
from preferans.rules import Rules
from preferans.solver import solve_batch
from preferans.solver.position import Position

RULES = Rules.preset("sochi")
SOLVED = "crazy-nobudget/allpass_solved=1"
# the last to speak after two passes: seat 0, the dealer
STRONG = CardSet.parse("AS KS QS AC KC AD KD AH KH QH")   # takes most all-pass tricks
WEAK = CardSet.parse("7S 8S 9S 7C 8C 7D 8D 9D 7H 8H")     # takes few


def _game(hand: CardSet, seed: int = 5) -> Game:
    """A deal where the dealer (seat 0) holds ``hand``, the rest dealt at random."""
    rest = [c for c in CardSet.full() if c not in hand]
    random.Random(seed).shuffle(rest)
    game = Game(RULES, first_dealer=0)
    game.start_deal([hand, CardSet(rest[:10]), CardSet(rest[10:20])],
                    [str(c) for c in rest[20:22]])
    return game


def _analysis(level: str, hand: CardSet) -> tuple[float, dict]:
    """The PASS value and analysis of seat 0 holding ``hand`` after two passes."""
    game = _game(hand)
    game.apply("PASS")  # seat 1, the first hand
    game.apply("PASS")  # seat 2
    assert game.deal is not None and game.deal.to_act == 0
    player = make_player(level, RULES, seed=3, budget=None)
    view = SeatView.from_observation(game.observation(0))
    analysis = bid_analysis(player, view, random.Random(7))
    return pass_value(player, view, player.model(view), analysis), analysis


def test_the_solved_all_pass_is_calibrated_where_the_hand_count_is_not() -> None:
    """Over random deals each seat's all-pass tricks, double dummy against the other two
    and scaled by ALLPASS_REAL, average about a third of the ten tricks, as real tricks
    must; the rough hand count gives each hand about twice that."""
    rng = random.Random(11)
    rough: list[float] = []
    positions = []
    for _ in range(40):
        deal = Deal.shuffle(RULES, 0, rng)
        hands = tuple(int(deal.hand(s).mask) for s in range(3))
        leads = tuple(int(c.suit) for c in deal.talon)
        for seat in range(3):
            positions.append(Position(hands=hands, leader=1, mode="allpass", side=seat,
                                      talon_leads=leads))
            rough.append(allpass_tricks(hands[seat]))
    scaled = [ALLPASS_REAL * t for t in solve_batch(positions, threads=2)]
    assert 2.8 < statistics.fmean(scaled) < 3.9
    assert statistics.fmean(rough) > 5.5


def test_the_pass_value_reads_the_all_pass_the_hand_would_play() -> None:
    strong, analysis = _analysis(SOLVED, STRONG)
    assert analysis["allpass"] is not None
    assert len(analysis["allpass"]) == min(ALLPASS_WORLDS, len(analysis["weights"]))
    assert all(0 <= t <= 10 for t in analysis["allpass"])
    assert statistics.fmean(analysis["allpass"]) >= 6  # aces and kings take tricks
    weak, analysis = _analysis(SOLVED, WEAK)
    assert statistics.fmean(analysis["allpass"]) <= 2
    # the last to speak: PASS is the all-pass itself
    assert strong < -20 < weak
    # without the setting the analysis solves no all-pass
    rough, analysis = _analysis("crazy-nobudget/allpass_solved=0", WEAK)
    assert analysis["allpass"] is None
    assert rough < weak  # the rough count fears the all-pass more


def test_no_all_pass_is_solved_once_someone_has_bid() -> None:
    game = _game(WEAK)
    game.apply("6S")  # seat 1
    player = make_player(SOLVED, RULES, seed=3, budget=None)
    view = SeatView.from_observation(game.observation(2))
    analysis = bid_analysis(player, view, random.Random(7))
    assert analysis["allpass"] is None
    # after a bid PASS is worth what the bidder's contract costs this seat (Crazy's
    # rival_in_pass), or nothing without it: never an all-pass
    assert analysis["rival"]
    plain = make_player(SOLVED + "/rival_in_pass=0", RULES, seed=3, budget=None)
    plain_analysis = bid_analysis(plain, view, random.Random(7))
    assert plain_analysis["allpass"] is None
    assert pass_value(plain, view, plain.model(view), plain_analysis) == 0.0


def test_interpolate_reads_between_the_counts() -> None:
    table = [float(10 * t) for t in range(11)]
    assert _interpolate(table, 3.25) == pytest.approx(32.5)
    assert _interpolate(table, -1) == 0.0 and _interpolate(table, 12) == 100.0
