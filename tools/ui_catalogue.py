"""Keep the browser's strings in step: the ``ui`` gettext catalogues and ``static/strings/en.js``.

The source of every string the web table shows is ``locale/<lang>/LC_MESSAGES/ui.po``
(see :mod:`preferans.i18n.ui_catalogue`); ``static/strings/en.js`` is generated from the English
one.  This tool:

1. **adopts** a key found in ``en.js`` that the English ``.po`` lacks (a string added to
   ``en.js`` by hand, or by a branch merged from before the catalogue moved): its English
   goes into ``en/ui.po``, and every other language gets the key with an empty ``msgstr``
   (``tests/test_ui_catalogue.py`` fails until it is translated).  A key already in the
   ``.po`` keeps the ``.po``'s text: the ``.po`` is the source (a differing ``en.js`` text
   is reported, then overwritten);
2. brings every other language in line with English: the same keys in the same order
   (missing ones added empty, lost ones dropped); each entry carries the English as an
   extracted comment (``#. en: ...``) and is marked fuzzy when the English changed since;
3. writes ``en.js`` from ``en/ui.po``.

Run: ``.venv/bin/python tools/ui_catalogue.py`` (``--check``: only say what is out of step,
exit 1 if anything is).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from preferans import i18n
from preferans.i18n import ui_catalogue

EN_JS = Path(ui_catalogue.__file__).parents[1] / "server" / "static" / "strings" / "en.js"
COMMENT = "en: "

Text = str | tuple[str, ...]

_TOKEN = re.compile(
    r'(?P<skip>\s+|//[^\n]*|/\*.*?\*/)|(?P<str>"(?:[^"\\\n]|\\.)*")|(?P<punct>[{}\[\]:,])'
    r"|(?P<word>[A-Za-z_$][\w$]*)|(?P<other>.)",
    re.S,
)


# --- reading en.js --------------------------------------------------------------------------
def _string(token: str) -> str:
    return json.loads(token.replace("\\'", "'"))


def parse_js(text: str) -> dict[str, Text]:
    """The entries of an ``en.js``: its ``export default {...}`` of ``"key": "text"``,
    plural ``{one: ..., other: ...}`` objects or arrays of forms.  Anything else (a
    function) is an error: write it as a template with ``{fields}``."""
    start = text.index("export default {") + len("export default")
    tokens = [(m.lastgroup, m.group()) for m in _TOKEN.finditer(text, start)
              if m.lastgroup != "skip"]
    pos = 0

    def take(kind: str | None = None, value: str | None = None) -> str:
        nonlocal pos
        got_kind, got = tokens[pos]
        if (kind and got_kind != kind) or (value and got != value):
            near = " ".join(t for _, t in tokens[max(0, pos - 3):pos + 3])
            raise ValueError(f"en.js: expected {value or kind}, found {got!r} near: {near}")
        pos += 1
        return got

    out: dict[str, Text] = {}
    take("punct", "{")
    while tokens[pos][1] != "}":
        key = _string(take("str"))
        take("punct", ":")
        kind, value = tokens[pos]
        if kind == "str":
            out[key] = _string(take("str"))
        elif value == "[":
            take()
            forms = []
            while tokens[pos][1] != "]":
                forms.append(_string(take("str")))
                if tokens[pos][1] == ",":
                    take()
            take("punct", "]")
            out[key] = tuple(forms)
        elif value == "{":
            take()
            named: dict[str, str] = {}
            while tokens[pos][1] != "}":
                name = take("word")
                take("punct", ":")
                named[name] = _string(take("str"))
                if tokens[pos][1] == ",":
                    take()
            take("punct", "}")
            if set(named) != {"one", "other"}:
                raise ValueError(f"en.js: {key}: an English plural has the forms one and other")
            out[key] = (named["one"], named["other"])
        else:
            raise ValueError(f"en.js: {key} is not a string or a plural: write it as a "
                             "template with {fields} in locale/en/LC_MESSAGES/ui.po")
        if tokens[pos][1] == ",":
            take()
    return out


# --- the catalogues -------------------------------------------------------------------------
def _read(lang: str) -> Catalog:
    path = ui_catalogue.catalogue_path(lang)
    if path.exists():
        with path.open("rb") as fh:
            return read_po(fh)
    catalog = _new(lang)
    with i18n.catalogue_path(lang).open("rb") as fh:  # the same header as the server's
        catalog.mime_headers = read_po(fh).mime_headers
    return catalog


HEADER = """# The web table's strings in {language}: the browser's catalogue (gettext domain "ui").
# Keys are msgid; see src/preferans/i18n/ui_catalogue.py and locale/README.md.
# tools/ui_catalogue.py keeps it in step with English and writes static/strings/en.js."""


def _new(lang: str) -> Catalog:
    catalog = Catalog(locale=lang, domain=ui_catalogue.DOMAIN, project="preferans",
                      version="0.1", copyright_holder="the preferans authors", fuzzy=False)
    language = {"en": "English", "ru": "Russian"}.get(lang, lang)
    catalog.header_comment = HEADER.format(language=language)
    return catalog


def _add(catalog: Catalog, key: str, text: Text, **kw) -> None:
    if isinstance(text, tuple):
        catalog.add((key, key + ui_catalogue.PLURAL_SUFFIX), text, **kw)
    else:
        catalog.add(key, text, **kw)


def _english_note(text: Text) -> str:
    return COMMENT + (" | ".join(text) if isinstance(text, tuple) else text)


def _blank(text: Text, nplurals: int) -> Text:
    return ("",) * nplurals if isinstance(text, tuple) else ""


def _words(text: str) -> str:
    return " ".join(text.split())  # write_po wraps long comments over several lines


def sync(check: bool = False) -> list[str]:
    """Apply (or, with ``check``, only list) the changes; returns them, one line each."""
    changes: list[str] = []
    en = _read("en")
    english = ui_catalogue.catalog_entries(en)
    in_js = parse_js(EN_JS.read_text(encoding="utf-8")) if EN_JS.exists() else {}
    for key, text in in_js.items():
        if key not in english:
            changes.append(f"en: adopt {key} from en.js")
            _add(en, key, text)
            english[key] = text
        elif text != english[key]:
            changes.append(f"en.js: {key} differs from en/ui.po (the .po's text is kept)")
    en_changed = any(c.startswith("en: ") for c in changes)

    others: dict[str, Catalog] = {}
    for lang in i18n.LANGUAGES:
        if lang == "en":
            continue
        old = _read(lang)
        have = {key: old.get(key) for key in ui_catalogue.catalog_entries(old)}
        new = _new(lang)
        new.mime_headers = old.mime_headers
        nplurals = new.num_plurals
        before = len(changes)
        for key, text in english.items():
            note = _english_note(text)
            message = have.pop(key, None)
            if message is None or isinstance(message.id, tuple | list) != isinstance(text, tuple):
                changes.append(f"{lang}: add {key} (to translate)")
                _add(new, key, _blank(text, nplurals), auto_comments=[note])
                continue
            flags = set(message.flags)
            if _words(" ".join(message.auto_comments)) != _words(note):
                if message.auto_comments:
                    changes.append(f"{lang}: recheck {key}: its English changed (marked fuzzy)")
                    flags.add("fuzzy")
                else:
                    changes.append(f"{lang}: note the English of {key}")
            string = message.string
            _add(new, key, tuple(string) if isinstance(text, tuple) else string,
                 auto_comments=[note], user_comments=message.user_comments, flags=flags)
        for key in have:
            changes.append(f"{lang}: drop {key}")
        if [m.id for m in new] != [m.id for m in old] and len(changes) == before:
            changes.append(f"{lang}: put in the English order")
        if len(changes) > before:
            others[lang] = new

    if not check:
        if en_changed or not ui_catalogue.catalogue_path("en").exists():
            _write("en", en)
        for lang, catalog in others.items():
            _write(lang, catalog)
    module = ui_catalogue.javascript("en", en)
    if not EN_JS.exists() or EN_JS.read_text(encoding="utf-8") != module:
        changes.append("en.js: rewritten from en/ui.po")
        if not check:
            EN_JS.write_text(module, encoding="utf-8")
    return changes


def _write(lang: str, catalog: Catalog) -> None:
    path = ui_catalogue.catalogue_path(lang)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fh:
        write_po(fh, catalog, width=100, sort_output=False, include_lineno=False)


def main(argv: list[str]) -> int:
    check = "--check" in argv
    changes = sync(check=check)
    for line in changes:
        print(line)
    if not changes:
        print("the ui catalogues and en.js are in step")
    return 1 if check and changes else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
