"""The auction: ascending and seniority ladders, misère, minimum levels, the end."""

import pytest

from preferans.actions import Action
from preferans.auction import Auction
from preferans.rules import Rules


def run(auction: Auction, calls: str) -> Auction:
    for token in calls.split():
        auction.call(auction.to_act, token)
    return auction


def legal(auction: Auction) -> list[str]:
    return [str(a) for a in auction.legal()]


def test_seniority_example_of_the_guide_001_section_05():
    a = run(Auction(Rules.preset("guide"), (0, 1, 2)), "6S 6C PASS 6C 6D 6D 6H 6H PASS")
    assert a.done and not a.allpass
    assert a.winner == 0 and str(a.high) == "6H"
    assert [s for s, _ in a.calls] == [0, 1, 2, 0, 1, 0, 1, 0, 1]


def test_seniority_elder_may_hold_or_step_younger_must_raise():
    a = run(Auction(Rules.preset("guide"), (0, 1, 2)), "6S 6C")
    # C is younger than B: must go to the next step (no jumps), or misère as a first call
    assert legal(a) == ["6D", "MISERE", "PASS"]
    assert "only an elder hand may hold" in a.why_illegal(2, Action.parse("6C"))
    a.call(2, "PASS")
    assert legal(a) == ["6C", "6D", "PASS"]  # A, the elder, holds ("here") or steps
    assert "next step" in a.why_illegal(0, Action.parse("7S"))


def test_seniority_second_hand_holds_over_third_when_first_passed():
    a = run(Auction(Rules.preset("guide"), (1, 2, 0)), "PASS 6S 6C")
    assert a.to_act == 2 and "6C" in legal(a)  # seat 2 is second hand: it may hold
    a.call(2, "6C")
    assert a.to_act == 0 and legal(a) == ["6D", "PASS"]  # seat 0 has bid: no misère


def test_seniority_misere_cannot_be_held():
    a = run(Auction(Rules.preset("guide"), (0, 1, 2)), "6S MISERE")
    assert legal(a) == ["9S", "PASS"]
    a.call(2, "PASS")
    assert legal(a) == ["9S", "PASS"]


def test_ascending_jumps_and_first_call():
    a = Auction(Rules.preset("sochi"), (0, 1, 2))
    first = legal(a)
    assert first[0] == "6S" and first[-1] == "PASS" and len(first) == 27
    assert first.index("MISERE") == first.index("8NT") + 1
    run(a, "7H")
    assert legal(a)[0] == "7NT"
    assert "below the current bid" in a.why_illegal(1, Action.parse("7D"))
    assert "only an elder hand" in a.why_illegal(1, Action.parse("7H"))


def test_ascending_without_jumps_only_the_next_step():
    a = run(Auction(Rules.preset("sochi", jump_bids=False), (0, 1, 2)), "6S")
    assert legal(a) == ["6C", "MISERE", "PASS"]
    assert "next step" in a.why_illegal(1, Action.parse("6D"))


def test_ends_when_two_have_passed_and_the_third_has_bid():
    a = run(Auction(Rules.preset("sochi"), (0, 1, 2)), "6S 7S PASS 8S PASS")
    assert a.done and a.winner == 0 and str(a.high) == "8S"
    b = run(Auction(Rules.preset("sochi"), (0, 1, 2)), "PASS PASS")
    assert not b.done and b.to_act == 2
    b.call(2, "6S")
    assert b.done and b.winner == 2
    c = run(Auction(Rules.preset("sochi"), (0, 1, 2)), "PASS PASS PASS")
    assert c.allpass and c.winner is None


def test_misere_only_as_first_call_and_its_place_on_the_ladder():
    a = run(Auction(Rules.preset("sochi"), (0, 1, 2)), "6S")
    assert "MISERE" in legal(a)
    run(a, "MISERE")
    assert legal(a)[0] == "9S"
    assert "misère has already been called" in a.why_illegal(2, Action.parse("MISERE"))
    run(a, "PASS")
    # A made an ordinary bid: no misère for A
    assert "first call" in a.why_illegal(0, Action.parse("MISERE"))
    run(a, "9S")
    assert legal(a) == ["PASS"]  # an outbid misère caller can only pass
    assert "can only pass" in a.why_illegal(1, Action.parse("9C"))
    run(a, "PASS")
    assert a.winner == 0 and str(a.high) == "9S"


def test_misere_outbid_at_ten_when_the_rules_say_so():
    a = run(Auction(Rules.preset("sochi", misere_outbid_by=10), (0, 1, 2)), "9NT")
    assert "MISERE" in legal(a)
    run(a, "MISERE")
    assert legal(a)[0] == "10S"


def test_minimum_level_after_allpass():
    rules = Rules.preset("sochi")
    a = Auction(rules, (0, 1, 2), rules.min_bid_level(1))
    assert legal(a)[0] == "7S"
    assert "MISERE" in legal(a)
    assert "lowest bid now is 7" in a.why_illegal(0, Action.parse("6NT"))


def test_out_of_turn_and_after_the_end():
    a = Auction(Rules.preset("sochi"), (0, 1, 2))
    assert "seat 0's turn" in a.why_illegal(1, Action.parse("6S"))
    with pytest.raises(ValueError, match="turn"):
        a.call(2, "PASS")
    run(a, "PASS PASS PASS")
    assert a.why_illegal(0, Action.parse("6S")) == "the auction is over"
    assert a.legal() == []


def test_copy_is_independent():
    a = run(Auction(Rules.preset("sochi"), (0, 1, 2)), "6S")
    b = a.copy()
    b.call(1, "PASS")
    assert a.to_act == 1 and b.to_act == 2 and len(a.calls) == 1
