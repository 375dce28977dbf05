"""Easy bids by rough feel, as a beginner does: hands a beginner opens, hands it passes, the
all-pass it fears, how often its tables play a contract, and the same choices for a seed."""

from __future__ import annotations

import pytest

from preferans.cards import CardSet
from preferans.deal import Deal
from preferans.game import Game
from preferans.match import board_cards
from preferans.players import make_player
from preferans.players.easy import EasyPlayer
from preferans.players.view import SeatView
from preferans.rules import Rules

SOCHI = Rules.preset("sochi")
SEEDS = range(40)


def opening(hand: str, *, streak: int = 0, auction: list | None = None,
            legal: list[str] | None = None) -> dict:
    """First hand's observation with ``hand``, nobody having bid (or after ``auction``)."""
    return {"seat": 0, "players": ["A", "B", "C"], "dealer": 2, "first_hand": 0,
            "phase": "auction", "hand": CardSet.parse(hand).to_list(),
            "auction": auction or [], "legal": legal or ["6S", "MISERE", "PASS"],
            "allpass_streak": streak, "bid": None}


def bids(obs: dict, rules: Rules = SOCHI) -> int:
    """For how many of 40 seeds (40 hunches) Easy does not pass."""
    return sum(EasyPlayer(rules, seed=s).choose(obs) != "PASS" for s in SEEDS)


@pytest.mark.parametrize("hand", [
    "AS KS QS 9S 8S AC 10C KD 8D 7H",  # a good six in spades with an ace outside
    "AS KS AC KC AD 8D 7H 9H QH 8C",  # three aces and two kings, no long suit
    "AH KH QH JH 9H 8H AD 7C 8S 9S",  # six hearts to the jack and an ace
])
def test_a_strong_hand_opens_whatever_the_hunch(hand):
    assert bids(opening(hand)) == len(SEEDS)
    assert EasyPlayer(SOCHI, seed=1).choose(opening(hand)) == "6S"  # the cheapest bid


def test_a_long_suit_without_an_ace_opens_on_most_hunches():
    # a beginner's hand: five spades to the king and a king-queen outside
    assert bids(opening("KS QS JS 10S 9S KC QC 8D 7D 7H")) >= 30


@pytest.mark.parametrize("hand", [
    "QS 10S 8S JC 9C QD 10D 8D JH 9H",  # nothing higher than a queen, no long suit
    "9S 8S 7S 10C 9C 8C 10D 9D 8D 7H",  # low cards: no trick to speak of
])
def test_a_hand_without_tricks_passes(hand):
    obs = opening(hand, legal=["6S", "PASS"])
    assert bids(obs) <= 2


def test_the_all_pass_it_fears_makes_it_open_more_as_the_stakes_rise():
    hand = "AS 8S 7S KC 9C 8C AD 10D 8D QH"  # two aces, a king: bad in an all-pass
    bot = EasyPlayer(SOCHI)
    first = SeatView.from_observation(opening(hand, streak=0))
    third = SeatView.from_observation(opening(hand, streak=2, legal=["7S", "PASS"]))
    assert bot.feel(third, 0.0) > bot.feel(first, 0.0)
    fearless = EasyPlayer(SOCHI, allpass_fear=0.0)
    assert fearless.feel(first, 0.0) < bot.feel(first, 0.0)
    assert bids(opening(hand, legal=["6S", "PASS"])) > sum(
        EasyPlayer(SOCHI, seed=s, allpass_fear=0.0).choose(opening(hand, legal=["6S", "PASS"]))
        != "PASS" for s in SEEDS)


def test_over_another_bid_it_raises_only_on_its_own_feel():
    # after 6♠ from the left, no all-pass is coming: the same middling hand mostly passes
    hand = "KS QS JS 10S 9S KC QC 8D 7D 7H"
    alone = opening(hand)
    over = opening(hand, auction=[[2, "6S"]], legal=["6C", "PASS"])
    over["bid"] = "6S"
    assert bids(over) < bids(alone)
    bot = EasyPlayer(SOCHI)
    assert bot.feel(SeatView.from_observation(over), 0.0) < bot.feel(
        SeatView.from_observation(alone), 0.0)


def play_board(board: int, seed: int = 35, players: int = 35) -> Deal:
    """Board ``board`` of ``preferans match``'s seed ``seed``, three Easy players seeded from
    ``players``."""
    dealer, hands, talon = board_cards(SOCHI, seed, board)
    bots = [make_player("easy", SOCHI, seed=players * 7919 + board * 31 + s) for s in range(3)]
    game = Game(SOCHI, ["A", "B", "C"], first_dealer=dealer)
    game.start_deal(hands, talon)
    while game.deal is not None:
        seat = game.deal.to_act
        game.apply(bots[seat].choose(game.observation(seat)))
    return game.finished_deals[-1]


def test_easy_tables_play_about_as_many_contracts_as_normal_ones():
    # Normal's tables: 95% contracts, 4% all-pass on 300 boards of seed 35
    # (benchmarks/bench_bidding.py); Easy's before it bid by feel: 31% and 68%
    deals = [play_board(b) for b in range(120)]
    kinds = [d.outcome().kind for d in deals]
    contracts = sum(k in ("contract", "passed", "halfwhist") for k in kinds) / len(kinds)
    allpass = kinds.count("allpass") / len(kinds)
    assert 0.82 <= contracts <= 0.99 and allpass <= 0.15, (contracts, allpass)
    levels = [d.contract.level for d in deals if d.contract is not None and not d.contract.misere]
    assert sum(level >= 9 for level in levels) <= 0.05 * len(levels)  # no bidding wars


def test_decisions_stay_the_same_for_a_seed():
    first = [play_board(b).history for b in range(8)]
    again = [play_board(b).history for b in range(8)]
    assert first == again
    other = [play_board(b, players=36).history for b in range(8)]  # the same cards
    assert other != first  # other hunches, other careless cards
    obs = opening("KS QS JS 10S 9S KC QC 8D 7D 7H")
    for seed in SEEDS:
        assert EasyPlayer(SOCHI, seed=seed).choose(obs) == EasyPlayer(SOCHI, seed=seed).choose(
            dict(obs))
