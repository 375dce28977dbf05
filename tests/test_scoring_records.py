"""The scoring examples of 001 and the rules of 003, and every scoring path of each preset,
written as game records (tests/records/, built by tests/tools/make_scoring_records.py) and
replayed through the engine: each deal's cards and actions go through :class:`Deal`, whose
outcome goes onto the :class:`Sheet`; the sheet is compared with the hand-worked one.

Unless said otherwise the preset records have C as dealer, so A is first hand and, as
declarer, is defended by B (first defender) then C — the seats of tests/test_sheet.py.
The 001 records have A as dealer: B declares, C defends first, then A.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from preferans.actions import IllegalAction
from preferans.deal import Deal, Phase
from preferans.rules import Rules
from preferans.sheet import Sheet

RECORDS = Path(__file__).parent / "records"


def load(name: str) -> dict:
    return json.loads((RECORDS / f"{name}.json").read_text())


def replay_through_engine(record: dict) -> Sheet:
    """Replay every deal of a record through Deal and score it on a Sheet."""
    rules = Rules.from_json(record["rules"])
    sheet = Sheet(rules, record["players"])
    for number, d in enumerate(record["deals"], 1):
        deal = Deal(rules, d["dealer"], d["hands"], d["talon"],
                    allpass_streak=sheet.allpass_streak, names=record["players"])
        for token in d["actions"]:
            deal.apply(token)
        assert deal.phase is Phase.DONE, f"deal {number} is not over"
        sheet.record(deal.outcome())
    return sheet


def sheet_of(name: str) -> Sheet:
    return replay_through_engine(load(name))


def state(sheet: Sheet) -> tuple[list, list, list]:
    j = sheet.to_json()
    return j["pool"], j["mountain"], j["whists"]


def W(**cells: int | float) -> list[list]:
    """A whists matrix from cells like AB=8 (A wrote 8 on B)."""
    m: list[list] = [[0, 0, 0], [0, 0, 0], [0, 0, 0]]
    for key, value in cells.items():
        m["ABC".index(key[0])]["ABC".index(key[1])] = value
    return m


Z = [0, 0, 0]

# --- 001, the rules guide (guide preset) ----------------------------------------------------


def test_001_s09_made_7h_7_2_1():
    # "7♥, result 7–2–1, both defenders whist. Declarer records 4 pool points; the defenders
    # record 8 and 4 whists against declarer."  B declares; C took 2, A took 1.
    sheet = sheet_of("guide_s09_made_7h_7_2_1")
    assert sheet.entries[0].outcome.tricks == (1, 7, 2)
    assert state(sheet) == ([0, 4, 0], Z, W(CB=8, AB=4))


def test_001_s09_set_7h_6_3_1():
    # "7♥, result 6–3–1, both whist. Declarer records 4 dump points; defenders record
    # (3 + 1) × 4 = 16 and (1 + 1) × 4 = 8 whists against declarer."
    sheet = sheet_of("guide_s09_set_7h_6_3_1")
    assert sheet.entries[0].outcome.tricks == (1, 6, 3)
    assert state(sheet) == (Z, [0, 4, 0], W(CB=16, AB=8))


def test_001_s09_short_6c_8_2_0():
    # "6♣, declarer takes 8, defenders 2 and 0, both whist. Declarer gets 2 pool points. The
    # first defender gets 4 whists; the second records 4 dump points for two missing tricks."
    sheet = sheet_of("guide_s09_short_6c_8_2_0")
    assert sheet.entries[0].outcome.tricks == (0, 8, 2)
    assert state(sheet) == ([0, 2, 0], [4, 0, 0], W(CB=4))


def test_001_s09_lone_whister():
    # "With one whister against six and declarer taking five, the whister records
    # 5 × 2 + 1 × 2 = 12 whists; the passer gets only 2 consolation whists. Declarer records
    # 2 dump points."  C whists (open), A passes; the defence takes 3 + 2.
    sheet = sheet_of("guide_s09_lone_whister_6s_5")
    o = sheet.entries[0].outcome
    assert (o.whisters, o.open_defence, o.tricks) == ((2,), True, (2, 5, 3))
    assert state(sheet) == (Z, [0, 2, 0], W(CB=12, AB=2))


def test_001_s10_misere_two_tricks():
    # "Every trick declarer takes costs 10 dump points ... two tricks cost 20. Misère
    # generates no ordinary whists or consolation."
    sheet = sheet_of("guide_s10_misere_two_tricks")
    assert sheet.entries[0].outcome.tricks == (4, 2, 4)
    assert state(sheet) == (Z, [0, 20, 0], W())


def test_001_s11_allpass_433_and_055():
    # "4–3–3 becomes 1–0–0" (B took 4: 1 dump point); "0–5–5 gives the first player 1 pool
    # point and the others 5 dump points each" (C took none).  No escalation: stake 1 twice.
    sheet = sheet_of("guide_s11_allpass_433_055")
    first, second = sheet.entries
    assert first.outcome.tricks == (3, 4, 3) and second.outcome.tricks == (5, 5, 0)
    assert [int(x) for x in first.mountain] == [0, 1, 0]
    assert [int(x) for x in second.mountain] == [5, 5, 0]
    assert [int(x) for x in second.pool] == [0, 0, 1]
    assert (first.stake, second.stake) == (1, 1)
    assert state(sheet) == ([0, 0, 1], [5, 6, 0], W())


def test_001_s13_pool_closing_and_settlement():
    # Pools reach 19, 17, 14 (an all-pass 0–0–10 gives A and B a pool point each and C 10
    # dump points; then passed-out contracts).  "A makes an eight-level contract worth six:
    # one point closes A's pool, three go to B and two to C. Pools become 20, 20 and 16; A
    # records 30 whists against B and 20 against C."  Then C makes an eight (6): 4 close C's
    # pool, the 2 left come off C's dump (10 → 8).  Every pool is closed: settlement with
    # dumps 0, 0, 8 (average 8/3): A 26.667 + 50 = 76.667, B 26.667 − 30 = −3.333,
    # C −53.333 − 20 = −73.333; the sum is zero.
    sheet = sheet_of("guide_s13_pool_closing")
    before = sheet.entries[6]
    assert before.outcome.kind == "passed"
    pools_before = [sum(int(e.pool[i]) for e in sheet.entries[:7]) for i in range(3)]
    assert pools_before == [19, 17, 14]
    eight = sheet.entries[7]
    assert [int(x) for x in eight.pool] == [1, 3, 2]
    assert eight.whists[0] == [0, 30, 20]
    last = sheet.entries[8]
    assert [int(x) for x in last.pool] == [0, 0, 4]
    assert [int(x) for x in last.mountain] == [0, 0, -2]
    assert state(sheet) == ([20, 20, 20], [0, 0, 8], W(AB=30, AC=20))
    assert sheet.finished
    assert sheet.balance() == [Fraction(230, 3), Fraction(-10, 3), Fraction(-220, 3)]
    assert sum(sheet.balance()) == 0
    assert sheet.to_json()["balance"] == [76.667, -3.333, -73.333]


# --- 003, the game's rules (sochi) ----------------------------------------------------------


def test_003_contract_values_and_misere():
    # "2 for a 6, 4 for a 7, 6 for an 8, 8 for a 9, 10 for a 10 or a misère"; "If nobody
    # whists, the contract counts as made without play."  A 6♠ (2) + 9♠ (8) = 10,
    # B 7♠ (4) + 10♠ (10) = 14, C 8♠ (6) + misère (10) = 16.
    sheet = sheet_of("sochi_003_contract_values")
    gained = [int(max(e.pool)) for e in sheet.entries]
    assert gained == [2, 4, 6, 8, 10, 10]
    assert state(sheet) == ([10, 14, 16], Z, W())


def test_003_raspasy_raises_the_minimum_bid():
    # "the deal after raspasy needs a higher minimum bid": after the all-pass 4–3–3 (4, 3, 3
    # mountain) B's first bid is 7♠ and 6♠ would be illegal.  B makes 7♠ 7–2–1 (A 2, C 1):
    # B pool 4, A writes 8, C 4 on B; the whisted, made contract ends the streak, so the next
    # all-pass 3–3–4 is at stake 1 again: mountains 7, 6, 7.
    record = load("sochi_003_raspasy_then_seven")
    assert record["deals"][1]["actions"][0] == "7S"
    sheet = replay_through_engine(record)
    assert [e.stake for e in sheet.entries] == [1, 1, 1]
    assert [e.allpass_streak for e in sheet.entries] == [1, 0, 1]
    assert state(sheet) == ([0, 4, 0], [7, 6, 7], W(AB=8, CB=4))
    bad = json.loads(json.dumps(record))
    bad["deals"][1]["actions"][0] = "6S"
    with pytest.raises(IllegalAction, match="6S"):
        replay_through_engine(bad)


# --- every scoring path of Sochi, Leningrad and Rostov --------------------------------------
# (pool, mountain, whists) after the record; hand-worked as in tests/test_sheet.py.

PATHS: dict[str, dict[str, tuple]] = {
    # 7♥ 7–2–1 both whist: A pool 4; B 2 tricks × 4 (Leningrad × 8), C 1 trick.
    "made": {
        "sochi": ([4, 0, 0], Z, W(BA=8, CA=4)),
        "leningrad": ([4, 0, 0], Z, W(BA=16, CA=8)),
        "rostov": ([4, 0, 0], Z, W(BA=8, CA=4)),
    },
    # 6♠ 6–4–0 both whist: quota 4 met as a whole, C's zero is not short.  B 4 × 2 (× 4).
    "no_shortage_4_0": {
        "sochi": ([2, 0, 0], Z, W(BA=8)),
        "leningrad": ([2, 0, 0], Z, W(BA=16)),
        "rostov": ([2, 0, 0], Z, W(BA=8)),
    },
    # 7♥ 6–3–1: mountain 4 (× 2); consolation 4 (8) each; B 3, C 1 trick × 4 (8).
    "set_by_one": {
        "sochi": (Z, [4, 0, 0], W(BA=16, CA=8)),
        "leningrad": (Z, [8, 0, 0], W(BA=32, CA=16)),
        "rostov": (Z, [4, 0, 0], W(BA=16, CA=8)),
    },
    # 6♠ 4–3–3: mountain 2 × 2 (× 2); consolation 4 (8) each; 3 tricks × 2 (× 4) each.
    "set_by_two": {
        "sochi": (Z, [4, 0, 0], W(BA=10, CA=10)),
        "leningrad": (Z, [8, 0, 0], W(BA=20, CA=20)),
        "rostov": (Z, [4, 0, 0], W(BA=10, CA=10)),
    },
    # 6♠ 5–4–1, B whists alone (open): mountain 2 (4); greedy: B 5 × 2 + 2 = 12, C 2;
    # gentlemanly (Leningrad): the 5 × 4 = 20 shared 10/10, plus 4 consolation each: 14, 14.
    "lone_open_set": {
        "sochi": (Z, [2, 0, 0], W(BA=12, CA=2)),
        "leningrad": (Z, [4, 0, 0], W(BA=14, CA=14)),
        "rostov": (Z, [2, 0, 0], W(BA=12, CA=2)),
    },
    # The same closed: the choice of open or closed does not change the score.
    "lone_closed_set": {
        "sochi": (Z, [2, 0, 0], W(BA=12, CA=2)),
        "leningrad": (Z, [4, 0, 0], W(BA=14, CA=14)),
        "rostov": (Z, [2, 0, 0], W(BA=12, CA=2)),
    },
    # 6♠ 6–3–1, B alone, made: A pool 2; B writes both hands' 4 tricks × 2 (× 4).
    "lone_closed_made": {
        "sochi": ([2, 0, 0], Z, W(BA=8)),
        "leningrad": ([2, 0, 0], Z, W(BA=16)),
        "rostov": ([2, 0, 0], Z, W(BA=8)),
    },
    # 6♠ 7–2–1, C whists alone (B passed), defence 3 of 4: C writes 3 × 2 (× 4) and is short
    # by 1: full 2 (Sochi), half of 2 × 2 = 2 (Leningrad), 1 in the mountain + A writes 1
    # whist on C (Rostov).
    "lone_short": {
        "sochi": ([2, 0, 0], [0, 0, 2], W(CA=6)),
        "leningrad": ([2, 0, 0], [0, 0, 2], W(CA=12)),
        "rostov": ([2, 0, 0], [0, 0, 1], W(CA=6, AC=1)),
    },
    # 6♣ 8–2–0 both whist: C short by 2 of his 2: 4 (Sochi), half of 8 (Leningrad),
    # 2 + 2 whists from A (Rostov); B writes 2 × 2 (× 4).
    "short_at_six": {
        "sochi": ([2, 0, 0], [0, 0, 4], W(BA=4)),
        "leningrad": ([2, 0, 0], [0, 0, 4], W(BA=8)),
        "rostov": ([2, 0, 0], [0, 0, 2], W(BA=4, AC=2)),
    },
    # 7♦ 9–0–1 both whist: B short by 1 of his 1: 4, half of 8, 2 + 2 whists.
    "short_at_seven": {
        "sochi": ([4, 0, 0], [0, 4, 0], W(CA=4)),
        "leningrad": ([4, 0, 0], [0, 4, 0], W(CA=8)),
        "rostov": ([4, 0, 0], [0, 2, 0], W(CA=4, AB=2)),
    },
    # 8♦ 10–0–0 both whist: the second whister (C) answers for the missing trick: 6,
    # half of 12, 3 + 3 whists from A.
    "short_at_eight": {
        "sochi": ([6, 0, 0], [0, 0, 6], W()),
        "leningrad": ([6, 0, 0], [0, 0, 6], W()),
        "rostov": ([6, 0, 0], [0, 0, 3], W(AC=3)),
    },
    # 7♥ passed out: A pool 4.
    "passed": {p: ([4, 0, 0], Z, W()) for p in ("sochi", "leningrad", "rostov")},
    # 6♠ pass–half-whist–pass: A pool 2; C writes 2 × 2 (× 2 in Leningrad).
    "halfwhist_6": {
        "sochi": ([2, 0, 0], Z, W(CA=4)),
        "leningrad": ([2, 0, 0], Z, W(CA=8)),
        "rostov": ([2, 0, 0], Z, W(CA=4)),
    },
    # 7♥ pass–half-whist–pass: A pool 4; C writes 4 × 1 (× 2).
    "halfwhist_7": {
        "sochi": ([4, 0, 0], Z, W(CA=4)),
        "leningrad": ([4, 0, 0], Z, W(CA=8)),
        "rostov": ([4, 0, 0], Z, W(CA=4)),
    },
    # 6♠ pass–half-whist–WHIST (B reopens, open), 5–4–1: mountain 2 (4); B writes 5 × 2 and
    # both consolations (2 + 2): 14 (Leningrad 20 + 4 + 4 = 28); C nothing.
    "halfwhist_reopened_set": {
        "sochi": (Z, [2, 0, 0], W(BA=14)),
        "leningrad": (Z, [4, 0, 0], W(BA=28)),
        "rostov": (Z, [2, 0, 0], W(BA=14)),
    },
    # Misère 0–5–5: pool 10.
    "misere_made": {p: ([10, 0, 0], Z, W()) for p in ("sochi", "leningrad", "rostov")},
    # Misère with 2 tricks: 20 (Leningrad 40); no whists.
    "misere_failed": {
        "sochi": (Z, [20, 0, 0], W()),
        "leningrad": (Z, [40, 0, 0], W()),
        "rostov": (Z, [20, 0, 0], W()),
    },
    # All-pass 4–3–3: 4, 3, 3 (× 2 Leningrad); Rostov: B and C share 5 × 4 on A.
    "allpass_433": {
        "sochi": (Z, [4, 3, 3], W()),
        "leningrad": (Z, [8, 6, 6], W()),
        "rostov": (Z, Z, W(BA=10, CA=10)),
    },
    # All-pass 0–5–5: A 1 pool point; 5, 5 (× 2); Rostov: A writes 25 on each.
    "allpass_055": {
        "sochi": ([1, 0, 0], [0, 5, 5], W()),
        "leningrad": ([1, 0, 0], [0, 10, 10], W()),
        "rostov": ([1, 0, 0], Z, W(AB=25, AC=25)),
    },
    # 4–3–3, 2–3–5, 3–3–4 in a row: Sochi stakes 1, 2, 3: 4+4+9, 3+6+9, 3+10+12;
    # Leningrad 2 per trick × 1, 2, 4: 8+8+24, 6+12+24, 6+20+32;
    # Rostov 5 per trick × 1, 2, 3: B, C 10 each on A; A 30 on B, 50 on C; A, B 30 each on C.
    "allpass_three_in_a_row": {
        "sochi": (Z, [17, 18, 25], W()),
        "leningrad": (Z, [40, 42, 58], W()),
        "rostov": (Z, Z, W(AB=30, AC=80, BA=10, BC=30, CA=10)),
    },
    # Pool 10.  All-pass 0–0–10: pools 1, 1, 0 (C: mountain 10, Leningrad 20; Rostov: A and B
    # write 25 each on C).  A 9♠, B 8♠, C 7♠ passed: 9, 7, 4.  A 8♠ (6): 1 closes A, 3 help
    # B (30 whists), 2 help C (20).  C 8♠ (6): 4 close C, 2 left come off C's mountain
    # (10 → 8; 20 → 18); in Rostov C has none, so 2 go onto A's and B's.
    "pool_closing": {
        "sochi": ([10, 10, 10], [0, 0, 8], W(AB=30, AC=20)),
        "leningrad": ([10, 10, 10], [0, 0, 18], W(AB=30, AC=20)),
        "rostov": ([10, 10, 10], [2, 2, 0], W(AB=30, AC=45, BC=25)),
    },
}

CASES = [(preset, path) for path, by in PATHS.items() for preset in by]


@pytest.mark.parametrize(("preset", "path"), CASES, ids=[f"{p}-{q}" for p, q in CASES])
def test_scoring_path_replayed(preset, path):
    sheet = sheet_of(f"{preset}_{path}")
    assert state(sheet) == PATHS[path][preset]
    assert sum(sheet.balance()) == 0


def test_scoring_path_records_have_the_stated_calls():
    # The records really take the path they are named after.
    def outcome(name, i=0):
        return sheet_of(name).entries[i].outcome

    for preset in ("sochi", "leningrad", "rostov"):
        assert outcome(f"{preset}_lone_open_set").open_defence is True
        assert outcome(f"{preset}_lone_closed_set").open_defence is False
        reopened = outcome(f"{preset}_halfwhist_reopened_set")
        assert reopened.defence == ("PASS", "HALF", "WHIST") and reopened.half_whister == 2
        assert outcome(f"{preset}_halfwhist_6").kind == "halfwhist"
        assert outcome(f"{preset}_passed").kind == "passed"
        closing = sheet_of(f"{preset}_pool_closing")
        assert closing.finished
        assert [e.stake for e in sheet_of(f"{preset}_allpass_three_in_a_row").entries] == list(
            Rules.preset(preset).allpass_progression
        )


def test_every_record_is_used():
    names = {p.stem for p in RECORDS.glob("*.json")}
    used = {f"{preset}_{path}" for preset, path in CASES}
    used |= {
        "guide_s09_made_7h_7_2_1", "guide_s09_set_7h_6_3_1", "guide_s09_short_6c_8_2_0",
        "guide_s09_lone_whister_6s_5", "guide_s10_misere_two_tricks",
        "guide_s11_allpass_433_055", "guide_s13_pool_closing",
        "sochi_003_contract_values", "sochi_003_raspasy_then_seven",
    }
    assert names == used


# --- the same records through preferans.record and the CLI ----------------------------------

ALL_RECORDS = sorted(p.stem for p in RECORDS.glob("*.json"))


@pytest.mark.parametrize("name", ALL_RECORDS)
def test_record_replay_gives_the_same_sheet(name):
    # preferans.record.replay (Game: dealer rotation, the all-pass streak from the sheet)
    # agrees exactly with the deal-by-deal replay above.
    record_module = pytest.importorskip("preferans.record")
    game = record_module.replay(record_module.read_record(load(name)))
    assert game.sheet.to_json() == sheet_of(name).to_json()


def test_cli_replay_json():
    # `preferans replay FILE --json` prints the preferans-sheet/1 of the 001 §09 lone-whister
    # example: B mountain 2, C 12 and A 2 whists on B; balance with pools 0, 0, 0 and
    # early-stop mountains 20, 22, 20 (average 62/3): A +6.667 + 2, B −13.333 − 14,
    # C +6.667 + 12.
    pytest.importorskip("preferans.record")
    from typer.testing import CliRunner

    from preferans.cli import app

    result = CliRunner().invoke(
        app, ["replay", str(RECORDS / "guide_s09_lone_whister_6s_5.json"), "--json"]
    )
    assert result.exit_code == 0, result.output
    sheet = json.loads(result.output)
    assert sheet["format"] == "preferans-sheet/1"
    assert sheet["players"] == ["A", "B", "C"]
    assert sheet["pool"] == [0, 0, 0]
    assert sheet["mountain"] == [0, 2, 0]
    assert sheet["whists"] == [[0, 2, 0], [0, 0, 0], [0, 12, 0]]
    assert sheet["balance"] == [8.667, -27.333, 18.667]
    assert sheet["finished"] is False
    (deal,) = sheet["deals"]
    keys = ("dealer", "kind", "declarer", "contract", "defence", "tricks")
    assert {k: deal[k] for k in keys} == {
        "dealer": 0, "kind": "contract", "declarer": 1, "contract": "6S",
        "defence": ["WHIST", "PASS"], "tricks": [2, 5, 3],
    }
    assert deal["change"] == {"pool": [0, 0, 0], "mountain": [0, 2, 0],
                              "whists": [[0, 2, 0], [0, 0, 0], [0, 12, 0]]}
