"""The sheet's deal notes as data (issue 17): every note the engine writes has a code in
:data:`preferans.notes.ENGLISH`, whose text is the English the summaries always read, and an
entry in both catalogues (``msgctxt "note"``) that renders with sample parameters."""

from __future__ import annotations

import ast
import copy
import pickle
import re
import string
from pathlib import Path

import pytest

from preferans import i18n
from preferans.notes import ENGLISH, SEAT_LIST_PARAMS, SEAT_PARAMS, Note, note_json

SRC = Path(i18n.__file__).parent
NAMES = ["You", "Misha", "Lena"]


def _constants(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
            and isinstance(n.value, str)}


def _note_codes(path: Path) -> set[str]:
    """The codes the module hands to ``Note(...)`` as literals (conditional ones too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    codes: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Note":
            codes |= _branches(node.args[0])
    return codes


def _branches(node: ast.expr) -> set[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _branches(node.body) | _branches(node.orelse)
    return set()  # a name or an f-string: checked by the catalogue test below


def _sample(code: str) -> dict[str, object]:
    fields = {f for _, f, _, _ in string.Formatter().parse(ENGLISH[code]) if f}
    params: dict[str, object] = {}
    for i, field in enumerate(sorted(fields)):
        if field in SEAT_PARAMS:
            params[field] = i % 3
        elif field in SEAT_LIST_PARAMS:
            params[field] = [0, 2]
        else:
            params[field] = "7.5" if i % 2 else 5
    return params


def test_every_code_the_engine_writes_is_known_and_every_known_code_is_written():
    modules = (SRC / "scoring.py", SRC / "sheet.py")
    literal = set().union(*(_note_codes(p) for p in modules))
    assert literal <= set(ENGLISH), literal - set(ENGLISH)
    constants = set().union(*(_constants(p) for p in modules))
    unused = {c for c in ENGLISH if c not in constants and c.removeprefix("bonus_")
              not in constants}
    assert not unused, unused


@pytest.mark.parametrize("code", sorted(ENGLISH))
def test_each_note_in_both_catalogues_and_rendered(code: str):
    params = _sample(code)
    note = Note(code, **params)
    for lang in i18n.LANGUAGES:
        assert i18n.pgettext("note", code, lang) != code, (lang, code)
    ru = i18n.render_note(note_json(note), NAMES, "ru")
    en = i18n.render_note(note_json(note), NAMES, "en")
    english = str(note)
    for seat, name in enumerate(NAMES):
        english = english.replace(f"{{{seat}}}", name)
    assert en == english
    assert "{" not in ru and "}" not in ru, ru
    assert re.search(r"[А-Яа-яЁё]", ru), ru
    assert not re.search(r"\b(?:You|Misha|Lena|mountain|pool|whists?)\b", ru), ru


def test_a_note_is_its_old_english_text_and_survives_copies():
    note = Note("failed", declarer=1, contract="7♠", undertricks=6, cost=24)
    assert note == "{1} failed 7♠ by 6 (+24 mountain)"
    assert Note("wrote_whists", writer=2, amount="7.5", on=0) == "{2} wrote 7.5 whists on {0}"
    assert Note("round_over", round=2, seats=[0, 2], bonus=5) == (
        "round 2 over; {0} and {2} smallest mountain: 5 whists")
    assert Note("allpass_stake", tricks="0–4–6", stake=2) == "All-pass 0–4–6 at stake ×2"
    for twin in (pickle.loads(pickle.dumps(note)), copy.deepcopy(note)):
        assert twin == note and twin.code == "failed" and twin.params == note.params
    assert note_json(note) == {"code": "failed", "params": {
        "declarer": 1, "contract": "7♠", "undertricks": 6, "cost": 24}}


@pytest.mark.parametrize(("note", "said"), [
    (Note("wrote_whists", writer=1, amount=60, on=0), "Миша записал 60 вистов на Вас"),
    (Note("wrote_whists", writer=2, amount=22, on=1), "Лена записала 22 виста на Мишу"),
    (Note("wrote_whists", writer=0, amount="7.5", on=2), "Вы записали 7,5 виста на Лену"),
    (Note("failed", declarer=0, contract="7♠", undertricks=1, cost=4),
     "Вы не сыграли 7♠: недобор — 1 взятка (+4 в гору)"),
    (Note("misere_made", declarer=2, value=10), "Лена сыграла мизер (+10 в пулю)"),
    (Note("round_over", round=2, seats=[0, 2], bonus=5),
     "круг 2 окончен; меньшая гора у Вас и Лены: 5 вистов"),
    (Note("took_off_other", seat=2, points="2", other=0, amount=20),
     "Лена сняла Вам 2 с горы (20 вистов на Вас)"),
    (Note("bomb", declarer=0, factor=2), "бомба у Вас: ×2"),
])
def test_russian_words(note: Note, said: str):
    assert i18n.render_note(note_json(note), NAMES, "ru") == said
