"""The house options other Preferans programs offer (issue 14), each on hand-worked sheets.

Seats: A=0, B=1, C=2 (and D=3 with four); the dealer is C unless said otherwise, so A is
first hand and, as declarer, is defended by B (first defender) then C.  v is the contract
value; each test's comment works the sheet by hand.  Every option is off (or keeps its old
choice) in every preset, so no existing sheet changes (the last tests check that).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from typer.testing import CliRunner

from preferans.bids import Bid
from preferans.cards import Card
from preferans.cli import app
from preferans.deal import Deal, Phase
from preferans.outcome import DealOutcome
from preferans.record import replay
from preferans.rules import (
    HOUSE_OPTIONS,
    PRESETS,
    VARIANTS,
    Rules,
    RulesError,
    option_choices,
    options_schema,
    options_table,
)
from preferans.scoring import ScoringError, score_deal
from preferans.server.lang.house_rules import editor_schema, rules_from_settings
from preferans.sheet import Sheet

SOCHI = Rules.preset("sochi")


def contract(
    bid: str,
    tricks: tuple[int, ...],
    whisters: tuple[int, ...] = (1, 2),
    *,
    defence: tuple[str, ...] | None = None,
    half: int | None = None,
    talon: tuple[str, ...] = (),
) -> DealOutcome:
    """A's contract, C dealing (B defends first, then C)."""
    if defence is None:
        defence = tuple("WHIST" if d in whisters else "PASS" for d in (1, 2))
    return DealOutcome(
        "contract", 2, 3, 0, Bid.parse(bid),
        defence,  # type: ignore[arg-type]
        whisters, half, False if len(whisters) == 1 else None, tricks,
        talon=tuple(Card.parse(c) for c in talon),
    )


def allpass(tricks: tuple[int, ...], dealer: int = 2) -> DealOutcome:
    return DealOutcome("allpass", dealer, len(tricks), tricks=tricks)


def sheet_of(rules: Rules, pool: list[int], mountain: list[int]) -> Sheet:
    names = ("A", "B", "C", "D")[: rules.players]
    sheet = Sheet(rules, names)
    sheet.pool = [Fraction(p) for p in pool]
    sheet.mountain = [Fraction(m) for m in mountain]
    return sheet


def after(rules: Rules, *outcomes: DealOutcome) -> Sheet:
    sheet = sheet_of(rules, [0] * rules.players, [0] * rules.players)
    for outcome in outcomes:
        sheet.record(outcome)
    return sheet


def state(sheet: Sheet) -> tuple[list, list, list]:
    j = sheet.to_json()
    return j["pool"], j["mountain"], j["whists"]


def W(n: int = 3, **cells: int) -> list[list]:
    """A whists matrix from cells like AB=8 (A wrote 8 on B)."""
    m: list[list] = [[0] * n for _ in range(n)]
    for key, value in cells.items():
        m["ABCD".index(key[0])]["ABCD".index(key[1])] = value
    return m


# --- 1. non-responsible whist: shortage="none" --------------------------------------------


NON_RESPONSIBLE = SOCHI.replace(shortage="none")


def test_non_responsible_two_whisters_short_pay_nothing():
    # 001's example: 6♣ (v=2) 8–2–0, both whist.  Full responsibility: A 2 pool, B 2×2=4
    # whists, C short 2 of his share of 2: 4 mountain.  Non-responsible: the same, less C's 4.
    o = contract("6C", (8, 2, 0))
    assert state(after(SOCHI, o)) == ([2, 0, 0], [0, 0, 4], W(BA=4))
    sheet = after(NON_RESPONSIBLE, o)
    assert state(sheet) == ([2, 0, 0], [0, 0, 0], W(BA=4))
    assert sheet.entries[0].short == ()
    assert "C fell short by 2 (non-responsible: pays nothing)" in sheet.entries[0].summary


def test_non_responsible_lone_whister_writes_his_whists_and_pays_nothing():
    # 7♥ (v=4) 9–1–0, B whists alone: the defence has 1 of its 2.  Full: B short 1, 4
    # mountain; B writes (1+0)×4=4.  Non-responsible: B writes his 4, no mountain.
    o = contract("7H", (9, 1, 0), (1,))
    assert state(after(SOCHI, o)) == ([4, 0, 0], [0, 4, 0], W(BA=4))
    assert state(after(NON_RESPONSIBLE, o)) == ([4, 0, 0], [0, 0, 0], W(BA=4))


def test_non_responsible_short_whister_may_be_helped_even_where_penalised_ones_may_not():
    # pool_help_whister_short off.  Pools 19, 10, 15.  A makes 6♣ (v=2) 8–2–0, both whist:
    # 1 closes A's pool, the other helps the highest open pool.  Full responsibility: C (15)
    # was penalised (4 mountain), so B gets it: B 11, A writes 10 on B.  Non-responsible: C
    # paid nothing, so C gets it: C 16, A writes 10 on C.
    rules = SOCHI.replace(pool_help_whister_short=False)
    o = contract("6C", (8, 2, 0))
    full = sheet_of(rules, [19, 10, 15], [0, 0, 0])
    full.record(o)
    assert state(full) == ([20, 11, 15], [0, 0, 4], W(AB=10, BA=4))
    none = sheet_of(rules.replace(shortage="none"), [19, 10, 15], [0, 0, 0])
    none.record(o)
    assert state(none) == ([20, 10, 16], [0, 0, 0], W(AC=10, BA=4))


# --- 2. against 8+ with two whisters each owes a trick of his own ---------------------------


EACH = SOCHI.replace(responsible_at_8plus="each")
BOTH = SOCHI.replace(responsible_at_8plus="both")


def test_each_owes_a_trick_of_his_own_though_the_defence_made_its_quota():
    # 8♠ (v=6) 8–2–0, both whist: the defence has 2 of its 1.  second and both: no penalty;
    # A 6 pool, B 2×6=12.  each: C took none of his own: 1×6=6 mountain.
    o = contract("8S", (8, 2, 0))
    assert state(after(SOCHI, o)) == ([6, 0, 0], [0, 0, 0], W(BA=12))
    assert state(after(BOTH, o)) == ([6, 0, 0], [0, 0, 0], W(BA=12))
    sheet = after(EACH, o)
    assert state(sheet) == ([6, 0, 0], [0, 0, 6], W(BA=12))
    assert sheet.entries[0].short == (2,)


def test_each_against_both_and_second_when_the_defence_takes_nothing():
    # 8♠ (v=6) 10–0–0, both whist: one trick missing.  second: C 6; both: the one trick
    # halved, 3 each; each: one trick each, 6 each.
    o = contract("8S", (10, 0, 0))
    assert state(after(SOCHI, o)) == ([6, 0, 0], [0, 0, 6], W())
    assert state(after(BOTH, o)) == ([6, 0, 0], [0, 3, 3], W())
    assert state(after(EACH, o)) == ([6, 0, 0], [0, 6, 6], W())


def test_each_in_a_whisted_ten_and_not_at_six_or_seven():
    # 10NT (v=10) 9–1–0, both whist (Sochi whists tens, quota 1): A fails by 1: 10
    # mountain; consolation 10 from B and from C; B's trick 10 more: B 20, C 10.  second: the
    # defence has its 1.  each: C took none: 10 mountain.
    o = contract("10NT", (9, 1, 0))
    assert state(after(SOCHI, o)) == ([0, 0, 0], [10, 0, 0], W(BA=20, CA=10))
    assert state(after(EACH, o)) == ([0, 0, 0], [10, 0, 10], W(BA=20, CA=10))
    # 001's 7♥ 6–3–1, both whist: 4 mountain; B (3+1)×4=16, C (1+1)×4=8, the same with each.
    seven = contract("7H", (6, 3, 1))
    assert state(after(EACH, seven)) == state(after(SOCHI, seven))
    assert state(after(EACH, seven)) == ([0, 0, 0], [4, 0, 0], W(BA=16, CA=8))


# --- 3. the zero-trick point multiplied by the stake ---------------------------------------


def test_zero_trick_point_multiplied_by_the_stake():
    # Sochi, stakes 1, 2, 3.  All-pass 0–4–6 at ×1: B 4, C 6 mountain; A 1 pool.  All-pass
    # 0–5–5 at ×2: B +10 (14), C +10 (16); A's point ×2: +2 (3).  Plain: A +1 (2).
    deals = (allpass((0, 4, 6)), allpass((0, 5, 5)))
    staked = after(SOCHI.replace(allpass_zero_staked=True), *deals)
    assert state(staked) == ([3, 0, 0], [0, 14, 16], W())
    assert "A took no trick (+2 pool)" in staked.entries[1].summary
    assert state(after(SOCHI, *deals)) == ([2, 0, 0], [0, 14, 16], W())


# --- 4. the zero-trick point kept in one's own full pool --------------------------------------


def test_zero_trick_point_kept_beyond_a_full_pool_and_settled_off_the_mountain():
    # Pools 20, 18, 0.  All-pass 0–4–6: B 4, C 6 mountain.  close: A's point helps B's pool
    # (the highest open), A writes 10 on B.  keep: A's pool 21, nobody helped.
    # Settlement (keep): hills with the pool's distance: A 0 + (20 − 21) = −1, B 4 + 2 = 6,
    # C 6 + 20 = 26; average 31/3; A 10 × (31/3 + 1) = 340/3, B 10 × (31/3 − 6) = 130/3,
    # C 10 × (31/3 − 26) = −470/3.
    close = sheet_of(SOCHI, [20, 18, 0], [0, 0, 0])
    close.record(allpass((0, 4, 6)))
    assert state(close) == ([20, 19, 0], [0, 4, 6], W(AB=10))
    keep = sheet_of(SOCHI.replace(allpass_zero_full="keep"), [20, 18, 0], [0, 0, 0])
    keep.record(allpass((0, 4, 6)))
    assert state(keep) == ([21, 18, 0], [0, 4, 6], W())
    assert "A kept 1 beyond the pool" in keep.entries[0].summary
    assert keep.balance() == [Fraction(340, 3), Fraction(130, 3), Fraction(-470, 3)]
    # An open pool takes the point as usual, with nothing beyond it.
    open_pool = sheet_of(SOCHI.replace(allpass_zero_full="keep"), [5, 0, 0], [0, 0, 0])
    entry = open_pool.record(allpass((0, 4, 6)))
    assert state(open_pool) == ([6, 0, 0], [0, 4, 6], W()) and "kept" not in entry.summary


# --- 5. four players: the sitting dealer writes the zero-trick point --------------------------


def test_rostov_four_players_the_sitting_dealer_writes_the_zero_trick_point():
    # Rostov, four players, D deals and sits out (closed talon: he holds no cards).  All-pass
    # 0–4–6: A has the fewest and writes 5 a trick: 20 on B, 30 on C; A 1 pool.  000: "unless
    # he/she is the dealer of a four player game who scores nothing. Some allow the dealer to
    # write one point in the pool": D 1 pool with the option.
    rules = Rules.preset("rostov", players=4)
    o = allpass((0, 4, 6, 0), dealer=3)
    assert state(after(rules, o)) == ([1, 0, 0, 0], [0] * 4, W(4, AB=20, AC=30))
    sheet = after(rules.replace(allpass_dealer_zero=True), o)
    assert state(sheet) == ([1, 0, 0, 1], [0] * 4, W(4, AB=20, AC=30))
    assert "D dealt and sat out (+1 pool)" in sheet.entries[0].summary


def test_kazakhstan_four_players_the_dealer_writes_two():
    # Kazakhstan four players (2 zero-trick points, 10 a trick; 000: "Some allows the dealer
    # to write two points in the pool"): A 2, D 2; A writes 10×4=40 on B, 60 on C.
    rules = Rules.preset("kazakhstan", players=4, allpass_dealer_zero=True)
    sheet = after(rules, allpass((0, 4, 6, 0), dealer=3))
    assert state(sheet) == ([2, 0, 0, 2], [0] * 4, W(4, AB=40, AC=60))


# --- 6. three players: talon prizes in tricks, half from each defender ------------------------


def test_talon_tricks_with_three_players_half_from_each_defender():
    # talon_prizes="tricks" on Sochi.  7♥ (v=4) 7–2–1, both whist, talon A♠ K♠ (ace and
    # king of one suit: 2 quick tricks).  Without the option three players write no prize:
    # A 4 pool, B 8, C 4.  With it each defender writes 2 tricks at half the rate: 2×4/2=4:
    # B 12, C 8.
    rules = SOCHI.replace(talon_prizes="tricks")
    o = contract("7H", (7, 2, 1), talon=("AS", "KS"))
    assert state(after(rules, o)) == ([4, 0, 0], [0, 0, 0], W(BA=8, CA=4))
    sheet = after(rules.replace(talon_tricks_three=True), o)
    assert state(sheet) == ([4, 0, 0], [0, 0, 0], W(BA=12, CA=8))
    assert "talon prize: B wrote 4 whists on A" in sheet.entries[0].summary


def test_talon_tricks_with_three_players_on_finn():
    # Finn (whists doubled): 7♥ (v=4) 7–2–1, both whist: B 2×8=16, C 8.  Talon A♥ A♦ (two
    # aces: 3): each defender 3×4×2/2 = 12: B 28, C 20.
    score = score_deal(Rules.preset("finn", talon_tricks_three=True),
                       contract("7H", (7, 2, 1), talon=("AH", "AD")))
    assert [int(score.whists[1][0]), int(score.whists[2][0])] == [28, 20]


# --- 7. gentlemanly whist that shares a made contract too -------------------------------------


def test_gentlemanly_made_shares_the_whists_of_a_made_contract():
    # Leningrad (doubled): 7♥ (v=4) 7–2–1, B whists alone.  Gentlemanly as 000 tells it: the
    # contract is made, B keeps (2+1)×8=24.  gentlemanly_made: 12 and 12.
    rules = Rules.preset("leningrad")
    o = contract("7H", (7, 2, 1), (1,))
    assert state(after(rules, o)) == ([4, 0, 0], [0, 0, 0], W(BA=24))
    assert state(after(rules.replace(gentlemanly_made=True), o)) == (
        [4, 0, 0], [0, 0, 0], W(BA=12, CA=12))
    # Failed: 7♥ 6–3–1, B alone: 4×2=8 mountain; 8 consolation each; (3+1)×8=32 shared:
    # B 8+16=24, C 8+16=24, with or without the option.
    failed = contract("7H", (6, 3, 1), (1,))
    expected = ([0, 0, 0], [8, 0, 0], W(BA=24, CA=24))
    assert state(after(rules, failed)) == expected
    assert state(after(rules.replace(gentlemanly_made=True), failed)) == expected


# --- 8. a checked ten that writes trick whists ------------------------------------------------


def test_checked_ten_writes_the_defenders_trick_whists_without_a_quota():
    # VMK checks tens (no whist calls, no quota; 10 consolation per undertrick).  10NT (v=10)
    # 9–1–0: A 10 mountain; B and C 10 consolation each.  checked_ten_whists: B also writes
    # his trick, 1×10=10: B 20.  Made 10–0–0: A 10 pool, nothing else either way.
    rules = Rules.preset("vmk")
    failed = contract("10NT", (9, 1, 0), (), defence=())
    made = contract("10NT", (10, 0, 0), (), defence=())
    assert state(after(rules, failed)) == ([0, 0, 0], [10, 0, 0], W(BA=10, CA=10))
    checked = rules.replace(checked_ten_whists=True)
    assert state(after(checked, failed)) == ([0, 0, 0], [10, 0, 0], W(BA=20, CA=10))
    assert state(after(checked, made)) == ([10, 0, 0], [0, 0, 0], W())
    # 8–1–1 is two down: 20 mountain, 20 consolation each, and 10 per trick: B 30, C 30.
    assert state(after(checked, contract("10NT", (8, 1, 1), (), defence=()))) == (
        [0, 0, 0], [20, 0, 0], W(BA=30, CA=30))


# --- 9. a half-whist played out ---------------------------------------------------------------


PLAYED = SOCHI.replace(half_whist_played=True)
HALF_CALLS = ("PASS", "HALF", "PASS")


def test_played_half_whist_scoring():
    # 6♠ (v=2): B passes, C half-whists, B passes again; played out, C whists alone for half
    # the quota, 2.  7–2–1: the defence has 3: C writes (2+1)×2=6; A 2 pool.  (Unplayed, C
    # would write 2×2=4.)
    o = contract("6S", (7, 2, 1), (2,), defence=HALF_CALLS, half=2)
    sheet = after(PLAYED, o)
    assert state(sheet) == ([2, 0, 0], [0, 0, 0], W(CA=6))
    assert "C played the half-whist out (quota 2)" in sheet.entries[0].summary
    # 9–1–0: the defence has 1 of C's 2: C 1×2=2 mountain, writes 1×2=2.  An ordinary lone
    # whister would owe 4 and be short 3 (6).
    short = contract("6S", (9, 1, 0), (2,), defence=HALF_CALLS, half=2)
    assert state(after(PLAYED, short)) == ([2, 0, 0], [0, 0, 2], W(CA=2))
    lone = contract("6S", (9, 1, 0), (2,), defence=("PASS", "WHIST"))
    assert state(after(PLAYED, lone)) == ([2, 0, 0], [0, 0, 6], W(CA=2))
    # 7♦ (v=4) 10–0–0: half the quota of 2 is 1: C short 1, 4 mountain.
    seven = contract("7D", (10, 0, 0), (2,), defence=HALF_CALLS, half=2)
    assert state(after(PLAYED, seven)) == ([4, 0, 0], [0, 0, 4], W())
    # 6♠ 5–3–2 fails by 1: A 2 mountain; consolation 2 from B (the passer) and from C; C's
    # tricks (3+2)×2=10: C 12.
    failed = contract("6S", (5, 3, 2), (2,), defence=HALF_CALLS, half=2)
    assert state(after(PLAYED, failed)) == ([0, 0, 0], [2, 0, 0], W(BA=2, CA=12))
    # Without the option such an outcome cannot be scored.
    with pytest.raises(ScoringError, match="half_whist_played"):
        score_deal(SOCHI, o)


HANDS = [
    ["AS", "KS", "QS", "JS", "AC", "KC", "AD", "9H", "8H", "7H"],
    ["10S", "9S", "8S", "7S", "QC", "JC", "KD", "QD", "JH", "10H"],
    ["10C", "9C", "8C", "7C", "JD", "10D", "9D", "8D", "KH", "QH"],
]
TALON = ["AH", "7D"]
# A takes the talon, discards 7♥ 7♦ and names 7♠; B passes, C half-whists, B passes again:
# the half-whist stands and is played, C closed.  A draws trumps in four rounds (C discards
# clubs), takes A♣ K♣ A♦ A♥ (8 tricks); C's K♥ wins the 9♥, B's K♦ the last trick.
PLAY = [
    "AS", "7S", "7C", "KS", "8S", "8C", "QS", "9S", "9C", "JS", "10S", "10C",
    "AC", "JC", "8D", "KC", "QC", "9D", "AD", "QD", "10D", "AH", "10H", "QH",
    "9H", "JH", "KH", "JD", "8H", "KD",
]
ACTIONS = ["6S", "PASS", "PASS", "DISCARD 7H 7D", "7S", "PASS", "HALF", "PASS", "CLOSED", *PLAY]


def test_a_half_whist_played_out_deal_by_hand_and_its_record():
    # 7♠ (v=4) made 8–1–1.  C's half quota is 1, the defence took 2: no penalty; C, the lone
    # whister, writes (1+1)×4=8 on A; A 4 pool.  (Unplayed, C would write 1×4=4.)
    deal = Deal(PLAYED, 2, HANDS, TALON)
    for token in ACTIONS[:8]:
        deal.apply(token)
    assert deal.phase is Phase.DEFENCE_MODE and deal.to_act == 2
    assert [str(a) for a in deal.legal_actions()] == ["OPEN", "CLOSED"]
    for token in ACTIONS[8:]:
        deal.apply(token)
    outcome = deal.outcome()
    assert (outcome.kind, outcome.whisters, outcome.half_whister) == ("contract", (2,), 2)
    assert outcome.defence == HALF_CALLS and outcome.tricks == (8, 1, 1)
    sheet = Sheet(PLAYED)
    sheet.record(outcome)
    assert state(sheet) == ([4, 0, 0], [0, 0, 0], W(CA=8))
    # The record replays to the same sheet; without the option the same calls end unplayed.
    record = {"format": "preferans-record/1", "rules": PLAYED.to_json(),
              "players": ["A", "B", "C"],
              "deals": [{"dealer": 2, "hands": HANDS, "talon": TALON, "actions": ACTIONS}]}
    assert state(replay(record).sheet) == state(sheet)
    unplayed = Deal(SOCHI, 2, HANDS, TALON)
    for token in ACTIONS[:8]:
        unplayed.apply(token)
    assert unplayed.phase is Phase.DONE and unplayed.outcome().kind == "halfwhist"


def test_half_whist_played_without_reopening_and_after_whist_pass_half():
    # No reopening: PASS, HALF and the half-whister chooses at once.
    deal = Deal(PLAYED.replace(half_whist_reopen=False), 2, HANDS, TALON)
    for token in ACTIONS[:7]:
        deal.apply(token)
    assert deal.phase is Phase.DEFENCE_MODE and deal.to_act == 2
    # Whist–pass–half-whist: B whisted, C passed, B changes to half-whist and plays it.
    rules = PLAYED.replace(whist_pass_half_whist=True)
    deal = Deal(rules, 2, HANDS, TALON)
    for token in [*ACTIONS[:5], "WHIST", "PASS", "HALF"]:
        deal.apply(token)
    assert deal.phase is Phase.DEFENCE_MODE and deal.to_act == 1
    assert [str(a) for a in deal.legal_actions()] == ["OPEN", "CLOSED"]
    deal.apply("OPEN")
    assert deal.phase is Phase.PLAY and deal.whisters == (1,) and deal.half_whister == 1


# --- 10. all-pass progressions that keep growing ----------------------------------------------


def test_allpass_stakes_keep_growing():
    # Five all-passes 2–3–5 in a row.  Sochi 1, 2, 3 repeating: stakes 1, 2, 3, 3, 3 (12):
    # A 24, B 36, C 60.  arithmetic: 1, 2, 3, 4, 5 (15): A 30, B 45, C 75.
    deals = [allpass((2, 3, 5))] * 5
    repeat = after(SOCHI, *deals)
    assert [e.stake for e in repeat.entries] == [1, 2, 3, 3, 3]
    assert state(repeat) == ([0, 0, 0], [24, 36, 60], W())
    grow = after(SOCHI.replace(allpass_growth="arithmetic"), *deals)
    assert [e.stake for e in grow.entries] == [1, 2, 3, 4, 5]
    assert state(grow) == ([0, 0, 0], [30, 45, 75], W())
    assert grow.min_bid_level == 7
    # Leningrad 2 a trick, 1, 2, 4 geometric: 1, 2, 4, 8, 16 (31): A 2×2×31=124, B 186,
    # C 310 (repeating: 1, 2, 4, 4, 4, 15: 60, 90, 150).
    geo = after(Rules.preset("leningrad", allpass_growth="geometric"), *deals)
    assert [e.stake for e in geo.entries] == [1, 2, 4, 8, 16]
    assert state(geo) == ([0, 0, 0], [124, 186, 310], W())
    assert state(after(Rules.preset("leningrad"), *deals)) == ([0, 0, 0], [60, 90, 150], W())


# --- refused combinations -----------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "overrides", "names"), [
    ("kazakhstan", {"over_greedy": True, "responsible_at_8plus": "each"},
     ("responsible_at_8plus", "over_greedy")),
    ("sochi", {"shortage": "none", "responsible_at_8plus": "each"},
     ("responsible_at_8plus", "shortage")),
    ("sochi", {"allpass_zero_pool": 0, "allpass_zero_staked": True},
     ("allpass_zero_staked", "allpass_zero_pool")),
    ("sochi", {"allpass_zero_pool": 0, "allpass_zero_full": "keep"},
     ("allpass_zero_full", "allpass_zero_pool")),
    ("classical-1971", {"allpass_zero_full": "keep"},
     ("allpass_zero_full", "allpass_zero_off_mountain")),
    ("rostov", {"allpass_dealer_zero": True}, ("allpass_dealer_zero", "four players")),
    ("sochi", {"players": 4, "allpass_dealer_zero": True},
     ("allpass_dealer_zero", "allpass_talon")),
    ("sochi", {"talon_tricks_three": True}, ("talon_tricks_three", "talon_prizes")),
    ("rostov", {"talon_tricks_three": True}, ("talon_tricks_three", "talon_prizes")),
    ("finn", {"players": 4, "talon_tricks_three": True}, ("talon_tricks_three", "three")),
    ("sochi", {"gentlemanly_made": True}, ("gentlemanly_made", "whist")),
    ("sochi", {"checked_ten_whists": True}, ("checked_ten_whists", "tens_whisted")),
    ("classical-1971", {"half_whist_played": True},
     ("half_whist_played", "passes_as_half_whist")),
    ("sochi", {"players": 4, "dealer_whist": True, "half_whist_played": True},
     ("half_whist_played", "dealer_whist")),
    ("sochi", {"half_whist_levels": (), "half_whist_played": True},
     ("half_whist_played", "half_whist_levels")),
    ("two-player", {"half_whist_played": True}, ("half_whist_played", "three or four")),
    ("kazakhstan", {"over_greedy": True, "half_whist_played": True},
     ("half_whist_played", "over_greedy")),
    ("sochi-000", {"allpass_growth": "arithmetic"}, ("allpass_growth", "allpass_progression")),
    ("sochi", {"allpass_progression": (1, 2, 2), "allpass_growth": "arithmetic"},
     ("allpass_growth", "allpass_progression")),
    ("sochi", {"allpass_growth": "geometric"}, ("allpass_growth", "allpass_progression")),
])
def test_combinations_that_make_no_sense_are_refused_naming_both(preset, overrides, names):
    with pytest.raises(RulesError) as caught:
        Rules.preset(preset, **overrides)
    message = str(caught.value)
    assert all(name in message for name in names), message


def test_a_refused_combination_reaches_the_web_settings_as_the_engine_says_it():
    with pytest.raises(RulesError, match="gentlemanly_made needs whist='gentlemanly'"):
        rules_from_settings({"preset": "sochi", "gentlemanly_made": True})
    rules = rules_from_settings({"preset": "rostov", "allpass_dealer_zero": True}, players=4)
    assert rules.allpass_dealer_zero and rules.players == 4
    assert Rules.from_json(rules.to_json()) == rules


# --- the options as data: schema, table, editor; presets unchanged -----------------------------


NEW_CHOICES = {"shortage": "none", "responsible_at_8plus": "each", "allpass_zero_full": "keep",
               "allpass_growth": "geometric"}


def test_every_house_option_is_in_the_schema_the_table_and_the_editor():
    schema = {e["name"]: e for e in options_schema()}
    editor = {e["name"]: e for e in editor_schema()}
    table = options_table()
    choices = option_choices()
    for name in HOUSE_OPTIONS:
        entry = schema[name]
        assert entry["doc"] and "\n" not in entry["doc"]
        assert f"| `{name}` |" in table
        assert editor[name]["control"] in ("checkbox", "select")
        assert not editor[name]["fixed"] and editor[name]["only_for"] is None
        if name in NEW_CHOICES:
            assert NEW_CHOICES[name] in choices[name] and NEW_CHOICES[name] in entry["choices"]
        else:
            assert entry["type"] == "bool" and entry["default"] is False
    assert schema["allpass_growth"]["choices"] == ["repeat", "arithmetic", "geometric"]
    result = CliRunner().invoke(app, ["rules"])
    assert result.exit_code == 0 and "`half_whist_played`" in result.output


def test_no_preset_uses_a_house_option():
    for name, rules in {**PRESETS, **VARIANTS}.items():
        assert rules.shortage != "none" and rules.responsible_at_8plus != "each", name
        assert rules.allpass_zero_full != "keep" and rules.allpass_growth == "repeat", name
        flags = [getattr(rules, o) for o in HOUSE_OPTIONS if o not in NEW_CHOICES]
        assert not any(flags), name
        assert Rules.from_json(rules.to_json()) == rules


def test_played_half_whist_with_four_players_the_dealer_writes_his_consolation():
    # Four players, D deals and sits out; A declares 6♠ (v=2), B passes, C half-whists, B
    # passes: played out, C alone for 2.  5–3–2 fails by 1: A 2 mountain; consolation 2
    # from B, C and the sitting dealer D; C writes (3+2)×2=10 more: C 12.
    rules = SOCHI.replace(players=4, half_whist_played=True)
    o = DealOutcome("contract", 3, 4, 0, Bid.parse("6S"), HALF_CALLS,  # type: ignore[arg-type]
                    (2,), 2, False, (5, 3, 2, 0))
    assert state(after(rules, o)) == ([0] * 4, [2, 0, 0, 0], W(4, BA=2, CA=12, DA=2))
