"""Classical Preferans of 1971 (000, "Rules of Russian Preferans (3) Classical"): preset
classical-1971 — the halves, the staying dealer and the plain scoring.

Seats A=0, B=1, C=2; values 2, 4, 6, 8, 10.
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
from preferans.sheet import Sheet

CLASSIC = Rules.preset("classical-1971")


def legal(deal: Deal) -> list[str]:
    return [str(a) for a in deal.legal_actions()]


def test_the_first_half_is_the_rogue_list_with_the_trump_after_the_discard():
    # 000: "The first half is "rogue" (razboynik) ... the eldest hand or the second hand is
    # designated to be the soloist. ... The games are six trick once, seven trick once,
    # eight trick once, nine trick once, ten trick once, and misere once. Number of tricks
    # is said before the widow is revealed, and a trump suit after discard."
    game = Game(CLASSIC, seed=4)
    deal = game.start_deal()
    assert game.sheet.stage == "first half" and deal.phase is Phase.NAME
    assert deal.to_act == deal.first_hand == 1
    assert legal(deal) == ["TRICKS 6", "TRICKS 7", "TRICKS 8", "TRICKS 9", "TRICKS 10", "MISERE"]
    game.apply("TRICKS 7")
    game.apply(legal(deal)[0])
    assert legal(deal) == ["7S", "7C", "7D", "7H", "7NT"]
    game.apply("7H")
    # "the first partner is required to whist and the second pass"; his partner's hand open
    assert deal.whisters == (2,) and [str(a) for _, a in deal.defence] == ["WHIST", "PASS"]
    assert deal.controller(0) == 2 and 0 in deal.exposed


def test_a_ten_is_checked_without_whist():
    # 000: "There are no requirements for games at ten tricks, that are played just like
    # misere."
    game = Game(CLASSIC, seed=4)
    deal = game.start_deal()
    game.apply("TRICKS 10")
    game.apply(legal(deal)[0])
    game.apply("10NT")
    assert deal.phase is Phase.PLAY and deal.whisters == () and set(deal.exposed) == {0, 1, 2}


def test_half_time_two_laps_of_allpass_then_the_free_half():
    # 000: "Two laps of all-pass hands are played in the half-time."  "There is an auction
    # for the soloist in the second half of a game, and nominal one during the half-time
    # where everyone passes."
    sheet = Sheet(CLASSIC)
    sheet.rogue_lists = [[], [], ["6"]]
    sheet.record(DealOutcome("contract", 1, 3, 2, Bid.parse("6S"), ("WHIST", "PASS"), (0,),
                             None, True, (3, 0, 7), rogue_item="6"))
    assert sheet.stage == "half-time" and sheet.halftime_left == 6 and sheet.forced_allpass
    assert not sheet.finished
    for k in range(6):
        assert sheet.stage == "half-time"
        sheet.record(DealOutcome("allpass", k % 3, 3, tricks=(4, 3, 3)))
    assert sheet.stage == "second half" and not sheet.forced_allpass
    game = Game(CLASSIC, seed=1)
    game.sheet = sheet
    deal = game.start_deal()
    assert deal.phase is Phase.AUCTION and "BLIND 6S" in legal(deal) and "SEE" in legal(deal)
    game.apply("SEE")
    assert "6S" in legal(deal)


def second_half(rules: Rules = CLASSIC) -> Sheet:
    """A sheet at the start of the second half: 18 first-half deals and 6 half-time
    all-passes played (the allowance of ``second_half_limit``)."""
    sheet = Sheet(rules, "ABCD"[: rules.players])
    sheet.rogue_lists = [[] for _ in range(rules.players)]
    sheet.stage = "second half"
    sheet.compulsory_hands = 8 * rules.players
    return sheet


def test_the_dealer_stays_up_to_three_allpasses_with_doubled_and_quadrupled_points():
    # 000: "dealer stays up to three all-pass in a row, then it moves even in case of
    # all-pass."  "The points are doubled or quadrupled in second or third all-pass of a
    # staying dealer, respectively."  "In all-pass, every player writes one point for each
    # trick taken in his/her hill."
    sheet = second_half()
    stakes, stays = [], []
    for _ in range(4):
        entry = sheet.record(DealOutcome("allpass", 0, 3, tricks=(4, 3, 3)))
        stakes.append(entry.stake)
        stays.append(sheet.dealer_stays)
    assert stakes == [1, 2, 4, 1] and stays == [True, True, False, True]
    assert [int(m) for m in sheet.mountain] == [4 * 8, 3 * 8, 3 * 8]
    game = Game(CLASSIC, seed=2)
    game.sheet = second_half()
    game.dealer = 1
    for dealer in (1, 1, 1, 2):
        deal = game.start_deal()
        assert deal.dealer == dealer
        for _ in range(3):
            game.apply("SEE")
            game.apply("PASS")
        while game.deal is not None:
            game.apply(legal(deal)[0])


def test_two_passes_against_six_or_seven_are_pass_half_whist_pass():
    # 000: "There is not "half- whist," but two passes are treated as if "pass"-"half-
    # whist"-"pass" if the game is at six or seven tricks."
    deal = Deal.shuffle(CLASSIC, 2, random.Random(5))
    for token in ("6H", "PASS", "PASS"):
        deal.apply(token)
    deal.apply(legal(deal)[0])
    deal.apply("6H")
    assert legal(deal) == ["WHIST", "PASS"]  # no HALF call
    deal.apply("PASS")
    deal.apply("PASS")
    o = deal.outcome()
    assert o.kind == "halfwhist" and o.half_whister == 2
    sheet = second_half()
    sheet.record(o)
    # 6♥ stands: 2 points, half off A's empty mountain (nothing) so all in the pool; C
    # writes 2 × 2 tricks = 4 whists.
    assert sheet.to_json()["pool"] == [2, 0, 0] and sheet.to_json()["whists"][2] == [4, 0, 0]
    # "Players are always required to whist against a game of "one" (six spades)."
    deal = Deal.shuffle(CLASSIC, 2, random.Random(5))
    for token in ("6S", "PASS", "PASS"):
        deal.apply(token)
    deal.apply(legal(deal)[0])
    deal.apply("6S")
    assert legal(deal) == ["WHIST"]


def test_a_made_game_goes_half_in_the_pool_half_off_the_hill():
    # 000: "The soloist writes a half of the game point in his/her pool and writes the same
    # off from his/her hill if he/she played the hand successfully."
    sheet = second_half()
    sheet.mountain = [Fraction(4), Fraction(1), Fraction(0)]
    made = DealOutcome("contract", 2, 3, 0, Bid.parse("7H"), ("WHIST", "PASS"), (1,), None,
                       False, (7, 3, 0))
    entry = sheet.record(made)
    assert [int(p) for p in entry.pool] == [2, 0, 0] and [int(m) for m in entry.mountain] == [
        -2, 0, 0]
    # with only 1 on the hill, 1 comes off it and 3 go to the pool
    made_b = DealOutcome("contract", 0, 3, 1, Bid.parse("7H"), ("WHIST", "PASS"), (2,), None,
                         False, (0, 7, 3))
    entry = sheet.record(made_b)
    assert [int(p) for p in entry.pool] == [0, 3, 0] and [int(m) for m in entry.mountain] == [
        0, -1, 0]


def test_a_trickless_allpass_player_writes_one_off_his_own_hill_only():
    # 000: "who did not take any one point off from his/her hill ... A player can write
    # points from all-pass only in his own hill, therefore points that could have been
    # written off disappear when his/her hill is empty."
    sheet = second_half()
    sheet.mountain = [Fraction(0), Fraction(3), Fraction(0)]
    entry = sheet.record(DealOutcome("allpass", 0, 3, tricks=(5, 0, 5)))
    assert [int(m) for m in entry.mountain] == [5, -1, 5] and entry.pool == [0, 0, 0]
    entry = sheet.record(DealOutcome("allpass", 0, 3, tricks=(0, 5, 5)))  # A's hill is 5
    assert [int(m) for m in entry.mountain] == [-1, 10, 10]  # stake 2: second of the run
    sheet = second_half()
    entry = sheet.record(DealOutcome("allpass", 0, 3, tricks=(5, 0, 5)))
    assert int(entry.mountain[1]) == 0 and entry.pool == [0, 0, 0]  # nothing to write off


def test_rules_guard_the_classical_structure():
    with pytest.raises(RulesError, match="classical_halves needs a rogue list"):
        Rules.preset("sochi", classical_halves=True)
    assert Rules.from_json(CLASSIC.to_json()) == CLASSIC


@pytest.mark.parametrize("players", [3, 4])
def test_random_players_play_classical_games_to_the_end(players):
    rules = Rules.preset("classical-1971", players=players, pool=6, final_lap_after=8)
    for seed in range(2):
        rng = random.Random(seed)
        game = Game(rules, seed=seed, first_dealer=seed % players)
        bots = [RandomPlayer(seed * 10 + s) for s in range(players)]
        stages = []
        for _ in range(30000):
            if game.finished:
                break
            deal = game.deal or game.start_deal()
            seat = deal.to_act
            obs = deal.observation(seat)
            legal_now, x = obs["legal"], rng.random()
            cheap = deal.phase is Phase.CONTRACT and x < 0.9
            if cheap or (deal.phase is Phase.AUCTION and len(legal_now) > 1 and x < 0.5):
                token = legal_now[0]  # cheap contracts and modest bids, so that games end
            elif deal.phase is Phase.AUCTION and x < 0.8 and "PASS" in legal_now:
                token = "PASS"
            else:
                token = bots[seat].choose(obs)
            game.apply(token, seat)
            if deal.done:
                stages.append(game.sheet.stage)
        assert game.finished and game.sheet.stage == "second half"
        assert stages.count("first half") == 6 * players - 1  # the last one moves on
        assert sum(game.sheet.balance()) == 0
        assert Game.from_record(game.to_record()).sheet.to_json() == game.sheet.to_json()


# --- blind bids, blind passes and bombs ----------------------------------------------------------


def second_half_deal(seed: int = 6) -> Deal:
    """A second-half deal dealt by A with blind bidding (no blind all-pass before)."""
    return Deal.shuffle(CLASSIC, 0, random.Random(seed), blind_run=0)


def test_blind_calls_before_looking_and_the_hand_stays_face_down():
    # 000: "A player can bid blindly, that is, without looking at cards dealt, so long as no
    # one has made a seeing bid in the same auction."  "A player can also pass blindly if no
    # one has bid seeing or blindly in the same auction."
    deal = second_half_deal()
    assert deal.to_act == 1
    assert legal(deal)[:2] == ["BLIND 6S", "BLIND 6C"] and legal(deal)[-2:] == ["BLIND PASS",
                                                                               "SEE"]
    obs = deal.observation(1)
    assert obs["hand"] == [] and obs["hand_hidden"] and obs["hand_sizes"][1] == 10
    with pytest.raises(IllegalAction, match=r"look at your cards first \(SEE\), or call blind"):
        deal.apply("6S")
    deal.apply("BLIND PASS")
    # "Minimum bid changes after a blind pass ... It is blind "one" (spades) or seeing "seven
    # in one" (seven spades) if there were none"
    assert "BLIND 6S" in legal(deal)
    deal.apply("SEE")
    assert deal.observation(2)["hand"] and "hand_hidden" not in deal.observation(2)
    assert legal(deal)[0] == "7S" and "6NT" not in legal(deal)
    with pytest.raises(IllegalAction, match="after a blind pass the lowest bid is 7♠"):
        deal.apply("6NT")
    deal.apply("7S")
    # after a seeing bid: no blind bid, no blind pass
    assert legal(deal) == ["PASS", "SEE"]
    assert deal.tokens() == ["BLIND PASS", "SEE", "7S"]


def test_the_blind_minimum_rises_with_the_dealers_blind_allpasses():
    # "... blind seven or seeing eight if one, and blind eight or seeing nine if two."
    deal = Deal.shuffle(CLASSIC, 0, random.Random(1), blind_run=2)
    deal.apply("BLIND PASS")
    assert legal(deal)[0] == "BLIND 8S"
    deal.apply("SEE")
    assert next(t for t in legal(deal) if t != "MISERE") == "9S"


def test_a_seeing_bid_over_a_blind_one_needs_more_tricks_and_an_equal_or_higher_suit():
    # 000: "For a seeing bit to outbid a blind one, it has to have larger number of tricks
    # and an equal or higher suit. A bidder of a blind bid can remain in an auction after
    # he/she is outbid by a seeing call, when he/she looks at his/her hand."
    deal = second_half_deal()
    deal.apply("BLIND 6H")
    deal.apply("SEE")
    bids = [t for t in legal(deal) if t != "PASS"]
    assert bids[:4] == ["7H", "7NT", "8H", "8NT"] and "MISERE" not in bids and "7D" not in bids
    deal.apply("7H")
    deal.apply("SEE")
    deal.apply("PASS")
    assert legal(deal) == ["PASS", "SEE"]  # B, outbid: give up or look and go on
    deal.apply("SEE")
    assert legal(deal)[0] == "7NT"


def won_blind(contract: str) -> Deal:
    deal = second_half_deal()
    deal.apply("BLIND 6H")
    for token in ("SEE", "PASS", "SEE", "PASS"):
        deal.apply(token)
    assert deal.declarer == 1 and deal.auction.blind_high
    deal.apply(legal(deal)[0])
    deal.apply(contract)
    return deal


def test_a_blind_winner_may_play_misere_and_is_whisted_by_force_one_level_up():
    # 000: "Misere can be named if the soloist wins the auction by a blind bid even if it is
    # not misere."  "Players are always required to whist against ... games up to and
    # including the same suit and one larger number of tricks than bid if a blind bid wins
    # the auction."
    deal = second_half_deal()
    deal.apply("BLIND 6H")
    for token in ("SEE", "PASS", "SEE", "PASS"):
        deal.apply(token)
    deal.apply(legal(deal)[0])
    assert "MISERE" in legal(deal)
    assert legal(won_blind("7H")) == ["WHIST"]
    assert legal(won_blind("7NT")) == ["WHIST", "PASS"]
    assert won_blind("MISERE").kind == "misere"


def test_a_blind_game_counts_double():
    # 000: "It is doubled again if the soloist won the auction by a blind bid."
    sheet = second_half()
    made = DealOutcome("contract", 0, 3, 1, Bid.parse("6H"), ("WHIST", "WHIST"), (2, 0), None,
                       None, (2, 6, 2), blind=True)
    entry = sheet.record(made)
    # 6♥ made: 2 × 2 = 4 to the pool (nothing to take off B's empty hill); each whister
    # writes 2 tricks × 2 × 2 = 8.
    assert [int(p) for p in entry.pool] == [0, 4, 0]
    assert int(entry.whists[2][1]) == 8 and int(entry.whists[0][1]) == 8


def test_bombs_from_blind_allpasses_and_their_use():
    # 000: "who called pass blindly writes a bomb in his/her pool and who did not a bomb one
    # degree less than who did (none in case of simple bombs)."  "The type of bomb is a
    # single, a double, or a triple bomb if it was the first, second or third blind all-pass
    # in a row during staying deals of the current dealer."  "[All-pass points] are doubled
    # again when there is at least one blind pass."
    sheet = second_half()
    entry = sheet.record(DealOutcome("allpass", 0, 3, tricks=(4, 3, 3), blind_passers=(1,)))
    assert entry.stake == 2 and sheet.bombs == [[], [1], []] and sheet.blind_run == 1
    entry = sheet.record(DealOutcome("allpass", 0, 3, tricks=(4, 3, 3), blind_passers=(2,)))
    assert entry.stake == 4  # second of the staying dealer's run (×2), blind (×2)
    assert sheet.bombs == [[1], [1, 1], [2]] and sheet.blind_run == 2
    # "If he/she has more than one bombs, the oldest one is used. The used bomb disappears
    # if the soloist was successful and remains if he/she failed."
    failed = DealOutcome("contract", 0, 3, 2, Bid.parse("6S"), ("WHIST", "WHIST"), (0, 1),
                         None, None, (3, 2, 5))
    entry = sheet.record(failed)
    # C's double bomb quadruples: 2 × 1 undertrick × 4 = 8 on C's hill
    assert int(entry.mountain[2]) == 8 and sheet.bombs[2] == [2] and sheet.blind_run == 0
    made = DealOutcome("contract", 1, 3, 1, Bid.parse("6S"), ("WHIST", "WHIST"), (2, 0),
                       None, None, (2, 6, 2))
    entry = sheet.record(made)
    assert sheet.bombs[1] == [1]  # the oldest simple bomb used up
    assert sum(entry.pool) + -sum(m for m in entry.mountain if m < 0) == 4  # 2 × 2
    assert sheet.to_json()["bombs"] == [[1], [1], [2]]


def test_pool_transfers_skip_the_whister_and_then_come_off_the_hills_for_tenfold_whists():
    # 000: "When his/her pool is full, the soloist writes remaining point to the largest pool
    # with some room, unless it belong to the whisting player or the sitting dealer. When all
    # pools are full, the soloist writes points of his/her successful game off from the hill,
    # his/her own first, and other player's. When the soloist writes points in other
    # player's pool or off from a hill of other player, he/she writes 10 times the points
    # given in his/her whists against the recipient."
    sheet = second_half()
    sheet.pool = [Fraction(19), Fraction(10), Fraction(12)]
    made = DealOutcome("contract", 2, 3, 0, Bid.parse("7H"), ("PASS", "WHIST"), (2,), None,
                       False, (7, 0, 3))
    entry = sheet.record(made)
    # 4 points: 1 closes A's pool; C (12) whisted, so B (10) gets 3, A writing 30 on B.
    assert [int(p) for p in entry.pool] == [1, 3, 0]
    assert int(entry.whists[0][1]) == 30 and int(entry.whists[2][0]) == 12
    sheet = second_half()
    sheet.pool = [Fraction(20)] * 3
    sheet.mountain = [Fraction(1), Fraction(3), Fraction(5)]
    made = DealOutcome("contract", 2, 3, 0, Bid.parse("6H"), ("WHIST", "PASS"), (1,), None,
                       False, (6, 4, 0))
    entry = sheet.record(made)
    # 2 points: half (1) off A's own hill; the other 1, every pool full, off A's hill (now
    # empty), then off the smallest other hill (B's), A writing 10 on B.
    assert [int(m) for m in entry.mountain] == [-1, -1, 0] and int(entry.whists[0][1]) == 10


def test_nine_in_one_hand_misere_hand_and_ten_in_one_hand():
    # 000: "Misere is outbid by "nine in one (spades) hand." A hand bid is a bid to play a
    # hand without using the widow. An outbid caller of misere can respond by calling
    # "misere hand." Only "ten in one (spades) hand" can outbid "misere hand."  "If the
    # soloist wins the auction with a "hand" bid, he/she does not exchange the widow."
    deal = Deal.shuffle(CLASSIC, 0, random.Random(3))
    deal.apply("MISERE")
    assert legal(deal) == ["9S HAND", "10S HAND", "PASS"]
    with pytest.raises(IllegalAction, match="over MISERE the calls are 9S HAND, 10S HAND, PASS"):
        deal.apply("9S")
    deal.apply("9S HAND")
    assert legal(deal) == ["10S HAND", "PASS"]
    deal.apply("PASS")
    assert legal(deal) == ["MISERE HAND", "PASS"]  # the misère caller answers
    deal.apply("MISERE HAND")
    assert legal(deal) == ["10S HAND", "PASS"]
    deal.apply("10S HAND")
    deal.apply("PASS")
    assert deal.declarer == 2 and deal.hand_game and deal.phase is Phase.CONTRACT
    assert legal(deal)[0] == "10S" and deal.observation(0)["talon"] is None
    assert len(deal.hand(2)) == 10  # no talon taken, no discard
    deal.apply("10S")
    o = deal.outcome() if deal.done else None
    assert o is None and deal.phase is Phase.PLAY  # a ten is checked in Classical
    # misère hand standing: played as a misère without the talon
    deal = Deal.shuffle(CLASSIC, 0, random.Random(3))
    for token in ("MISERE", "9S HAND", "PASS", "MISERE HAND", "PASS"):
        deal.apply(token)
    assert deal.declarer == 1 and deal.hand_game and legal(deal) == ["MISERE"]
    deal.apply("MISERE")
    while not deal.done:
        deal.apply(deal.legal_actions()[0])
    assert deal.outcome().hand_game and deal.outcome().kind == "misere"
    with pytest.raises(RulesError, match="misere_hand needs hand_bids"):
        Rules.preset("sochi", misere_hand=True)


def test_the_end_by_the_final_lap_or_full_pools_and_empty_hills():
    # 000: "A game ends when the dealer is about to move to the first dealer of the game
    # after the final lap starts, or all pools are filled and the hills become empty,
    # whichever the earlier."
    rules = Rules.preset("classical-1971", final_lap_after=2)
    sheet = second_half(rules)
    sheet.first_dealer = 0
    passed = [DealOutcome("passed", d, 3, (d + 1) % 3, Bid.parse("8S"), ("PASS", "PASS"))
              for d in (0, 1, 2, 0, 1, 2)]
    sheet.record(passed[0])
    sheet.record(passed[1])
    assert sheet.final_lap and not sheet.finished  # the final lap starts: B dealt the 2nd
    sheet.record(passed[2])  # C dealt: the deal would pass to A, the first dealer
    assert sheet.finished
    sheet = second_half()
    sheet.pool = [Fraction(20), Fraction(20), Fraction(14)]
    sheet.mountain = [Fraction(0), Fraction(0), Fraction(3)]
    sheet.record(DealOutcome("passed", 1, 3, 2, Bid.parse("8S"), ("PASS", "PASS")))
    # C's 6: 3 off his hill, 3 to his pool — the pools are not all full yet
    assert not sheet.finished and sheet.pool[2] == 17 and sheet.mountain[2] == 0
    sheet.record(DealOutcome("passed", 2, 3, 2, Bid.parse("8S"), ("PASS", "PASS")))
    assert sheet.finished and sheet.pool == [20, 20, 20] and sheet.mountain == [0, 0, 0]


def test_four_players_the_dealer_scores_the_talons_quick_tricks():
    # 000: "The widow is scored in four player games if the two cards contain quick
    # trick(s) ... The dealer writes in his/her whists against the soloist one trick for an
    # Ace or a pair of King and Queen of one suit, two tricks for Ace and King of a suit,
    # and three for two Aces."
    rules = Rules.preset("classical-1971", players=4)
    sheet = second_half(rules)
    from preferans.cards import Card
    made = DealOutcome("contract", 3, 4, 0, Bid.parse("7H"), ("WHIST", "PASS"), (1,), None,
                       False, (7, 3, 0, 0), talon=(Card.parse("AS"), Card.parse("KS")))
    entry = sheet.record(made)
    # A-K of one suit: two tricks at the 7's value 4: D writes 8 on A.
    assert int(entry.whists[3][0]) == 8
