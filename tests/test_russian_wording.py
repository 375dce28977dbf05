"""The Russian words a player meets (issue 35): the player is «вы» everywhere (the tips, the
hints, the guide: never «ты»), «вас» and «вам» in lower case inside a sentence, a card one
follows with is «сыграл бы» (not «пошёл бы», which is a lead), the games' list is «Записи
партий», and the whists written in a deal read «+15 на Мишу», not «Вы — +15»."""

from __future__ import annotations

import re
from pathlib import Path

from preferans import i18n
from preferans.i18n import ui_catalogue

ROOT = Path(i18n.__file__).parents[1]
WORD = r"(?<![А-Яа-яЁё]){}(?![А-Яа-яЁё])"
THOU = re.compile(WORD.format(r"(?:ты|тебя|тебе|тобой|твой|твоя|твоё|твои|твоих|твоим|"
                              r"[А-Яа-яЁё]+(?:ешь|ёшь|ишь))"), re.I)
NOT_THOU = {"лишь", "мышь", "тишь", "глушь"}
YOU_INSIDE = re.compile(r"(?<![.!?…:»—]\s)(?<!^)" + WORD.format("Ва[см]"))


def _russian_texts() -> list[tuple[str, str]]:
    out = []
    for message in ui_catalogue.read("ru"):
        if message.id:
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            out += [(f"ui {message.id}", s) for s in strings]
    po = (ROOT / "locale/ru/LC_MESSAGES/preferans.po").read_text(encoding="utf-8")
    out += [("preferans.po", m) for m in re.findall(r'^msgstr(?:\[\d\])? "(.*)"$', po, re.M)]
    guide = (ROOT / "guide/templates/guide.ru.html").read_text(encoding="utf-8")
    out += [("guide.ru.html", line) for line in guide.splitlines()]
    return out


def test_the_player_is_vy_everywhere():
    thou = [(where, m.group(0), text) for where, text in _russian_texts()
            for m in THOU.finditer(text) if m.group(0).lower() not in NOT_THOU]
    assert thou == []


def test_vas_and_vam_are_lower_case_inside_a_sentence():
    capital = [(where, text) for where, text in _russian_texts() if YOU_INSIDE.search(text)]
    assert capital == []


def test_the_words_a_playtest_found_awkward():
    ru = {m.id: m.string for m in ui_catalogue.read("ru") if m.id}
    assert "пошёл" not in ru["hint.would.card"] and "сыграл бы" in ru["hint.would.card"]
    assert ru["replay.link"] == "Записи партий"
    assert i18n.pgettext("page", "common.replays", "ru") == "Записи партий"
    # whists written: "+15 на Мишу", each player in the accusative
    assert ru["sheet.whistsOn"] == "{value} на {whom}"
    assert [ru[f"whom.{n}"] for n in ("You", "Misha", "Lena", "Sasha", "Oleg", "Dummy")] == [
        "вас", "Мишу", "Лену", "Сашу", "Олега", "Болвана"]
