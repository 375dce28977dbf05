"""The sheet's deal notes as data (issue 17): every note the engine writes has a code in
:data:`preferans.i18n.notes.ENGLISH`, whose text is the English the summaries always read, and an
entry in both catalogues (``msgctxt "note"``) that renders with sample parameters; with "You"
in any of a note's roles it reads as English and Russian do (issue 35: "4 of your pool",
"whists on you", «на вас», never "You's" or a possessive without its noun)."""

from __future__ import annotations

import ast
import copy
import pickle
import re
import string
from pathlib import Path

import pytest

from preferans import i18n, scoring
from preferans.i18n.notes import ENGLISH, SEAT_LIST_PARAMS, SEAT_PARAMS, Note, note_json

SRC = Path(i18n.__file__).parents[1]
NAMES = ["You", "Misha", "Lena"]
OTHERS = ["Anna", "Misha", "Lena"]


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
    # the modules that write notes: scoring, the sheet, its pool closing, the variants' parts
    modules = (SRC / "scoring.py", SRC / "sheet.py", SRC / "sheet_pools.py",
               *sorted((SRC / "variants").glob("*.py")))
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
    en = i18n.render_note(note_json(note), OTHERS, "en")
    english = str(note)
    for seat, name in enumerate(OTHERS):
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


def _with_you(code: str) -> list[tuple[dict[str, object], list[str]]]:
    """The note with sample parameters, "You" in turn at each seat the note names."""
    params = _sample(code)
    return [(params, NAMES[-r:] + NAMES[:-r]) for r in range(3)]


DANGLING = re.compile(r"'s(?=\s*(?:$|[;,.:()]))")


@pytest.mark.parametrize("code", sorted(ENGLISH))
def test_you_in_every_role_reads_as_english_and_russian(code: str):
    for params, names in _with_you(code):
        note = Note(code, **params)
        en = i18n.render_note(note_json(note), names, "en")
        assert scoring.name_notes([note], names) == en  # the engine's summary says the same
        assert not re.search(r"\b(?:You|you|your|Your)'s\b", en), en
        assert not DANGLING.search(en), en
        assert all(m.start() == 0 for m in re.finditer(r"\bYour?\b", en)), en
        assert "{" not in en and "}" not in en, en
        ru = i18n.render_note(note_json(note), names, "ru")
        assert not re.search(r"\bВа[см]\b", ru), ru
        assert all(m.start() == 0 for m in re.finditer(r"(?<![А-Яа-яЁё])Вы(?![А-Яа-яЁё])", ru)), ru
    one = {"seat": 2, "points": 4, "other": 0, "amount": 40}
    if code == "closed_pool":
        assert i18n.render_note({"code": code, "params": one}, NAMES, "en") == (
            "Lena closed 4 of your pool (40 whists on you)")
        assert i18n.render_note({"code": code, "params": one}, NAMES, "ru") == (
            "Лена дописала 4 в пулю вам (40 вистов на вас)")


def test_a_summary_with_you_in_english():
    notes = [Note("made", declarer=0, contract="6♠", value=2),
             Note("took_off_other", seat=1, points=4, other=0, amount=40),
             Note("bomb", declarer=0, factor=2),
             Note("overflow_off_put", seat=2, points=2, rest=1)]
    assert scoring.name_notes(notes, NAMES) == (
        "You made 6♠ (+2 pool); Misha took 4 off your mountain (40 whists on you); "
        "Your bomb ×2; Lena took 2 off the mountain and put 1 on each opponent's mountain")


@pytest.mark.parametrize(("note", "said"), [
    (Note("wrote_whists", writer=1, amount=60, on=0), "Миша записал 60 вистов на вас"),
    (Note("wrote_whists", writer=2, amount=22, on=1), "Лена записала 22 виста на Мишу"),
    (Note("wrote_whists", writer=0, amount="7.5", on=2), "Вы записали 7,5 виста на Лену"),
    (Note("failed", declarer=0, contract="7♠", undertricks=1, cost=4),
     "Вы не сыграли 7♠: недобор — 1 взятка (+4 в гору)"),
    (Note("misere_made", declarer=2, value=10), "Лена сыграла мизер (+10 в пулю)"),
    (Note("round_over", round=2, seats=[0, 2], bonus=5),
     "круг 2 окончен; меньшая гора у вас и Лены: 5 вистов"),
    (Note("took_off_other", seat=2, points="2", other=0, amount=20),
     "Лена сняла вам 2 с горы (20 вистов на вас)"),
    (Note("bomb", declarer=0, factor=2), "бомба у вас: ×2"),
    (Note("shared_game", dealer=1, soloist=0), "Миша и вы делят игру пополам"),
])
def test_russian_words(note: Note, said: str):
    assert i18n.render_note(note_json(note), NAMES, "ru") == said
