"""The settlement in whole numbers (the fast path nearly every sheet takes) equals the
settlement in fractions, for every preset and both table sizes."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from preferans.rules import PRESETS as RULE_PRESETS
from preferans.rules import VARIANTS, Rules
from preferans.sheet import settle

PRESETS = sorted({*RULE_PRESETS, *VARIANTS})


@st.composite
def sheets(draw: st.DrawFn) -> tuple[str, list[int], list[int], list[list[int]], int | None]:
    n = draw(st.sampled_from([3, 4]))
    numbers = st.integers(-50, 2_000)
    pool = draw(st.lists(numbers, min_size=n, max_size=n))
    mountain = draw(st.lists(numbers, min_size=n, max_size=n))
    whists = draw(st.lists(st.lists(numbers, min_size=n, max_size=n), min_size=n, max_size=n))
    return (draw(st.sampled_from(PRESETS)), pool, mountain, whists,
            draw(st.sampled_from([None, 10, 20, 30])))


@settings(max_examples=300, deadline=None)
@given(sheets())
def test_whole_numbers_settle_as_fractions_do(case: tuple) -> None:
    preset, pool, mountain, whists, size = case
    rules = Rules.preset(preset)
    fast = settle(rules, pool, mountain, whists, size)
    exact = settle(rules, [Fraction(x) for x in pool], mountain, whists, size)
    assert fast == exact and sum(fast) == 0
    assert all(isinstance(x, Fraction) for x in fast)
