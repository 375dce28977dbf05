"""The auction's model of the defence's answer (``Level.whist_response``): a contract its
declarer would fail double dummy is whisted only as often as defenders really whist it
(:data:`preferans.players.contract_value.WHIST_RESPONSE`); the rest of the time a half-whist lets
it stand."""

from __future__ import annotations

import pytest

from preferans.bids import Bid
from preferans.cards import CardSet, Suit
from preferans.game import Game
from preferans.players import make_player
from preferans.players.contract_value import WHIST_RESPONSE, declarer_value
from preferans.players.levels import CRAZY, HARD
from preferans.players.view import SeatView
from preferans.rules import Rules

SOCHI = Rules.preset("sochi")
HANDS = [
    CardSet.parse("AC KC QC 9C 8C AD 9D 8D 7D 7H"),   # seat 0, the dealer
    CardSet.parse("AS KS QS JS 10S 9S AH KH 7C 10D"),  # seat 1: the bidder
    CardSet.parse("8S 7S JC 10C KD QD JD 10H QH JH"),  # seat 2
]


def _view(rules: Rules) -> SeatView:
    game = Game(rules, first_dealer=0)
    game.start_deal(HANDS, ["9H", "8H"])
    return SeatView.from_observation(game.observation(1))


@pytest.mark.parametrize("level", [6, 7, 8])
def test_a_short_contract_is_worth_the_mix_of_whisted_and_half_whisted(level: int) -> None:
    view = _view(SOCHI)
    bot = make_player("crazy-nobudget/whist_response=1", SOCHI, seed=3)
    assert bot.level.whist_response
    model = bot.model(view)
    contract = Bid(level, Suit.SPADES)
    whisted = model.contract_table(1, contract)
    stands = model.unplayed_value(1, contract, half_whister=model.defenders(1)[1])
    assert stands > whisted[level - 1]  # a half-whist that stands beats a whisted failure
    for tricks in range(11):
        plain = declarer_value(bot.rules, model, view, 1, contract, tricks, {})
        mixed = declarer_value(bot.rules, model, view, 1, contract, tricks, {}, response=True)
        short = level - tricks
        if level not in SOCHI.half_whist_levels or short < 0:
            # no half-whist at eight; a contract made with a trick to spare is not whisted
            # (the defence cannot take its quota) either way
            assert mixed == plain
            continue
        p = WHIST_RESPONSE[level][max(0, 2 - short)]
        assert plain == whisted[tricks]
        assert mixed == pytest.approx(p * whisted[tricks] + (1 - p) * stands)
        if p < 1:
            assert mixed > plain
    # the table holds probabilities
    for chances in WHIST_RESPONSE.values():
        assert all(0 <= c <= 1 for c in chances)


def test_without_the_half_whist_a_short_contract_is_whisted() -> None:
    rules = SOCHI.replace(half_whist_levels=())
    view = _view(rules)
    bot = make_player("crazy-nobudget/whist_response=1", rules, seed=3)
    model = bot.model(view)
    six = Bid(6, Suit.SPADES)
    for tricks in range(6):
        assert (declarer_value(bot.rules, model, view, 1, six, tricks, {}, response=True)
                == model.contract_table(1, six)[tricks])


def test_the_auction_weighs_the_answer_only_at_levels_that_have_it_on() -> None:
    assert not HARD.whist_response and CRAZY.whist_response
    plain = make_player("crazy-nobudget/whist_response=0", SOCHI, seed=3)
    mixed = make_player("crazy-nobudget/whist_response=1", SOCHI, seed=3)
    game = Game(SOCHI, first_dealer=0)
    game.start_deal(HANDS, ["9H", "8H"])
    first = game.observation(1)
    assert first["seat"] == 1  # the bidder's own first call
    a, b = plain.explain(first), mixed.explain(first)
    values_a = {o["token"]: o["value"] for o in a["options"]}
    values_b = {o["token"]: o["value"] for o in b["options"]}
    # the same worlds (the same seed and observation): a bid can only gain by the answer
    assert values_b["6S"] >= values_a["6S"] - 1e-9
    assert values_b["PASS"] == pytest.approx(values_a["PASS"])
