"""The sheet's deal summaries in the reader's language.

The engine writes each deal's summary in English (``summary``) and, for the table, its
phrases as data (``notes``: code and parameters, :mod:`preferans.i18n.notes`).  For a socket
reading another language the server writes the summary again from the notes
(:func:`preferans.i18n.render_notes`) and marks it with ``summary_lang``, which the page's
sheet (``sheet.js``) honours instead of writing its own thinner line.  English frames are
the sheet as it is.
"""

from __future__ import annotations

from typing import Any

from ... import i18n

__all__ = ["entry_in", "sheet_in"]


def entry_in(entry: dict[str, Any], names: list[str], lang: str,
             genders: list[str] | None = None) -> dict[str, Any]:
    """One deal entry with its ``summary`` in ``lang`` (as it is where it has no notes),
    each player's verbs in his form of address (``genders``, by seat: «Вера поймалась»)."""
    notes = entry.get("notes")
    if not notes or i18n.normalize(lang) == "en":
        return entry
    return {**entry, "summary": i18n.render_notes(notes, names, lang, genders),
            "summary_lang": i18n.normalize(lang)}


def sheet_in(sheet: dict[str, Any], lang: str,
             genders: list[str] | None = None) -> dict[str, Any]:
    """The sheet with every deal's summary in ``lang`` (``genders`` as for :func:`entry_in`)."""
    if i18n.normalize(lang) == "en" or not sheet.get("deals"):
        return sheet
    names = list(sheet.get("players") or [])
    return {**sheet, "deals": [entry_in(e, names, lang, genders) for e in sheet["deals"]]}
