"""More house options other Preferans programs still play (issue 40), each on a hand-worked sheet.

Seats: A=0, B=1, C=2; C deals, so A is first hand and, as declarer, is defended by B (first
defender) then C.  v is the contract value.  Each test gives the sheet before the deal (an
empty one unless said), the deal, and the sheet after it, worked by hand in the comment,
beside what the usual rule writes.  Every option is off (or keeps its old choice) in every
preset, so no existing sheet changes (the last tests check that).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from preferans import i18n
from preferans.bids import Bid
from preferans.i18n import render_rules_error
from preferans.outcome import DealOutcome
from preferans.rules import (
    MORE_HOUSE_OPTIONS,
    PRESETS,
    VARIANTS,
    Rules,
    RulesError,
    option_choices,
    options_schema,
    options_table,
)
from preferans.server.lang.house_rules import editor_schema, rules_from_settings
from preferans.sheet import Sheet, settle

SOCHI = Rules.preset("sochi")
HALF_CALLS = ("PASS", "HALF", "PASS")


def contract(
    bid: str,
    tricks: tuple[int, ...],
    whisters: tuple[int, ...] = (1, 2),
    *,
    defence: tuple[str, ...] | None = None,
    half: int | None = None,
) -> DealOutcome:
    """A's contract, C dealing (B defends first, then C)."""
    if defence is None:
        defence = tuple("WHIST" if d in whisters else "PASS" for d in (1, 2))
    return DealOutcome(
        "contract", 2, 3, 0, Bid.parse(bid),
        defence,  # type: ignore[arg-type]
        whisters, half, False if len(whisters) == 1 else None, tricks,
    )


def passed(bid: str) -> DealOutcome:
    """A's contract that both defenders passed (counted as made, unplayed)."""
    return DealOutcome("passed", 2, 3, 0, Bid.parse(bid), ("PASS", "PASS"), (), None, None,
                       (0, 0, 0))


def W(**cells: int) -> list[list[int]]:
    """A whists matrix from cells like AB=8 (A wrote 8 on B)."""
    m = [[0] * 3 for _ in range(3)]
    for key, value in cells.items():
        m["ABC".index(key[0])]["ABC".index(key[1])] = value
    return m


def sheet_of(rules: Rules, pool: list[int], mountain: list[int],
             whists: list[list[int]] | None = None) -> Sheet:
    """A sheet standing at these pools, mountains and whists (the sheet before)."""
    sheet = Sheet(rules, ("A", "B", "C"))
    sheet.pool = [Fraction(p) for p in pool]
    sheet.mountain = [Fraction(m) for m in mountain]
    sheet.whists = [[Fraction(w) for w in row] for row in (whists or W())]
    return sheet


def state(sheet: Sheet) -> tuple[list, list, list]:
    j = sheet.to_json()
    return j["pool"], j["mountain"], j["whists"]


def play(rules: Rules, before: tuple[list, list, list], *outcomes: DealOutcome) -> Sheet:
    """The sheet after these deals, from the sheet ``before`` (pools, mountains, whists)."""
    sheet = sheet_of(rules, *before)
    assert state(sheet) == before
    for outcome in outcomes:
        sheet.record(outcome)
    return sheet


EMPTY = ([0, 0, 0], [0, 0, 0], W())


# --- 1. against 8+: each whister without a trick pays the whole trick when the pair fell short --


EACH_IF_SHORT = SOCHI.replace(responsible_at_8plus="each_if_short")


def test_each_if_short_makes_each_trickless_whister_pay_the_whole_trick():
    # 8♠ (v=6) 10–0–0, both whist: the pair took none of its 1.  second: C pays the trick,
    # 6 mountain; both: half each, 3 and 3; each_if_short: each took none, each pays the
    # whole trick: B 6, C 6.  A 6 pool either way, nobody writes trick whists.
    o = contract("8S", (10, 0, 0))
    assert state(play(SOCHI, EMPTY, o)) == ([6, 0, 0], [0, 0, 6], W())
    both = SOCHI.replace(responsible_at_8plus="both")
    assert state(play(both, EMPTY, o)) == ([6, 0, 0], [0, 3, 3], W())
    sheet = play(EACH_IF_SHORT, EMPTY, o)
    assert state(sheet) == ([6, 0, 0], [0, 6, 6], W())
    assert sheet.entries[0].short == (1, 2)
    assert ("B fell short by 1 (+6 mountain); C fell short by 1 (+6 mountain)"
            in sheet.entries[0].summary)


def test_each_if_short_looks_at_the_pair_where_each_does_not():
    # 8♠ (v=6) 8–2–0: the pair took 2 of its 1.  each: C took none of his own, 6 mountain;
    # each_if_short: the pair did not fall short, nobody pays.  B writes 2×6=12.
    o = contract("8S", (8, 2, 0))
    each = SOCHI.replace(responsible_at_8plus="each")
    assert state(play(each, EMPTY, o)) == ([6, 0, 0], [0, 0, 6], W(BA=12))
    assert state(play(EACH_IF_SHORT, EMPTY, o)) == ([6, 0, 0], [0, 0, 0], W(BA=12))


def test_each_if_short_with_a_quota_of_two_charges_only_the_trickless_whister():
    # Quotas 4–2–2–1–1 (two tricks against an 8).  8♠ (v=6) 9–1–0: the pair took 1 of 2,
    # one trick missing.  B took one, C none: C pays the whole missing trick, 6 mountain
    # (both would charge 3 each).  B writes 1×6=6.
    rules = EACH_IF_SHORT.replace(whist_quota=(4, 2, 2, 1, 1))
    o = contract("8S", (9, 1, 0))
    assert state(play(rules, EMPTY, o)) == ([6, 0, 0], [0, 0, 6], W(BA=6))
    both = rules.replace(responsible_at_8plus="both")
    assert state(play(both, EMPTY, o)) == ([6, 0, 0], [0, 3, 3], W(BA=6))


# --- 2. pool help -------------------------------------------------------------------------------


def test_pool_help_only_from_a_pool_closed_before_the_deal():
    # Pool 20.  Before: pools 19, 10, 5; A's mountain 5.
    # Deal 1: A makes 7♥ (v=4) 7–2–1, both whist: B writes 2×4=8, C 1×4=4.  1 closes A's
    # pool, 3 are beyond it.  Sochi: they help the highest open pool, B: 13, A writes 30 on
    # B.  pool_help_closed_before: A's pool closed on this very deal, so the 3 help nobody:
    # off A's own mountain (pool_overflow), 5 → 2.
    # Deal 2: A's 6♠ (v=2) passed out.  Now his pool was closed before the deal: the 2 help
    # B: 12, A writes 20 on B.  (Sochi: B 13 → 15, A's help whists 30 + 20 = 50.)
    before = ([19, 10, 5], [5, 0, 0], W())
    deals = (contract("7H", (7, 2, 1)), passed("6S"))
    assert state(play(SOCHI, before, *deals)) == (
        [20, 15, 5], [5, 0, 0], W(AB=50, BA=8, CA=4))
    rules = SOCHI.replace(pool_help_closed_before=True)
    sheet = play(rules, before, deals[0])
    assert state(sheet) == ([20, 10, 5], [2, 0, 0], W(BA=8, CA=4))
    assert "A's pool closed on this deal: 3 help no other pool; A took 3 off the mountain" \
        in sheet.entries[0].summary
    sheet.record(deals[1])
    assert state(sheet) == ([20, 12, 5], [2, 0, 0], W(AB=20, BA=8, CA=4))
    assert "A closed 2 of B's pool (20 whists on B)" in sheet.entries[1].summary


def test_pool_help_into_the_highest_open_pool_only():
    # Pool 20.  Before: pools 20, 18, 10; A's mountain 10.  A makes 8♠ (v=6) 8–1–1, both
    # whist: B and C write 1×6=6 each; all 6 lie beyond A's pool.  Sochi: B (18) takes 2, A
    # writes 20 on B; then C (10) takes 4, A writes 40 on C.  highest_only: B takes 2 (20
    # whists) and the other 4 help nobody: off A's mountain, 10 → 6.
    before = ([20, 18, 10], [10, 0, 0], W())
    o = contract("8S", (8, 1, 1))
    assert state(play(SOCHI, before, o)) == (
        [20, 20, 14], [10, 0, 0], W(AB=20, AC=40, BA=6, CA=6))
    rules = SOCHI.replace(pool_help_to="highest_only")
    sheet = play(rules, before, o)
    assert state(sheet) == ([20, 20, 10], [6, 0, 0], W(AB=20, BA=6, CA=6))
    assert "A closed 2 of B's pool (20 whists on B); A took 4 off the mountain" \
        in sheet.entries[0].summary


def test_pool_help_to_the_pool_furthest_from_closing_without_help_whists():
    # The same deal, before: pools 20, 18, 10, A's mountain 10.  lowest with
    # pool_help_whists=0: the 6 go to C (10, furthest from closing): 16, and nobody writes
    # help whists.
    before = ([20, 18, 10], [10, 0, 0], W())
    o = contract("8S", (8, 1, 1))
    rules = SOCHI.replace(pool_help_to="lowest", pool_help_whists=0)
    sheet = play(rules, before, o)
    assert state(sheet) == ([20, 18, 16], [10, 0, 0], W(BA=6, CA=6))
    assert "A closed 6 of C's pool" in sheet.entries[0].summary
    assert "whists on C" not in sheet.entries[0].summary
    # Before: pools 20, 15, 17.  B (15) is furthest: takes 5 (full), then C (17) the last 1:
    # 18.  With the usual 10 help whists a point: A writes 50 on B and 10 on C.
    before = ([20, 15, 17], [10, 0, 0], W())
    assert state(play(rules, before, o)) == ([20, 20, 18], [10, 0, 0], W(BA=6, CA=6))
    lowest = SOCHI.replace(pool_help_to="lowest")
    assert state(play(lowest, before, o)) == (
        [20, 20, 18], [10, 0, 0], W(AB=50, AC=10, BA=6, CA=6))
    # Sochi (highest first): C (17) takes 3, then B the other 3: 18 and 20.
    assert state(play(SOCHI, before, o)) == (
        [20, 18, 20], [10, 0, 0], W(AB=30, AC=30, BA=6, CA=6))


# --- 3. a failed contract: only the prize, or only the trick whists -----------------------------


def test_failed_contract_prize_only():
    # 7♥ (v=4) 5–3–2, both whist: A fails by 2, 2×4=8 mountain.  Sochi: each defender writes
    # the undertrick prize 2×4=8 and his tricks (B 3×4=12, C 2×4=8): B 20, C 16.
    # prize_only: the prize alone, B 8, C 8.
    o = contract("7H", (5, 3, 2))
    assert state(play(SOCHI, EMPTY, o)) == ([0, 0, 0], [8, 0, 0], W(BA=20, CA=16))
    rules = SOCHI.replace(failed_whists="prize_only")
    sheet = play(rules, EMPTY, o)
    assert state(sheet) == ([0, 0, 0], [8, 0, 0], W(BA=8, CA=8))
    assert "no whists for the defenders' tricks on A's failed contract" in sheet.entries[0].summary
    # A lone whister, 6♠ (v=2) 5–5–0, B whists, C passes: A 2 mountain; prize 2 from each;
    # Sochi's greedy B also writes 5×2=10 (12).  prize_only: B 2, C 2.
    lone = contract("6S", (5, 5, 0), (1,))
    assert state(play(SOCHI, EMPTY, lone)) == ([0, 0, 0], [2, 0, 0], W(BA=12, CA=2))
    assert state(play(rules, EMPTY, lone)) == ([0, 0, 0], [2, 0, 0], W(BA=2, CA=2))
    # A made contract is untouched: 7♥ 7–2–1, B 8, C 4.
    made = contract("7H", (7, 2, 1))
    assert state(play(rules, EMPTY, made)) == ([4, 0, 0], [0, 0, 0], W(BA=8, CA=4))


def test_failed_contract_tricks_only():
    # The same 7♥ 5–3–2: A 8 mountain; no prize, only the tricks: B 12, C 8.  That is
    # consolation_per_undertrick=0 said as a choice.
    o = contract("7H", (5, 3, 2))
    rules = SOCHI.replace(failed_whists="tricks_only")
    sheet = play(rules, EMPTY, o)
    assert state(sheet) == ([0, 0, 0], [8, 0, 0], W(BA=12, CA=8))
    assert "no undertrick prize on A" in sheet.entries[0].summary
    zero = SOCHI.replace(consolation_per_undertrick=0)
    assert state(play(zero, EMPTY, o)) == state(sheet)
    # Moscow's prize is 10 whists an undertrick (20 each here): tricks_only drops it too;
    # its gentlemanly whist does not matter with two whisters.
    moscow = Rules.preset("moscow")
    assert state(play(moscow, EMPTY, o)) == ([0, 0, 0], [8, 0, 0], W(BA=32, CA=28))
    assert state(play(moscow.replace(failed_whists="tricks_only"), EMPTY, o)) == (
        [0, 0, 0], [8, 0, 0], W(BA=12, CA=8))


# --- 4. settlement ------------------------------------------------------------------------------


def test_settlement_divides_the_mountain_difference_by_the_players_less_one():
    # Pool 20.  Before: pools 20, 20, 18; mountains 0, 4, 20.  C's 6♠ (v=2) is passed out
    # (C declares, A deals): C's pool 20, every pool closed, the game over.  Mountains
    # 0, 4, 20 (total 24).  Sochi: 10 × (24 − 3m) / 3: A 80, B 40, C −120.
    # players_less_one: 10 × (24 − 3m) / 2: A 120, B 60, C −180 (each pair's difference × 10
    # halved: C pays A 100 and B 80, B pays A 20).
    before = ([20, 20, 18], [0, 4, 20], W())
    o = DealOutcome("passed", 0, 3, 2, Bid.parse("6S"), ("PASS", "PASS"), (), None, None,
                    (0, 0, 0))
    sheet = play(SOCHI, before, o)
    assert state(sheet) == ([20, 20, 20], [0, 4, 20], W())
    assert sheet.finished and sheet.to_json()["balance"] == [80, 40, -120]
    rules = SOCHI.replace(settle_divisor="players_less_one")
    sheet = play(rules, before, o)
    assert state(sheet) == ([20, 20, 20], [0, 4, 20], W())
    assert sheet.to_json()["balance"] == [120, 60, -180]
    # The deal itself: C's last 2 pool points are no longer missing (hills 0, 4, 22 → 20):
    # 10 × 2 / 2 = 10 from each of A and B to C.
    assert [int(x) for x in sheet.entries[0].balance_change] == [-10, -10, 20]
    # Four players: a mountain point still costs its owner 10 in all, shared by three.
    four = Rules.preset("sochi", players=4, settle_divisor="players_less_one")
    assert settle(four, [20] * 4, [0, 0, 0, 30], [[0] * 4] * 4) == [100, 100, 100, -300]
    assert settle(SOCHI.replace(players=4), [20] * 4, [0, 0, 0, 30], [[0] * 4] * 4) == [
        75, 75, 75, -225]


def test_an_unfinished_sheet_is_ranked_without_charging_the_missing_pool():
    # Pool 20.  Before: pools 0, 10, 10, nothing else.  A fails 7♥ (v=4) 6–3–1, both whist:
    # 4 mountain; prize 4 from each, tricks B 3×4=12, C 1×4=4: B 16, C 8.
    # Sochi's ranking charges the missing pool: hills A 4+20=24, B 0+10, C 0+10 (44):
    # 10 × (44 − 3h) / 3 plus whists: A −280/3 − 24 = −117.333, B 140/3 + 16 = 62.667,
    # C 140/3 + 8 = 54.667.  settle_no_missing_pool: hills 4, 0, 0: A −80/3 − 24 = −50.667,
    # B 40/3 + 16 = 29.333, C 40/3 + 8 = 21.333.
    before = ([0, 10, 10], [0, 0, 0], W())
    o = contract("7H", (6, 3, 1))
    sheet = play(SOCHI, before, o)
    assert state(sheet) == ([0, 10, 10], [4, 0, 0], W(BA=16, CA=8))
    assert sheet.to_json()["balance"] == [-117.333, 62.667, 54.667]
    rules = SOCHI.replace(settle_no_missing_pool=True)
    sheet = play(rules, before, o)
    assert state(sheet) == ([0, 10, 10], [4, 0, 0], W(BA=16, CA=8))
    assert sheet.to_json()["balance"] == [-50.667, 29.333, 21.333]
    assert sum(sheet.balance()) == 0


def test_uncharged_missing_pool_keeps_piters_points_beyond_the_pool():
    # Piter keeps points beyond the pool and doubles both ways at settlement.  Pools 24, 10,
    # 20 of 20, no mountains: A 4 beyond (−8), B 10 missing (+20).  Piter: hills −8, 20, 0
    # (12): 10 × (12 − 3h) / 3: A 120, B −160, C 40.  Not charging the missing: hills −8, 0, 0
    # (−8): A 160/3 = 53.333, B −80/3, C −80/3.
    piter = Rules.preset("piter")
    assert settle(piter, [24, 10, 20], [0, 0, 0], W()) == [120, -160, 40]
    free = piter.replace(settle_no_missing_pool=True)
    assert settle(free, [24, 10, 20], [0, 0, 0], W()) == [
        Fraction(160, 3), Fraction(-80, 3), Fraction(-80, 3)]


@settings(max_examples=60, deadline=None)
@given(
    pools=st.lists(st.integers(0, 30), min_size=3, max_size=3),
    mountains=st.lists(st.integers(0, 60), min_size=3, max_size=3),
    whists=st.lists(st.integers(0, 100), min_size=9, max_size=9),
    divisor=st.sampled_from(["players", "players_less_one"]),
    uncharged=st.booleans(),
    kept=st.booleans(),
    halves=st.booleans(),
)
def test_settlement_sums_to_zero_under_every_choice(
        pools, mountains, whists, divisor, uncharged, kept, halves):
    rules = SOCHI.replace(settle_divisor=divisor, settle_no_missing_pool=uncharged,
                          pool_overflow="kept" if kept else "mountain_then_opponents")
    matrix = [whists[0:3], whists[3:6], whists[6:9]]
    if halves:  # the exact-fraction path gives what the integer one does
        exact = settle(rules, [Fraction(p) for p in pools], mountains, matrix)
        assert exact == settle(rules, pools, mountains, matrix)
    result = settle(rules, pools, mountains, matrix)
    assert sum(result) == 0
    d = 2 if divisor == "players_less_one" else 3
    plain = settle(SOCHI.replace(settle_no_missing_pool=uncharged,
                                 pool_overflow=rules.pool_overflow), pools, mountains, matrix)
    net = [sum(matrix[i]) - sum(matrix[j][i] for j in range(3)) for i in range(3)]
    assert [(r - w) * d for r, w in zip(result, net, strict=True)] == [
        (p - w) * 3 for p, w in zip(plain, net, strict=True)]


# --- 5. the rest --------------------------------------------------------------------------------


def test_played_half_whist_capped_at_half_the_quota():
    # Sochi with half_whist_played: 6♠ (v=2), B passes, C half-whists, B passes again; C
    # plays out alone for half the quota, 2.  6–1–3: the defence took 4; C writes 4×2=8.
    # half_whist_capped: C writes for at most 2 tricks, 2×2=4.  A 2 pool either way.
    played = SOCHI.replace(half_whist_played=True)
    capped = played.replace(half_whist_capped=True)
    o = contract("6S", (6, 1, 3), (2,), defence=HALF_CALLS, half=2)
    assert state(play(played, EMPTY, o)) == ([2, 0, 0], [0, 0, 0], W(CA=8))
    sheet = play(capped, EMPTY, o)
    assert state(sheet) == ([2, 0, 0], [0, 0, 0], W(CA=4))
    assert "C's half-whist writes at most 2 tricks" in sheet.entries[0].summary
    # 5–2–3 fails by 1: A 2 mountain; prize 2 from B and from C; C's tricks 5×2=10 (C 12),
    # capped 2×2=4 (C 6).
    failed = contract("6S", (5, 2, 3), (2,), defence=HALF_CALLS, half=2)
    assert state(play(played, EMPTY, failed)) == ([0, 0, 0], [2, 0, 0], W(BA=2, CA=12))
    assert state(play(capped, EMPTY, failed)) == ([0, 0, 0], [2, 0, 0], W(BA=2, CA=6))
    # 8–1–1: the defence took 2, no more than the cap: C writes 2×2=4 either way.
    fits = contract("6S", (8, 1, 1), (2,), defence=HALF_CALLS, half=2)
    assert state(play(capped, EMPTY, fits)) == state(play(played, EMPTY, fits)) == (
        [2, 0, 0], [0, 0, 0], W(CA=4))
    # An ordinary lone whister is not capped: 6–1–3 with B passing and C whisting: C 8.
    lone = contract("6S", (6, 1, 3), (2,))
    assert state(play(capped, EMPTY, lone)) == ([2, 0, 0], [0, 0, 0], W(CA=8))


def test_second_whister_owes_a_trick_of_his_own_against_eight():
    # 8♠ (v=6) 8–2–0, both whist: the pair took 2 of its 1.  second: nobody pays.
    # second_own: C, the second whister, took none of his own: 6 mountain.  B writes 12.
    rules = SOCHI.replace(responsible_at_8plus="second_own")
    o = contract("8S", (8, 2, 0))
    assert state(play(SOCHI, EMPTY, o)) == ([6, 0, 0], [0, 0, 0], W(BA=12))
    sheet = play(rules, EMPTY, o)
    assert state(sheet) == ([6, 0, 0], [0, 0, 6], W(BA=12))
    assert sheet.entries[0].short == (2,)
    # 8–0–2: C took his trick; B, the first whister, owes nothing of his own (each would
    # charge B 6).  C writes 2×6=12.
    o = contract("8S", (8, 0, 2))
    assert state(play(rules, EMPTY, o)) == ([6, 0, 0], [0, 0, 0], W(CA=12))
    each = SOCHI.replace(responsible_at_8plus="each")
    assert state(play(each, EMPTY, o)) == ([6, 0, 0], [0, 6, 0], W(CA=12))
    # Against a 6 or 7 the usual shares hold: 7♥ (v=4) 9–1–0, the pair took 1 of its 2,
    # C short 1 of his share of 1: 4 mountain; B writes 1×4=4.
    seven = contract("7H", (9, 1, 0))
    assert state(play(rules, EMPTY, seven)) == state(play(SOCHI, EMPTY, seven)) == (
        [4, 0, 0], [0, 0, 4], W(BA=4))


def test_failed_checked_ten_earns_no_prize():
    # VMK checks tens (10 prize an undertrick).  10NT (v=10) 9–1–0: A fails by 1, 10
    # mountain; VMK: B and C write the prize, 10 each.  checked_ten_no_prize: nothing but
    # A's mountain.  With checked_ten_whists B still writes his trick, 1×10=10.
    vmk = Rules.preset("vmk")
    o = contract("10NT", (9, 1, 0), (), defence=())
    assert state(play(vmk, EMPTY, o)) == ([0, 0, 0], [10, 0, 0], W(BA=10, CA=10))
    rules = vmk.replace(checked_ten_no_prize=True)
    sheet = play(rules, EMPTY, o)
    assert state(sheet) == ([0, 0, 0], [10, 0, 0], W())
    assert sheet.entries[0].summary == "A failed 10NT by 1 (+10 mountain); no undertrick prize on A"
    both = rules.replace(checked_ten_whists=True)
    assert state(play(both, EMPTY, o)) == ([0, 0, 0], [10, 0, 0], W(BA=10))
    # A failed 9 is whisted as usual: 9♠ (v=8) 8–1–1: 8 mountain; prize 10 each and 1×8.
    nine = contract("9S", (8, 1, 1))
    assert state(play(rules, EMPTY, nine)) == ([0, 0, 0], [8, 0, 0], W(BA=18, CA=18))


def test_gentlemanly_split_gives_the_odd_trick_to_the_whister():
    # Leningrad (gentlemanly, whists and mountain doubled).  7♥ (v=4, 8 whists a trick)
    # 5–3–2, B whists alone, C passes: A fails by 2, 4×2×2=16 mountain; prize 8×2=16 from
    # each.  The defence's 5 tricks are 40 whists: Leningrad shares them 20 and 20 (B 36,
    # C 36); gentlemanly_odd_trick: 3 tricks to B (24), 2 to C (16): B 40, C 32.
    leningrad = Rules.preset("leningrad")
    o = contract("7H", (5, 3, 2), (1,))
    assert state(play(leningrad, EMPTY, o)) == ([0, 0, 0], [16, 0, 0], W(BA=36, CA=36))
    rules = leningrad.replace(gentlemanly_odd_trick=True)
    assert state(play(rules, EMPTY, o)) == ([0, 0, 0], [16, 0, 0], W(BA=40, CA=32))
    # An even number is split as before: 6–3–1 fails by 1: 8 mountain, prize 8 each,
    # 4 tricks 32 whists, 16 and 16: B 24, C 24.
    even = contract("7H", (6, 3, 1), (1,))
    assert state(play(rules, EMPTY, even)) == state(play(leningrad, EMPTY, even)) == (
        [0, 0, 0], [8, 0, 0], W(BA=24, CA=24))


def test_rostov_failed_contract_without_mountain():
    # Rostov (003).  7♥ (v=4) 5–3–2, both whist: A fails by 2.  Rostov: 2×4=8 mountain;
    # B writes prize 8 and tricks 12 (20), C 8 and 8 (16).  failed_no_mountain: no mountain,
    # the same whists.
    rostov = Rules.preset("rostov")
    o = contract("7H", (5, 3, 2))
    assert state(play(rostov, EMPTY, o)) == ([0, 0, 0], [8, 0, 0], W(BA=20, CA=16))
    rules = rostov.replace(failed_no_mountain=True)
    sheet = play(rules, EMPTY, o)
    assert state(sheet) == ([0, 0, 0], [0, 0, 0], W(BA=20, CA=16))
    assert sheet.entries[0].summary.startswith("A failed 7♥ by 2 (no mountain)")
    # A failed misère keeps its mountain: 1 trick, 10.
    misere = DealOutcome("misere", 2, 3, 0, Bid.parse("MISERE"), (), (), None, None,
                         (1, 5, 4))
    assert state(play(rules, EMPTY, misere)) == ([0, 0, 0], [10, 0, 0], W())


# --- refused combinations -----------------------------------------------------------------------


REFUSED = [
    ("kazakhstan", {"over_greedy": True, "responsible_at_8plus": "each_if_short"},
     ("responsible_at_8plus", "over_greedy")),
    ("sochi", {"shortage": "none", "responsible_at_8plus": "second_own"},
     ("responsible_at_8plus", "shortage")),
    ("piter", {"pool_help_to": "lowest"}, ("pool_help_to", "pool_help")),
    ("piter", {"pool_help_closed_before": True}, ("pool_help_closed_before", "pool_help")),
    ("sochi", {"consolation_per_undertrick": 0, "failed_whists": "prize_only"},
     ("failed_whists", "consolation_per_undertrick")),
    ("sochi", {"consolation_per_undertrick": 0, "failed_no_mountain": True},
     ("failed_no_mountain", "consolation_per_undertrick")),
    ("rostov", {"failed_whists": "tricks_only", "failed_no_mountain": True},
     ("failed_no_mountain", "failed_whists")),
    ("vmk", {"checked_ten_no_prize": True, "failed_no_mountain": True},
     ("failed_no_mountain", "checked_ten_no_prize")),
    ("sochi", {"half_whist_capped": True}, ("half_whist_capped", "half_whist_played")),
    ("sochi", {"checked_ten_no_prize": True}, ("checked_ten_no_prize", "tens_whisted")),
    ("vmk", {"checked_ten_no_prize": True, "failed_whists": "tricks_only"},
     ("checked_ten_no_prize", "failed_whists")),
    ("sochi", {"gentlemanly_odd_trick": True}, ("gentlemanly_odd_trick", "whist")),
    ("leningrad", {"settle_no_missing_pool": True},
     ("settle_no_missing_pool", "pool_doubled_at_settlement")),
]


@pytest.mark.parametrize(("preset", "overrides", "names"), REFUSED)
def test_combinations_that_make_no_sense_are_refused_naming_both(preset, overrides, names):
    with pytest.raises(RulesError) as caught:
        Rules.preset(preset, **overrides)
    message = str(caught.value)
    assert all(name in message for name in names), message
    ru = render_rules_error(caught.value, "ru")  # said in Russian with the editor's titles
    for name in names:
        assert f"«{i18n.pgettext('option-title', name, 'ru')}»" in ru, ru
    assert "{" not in ru


def test_sensible_neighbours_are_allowed():
    # Piter keeps points beyond the pool, so its doubling still has work without the missing
    # pool: allowed; so are Moscow's prize with no mountain, and prize_only in Leningrad.
    assert Rules.preset("piter", settle_no_missing_pool=True).settle_no_missing_pool
    assert Rules.preset("moscow", failed_no_mountain=True).failed_no_mountain
    assert Rules.preset("leningrad", failed_whists="prize_only").failed_whists == "prize_only"
    assert Rules.preset("leningrad", pool_doubled_at_settlement=False,
                        settle_no_missing_pool=True).settle_no_missing_pool


def test_a_refused_combination_reaches_the_web_settings_as_the_engine_says_it():
    with pytest.raises(RulesError, match="half_whist_capped needs half_whist_played"):
        rules_from_settings({"preset": "sochi", "half_whist_capped": True})
    rules = rules_from_settings({"preset": "sochi", "half_whist_played": True,
                                 "half_whist_capped": True, "pool_help_to": "lowest"})
    assert rules.half_whist_capped and rules.pool_help_to == "lowest"
    assert Rules.from_json(rules.to_json()) == rules


# --- the options as data: schema, table, editor, catalogues; presets unchanged ----------------


NEW_CHOICES = {"pool_help_to": ("highest_only", "lowest"),
               "failed_whists": ("prize_only", "tricks_only"),
               "settle_divisor": ("players_less_one",),
               "responsible_at_8plus": ("each_if_short", "second_own")}


def test_every_new_option_is_in_the_schema_the_table_and_the_editor_in_both_languages():
    schema = {e["name"]: e for e in options_schema()}
    editor = {e["name"]: e for e in editor_schema()}
    editor_ru = {e["name"]: e for e in editor_schema("ru")}
    table = options_table()
    choices = option_choices()
    for name in (*MORE_HOUSE_OPTIONS, "responsible_at_8plus"):
        entry = schema[name]
        assert entry["doc"] and "\n" not in entry["doc"]
        assert f"| `{name}` |" in table
        assert editor[name]["control"] in ("checkbox", "select")
        assert not editor[name]["fixed"] and editor[name]["only_for"] is None
        ru = editor_ru[name]
        assert ru["title"] != name and ru["doc"] != entry["doc"], name
        for text in (ru["title"], ru["doc"], *ru.get("labels", ())):
            assert any("а" <= ch <= "я" for ch in text.lower()), (name, text)
        if name in NEW_CHOICES:
            for choice in NEW_CHOICES[name]:
                assert choice in choices[name] and choice in entry["choices"]
                assert choice in editor[name]["choices"]
        else:
            assert entry["type"] == "bool" and entry["default"] is False
    assert editor_ru["pool_help_to"]["labels"] == [
        "самой большой", "только самой большой", "самой далёкой от закрытия"]


def test_no_preset_uses_a_new_option():
    for name, rules in {**PRESETS, **VARIANTS}.items():
        assert rules.responsible_at_8plus not in ("each_if_short", "second_own"), name
        assert rules.pool_help_to == "highest" and rules.failed_whists == "both", name
        assert rules.settle_divisor == "players", name
        flags = [getattr(rules, o) for o in MORE_HOUSE_OPTIONS if o not in NEW_CHOICES]
        assert not any(flags), name
        assert Rules.from_json(rules.to_json()) == rules
        assert not set(rules.to_json()) & set(MORE_HOUSE_OPTIONS), name
