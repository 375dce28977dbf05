"""The rules' refusals as codes (issue 17): every ``RulesError`` the engine and the web table
raise has a code with its English in :data:`preferans.i18n.rules_errors.ENGLISH` and its text in
both catalogues (``msgctxt "rules-error"``), rendered in Russian with each option named as
the house-rules editor titles it; ``str(error)`` stays the English the CLI and records read."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from preferans import i18n
from preferans import rules as rules_module
from preferans.i18n import render_rules_error
from preferans.i18n.rules_errors import ENGLISH, english, player_english
from preferans.rules import Rules, RulesError
from preferans.server.lang.house_rules import option_title, rules_from_settings

SRC = Path(rules_module.__file__).parent
RAISING = [SRC / "rules.py", SRC / "option_bounds.py", SRC / "server" / "lang" / "house_rules.py"]
CYRILLIC = re.compile(r"[А-Яа-яЁё]{3,}")
FIELD = re.compile(r"\{(\w+)\}")
SAMPLE = {"option": "stalingrad", "option2": "whist_quota", "option3": "over_greedy",
          "value": "'yes'", "choices": "'greedy', 'gentlemanly'", "low": 1, "high": 100,
          "count": 5, "entries": 40, "most": 32, "entry": "-1", "name": "'vegas'",
          "known": "sochi, leningrad", "players": 3, "steps": "(1,)", "example": "4, 2, 1",
          "given": 2, "preset": "two-player", "doc": "Two players with a dummy", "pool": 20}


def _codes_in_source() -> tuple[set[str], set[str]]:
    """(codes raised as ``RulesError("code", ...)``, every string literal that is a code)."""
    raised: set[str] = set()
    literals: set[str] = set()
    for path in RAISING:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "RulesError" and node.args
                    and isinstance(node.args[0], ast.Constant)):
                raised.add(node.args[0].value)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and node.value in ENGLISH:
                literals.add(node.value)
    return raised, literals


def test_every_raised_code_is_known_and_every_code_is_raised():
    raised, literals = _codes_in_source()
    assert raised, "no RulesError(code, ...) found"
    assert raised <= set(ENGLISH), raised - set(ENGLISH)
    assert set(ENGLISH) <= literals | raised, set(ENGLISH) - literals - raised


def test_no_rules_error_is_raised_as_a_sentence():
    for path in RAISING:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "RulesError"):
                assert node.args and not isinstance(node.args[0], ast.JoinedStr), (
                    path.name, node.lineno)
                if isinstance(node.args[0], ast.Constant):
                    assert node.args[0].value in ENGLISH, (path.name, node.lineno)


def test_an_unknown_code_is_refused():
    with pytest.raises(ValueError, match="unknown rules error code"):
        RulesError("option pool=0 is wrong")


@pytest.mark.parametrize("code", sorted(ENGLISH))
def test_every_code_renders_in_both_languages(code):
    fields = set(FIELD.findall(ENGLISH[code]))
    ru_template = i18n.pgettext("rules-error", code, "ru")
    en_template = i18n.pgettext("rules-error", code, "en")
    assert ru_template != code and en_template != code, code
    assert set(FIELD.findall(ru_template)) == fields == set(FIELD.findall(en_template)), code
    error = RulesError(code, **{f: SAMPLE[f] for f in fields})
    assert str(error) == english(code, **error.params)
    en, ru = render_rules_error(error, "en"), render_rules_error(error, "ru")
    for text in (en, ru):
        assert "{" not in text.replace("{...}", ""), text
        assert not re.search(r"\b00[0-3]\b", text), text
    assert en == i18n.player_text(player_english(code).format_map(error.params))
    assert CYRILLIC.search(ru), ru
    if "option" in fields:  # a Russian reader sees the option as the editor titles it
        assert f"«{option_title('stalingrad', 'ru')}»" in ru, ru
        assert "stalingrad" not in ru


BAD_RULES = [
    {"stalingrad": "yes"}, {"mountain_scale": 500}, {"whist_quota": [4, 2]},
    {"whist_quota": "x"}, {"allpass_progression": list(range(40))},
    {"allpass_progression": [1, 2, 5000]}, {"auction": "loud"}, {"dealerwhist": True},
    {"start_mountain": 10 ** 4000}, {"staying_dealer_hill": 11},
    {"allpass_dealer_zero": True}, {"allpass_zero_staked": True, "allpass_zero_pool": 0},
    {"responsible_at_8plus": "each", "over_greedy": True},
    {"half_whist_played": True, "dealer_whist": True},
    {"allpass_growth": "geometric", "allpass_progression": [1, 2, 3]},
    {"over_greedy_two_only": True}, {"halftime_pool": 5},
]


@pytest.mark.parametrize("options", BAD_RULES, ids=lambda o: ",".join(o))
def test_real_refusals_render_in_russian(options):
    with pytest.raises(RulesError) as caught:
        Rules.from_json({"preset": "sochi", **options})
    error = caught.value
    ru = render_rules_error(error, "ru")
    assert CYRILLIC.search(ru) and "{" not in ru, ru
    first = next(iter(options))
    if error.params.get("option") == first:
        assert option_title(first, "ru") in ru, ru
    assert not re.search(r"\b(option|must|needs|allowed)\b", ru), ru


def test_the_range_in_russian_names_the_option_and_the_bounds():
    with pytest.raises(RulesError) as caught:
        rules_from_settings({"preset": "sochi", "mountain_scale": 500})
    assert str(caught.value) == "option mountain_scale=500 is out of range: 1 to 100"
    ru = render_rules_error(caught.value, "ru")
    assert ru == f"«{option_title('mountain_scale', 'ru')}» = 500: вне допустимых пределов, " \
                 "можно от 1 до 100"


def test_a_huge_value_is_described_in_russian():
    with pytest.raises(RulesError) as caught:
        Rules.preset("sochi", start_mountain=10 ** 4000)
    assert "(число из 4001 цифры)" in render_rules_error(caught.value, "ru")
    with pytest.raises(RulesError) as caught:
        Rules.preset("sochi", allpass_progression=tuple(range(40)))
    assert "(список из 40 чисел)" in render_rules_error(caught.value, "ru")


def test_the_source_numbers_stay_in_the_developers_english_only():
    with pytest.raises(RulesError) as caught:
        Rules.preset("sochi", staying_dealer_hill=11)
    assert "000 allows 0 to 10 points" in str(caught.value)
    assert "000" not in render_rules_error(caught.value, "en")
    assert "the rules allow 0 to 10 points" in render_rules_error(caught.value, "en")


def test_the_web_tables_own_checks_have_codes():
    cases = {"list_length": ({"preset": "sochi", "whist_quota": [4, 2]}, None),
             "only_rogue": ({"preset": "sochi", "rogue": "small"}, None),
             "variant_seats": ("two-player", 3), "seats_three_four": ("sochi", 2),
             "players_twice": ({"preset": "sochi", "players": 3}, 4)}
    for code, (rules, players) in cases.items():
        with pytest.raises(RulesError) as caught:
            rules_from_settings(rules, players=players)
        assert caught.value.code == code
        ru = render_rules_error(caught.value, "ru")
        assert CYRILLIC.search(ru) and "(000)" not in render_rules_error(caught.value, "en")


def test_a_rules_error_survives_pickling():
    import pickle

    error = RulesError("opt_range", option="pool", value="5000", low=1, high=1000)
    back = pickle.loads(pickle.dumps(error))
    assert (back.code, back.params, str(back)) == (error.code, error.params, str(error))
