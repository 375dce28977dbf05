"""Records: validation, replay (finished and mid-deal), errors naming deal/action/seat/phase."""

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from preferans.game import Game
from preferans.record import RecordError, read_record, replay, write_record
from preferans.rules import Rules, RulesError

HANDS = [
    ["AS", "KS", "QS", "JS", "AC", "KC", "AD", "9H", "8H", "7H"],
    ["10S", "9S", "8S", "7S", "QC", "JC", "KD", "QD", "JH", "10H"],
    ["10C", "9C", "8C", "7C", "JD", "10D", "9D", "8D", "KH", "QH"],
]
TALON = ["AH", "7D"]
PLAY = ["AS", "7S", "QH", "KH", "8H", "10H"]


def record(actions: list[str], **deal_changes) -> dict:
    deal = {"dealer": 2, "hands": copy.deepcopy(HANDS), "talon": list(TALON), "actions": actions}
    deal.update(deal_changes)
    return {
        "format": "preferans-record/1",
        "rules": {"preset": "sochi", "pool": 10},
        "players": ["A", "B", "C"],
        "deals": [deal],
    }


def test_replay_a_passed_contract_scores_the_pool():
    game = replay(record(["6S", "PASS", "PASS", "DISCARD 7H 7D", "7H", "PASS", "PASS"]))
    assert game.deal is None and len(game.finished_deals) == 1
    assert game.sheet.pool == [4, 0, 0]
    assert game.finished_deals[0].outcome().kind == "passed"


def test_replay_mid_deal_leaves_the_deal_open():
    game = replay(record(["6S", "PASS", "PASS", "DISCARD 7H 7D", "7H", "WHIST", "WHIST", *PLAY]))
    assert game.deal is not None and game.deal.phase.value == "play"
    assert len(game.deal.tricks) == 2 and game.deal.to_act == 2
    assert game.sheet.entries == []


def test_write_read_replay_round_trip():
    g = Game(Rules.preset("leningrad", pool=4), seed=11)
    import random

    rng = random.Random(11)
    while not g.finished:
        if g.deal is None:
            g.start_deal()
        g.apply(rng.choice(g.legal_actions()))
    rec = write_record(g)
    text = json.dumps(rec)
    again = replay(read_record(json.loads(text)))
    assert again.sheet.to_json() == g.sheet.to_json()
    assert write_record(again) == rec
    assert rec["rules"] == {"preset": "leningrad", "pool": 4}


def test_read_record_from_path_and_text(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record(["PASS"])))
    assert read_record(path)["deals"][0]["actions"] == ["PASS"]
    assert read_record(str(path)) == read_record(path.read_text())


def test_cards_are_normalised():
    rec = record([])
    rec["deals"][0]["hands"][0] = [c.lower().replace("10", "T") for c in HANDS[0]]
    assert read_record(rec)["deals"][0]["hands"][0] == HANDS[0]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"hands": [[*HANDS[0], "AH"], HANDS[1], HANDS[2]], "talon": ["7D", "7D"]},
         "deal 1: seat 0 has 11 cards, not 10"),
        ({"talon": ["AH", "AS"]}, "deal 1: card AS is dealt twice"),
        ({"dealer": 3}, "deal 1: dealer 3 is not a seat (0..2)"),
        ({"hands": HANDS[:2]}, "deal 1: 3 players need 3 hands, not 2"),
        ({"talon": ["AH", "ZZ"]}, "deal 1, talon: cannot read card 'ZZ'"),
    ],
)
def test_bad_deals(change, message):
    with pytest.raises(RecordError) as info:
        read_record(record([], **change))
    assert str(info.value).startswith(message)


def test_illegal_actions_name_deal_action_seat_phase_and_reason():
    rec = record(["6S", "PASS", "PASS", "DISCARD 7H 7D", "7H", "WHIST", "WHIST", "AS", "QC"])
    with pytest.raises(RecordError) as info:
        replay(rec)
    assert str(info.value) == "deal 1, action 9 (QC), seat 1 (B), phase play: must follow ♠"
    with pytest.raises(RecordError, match=r"deal 1, action 2 \(WHIST\), seat 1 \(B\), phase auc"):
        replay(record(["6S", "WHIST"]))
    with pytest.raises(RecordError, match=r"action 2 \(FOO\).*unknown action 'FOO'"):
        replay(record(["6S", "FOO"]))
    with pytest.raises(RecordError, match=r"action 8 \(AS\): the deal is already over"):
        replay(record(["6S", "PASS", "PASS", "DISCARD 7H 7D", "7H", "PASS", "PASS", "AS"]))


def test_unknown_option_and_preset():
    rec = record([])
    rec["rules"] = {"preset": "sochi", "bogus": 1}
    with pytest.raises(RecordError, match="rules: unknown rules option 'bogus'"):
        read_record(rec)
    rec["rules"] = "moon"
    with pytest.raises(RecordError, match="rules: unknown rules preset 'moon'"):
        read_record(rec)


def test_unfinished_deal_followed_by_another_is_an_error():
    rec = record(["6S"])
    rec["deals"].append(copy.deepcopy(rec["deals"][0]) | {"dealer": 0, "actions": []})
    with pytest.raises(RecordError, match="deal 2: deal 1 is unfinished"):
        replay(rec)


def test_game_to_and_from_record():
    g = Game.from_record(record(["PASS", "PASS", "6S"]))
    assert g.deal is not None and g.deal.declarer == 2
    assert g.to_record()["deals"][0]["actions"] == ["PASS", "PASS", "6S"]


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (None, "a record is a JSON object {...}, not null"),
        ([], "a record is a JSON object {...}, not a list"),
        (5, "a record is a JSON object {...}, not a number"),
        ('{"deals": [', "the record text is not valid JSON"),
        ('{"deals": ' + "9" * 5000 + "}", "the record text holds a number of 5000 digits"),
        ('{"deals": ' + "[" * 200 + "]" * 200 + "}", "nested 201 levels deep (at most 64)"),
        ({"format": ["x"]}, "format ['x'] is not 'preferans-record/1'"),
        ({"rules": {"preset": "sochi", "contract_values": "x"}},
         "rules: option contract_values='x' must be a list of 5 whole numbers"),
        ({"rules": {"preset": "sochi", "consolation_per_undertrick": "x"}},
         "rules: option consolation_per_undertrick='x' must be a whole number or null"),
        ({"rules": {"preset": "sochi", "whist_quota": [4, 2, 1, 1, 11]}},
         "rules: option whist_quota=[4, 2, 1, 1, 11]: 11 is out of range: each entry 0 to 10"),
        ({"rules": {"preset": "sochi", "allpass_progression": [1] * 40}},
         "rules: option allpass_progression=(a list of 40 entries) has 40 entries (at most 32)"),
        ({"rules": {"preset": "sochi", "players": 10**40}},
         "rules: option players=(a number of 41 digits) is not allowed (choose 2, 3, 4)"),
        ({"players": "ABC"}, "players must be a list of names"),
        ({"deals": {}}, "deals must be a list, not an object"),
        ({"deals": [{"dealer": 0}] * 10_001}, "10001 deals (a record holds at most 10000)"),
        ({"deals": [None]}, "deal 1: a deal is a JSON object, not null"),
        ({"deals": [{"dealer": 10**40}]}, "deal 1: dealer (a number of 41 digits) is not a seat"),
        ({"deals": [{"dealer": True}]}, "deal 1: dealer True is not a seat (0..2)"),
        ({"deals": [{"dealer": 0, "irregularity": {"seat": -1, "kind": "misdeal"}}]},
         "deal 1: irregularity seat -1 is not a seat (0..2)"),
        ({"deals": [{"dealer": 0, "irregularity": {"seat": 0, "kind": ["x"]}}]},
         "deal 1: irregularity kind ['x'] is not one of"),
    ],
)
def test_bad_records_of_every_kind_are_record_errors(source, message):
    if isinstance(source, dict) and "format" not in source:
        source = {"format": "preferans-record/1", **source}  # else the missing format is named
    with pytest.raises(RecordError) as info:
        read_record(source)
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("actions", "message"),
    [
        ({"a": 1}, "deal 1: actions must be a list of tokens, not an object"),
        (["PASS"] * 501, "deal 1: 501 actions (a deal has at most 500)"),
        ([None], "deal 1, action 1 (None): an action is a token string"),
        (["6S" * 40], "deal 1, action 1: a token of 80 characters (at most 64)"),
    ],
)
def test_bad_actions_are_record_errors(actions, message):
    with pytest.raises(RecordError) as info:
        read_record(record(actions))
    assert str(info.value).startswith(message)


def test_a_record_file_that_is_not_utf8_is_a_record_error(tmp_path):
    path = tmp_path / "game.json"
    path.write_bytes(json.dumps(record([])).encode("utf-16"))
    with pytest.raises(RecordError, match="is UTF-16 text"):
        read_record(path)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12)
    | st.sampled_from(["LOOK 1", "SECOND 5 2", "TRICKS 7", "BLIND 6S", "MISERE HAND", "SEE",
                       "REFUSE", "RESIGN", "HALF", "OPEN"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["preset", "players", "pool", "dealer", "irregularity", "seat", "kind",
                         "contract", "x"]), inner, max_size=3),
    max_leaves=8,
)
_BASE = record(["6S", "PASS", "PASS", "DISCARD 7H 7D", "7H", "WHIST", "WHIST", "OPEN", "AS"])


def _paths(obj, prefix=()):
    yield prefix
    if isinstance(obj, dict):
        children = list(obj.items())
    else:
        children = list(enumerate(obj)) if isinstance(obj, list) else []
    for key, value in children:
        yield from _paths(value, (*prefix, key))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(list(_paths(_BASE))[1:]), _JSON), min_size=1,
                max_size=3),
       st.sampled_from(["sochi", "classical-1971", "rogue-small", "two-player", "finn"]))
def test_a_record_changed_anywhere_replays_or_is_a_record_error(changes, preset):
    """Any field of a good record replaced by any JSON value: the record replays, or
    read_record/replay raise RecordError or RulesError (never anything else)."""
    try:
        replay(read_record(_mutated(changes, preset)))
    except (RecordError, RulesError) as exc:
        assert str(exc) and len(str(exc)) < 600


def _mutated(changes, preset):
    """The base record of ``preset`` with each (path, value) change made in turn."""
    rec = copy.deepcopy(_BASE)
    rec["rules"]["preset"] = preset
    for path, value in changes:
        node = rec
        try:
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change removed the path
    return rec


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(list(_paths(_BASE))[1:]), _JSON), min_size=1,
                max_size=3),
       st.sampled_from(["sochi", "classical-1971", "two-player"]))
def test_a_changed_record_is_analysed_or_a_record_error(changes, preset):
    """The after-deal analysis reads a record as the replay does: a record changed anywhere
    is analysed, or the error is the replay's (never a KeyError or a solver failure)."""
    from preferans.analysis import analyse

    rec = _mutated(changes, preset)
    try:
        expected = None
        replay(read_record(rec))
    except (RecordError, RulesError) as exc:
        expected = str(exc)
    try:
        analyse(read_record(rec))
    except (RecordError, RulesError) as exc:
        assert str(exc) == expected
    else:
        assert expected is None


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(list(_paths(_BASE))[1:]), _JSON), min_size=1,
                max_size=3),
       st.sampled_from(["sochi", "rogue-small"]))
def test_a_changed_upload_is_reviewed_or_refused_with_a_reason(changes, preset):
    """An uploaded body (the server's reader, in its worker thread): reviewed, or refused
    with a record error or an upload refusal, never another exception."""
    from preferans.server.web.review import UploadTooLong, _review_upload, _UploadRefused

    body = json.dumps(_mutated(changes, preset)).encode()
    try:
        result = _review_upload(body)
    except (RecordError, RulesError, _UploadRefused, UploadTooLong):
        return
    assert result["format"] == "preferans-review/1"


def test_a_record_must_name_its_format():
    rec = record([])
    del rec["format"]
    with pytest.raises(RecordError, match='the record names no "format"'):
        read_record(rec)
    rec["format"] = "preferans-record/2"
    with pytest.raises(RecordError, match="format 'preferans-record/2' is not"):
        read_record(rec)


def test_a_json_string_is_never_opened_as_a_path(tmp_path):
    from preferans.record import record_from_json

    secret = tmp_path / "secret.json"
    secret.write_text(json.dumps(record([])))
    with pytest.raises(RecordError, match=r"a record is a JSON object \{\.\.\.\}, not a string"):
        record_from_json(str(secret))


def test_a_dealer_who_does_not_rotate_is_refused_naming_the_deal():
    game = Game(Rules.preset("sochi", pool=10), seed=3, first_dealer=1)
    for _ in range(2):
        game.start_deal()
        while game.deal is not None:
            game.apply(game.deal.legal_actions()[0])
    rec = write_record(game)
    assert [d["dealer"] for d in rec["deals"]] == [1, 2]
    assert replay(read_record(rec)).sheet.to_json() == game.sheet.to_json()
    rec["deals"][1]["dealer"] = 1
    with pytest.raises(RecordError, match=r"deal 2: dealer 1, but the rules pass the deal to "
                                          r"seat 2 \(C\)"):
        replay(read_record(rec))
    many = copy.deepcopy(rec)
    many["deals"] = [copy.deepcopy(rec["deals"][0]) for _ in range(5)]  # all dealt by seat 1
    with pytest.raises(RecordError, match="deal 2: dealer 1, but the rules pass the deal"):
        replay(read_record(many))
