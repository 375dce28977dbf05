"""Bring the gettext catalogues in line with the code: what ``pybabel update`` does for a
catalogue keyed by code.

The English texts of the code-derived families come from the code: ``reason`` from
:data:`preferans.i18n.reasons.ENGLISH`, ``option`` from the :class:`~preferans.rules.Rules`
docs (source numbers taken out, :func:`preferans.i18n.player_text`), ``example`` from the
guide's scoring examples, ``rules-error`` from :data:`preferans.i18n.rules_errors.ENGLISH` (as
a player reads it: :func:`preferans.i18n.rules_errors.player_english`), ``note`` (the sheet's deal
notes) from :data:`preferans.i18n.notes.ENGLISH`.  A key the code gained
is added to every catalogue (English filled, other languages empty, for a translator:
``tests/test_i18n.py`` fails until it is translated); a key the code lost is dropped; an
English text the code changed is rewritten in ``en`` and marked fuzzy elsewhere, so the
translation gets looked at again.

The pages' family ``page`` (the server's templates and messages, keyed) has no English in
the code: a key used by a template (``_("settings.play")``) or a server module (a string
literal like ``"error.not_yours"``) and missing from a catalogue is added empty to every
catalogue (the English is written by hand in ``en``); a key nothing uses any more is dropped.
The families ``preset-title`` and ``preset-line`` take their English from
:data:`preferans.server.lang.presets_text.PRESET_TEXT`, ``option-title`` (the house-rules editor's
name of an option) the option's own name.

Run: ``.venv/bin/python tools/i18n_sync.py`` (``--check``: only say what would change, exit
1 if anything would).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

from preferans import i18n
from preferans.guide.examples import EXAMPLES
from preferans.i18n.notes import ENGLISH as NOTE_ENGLISH
from preferans.i18n.reasons import ENGLISH
from preferans.i18n.rules_errors import ENGLISH as RULES_ENGLISH
from preferans.i18n.rules_errors import player_english
from preferans.rules import option_docs
from preferans.server.lang import language as page_lang
from preferans.server.lang.presets_text import PRESET_TEXT

SERVER = Path(page_lang.__file__).parents[1]  # server/ (the language helpers are in server/lang/)
PAGE_PREFIXES = ("common", "settings", "difficulty", "damaged", "stats", "notfound", "replay",
                 "table", "title", "error", "verb", "js", "store", "friends", "chat", "rating",
                 "ladder")
_TEMPLATE_KEY = re.compile(r"""\b_\(\s*["']([\w.-]+)["']""")
_CODE_KEY = re.compile(r"""["']((?:""" + "|".join(PAGE_PREFIXES) + r""")\.[\w.]+)["']""")


def page_keys() -> set[str]:
    """Every ``page`` key the templates and the server's modules use."""
    keys = set(page_lang.dynamic_keys())
    for template in (SERVER / "templates").glob("*.html"):
        keys |= set(_TEMPLATE_KEY.findall(template.read_text(encoding="utf-8")))
    for module in SERVER.rglob("*.py"):  # every folder of the server
        keys |= set(_CODE_KEY.findall(module.read_text(encoding="utf-8")))
    keys.discard("js.counts")  # the plural of js.count
    return {k for k in keys if not k.endswith((".", ".html"))}


def code_texts() -> dict[tuple[str, str], str]:
    """(msgctxt, msgid) → English, for every family the code defines."""
    out = {("reason", code): text for code, text in ENGLISH.items()}
    out |= {("option", name): i18n.player_text(doc) for name, doc in option_docs().items()}
    for ex in EXAMPLES:
        out[("example", f"{ex.key}.title")] = ex.title
        out[("example", f"{ex.key}.explanation")] = ex.explanation
    for name, (title, line) in PRESET_TEXT.items():
        out[("preset-title", name)] = title
        out[("preset-line", name)] = line
    out |= {("option-title", name): name for name in option_docs()}
    out |= {("rules-error", code): player_english(code) for code in RULES_ENGLISH}
    out |= {("note", code): text for code, text in NOTE_ENGLISH.items()}
    return out


def _read(lang: str):
    with i18n.catalogue_path(lang).open("rb") as fh:
        return read_po(fh)


def sync(check: bool = False) -> list[str]:
    """Apply (or, with ``check``, only list) the changes; returns them, one line each."""
    wanted = code_texts()
    families = {ctx for ctx, _ in wanted}
    english = _read("en")
    changed = {
        k for k, text in wanted.items()
        if (m := english.get(k[1], context=k[0])) is not None and m.string != text
    }
    changes: list[str] = []
    for lang in i18n.LANGUAGES:
        catalog = english if lang == "en" else _read(lang)
        before = len(changes)
        present = {(m.context, m.id) for m in catalog if m.id and m.context in families}
        for ctx, key in sorted(present - set(wanted)):
            changes.append(f"{lang}: drop {ctx} {key}")
            catalog.delete(key, context=ctx)
        for (ctx, key), text in wanted.items():
            message = catalog.get(key, context=ctx)
            if message is None:
                changes.append(f"{lang}: add {ctx} {key}")
                catalog.add(key, text if lang == "en" else "", context=ctx)
            elif (ctx, key) in changed:
                if lang == "en":
                    changes.append(f"en: update {ctx} {key}")
                    message.string = text
                else:
                    changes.append(f"{lang}: recheck {ctx} {key} (marked fuzzy)")
                    message.flags.add("fuzzy")
        used = page_keys()
        present = {m.id if isinstance(m.id, str) else m.id[0]
                   for m in catalog if m.id and m.context == page_lang.PAGE}
        for key in sorted(present - used):
            changes.append(f"{lang}: drop page {key}")
            catalog.delete(key, context=page_lang.PAGE)
        for key in sorted(used - present):
            changes.append(f"{lang}: add page {key} (write its text)")
            if key == "js.count":
                forms = 3 if lang == "ru" else 2
                catalog.add((key, "js.counts"), ("",) * forms, context=page_lang.PAGE)
            else:
                catalog.add(key, "", context=page_lang.PAGE)
        if not check and len(changes) > before:
            with i18n.catalogue_path(lang).open("wb") as fh:
                write_po(fh, catalog, width=100, sort_output=False, include_lineno=False)
    return changes


def main(argv: list[str]) -> int:
    check = "--check" in argv
    changes = sync(check=check)
    for line in changes:
        print(line)
    if not changes:
        print("catalogues in line with the code")
    return 1 if check and changes else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
