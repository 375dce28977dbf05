"""The last three options of 000's conventions: Finn's trickless all-pass player, over-greedy
whist only with two whisters, and VMK's soloist choosing how his pool overflow is written.

Seats: A=0, B=1, C=2; the dealer is C unless said otherwise, so A is first hand and, as
declarer, is defended by B (first defender) then C.  v is the contract value; each test's
comment gives the sheet worked by hand and the sentence of 000 it follows.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from preferans.actions import IllegalAction
from preferans.bids import Bid
from preferans.deal import Deal, Phase
from preferans.game import Game
from preferans.outcome import DealOutcome
from preferans.rules import PRESETS, Rules, RulesError, option_choices, options_schema
from preferans.scoring import ScoringError, over_greedy_applies
from preferans.sheet import Sheet


def contract(
    bid: str,
    tricks: tuple[int, ...],
    whisters: tuple[int, ...] = (1, 2),
    *,
    kind: str = "contract",
    off_hill: tuple[int, ...] = (),
) -> DealOutcome:
    """A's contract, C dealing (B defends first, then C)."""
    defence = tuple("WHIST" if d in whisters else "PASS" for d in (1, 2))
    return DealOutcome(
        kind,  # type: ignore[arg-type]
        2,
        3,
        0,
        Bid.parse(bid),
        defence,  # type: ignore[arg-type]
        whisters,
        None,
        False if len(whisters) == 1 else None,
        tricks,
        off_hill=off_hill,
    )


def allpass(tricks: tuple[int, ...], dealer: int = 2) -> DealOutcome:
    return DealOutcome("allpass", dealer, len(tricks), tricks=tricks)


def sheet_of(rules: Rules, pool: list[int], mountain: list[int]) -> Sheet:
    sheet = Sheet(rules)
    sheet.pool = [Fraction(p) for p in pool]
    sheet.mountain = [Fraction(m) for m in mountain]
    return sheet


def state(sheet: Sheet) -> tuple[list, list, list]:
    j = sheet.to_json()
    return j["pool"], j["mountain"], j["whists"]


def W(**cells: int) -> list[list]:
    """A three-player whists matrix from cells like AB=8 (A wrote 8 on B)."""
    m: list[list] = [[0] * 3 for _ in range(3)]
    for key, value in cells.items():
        m["ABC".index(key[0])]["ABC".index(key[1])] = value
    return m


# --- the options as data ----------------------------------------------------------------------


def test_the_three_options_are_declared_with_choices_and_set_in_the_presets():
    choices = option_choices()
    assert choices["allpass_zero_full"] == ("close", "hill", "keep")  # keep: a house option
    assert choices["over_greedy_two_only"] == (False, True)
    assert choices["pool_overflow_choice"] == (False, True)
    by = {e["name"]: e for e in options_schema()}
    assert by["allpass_zero_full"]["presets"]["finn"] == "hill"
    assert by["allpass_zero_full"]["default"] == "close"
    assert by["pool_overflow_choice"]["presets"]["vmk"] is True
    assert {p for p, v in by["pool_overflow_choice"]["presets"].items() if v} == {"vmk"}
    assert {p for p, v in by["allpass_zero_full"]["presets"].items() if v == "hill"} == {"finn"}
    # "Some apply ..." / "some players use ...": an option, off in every preset.
    assert not any(r.over_greedy_two_only for r in PRESETS.values())
    for doc in ("allpass_zero_full", "over_greedy_two_only", "pool_overflow_choice"):
        assert by[doc]["doc"] and "\n" not in by[doc]["doc"]


def test_bad_combinations_are_clear_errors():
    with pytest.raises(RulesError, match="over_greedy_two_only needs over_greedy"):
        Rules.preset("kazakhstan", over_greedy_two_only=True)
    with pytest.raises(RulesError, match="allpass_zero_full='pool' is not allowed"):
        Rules.preset("finn", allpass_zero_full="pool")
    with pytest.raises(RulesError, match="both ask POOL or HILL"):
        Rules.preset("racing-22", pool_overflow_choice=True)
    with pytest.raises(RulesError, match="must be true or false"):
        Rules.preset("vmk", pool_overflow_choice="yes")
    rules = Rules.preset("kazakhstan", over_greedy=True, over_greedy_two_only=True)
    assert Rules.from_json(rules.to_json()) == rules
    assert rules.to_json() == {"preset": "kazakhstan", "over_greedy": True,
                               "over_greedy_two_only": True}


# --- 1. Finn's trickless all-pass player ------------------------------------------------------
# 000 (Finn's): "One who does not take any tricks writes two points in the pool if it is not
# full, in which case he/she writes two points off from the hill. The points are forfeited if
# the pool is full and the hill is empty."


def test_finn_zero_trick_pool_not_full_goes_to_the_pool():
    # Pools 0; mountains 20.  All-pass 0–5–5 at 2 a trick: B, C +10 (30); A 2 in his pool.
    sheet = sheet_of(Rules.preset("finn"), [0, 0, 0], [20, 20, 20])
    sheet.record(allpass((0, 5, 5)))
    assert state(sheet) == ([2, 0, 0], [20, 30, 30], W())


def test_finn_zero_trick_last_point_of_the_pool_rest_off_the_hill():
    # A's pool 39 of 40: the pool takes 1 (A closes it first: 120 whists on B and on C, and
    # the game is over), the other point comes off A's hill: 20 − 1 = 19.  B, C +10.
    # (allpass_zero_full="close": that point would close 1 of B's pool, A writing 10 on B.)
    sheet = sheet_of(Rules.preset("finn"), [39, 0, 0], [20, 20, 20])
    sheet.record(allpass((0, 5, 5)))
    assert state(sheet) == ([40, 0, 0], [19, 30, 30], W(AB=120, AC=120))
    assert sheet.finished
    assert "A's pool is full: 1 off the mountain" in sheet.entries[0].summary
    close = sheet_of(Rules.preset("finn", allpass_zero_full="close"), [39, 0, 0], [20] * 3)
    close.record(allpass((0, 5, 5)))
    assert state(close) == ([40, 1, 0], [20, 30, 30], W(AB=130, AC=120))


def test_finn_zero_trick_full_pool_off_the_hill():
    # Played on past a full pool (game_end="all_pools"; the first-pool bonus already written):
    # A's pool 40, mountain 20.  All-pass 0–4–6: B +8, C +12; A writes 2 off his hill: 18.
    rules = Rules.preset("finn", game_end="all_pools")
    sheet = sheet_of(rules, [40, 0, 0], [20, 20, 20])
    sheet.bonuses = {"first_pool": 0}
    sheet.record(allpass((0, 4, 6)))
    assert state(sheet) == ([40, 0, 0], [18, 28, 32], W())


def test_finn_zero_trick_full_pool_and_empty_hill_forfeits():
    # A's pool 40 and hill 0: the 2 points are forfeited, nobody else gets them.
    # (allpass_zero_full="close": they close 2 of B's pool, A writing 2×10=20 on B.)
    rules = Rules.preset("finn", game_end="all_pools")
    sheet = sheet_of(rules, [40, 0, 0], [0, 20, 20])
    sheet.bonuses = {"first_pool": 0, "clear_mountain": 0}
    sheet.record(allpass((0, 4, 6)))
    assert state(sheet) == ([40, 0, 0], [0, 28, 32], W())
    assert "A's pool is full, the mountain empty: 2 forfeited" in sheet.entries[0].summary
    close = sheet_of(rules.replace(allpass_zero_full="close"), [40, 0, 0], [0, 20, 20])
    close.bonuses = {"first_pool": 0, "clear_mountain": 0}
    close.record(allpass((0, 4, 6)))
    assert state(close) == ([40, 2, 0], [0, 28, 32], W(AB=20))


def test_finn_zero_trick_hill_of_one_empties_it_first():
    # A's pool full, hill 1: 1 off the hill (now empty: A is first to empty his hill, 80
    # whists on B and on C with three players), the other point forfeited.
    rules = Rules.preset("finn", game_end="all_pools")
    sheet = sheet_of(rules, [40, 0, 0], [1, 20, 20])
    sheet.bonuses = {"first_pool": 0}
    sheet.record(allpass((0, 4, 6)))
    assert state(sheet) == ([40, 0, 0], [0, 28, 32], W(AB=80, AC=80))
    assert sheet.bonuses == {"first_pool": 0, "clear_mountain": 0}


def test_zero_trick_hill_on_sochi_and_balance_sums_to_zero():
    # The option on Sochi (pool 20, 1 point): A's pool 20, mountain 5; all-pass 0–4–6:
    # B +4, C +6 (stake 1); A writes his point off the hill: 4.
    rules = Rules.preset("sochi", allpass_zero_full="hill")
    sheet = sheet_of(rules, [20, 0, 0], [5, 0, 0])
    sheet.record(allpass((0, 4, 6)))
    assert state(sheet) == ([20, 0, 0], [4, 4, 6], W())
    assert sum(sheet.balance()) == 0


# --- 2. Over-greedy whist only with two whisters ----------------------------------------------
# 000 (Kazakhstan): "If only one player whists, his/her quota is still the same as when two
# do, games are always played closed, and tricks taken by the passing partner do not belong
# to anyone. Some apply the "over-greedy" rule only when there are two whisters."

TWO_ONLY = Rules.preset("kazakhstan", over_greedy=True, over_greedy_two_only=True)
OVER = Rules.preset("kazakhstan", over_greedy=True)


def test_two_only_lone_whister_is_greedy():
    # Kazakhstan v=8.  6♠ 6–1–3, B whists alone, C passes.  Two-only: B is an ordinary
    # greedy whister: (1+3)×8=32 whists; the defence made its 4, no penalty.  Over-greedy
    # everywhere: B writes only his own 1×8=8 and is short 1 of his personal 2: mountain 8.
    o = contract("6S", (6, 1, 3), (1,))
    sheet = Sheet(TWO_ONLY)
    sheet.record(o)
    assert state(sheet) == ([8, 0, 0], [0, 0, 0], W(BA=32))
    sheet = Sheet(OVER)
    sheet.record(o)
    assert state(sheet) == ([8, 0, 0], [0, 8, 0], W(BA=8))


def test_two_only_lone_whister_answers_for_the_whole_quota():
    # 7♥ (v=16) 9–1–0, B alone: defence 1 of its quota 2: B short 1: mountain 16; B writes
    # 1×16=16.  Over-greedy everywhere: B's personal quota is 1, he has it: no penalty.
    o = contract("7H", (9, 1, 0), (1,))
    sheet = Sheet(TWO_ONLY)
    sheet.record(o)
    assert state(sheet) == ([16, 0, 0], [0, 16, 0], W(BA=16))
    sheet = Sheet(OVER)
    sheet.record(o)
    assert state(sheet) == ([16, 0, 0], [0, 0, 0], W(BA=16))


def test_two_only_two_whisters_still_over_greedy():
    # 6♠ 6–4–0, both whist: the defence made its 4, but over-greedy still holds with two
    # whisters: C short 2 of his personal 2: mountain 2×8=16.  B writes 4×8=32.
    sheet = Sheet(TWO_ONLY)
    sheet.record(contract("6S", (6, 4, 0)))
    assert state(sheet) == ([8, 0, 0], [0, 0, 16], W(BA=32))
    assert over_greedy_applies(TWO_ONLY, (1, 2)) and not over_greedy_applies(TWO_ONLY, (1,))
    assert over_greedy_applies(OVER, (1,))


def _lone_whist(rules: Rules) -> Deal:
    deal = Deal.shuffle(rules, 2, random.Random(2))
    for token in ("6S", "PASS", "PASS"):
        deal.apply(token)
    deal.apply(deal.legal_actions()[0])
    for token in ("6S", "WHIST", "PASS"):
        deal.apply(token)
    return deal


def test_two_only_lone_whister_chooses_open_or_closed():
    # Over-greedy everywhere: "games are always played closed"; two-only: the lone whister
    # is an ordinary one and may open.
    assert [str(a) for a in _lone_whist(OVER).legal_actions()] == ["CLOSED"]
    deal = _lone_whist(TWO_ONLY)
    assert [str(a) for a in deal.legal_actions()] == ["OPEN", "CLOSED"]
    deal.apply("OPEN")
    assert deal.phase is Phase.PLAY and deal.open_defence


# --- 3. VMK: the soloist's free choice of the pool overflow -----------------------------------
# 000 (VMK): "Pool points in excess of the pool size are either treated just like in Sochi, or
# used to write points off from one's own hill. Soloist can freely choose between them."

VMK = Rules.preset("vmk")


def test_vmk_overflow_pool_helps_the_other_pools():
    # Pools 18, 0, 0; A's mountain 10.  A makes 7♥ (v=4) 7–2–1, both whist: B 2×4=8, C 4.
    # POOL (Sochi): 2 fill A's pool, 2 close B's (highest open, tie: next after A), A writes
    # 2×10=20 on B.
    sheet = sheet_of(VMK, [18, 0, 0], [10, 0, 0])
    sheet.record(contract("7H", (7, 2, 1)))
    assert state(sheet) == ([20, 2, 0], [10, 0, 0], W(AB=20, BA=8, CA=4))


def test_vmk_overflow_hill_off_own_mountain():
    # The same deal, A says HILL: 2 fill his pool, 2 come off his mountain: 10 − 2 = 8.
    sheet = sheet_of(VMK, [18, 0, 0], [10, 0, 0])
    sheet.record(contract("7H", (7, 2, 1), off_hill=(0,)))
    assert state(sheet) == ([20, 0, 0], [8, 0, 0], W(BA=8, CA=4))
    assert "A wrote 2 beyond the pool off the mountain" in sheet.entries[0].summary
    assert sum(sheet.balance()) == 0


def test_vmk_overflow_hill_too_small_rest_as_in_sochi():
    # HILL with a mountain of 1: 1 off it, the other 1 closes 1 of B's pool (10 whists).
    sheet = sheet_of(VMK, [18, 0, 0], [1, 0, 0])
    sheet.record(contract("7H", (7, 2, 1), off_hill=(0,)))
    assert state(sheet) == ([20, 1, 0], [0, 0, 0], W(AB=10, BA=8, CA=4))


def test_vmk_hill_choice_only_for_the_soloist():
    sheet = sheet_of(VMK, [18, 0, 0], [10, 0, 0])
    with pytest.raises(ScoringError, match="only the soloist chooses"):
        sheet.record(contract("7H", (7, 2, 1), off_hill=(1,)))
    with pytest.raises(ScoringError, match="needs write_off_choice or pool_overflow_choice"):
        Sheet(Rules.preset("sochi")).record(contract("7H", (7, 2, 1), off_hill=(0,)))
    assert state(sheet) == ([18, 0, 0], [10, 0, 0], W())  # unchanged


def _passed_7h(pool_state) -> Deal:
    deal = Deal.shuffle(VMK, 2, random.Random(3), pool_state=pool_state)
    for token in ("7H", "PASS", "PASS"):
        deal.apply(token)
    deal.apply(deal.legal_actions()[0])
    for token in ("7H", "PASS", "PASS"):
        deal.apply(token)
    return deal


def test_vmk_deal_asks_the_soloist_pool_or_hill():
    # Pools 18, 0, 0, A's mountain 10: A's 7♥ passed out earns 4, 2 beyond his pool: asked.
    deal = _passed_7h(([18, 0, 0], [10, 0, 0]))
    assert deal.phase is Phase.WRITE and deal.to_act == 0
    assert [str(a) for a in deal.legal_actions()] == ["POOL", "HILL"]
    # what the soloist sees at stake: 4 earned, room for 2, 2 over, a mountain of 10
    assert deal.observation(0)["write"] == {"points": 4, "room": 2, "surplus": 2, "mountain": 10}
    assert "write" not in deal.observation(1)
    with pytest.raises(IllegalAction, match="say POOL or HILL"):
        deal.apply("PASS")
    deal.apply("HILL")
    o = deal.outcome()
    assert deal.done and o.kind == "passed" and o.off_hill == (0,)
    sheet = sheet_of(VMK, [18, 0, 0], [10, 0, 0])
    sheet.record(o)
    assert state(sheet) == ([20, 0, 0], [8, 0, 0], W())


@pytest.mark.parametrize("pool_state", [
    None,  # no sheet state given: never asked (Sochi's treatment)
    ([16, 0, 0], [10, 0, 0]),  # the 4 fit in his pool
    ([18, 0, 0], [0, 0, 0]),  # nothing on his hill to write off
    ([18, 20, 20], [10, 0, 0]),  # every other pool full: Sochi's treatment is his hill anyway
])
def test_vmk_deal_asks_only_when_the_choice_matters(pool_state):
    deal = _passed_7h(pool_state)
    assert deal.done and deal.outcome().kind == "passed" and deal.outcome().off_hill == ()


def test_vmk_pool_state_checked():
    with pytest.raises(ValueError, match="pool_state needs 3 pools and 3 mountains"):
        Deal.shuffle(VMK, 2, random.Random(3), pool_state=([0, 0], [0, 0, 0]))


def test_vmk_game_passes_the_sheet_and_records_replay():
    # Random VMK games with a pool of 4, so that games overflow often: the soloist is asked,
    # says POOL or HILL at random, and the record replays to the same sheet.
    asked = 0
    for seed in range(6):
        rng = random.Random(seed)
        game = Game(Rules.preset("vmk", pool=4), seed=seed)
        while not game.finished:
            deal = game.deal or game.start_deal()
            assert deal.pool_state == (tuple(game.sheet.pool), tuple(game.sheet.mountain))
            legal = [str(a) for a in deal.legal_actions()]
            if deal.phase is Phase.WRITE:
                asked += 1
                pools, mountains = deal.pool_state
                seat = deal.declarer
                assert deal.to_act == seat and mountains[seat] > 0
                assert any(p < 4 for s, p in enumerate(pools) if s != seat)
            if deal.phase is Phase.AUCTION and rng.random() < 0.4:
                token = "PASS"
            elif deal.phase is Phase.CONTRACT:
                token = legal[0]
            else:
                token = rng.choice(legal)
            game.apply(token)
        assert sum(game.sheet.balance()) == 0
        assert Game.from_record(game.to_record()).sheet.to_json() == game.sheet.to_json()
    assert asked >= 3
