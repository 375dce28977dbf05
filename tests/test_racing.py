"""Racing on Piter (000, "Racing"): presets racing-22 and racing-17.

Seats A=0, B=1, C=2.  Piter's values: a 6 is worth 2, a 9 is 8; all-pass tricks cost 2
mountain points at stake 1; whists are written doubled.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from preferans.actions import IllegalAction
from preferans.bids import Bid
from preferans.deal import Deal, Phase
from preferans.game import Game
from preferans.outcome import DealOutcome
from preferans.players import RandomPlayer
from preferans.rules import Rules, RulesError
from preferans.scoring import ScoringError
from preferans.sheet import Sheet

R22 = Rules.preset("racing-22")


def allpass(dealer: int, tricks: tuple[int, int, int]) -> DealOutcome:
    return DealOutcome("allpass", dealer, 3, tricks=tricks)


def made_9s(dealer: int, declarer: int = 0) -> DealOutcome:
    """A whisted 9♠ made 9–1–0 by ``declarer``: both defenders whisted."""
    tricks = [0, 0, 0]
    tricks[declarer] = 9
    first = (declarer + 1) % 3
    tricks[first] = 1
    second = (declarer + 2) % 3
    return DealOutcome("contract", dealer, 3, declarer, Bid.parse("9S"), ("WHIST", "WHIST"),
                       (first, second), None, None, tuple(tricks))


def test_presets():
    # 000: "A round is 22 points or 17 points"; "made of four rounds".
    assert (R22.pool, R22.racing_rounds, R22.racing_bonuses) == (22, 4, (300, 200))
    assert Rules.preset("racing-17").pool == 17
    # "Minimum bid and points for all pass games go up as in the normal Piter, that is, 6,
    # 7, 7, 7... and 2, 4, 6, 6"
    assert [R22.min_bid_level(k) for k in range(4)] == [6, 7, 7, 7]
    assert [R22.allpass_trick_points * R22.allpass_stake(k) for k in (1, 2, 3, 4)] == [2, 4, 6, 6]
    # "Soloist cannot resign"; "10 trick games are whisted and not checked"; "When two
    # players whist against 8, 9 or 10 trick games, both are responsible."
    assert not R22.resignation and R22.tens_whisted and R22.responsible_at_8plus == "both"
    assert Rules.from_json(R22.to_json()) == R22
    with pytest.raises(RulesError, match="racing_rounds > 0 and game_end='rounds' go together"):
        Rules.preset("piter", racing_rounds=2)


def test_the_first_hand_of_a_round_is_an_allpass():
    # 000: "A first hand of a round is an all-pass."
    game = Game(R22, seed=1)
    deal = game.start_deal()
    assert [str(a) for a in deal.legal_actions()] == ["PASS"]
    assert deal.observation(deal.to_act)["forced_allpass"] is True
    with pytest.raises(IllegalAction, match="compulsory all-pass: everyone passes"):
        deal.apply("6S")
    for _ in range(3):
        game.apply("PASS")
    assert deal.kind == "allpass"
    with pytest.raises(ScoringError, match="compulsory all-pass"):
        Sheet(R22).record(made_9s(0))


def test_stalingrad_against_every_six():
    # 000: "Players are forced to whist against 6 trick games ("Stalingrad")."
    deal = Deal.shuffle(R22, 2, random.Random(3))
    for token in ("6H", "PASS", "PASS"):
        deal.apply(token)
    deal.apply(deal.legal_actions()[0])
    deal.apply("6H")
    assert [str(a) for a in deal.legal_actions()] == ["WHIST"]


def test_a_failed_misere_forces_an_allpass_at_a_stake_by_tricks():
    # 000: "If there's a failed misere, following hand is an all-pass without doubles (2
    # points) if the soloist won a trick, with doubled points if two, and with tripled
    # points if three or more."
    sheet = Sheet(R22)
    sheet.record(allpass(0, (4, 3, 3)))
    assert not sheet.forced_allpass
    sheet.record(DealOutcome("misere", 1, 3, 2, Bid.parse("MISERE"), tricks=(4, 4, 2)))
    assert sheet.forced_allpass and sheet.forced_stake == 2
    entry = sheet.record(allpass(2, (5, 5, 0)))
    # stake 2 (not the streak's): 2 × 2 = 4 per trick; C's zero trick earns 1 pool point.
    assert entry.stake == 2 and [int(m) for m in entry.mountain] == [20, 20, 0]
    assert not sheet.forced_allpass
    sheet.record(DealOutcome("misere", 0, 3, 1, Bid.parse("MISERE"), tricks=(1, 7, 2)))
    assert sheet.forced_stake == 3  # three or more: tripled
    sheet.record(allpass(1, (4, 3, 3)))
    sheet.record(DealOutcome("misere", 2, 3, 0, Bid.parse("MISERE"), tricks=(0, 5, 5)))
    assert not sheet.forced_allpass  # a made misère forces nothing


def test_a_failed_nine_that_outbid_misere_forces_an_allpass_by_undertricks():
    # 000: "If there's a failed 9 or 10 trick game that overbid misere, following hand is
    # an all-pass without doubled points if the soloist was in short of one trick, with
    # doubled points if two, and with tripled points if three or more."
    sheet = Sheet(R22)
    sheet.record(allpass(0, (4, 3, 3)))
    failed = DealOutcome("contract", 1, 3, 2, Bid.parse("9S"), ("WHIST", "PASS"), (0,), None,
                         False, (2, 1, 7), overbid_misere=True)
    sheet.record(failed)
    assert sheet.forced_stake == 2
    sheet.record(allpass(2, (4, 3, 3)))
    plain = DealOutcome("contract", 0, 3, 2, Bid.parse("9S"), ("WHIST", "PASS"), (0,), None,
                        False, (2, 1, 7))
    sheet.record(plain)
    assert not sheet.forced_allpass  # nobody had called misère


def test_a_round_its_bonuses_and_the_next_rounds_first_dealer():
    # 000: "The first player to fill the pool in a round writes 300 points in each of
    # his/her whists againts the other players. Player with the smallest hill at the end of
    # a round writes 200 points similarly. The points are shared equally in case of a tie."
    # "First dealer of a round is the left hand side neighbour of the first dealer of the
    # previous round."
    sheet = Sheet(R22)
    sheet.record(allpass(0, (4, 3, 3)))  # mountains 8, 6, 6; streak 1
    for dealer in (1, 2):
        sheet.record(made_9s(dealer))  # A: pool 8, 16; B writes 2 × 8 = 16 each time
    assert sheet.round == 1 and not sheet.bonuses
    entry = sheet.record(made_9s(0))  # A: 24 ≥ 22, streak 0: the round is over
    assert "A filled the round's pool first: 300 whists" in entry.summary
    assert "round 1 over; B and C smallest mountain: 200 whists" in entry.summary
    j = sheet.to_json()
    # A 300 on each; B and C share the 200: 100 each on each other player.
    assert j["whists"] == [[0, 300, 300], [148, 0, 100], [100, 100, 0]]
    assert j["racing"]["round"] == 2
    assert j["racing"]["rounds"] == [{"pool": [24, 0, 0], "mountain": [8, 6, 6]}]
    assert sheet.next_round_dealer == 1 and sheet.forced_allpass
    assert sum(sheet.balance()) == 0


def test_a_round_is_extended_until_the_allpass_mode_ends():
    # 000: "If the limit is reached when minimum bid and points for all-pass games are
    # raised, it is extended until an exit from the all-pass mode."
    sheet = Sheet(R22)
    sheet.record(allpass(0, (4, 3, 3)))
    for dealer in (1, 2, 0):
        sheet.record(DealOutcome("passed", dealer, 3, 0, Bid.parse("10NT"),
                                 ("PASS", "PASS")))
    assert int(sheet.pool[0]) == 30 and sheet.allpass_streak == 1
    assert sheet.round == 1 and sheet.bonuses == {}  # filled, but the round goes on
    assert sheet.whists[0][1] == 300
    sheet.record(made_9s(1, declarer=1))  # a whisted contract made: the mode ends
    assert sheet.round == 2


def test_the_end_of_all_rounds():
    # 000: "At the end of all rounds, one with highest total of pool receives 300 point
    # bonus and smallest total hill 200, just like a round."
    rules = Rules.preset("racing-22", racing_rounds=1)
    sheet = Sheet(rules)
    sheet.record(allpass(0, (4, 3, 3)))
    for dealer in (1, 2, 0):
        sheet.record(made_9s(dealer))
    assert sheet.finished and not sheet.forced_allpass
    j = sheet.to_json()
    # round: A 300 on each, B and C 100 on each other; the end: the same again.
    assert j["whists"] == [[0, 600, 600], [248, 0, 200], [200, 200, 0]]
    assert sum(sheet.balance()) == 0


@pytest.mark.parametrize(("preset", "players"), [("racing-22", 3), ("racing-17", 3),
                                                 ("racing-17", 4)])
def test_random_players_race_to_the_end(preset, players):
    # Short rounds (6 points, two rounds) keep the random games quick.
    rules = Rules.preset(preset, players=players, pool=6, racing_rounds=2)
    for seed in range(2):
        rng = random.Random(seed)
        game = Game(rules, seed=seed, first_dealer=seed % players)
        bots = [RandomPlayer(seed * 10 + s) for s in range(players)]
        round_dealers = [game.dealer]
        for _ in range(30000):
            if game.finished:
                break
            new_round = game.deal is None and game.sheet.next_round_dealer is not None
            deal = game.deal or game.start_deal()
            if new_round:
                round_dealers.append(deal.dealer)
            if deal.forced_allpass and deal.phase is Phase.AUCTION:
                assert [str(a) for a in deal.legal_actions()] == ["PASS"]
            seat = deal.to_act
            obs = deal.observation(seat)
            legal, x = obs["legal"], rng.random()
            if deal.phase is Phase.CONTRACT and x < 0.9:
                token = legal[0]  # cheap contracts and modest bids, so that rounds end
            elif deal.phase is Phase.AUCTION and len(legal) > 1 and x < 0.5:
                token = legal[0]
            elif deal.phase is Phase.AUCTION and x < 0.8:
                token = "PASS"
            else:
                token = bots[seat].choose(obs)
            game.apply(token, seat)
        assert game.finished and game.sheet.round == 3
        assert round_dealers == [(round_dealers[0] + k) % players for k in range(2)]
        assert sum(game.sheet.balance()) == 0
        assert Game.from_record(game.to_record()).sheet.to_json() == game.sheet.to_json()


def test_an_unwhisted_game_made_may_be_written_off_the_hill():
    # 000: "When a game is not whisted and successful, the soloist can either write the
    # points in the pool or write them off from the hill."
    deal = Deal.shuffle(R22, 2, random.Random(3))
    for token in ("7H", "PASS", "PASS"):
        deal.apply(token)
    deal.apply(deal.legal_actions()[0])
    for token in ("7H", "PASS", "PASS"):
        deal.apply(token)
    assert deal.phase is Phase.WRITE and deal.to_act == 0
    assert [str(a) for a in deal.legal_actions()] == ["POOL", "HILL"]
    # the writer sees what is at stake (the deal does not know Racing's sheet)
    assert deal.observation(0)["write"] == {"points": 4}
    assert "write" not in deal.observation(1)
    deal.apply("HILL")
    o = deal.outcome()
    assert o.kind == "passed" and o.off_hill == (0,)
    sheet = Sheet(R22)
    sheet.record(allpass(1, (4, 3, 3)))  # A's mountain 8
    entry = sheet.record(o)
    assert [int(p) for p in entry.pool] == [0, 0, 0] and int(entry.mountain[0]) == -4
    sheet = Sheet(R22)
    sheet.record(allpass(1, (1, 4, 5)))  # A's mountain 2
    entry = sheet.record(o)  # 2 come off the hill, the other 2 go to the pool
    assert [int(p) for p in entry.pool] == [2, 0, 0] and int(entry.mountain[0]) == -2


def test_a_trickless_allpass_player_chooses_pool_or_hill():
    # 000: "When a player including dealer in a four player game does not take any tricks
    # in an all-pass game, he/she can either write the points in the pool or write them off
    # from the hill."
    for seed in range(200):
        deal = Deal.shuffle(R22, 0, random.Random(seed))
        for _ in range(3):
            deal.apply("PASS")
        while deal.phase is Phase.PLAY:
            deal.apply(deal.legal_actions()[-1])  # play high: someone may take nothing
        if deal.phase is Phase.WRITE:
            break
    zero = [s for s in (1, 2, 0) if deal.tricks_won[s] == 0]
    assert zero and deal.to_act == zero[0]
    for _ in zero:
        deal.apply("HILL")
    assert deal.done and deal.outcome().off_hill == tuple(zero)
    sheet = Sheet(R22)
    sheet.mountain = [Fraction(5)] * 3
    entry = sheet.record(deal.outcome())
    for s in zero:
        assert entry.pool[s] == 0 and entry.mountain[s] == -1
