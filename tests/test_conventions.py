"""000's conventions as presets: each scoring path that differs from Sochi, hand-worked.

Seats: A=0, B=1, C=2 (D=3 with four players); the dealer is C unless said otherwise, so
A is first hand and, as declarer, is defended by B (first defender) then C.  v is the
contract value; each test's comment gives the sheet worked by hand and the rule of 000
it follows.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest

from preferans.actions import IllegalAction
from preferans.auction import Auction
from preferans.bids import MISERE, Bid
from preferans.cards import Card, CardSet
from preferans.deal import Deal, Phase
from preferans.game import Game
from preferans.outcome import DealOutcome
from preferans.record import read_record, replay
from preferans.rules import (
    PRESET_DOCS,
    PRESETS,
    Rules,
    RulesError,
    option_choices,
    option_docs,
    options_schema,
    options_table,
)
from preferans.scoring import next_allpass_streak, talon_quick_tricks
from preferans.sheet import Sheet, settle


def contract(
    bid: str,
    tricks: tuple[int, ...],
    whisters: tuple[int, ...] = (1, 2),
    *,
    declarer: int = 0,
    dealer: int = 2,
    kind: str = "contract",
    half: int | None = None,
    defence: tuple[str, ...] | None = None,
    talon: tuple[str, ...] = (),
    refused: bool = False,
) -> DealOutcome:
    b = Bid.parse(bid)
    players = len(tricks)
    probe = DealOutcome("contract", dealer, players, declarer, b)
    if defence is None:
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
        False if len(whisters) == 1 else None,
        tricks,
        talon=tuple(Card.parse(c) for c in talon),
        talon_refused=refused,
    )


def allpass(tricks: tuple[int, ...], dealer: int = 2) -> DealOutcome:
    return DealOutcome("allpass", dealer, len(tricks), tricks=tricks)


def state(sheet: Sheet) -> tuple[list, list, list]:
    j = sheet.to_json()
    return j["pool"], j["mountain"], j["whists"]


def one(preset: str, outcome: DealOutcome, **overrides) -> Sheet:
    rules = Rules.preset(preset, players=outcome.players, **overrides)
    sheet = Sheet(rules, "ABCD"[: outcome.players])
    sheet.record(outcome)
    return sheet


def W(n: int = 3, **cells: int | float) -> list[list]:
    """A whists matrix from cells like AB=8 (A wrote 8 on B)."""
    m: list[list] = [[0] * n for _ in range(n)]
    for key, value in cells.items():
        m["ABCD".index(key[0])]["ABCD".index(key[1])] = value
    return m


# --- the presets as data ----------------------------------------------------------------------


def test_presets_follow_000():
    p = {name: Rules.preset(name) for name in PRESETS}
    assert p["piter"].allpass_trick_points == 2 and p["piter"].allpass_progression == (1, 2, 3)
    assert [p["piter"].min_bid_level(k) for k in range(4)] == [6, 7, 7, 7]
    assert [p["piter-hard"].min_bid_level(k) for k in range(4)] == [6, 7, 8, 8]
    assert p["piter"].whist == "gentlemanly" and p["piter"].shortage == "half"
    assert p["piter"].pool_doubled_at_settlement and p["piter"].game_end == "total"
    assert p["moscow"].consolation_per_undertrick == 10 and p["moscow"].talon_prizes == "whists"
    assert p["moscow"].allpass_talon == "closed" and p["moscow"].allpass_progression == (1,)
    k = p["kazakhstan"]
    assert k.contract_values == (8, 16, 24, 32, 40) and k.misere_value == 40 and k.pool == 120
    assert k.allpass_trick_points == 10 and k.allpass_zero_pool == 2
    f = p["finn"]
    assert (f.pool, f.start_mountain, f.first_pool_bonus, f.clear_mountain_bonus) == (
        40, 20, 120, (80, 60))
    assert f.whist_pass_half_whist and f.mountain_scale == f.whist_scale == 2
    v = p["vmk"]
    assert v.resignation and v.stalingrad and not v.tens_whisted
    assert v.responsible_at_8plus == "both" and not v.whist_pass_half_whist
    c = p["code1996"]
    assert not c.jump_bids and c.allpass_min_bid == (6,) and c.tens_whisted
    assert c.open_before_lead and c.misere_exposure == "after_declarer_lead"
    assert not c.stalingrad and not c.resignation and c.responsible_at_8plus == "second"
    # 003's presets are unchanged; piter is its own preset now, leningrad stays 003's.
    assert Rules.preset("piter").name == "piter" and Rules.preset("peter").name == "piter"
    assert Rules.preset("rostov-000").name == "moscow"
    assert Rules.preset("leningrad").allpass_progression == (1, 2, 4)


def test_every_preset_documented_and_round_trips():
    for name, rules in PRESETS.items():
        assert name in PRESET_DOCS
        assert Rules.from_json(rules.to_json()) == rules
        assert Rules.from_json(json.loads(json.dumps(rules.to_json()))) == rules


def test_options_schema_is_json_and_complete():
    schema = options_schema()
    json.dumps(schema)
    names = [e["name"] for e in schema]
    assert names == list(option_docs())
    by = {e["name"]: e for e in schema}
    assert by["whist"]["choices"] == ["greedy", "gentlemanly"]
    assert by["pool"]["type"] == "int" and by["allpass_min_bid"]["type"] == "int list"
    assert by["contract_values"]["presets"]["kazakhstan"] == [8, 16, 24, 32, 40]
    assert option_choices()["resignation"] == (False, True)
    table = options_table()
    assert all(name in table.splitlines()[0] for name in PRESETS)


def test_every_option_switchable_on_any_preset():
    flips = dict(
        jump_bids=False, allpass_min_bid=(6, 7, 8), stalingrad=True, tens_whisted=False,
        whist_pass_half_whist=True, open_before_lead=False, misere_exposure="before_lead",
        allpass_talon="closed", whist="gentlemanly", shortage="half",
        responsible_at_8plus="both", allpass_progression=(1, 2, 4), resignation=True,
        talon_refusal=True, over_greedy=True, allpass_exchange=True, misere_outbid_by=10,
        allpass_exit_on_failed=False, pool_overflow="kept",
    )
    for name in PRESETS:
        rules = Rules.preset(name, **flips)
        assert Rules.from_json(rules.to_json()) == rules
    with pytest.raises(RulesError, match="pool_overflow='over' is not allowed"):
        Rules.preset("piter", pool_overflow="over")


# --- Sochi as 000 tells it -------------------------------------------------------------------


def test_sochi_000_allpass_without_escalation():
    # 000 Sochi: one mountain point per trick, no rise: 4–3–3 three times in a row: 12, 9, 9;
    # the next auction still opens at 6.
    sheet = Sheet(Rules.preset("sochi-000"))
    for dealer in range(3):
        sheet.record(allpass((4, 3, 3), dealer=dealer))
    assert state(sheet)[1] == [12, 9, 9]
    assert [e.stake for e in sheet.entries] == [1, 1, 1] and sheet.min_bid_level == 6


def test_sochi_000_overflow_off_own_mountain_only():
    # Every pool closed, B (no mountain) makes 6♠: the 2 points are lost, not put on the
    # others' mountains as 003's Sochi does.
    sheet = Sheet(Rules.preset("sochi-000"))
    sheet.pool = [Fraction(20)] * 3
    sheet.record(contract("6S", (0, 0, 0), (), kind="passed", declarer=1, dealer=0))
    assert state(sheet) == ([20, 20, 20], [0, 0, 0], W())


# --- Piter ------------------------------------------------------------------------------------


def test_piter_allpass_2_4_6():
    # 4–3–3, 2–3–5, 3–3–4 in a row at 2 a trick, stakes 1, 2, 3 (2–4–6):
    # 8,6,6 + 8,12,20 + 18,18,24 = 34, 36, 50.  (003's Leningrad: 1, 2, 4.)
    sheet = Sheet(Rules.preset("piter"))
    for dealer, tricks in enumerate([(4, 3, 3), (2, 3, 5), (3, 3, 4)]):
        sheet.record(allpass(tricks, dealer=dealer))
    assert state(sheet)[1] == [34, 36, 50]
    assert [e.stake for e in sheet.entries] == [1, 2, 3]


def test_piter_only_a_whisted_made_contract_exits():
    # 000 Piter: "A whisted and successfully played game brings this back to the normal."
    rules = Rules.preset("piter")
    failed = contract("7H", (6, 3, 1))
    passed = contract("7H", (0, 0, 0), (), kind="passed")
    misere = DealOutcome("misere", 2, 3, 0, MISERE, tricks=(0, 5, 5))
    for o in (failed, passed, misere):
        assert next_allpass_streak(rules, o, 2) == 2
    assert next_allpass_streak(rules, contract("7H", (7, 2, 1)), 2) == 0
    hard = Rules.preset("piter-hard")
    sheet = Sheet(hard)
    sheet.record(allpass((4, 3, 3)))
    sheet.record(allpass((4, 3, 3), dealer=0))
    sheet.record(failed)
    assert sheet.allpass_streak == 2 and sheet.min_bid_level == 8


def test_piter_pool_kept_total_end_and_doubled_settlement():
    # Pool 10.  A makes two passed-out tens (10 + 10): no help, A's pool holds 20; the game
    # is not over until the pools total 30.  B makes a ten: 20, 10, 0 — over.
    # Settlement: missing/excess doubled: 2×(10−20)=−20, 0, 2×10=20; average 0:
    # 10×(0+20)=200, 0, −200.
    sheet = Sheet(Rules.preset("piter", pool=10))
    ten = contract("10S", (0, 0, 0), (), kind="passed")
    sheet.record(ten)
    sheet.record(ten)
    assert state(sheet)[0] == [20, 0, 0] and not sheet.finished
    sheet.record(contract("10S", (0, 0, 0), (), kind="passed", declarer=1, dealer=0))
    assert sheet.finished
    assert sheet.balance() == [200, 0, -200]
    assert settle(sheet.rules, [20, 10, 0], [0, 0, 0], [[0] * 3] * 3) == [200, 0, -200]


def test_piter_contracts_score_like_leningrad():
    # 7♥ 6–3–1 both whist: mountain 4×2=8; 8 per trick + 8 prize: B 32, C 16 (000 Piter:
    # "twice the game points for each undertrick ... everyone else ... the same amount").
    assert state(one("piter", contract("7H", (6, 3, 1)))) == ([0, 0, 0], [8, 0, 0],
                                                              W(BA=32, CA=16))
    # Lone whister short: 6♠ 7–2–1, C whists alone: half-responsible, not doubled: 2×1=2.
    sheet = one("piter", contract("6S", (7, 2, 1), (2,)))
    assert state(sheet) == ([2, 0, 0], [0, 0, 2], W(CA=12))


# --- Rostov / Moscow (000) -------------------------------------------------------------------


def test_moscow_ten_whists_per_undertrick():
    # 7♥ 6–3–1 both whist: mountain 4; prize 10 per undertrick from each: B 3×4+10=22,
    # C 4+10=14.
    assert state(one("moscow", contract("7H", (6, 3, 1)))) == ([0, 0, 0], [4, 0, 0],
                                                               W(BA=22, CA=14))


def test_moscow_gentlemanly_lone_whister():
    # 6♠ 5–4–1, B whists alone: mountain 2; trick whists 5×2=10 shared 5/5 (gentlemanly),
    # plus 10 prize each: B 15, C 15.
    assert state(one("moscow", contract("6S", (5, 4, 1), (1,)))) == (
        [0, 0, 0], [2, 0, 0], W(BA=15, CA=15))


def test_moscow_half_responsible():
    # 6♣ 8–2–0 both whist: C short 2 of his 2: half of 2×2 = 2 in the mountain, no whists.
    assert state(one("moscow", contract("6C", (8, 2, 0)))) == ([2, 0, 0], [0, 0, 2], W(BA=4))


def test_moscow_allpass_without_escalation():
    # 4–3–3 then 2–3–5, 5 whists a trick, stake fixed: B, C share 20 on A (10 each), then A
    # writes 15 on B and 25 on C.
    sheet = Sheet(Rules.preset("moscow"))
    sheet.record(allpass((4, 3, 3)))
    sheet.record(allpass((2, 3, 5), dealer=0))
    assert state(sheet) == ([0, 0, 0], [0, 0, 0], W(AB=15, AC=25, BA=10, CA=10))
    assert sheet.min_bid_level == 6


def test_moscow_talon_prizes_three_players():
    # Talon A♠ K♠ (ace and king of a suit: 20, half with three players: 10 from each
    # defender).  7♥ 7–2–1 made: B 2×4 + 10 = 18, C 4 + 10 = 14.
    sheet = one("moscow", contract("7H", (7, 2, 1), talon=("AS", "KS")))
    assert state(sheet) == ([4, 0, 0], [0, 0, 0], W(BA=18, CA=14))


def test_moscow_refused_talon_three_players():
    # A refuses the talon: 5 whists on each defender; 7♥ 7–2–1 made otherwise as usual.
    sheet = one("moscow", contract("7H", (7, 2, 1), talon=("AS", "AH"), refused=True))
    assert state(sheet) == ([4, 0, 0], [0, 0, 0], W(AB=5, AC=5, BA=8, CA=4))


def test_moscow_talon_prizes_four_players():
    # Four players, D deals: talon A♥ A♦ (two aces, 30): D writes 30 on A; 7♥ 7–2–1–0.
    sheet = one("moscow", contract("7H", (7, 2, 1, 0), dealer=3, talon=("AH", "AD")))
    assert state(sheet)[2] == W(4, BA=8, CA=4, DA=30)
    refused = one("moscow", contract("7H", (7, 2, 1, 0), dealer=3, talon=("7H", "8D"),
                                      refused=True))
    assert state(refused)[2] == W(4, AD=10, BA=8, CA=4)


@pytest.mark.parametrize(("talon", "count"), [
    (("AS", "AH"), 3), (("AS", "KS"), 2), (("AS", "KH"), 1), (("KC", "QC"), 1),
    (("KC", "QD"), 0), (("7S", "8S"), 0),
])
def test_talon_quick_tricks(talon, count):
    assert talon_quick_tricks([Card.parse(c) for c in talon]) == count


# --- Kazakhstan -------------------------------------------------------------------------------


def test_kazakhstan_values():
    # 6♠ 6–4–0 both whist, v=8: A pool 8; B 4×8=32.
    assert state(one("kazakhstan", contract("6S", (6, 4, 0)))) == ([8, 0, 0], [0, 0, 0],
                                                                   W(BA=32))


def test_kazakhstan_no_prize_for_the_passer():
    # 7♥ 6–3–1, B whists alone (C passes), v=16: mountain 16; greedy B writes 4×16=64 plus
    # his prize 16 = 80; C, the passer, writes nothing ("everyone else but a passing partner").
    assert state(one("kazakhstan", contract("7H", (6, 3, 1), (1,)))) == (
        [0, 0, 0], [16, 0, 0], W(BA=80))


def test_kazakhstan_misere_and_allpass():
    # Misère with two tricks: 2×40=80.  All-pass 0–5–5: A writes 10×5=50 on B and C and
    # earns 2 pool points; 4–3–3: B, C share 40 on A.
    m = DealOutcome("misere", 2, 3, 0, MISERE, tricks=(2, 4, 4))
    assert state(one("kazakhstan", m))[1] == [80, 0, 0]
    assert state(one("kazakhstan", allpass((0, 5, 5)))) == ([2, 0, 0], [0, 0, 0],
                                                            W(AB=50, AC=50))
    assert state(one("kazakhstan", allpass((4, 3, 3))))[2] == W(BA=20, CA=20)


def test_kazakhstan_over_greedy_two_whisters():
    # Over-greedy: 6♠ 6–4–0 both whist: the defence made its 4, but C's personal quota is 2:
    # C short 2: mountain 2×8=16.  (Plain responsible whist: no penalty.)
    sheet = one("kazakhstan", contract("6S", (6, 4, 0)), over_greedy=True)
    assert state(sheet) == ([8, 0, 0], [0, 0, 16], W(BA=32))
    assert state(one("kazakhstan", contract("6S", (6, 4, 0))))[1] == [0, 0, 0]


def test_kazakhstan_over_greedy_lone_whister():
    # 6♠ 6–1–3, B whists alone: the passer's 3 tricks belong to nobody: B writes 1×8=8 and
    # is short 1 of his personal 2: mountain 8.  (Greedy: B writes 4×8=32, no penalty.)
    sheet = one("kazakhstan", contract("6S", (6, 1, 3), (1,)), over_greedy=True)
    assert state(sheet) == ([8, 0, 0], [0, 8, 0], W(BA=8))


# --- Finn's -----------------------------------------------------------------------------------


def test_finn_start_and_made_contract_off_the_mountain():
    # Every mountain starts at 20.  7♥ 7–2–1 both whist: pool 4 and 4 off A's mountain;
    # whists doubled: B 16, C 8.
    sheet = Sheet(Rules.preset("finn"))
    assert state(sheet)[1] == [20, 20, 20] and sheet.balance() == [0, 0, 0]
    sheet.record(contract("7H", (7, 2, 1)))
    assert state(sheet) == ([4, 0, 0], [16, 20, 20], W(BA=16, CA=8))


def test_finn_failed_contract_whister_takes_passers_prize():
    # 6♠ 5–4–1, B whists alone: A mountain 20 + 2×2=24; prize 2×2=4 per undertrick; B writes
    # 5×4 + 4 + the passer's 4 = 28; C nothing.
    sheet = one("finn", contract("6S", (5, 4, 1), (1,)))
    assert state(sheet) == ([0, 0, 0], [24, 20, 20], W(BA=28))


def test_finn_allpass_and_zero_points():
    # 0–5–5: B and C 2×5=10 each; A 2 pool points.  Then 4–3–3: 8, 6, 6.  Stakes never rise.
    sheet = Sheet(Rules.preset("finn"))
    sheet.record(allpass((0, 5, 5)))
    sheet.record(allpass((4, 3, 3), dealer=0))
    assert state(sheet)[:2] == ([2, 0, 0], [20 + 8, 20 + 10 + 6, 20 + 10 + 6])
    assert [e.stake for e in sheet.entries] == [1, 1]


def test_finn_emptied_mountain_bonus_and_others_mountain():
    # Mountains 1, 5, 20; A makes 6♠ (2): 1 off his own, 1 off the smallest other (B's 5,
    # A writes 10 on B).  A's mountain is empty first: 80 whists on B and on C.
    sheet = Sheet(Rules.preset("finn"))
    sheet.mountain = [Fraction(1), Fraction(5), Fraction(20)]
    sheet.record(contract("6S", (0, 0, 0), (), kind="passed"))
    assert state(sheet) == ([2, 0, 0], [0, 4, 20], W(AB=90, AC=80))
    assert sheet.bonuses == {"clear_mountain": 0}
    # Again 6♠: A's mountain is empty, so both points come off B's (20 whists); no
    # second bonus.
    sheet.record(contract("6S", (0, 0, 0), (), kind="passed"))
    assert state(sheet) == ([4, 0, 0], [0, 2, 20], W(AB=110, AC=80))


def test_finn_first_pool_ends_the_game_with_bonus():
    # Pools 38, 0, 0: A makes 6♠ (2): pool 40, the game is over; 120 whists on B and C.
    sheet = Sheet(Rules.preset("finn"))
    sheet.pool = [Fraction(38), Fraction(0), Fraction(0)]
    sheet.record(contract("6S", (0, 0, 0), (), kind="passed"))
    assert sheet.finished and sheet.bonuses == {"first_pool": 0}
    assert state(sheet)[2] == W(AB=120, AC=120)
    assert sheet.to_json()["bonuses"] == {"first_pool": 0}


def test_finn_four_player_talon_prize_in_tricks():
    # Four players, D deals; talon A♠ K♠ = 2 tricks at 2×4=8: D writes 16 on A; 4 players'
    # emptied-mountain bonus would be 60.
    sheet = one("finn", contract("7H", (7, 2, 1, 0), dealer=3, talon=("AS", "KS")))
    assert state(sheet)[2] == W(4, BA=16, CA=8, DA=16)


# --- VMK --------------------------------------------------------------------------------------


def test_vmk_prize_ten_per_undertrick():
    # 7♥ 6–3–1: mountain 4; B 3×4+10=22, C 4+10=14.
    assert state(one("vmk", contract("7H", (6, 3, 1))))[2] == W(BA=22, CA=14)


def test_vmk_both_responsible_and_tens_checked():
    # 8♦ 10–0–0 both whist: both answer, 6×½=3 each.  10♠ 9–1–0 checked (nobody whists):
    # mountain 10 and 10 prize from each.
    assert state(one("vmk", contract("8D", (10, 0, 0))))[1] == [0, 3, 3]
    assert state(one("vmk", contract("10S", (9, 1, 0), ()))) == (
        [0, 0, 0], [10, 0, 0], W(BA=10, CA=10))


def test_vmk_resignation_scores_three_undertricks():
    # Resigned 7♥: 4×3=12 in the mountain, nothing else.
    sheet = one("vmk", contract("7H", (0, 0, 0), (), kind="resigned", defence=()))
    assert state(sheet) == ([0, 0, 0], [12, 0, 0], W())
    assert sheet.entries[0].summary == "A resigned 7♥ (+12 mountain)"


def test_vmk_allpass_doubles_once():
    # 2 a trick, stakes 1, 2, 2: 4–3–3 ×3: 8+16+16=40, 30, 30; minimum bid 7 after.
    sheet = Sheet(Rules.preset("vmk"))
    for dealer in range(3):
        sheet.record(allpass((4, 3, 3), dealer=dealer))
    assert state(sheet)[1] == [40, 30, 30] and sheet.min_bid_level == 7


# --- Code 1996 --------------------------------------------------------------------------------


def test_code1996_no_jumps_and_no_raised_minimum():
    rules = Rules.preset("code1996")
    a = Auction(rules, (0, 1, 2), rules.min_bid_level(3))
    assert [str(x) for x in a.legal()] == ["6S", "MISERE", "PASS"]
    a.call(0, "6S")
    assert [str(x) for x in a.legal()] == ["6C", "MISERE", "PASS"]


# --- the deal machine -------------------------------------------------------------------------


def _to_talon(game: Game, *calls: str) -> Deal:
    deal = game.start_deal()
    for token in calls:
        game.apply(token)
    return deal


def test_resign_action_after_the_talon():
    game = Game(Rules.preset("vmk"), seed=3)
    deal = _to_talon(game, "6S", "PASS", "PASS")
    assert deal.phase is Phase.DISCARD and "RESIGN" in [str(a) for a in deal.legal_actions()]
    game.apply("RESIGN")
    assert deal.outcome().kind == "resigned" and str(deal.outcome().contract) == "6S"
    assert game.sheet.mountain[1] == 6  # first hand B (dealer A): 2 × 3
    record = game.to_record()
    assert record["deals"][0]["actions"][-1] == "RESIGN"
    assert Game.from_record(record).sheet.to_json() == game.sheet.to_json()


def test_resign_refused_where_not_allowed():
    game = Game(Rules.preset("sochi"), seed=3)
    _to_talon(game, "6S", "PASS", "PASS")
    with pytest.raises(IllegalAction, match="resignation is not allowed by these rules"):
        game.apply("RESIGN")


def test_refuse_the_talon():
    game = Game(Rules.preset("moscow"), seed=5)
    deal = _to_talon(game, "6S", "PASS", "PASS")
    game.apply("REFUSE")
    assert deal.phase is Phase.CONTRACT and len(deal.hand(deal.declarer)) == 10
    assert deal.observation(0)["talon_refused"] is True
    game.apply("6S")
    game.apply("PASS")
    game.apply("PASS")
    assert deal.outcome().talon_refused and deal.outcome().kind == "passed"
    # 5 whists on each defender, pool 2.
    assert sum(game.sheet.whists[deal.declarer]) == 10


def test_allpass_exchange_before_the_play():
    rules = Rules.preset("kazakhstan", allpass_exchange=True)
    game = Game(rules, seed=11)
    deal = _to_talon(game, "PASS", "PASS", "PASS")
    for k in range(3):
        assert deal.phase is Phase.EXCHANGE and deal.to_act == deal.seats[k]
        assert len(deal.hand(deal.to_act)) == 12
        others = [s for s in deal.seats if s != deal.to_act]
        assert all(len(deal.hand(s)) == 10 for s in others)
        game.apply(deal.legal_actions()[-1])
    assert deal.phase is Phase.PLAY
    held = CardSet()
    for s in deal.seats:
        held |= deal.hand(s)
    assert len(held) == 30
    while not deal.done:
        game.apply(deal.legal_actions()[0])
    assert sum(deal.outcome().tricks) == 10
    assert Game.from_record(game.to_record()).sheet.to_json() == game.sheet.to_json()


def test_over_greedy_lone_whister_plays_closed():
    rules = Rules.preset("kazakhstan", over_greedy=True)
    deal = Deal.shuffle(rules, 2, random.Random(2))
    for token in ("6S", "PASS", "PASS"):
        deal.apply(token)
    deal.apply(deal.legal_actions()[0])
    for token in ("6S", "WHIST", "PASS"):
        deal.apply(token)
    assert [str(a) for a in deal.legal_actions()] == ["CLOSED"]
    with pytest.raises(IllegalAction, match="the lone whister chooses CLOSED"):
        deal.apply("OPEN")


def test_stalingrad_forces_whists_in_vmk():
    game = Game(Rules.preset("vmk"), seed=4)
    deal = _to_talon(game, "6S", "PASS", "PASS")
    game.apply(deal.legal_actions()[0])
    game.apply("6S")
    assert [str(a) for a in deal.legal_actions()] == ["WHIST"]


# --- random three-player games under every preset ----------------------------------------------


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_random_three_player_games_to_the_end(preset):
    extra = {"allpass_exchange": True, "over_greedy": True} if preset == "kazakhstan" else {}
    rules = Rules.preset(preset, pool=4, resignation=True, talon_refusal=True, **extra)
    for seed in range(3):
        rng = random.Random(seed)
        game = Game(rules, seed=seed, first_dealer=seed % 3)
        for _ in range(4000):
            if game.finished:
                break
            deal = game.deal or game.start_deal()
            legal = [str(a) for a in deal.legal_actions()]
            if deal.phase is Phase.CONTRACT and rng.random() < 0.9:
                token = legal[0]
            elif deal.phase is Phase.AUCTION and rng.random() < 0.5:
                token = "PASS"
            else:
                token = rng.choice(legal)
            game.apply(token)
        assert game.finished
        assert sum(game.sheet.balance()) == 0
        for deal in game.finished_deals:
            o = deal.outcome()
            assert sum(o.tricks) == (10 if o.kind in ("contract", "misere", "allpass") else 0)
        assert Game.from_record(game.to_record()).sheet.to_json() == game.sheet.to_json()


# --- replayed records (tests/records/) ---------------------------------------------------------


RECORDS = Path(__file__).parent / "records" / "conventions"  # own folder: test_scoring_records
# checks that it uses every record directly under records/


def replayed(name: str) -> dict:
    record = json.loads((RECORDS / f"{name}.json").read_text())
    sheet = replay(read_record(record)).sheet.to_json()
    assert Game.from_record(record).sheet.to_json() == sheet
    return sheet


@pytest.mark.parametrize(("name", "expected"), [
    # VMK: A (first hand) buys the talon with 7♠ and resigns: 4×3=12 mountain, no whists.
    ("vmk_resign_7s", ([0, 0, 0], [12, 0, 0], W())),
    # Moscow: A refuses the talon (5 whists on each defender); 6♠ passed out: pool 2.
    ("moscow_refused_talon", ([2, 0, 0], [0, 0, 0], W(AB=5, AC=5))),
    # Moscow: talon A♣ A♦ (two aces: 30, half each with three players); 6♠ passed out:
    # pool 2, B and C write 15 each on A.
    ("moscow_talon_prize", ([2, 0, 0], [0, 0, 0], W(BA=15, CA=15))),
    # Kazakhstan with the exchange: all-pass 4–4–2 after three exchanges; C took fewest and
    # writes 10×4=40 on A and on B.
    ("kazakhstan_exchange_allpass", ([0, 0, 0], [0, 0, 0], W(CA=40, CB=40))),
    # Four players, D deals: A 8♠, B and C pass, D looks at B's hand and whists, playing
    # both defending hands: 2–7–1–0, A down 6: mountain 6×6=36; D writes (7+1)×6=48 plus his
    # 36 prize = 84; B and C (passers) 36 prize each.
    ("four_sochi_dealer_whist_8s", ([0, 0, 0, 0], [36, 0, 0, 0], W(4, BA=36, CA=36, DA=84))),
])
def test_replayed_convention_records(name, expected):
    sheet = replayed(name)
    assert (sheet["pool"], sheet["mountain"], sheet["whists"]) == expected
    assert sum(sheet["balance"]) == pytest.approx(0, abs=0.01)  # rounded to 3 places
