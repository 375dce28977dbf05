"""Every number among the rules' options has a range, and every option a type: a value
outside them is a RulesError naming the option and the range, in records, house rules and
the options' schema alike; nothing else ever escapes Rules.from_json."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from preferans.option_bounds import BOUNDS, DEFAULT_BOUNDS, bounds
from preferans.record import RecordError, read_record
from preferans.rules import PRESETS, VARIANTS, Rules, RulesError, options_schema
from preferans.server.lang.house_rules import editor_schema, rules_from_settings

SCHEMA = {e["name"]: e for e in options_schema()}
NUMERIC = [name for name, e in SCHEMA.items()
           if e["choices"] is None and e["type"] in ("int", "int list", "int or null")]


def test_every_numeric_option_has_its_own_range_in_the_schema():
    assert NUMERIC, "no numeric options?"
    for name in NUMERIC:
        entry = SCHEMA[name]
        assert name in BOUNDS, f"{name} falls back to the default range {DEFAULT_BOUNDS}"
        assert (entry["minimum"], entry["maximum"]) == BOUNDS[name]
        assert entry["minimum"] <= entry["maximum"]
    for name, entry in SCHEMA.items():
        if name not in NUMERIC:
            assert entry["minimum"] is None and entry["maximum"] is None, name
    json.dumps(options_schema())  # still plain JSON
    pool = next(e for e in editor_schema() if e["name"] == "start_mountain")
    assert (pool["minimum"], pool["maximum"]) == (0, 10000)


def test_every_preset_and_variant_lies_within_the_ranges():
    for rules in [*PRESETS.values(), *VARIANTS.values()]:
        for name in NUMERIC:
            value = getattr(rules, name)
            lo, hi = bounds(name)
            values = value if isinstance(value, tuple) else (value,)
            assert all(v is None or lo <= v <= hi for v in values), (rules.name, name, value)


def _example(name: str, entry: int):
    """A value of option ``name`` with every entry set to ``entry``."""
    current = getattr(PRESETS["sochi"], name)
    if isinstance(current, tuple):
        return [entry] * max(len(current), 1)
    return entry


@pytest.mark.parametrize("name", NUMERIC)
def test_each_end_of_each_range_is_enforced_with_the_range_in_the_message(name):
    lo, hi = bounds(name)
    for bad in (lo - 1, hi + 1, 10**4000):
        with pytest.raises(RulesError) as info:
            Rules.from_json({"preset": "sochi", name: _example(name, bad)})
        message = str(info.value)
        assert f"option {name}=" in message and f"{lo} to {hi}" in message, message
        assert len(message) < 200


@pytest.mark.parametrize("name", NUMERIC)
@pytest.mark.parametrize("bad", ["x", 2.5, [None], {"a": 1}, [[1]], True])
def test_each_numeric_option_refuses_the_wrong_type(name, bad):
    if bad is True and isinstance(getattr(PRESETS["sochi"], name), tuple):
        bad = [True] * 5
    with pytest.raises(RulesError, match=f"option {name}=.* must be"):
        Rules.from_json({"preset": "sochi", name: bad})


def test_the_attacks_of_the_issue_are_refused():
    with pytest.raises(RulesError, match=r"start_mountain=\(a number of 4000 digits\) is out "
                                         r"of range: 0 to 10000"):
        rules_from_settings({"preset": "sochi", "start_mountain": int("9" * 4000)})
    with pytest.raises(RulesError, match="stakes=1000000000000000000 is out of range: 0 to 10"):
        rules_from_settings({"preset": "classical-1971", "stakes": 10**18})
    with pytest.raises(RulesError, match="pool=5000 is out of range: 1 to 1000"):
        rules_from_settings("sochi", pool=5000)
    with pytest.raises(RulesError, match=r"whist_quota=.*-1 is out of range: each entry 0 to 10"):
        rules_from_settings({"preset": "sochi", "whist_quota": [4, 2, 1, 1, -1]})
    with pytest.raises(RecordError, match="rules: option contract_values='x' must be a list"):
        read_record({"format": "preferans-record/1",
                     "rules": {"preset": "sochi", "contract_values": "x"}})
    with pytest.raises(RulesError, match="misere_value=1001 is out of range: 1 to 1000"):
        Rules.preset("sochi").replace(misere_value=1001)
    with pytest.raises(RulesError, match="name=5 must be a text"):
        Rules(name=5)  # type: ignore[arg-type]


def test_values_at_the_ends_of_the_ranges_are_accepted():
    low = Rules.from_json({"preset": "sochi", "pool": 1, "contract_values": [1] * 5,
                           "start_mountain": 0, "stakes": 0})
    high = Rules.from_json({"preset": "sochi", "pool": 1000, "contract_values": [1000] * 5,
                            "start_mountain": 10000, "misere_value": 1000})
    assert (low.pool, high.pool, high.start_mountain) == (1, 1000, 10000)
    assert Rules.from_json(high.to_json()) == high


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=4), inner,
                                                                 max_size=3),
    max_leaves=12,
)
OPTION_NAMES = st.sampled_from([f.name for f in dataclasses.fields(Rules)] + ["preset", "bogus"])


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(OPTION_NAMES, JSON_VALUES, max_size=4), st.sampled_from(sorted(PRESETS)))
def test_any_json_options_give_rules_or_a_rules_error(options, preset):
    """Whatever JSON a record or the settings page sends, Rules.from_json and
    rules_from_settings answer with Rules or a RulesError, and Rules built are usable."""
    obj = {"preset": preset, **options}
    for build in (Rules.from_json, rules_from_settings):
        try:
            rules = build(obj)
        except RulesError as exc:
            assert len(str(exc)) < 600
            continue
        assert Rules.from_json(json.loads(json.dumps(rules.to_json()))) == rules
        for level in range(6, 11):  # the derived values the scoring reads do not fail
            rules.contract_value(level)
            rules.quota(level)
        rules.allpass_stake(5)
        rules.min_bid_level(5)


def test_the_ranges_are_documented_with_the_record_formats():
    from pathlib import Path

    doc = (Path(__file__).parents[1] / "docs" / "records-extensions.md").read_text()
    for name, (lo, hi) in BOUNDS.items():
        assert f"| `{name}` | {lo:,} | {hi:,} |" in doc, name
