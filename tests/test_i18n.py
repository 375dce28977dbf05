"""The catalogues: both languages for every message, compiled by the standard tools, Russian
plural forms, every refusal code rendered in both languages, cards and bids as Russian
players write them, and the language chosen from ?lang=, the cookie or Accept-Language."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

from preferans import i18n
from preferans.actions import Action, IllegalAction
from preferans.bids import Bid
from preferans.cards import Card, CardSet, Suit
from preferans.deal import Deal, Phase
from preferans.i18n import (
    action_text,
    bid_text,
    bid_words,
    card_text,
    choose_language,
    count,
    option_description,
    parse_accept_language,
    preset_description,
    render_reason,
    translate,
    value_text,
)
from preferans.i18n.reasons import ENGLISH, Alternatives, Hand, Reason
from preferans.rules import PRESETS, option_choices, option_docs

PO = {lang: i18n.catalogue_path(lang) for lang in i18n.LANGUAGES}
CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def _catalog(lang: str):
    with PO[lang].open("rb") as fh:
        return read_po(fh)


def _ids(catalog) -> set[tuple[str | None, str]]:
    return {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in catalog if m.id}


# --- the catalogues as files ----------------------------------------------------------------
def test_every_message_id_has_both_languages():
    en, ru = _catalog("en"), _catalog("ru")
    assert _ids(en) == _ids(ru)
    for catalog in (en, ru):
        for message in catalog:
            if not message.id:
                continue
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            assert all(s.strip() for s in strings), (catalog.locale, message.context, message.id)
            assert not message.fuzzy, (message.context, message.id)


def test_the_catalogues_compile_with_babel_and_msgfmt(tmp_path: Path):
    for lang, po in PO.items():
        catalog = _catalog(lang)
        assert not list(catalog.check()), lang  # babel's checkers: placeholders, plurals
        mo = tmp_path / f"{lang}.mo"
        with mo.open("wb") as fh:
            write_mo(fh, catalog)
        with mo.open("rb") as fh:
            back = read_mo(fh)
        assert len(back) == len(catalog)
        if shutil.which("msgfmt"):
            run = subprocess.run(["msgfmt", "--check", "-o", str(tmp_path / "x.mo"), str(po)],
                                 capture_output=True, text=True)
            assert run.returncode == 0, run.stderr


def test_placeholders_are_the_same_in_both_languages():
    en = {(m.context, m.id if isinstance(m.id, str) else m.id[0]): m.string for m in _catalog("en")}
    for message in _catalog("ru"):
        if not message.id:
            continue
        key = (message.context, message.id if isinstance(message.id, str) else message.id[0])
        if key == ("reason", "unreadable"):  # English repeats the parser's detail
            assert _fields(message.string) == {"token"}
            continue
        assert _fields(message.string) == _fields(en[key]), key


def _fields(text) -> set[str]:
    return set(re.findall(r"\{(\w+)(?::[^{}]*)?\}", text if isinstance(text, str) else text[0]))


def test_russian_text_is_russian_and_no_source_numbers_reach_a_player():
    for lang in ("en", "ru"):
        for message in _catalog(lang):
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            for s in strings:
                assert not re.search(r"\b00[0-3]\b", s), (lang, message.id, s)
    for message in _catalog("ru"):
        if message.context in ("reason", "option", "preset", "example") and message.id != "other":
            assert CYRILLIC.search(message.string), message.id


def test_russian_plural_forms():
    expected = {1: "1 вист", 2: "2 виста", 5: "5 вистов", 11: "11 вистов", 21: "21 вист",
                22: "22 виста", 25: "25 вистов", 12: "12 вистов", 14: "14 вистов",
                104: "104 виста", 111: "111 вистов"}
    for n, text in expected.items():
        assert count("whist", n, "ru") == text
    assert [count("trick", n, "ru") for n in (1, 2, 5, 21)] == [
        "1 взятка", "2 взятки", "5 взяток", "21 взятка"]
    assert [count("whist", n, "en") for n in (1, 2, 21)] == ["1 whist", "2 whists", "21 whists"]
    assert _catalog("ru").num_plurals == 3


# --- the engine's refusals ------------------------------------------------------------------
SAMPLE_PARAMS = {
    "token": "XYZ", "detail": "an action is written as a token like '6S' or 'QH'",
    "seat": 1, "leader": 2, "smallest": 7, "level": 7,
    "high": Bid.parse("7NT"), "bid": Bid.parse("6S"),
    "shown": (Action.parse("WHIST"), Action.parse("PASS")),
    "cards": (Card.parse("7C"), Card.parse("QH")),
    "looks": Alternatives((Action.parse("LOOK 1"), Action.parse("LOOK 2"))),
    "card": Card.parse("QH"), "suit": Suit.SPADES, "trump": Suit.HEARTS, "led": Suit.SPADES,
    "hand": Hand(1, "Misha"),
}


@pytest.mark.parametrize("code", sorted(ENGLISH))
def test_every_reason_code_renders_in_both_languages(code):
    fields = _fields(ENGLISH[code]) | _fields(i18n.pgettext("reason", code, "ru"))
    reason = Reason(code, {f: SAMPLE_PARAMS[f] for f in fields})
    english = render_reason(reason, "en")
    assert english == str(reason)
    russian = render_reason(reason, "ru")
    assert "{" not in russian
    assert russian != english or code == "other"
    if code not in ("other", "unreadable"):
        assert CYRILLIC.search(russian)
        assert not re.search(r"\b(QH|7C|6S|7NT|WHIST|PASS|LOOK)\b", russian), russian
    if fields & {"card", "cards"}:
        assert "Д♥" in russian
    if "hand" in fields:
        assert "у Миши" in russian


def test_an_illegal_card_refused_in_russian():
    """The worked deal of the guide: a defender who does not follow suit hears why in Russian."""
    from preferans.guide import worked_deal_record

    data = worked_deal_record()["deals"][0]
    deal = Deal(PRESETS["guide"], data["dealer"], [CardSet.parse(h) for h in data["hands"]],
                [Card.parse(c) for c in data["talon"]])
    for token in data["actions"][:14]:
        deal.apply(token)
    assert deal.phase is Phase.PLAY
    legal = {str(a) for a in deal.legal_actions()}
    hand = deal.hands[deal.to_act]
    wrong = next(c for c in hand if str(c) not in legal)
    with pytest.raises(IllegalAction) as info:
        deal.apply(str(wrong))
    err = info.value
    assert err.code == "must_follow"
    suit = err.params["suit"]
    assert render_reason(err.why, "ru") == f"нужно ходить в масть {suit.symbol}"
    assert render_reason(err.why, "en") == err.reason == f"must follow {suit.symbol}"


def test_playing_a_partners_hand_names_it_in_the_genitive():
    for name, genitive in (("Misha", "Миши"), ("Lena", "Лены"), ("Sasha", "Саши"),
                           ("You", "вас")):
        reason = Reason("must_follow_in", {"suit": Suit.CLUBS, "hand": Hand(1, name)})
        assert render_reason(reason, "ru") == f"у {genitive} нужно ходить в масть ♣"
    dummy = Reason("card_not_held_in", {"card": Card.parse("AS"), "hand": Hand(3, dummy=True)})
    assert render_reason(dummy, "ru") == "Т♠ — такой карты нет у болвана"
    assert str(dummy) == "AS is not in Dummy's hand"


def test_an_untranslated_language_falls_back_to_english():
    reason = Reason("must_follow", {"suit": Suit.HEARTS})
    assert render_reason(reason, "fr") == "must follow ♥"


# --- cards, bids and calls as Russian players write them ------------------------------------
def test_cards_and_bids_in_russian():
    assert [card_text(Card.parse(t), "ru") for t in ("AS", "KC", "QD", "JH", "10S", "7H")] == [
        "Т♠", "К♣", "Д♦", "В♥", "10♠", "7♥"]
    assert [card_text(Card.parse(t), "en") for t in ("AS", "10H")] == ["A♠", "10♥"]
    assert bid_text(Bid.parse("7NT"), "ru") == "7 БК"
    assert bid_text(Bid.parse("6S"), "ru") == "6♠"
    assert bid_text(Bid.parse("MISERE"), "ru") == "мизер"
    assert [bid_words(Bid.parse(t), "ru") for t in ("6S", "7C", "8D", "9H", "10NT")] == [
        "шесть пик", "семь треф", "восемь бубен", "девять червей", "десять без козыря"]
    assert [i18n.suit_name(s, "ru") for s in Suit] == ["пики", "трефы", "бубны", "червы"]


def test_calls_in_russian():
    words = {t: action_text(Action.parse(t), "ru") for t in (
        "PASS", "WHIST", "HALF", "OPEN", "CLOSED", "ALONE", "MISERE", "MISERE HAND",
        "9S HAND", "BLIND 6S", "BLIND PASS", "DISCARD 7C 8D")}
    assert words == {
        "PASS": "пас", "WHIST": "вист", "HALF": "полвиста", "OPEN": "в светлую",
        "CLOSED": "в тёмную", "ALONE": "сам", "MISERE": "мизер",
        "MISERE HAND": "мизер без прикупа", "9S HAND": "9♠ без прикупа",
        "BLIND 6S": "6♠ в тёмную", "BLIND PASS": "пас в тёмную",
        "DISCARD 7C 8D": "снос 7♣ 8♦"}
    assert i18n.pgettext("call", "HERE", "ru") == "здесь"
    terms = {k: i18n.pgettext("term", k, "ru") for k in ("pool", "mountain", "whists", "allpass")}
    assert terms == {"pool": "пуля", "mountain": "гора", "whists": "висты", "allpass": "распасы"}
    assert [i18n.player_name(n, "ru") for n in ("Misha", "Lena", "Sasha")] == [
        "Миша", "Лена", "Саша"]


# --- the rules' options and presets ---------------------------------------------------------
def test_every_option_and_preset_has_a_description_in_both_languages():
    for name, doc in option_docs().items():
        ru = option_description(name, "ru")
        assert CYRILLIC.search(ru) and ru != name, name
        assert option_description(name, "en") == i18n.player_text(doc), name
    for preset in PRESETS:
        assert CYRILLIC.search(preset_description(preset, "ru")), preset
        assert preset_description(preset, "en") != preset
    for name, choices in option_choices().items():
        for value in choices or ():
            if isinstance(value, str):
                assert CYRILLIC.search(value_text(name, value, "ru")) or value == "none", (
                    name, value)
    assert value_text("stalingrad", True, "ru") == "да"
    assert value_text("allpass_progression", (1, 2, 3), "ru") == "1–2–3"


def test_player_text_drops_the_source_numbers():
    assert i18n.player_text("ascending: higher (003); seniority: here (001).") == (
        "ascending: higher; seniority: here.")
    assert "000" not in i18n.player_text(option_docs()["dealer_share"])


# --- choosing the language ------------------------------------------------------------------
def test_accept_language_with_q_values():
    assert parse_accept_language("ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7") == [
        ("ru-ru", 1.0), ("ru", 0.9), ("en-us", 0.8), ("en", 0.7)]
    assert parse_accept_language("en;q=0, ru;q=0.5, bad tag;q=1, de;q=x") == [("ru", 0.5)]
    assert parse_accept_language(None) == []
    assert choose_language(accept_language="de-DE, ru;q=0.5, en;q=0.4") == "ru"
    assert choose_language(accept_language="en-GB, ru;q=0.9") == "en"
    assert choose_language(accept_language="de, fr") == "en"


def test_query_beats_cookie_beats_browser():
    assert choose_language("en", "ru", "ru") == "en"
    assert choose_language(None, "ru", "en") == "ru"
    assert choose_language("xx", "ru", "en") == "ru"
    assert choose_language("RU", None, None) == "ru"
    assert i18n.COOKIE_NAME == "lang" and i18n.QUERY_PARAMETER == "lang"


def test_the_built_mo_files_are_read_when_fresh(tmp_path, monkeypatch):
    """A compiled .mo newer than its .po is what the translator reads."""
    import os

    for lang in i18n.LANGUAGES:
        src = i18n.catalogue_path(lang)
        folder = tmp_path / lang / "LC_MESSAGES"
        folder.mkdir(parents=True)
        (folder / src.name).write_bytes(src.read_bytes())
        (folder / "preferans.mo").write_bytes(i18n.compile_po(src))
        os.utime(folder / src.name, (1, 1))
    monkeypatch.setattr(translate, "LOCALE_DIR", tmp_path)
    i18n.translator.cache_clear()
    try:
        assert i18n.pgettext("call", "PASS", "ru") == "пас"
    finally:
        monkeypatch.undo()
        i18n.translator.cache_clear()


def test_module_doctests():
    import doctest

    from preferans.i18n import reasons

    for module in (translate, reasons):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__


def test_the_catalogues_are_in_line_with_the_code():
    """Every reason code, option and guide example of the code is in the catalogues with the
    code's English (tools/i18n_sync.py adds what is missing)."""
    import importlib.util

    path = Path(__file__).parents[1] / "tools" / "i18n_sync.py"
    spec = importlib.util.spec_from_file_location("i18n_sync", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.sync(check=True) == []


def test_the_package_hands_out_translate_and_imports_no_engine():
    """``preferans.i18n`` re-exports :mod:`preferans.i18n.translate`'s names, loading it on
    first use: the engine imports ``i18n.reasons`` (which runs the package first), and
    ``translate`` imports the engine, so the package itself must not."""
    assert set(translate.__all__) <= set(i18n.__all__)
    for name in i18n.__all__:
        assert getattr(i18n, name) is getattr(translate, name), name
    with pytest.raises(AttributeError):
        _ = i18n.no_such_name
    probe = ("import sys, preferans.i18n, preferans.i18n.reasons, preferans.i18n.notes; "
             "print(*sorted(m for m in sys.modules if m.startswith('preferans.')))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["preferans.cards", "preferans.i18n", "preferans.i18n.notes",
                           "preferans.i18n.reasons"]
    probe = "import preferans.actions; from preferans.i18n import render_reason; print('ok')"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "ok"
