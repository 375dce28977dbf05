"""The two-player game with a dummy (000, "Two-player game"): preset ``two-player``.

Seats: A=0, B=1, and the dummy is seat 2, the third hand of every deal.  A deals in the
hand-built deals below, so the table clockwise is A (dealer), the dummy (first hand), B.
"""

from __future__ import annotations

import json
import random

import pytest

from preferans.actions import IllegalAction
from preferans.bids import Bid
from preferans.deal import DUMMY, Deal, Phase
from preferans.game import Game
from preferans.outcome import DealOutcome
from preferans.players import RandomPlayer
from preferans.record import RecordError, read_record, replay
from preferans.rules import Rules, RulesError
from preferans.sheet import Sheet

TWO = Rules.preset("two-player")

# B: every spade and A-K of hearts; A: every club and Q-J of hearts; the dummy: every
# diamond and 10-9 of hearts; talon 8♥ 7♥.
HANDS = [
    ["AC", "KC", "QC", "JC", "10C", "9C", "8C", "7C", "QH", "JH"],
    ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "AH", "KH"],
    ["AD", "KD", "QD", "JD", "10D", "9D", "8D", "7D", "10H", "9H"],
]
TALON = ["8H", "7H"]


def dealt(rules: Rules = TWO) -> Deal:
    return Deal(rules, 0, HANDS, TALON, names=("A", "B"))


def to_defence(rules: Rules = TWO, contract: str = "6S") -> Deal:
    deal = dealt(rules)
    for token in (contract if contract != "MISERE" else "MISERE", "PASS"):
        deal.apply(token)
    deal.apply("DISCARD 8H 7H")
    deal.apply(contract)
    return deal


def play_out(deal: Deal) -> None:
    while not deal.done:
        deal.apply(deal.legal_actions()[0])


# --- the table ------------------------------------------------------------------------------


def test_the_dummy_sits_on_the_dealers_left_and_never_bids():
    # 000: "There is always a dummy player to the left hand side of the dealer. The dummy
    # is the eldest hand who always passes in bidding and whisting."
    deal = dealt()
    assert deal.dummy == DUMMY == 2
    assert deal.first_hand == 2 and deal.seats == (2, 1, 0)
    assert deal.auction.seats == (1, 0)  # the dummy's pass is not a decision
    assert deal.to_act == 1
    deal.apply("6S")
    deal.apply("PASS")
    assert deal.phase is Phase.DISCARD and deal.declarer == 1
    assert deal.tokens() == ["6S", "PASS"]


def test_the_dummys_hand_stays_hidden_until_a_whister_opens_it():
    # 000: "Its hand remains hidden until a whister opens it. ... If a whister whists with
    # the dummy, the hand is played just like open whists in three player games."
    deal = to_defence()
    assert deal.phase is Phase.DEFENCE and deal.to_act == 0  # A: the defender not the dummy
    assert [str(a) for a in deal.legal_actions()] == ["WHIST", "PASS"]
    deal.apply("WHIST")
    assert [str(a) for a in deal.legal_actions()] == ["OPEN", "ALONE"]
    for seat in (0, 1):
        obs = deal.observation(seat)
        assert "2" not in obs["exposed"] and obs["dummy"] == 2
        assert obs["hand_sizes"] == [10, 10, 10]
    deal.apply("OPEN")
    assert deal.phase is Phase.PLAY and deal.controller(DUMMY) == 0
    assert deal.observation(1)["exposed"]["2"] == HANDS[2]
    assert deal.to_act == 0 and deal.hand_to_play == DUMMY  # the dummy, first hand, leads
    play_out(deal)
    o = deal.outcome()
    assert o.players == 2 and len(o.tricks) == 2 and sum(o.tricks) == 10
    assert not o.alone and o.whisters == (0,)


def test_an_illegal_card_of_the_dummy_names_the_dummys_hand():
    # a two-player deal has two names; the message for a card of the dummy's hand (seat 2)
    # raised IndexError before
    deal = to_defence()
    deal.apply("WHIST")
    deal.apply("OPEN")
    assert deal.hand_to_play == DUMMY
    absent = next(c for c in ("AS", "KS", "QS", "JS", "10S", "AH", "KH")
                  if c not in HANDS[2])
    reason = deal.why_illegal(absent)
    assert reason is not None and "in Dummy's hand" in reason
    with pytest.raises(IllegalAction, match="Dummy's hand"):
        deal.apply(absent)


def test_whisting_alone_leaves_the_dummy_out_of_play():
    # 000: "A whisting player can choose to whist alone against games at six or seven
    # tricks, in which case the hand of the dummy is not used at all and the whister aims
    # to take two tricks in a six-trick game and one in seven."
    deal = to_defence()
    deal.apply("WHIST")
    deal.apply("ALONE")
    assert deal.alone and deal.open_defence is False
    assert deal.to_act == 1 and deal.hand_to_play == 1  # B leads: the dummy does not play
    assert deal.observation(0)["exposed"] == {}
    play_out(deal)
    assert all(len(t.cards) == 2 for t in deal.tricks)
    assert deal.hand(DUMMY).to_list() == HANDS[2]  # untouched
    o = deal.outcome()
    assert o.alone and o.tricks == (0, 10)
    # B made 6♠ with ten tricks: pool 2; A, alone, owed two tricks and took none:
    # 2 × 2 = 4 on A's mountain (Sochi's full responsibility).
    sheet = Sheet(TWO, ("A", "B"))
    sheet.record(o)
    j = sheet.to_json()
    assert (j["pool"], j["mountain"], j["whists"]) == ([0, 2], [4, 0], [[0, 0], [0, 0]])


def test_no_whisting_alone_against_eight_the_dummy_opens():
    deal = to_defence(contract="8S")
    deal.apply("WHIST")
    assert deal.phase is Phase.PLAY and deal.open_defence is True
    assert deal.controller(DUMMY) == 0 and DUMMY in deal.exposed
    with pytest.raises(IllegalAction, match="seat 0 \\(A\\) cannot say ALONE"):
        to = to_defence(contract="8S")
        to.apply("WHIST")
        to.apply("ALONE")


def test_half_whist_instead_of_whisting_alone():
    # 000: "Some do not allow this and allow 'half-whist' instead."
    rules = Rules.preset("two-player", dummy_lone_whist=False)
    deal = to_defence(rules)
    assert [str(a) for a in deal.legal_actions()] == ["WHIST", "PASS", "HALF"]
    deal.apply("HALF")
    o = deal.outcome()
    assert o.kind == "halfwhist" and o.half_whister == 0
    sheet = Sheet(rules, ("A", "B"))
    sheet.record(o)
    # 6♠ stands unplayed: B +2 pool; A writes 2 × 2 (half the quota of 4) = 4 whists.
    assert sheet.to_json()["pool"] == [0, 2] and sheet.to_json()["whists"] == [[0, 4], [0, 0]]
    deal = to_defence(rules)
    deal.apply("WHIST")
    assert deal.phase is Phase.PLAY and deal.open_defence  # no ALONE: with the dummy


def test_passing_leaves_the_contract_made_unplayed():
    deal = to_defence()
    deal.apply("PASS")
    assert deal.done and deal.outcome().kind == "passed"


def test_misere_the_other_player_plays_the_opened_dummy():
    deal = to_defence(contract="MISERE")
    assert deal.phase is Phase.PLAY and deal.kind == "misere"
    assert set(deal.exposed) == {0, 2} and deal.controller(DUMMY) == 0
    play_out(deal)
    assert sum(deal.outcome().tricks) == 10


def test_allpass_without_the_talon_and_the_dummy():
    # 000: "The widow and the hand of the dummy player is not used in all-pass games."
    deal = dealt()
    deal.apply("PASS")
    deal.apply("PASS")
    assert deal.kind == "allpass" and deal.hand_to_play == 1
    play_out(deal)
    assert all(len(t.cards) == 2 and t.talon_card is None for t in deal.tricks)
    assert deal.observation(0)["talon"] is None
    o = deal.outcome()
    assert len(o.tricks) == 2 and sum(o.tricks) == 10


# --- scoring, worked by hand ------------------------------------------------------------------


def test_scoring_with_the_dummy_and_alone():
    sheet = Sheet(TWO, ("A", "B"))
    # B's 6♠ with the dummy opened, A whisting: 5–5 (dummy's tricks are A's). Down one:
    # B 2 on the mountain; A writes 5 × 2 = 10 trick whists + 2 consolation = 12 on B.
    entry = sheet.record(DealOutcome("contract", 0, 2, 1, Bid.parse("6S"), ("WHIST",), (0,),
                                     None, True, (5, 5)))
    assert [int(m) for m in entry.mountain] == [0, 2]
    assert [[int(w) for w in row] for row in entry.whists] == [[0, 12], [0, 0]]
    # B's 7♥ against A alone: 8–2. Made: B +4; A writes 2 × 4 = 8; owes one trick, took 2.
    entry = sheet.record(DealOutcome("contract", 1, 2, 1, Bid.parse("7H"), ("WHIST",), (0,),
                                     None, False, (2, 8), alone=True))
    assert [int(p) for p in entry.pool] == [0, 4] and entry.short == ()
    assert int(entry.whists[0][1]) == 8
    assert sum(sheet.balance()) == 0


def test_alone_is_only_for_two_players_against_six_or_seven():
    from preferans.scoring import ScoringError
    with pytest.raises(ScoringError, match="defend alone"):
        Sheet(TWO, ("A", "B")).record(DealOutcome(
            "contract", 0, 2, 1, Bid.parse("8S"), ("WHIST",), (0,), None, False, (2, 8),
            alone=True))


# --- records ----------------------------------------------------------------------------------


def test_record_lists_two_players_and_three_hands():
    game = Game(TWO, ("Ann", "Bob"), seed=3)
    deal = game.start_deal(HANDS, TALON)
    for token in ("6S", "PASS", "DISCARD 8H 7H", "6S", "WHIST", "ALONE"):
        game.apply(token)
    while game.deal is not None:
        game.apply(deal.legal_actions()[0])
    rec = json.loads(json.dumps(game.to_record()))
    assert rec["players"] == ["Ann", "Bob"] and rec["rules"] == {"preset": "two-player"}
    assert rec["deals"][0]["hands"][2] == HANDS[2]  # the dummy's hand is the third
    assert rec["deals"][0]["actions"][:6] == ["6S", "PASS", "DISCARD 7H 8H", "6S", "WHIST",
                                               "ALONE"]
    sheet = replay(read_record(rec)).sheet.to_json()
    assert sheet == game.sheet.to_json()
    assert sheet["pool"] == [0, 2] and sheet["mountain"] == [4, 0]
    bad = dict(rec, deals=[dict(rec["deals"][0], hands=HANDS[:2])])
    with pytest.raises(RecordError, match="2 players need 3 hands \\(the dummy's is the third\\)"):
        read_record(bad)


def test_rules_reject_an_exchange_without_a_talon():
    with pytest.raises(RulesError, match="allpass_exchange needs three or four players"):
        Rules.preset("two-player", allpass_exchange=True)
    assert Rules.preset("two").name == "two-player"
    assert Rules.from_json(TWO.to_json()) == TWO


# --- random games -----------------------------------------------------------------------------


@pytest.mark.parametrize("overrides", [{}, {"dummy_lone_whist": False},
                                       {"stalingrad": True, "tens_whisted": False}])
def test_random_players_finish_two_player_games(overrides):
    rules = Rules.preset("two-player", pool=6, **overrides)
    kinds: set[str] = set()
    for seed in range(4):
        game = Game(rules, seed=seed, first_dealer=seed % 2)
        bots = [RandomPlayer(seed), RandomPlayer(seed + 50)]
        rng = random.Random(seed)
        for _ in range(6000):
            if game.finished:
                break
            deal = game.deal or game.start_deal()
            seat = deal.to_act
            assert seat in (0, 1)
            obs = game.observation(seat)
            if deal.phase is Phase.CONTRACT and rng.random() < 0.8:
                token = obs["legal"][0]  # cheap contracts, so that random games end
            elif deal.phase is Phase.AUCTION and rng.random() < 0.5:
                token = "PASS"  # all-passes too
            else:
                token = bots[seat].choose(obs)
            game.apply(token, seat)
            if deal.done:
                kinds.add(deal.outcome().kind)
        assert game.finished
        assert sum(game.sheet.balance()) == 0
        assert Game.from_record(game.to_record()).sheet.to_json() == game.sheet.to_json()
    assert {"contract", "allpass"} <= kinds
