"""Rules as data: presets, overrides, errors and the generated options table."""

import pytest

from preferans.rules import PRESETS, Rules, RulesError, option_docs, options_table


def test_presets_exist_and_differ_as_003_says():
    sochi, len_, rostov = (Rules.preset(n) for n in ("sochi", "leningrad", "rostov"))
    assert sochi.whist == "greedy" and sochi.shortage == "full"
    assert sochi.allpass_progression == (1, 2, 3)
    assert len_.mountain_scale == len_.whist_scale == 2
    assert len_.whist == "gentlemanly" and len_.shortage == "half"
    assert len_.allpass_progression == (1, 2, 4)
    assert rostov.allpass_talon == "closed" and rostov.allpass_scoring == "whists"
    for r in (sochi, len_, rostov):
        assert r.whist_quota == (4, 2, 1, 1, 1) and r.tens_whisted
        assert r.half_whist_levels == (6, 7)
        assert r.misere_outbid_by == 9
        assert r.min_bid_level(0) == 6 and r.min_bid_level(1) == 7


def test_guide_profile_is_001_section_03():
    g = Rules.preset("guide")
    assert g.auction == "seniority" and not g.jump_bids
    assert g.allpass_progression == (1,) and g.allpass_min_bid == (6,)
    assert g.allpass_amnesty and g.allpass_zero_pool == 1
    assert not g.whist_pass_half_whist and g.pool == 20


def test_overrides_round_trip_through_json():
    r = Rules.preset("sochi", pool=10, stalingrad=True, allpass_progression=[1, 2, 4])
    assert r.to_json() == {
        "preset": "sochi",
        "pool": 10,
        "stalingrad": True,
        "allpass_progression": [1, 2, 4],
    }
    assert Rules.from_json(r.to_json()) == r
    assert Rules.from_json("piter").name == "piter"  # 000's Piter is its own preset (issue 7)
    assert Rules.from_json("leningrad").name == "leningrad"


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda: Rules.preset("bogus"), "unknown rules preset 'bogus'"),
        (lambda: Rules.preset("sochi", nonsense=1), "unknown rules option 'nonsense'"),
        (lambda: Rules.preset("sochi", whist="stingy"), "whist='stingy' is not allowed"),
        (lambda: Rules.preset("sochi", players=5), "players=5 is not allowed"),
        (lambda: Rules.preset("sochi", stalingrad="yes"), "must be true or false"),
    ],
)
def test_bad_rules_are_clear_errors(call, message):
    with pytest.raises(RulesError, match=message):
        call()


def test_options_table_covers_every_option_and_preset():
    table = options_table()
    for name in option_docs():
        assert f"`{name}`" in table
    assert table.splitlines()[0].count("|") == len(PRESETS) + 3
