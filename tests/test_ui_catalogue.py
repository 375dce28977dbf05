"""The browser's strings (gettext domain ``ui``): both languages for every key, the
catalogues compile, the same ``{fields}`` in Russian as in English, Russian plural forms
right in Python and in the generated JavaScript, and ``static/strings/en.js`` in step with
``en/ui.po`` (it is generated from it by ``tools/ui_catalogue.py``)."""

from __future__ import annotations

import gettext
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo, write_mo

from preferans import i18n
from preferans.i18n import ui_catalogue

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import ui_catalogue as tool  # noqa: E402  (tools/ui_catalogue.py)

STATIC = ROOT / "src" / "preferans" / "server" / "static"
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
LATIN_ALLOWED = {"Esc", "Enter", "Tab", "Home", "End", "Page", "Up", "Down", "H",
                 "preferans-record", "preferans", "match"}
"""Latin words a Russian string may hold: key names and the record format's own names."""
COUNTS = (0, 1, 2, 3, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111, 112, 1000)
NODE = shutil.which("node")


def _fields(text: str | tuple[str, ...]) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", " ".join(text) if isinstance(text, tuple) else text))


# --- the catalogues as files ----------------------------------------------------------------
def test_every_key_has_both_languages_translated():
    en, ru = ui_catalogue.read("en"), ui_catalogue.read("ru")
    assert [m.id for m in en if m.id] == [m.id for m in ru if m.id]  # same keys, same order
    assert len(ui_catalogue.entries("en")) > 300
    for catalog in (en, ru):
        for message in catalog:
            if not message.id:
                continue
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            assert all(s.strip() for s in strings), (catalog.locale, message.id)
            assert not message.fuzzy, (str(catalog.locale), message.id)
    assert ru.num_plurals == 3 and en.num_plurals == 2
    for message in ru:
        if isinstance(message.id, tuple):
            assert message.id[1] == message.id[0] + ui_catalogue.PLURAL_SUFFIX
            assert len(message.string) == 3, message.id


def test_the_catalogues_compile_with_babel_and_msgfmt(tmp_path: Path):
    for lang in i18n.LANGUAGES:
        catalog = ui_catalogue.read(lang)
        assert not list(catalog.check()), lang  # babel's checkers: placeholders, plurals
        mo = tmp_path / f"{lang}.mo"
        with mo.open("wb") as fh:
            write_mo(fh, catalog)
        with mo.open("rb") as fh:
            assert len(read_mo(fh)) == len(catalog)
        with mo.open("rb") as fh:
            compiled = gettext.GNUTranslations(fh)
        play = ui_catalogue.entries(lang)["status.turn.play"]
        assert compiled.gettext("status.turn.play") == play
        if shutil.which("msgfmt"):
            po = str(ui_catalogue.catalogue_path(lang))
            run = subprocess.run(["msgfmt", "--check", "-o", str(tmp_path / "x.mo"), po],
                                 capture_output=True, text=True)
            assert run.returncode == 0, run.stderr


def test_placeholders_are_the_same_in_both_languages():
    en, ru = ui_catalogue.entries("en"), ui_catalogue.entries("ru")
    for key, text in ru.items():
        assert _fields(text) == _fields(en[key]), key
        if isinstance(text, tuple):  # every form has the fields (the count's slot included)
            for form in text:
                assert _fields(form) == _fields(text[0]), (key, form)


def test_russian_is_russian_in_players_words():
    en, ru = ui_catalogue.entries("en"), ui_catalogue.entries("ru")
    strip = lambda s: re.sub(r"\{\w+\}", "", " ".join(s) if isinstance(s, tuple) else s)  # noqa: E731
    for key, text in ru.items():
        latin = set(re.findall(r"[A-Za-z][A-Za-z-]*", strip(text)))
        assert latin <= LATIN_ALLOWED, (key, latin - LATIN_ALLOWED)
        if re.search(r"[A-Za-z]{2}", strip(en[key])):
            assert text != en[key], key
        assert not re.search(r"\b00[0-3]\b", strip(text)), key  # never a source-file number
    calls = {k: ru[k] for k in ("call.PASS", "call.WHIST", "call.HALF", "call.MISERE", "call.OPEN",
                                "call.CLOSED", "call.ALONE")}
    assert calls == {"call.PASS": "Пас", "call.WHIST": "Вист", "call.HALF": "Полвиста",
                     "call.MISERE": "Мизер", "call.OPEN": "В светлую", "call.CLOSED": "В тёмную",
                     "call.ALONE": "Сам"}
    assert ru["strain.NT.short"].strip() == "БК"
    assert [ru[f"player.{n}"] for n in ("Misha", "Lena", "Sasha", "Dummy")] == [
        "Миша", "Лена", "Саша", "Болван"]
    assert ru["chip.allpass"] == "Распасы" and ru["sheet.mountain"] == "Гора"


def test_names_and_calls_agree_with_the_servers_catalogue():
    ru = ui_catalogue.entries("ru")
    for name in ("You", "Misha", "Lena", "Sasha", "Oleg", "Dummy"):
        assert ru[f"player.{name}"] == i18n.pgettext("name", name, "ru")
    for call in ("PASS", "WHIST", "HALF", "OPEN", "CLOSED", "ALONE"):
        assert ru[f"call.{call}"].lower() == i18n.pgettext("call", call, "ru")


# --- plural forms ---------------------------------------------------------------------------
EXPECTED_TRICKS = {1: "1 взятка", 2: "2 взятки", 5: "5 взяток", 11: "11 взяток", 21: "21 взятка",
                   22: "22 взятки", 25: "25 взяток", 12: "12 взяток", 111: "111 взяток"}
EXPECTED_CARDS = {1: "1 карта", 2: "2 карты", 5: "5 карт", 11: "11 карт", 21: "21 карта",
                  22: "22 карты", 25: "25 карт"}


def test_russian_plural_forms_in_python():
    for n, text in EXPECTED_TRICKS.items():
        assert ui_catalogue.ngettext("plate.tricks", n, "ru").format(count=n) == text
    for n, text in EXPECTED_CARDS.items():
        assert ui_catalogue.ngettext("seat.cards", n, "ru").format(count=n) == text
    assert [ui_catalogue.plural_index("ru", n) for n in (1, 2, 5, 11, 21, 22, 25)] == [
        0, 1, 2, 2, 0, 1, 2]
    assert [ui_catalogue.ngettext("plate.tricks", n, "en").format(count=n) for n in (1, 2, 21)] == [
        "1 trick", "2 tricks", "21 tricks"]


def _run_node(module: str, script: str, tmp_path: Path) -> object:
    (tmp_path / "catalogue.mjs").write_text(module, encoding="utf-8")
    (tmp_path / "probe.mjs").write_text(script, encoding="utf-8")
    run = subprocess.run([NODE, str(tmp_path / "probe.mjs")], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


@pytest.mark.skipif(NODE is None, reason="needs node to run the generated JavaScript")
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_generated_module_picks_the_same_forms_as_gettext(lang: str, tmp_path: Path):
    probe = f"""
import strings, {{ plural, nplurals, lang }} from "./catalogue.mjs";
const counts = {json.dumps(COUNTS)};
const forms = {{}};
for (const [key, entry] of Object.entries(strings)) {{
  if (Array.isArray(entry)) forms[key] = counts.map((n) => entry[plural(n)]);
}}
console.log(JSON.stringify({{ lang, nplurals, index: counts.map(plural), forms,
                             size: Object.keys(strings).length }}));
"""
    got = _run_node(ui_catalogue.javascript(lang), probe, tmp_path)
    assert got["lang"] == lang and got["size"] == len(ui_catalogue.entries(lang))
    assert got["index"] == [ui_catalogue.plural_index(lang, n) for n in COUNTS]
    plurals = {k for k, v in ui_catalogue.entries(lang).items() if isinstance(v, tuple)}
    assert set(got["forms"]) == plurals and len(plurals) >= 15
    for key, forms in got["forms"].items():
        assert forms == [ui_catalogue.ngettext(key, n, lang) for n in COUNTS], key
    if lang == "ru":
        tricks = dict(zip(COUNTS, got["forms"]["plate.tricks"], strict=True))
        for n, text in EXPECTED_TRICKS.items():
            assert tricks[n].format(count=n) == text


@pytest.mark.skipif(NODE is None, reason="needs node to run the generated JavaScript")
def test_t_fills_russian_through_the_page_module(tmp_path: Path):
    """static/i18n.js itself: t() with the Russian catalogue registered, plural forms by the
    .po's rule, a key Russian lacks falls back to English, a missing key shows as itself."""
    for module in ("i18n.js", "util.js"):
        shutil.copy(STATIC / module, tmp_path / module)
    (tmp_path / "strings").mkdir()
    shutil.copy(STATIC / "strings" / "en.js", tmp_path / "strings" / "en.js")
    probe = """
import { addCatalogue, setLanguage, t, has, language } from "./i18n.js";
import { formatNumber } from "./util.js";
import ru, { plural } from "./catalogue.mjs";
const before = [t("plate.tricks", { count: 2 }), formatNumber(13.33, true)];
const partial = { ...ru };
delete partial["menu.guide"];
addCatalogue("ru", partial, plural);
setLanguage("ru-RU");
const out = { before, language: language(), sample: {} };
for (const n of [1, 2, 5, 11, 21, 22, 25]) out.sample[n] = t("plate.tricks", { count: n });
out.status = t("status.wait.play", { name: t("player.Misha") });
out.english = t("menu.guide");
out.numbers = [formatNumber(13.33, true), formatNumber(-6.67, true), formatNumber(2)];
out.fallback = t("no.such.key");
out.has = has("call.PASS");
console.log(JSON.stringify(out));
"""
    got = _run_node(ui_catalogue.javascript("ru"), probe, tmp_path)
    assert got["before"] == ["2 tricks", "+13.3"] and got["language"] == "ru"
    assert got["numbers"] == ["+13,3", "−6,7", "2"]  # the Russian decimal comma
    assert got["english"] == "Rules guide"  # a key Russian lacks: the English
    assert got["sample"] == {str(n): text for n, text in EXPECTED_TRICKS.items()
                             if n in (1, 2, 5, 11, 21, 22, 25)}
    assert got["status"] == "Ходит Миша…"
    assert got["fallback"] == "no.such.key" and got["has"] is True


# --- en.js and the tool ---------------------------------------------------------------------
def test_en_js_is_generated_from_the_english_po():
    assert tool.sync(check=True) == [], "run .venv/bin/python tools/ui_catalogue.py"
    en_js = (STATIC / "strings" / "en.js").read_text(encoding="utf-8")
    assert en_js == ui_catalogue.javascript("en")
    assert tool.parse_js(en_js) == ui_catalogue.entries("en")


def test_every_key_a_script_asks_for_is_in_the_catalogue():
    keys = set(ui_catalogue.entries("en"))
    asked: set[str] = set()
    for script in (s for s in STATIC.glob("*.js") if s.name != "i18n.js"):
        text = script.read_text(encoding="utf-8")
        asked |= set(re.findall(r"\bt\(\"([\w.]+(?: [\w.]+)?)\"", text))
    for template in (STATIC.parent / "templates").glob("*.html"):
        text = template.read_text(encoding="utf-8")
        asked |= set(re.findall(r'data-t(?:-label|-title)?="([^"]+)"', text))
    assert asked and asked <= keys, sorted(asked - keys)


def test_the_tool_reads_hand_written_entries_and_refuses_functions():
    text = """export default {
      // a comment "x": "y"
      "a.b": "Plain {name}", "c": { one: "{count} trick", other: "{count} tricks" },
      "d": ["{count} card", "{count} cards"], /* block */ "e": "say \\"hi\\"",
    };"""
    assert tool.parse_js(text) == {"a.b": "Plain {name}", "c": ("{count} trick", "{count} tricks"),
                                   "d": ("{count} card", "{count} cards"), "e": 'say "hi"'}
    with pytest.raises(ValueError, match="template"):
        tool.parse_js('export default { "f": (p) => p.x };')


def test_a_new_key_in_en_js_is_adopted_and_waits_for_its_translation(tmp_path, monkeypatch):
    """The merge case: a branch added a string to en.js by hand.  The tool takes it into the
    English .po, gives Russian an empty entry (the tests above fail until it is written) and
    rewrites en.js from the .po."""
    locale = tmp_path / "locale"
    for lang in i18n.LANGUAGES:
        (locale / lang / "LC_MESSAGES").mkdir(parents=True)
        shutil.copy(ui_catalogue.catalogue_path(lang), locale / lang / "LC_MESSAGES" / "ui.po")
        shutil.copy(i18n.catalogue_path(lang), locale / lang / "LC_MESSAGES" / "preferans.po")
    en_js = tmp_path / "en.js"
    original = (STATIC / "strings" / "en.js").read_text(encoding="utf-8")
    en_js.write_text(original.replace(
        "\n};", '\n  "deck.new": "A new deck",\n  "deck.cards": { one: "{count} new card", '
        'other: "{count} new cards" },\n};'), encoding="utf-8")
    monkeypatch.setattr(ui_catalogue, "LOCALE_DIR", locale)
    monkeypatch.setattr(tool, "EN_JS", en_js)
    changes = tool.sync()
    assert "en: adopt deck.new from en.js" in changes
    assert "ru: add deck.cards (to translate)" in changes
    forms = ("{count} new card", "{count} new cards")
    assert ui_catalogue.read("en").get("deck.cards").string == forms
    assert ui_catalogue.read("ru").get("deck.cards").string == ("", "", "")
    assert en_js.read_text(encoding="utf-8") == ui_catalogue.javascript("en")
    assert '"deck.cards": ["{count} new card", "{count} new cards"]' in en_js.read_text("utf-8")
    assert "deck.new" not in ui_catalogue.javascript("ru")  # untranslated: English shows instead
    assert tool.sync(check=True) == []
    # The English of a key changes: Russian is marked fuzzy for a second look.
    en = ui_catalogue.read("en")
    en.get("call.PASS").string = "Pass!"
    tool._write("en", en)
    assert "ru: recheck call.PASS: its English changed (marked fuzzy)" in tool.sync()
    assert ui_catalogue.read("ru").get("call.PASS").fuzzy
    assert '"call.PASS"' not in ui_catalogue.javascript("ru")


def test_module_doctests():
    import doctest

    assert doctest.testmod(ui_catalogue).failed == 0
