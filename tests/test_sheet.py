"""The pulya sheet, scored directly from DealOutcome values: every scoring path per preset.

Seats: A=0, B=1, C=2; the dealer is C unless said otherwise, so A is first hand and,
as declarer, is defended by B (first defender) then C.  Each test states the
hand-worked sheet in a comment: v is the contract value, ws the whist scale, ms the
mountain scale (Sochi/Rostov 1, Leningrad 2).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from preferans.bids import MISERE, Bid
from preferans.outcome import DealOutcome
from preferans.rules import Rules
from preferans.scoring import ScoringError, next_allpass_streak, score_deal
from preferans.sheet import Sheet, json_number, settle

PRESETS = ("sochi", "leningrad", "rostov")


def contract(
    bid: str,
    tricks: tuple[int, ...],
    whisters: tuple[int, ...] = (1, 2),
    *,
    declarer: int = 0,
    dealer: int = 2,
    defence: tuple[str, ...] | None = None,
    half: int | None = None,
    open_defence: bool | None = None,
    kind: str = "contract",
    players: int = 3,
) -> DealOutcome:
    """A DealOutcome for a trick contract (or passed/halfwhist with ``kind``)."""
    b = Bid.parse(bid)
    if defence is None:
        probe = DealOutcome("contract", dealer, players, declarer, b)
        defence = tuple("WHIST" if d in whisters else "PASS" for d in probe.defenders())
    return DealOutcome(
        kind,  # type: ignore[arg-type]
        dealer,
        players,
        declarer,
        b,
        defence,  # type: ignore[arg-type]
        whisters,
        half,
        open_defence if len(whisters) == 1 else None,
        tricks,
    )


def allpass(tricks: tuple[int, ...], dealer: int = 2) -> DealOutcome:
    return DealOutcome("allpass", dealer, len(tricks), tricks=tricks)


def misere(tricks: tuple[int, ...], declarer: int = 0) -> DealOutcome:
    return DealOutcome("misere", 2, 3, declarer, MISERE, tricks=tricks)


def state(sheet: Sheet) -> tuple[list, list, list]:
    """(pool, mountain, whists) as JSON numbers."""
    j = sheet.to_json()
    return j["pool"], j["mountain"], j["whists"]


def one(preset: str, outcome: DealOutcome, **overrides) -> Sheet:
    sheet = Sheet(Rules.preset(preset, **overrides), ("A", "B", "C"))
    sheet.record(outcome)
    return sheet


def W(**cells: int | float) -> list[list]:
    """A whists matrix from cells like AB=8 (A wrote 8 on B)."""
    m: list[list] = [[0, 0, 0], [0, 0, 0], [0, 0, 0]]
    for key, value in cells.items():
        m["ABC".index(key[0])]["ABC".index(key[1])] = value
    return m


# --- contract made --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        # 7♥ 7–2–1, both whist (001 §09): v=4, quota 2 met.  A pool 4; B 2×4=8, C 1×4=4.
        ("sochi", ([4, 0, 0], [0, 0, 0], W(BA=8, CA=4))),
        # Leningrad whists doubled: B 2×8=16, C 8.
        ("leningrad", ([4, 0, 0], [0, 0, 0], W(BA=16, CA=8))),
        ("rostov", ([4, 0, 0], [0, 0, 0], W(BA=8, CA=4))),
        ("guide", ([4, 0, 0], [0, 0, 0], W(BA=8, CA=4))),
    ],
)
def test_contract_made_two_whisters(preset, expected):
    assert state(one(preset, contract("7H", (7, 2, 1)))) == expected


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        # 6♠ 6–4–0, both whist: the defence's 4 meets the quota whatever the split, so C's
        # zero costs nothing.  A pool 2; B 4×2=8.
        ("sochi", ([2, 0, 0], [0, 0, 0], W(BA=8))),
        ("leningrad", ([2, 0, 0], [0, 0, 0], W(BA=16))),
        ("rostov", ([2, 0, 0], [0, 0, 0], W(BA=8))),
    ],
)
def test_two_whisters_no_shortage_four_nil(preset, expected):
    assert state(one(preset, contract("6S", (6, 4, 0)))) == expected


# --- contract set ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        # 7♥ 6–3–1, both whist (001 §09), set by one: A mountain 4×1=4; consolation 4 each:
        # B (3+1)×4=16, C (1+1)×4=8.
        ("sochi", ([0, 0, 0], [4, 0, 0], W(BA=16, CA=8))),
        # Leningrad: mountain 4×1×2=8; whists 8 per trick: B 3×8+8=32, C 8+8=16.
        ("leningrad", ([0, 0, 0], [8, 0, 0], W(BA=32, CA=16))),
        ("rostov", ([0, 0, 0], [4, 0, 0], W(BA=16, CA=8))),
        ("guide", ([0, 0, 0], [4, 0, 0], W(BA=16, CA=8))),
    ],
)
def test_contract_set_by_one(preset, expected):
    assert state(one(preset, contract("7H", (6, 3, 1)))) == expected


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        # 6♠ 4–3–3, both whist, set by two: A mountain 2×2=4; consolation 2×2=4 each:
        # B 3×2+4=10, C 10.
        ("sochi", ([0, 0, 0], [4, 0, 0], W(BA=10, CA=10))),
        # Leningrad: mountain 2×2×2=8; 4 per trick: B 12+8=20, C 20.
        ("leningrad", ([0, 0, 0], [8, 0, 0], W(BA=20, CA=20))),
        ("rostov", ([0, 0, 0], [4, 0, 0], W(BA=10, CA=10))),
    ],
)
def test_contract_set_by_two(preset, expected):
    assert state(one(preset, contract("6S", (4, 3, 3)))) == expected


def test_consolation_per_undertrick_option():
    # 7♥ 6–3–1 with a fixed 10 whists per undertrick: B 3×4+10=22, C 4+10=14.
    sheet = one("sochi", contract("7H", (6, 3, 1)), consolation_per_undertrick=10)
    assert state(sheet) == ([0, 0, 0], [4, 0, 0], W(BA=22, CA=14))


# --- lone whister ----------------------------------------------------------------------------


@pytest.mark.parametrize("open_defence", [True, False])
@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        # 001 §09: 6♠, B whists alone, A takes 5 (5–4–1): A mountain 2; B writes the whole
        # defence 5×2 plus consolation 2 = 12; C, the passer, only 2 consolation.
        ("sochi", ([0, 0, 0], [2, 0, 0], W(BA=12, CA=2))),
        # Leningrad (gentlemanly): mountain 2×2=4; the trick whists 5×4=20 are shared
        # 10/10 between whister and passer, each also gets 4 consolation: 14 and 14.
        ("leningrad", ([0, 0, 0], [4, 0, 0], W(BA=14, CA=14))),
        ("rostov", ([0, 0, 0], [2, 0, 0], W(BA=12, CA=2))),
        ("guide", ([0, 0, 0], [2, 0, 0], W(BA=12, CA=2))),
    ],
)
def test_lone_whister_contract_set(preset, expected, open_defence):
    outcome = contract("6S", (5, 4, 1), (1,), open_defence=open_defence)
    assert state(one(preset, outcome)) == expected


@pytest.mark.parametrize("open_defence", [True, False])
@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        # 6♠ 6–3–1, B whists alone, contract made: A pool 2; B writes both defending hands'
        # tricks (3+1)×2=8 — also in gentlemanly whist, which shares only when it fails.
        ("sochi", ([2, 0, 0], [0, 0, 0], W(BA=8))),
        ("leningrad", ([2, 0, 0], [0, 0, 0], W(BA=16))),
        ("rostov", ([2, 0, 0], [0, 0, 0], W(BA=8))),
    ],
)
def test_lone_whister_contract_made(preset, expected, open_defence):
    outcome = contract("6S", (6, 3, 1), (1,), open_defence=open_defence)
    assert state(one(preset, outcome)) == expected


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        # 6♠ 7–2–1, C whists alone (B passed): defence 3 of quota 4, C answers for 1.
        # Sochi: A pool 2; C writes 3×2=6; C mountain 2×1=2 (full).
        ("sochi", ([2, 0, 0], [0, 0, 2], W(CA=6))),
        # Leningrad: C writes 3×4=12; half of 2×1×2: mountain 2.
        ("leningrad", ([2, 0, 0], [0, 0, 2], W(CA=12))),
        # Rostov: half of 2 in the mountain (1), and A writes the other half, 1 whist, on C.
        ("rostov", ([2, 0, 0], [0, 0, 1], W(CA=6, AC=1))),
    ],
)
def test_lone_whister_short_of_quota(preset, expected):
    outcome = contract("6S", (7, 2, 1), (2,), open_defence=False)
    assert state(one(preset, outcome)) == expected


# --- two whisters short ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        # 001 §09: 6♣ 8–2–0, both whist; defence 2 < 4.  B has his 2; C is 2 short.
        # A pool 2; B writes 2×2=4; C mountain 2×2=4.
        ("sochi", ([2, 0, 0], [0, 0, 4], W(BA=4))),
        # Leningrad: B 2×4=8; C half of 2×2×2=8: 4.
        ("leningrad", ([2, 0, 0], [0, 0, 4], W(BA=8))),
        # Rostov: C mountain 2 and A writes 2 whists on C.
        ("rostov", ([2, 0, 0], [0, 0, 2], W(BA=4, AC=2))),
        ("guide", ([2, 0, 0], [0, 0, 4], W(BA=4))),
    ],
)
def test_two_whisters_short_at_six(preset, expected):
    assert state(one(preset, contract("6C", (8, 2, 0)))) == expected


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        # 7♦ 9–0–1, both whist; defence 1 < 2, each answers for 1: B short 1, C fine.
        # Sochi: A pool 4; C writes 4; B mountain 4.
        ("sochi", ([4, 0, 0], [0, 4, 0], W(CA=4))),
        # Leningrad: C 8; B half of 4×2=8: 4.
        ("leningrad", ([4, 0, 0], [0, 4, 0], W(CA=8))),
        # Rostov: B mountain 2, A writes 2 on B.
        ("rostov", ([4, 0, 0], [0, 2, 0], W(CA=4, AB=2))),
    ],
)
def test_two_whisters_short_at_seven(preset, expected):
    assert state(one(preset, contract("7D", (9, 0, 1)))) == expected


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        # 8♦ 10–0–0, both whist; quota 1 missed; the second whister (C) answers for it.
        # Sochi: A pool 6; C mountain 6.
        ("sochi", ([6, 0, 0], [0, 0, 6], W())),
        # Leningrad: half of 6×2 = 6.
        ("leningrad", ([6, 0, 0], [0, 0, 6], W())),
        # Rostov: 3 in the mountain, A writes 3 whists on C.
        ("rostov", ([6, 0, 0], [0, 0, 3], W(AC=3))),
    ],
)
def test_two_whisters_short_at_eight_second_answers(preset, expected):
    assert state(one(preset, contract("8D", (10, 0, 0)))) == expected


def test_two_whisters_short_at_eight_both_share():
    # responsible_at_8plus="both": 8♦ 10–0–0, each answers for half a trick: 6×½=3 each.
    sheet = one("sochi", contract("8D", (10, 0, 0)), responsible_at_8plus="both")
    assert state(sheet) == ([6, 0, 0], [0, 3, 3], W())


def test_whisted_ten_quota_one():
    # 10NT 10–0–0, both whist (tens whisted, quota 1): A pool 10; C (second) mountain 10.
    assert state(one("sochi", contract("10NT", (10, 0, 0)))) == ([10, 0, 0], [0, 0, 10], W())


def test_unwhisted_ten_is_checked_without_whists():
    # tens_whisted=False, 10♠ 9–1–0, nobody whists: A mountain 10; consolation 10 from each.
    sheet = one("sochi", contract("10S", (9, 1, 0), ()), tens_whisted=False)
    assert state(sheet) == ([0, 0, 0], [10, 0, 0], W(BA=10, CA=10))


# --- passed out, half-whist ------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_passed_out(preset):
    # 7♥, both pass: A pool 4, nothing else, in every convention.
    outcome = contract("7H", (0, 0, 0), (), kind="passed")
    assert state(one(preset, outcome)) == ([4, 0, 0], [0, 0, 0], W())


@pytest.mark.parametrize(
    ("preset", "bid", "expected"),
    [
        # Half-whist stands: A's contract counts (pool v); C writes v × half the quota:
        # against 6: 2×2=4, against 7: 4×1=4 (001 §08: "4 whists either way").
        ("sochi", "6S", ([2, 0, 0], [0, 0, 0], W(CA=4))),
        ("sochi", "7H", ([4, 0, 0], [0, 0, 0], W(CA=4))),
        # Leningrad doubles whists: 8.
        ("leningrad", "6S", ([2, 0, 0], [0, 0, 0], W(CA=8))),
        ("leningrad", "7H", ([4, 0, 0], [0, 0, 0], W(CA=8))),
        ("rostov", "6S", ([2, 0, 0], [0, 0, 0], W(CA=4))),
        ("rostov", "7H", ([4, 0, 0], [0, 0, 0], W(CA=4))),
    ],
)
def test_half_whist_stands(preset, bid, expected):
    outcome = contract(bid, (0, 0, 0), (), defence=("PASS", "HALF"), half=2, kind="halfwhist")
    assert state(one(preset, outcome)) == expected


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        # Reopened half-whist (PASS, HALF, WHIST): B defends alone, 6♠ 5–4–1 fails.
        # Sochi: A mountain 2; B writes 5×2 + his consolation 2 + C's consolation 2 = 14;
        # C, whose half-whist was overturned, gets nothing (001 §08).
        ("sochi", ([0, 0, 0], [2, 0, 0], W(BA=14))),
        # Leningrad: mountain 4; B: 5×4=20 (the half-whister takes no share) + 4 + 4 = 28.
        ("leningrad", ([0, 0, 0], [4, 0, 0], W(BA=28))),
        ("rostov", ([0, 0, 0], [2, 0, 0], W(BA=14))),
    ],
)
def test_half_whist_reopened_and_set(preset, expected):
    outcome = contract(
        "6S", (5, 4, 1), (1,), defence=("PASS", "HALF", "WHIST"), half=2, open_defence=True
    )
    assert state(one(preset, outcome)) == expected


@pytest.mark.parametrize("preset", PRESETS)
def test_half_whist_reopened_and_made(preset):
    # Reopened, 6♠ 6–3–1 made: A pool 2; B writes (3+1)×2 (×2 Leningrad); C nothing.
    outcome = contract(
        "6S", (6, 3, 1), (1,), defence=("PASS", "HALF", "WHIST"), half=2, open_defence=False
    )
    ws = Rules.preset(preset).whist_scale
    assert state(one(preset, outcome)) == ([2, 0, 0], [0, 0, 0], W(BA=8 * ws))


# --- misère ----------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_misere_made(preset):
    # No trick: A pool 10; no whists anywhere.
    assert state(one(preset, misere((0, 5, 5)))) == ([10, 0, 0], [0, 0, 0], W())


@pytest.mark.parametrize(("preset", "mountain"), [("sochi", 20), ("leningrad", 40), ("rostov", 20)])
def test_misere_failed_two_tricks(preset, mountain):
    # 001 §10: two tricks cost 2×10=20 (Leningrad doubles: 40); no whists, no consolation.
    assert state(one(preset, misere((2, 4, 4)))) == ([0, 0, 0], [mountain, 0, 0], W())


# --- all-pass --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        # 4–3–3, first all-pass (stake 1).  Sochi: 1 mountain per trick: 4, 3, 3.
        ("sochi", ([0, 0, 0], [4, 3, 3], W())),
        # Leningrad: 2 per trick: 8, 6, 6.
        ("leningrad", ([0, 0, 0], [8, 6, 6], W())),
        # Rostov: B and C tie for fewest; they share 5×4=20 whists on A: 10 each.
        ("rostov", ([0, 0, 0], [0, 0, 0], W(BA=10, CA=10))),
        # 001 §11 (guide, amnesty): 4–3–3 becomes 1–0–0; no pool point (nobody took 0).
        ("guide", ([0, 0, 0], [1, 0, 0], W())),
    ],
)
def test_allpass_without_zero(preset, expected):
    sheet = one(preset, allpass((4, 3, 3)))
    assert state(sheet) == expected
    assert sheet.entries[0].stake == 1


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        # 0–5–5: A took no trick: 1 pool point; B and C 5 mountain each.
        ("sochi", ([1, 0, 0], [0, 5, 5], W())),
        ("leningrad", ([1, 0, 0], [0, 10, 10], W())),
        # Rostov: A has fewest and writes 5×5=25 on each of B and C, plus his pool point.
        ("rostov", ([1, 0, 0], [0, 0, 0], W(AB=25, AC=25))),
        # 001 §11 guide: 0–5–5 gives A 1 pool point and the others 5 dump points each.
        ("guide", ([1, 0, 0], [0, 5, 5], W())),
    ],
)
def test_allpass_with_zero(preset, expected):
    assert state(one(preset, allpass((0, 5, 5)))) == expected


@pytest.mark.parametrize(
    ("preset", "expected", "stakes"),
    [
        # Three all-passes in a row, 4–3–3, 2–3–5, 3–3–4.
        # Sochi stakes 1, 2, 3: 4,3,3 + 4,6,10 + 9,9,12 = 17, 18, 25.
        ("sochi", ([0, 0, 0], [17, 18, 25], W()), [1, 2, 3]),
        # Leningrad 2 per trick, stakes 1, 2, 4: 8,6,6 + 8,12,20 + 24,24,32 = 40, 42, 58.
        ("leningrad", ([0, 0, 0], [40, 42, 58], W()), [1, 2, 4]),
        # Rostov 5 per trick, stakes 1, 2, 3:
        #   4–3–3: B, C share 20 on A: BA 10, CA 10;
        #   2–3–5 at 10 per trick: A writes 30 on B, 50 on C;
        #   3–3–4 at 15 per trick: A and B share 60 on C: 30 each.
        ("rostov", ([0, 0, 0], [0, 0, 0], W(AB=30, AC=80, BA=10, BC=30, CA=10)), [1, 2, 3]),
        # Guide: no escalation; amnesty: 1,0,0 + 0,1,3 + 0,0,1 = 1, 1, 4.
        ("guide", ([0, 0, 0], [1, 1, 4], W()), [1, 1, 1]),
    ],
)
def test_allpass_second_and_third_in_a_row(preset, expected, stakes):
    sheet = Sheet(Rules.preset(preset), ("A", "B", "C"))
    for dealer, tricks in enumerate([(4, 3, 3), (2, 3, 5), (3, 3, 4)]):
        sheet.record(allpass(tricks, dealer=dealer))
    assert state(sheet) == expected
    assert [e.stake for e in sheet.entries] == stakes
    assert sheet.allpass_streak == 3
    rules = Rules.preset(preset)
    assert sheet.min_bid_level == rules.min_bid_level(3)


def test_allpass_progression_last_step_repeats():
    # Sochi: a fourth all-pass in a row still has stake 3: 2–4–4 → 6, 12, 12.
    sheet = Sheet(Rules.preset("sochi"), ("A", "B", "C"))
    for _ in range(3):
        sheet.record(allpass((4, 3, 3)))
    entry = sheet.record(allpass((2, 4, 4)))
    assert entry.stake == 3
    assert [int(x) for x in entry.mountain] == [6, 12, 12]


def test_rostov_allpass_zero_writes_on_both():
    # Rostov 5–5–0: C has fewest, writes 5×5=25 on each of A and B, and earns 1 pool point.
    sheet = one("rostov", allpass((5, 5, 0)))
    assert state(sheet) == ([0, 0, 1], [0, 0, 0], W(CA=25, CB=25))


def test_allpass_streak_exits():
    rules = Rules.preset("sochi")
    made = contract("7H", (7, 2, 1))
    failed = contract("7H", (6, 3, 1))
    passed = contract("7H", (0, 0, 0), (), kind="passed")
    m = misere((0, 5, 5))
    ap = allpass((4, 3, 3))
    assert next_allpass_streak(rules, ap, 2) == 3
    for o in (made, failed, passed, m):
        assert next_allpass_streak(rules, o, 2) == 0
    strict = rules.replace(
        allpass_exit_on_failed=False, allpass_exit_on_misere=False, allpass_exit_on_unwhisted=False
    )
    assert next_allpass_streak(strict, made, 2) == 0
    for o in (failed, passed, m):
        assert next_allpass_streak(strict, o, 2) == 2


def test_allpass_stake_follows_the_streak_on_the_sheet():
    # Sochi: all-pass (stake 1), passed-out 6♠ ends the streak, all-pass again at stake 1;
    # with allpass_exit_on_unwhisted=False the second all-pass is at stake 2.
    for exit_unwhisted, stake in ((True, 1), (False, 2)):
        sheet = Sheet(Rules.preset("sochi", allpass_exit_on_unwhisted=exit_unwhisted))
        sheet.record(allpass((4, 3, 3)))
        assert sheet.min_bid_level == 7
        sheet.record(contract("7S", (0, 0, 0), (), kind="passed", declarer=1, dealer=0))
        assert sheet.entries[-1].allpass_streak == (0 if exit_unwhisted else 1)
        assert sheet.record(allpass((4, 3, 3), dealer=1)).stake == stake


# --- pool closing ----------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ("guide", *PRESETS))
def test_pool_help_001_section_13(preset):
    # 001 §13: pools 19, 17, 14; A makes an eight worth 6 (passed out here): 1 closes A's,
    # 3 go to B (the highest unclosed), 2 to C.  Pools 20, 20, 16; A writes 30 on B, 20 on C.
    sheet = Sheet(Rules.preset(preset), ("A", "B", "C"))
    sheet.pool = [Fraction(19), Fraction(17), Fraction(14)]
    entry = sheet.record(contract("8S", (0, 0, 0), (), kind="passed"))
    assert state(sheet) == ([20, 20, 16], [0, 0, 0], W(AB=30, AC=20))
    assert [int(x) for x in entry.pool] == [1, 3, 2]
    assert entry.summary == (
        "A made 8♠ unplayed (+6 pool); A closed 3 of B's pool (30 whists on B); "
        "A closed 2 of C's pool (20 whists on C)"
    )
    assert not sheet.finished


def test_pool_help_tie_goes_clockwise_from_scorer():
    # Pools 20, 15, 15: A scores 2 (6♠ passed): B and C tie; B is next clockwise from A.
    # Then pools 15, 15, 20 and C scores 2: A is next clockwise from C.
    sheet = Sheet(Rules.preset("sochi"))
    sheet.pool = [Fraction(20), Fraction(15), Fraction(15)]
    sheet.record(contract("6S", (0, 0, 0), (), kind="passed"))
    assert state(sheet)[0] == [20, 17, 15]
    sheet.pool = [Fraction(15), Fraction(15), Fraction(20)]
    sheet.record(contract("6S", (0, 0, 0), (), kind="passed", declarer=2, dealer=1))
    assert state(sheet)[0] == [17, 15, 20]
    assert state(sheet)[2] == W(AB=20, CA=20)


@pytest.mark.parametrize(("allowed", "pools", "whists"), [
    (True, [20, 10, 16], W(BA=4, AC=10)),
    (False, [20, 11, 15], W(BA=4, AB=10)),
])
def test_pool_help_to_a_short_whister(allowed, pools, whists):
    # Pools 19, 10, 15; 6♣ 8–2–0, C is short by 2 (mountain 4).  A's 2 points: 1 closes
    # his pool; the other goes to C (highest unclosed, 15) — unless a whister penalised on
    # this deal cannot be helped, then to B.
    sheet = Sheet(Rules.preset("sochi", pool_help_whister_short=allowed))
    sheet.pool = [Fraction(19), Fraction(10), Fraction(15)]
    sheet.record(contract("6C", (8, 2, 0)))
    assert state(sheet) == (pools, [0, 0, 4], whists)


@pytest.mark.parametrize(
    ("overflow", "mountain"),
    [
        # Pools 20, 20, 19, mountains 3, 0, 0; A makes 7♥ (4): 1 helps C (10 whists), 3 left.
        # Then B makes 6♠ (2) with every pool closed.
        # mountain_then_opponents: A's 3 off his mountain 3 → 0; B has no mountain, so 2
        # onto each opponent: A 2, C 2.
        ("mountain_then_opponents", [2, 0, 2]),
        # mountain: off one's own mountain; B's 2 are lost.
        ("mountain", [0, 0, 0]),
        # lost: A's 3 and B's 2 are lost; A keeps his mountain 3.
        ("lost", [3, 0, 0]),
    ],
)
def test_pool_overflow(overflow, mountain):
    sheet = Sheet(Rules.preset("sochi", pool_overflow=overflow))
    sheet.pool = [Fraction(20), Fraction(20), Fraction(19)]
    sheet.mountain = [Fraction(3), Fraction(0), Fraction(0)]
    sheet.record(contract("7H", (0, 0, 0), (), kind="passed"))
    assert state(sheet)[0] == [20, 20, 20]
    assert sheet.finished
    sheet.record(contract("6S", (0, 0, 0), (), kind="passed", declarer=1, dealer=0))
    assert state(sheet) == ([20, 20, 20], mountain, W(AC=10))


def test_pool_overflow_partial_mountain():
    # All pools closed, A mountain 1, A makes 6♠ (2): 1 off his mountain, 1 onto B's and C's.
    sheet = Sheet(Rules.preset("sochi"))
    sheet.pool = [Fraction(20)] * 3
    sheet.mountain = [Fraction(1), Fraction(5), Fraction(0)]
    entry = sheet.record(contract("6S", (0, 0, 0), (), kind="passed"))
    assert state(sheet)[1] == [0, 6, 1]
    assert [int(x) for x in entry.mountain] == [-1, 1, 1]


def test_pool_without_help_goes_to_overflow():
    # pool_help=False: pools 19, 0, 0; A makes 7♥ (4): 1 closes his pool, 3 come off
    # his mountain of 5.
    sheet = Sheet(Rules.preset("sochi", pool_help=False))
    sheet.pool = [Fraction(19), Fraction(0), Fraction(0)]
    sheet.mountain = [Fraction(5), Fraction(0), Fraction(0)]
    sheet.record(contract("7H", (0, 0, 0), (), kind="passed"))
    assert state(sheet) == ([20, 0, 0], [2, 0, 0], W())


def test_allpass_zero_pool_point_goes_through_closing():
    # Pools 20, 18, 10; all-pass 0–5–5 (Sochi): A's pool point helps B (highest unclosed,
    # 18 → 19), A writes 10 whists on B; B and C 5 mountain each.
    sheet = Sheet(Rules.preset("sochi"))
    sheet.pool = [Fraction(20), Fraction(18), Fraction(10)]
    sheet.record(allpass((0, 5, 5)))
    assert state(sheet) == ([20, 19, 10], [0, 5, 5], W(AB=10))


def test_game_finishes_when_every_pool_closes():
    # Pool 10: A, B, C each make a passed-out 10♠ (10 points): finished after the third.
    sheet = Sheet(Rules.preset("sochi", pool=10))
    for seat in range(3):
        assert not sheet.finished
        sheet.record(contract("10S", (0, 0, 0), (), kind="passed", declarer=seat,
                              dealer=(seat + 2) % 3))
    assert sheet.finished
    assert state(sheet)[0] == [10, 10, 10]
    assert sheet.to_json()["finished"] is True
    assert sheet.balance() == [0, 0, 0]


# --- settlement ------------------------------------------------------------------------------


def test_settlement_records_md_example():
    # records.md, pool 20: A 7♥ made, B whisted alone and took 3: pools 4, 0, 0; B 12 on A.
    # Early stop: mountains 16, 20, 20; average 56/3; ×10: 26.667, −13.333, −13.333;
    # whists −12, +12, 0 → 14.667, −1.333, −13.333.
    sheet = one("sochi", contract("7H", (7, 3, 0), (1,), open_defence=False))
    assert sheet.balance() == [Fraction(44, 3), Fraction(-4, 3), Fraction(-40, 3)]
    assert sheet.to_json() == {
        "format": "preferans-sheet/1",
        "players": ["A", "B", "C"],
        "pool": [4, 0, 0],
        "mountain": [0, 0, 0],
        "whists": [[0, 0, 0], [12, 0, 0], [0, 0, 0]],
        "balance": [14.667, -1.333, -13.333],
        "finished": False,
        "allpass_streak": 0,
        "deals": [
            {
                "dealer": 2, "kind": "contract", "declarer": 0, "contract": "7H",
                "defence": ["WHIST", "PASS"], "tricks": [7, 3, 0],
                "change": {"pool": [4, 0, 0], "mountain": [0, 0, 0],
                           "whists": [[0, 0, 0], [12, 0, 0], [0, 0, 0]]},
                "stake": 1,
                "summary": "A made 7♥ (+4 pool); B wrote 12 whists on A",
                "balance_change": [14.667, -1.333, -13.333],
            }
        ],
    }


def test_settlement_finished_game_001_section_13():
    # All pools closed, mountains 10, 4, 1 (average 5): 10×(5−10)=−50, +10, +40;
    # whists A on B 30, B on C 12, C on A 6: A −50+30−6=−26, B 10+12−30=−8, C 40+6−12=34.
    rules = Rules.preset("guide")
    result = settle(rules, [20, 20, 20], [10, 4, 1], [[0, 30, 0], [0, 0, 12], [6, 0, 0]])
    assert result == [-26, -8, 34]
    assert sum(result) == 0


def test_settlement_leningrad_doubles_missing_pool():
    # Leningrad pool 20, pools 20, 10, 0, no mountain: missing doubled → 0, 20, 40;
    # average 20: +200, 0, −200.
    result = settle(Rules.preset("leningrad"), [20, 10, 0], [0, 0, 0], [[0] * 3] * 3)
    assert result == [200, 0, -200]


def test_balance_change_per_deal_sums_to_zero_and_adds_up():
    sheet = Sheet(Rules.preset("sochi"))
    sheet.record(contract("7H", (6, 3, 1)))
    sheet.record(allpass((4, 3, 3), dealer=0))
    sheet.record(contract("6C", (2, 0, 8), (0, 1), declarer=2, dealer=1))
    for entry in sheet.entries:
        assert sum(entry.balance_change) == 0
    totals = [sum(e.balance_change[i] for e in sheet.entries) for i in range(3)]
    start = settle(sheet.rules, [0] * 3, [0] * 3, [[0] * 3] * 3)
    assert [t + s for t, s in zip(totals, start, strict=True)] == sheet.balance()


def test_json_numbers():
    assert json_number(Fraction(4)) == 4 and isinstance(json_number(Fraction(4)), int)
    assert json_number(Fraction(44, 3)) == 14.667
    assert json_number(Fraction(-1, 2)) == -0.5


# --- four players ----------------------------------------------------------------------------


def test_four_players_dealer_gets_consolation():
    # Four players, D (3) deals and sits out; A declares 6♠, B whists alone, 5–4–1–0:
    # A mountain 2; B 5×2+2 = 12; C 2; D 2 consolation.
    # Balance (pool 20): missing pool 20, 20, 20, 20 + mountain 2 on A → 22, 20, 20, 20;
    # average 20.5: −15, +5, +5, +5; whists A −16, B +12, C +2, D +2 → −31, 17, 7, 7.
    rules = Rules.preset("sochi", players=4)
    sheet = Sheet(rules, ("A", "B", "C", "D"))
    outcome = DealOutcome("contract", 3, 4, 0, Bid.parse("6S"), ("WHIST", "PASS"), (1,),
                          None, False, (5, 4, 1, 0))
    sheet.record(outcome)
    j = sheet.to_json()
    assert j["mountain"] == [2, 0, 0, 0]
    assert j["whists"][1][0] == 12 and j["whists"][2][0] == 2 and j["whists"][3][0] == 2
    assert j["balance"] == [-31, 17, 7, 7]


def test_four_players_allpass_dealer_takes_talon_tricks():
    # Sochi, talon leads: D (dealer) credited with 2 tricks from the talon cards.
    # 3–3–2–2: mountains 3, 3, 2, 2.  Then 4–3–3–0 with D as dealer again? No: D took 0 →
    # the dealer's genuine zero earns a pool point (001 §14); stake 2 for the second.
    rules = Rules.preset("sochi", players=4)
    sheet = Sheet(rules, ("A", "B", "C", "D"))
    sheet.record(DealOutcome("allpass", 3, 4, tricks=(3, 3, 2, 2)))
    sheet.record(DealOutcome("allpass", 3, 4, tricks=(4, 3, 3, 0)))
    j = sheet.to_json()
    assert j["mountain"] == [3 + 8, 3 + 6, 2 + 6, 2]
    assert j["pool"] == [0, 0, 0, 1]


def test_four_players_rostov_closed_talon_dealer_sits_out():
    # Rostov, closed talon: D holds no cards and is not scored.  4–3–3–0: B and C share
    # 5×4 on A (10 each); D gets no pool point.
    rules = Rules.preset("rostov", players=4)
    sheet = Sheet(rules, ("A", "B", "C", "D"))
    sheet.record(DealOutcome("allpass", 3, 4, tricks=(4, 3, 3, 0)))
    j = sheet.to_json()
    assert j["pool"] == [0, 0, 0, 0]
    assert j["whists"][1][0] == 10 and j["whists"][2][0] == 10
    assert sum(map(sum, j["whists"])) == 20


# --- errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("outcome", "message"),
    [
        (contract("7H", (7, 2, 2)), "ten tricks"),
        (contract("7H", (7, 3, 0), ()), "needs a whister"),
        (contract("7H", (7, 3, 0), (0,)), "not a defender"),
        (DealOutcome("misere", 2, 3, 0, Bid.parse("7H"), tricks=(0, 5, 5)), "does not match"),
        (allpass((4, 3, 3, 0)), "4 players"),
        (contract("8H", (0, 0, 0), (), defence=("PASS", "HALF"), half=2, kind="halfwhist"),
         "only against 6 and 7"),
    ],
)
def test_bad_outcomes_are_clear_errors_and_leave_the_sheet(outcome, message):
    sheet = Sheet(Rules.preset("sochi"))
    with pytest.raises(ScoringError, match=message):
        sheet.record(outcome)
    assert sheet.entries == [] and state(sheet) == ([0, 0, 0], [0, 0, 0], W())


def test_player_count_must_match_rules():
    with pytest.raises(ValueError, match="3 players"):
        Sheet(Rules.preset("sochi"), ("A", "B"))


def test_score_deal_is_pure():
    rules = Rules.preset("sochi")
    outcome = allpass((4, 3, 3))
    assert score_deal(rules, outcome, 1).mountain == score_deal(rules, outcome, 1).mountain
    assert score_deal(rules, outcome, 1).stake == 2


def test_whist_pass_half_whist_first_defender_half_whists():
    # whist_pass_half_whist: B whisted, C passed, B changes to half-whist against 6♠:
    # A pool 2; B writes 2 × 2 = 4 on A.
    outcome = contract("6S", (0, 0, 0), (), defence=("WHIST", "PASS", "HALF"), half=1,
                       kind="halfwhist")
    sheet = one("sochi", outcome, whist_pass_half_whist=True)
    assert state(sheet) == ([2, 0, 0], [0, 0, 0], W(BA=4))
