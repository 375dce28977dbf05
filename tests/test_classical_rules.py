"""Classical 1971 (000, "Rules of Russian Preferans (3) Classical"): the rules of issue 8 that
came last — the limit on successful games in the second half, the staying dealer's offset,
the refused talon's trick with four players and the leader's choice at half-time.

Seats A=0, B=1, C=2 (D=3 with four); game values 2, 4, 6, 8, 10 for 6, 7, 8, 9, 10/misère.
Sheets are worked by hand in the comments: pool / mountain (hill) per seat.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from preferans.bids import Bid
from preferans.cards import Card
from preferans.deal import Phase
from preferans.game import Game
from preferans.outcome import DealOutcome
from preferans.players import RandomPlayer
from preferans.rules import Rules, RulesError
from preferans.sheet import Sheet, settle
from test_classical_halftime import play_out

CLASSIC = Rules.preset("classical-1971")


def second_half(rules: Rules = CLASSIC, compulsory: int | None = None) -> Sheet:
    """A sheet at the start of the second half (the compulsory hands as given, else the
    first half's 6 deals a player plus 2 laps of half-time all-passes)."""
    sheet = Sheet(rules, "ABCD"[: rules.players])
    sheet.rogue_lists = [[] for _ in range(rules.players)]
    sheet.stage = "second half"
    sheet.compulsory_hands = 8 * rules.players if compulsory is None else compulsory
    return sheet


def passed(declarer: int, bid: str, dealer: int) -> DealOutcome:
    return DealOutcome("passed", dealer, 3, declarer, Bid.parse(bid), ("PASS", "PASS"))


def allpass(dealer: int, tricks: tuple[int, ...] = (4, 3, 3)) -> DealOutcome:
    return DealOutcome("allpass", dealer, len(tricks), tricks=tricks)


def ints(xs) -> list[int]:
    return [int(x) for x in xs]


# --- 1. successful games in the second half beyond the compulsory hands and all-passes ----------


def test_successful_second_half_games_beyond_the_compulsory_hands_write_half_on_the_hill():
    # 000: "If number of games played successfully in the second half exceeds those in the
    # first half or all-pass, the soloist writes a half of the game point on his/her hill as
    # if it were a result of a game in the first half that should have been played to
    # satisfy the rule that number of successful games in the second half shall be within
    # that of the compulsory hands or all-pass."
    #
    # Allowance 2 (as if two compulsory hands had been played); A's hill 10.
    #   deal  what                          A pool/hill  B hill  C hill  made  allowance
    #   1     A 7♥ made, B whists 3 tricks  2 / 8        0       0       1     2
    #   2     A 8♠ unplayed                 5 / 5        0       0       2     2
    #   3     A 8♠ unplayed (3rd > 2)       8 / 5 (-3+3) 0       0       3     2
    #   4     B 8♠ failed, 7 tricks         8 / 5        6       0       3     2
    #   5     all-pass 4-3-3 (stake 1)      8 / 9        9       3       3     3
    #   6     all-pass 4-3-3 (stake 2)      8 / 17       15      9       3     4
    #   7     C 8♠ unplayed (4th <= 4)      8 / 17       15      6       4     4
    #   8     C 8♠ unplayed (5th > 4)       8 / 17       15      6 (-3+3) 5    4
    sheet = second_half(compulsory=2)
    sheet.mountain = [Fraction(10), Fraction(0), Fraction(0)]
    made = DealOutcome("contract", 2, 3, 0, Bid.parse("7H"), ("WHIST", "PASS"), (1,), None,
                       False, (7, 3, 0))
    e1 = sheet.record(made)
    assert ints(e1.pool) == [2, 0, 0] and ints(e1.mountain) == [-2, 0, 0]
    e2 = sheet.record(passed(0, "8S", 1))
    assert ints(e2.pool) == [3, 0, 0] and ints(e2.mountain) == [-3, 0, 0]
    e3 = sheet.record(passed(0, "8S", 2))
    assert ints(e3.pool) == [3, 0, 0] and ints(e3.mountain) == [0, 0, 0]
    assert "A's successful game 3 of the second half is beyond the 2 compulsory" in e3.summary
    failed = DealOutcome("contract", 0, 3, 1, Bid.parse("8S"), ("WHIST", "PASS"), (2,), None,
                         False, (0, 7, 3))
    e4 = sheet.record(failed)
    assert ints(e4.mountain) == [0, 6, 0] and sheet.second_half_made == 3  # a failure: no count
    sheet.record(allpass(1))
    sheet.record(allpass(1))
    assert sheet.compulsory_hands == 4 and ints(sheet.mountain) == [17, 15, 9]
    e7 = sheet.record(passed(2, "8S", 1))
    assert ints(e7.mountain) == [0, 0, -3] and "beyond" not in e7.summary
    e8 = sheet.record(passed(2, "8S", 2))
    assert ints(e8.mountain) == [0, 0, 0] and ints(e8.pool) == [0, 0, 3]
    assert ints(sheet.pool) == [8, 0, 6] and ints(sheet.mountain) == [17, 15, 6]
    js = sheet.to_json()["classical"]
    assert js["compulsory_hands"] == 4 and js["second_half_made"] == 5


def test_the_limit_counts_a_clean_misere_and_uses_the_doubled_game_point():
    # A clean misère is a successful game; a blind winner's game point is doubled ("It is
    # doubled again if the soloist won the auction by a blind bid"), so is its half.
    # Allowance 0, B's hill 0: B's misère: pool 10, hill +5.  A's blind 6♥ made (2 × 2 = 4):
    # 2 off A's hill (6 → 4), pool 2, and 2 back on the hill (4 → 6).
    sheet = second_half(compulsory=0)
    sheet.mountain = [Fraction(6), Fraction(0), Fraction(0)]
    misere = DealOutcome("misere", 0, 3, 1, Bid.parse("MISERE"), tricks=(5, 0, 5))
    entry = sheet.record(misere)
    assert ints(entry.pool) == [0, 10, 0] and ints(entry.mountain) == [0, 5, 0]
    blind = DealOutcome("contract", 1, 3, 0, Bid.parse("6H"), ("WHIST", "WHIST"), (1, 2),
                        None, None, (6, 2, 2), blind=True)
    entry = sheet.record(blind)
    assert ints(entry.pool) == [2, 0, 0] and ints(entry.mountain) == [0, 0, 0]
    assert int(sheet.mountain[0]) == 6


def test_the_limit_is_off_without_the_option_and_counts_the_real_game():
    sheet = second_half(CLASSIC.replace(second_half_limit=False), compulsory=0)
    entry = sheet.record(passed(0, "8S", 2))
    assert ints(entry.pool) == [6, 0, 0] and ints(entry.mountain) == [0, 0, 0]
    with pytest.raises(RulesError, match="need classical_halves"):
        Rules.preset("sochi", second_half_limit=True)
    # A whole game: the allowance is the first half's deals plus every all-pass played.
    rules = Rules.preset("classical-1971", pool=6, final_lap_after=6)
    game = Game(rules, seed=3)
    bots = [RandomPlayer(s) for s in range(3)]
    while not game.finished:
        deal = game.deal or game.start_deal()
        legal = deal.observation(deal.to_act)["legal"]
        token = "PASS" if deal.phase is Phase.AUCTION and "PASS" in legal else None
        game.apply(token or bots[deal.to_act].choose(deal.observation(deal.to_act)))
    kinds = [e.outcome.kind for e in game.sheet.entries]
    assert game.sheet.compulsory_hands == 18 + kinds[18:].count("allpass")


# --- 2. the staying dealer's offset (a house rule) -------------------------------------------


def test_a_dealer_who_stayed_for_three_allpasses_writes_the_agreed_points_on_his_hill():
    # 000: "Some let the staying dealer of three all-pass write up to ten points on his/her
    # hill to offset his/her advantage during these hands."
    # staying_dealer_hill=10; A deals three all-passes 4-3-3 at stakes 1, 2, 4:
    #   A 4 + 8 + 16 = 28, + 10 after the third = 38; B and C 3 + 6 + 12 = 21.
    # Then B deals an all-pass (stake 1 again): no offset.
    rules = CLASSIC.replace(staying_dealer_hill=10)
    sheet = second_half(rules)
    entries = [sheet.record(allpass(0)) for _ in range(3)]
    assert [e.stake for e in entries] == [1, 2, 4]
    assert ints(entries[2].mountain) == [26, 12, 12] and "A stayed for 3 all-passes" in (
        entries[2].summary)
    assert ints(sheet.mountain) == [38, 21, 21]
    entry = sheet.record(allpass(1))
    assert ints(entry.mountain) == [4, 3, 3]
    # two all-passes then a game: the run is broken, no offset
    sheet = second_half(rules)
    sheet.record(allpass(0))
    sheet.record(allpass(0))
    sheet.record(passed(1, "8S", 0))
    entry = sheet.record(allpass(1))
    assert ints(entry.mountain) == [4, 3, 3]


def test_the_staying_dealer_offset_is_a_house_rule_off_in_the_preset():
    assert CLASSIC.staying_dealer_hill == 0
    sheet = second_half()
    entries = [sheet.record(allpass(0)) for _ in range(3)]
    assert ints(entries[2].mountain) == [16, 12, 12]
    with pytest.raises(RulesError, match="000 allows 0 to 10 points"):
        CLASSIC.replace(staying_dealer_hill=11)
    with pytest.raises(RulesError, match="needs dealer_stays"):
        Rules.preset("sochi", staying_dealer_hill=5)
    with pytest.raises(RulesError, match="must be a whole number"):
        CLASSIC.replace(staying_dealer_hill="ten")


# --- 3. four players: the refused talon's trick ----------------------------------------------


def test_four_players_a_refused_talon_makes_the_dealer_write_one_trick_on_his_hill():
    # 000: "The dealer writes one trick on his/her hill if the soloist refuses to take the
    # cards, leaving them on the table face up."
    # D deals; A refuses the talon A♠ K♠ and makes 7♥ (value 4), B whisting 3 tricks:
    # A pool 4 (his hill is empty), B 12 whists on A; D +4 on his hill; the refused
    # talon's quick tricks are not prizes (A did not take them).
    rules = Rules.preset("classical-1971", players=4)
    sheet = second_half(rules)
    refused = DealOutcome("contract", 3, 4, 0, Bid.parse("7H"), ("WHIST", "PASS"), (1,),
                          None, False, (7, 3, 0, 0),
                          talon=(Card.parse("AS"), Card.parse("KS")), talon_refused=True)
    entry = sheet.record(refused)
    assert ints(entry.pool) == [4, 0, 0, 0] and ints(entry.mountain) == [0, 0, 0, 4]
    assert int(entry.whists[1][0]) == 12 and int(entry.whists[3][0]) == 0
    assert "A refused the talon: D wrote one trick (+4 mountain)" in entry.summary
    # three players: there is no dealer sitting out, nothing is written
    sheet3 = second_half()
    entry = sheet3.record(DealOutcome("contract", 2, 3, 0, Bid.parse("7H"), ("WHIST", "PASS"),
                                      (1,), None, False, (7, 3, 0), talon_refused=True))
    assert ints(entry.mountain) == [0, 0, 0]
    with pytest.raises(RulesError, match="refused_talon_trick needs talon_refusal"):
        Rules.preset("sochi", refused_talon_trick=True)


def test_four_players_refuse_in_play_then_the_sheet_charges_the_dealer():
    rules = Rules.preset("classical-1971", players=4)
    game = Game(rules, seed=8)
    game.sheet = second_half(rules)
    deal = game.start_deal()
    assert deal.dealer == 0 and deal.to_act == 1
    for token in ("SEE", "6S", "SEE", "PASS", "SEE", "PASS"):
        game.apply(token)
    assert deal.declarer == 1 and "REFUSE" in [str(a) for a in deal.legal_actions()]
    game.apply("REFUSE")
    game.apply("6S")
    while game.deal is not None:
        game.apply(deal.legal_actions()[0])
    entry = game.sheet.entries[-1]
    assert entry.outcome.talon_refused and int(entry.mountain[0]) == 2  # A dealt: one trick of 6


# --- 4. the leader's choice at half-time -----------------------------------------------------


def last_first_half_deal(rules: Rules = CLASSIC, mountain=(12, 30, 8), first_dealer=0) -> Sheet:
    """The first half's last deal: C plays his 6 (6♠ made, A whisting 4 tricks)."""
    sheet = Sheet(rules)
    sheet.rogue_lists = [[], [], ["6"]]
    sheet.first_dealer = first_dealer
    sheet.mountain = [Fraction(m) for m in mountain]
    sheet.record(DealOutcome("contract", 1, 3, 2, Bid.parse("6S"), ("WHIST", "PASS"), (0,),
                             None, True, (4, 0, 6), rogue_item="6"))
    return sheet


def test_the_leader_sets_the_second_halfs_pool_at_most_the_smallest_hill():
    # 000: "At the end of the first half, a player with the largest points on his/her hill
    # has the right to determine the stakes, size of the pool, and duration of the second
    # half. ... The stakes is expressed in amounts of money paid for a whist point. The
    # pool cannot be larger than the smallest hill at the end of the first half. The time
    # limit specifies when the final lap starts."
    # Hills 12, 30, 8; C's 6♠ made (value 2): 1 off C's hill (8 → 7), 1 to his pool.
    # Leader B (30); the smallest hill is 7, so the pool is 7 (the default: the largest
    # allowed) from now on.
    sheet = last_first_half_deal()
    assert sheet.stage == "half-time" and ints(sheet.mountain) == [12, 30, 7]
    assert sheet.halftime == {"leader": 1, "smallest_hill": 7, "pool": 7,
                              "final_lap_after": 0, "stakes": 0}
    assert sheet.pool_size == 7
    js = sheet.to_json()
    assert js["pool_size"] == 7 and js["classical"]["halftime"]["leader"] == 1
    # the half-time all-passes do not change the choice
    for k in range(6):
        sheet.record(allpass(k % 3, (4, 3, 3)))
    assert sheet.stage == "second half" and sheet.pool_size == 7
    # the pool of 7 is what a game fills now: A (pool 0) makes 8♠ unplayed (6): 3 off his
    # hill (36 → 33), 3 to the pool; then again: 3 off (33 → 30), pool 6; then a third: 3
    # off (30 → 27), 1 fills his pool, 2 help C's (1 → 3) at 10 whists a point.
    for dealer in (2, 0, 1):
        entry = sheet.record(passed(0, "8S", dealer))
    assert ints(entry.pool) == [1, 0, 2] and int(entry.whists[0][2]) == 20
    assert ints(sheet.pool) == [7, 0, 3]
    # the balance settles against the pool of 7: missing 0, 7, 4 go on the hills 27, 48,
    # 25 → 27, 55, 29 (average 37) → 100, -180, 80; A wrote 8 + 20 whists on C: 128, -180, 52
    assert ints(sheet.balance()) == [128, -180, 52]
    assert sheet.balance() == settle(CLASSIC, sheet.pool, sheet.mountain, sheet.whists, 7)


def test_the_leaders_named_pool_time_and_stakes():
    # The leader names a pool of 5 (under the smallest hill, 7), a time of 12 second-half
    # deals and a stake of 2 (money per whist point).
    rules = CLASSIC.replace(halftime_pool=5, final_lap_after=12, stakes=2)
    sheet = last_first_half_deal(rules)
    assert sheet.halftime == {"leader": 1, "smallest_hill": 7, "pool": 5,
                              "final_lap_after": 12, "stakes": 2}
    js = sheet.to_json()
    assert js["money"] == [round(float(b) * 2, 3) for b in sheet.balance()]
    assert sum(sheet.balance()) == 0
    # a pool named above the smallest hill is cut to it
    sheet = last_first_half_deal(CLASSIC.replace(halftime_pool=50))
    assert sheet.pool_size == 7 and sheet.halftime["pool"] == 7
    # ties for the largest hill: the first from the first dealer's left
    assert last_first_half_deal(mountain=(30, 30, 8), first_dealer=0).halftime["leader"] == 1
    assert last_first_half_deal(mountain=(30, 30, 8), first_dealer=1).halftime["leader"] == 0
    # the hills all empty: the pool can only be 0; the game then ends when the hills are
    # empty and every pool (of 0) is full — at once in the second half
    sheet = last_first_half_deal(mountain=(0, 0, 0))
    assert sheet.pool_size == 0 and not sheet.finished  # half-time is still to be played


def test_the_halftime_choice_is_checked_and_off_keeps_the_pool():
    with pytest.raises(RulesError, match="halftime_pool needs halftime_choice"):
        CLASSIC.replace(halftime_choice=False, halftime_pool=5)
    with pytest.raises(RulesError, match="stakes=-1 is out of range: 0 to 1000000"):
        CLASSIC.replace(stakes=-1)
    with pytest.raises(RulesError, match="need classical_halves"):
        Rules.preset("sochi", halftime_choice=True)
    sheet = last_first_half_deal(CLASSIC.replace(halftime_choice=False))
    assert sheet.pool_size == 20 and sheet.halftime is None
    assert "pool_size" not in sheet.to_json() and "halftime" not in sheet.to_json()["classical"]


def test_a_whole_game_replays_to_the_same_sheet_with_the_leaders_choice():
    rules = Rules.preset("classical-1971", pool=6, final_lap_after=6, stakes=1)
    game = Game(rules, seed=11)
    rng = random.Random(11)
    bots = [RandomPlayer(20 + s) for s in range(3)]
    play_out(game, bots, rng)
    choice = game.sheet.halftime
    assert choice is not None and choice["pool"] == game.sheet.pool_size
    again = Game.from_record(game.to_record())
    assert again.sheet.to_json() == game.sheet.to_json()
    assert again.sheet.to_json()["classical"]["halftime"] == choice
