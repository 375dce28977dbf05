"""Classical (1971): the leader's choice of the second half, made at the table (``SECOND p t``).

000: "At the end of the first half, a player with the largest points on his/her hill has the
right to determine the stakes, size of the pool, and duration of the second half. ... The
pool cannot be larger than the smallest hill at the end of the first half. The time limit
specifies when the final lap starts."  The first deal after the first half opens with the
phase ``halftime``: the leader says ``SECOND p t`` (pool p, final lap after t second-half
deals) before the nominal all-pass auction; the stakes stay the rules' option.
"""

from __future__ import annotations

import inspect
import random
from fractions import Fraction

import pytest

import preferans.deal as deal_module
from preferans.actions import Action, ActionKind, IllegalAction
from preferans.bids import Bid
from preferans.deal import Deal, Phase
from preferans.game import Game
from preferans.outcome import DealOutcome
from preferans.players import RandomPlayer, make_player
from preferans.record import RecordError, replay
from preferans.rules import Rules
from preferans.scoring import ScoringError
from preferans.sheet import Sheet

CLASSIC = Rules.preset("classical-1971")
SHORT = {"pool": 4, "final_lap_after": 3}  # as tests/test_variants.py SHORT
RANKS = ["7", "8", "9", "10", "J", "Q", "K", "A"]
DECK = [r + s for s in "SCDH" for r in RANKS]


def halftime_deal(rules: Rules = CLASSIC, leader: int = 1, smallest: int = 7) -> Deal:
    """A half-time deal (A deals) opening with the leader's choice."""
    return Deal(rules, 0, [DECK[0:10], DECK[10:20], DECK[20:30]], DECK[30:32],
                forced_allpass=True, halftime=(leader, smallest))


def last_first_half_deal(rules: Rules = CLASSIC) -> Sheet:
    """Hills 12, 30, 8; C's 6♠ made ends the first half (C's hill 8 → 7): B leads, the
    smallest hill is 7 (as in tests/test_classical_rules.py)."""
    sheet = Sheet(rules)
    sheet.rogue_lists = [[], [], ["6"]]
    sheet.first_dealer = 0
    sheet.mountain = [Fraction(12), Fraction(30), Fraction(8)]
    sheet.record(DealOutcome("contract", 1, 3, 2, Bid.parse("6S"), ("WHIST", "PASS"), (0,),
                             None, True, (4, 0, 6), rogue_item="6"))
    return sheet


def allpass(dealer: int) -> DealOutcome:
    return DealOutcome("allpass", dealer, 3, tricks=(4, 3, 3))


def passed(declarer: int, bid: str, dealer: int) -> DealOutcome:
    return DealOutcome("passed", dealer, 3, declarer, Bid.parse(bid), ("PASS", "PASS"))


def to_halftime(rules: Rules, seed: int) -> Game:
    """A game played by random players up to the leader's choice."""
    game = Game(rules, seed=seed)
    bot = RandomPlayer(seed)
    while True:
        deal = game.deal or game.start_deal()
        if deal.phase is Phase.HALFTIME:
            return game
        assert game.sheet.stage == "first half"
        game.apply(bot.choose(deal.observation(deal.to_act)))


def play_out(game: Game, bots, rng: random.Random) -> list[int]:
    """Play to the end; return the indexes (in finished_deals) of deals with a choice."""
    for _ in range(5000):
        if game.finished:
            break
        deal = game.deal or game.start_deal()
        obs = deal.observation(deal.to_act)
        if deal.phase is Phase.AUCTION and "PASS" in obs["legal"] and rng.random() < 0.7:
            token = "PASS"
        else:
            token = bots[deal.to_act].choose(obs)
        game.apply(token)
    assert game.finished
    return [i for i, d in enumerate(game.finished_deals) if d.halftime is not None]


# --- the sentence, the token -------------------------------------------------------------------


def test_the_sentence_is_quoted_and_the_token_reads_back():
    sentence = ("At the end of the first half, a player with the largest points on his/her hill "
                "has the right to determine the stakes, size of the pool, and duration of the "
                "second half.")
    source = " ".join(inspect.getsource(deal_module).split())
    assert sentence in source
    assert "The pool cannot be larger than the smallest hill at the end of the first half." \
        in source
    act = Action.parse("second 5 12")
    assert act.kind is ActionKind.SECOND and (act.level, act.after) == (5, 12)
    assert str(act) == "SECOND 5 12" and Action.parse(str(act)) == act
    for bad in ("SECOND", "SECOND 5", "SECOND x 1", "SECOND 5 -1", "SECOND 1 2 3"):
        with pytest.raises(ValueError, match="SECOND p t"):
            Action.parse(bad)


# --- the phase --------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_the_phase_comes_once_at_the_first_halftime_deal_with_the_leader_to_act(players):
    rules = Rules.preset("classical-1971", players=players, **SHORT)
    game = to_halftime(rules, seed=players)
    sheet, deal = game.sheet, game.deal
    assert deal is not None and sheet.halftime_pending
    # the first deal after the first half: no half-time deal played yet
    assert sheet.stage == "half-time" and sheet.halftime_left == rules.halftime_laps * players
    assert not any(sheet.rogue_lists)
    leader = sheet.halftime["leader"]
    assert deal.to_act == leader == max(range(players), key=lambda s: (
        sheet.mountain[s], -((s - sheet.first_dealer - 1) % players)))
    obs = deal.observation(leader)
    assert obs["phase"] == "halftime" and obs["forced_allpass"]
    assert obs["halftime"] == {"leader": leader,
                               "smallest_hill": sheet.halftime["smallest_hill"], "choice": None}
    assert deal.observation((leader + 1) % players)["legal"] == []
    game.apply(obs["legal"][0])
    # then the nominal all-pass auction of the half-time
    assert deal.phase is Phase.AUCTION and [str(a) for a in deal.legal_actions()] == ["PASS"]
    assert deal.tokens()[0] == obs["legal"][0]
    bots = [RandomPlayer(40 + s) for s in range(players)]
    chosen = play_out(game, bots, random.Random(players))
    assert len(chosen) == 1  # exactly once per game
    assert game.finished_deals[chosen[0]].second_half is not None


def test_the_legal_choices_are_bounded_by_the_smallest_hill_the_rules_choice_first():
    deal = halftime_deal()
    assert deal.phase is Phase.HALFTIME and deal.to_act == 1
    legal = [str(a) for a in deal.legal_actions()]
    # the rules' choice (the largest pool allowed, no time limit) first: today's game
    assert legal[0] == "SECOND 7 0"
    assert 1 < len(legal) <= 12 and len(set(legal)) == len(legal)
    assert all(0 < a.level <= 7 for a in deal.legal_actions())
    assert {a.after for a in deal.legal_actions()} == {0, 12, 24}  # none, 4 laps, 8 laps
    # the rules' own pool and time come first
    deal = halftime_deal(CLASSIC.replace(halftime_pool=5, final_lap_after=12))
    legal = deal.legal_actions()
    assert str(legal[0]) == "SECOND 5 12" and {a.after for a in legal} == {12, 6, 24}
    assert all(a.level <= 7 for a in legal) and len(legal) <= 12
    # a named pool above the smallest hill is cut to it
    assert str(halftime_deal(CLASSIC.replace(halftime_pool=50)).legal_actions()[0]) \
        == "SECOND 7 0"
    # every hill empty: only a pool of 0
    assert {a.level for a in halftime_deal(smallest=0).legal_actions()} == {0}
    # a big smallest hill still offers at most 12
    assert len(halftime_deal(smallest=300).legal_actions()) <= 12


def test_legal_zero_plays_todays_game():
    # the leader answering legal[0] gets exactly the sheet the rules' choice gave before
    rules = Rules.preset("classical-1971", **SHORT)
    game = to_halftime(rules, seed=2)
    before = dict(game.sheet.halftime)
    game.apply(game.legal_actions()[0])
    while game.deal is not None:
        game.apply(game.legal_actions()[0])
    after = game.sheet.halftime
    assert after == {**before, "chosen_by": before["leader"]}
    assert game.sheet.pool_size == before["pool"] == before["smallest_hill"]
    assert game.sheet.final_lap_after == 3


# --- the choice on the sheet -------------------------------------------------------------------


def test_a_smaller_pool_and_a_time_limit_change_the_second_half():
    sheet = last_first_half_deal()
    assert sheet.halftime_pending and sheet.pool_size == 7  # the rules' choice until he says
    sheet.record(allpass(1), second_half=(3, 1))
    assert not sheet.halftime_pending
    assert sheet.pool_size == 3 and sheet.final_lap_after == 1
    assert sheet.halftime == {"leader": 1, "smallest_hill": 7, "pool": 3,
                              "final_lap_after": 1, "stakes": 0, "chosen_by": 1}
    js = sheet.to_json()
    assert js["pool_size"] == 3 and js["classical"]["halftime"]["chosen_by"] == 1
    for k in range(5):
        sheet.record(allpass((2 + k) % 3))
    assert sheet.stage == "second half"
    # A makes 8♠ unplayed twice (6 each: 3 off his hill, 3 to the pool): his pool of 3 is
    # full after the first; the pool of 7 (the rules' choice) would hold 6
    default = last_first_half_deal()
    for k in range(6):
        default.record(allpass((1 + k) % 3))
    for dealer in (2, 0):
        sheet.record(passed(0, "8S", dealer))
        default.record(passed(0, "8S", dealer))
    assert int(sheet.pool[0]) == 3 and int(default.pool[0]) == 6
    # the time limit: the final lap started after 1 second-half deal, and ends when the
    # deal would pass to the first dealer (A): after C's deal; no time limit: no end
    assert sheet.final_lap and not sheet.finished
    for dealer in (1, 2):
        sheet.record(passed(0, "6S", dealer))
        default.record(passed(0, "6S", dealer))
    assert sheet.finished and sheet.over
    assert not default.finished and not default.final_lap


def test_without_the_token_the_sheet_keeps_the_rules_choice():
    sheet = last_first_half_deal()
    sheet.record(allpass(1))
    assert not sheet.halftime_pending and sheet.pool_size == 7
    assert "chosen_by" not in sheet.halftime


# --- errors -----------------------------------------------------------------------------------


def test_illegal_choices_name_the_seat_the_phase_and_the_reason():
    deal = halftime_deal()
    with pytest.raises(IllegalAction, match=r"seat 1 \(B\) cannot say SECOND 8 0 in halftime: "
                                            r"the pool cannot be larger than the smallest hill"):
        deal.apply("SECOND 8 0")
    with pytest.raises(IllegalAction, match=r"seat 1 \(B\) cannot say PASS in halftime: the "
                                            r"first half is over: the leader \(seat 1"):
        deal.apply("PASS")
    with pytest.raises(IllegalAction, match=r"seat 0 \(A\) cannot say SECOND 7 0 in halftime: "
                                            r"it is seat 1's turn"):
        deal.apply("SECOND 7 0", seat=0)
    with pytest.raises(IllegalAction, match="choose the second half among SECOND 7 0"):
        deal.apply("SECOND 6 5")  # not offered
    with pytest.raises(IllegalAction, match="write 'SECOND p t'"):
        deal.apply("SECOND 7")
    assert deal.phase is Phase.HALFTIME and deal.tokens() == []
    deal.apply("SECOND 3 12", seat=1)
    assert deal.second_half == (3, 12) and deal.phase is Phase.AUCTION
    # the deal's own arguments
    with pytest.raises(ValueError, match=r"needs rules\.halftime_choice"):
        halftime_deal(CLASSIC.replace(halftime_choice=False))
    with pytest.raises(ValueError, match="not a seat"):
        halftime_deal(leader=3)
    with pytest.raises(ValueError, match="smallest hill"):
        halftime_deal(smallest=-1)
    # the sheet's checks
    sheet = last_first_half_deal()
    with pytest.raises(ScoringError, match=r"larger than the smallest hill .* \(7\)"):
        sheet.record(allpass(1), second_half=(8, 0))
    assert sheet.halftime_pending and len(sheet.entries) == 1  # unchanged
    with pytest.raises(ScoringError, match="after 0 or more deals"):
        sheet.record(allpass(1), second_half=(7, -1))
    sheet.record(allpass(1), second_half=(7, 0))
    with pytest.raises(ScoringError, match="no half-time choice is due"):
        sheet.record(allpass(2), second_half=(7, 0))


def test_off_no_phase():
    rules = Rules.preset("classical-1971", halftime_choice=False, **SHORT)
    game = Game(rules, seed=1)
    bot = RandomPlayer(1)
    while game.sheet.stage == "first half":
        deal = game.deal or game.start_deal()
        game.apply(bot.choose(deal.observation(deal.to_act)))
    assert not game.sheet.halftime_pending
    assert game.start_deal().phase is Phase.AUCTION


# --- whole games and records -------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_whole_random_games_replay_with_the_choice(players):
    rules = Rules.preset("classical-1971", players=players, **SHORT)
    for seed in range(2):
        game = Game(rules, seed=seed, first_dealer=seed % players)
        bots = [RandomPlayer(seed * 10 + s) for s in range(players)]
        chosen = play_out(game, bots, random.Random(seed))
        assert len(chosen) == 1
        deal = game.finished_deals[chosen[0]]
        token = deal.tokens()[0]
        assert token.startswith("SECOND ")
        pool, after = deal.second_half
        ht = game.sheet.halftime
        assert (ht["pool"], ht["final_lap_after"]) == (pool, after)
        assert ht["chosen_by"] == deal.halftime[0] == ht["leader"]
        assert game.sheet.pool_size == pool <= ht["smallest_hill"]
        record = game.to_record()
        again = replay(record)
        assert again.sheet.to_json() == game.sheet.to_json()
        assert again.to_record() == record
        # a record written before the token existed replays as the rules' choice
        old = game.to_record()
        old["deals"] = old["deals"][: chosen[0] + 1]
        old["deals"][-1]["actions"] = old["deals"][-1]["actions"][1:]
        first = str(_reopened(game, chosen[0]).legal_actions()[0])
        was = replay(old)
        assert was.finished_deals[-1].tokens()[0] == first
        assert f"SECOND {was.sheet.pool_size} {was.sheet.final_lap_after}" == first
        # a bad choice in a record names the deal, the seat and the phase
        bad = game.to_record()
        bad["deals"][chosen[0]]["actions"][0] = "SECOND 9999 0"
        with pytest.raises(RecordError, match=rf"deal {chosen[0] + 1}, action 1 \(SECOND 9999 0\)"
                                              rf", seat {deal.halftime[0]} .*phase halftime: "
                                              "the pool cannot be larger"):
            replay(bad)


def _reopened(game: Game, index: int) -> Deal:
    """The finished deal ``index`` as it opened (its choice not yet made)."""
    d = game.finished_deals[index]
    return Deal(game.rules, d.dealer, d.initial_hands, d.talon, forced_allpass=d.forced_allpass,
                halftime=d.halftime)


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_the_players_answer_the_leaders_choice_legally(level):
    deal = halftime_deal()
    obs = deal.observation(1)
    token = make_player(level, CLASSIC, seed=3).choose(obs)
    assert token == obs["legal"][0] == "SECOND 7 0"  # they keep the rules' choice
