"""The browser's strings: the ``ui`` gettext domain, and the ES modules made from it.

Every string the web table shows (``static/*.js`` asks for it by key through ``t()`` in
``static/i18n.js``) is an entry of ``locale/<lang>/LC_MESSAGES/ui.po``: a gettext domain of
its own beside ``preferans.po`` (the server's), so the browser's catalogue is one file per
language, served whole.  ``msgid`` is the key (``status.turn.play``), ``msgstr`` the text;
``{name}`` fields are filled by ``t(key, {name: ...})``.  A plural entry has
``msgid_plural`` = the key + ``.plural`` and one ``msgstr[i]`` per form of the language's
``Plural-Forms`` (two in English, three in Russian); ``t()`` picks the form for
``params.count`` with the header's own rule.

The browser reads a catalogue as an ES module made from the ``.po``
(:func:`javascript`): ``GET /i18n/<lang>.js`` for the page's language, and
``static/strings/en.js`` (the same module for English, written by ``tools/ui_catalogue.py``,
the fallback for a key a translation lacks).

>>> ngettext("plate.tricks", 21, "ru"), ngettext("plate.tricks", 22, "ru")
('{count} взятка', '{count} взятки')
>>> plural_index("ru", 25), plural_index("en", 1)
(2, 0)
"""

from __future__ import annotations

import gettext as _gettext
import io
import json
import re
from functools import cache, lru_cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from .translate import LANGUAGES, LOCALE_DIR, compile_po, normalize

__all__ = [
    "DOMAIN",
    "PLURAL_SUFFIX",
    "catalog_entries",
    "catalogue_path",
    "entries",
    "gettext",
    "javascript",
    "ngettext",
    "plural_expression",
    "plural_index",
    "read",
]

DOMAIN = "ui"
PLURAL_SUFFIX = ".plural"
"""A plural entry's ``msgid_plural`` is its key with this suffix."""

Text = str | tuple[str, ...]
_C_EXPRESSION = re.compile(r"^[\sn0-9%<>=!&|?:()+\-*/]+$")


def catalogue_path(lang: str, suffix: str = ".po") -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}{suffix}"


def read(lang: str) -> Catalog:
    """The ``ui`` catalogue of ``lang`` as Babel reads it (the ``.po`` source)."""
    with catalogue_path(lang).open("rb") as fh:
        return read_po(fh)


def _stamp(lang: str) -> tuple[float, float]:
    po, mo = catalogue_path(lang), catalogue_path(lang, ".mo")
    return (po.stat().st_mtime if po.exists() else 0.0, mo.stat().st_mtime if mo.exists() else 0.0)


def entries(lang: str) -> dict[str, str | tuple[str, ...]]:
    """key → text, or the tuple of plural forms, in the ``.po``'s order."""
    return dict(_entries(lang, _stamp(lang)))


@lru_cache(maxsize=8)
def _entries(lang: str, stamp: tuple[float, float]) -> tuple[tuple[str, Text], ...]:
    return tuple(catalog_entries(read(lang)).items())


def catalog_entries(
    catalog: Catalog, translated: bool = False
) -> dict[str, str | tuple[str, ...]]:
    """key → text, or the tuple of plural forms, of a Babel catalogue (``translated``:
    only the entries gettext would use, neither empty nor fuzzy)."""
    out: dict[str, str | tuple[str, ...]] = {}
    for message in catalog:
        if not message.id:
            continue
        if translated:
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            if message.fuzzy or not all(strings):
                continue
        if isinstance(message.id, tuple | list):
            out[message.id[0]] = tuple(message.string)
        else:
            out[message.id] = message.string
    return out


def plural_expression(lang: str, catalog: Catalog | None = None) -> tuple[int, str]:
    """``(nplurals, plural)`` of the catalogue's ``Plural-Forms`` header (a C expression
    of ``n``; only digits, ``n`` and operators are let through, as it becomes code)."""
    catalog = catalog if catalog is not None else read(lang)
    expr = catalog.plural_expr
    if not _C_EXPRESSION.match(expr):
        raise ValueError(f"{lang}: unexpected Plural-Forms expression {expr!r}")
    return catalog.num_plurals, expr.strip()


@cache
def _translator(lang: str, stamp: tuple[float, float]) -> _gettext.GNUTranslations:
    po, mo = catalogue_path(lang), catalogue_path(lang, ".mo")
    if mo.exists() and stamp[1] >= stamp[0]:
        with mo.open("rb") as fh:
            return _gettext.GNUTranslations(fh)
    return _gettext.GNUTranslations(io.BytesIO(compile_po(po)))


def translator(lang: str | None) -> _gettext.GNUTranslations:
    """The compiled ``ui`` catalogue (the built ``.mo`` when fresh, else the ``.po``)."""
    lang = normalize(lang)
    return _translator(lang, _stamp(lang))


def gettext(key: str, lang: str | None) -> str:
    return translator(lang).gettext(key)


def ngettext(key: str, n: int, lang: str | None) -> str:
    """The plural form of ``key`` for ``n`` (gettext's own choice, by the header's rule)."""
    return translator(lang).ngettext(key, key + PLURAL_SUFFIX, n)


def plural_index(lang: str, n: int) -> int:
    """Which ``msgstr[i]`` the language uses for ``n`` (Python's reading of the header)."""
    return int(_gettext.c2py(plural_expression(lang)[1])(n))


# --- the ES module ------------------------------------------------------------------------
def _js(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def javascript(lang: str, catalog: Catalog | None = None) -> str:
    """The catalogue of ``lang`` as an ES module: ``default`` maps key → text (a plural
    entry is the array of its forms), ``plural(n)`` is the index of the form for ``n``.
    Untranslated and fuzzy entries are left out, so the page shows the English instead.
    ``catalog``: the one to write (else the ``.po`` of ``lang`` as it is on disk)."""
    if lang not in LANGUAGES:
        raise KeyError(lang)
    if catalog is None:
        return _javascript(lang, _stamp(lang))
    return _module(lang, catalog)


@lru_cache(maxsize=8)
def _javascript(lang: str, stamp: tuple[float, float]) -> str:
    return _module(lang, read(lang))


def _module(lang: str, catalog: Catalog) -> str:
    nplurals, expr = plural_expression(lang, catalog)
    lines = [
        f"/* The {lang} catalogue of the web table's strings, generated from",
        f" * locale/{lang}/LC_MESSAGES/{DOMAIN}.po by preferans.i18n.ui_catalogue: edit the .po",
        " * and run tools/ui_catalogue.py, never this file.  See static/i18n.js for its use. */",
        f"export const lang = {_js(lang)};",
        f"export const nplurals = {nplurals};",
        "/** The index of the plural form for n (the .po's Plural-Forms). */",
        f"export const plural = (n) => Number({expr});",
        "export default {",
    ]
    for key, text in catalog_entries(catalog, translated=True).items():
        if isinstance(text, tuple):
            lines.append(f"  {_js(key)}: [{', '.join(_js(s) for s in text)}],")
        else:
            lines.append(f"  {_js(key)}: {_js(text)},")
    lines.append("};")
    return "\n".join(lines) + "\n"
