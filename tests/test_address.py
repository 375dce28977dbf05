"""How a player is addressed (issue 47, "Words"): the form of address guessed from a name or
chosen, every Russian note's verb agreeing with it (a woman, a man, «Вы»), and English
notes whose verb fits "You" as it fits a name."""

from __future__ import annotations

import doctest
import re

import pytest

from preferans.i18n import address, player_gender, render_note, render_notes
from preferans.i18n.notes import ENGLISH, english
from preferans.server.table.party import Party, Place


@pytest.mark.parametrize(("name", "form"), [
    # Cyrillic: -а/-я feminine, but the men's names that end so are men's
    ("Вера", "f"), ("Анна", "f"), ("Наталья", "f"), ("Мария Петровна", "f"),
    ("Миша", "m"), ("Саша", "m"), ("Никита", "m"), ("Илья", "m"), ("Алёша", "m"),
    ("Лёша", "m"), ("Борис", "m"), ("Олег", "m"), ("Любовь", "f"),
    # Latin letters: the same rule, the transliterations and a few English names
    ("Anna", "f"), ("anna k.", "f"), ("Vera", "f"), ("Natalya", "f"), ("Misha", "m"),
    ("Sasha", "m"), ("Nikita", "m"), ("Ilya", "m"), ("Luca", "m"), ("Boris", "m"),
    ("Anne", "f"), ("Alice", "f"), ("Kate", "f"), ("Mary", "f"), ("John", "m"),
    # nothing to go by: the masculine, Russian's default form
    ("Player 1", "m"), ("Q", "m"), ("42", "m"), ("", "m"), ("Ёжик", "m"),
])
def test_the_guess_from_a_name(name: str, form: str) -> None:
    assert address.guess(name) == form


def test_a_choice_beats_the_guess_and_you_is_plural() -> None:
    assert player_gender("Женя", "f") == "f" and player_gender("Женя", None) == "m"
    assert player_gender("Вера", "m") == "m"
    assert player_gender("You", "f") == "plural"
    # the computer players as the catalogue has them (name-gender)
    assert [player_gender(n, None) for n in ("Misha", "Lena", "Sasha", "Oleg")] == \
        ["m", "f", "m", "m"]
    assert address.chosen("x") is None and address.chosen("f") == "f"


def test_the_rule_s_lists_are_what_the_browser_gets() -> None:
    assert set(address.ADDRESS_RULE["masculine"]) == address.MASCULINE
    assert set(address.ADDRESS_RULE["feminine"]) == address.FEMININE
    assert not address.MASCULINE & address.FEMININE
    assert doctest.testmod(address).failed == 0


def test_the_examples_of_the_modules_that_decline_and_keep_the_choice() -> None:
    import importlib

    for name in ("preferans.i18n.translate", "preferans.server.table.party"):
        result = doctest.testmod(importlib.import_module(name))
        assert result.attempted > 0 and result.failed == 0, name


MISERE_FAILED = {"code": "misere_failed", "params": {"declarer": 1, "taken": 2, "cost": 20}}
MADE = {"code": "made", "params": {"declarer": 0, "contract": "7♠", "value": 4}}


@pytest.mark.parametrize(("names", "genders", "said"), [
    (["You", "Вера", "Миша"], [None, "f", None], "Вера поймалась на мизере"),
    (["You", "Вера", "Миша"], None, "Вера поймалась на мизере"),  # the guess
    (["You", "Вера", "Миша"], [None, "m", None], "Вера поймался на мизере"),  # his choice
    (["You", "Boris", "Anna"], None, "Boris поймался на мизере"),
    (["You", "Misha", "Lena"], None, "Миша поймался на мизере"),
    (["Misha", "You", "Lena"], None, "Вы поймались на мизере"),
    (["Misha", "Lena", "You"], None, "Лена поймалась на мизере"),
])
def test_a_russian_note_agrees_with_its_player(names: list[str], genders: list[str] | None,
                                                said: str) -> None:
    assert render_note(MISERE_FAILED, names, "ru", genders).startswith(said)


def test_every_seat_of_a_deal_agrees_in_russian() -> None:
    notes = [MADE, {"code": "wrote_whists", "params": {"writer": 1, "amount": 20, "on": 0}},
             {"code": "wrote_whists", "params": {"writer": 2, "amount": 10, "on": 0}}]
    said = render_notes(notes, ["Anna", "Никита", "Женя"], "ru", [None, None, "f"])
    assert said == ("Anna сыграла 7♠ (+4 в пулю); Никита записал 20 вистов на Anna; "
                    "Женя записала 10 вистов на Anna")
    said = render_notes(notes, ["You", "Никита", "Вера"], "ru")
    assert said.startswith("Вы сыграли 7♠") and "Вера записала 10 вистов на вас" in said


def test_a_man_s_and_a_woman_s_names_are_declined_as_players_say_them() -> None:
    notes = [{"code": "wrote_whists", "params": {"writer": 1, "amount": 20, "on": 0}},
             {"code": "closed_pool_free", "params": {"seat": 2, "points": 4, "other": 0}},
             {"code": "zero_full", "params": {"seat": 0, "points": 2}}]
    said = render_notes(notes, ["Борис", "Вера", "Игорь"], "ru")
    assert said == ("Вера записала 20 вистов на Бориса; Игорь дописал 4 в пулю Борису; "
                    "у Бориса пуля закрыта: 2 с горы"), said
    said = render_notes(notes, ["Любовь", "Мария", "Лев"], "ru")
    assert said == ("Мария записала 20 вистов на Любовь; Лев дописал 4 в пулю Любови; "
                    "у Любови пуля закрыта: 2 с горы"), said
    # Latin letters and names Russian does not decline stay as written
    said = render_notes(notes, ["Boris", "Anna", "Пьеро"], "ru")
    assert said.startswith("Anna записала 20 вистов на Boris; Пьеро дописал 4 в пулю Boris")


def test_every_russian_note_with_a_seat_verb_has_the_three_forms() -> None:
    """No template leaves a player's past-tense verb out of agreement: every verb right after
    a seat is a ``{seat:v:…/…/…}`` of three forms."""
    from preferans.i18n import pgettext

    for code in ENGLISH:
        template = pgettext("note", code, "ru")
        for form in re.findall(r"\{\w+:v:([^}]*)\}", template):
            assert len(form.split("/")) == 3, (code, form)
        bare = re.search(r"\{(\w+)\} [а-яё]+(?:л|ла|лся|лась)\b", template)
        assert bare is None, (code, template)


# --- English: "You" takes the verb's own form -----------------------------------------------
@pytest.mark.parametrize("code", sorted(ENGLISH))
def test_no_english_note_says_you_with_a_third_person_verb(code: str) -> None:
    params = {"seat": 0, "declarer": 0, "dealer": 0, "soloist": 0, "half": 0, "whister": 0,
              "writer": 0, "on": 1, "other": 1, "seats": [0], "tops": [0], "lows": [0]}
    fields = set(re.findall(r"\{(\w+)", ENGLISH[code]))
    text = english(ENGLISH[code], {k: params.get(k, 3) for k in fields}, ["You", "Misha", "Lena"])
    assert not re.search(r"\bYou (?:short|deals|is|has|was|takes|plays|bids|passes|wins)\b",
                         text, re.I), text
    assert not re.search(r"\byou (?:short|deals|is|has|was)\b", text), text


def test_short_reads_as_a_sentence_for_you_and_for_a_name() -> None:
    params = {"whister": 0, "miss": 1, "cost": 4}
    assert english(ENGLISH["short"], params, ["You", "Misha", "Lena"]) == \
        "You fell short by 1 (+4 mountain)"
    params["whister"] = 2
    assert english(ENGLISH["short"], params, ["You", "Misha", "Lena"]) == \
        "Lena fell short by 1 (+4 mountain)"
    assert "dealt again" in english(ENGLISH["irr_misdeal"], {"seat": 0}, ["You", "A", "B"])


# --- the party keeps the choice ---------------------------------------------------------------
def test_the_party_keeps_each_friend_s_choice_and_old_tables_still_load() -> None:
    party = Party.new(["friend", "hard"], creator="Женя", creator_gender="f")
    party = party.taken(1, "Никита")
    again = Party.from_json(party.to_json())
    assert again == party and again.places[0].gender == "f" and again.places[1].gender is None
    assert again.genders(("You", "Misha", "Lena")) == ["f", "m", "f"]
    # a table saved before the choice: no "gender" anywhere, names guessed
    old = {"seats": [{"kind": "human", "name": "Вера"}, {"kind": "human", "name": "Boris"},
                     {"kind": "computer", "level": "easy"}], "invite": "x", "clock": 0}
    loaded = Party.from_json(old)
    assert loaded.places[0] == Place(name="Вера")
    assert loaded.genders(("You", "Misha", "Lena")) == ["f", "m", "f"]
    # hostile values are dropped, not kept
    bad = {**old, "seats": [{"kind": "human", "name": "Вера", "gender": "<x>"}]}
    assert Party.from_json(bad).places[0].gender is None
