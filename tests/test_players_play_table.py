"""The mid-play score table Crazy plays its cards by (:meth:`ScoreModel.play_table`)."""

from __future__ import annotations

import itertools

import pytest

from preferans.bids import Bid
from preferans.players import make_player
from preferans.players.montecarlo import CRAZY, HARD
from preferans.players.utility import ScoreModel
from preferans.rules import Rules

SOCHI = Rules.preset("sochi")


@pytest.mark.parametrize("preset", ["sochi", "leningrad", "rostov"])
@pytest.mark.parametrize("contract", ["6S", "7H", "8C", "9D"])
def test_declarer_never_loses_by_a_trick(preset: str, contract: str) -> None:
    rules = Rules.preset(preset)
    bid = Bid.parse(contract)
    for taken in [(0, 0, 0), (2, 1, 1), (3, 0, 2)]:
        declarer = ScoreModel(rules, 0, dealer=2).play_table(0, bid, taken, whisters=(1, 2))
        dec = [declarer[v] for v in range(10 - sum(taken) + 1)]
        assert all(a <= b + 1e-9 for a, b in itertools.pairwise(dec)), (taken, dec)


@pytest.mark.parametrize("contract", ["6S", "7H"])
def test_no_false_step_for_a_whister(contract: str) -> None:
    """Two whisters, nothing taken yet: every trick declarer takes is worth no more to a
    whister than one less.  The whole-deal table, which rounds the defenders' split, broke
    this (6♠ in Sochi was worth more to a whister at 7 tricks than at 6: the rounding wrote
    the shortage to the partner).  A real step stays: at 8 and more Sochi makes the second
    whister answer for the quota, so there the first may gain by the partner's shortfall."""
    bid = Bid.parse(contract)
    whole = ScoreModel(SOCHI, 1, dealer=2).contract_table(0, bid, whisters=(1, 2))
    steps = [whole[v + 1] - whole[v] for v in range(10)]
    if contract == "6S":
        assert max(steps) > 0  # the false step this table removes
    for seat in (1, 2):
        table = ScoreModel(SOCHI, seat, dealer=2).play_table(0, bid, (0, 0, 0), whisters=(1, 2))
        values = [table[v] for v in range(11)]
        assert all(a >= b - 1e-9 for a, b in itertools.pairwise(values)), (
            seat, values)


def test_tricks_taken_count_where_they_lie() -> None:
    """The tricks already taken are the deal's: with declarer at 3 and the whisters at 2 and
    0, declarer's 4 more tricks make 7♠ exactly, the same value as the whole-deal table's
    7 tricks for declarer (whose value does not depend on the whisters' split)."""
    bid = Bid.parse("7S")
    model = ScoreModel(SOCHI, 0, dealer=2)
    mid = model.play_table(0, bid, (3, 2, 0), whisters=(1, 2))
    whole = model.contract_table(0, bid, whisters=(1, 2))
    assert mid[4] == pytest.approx(whole[7])
    assert mid[3] == pytest.approx(whole[6])
    assert mid[3] < mid[4]


def test_an_odd_defence_trick_is_shared() -> None:
    """Three defence tricks to come between two whisters with none taken: the value is the
    mean of the 2-1 and 1-2 splits, the same for both whisters by symmetry."""
    bid = Bid.parse("6S")
    a = ScoreModel(SOCHI, 1, dealer=2).play_table(0, bid, (0, 0, 0), whisters=(1, 2))
    b = ScoreModel(SOCHI, 2, dealer=2).play_table(0, bid, (0, 0, 0), whisters=(1, 2))
    for v in range(11):
        assert a[v] == pytest.approx(b[v])


def test_crazy_plays_by_the_mid_play_table() -> None:
    assert CRAZY.play_table and not HARD.play_table
    player = make_player("crazy-nobudget/play_table=0", SOCHI)
    assert not player.level.play_table


def test_crazy_declares_without_play_inference() -> None:
    """Crazy weighs its card-play worlds by the other seats' cards except when it plays a
    contract's declaring hand (measured to cost there; see ``Level.declarer_inference``)."""
    assert CRAZY.play_inference and not CRAZY.declarer_inference
    player = make_player("crazy-nobudget/declarer_inference=1", SOCHI)
    assert player.level.declarer_inference
