"""Irregularity penalties on the sheet (issue 8): 000's misdeal, no discard, revoke, advice."""

import pytest

from preferans.game import Game
from preferans.record import RecordError, read_record, replay, write_record
from preferans.rules import Rules
from preferans.scoring import ScoringError
from preferans.sheet import Sheet


def classical() -> Sheet:
    return Sheet(Rules.preset("classical-1971"))


def test_misdeal_one_point_and_no_deal_counted() -> None:
    # 000: "If the dealer mis-deals, he/she writes one point on his/her hill and deals again."
    # Sheet: B's mountain 0 -> 1; nothing else; no deal counted.
    sheet = classical()
    entry = sheet.irregularity(1, "misdeal")
    assert sheet.mountain == [0, 1, 0]
    assert entry["mountain"] == [0, 1, 0]
    assert entry["note"] == "B misdealt: the cards are dealt again (+1 mountain)"
    assert sheet.entries == []
    assert sheet.rogue_lists == classical().rogue_lists
    assert sheet.to_json()["irregularities"] == [entry]


def test_no_discard_three_undertricks_of_the_game() -> None:
    # 000: "If the soloist forgets to discard two cards after taking the widow, he/she writes
    # three undertricks and the hand is not considered as played."
    # Classical 7: game point 4; three undertricks = 3 x 4 = 12 on A's mountain.
    sheet = classical()
    entry = sheet.irregularity(0, "no_discard", contract="7H")
    assert sheet.mountain == [12, 0, 0]
    assert entry["contract"] == "7H"
    assert "three undertricks (+12 mountain)" in entry["note"]
    assert sheet.entries == []


def test_revoke_three_undertricks_misere() -> None:
    # 000: "If a player fails to follow the suit led or play a trump when he/she can, he/she
    # writes three undertricks on the hill and the hand is not considered as played."
    # Misère: game point 10; 3 x 10 = 30 on C's mountain.  Two revokes add up: + 8S (6 x 3).
    sheet = classical()
    sheet.irregularity(2, "revoke", contract="MISERE")
    sheet.irregularity(2, "revoke", contract="8S")
    assert sheet.mountain == [0, 0, 48]
    assert [x["after_deal"] for x in sheet.irregularities] == [0, 0]


def test_mountain_scale_doubles_undertricks() -> None:
    rules = Rules.preset("sochi")
    scaled = Rules.preset("sochi", mountain_scale=2)
    a, b = Sheet(rules), Sheet(scaled)
    a.irregularity(0, "revoke", contract="6S")
    b.irregularity(0, "revoke", contract="6S")
    assert b.mountain[0] == 2 * a.mountain[0] == 2 * 3 * rules.contract_value(6)


def test_advice_one_point() -> None:
    # 000: "If a partner gives an advise to the other, he/she writes one point on his/her hill."
    sheet = classical()
    entry = sheet.irregularity(0, "advice")
    assert sheet.mountain == [1, 0, 0]
    assert entry["balance_change"][0] < 0


def test_revoke_in_allpass_is_ten_tricks() -> None:
    # 000: "If this happens in all-pass, the offending player is assumed to have taken ten
    # tricks and the all-pass is considered to be played."
    # Sochi all-pass (stake 1): C 10 tricks -> +10 mountain; A, B no trick -> +1 pool each.
    sheet = Sheet(Rules.preset("sochi"))
    deal = sheet.irregularity(2, "revoke", dealer=0)
    assert deal["kind"] == "allpass" and deal["tricks"] == [0, 0, 10]
    assert deal["irregularity"] == {"seat": 2, "kind": "revoke", "dealer": 0}
    assert sheet.mountain == [0, 0, 10]
    assert sheet.pool == [1, 1, 0]
    assert len(sheet.entries) == 1 and sheet.allpass_streak == 1
    assert "revoked in all-pass" in deal["summary"]


def test_classical_first_half_has_no_allpass() -> None:
    sheet = classical()
    with pytest.raises(ScoringError, match="first half plays no all-pass"):
        sheet.irregularity(0, "revoke", dealer=1)
    assert sheet.mountain == [0, 0, 0]


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        ((3, "misdeal"), {}, "seat 3 is not a seat"),
        ((0, "renege"), {}, "unknown kind 'renege'"),
        ((0, "revoke"), {"contract": "11S"}, "contract '11S'"),
        ((0, "revoke"), {}, "names the contract, or the dealer"),
        ((0, "no_discard"), {}, "names the contract"),
        ((0, "misdeal"), {"contract": "6S"}, "names no contract"),
    ],
)
def test_errors(args: tuple, kwargs: dict, message: str) -> None:
    sheet = Sheet(Rules.preset("sochi"))
    with pytest.raises(ScoringError, match=message):
        sheet.irregularity(*args, **kwargs)
    assert sheet.irregularities == [] and sheet.mountain == [0, 0, 0]


# --- records ---------------------------------------------------------------------------------


def _played_game() -> Game:
    game = Game(Rules.preset("sochi", pool=10), seed=3)
    game.start_deal()
    while game.deal is not None:
        game.apply(game.deal.legal_actions()[0])
    return game


def test_record_round_trip() -> None:
    rec = write_record(_played_game())
    played = rec["deals"][0]
    rec["deals"] = [
        {"dealer": 0, "irregularity": {"seat": 0, "kind": "misdeal"}},
        played,
        {"dealer": 1, "irregularity": {"seat": 2, "kind": "revoke", "contract": "8S"}},
    ]
    game = replay(rec)
    sheet = game.sheet
    assert [x["after_deal"] for x in sheet.irregularities] == [0, 1]
    plain = replay({**rec, "deals": [played]}).sheet
    # misdeal +1 on A; revoke in 8♠ (sochi game 8 = 6): 3 x 6 = 18 on C.
    assert sheet.mountain[0] == plain.mountain[0] + 1
    assert sheet.mountain[2] == plain.mountain[2] + 3 * Rules.preset("sochi").contract_value(8)
    assert game.dealer == 2  # a revoke's hand was dealt properly: the deal passes on
    again = write_record(game)
    assert again["deals"] == read_record(rec)["deals"]
    notes = [x["note"] for x in sheet.to_json()["irregularities"]]
    assert notes[0] == "A misdealt: the cards are dealt again (+1 mountain)"
    assert notes[1].startswith("C revoked in 8♠: three undertricks (+18 mountain)")


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"seat": 5, "kind": "misdeal"}, "deal 1: irregularity seat 5 is not a seat"),
        ({"seat": 0, "kind": "renege"}, "deal 1: irregularity kind 'renege'"),
        ({"seat": 0, "kind": "revoke"}, "deal 1: a revoke names its contract"),
        ({"seat": 0, "kind": "revoke", "contract": "12X"}, "deal 1: irregularity: contract '12X'"),
        ({"seat": 0, "kind": "misdeal", "contract": "6S"}, "deal 1: irregularity: a misdeal"),
        ("revoke", "deal 1: irregularity must be an object"),
    ],
)
def test_record_errors(entry: object, message: str) -> None:
    rec = {"format": "preferans-record/1", "rules": Rules.preset("sochi").to_json(), "deals": [
        {"dealer": 0, "irregularity": entry}]}
    with pytest.raises(RecordError, match=message):
        replay(rec)
