"""Invariants of the sheet over random sequences of deal outcomes, for every preset."""

from __future__ import annotations

import doctest
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

import preferans.scoring
import preferans.sheet
from preferans.bids import MISERE, Bid
from preferans.outcome import DealOutcome
from preferans.rules import Rules
from preferans.sheet import Sheet, settle


def _split(draw, parts: int) -> tuple[int, ...]:
    cuts = sorted(draw(st.lists(st.integers(0, 10), min_size=parts - 1, max_size=parts - 1)))
    bounds = [0, *cuts, 10]
    return tuple(bounds[i + 1] - bounds[i] for i in range(parts))


@st.composite
def outcomes(draw, dealer: int) -> DealOutcome:
    kind = draw(st.sampled_from(["contract", "contract", "misere", "allpass", "passed", "half"]))
    if kind == "allpass":
        return DealOutcome("allpass", dealer, tricks=_split(draw, 3))
    declarer = draw(st.sampled_from([s for s in range(3)]))
    defenders = ((declarer + 1) % 3, (declarer + 2) % 3)
    if kind == "misere":
        return DealOutcome("misere", dealer, 3, declarer, MISERE, tricks=_split(draw, 3))
    level = draw(st.integers(6, 10))
    bid = Bid(level, None)
    if kind == "passed":
        return DealOutcome("passed", dealer, 3, declarer, bid, ("PASS", "PASS"))
    if kind == "half":
        bid = Bid(draw(st.integers(6, 7)), None)
        return DealOutcome("halfwhist", dealer, 3, declarer, bid, ("PASS", "HALF"),
                           half_whister=defenders[1])
    split = _split(draw, 3)
    tricks = [0, 0, 0]
    tricks[declarer], tricks[defenders[0]], tricks[defenders[1]] = split
    style = draw(st.sampled_from(["both", "first", "second", "reopen"]))
    if style == "both":
        return DealOutcome("contract", dealer, 3, declarer, bid, ("WHIST", "WHIST"), defenders,
                           tricks=tuple(tricks))
    if style == "reopen":
        return DealOutcome("contract", dealer, 3, declarer, bid, ("PASS", "HALF", "WHIST"),
                           (defenders[0],), defenders[1], True, tuple(tricks))
    whister = defenders[0] if style == "first" else defenders[1]
    calls = ("WHIST", "PASS") if style == "first" else ("PASS", "WHIST")
    return DealOutcome("contract", dealer, 3, declarer, bid, calls, (whister,), None,
                       draw(st.booleans()), tuple(tricks))


@st.composite
def games(draw):
    preset = draw(st.sampled_from(["sochi", "leningrad", "rostov", "guide"]))
    pool = draw(st.sampled_from([10, 20]))
    n = draw(st.integers(1, 25))
    return preset, pool, [draw(outcomes(i % 3)) for i in range(n)]


@settings(max_examples=150, deadline=None)
@given(games())
def test_sheet_invariants(game):
    preset, pool, deals = game
    rules = Rules.preset(preset, pool=pool)
    sheet = Sheet(rules)
    for outcome in deals:
        entry = sheet.record(outcome)
        assert sum(entry.balance_change) == 0
        assert all(0 <= p <= pool for p in sheet.pool)
        assert all(m >= 0 for m in sheet.mountain)
        assert all(w >= 0 for row in sheet.whists for w in row)
        assert all(sheet.whists[i][i] == 0 for i in range(3))
        assert sum(sheet.balance()) == 0
        # The totals are the sum of the entries' changes.
        for i in range(3):
            assert sheet.pool[i] == sum(e.pool[i] for e in sheet.entries)
            assert sheet.mountain[i] == sum(e.mountain[i] for e in sheet.entries)
    assert sheet.finished == all(p == pool for p in sheet.pool)
    assert sheet.allpass_streak >= 0


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(0, 40), min_size=3, max_size=4),
    st.lists(st.integers(0, 60), min_size=3, max_size=4),
    st.lists(st.integers(0, 90), min_size=16, max_size=16),
    st.booleans(),
)
def test_settlement_sums_to_zero(pools, mountains, flat, doubled):
    n = min(len(pools), len(mountains))
    rules = Rules.preset("sochi", pool_doubled_at_settlement=doubled)
    whists = [[0 if i == j else flat[i * 4 + j] for j in range(n)] for i in range(n)]
    result = settle(rules, pools[:n], mountains[:n], whists)
    assert sum(result) == 0
    assert all(isinstance(x, Fraction) for x in result)


def test_doctests():
    for module in (preferans.scoring, preferans.sheet):
        failed, attempted = doctest.testmod(module)
        assert attempted > 0 and failed == 0
