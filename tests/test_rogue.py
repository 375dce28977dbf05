"""The Rogue played on its own (000, "Rogue (Razboynik)"): presets rogue-small, rogue-large,
rogue-xl.

Two players: A=0, B=1, the dummy seat 2.  A deals the hand-built deals, so the dummy is
first hand and B, the second hand, is the soloist.
"""

from __future__ import annotations

import pytest

from preferans.actions import IllegalAction
from preferans.bids import Bid
from preferans.deal import DUMMY, Deal, Phase
from preferans.game import Game
from preferans.outcome import DealOutcome
from preferans.players import RandomPlayer
from preferans.rules import Rules, RulesError
from preferans.scoring import ScoringError
from preferans.sheet import Sheet
from preferans.variants.rogue import rogue_list

SMALL = Rules.preset("rogue-small")
HANDS = [
    ["AC", "KC", "QC", "JC", "10C", "9C", "8C", "7C", "QH", "JH"],
    ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "AH", "KH"],
    ["AD", "KD", "QD", "JD", "10D", "9D", "8D", "7D", "10H", "9H"],
]
TALON = ["8H", "7H"]
HANDS3 = [HANDS[0], HANDS[1], HANDS[2]]


def legal(deal: Deal) -> list[str]:
    return [str(a) for a in deal.legal_actions()]


def test_the_three_lists():
    # 000: "The list of "small rogue" is 10 games of 6 spades, 6 clubs, 6 diamonds, 6 hearts,
    # 6 no trump, any 7 trick once, any 8 trick once, any 9 trick once, any 10 trick once and
    # misere once. The "large rogue" is 14 games of 6 spades, ... 7 no trump, any 8 trick
    # once, any 9 trick once, any 10 trick once, and misere once. The "extra large rogue" is
    # 30 games of 6 to 10 trick games in 5 trumps and misere five times."
    assert rogue_list("small") == ("6S", "6C", "6D", "6H", "6NT", "7", "8", "9", "10", "MISERE")
    assert rogue_list("large") == ("6S", "6C", "6D", "6H", "6NT", "7S", "7C", "7D", "7H",
                                   "7NT", "8", "9", "10", "MISERE")
    xl = rogue_list("xl")
    assert len(xl) == 30 and xl.count("MISERE") == 5 and "10NT" in xl and "8" not in xl


def test_no_auction_the_second_hand_names_a_game():
    # 000: "There are no bidding and the second hand is always the soloist."
    deal = Deal(SMALL, 0, HANDS, TALON)
    assert deal.phase is Phase.NAME and deal.to_act == 1  # B: the dummy is first hand
    assert legal(deal) == ["6S", "6C", "6D", "6H", "6NT", "TRICKS 7", "TRICKS 8", "TRICKS 9",
                           "TRICKS 10", "MISERE"]
    assert deal.observation(0)["talon"] is None and deal.observation(0)["soloist"] == 1


def test_a_six_is_named_in_full_before_the_talon_and_the_whist_is_forced_open():
    # 000: "The soloist must name number of tricks and a trump before turning the widow up if
    # it is a six-trick game in "small rogue"" and "The opponent must whist with dummy and
    # open hands in a two player game."
    deal = Deal(SMALL, 0, HANDS, TALON)
    deal.apply("6S")
    assert deal.phase is Phase.DISCARD and deal.observation(0)["talon"] == TALON
    deal.apply("DISCARD 8H 7H")
    assert deal.phase is Phase.PLAY and str(deal.contract) == "6S"  # no trump to name
    assert deal.whisters == (0,) and deal.open_defence and deal.controller(DUMMY) == 0
    assert DUMMY in deal.exposed and deal.tokens() == ["6S", "DISCARD 7H 8H"]
    while not deal.done:
        deal.apply(deal.legal_actions()[0])
    o = deal.outcome()
    assert o.rogue_item == "6S" and o.defence == ("WHIST",)


def test_any_eight_names_the_tricks_first_and_the_trump_after_the_discard():
    # 000: "For the other trick games he/she names number of tricks before seeing the widow
    # and a trump after that."
    deal = Deal(SMALL, 0, HANDS, TALON)
    deal.apply("TRICKS 8")
    deal.apply("DISCARD 8H 7H")
    assert deal.phase is Phase.CONTRACT
    assert legal(deal) == ["8S", "8C", "8D", "8H", "8NT"]
    with pytest.raises(IllegalAction, match="the rogue game named is 8 tricks: name its trump"):
        deal.apply("9S")
    deal.apply("8NT")
    assert deal.phase is Phase.PLAY and deal.rogue_item == "8"


def test_misere_is_named_before_the_talon():
    deal = Deal(SMALL, 0, HANDS, TALON)
    deal.apply("MISERE")
    deal.apply("DISCARD AS KS")
    assert deal.kind == "misere" and deal.phase is Phase.PLAY


def test_each_game_only_once_and_the_end_when_every_list_is_played():
    # 000: "The soloist has to name all the games from his/her own list of games, one game
    # at a time and each game only once."  "A game ends when every player finishes playing
    # all the games in his/her list."
    game = Game(SMALL, seed=5)
    game.start_deal(HANDS, TALON)
    for token in ("6S", "DISCARD 8H 7H"):
        game.apply(token)
    while game.deal is not None:
        game.apply(game.legal_actions()[0])
    assert game.sheet.rogue_lists[1][0] == "6C" and len(game.sheet.rogue_lists[1]) == 9
    assert game.sheet.to_json()["rogue_lists"][0] == list(rogue_list("small"))
    game.start_deal()  # B deals, A names
    assert game.deal.to_act == 0 and "6S" in legal(game.deal)
    game.dealer = 0
    game.deal = None
    deal = game.start_deal(HANDS, TALON)
    assert "6S" not in legal(deal)
    with pytest.raises(IllegalAction, match="names a game left on his rogue list"):
        deal.apply("6S")
    # the sheet refuses a game already struck off
    with pytest.raises(ScoringError, match="6S is no longer on seat 1's rogue list"):
        game.sheet.record(DealOutcome("contract", 0, 2, 1, Bid.parse("6S"), ("WHIST",), (0,),
                                      None, True, (4, 6), rogue_item="6S"))
    with pytest.raises(ScoringError, match="rogue game 8 was named but 9S was played"):
        game.sheet.record(DealOutcome("contract", 0, 2, 1, Bid.parse("9S"), ("WHIST",), (0,),
                                      None, True, (1, 9), rogue_item="8"))
    assert not game.sheet.finished
    sheet = Sheet(SMALL, ("A", "B"))
    sheet.rogue_lists = [[], ["MISERE"]]
    sheet.record(DealOutcome("misere", 0, 2, 1, Bid.parse("MISERE"), tricks=(10, 0),
                             rogue_item="MISERE"))
    assert sheet.finished and sheet.to_json()["pool"] == [0, 10]


def test_three_players_both_whist_open_or_first_whists_second_passes():
    # 000: "When three or four play, the designated soloist is either the eldest or the
    # second hand, by prior agreement" and "some say both partners must whist and some say
    # the first partner whists and the second passes. The hands of the partners are open in
    # both cases."
    rules = Rules.preset("rogue-small", players=3)
    deal = Deal(rules, 0, HANDS3, TALON)
    assert deal.to_act == 2  # dealer A: first hand B, second hand C
    deal.apply("6D")
    deal.apply("DISCARD 10H 9H")
    assert deal.whisters == (0, 1) and set(deal.exposed) == {0, 1}
    assert [str(a) for _, a in deal.defence] == ["WHIST", "WHIST"]
    rules = Rules.preset("rogue-small", players=3, rogue_soloist="first", rogue_defence="first")
    deal = Deal(rules, 0, HANDS3, TALON)
    assert deal.to_act == 1
    deal.apply("6S")
    deal.apply("DISCARD 8H 7H")
    assert deal.whisters == (2,) and deal.controller(0) == 2 and 0 in deal.exposed
    assert [str(a) for _, a in deal.defence] == ["WHIST", "PASS"]


def test_rules_guard_the_list_end():
    with pytest.raises(RulesError, match="game_end='lists' needs rogue lists"):
        Rules.preset("sochi", game_end="lists")
    for name in ("rogue-small", "rogue-large", "rogue-xl"):
        rules = Rules.preset(name)
        assert rules.players == 2 and Rules.from_json(rules.to_json()) == rules


@pytest.mark.parametrize(("preset", "players", "overrides"), [
    ("rogue-small", 2, {}),
    ("rogue-large", 2, {}),
    ("rogue-xl", 2, {}),
    ("rogue-small", 3, {}),
    ("rogue-small", 3, {"rogue_soloist": "first", "rogue_defence": "first"}),
    ("rogue-large", 4, {}),
])
def test_random_players_play_every_list_to_the_end(preset, players, overrides):
    rules = Rules.preset(preset, players=players, **overrides)
    for seed in range(2):
        game = Game(rules, seed=seed, first_dealer=seed % players)
        bots = [RandomPlayer(seed * 10 + s) for s in range(players)]
        for _ in range(20000):
            if game.finished:
                break
            deal = game.deal or game.start_deal()
            seat = deal.to_act
            game.apply(bots[seat].choose(deal.observation(seat)), seat)
        assert game.finished
        assert not any(game.sheet.rogue_lists)
        size = len(rogue_list(rules.rogue))
        assert len(game.finished_deals) == size * players
        assert sum(game.sheet.balance()) == 0
        assert Game.from_record(game.to_record()).sheet.to_json() == game.sheet.to_json()
