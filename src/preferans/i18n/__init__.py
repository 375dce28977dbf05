"""The game in the reader's language, and the engine's messages as data.

- :mod:`.translate`: the gettext catalogues (``locale/``) and the engine's words rendered in
  them; its names are this package's (``from preferans.i18n import pgettext, render_reason``).
- :mod:`.reasons`: why the rules refuse an action (a code and its parameters).
- :mod:`.notes`: the sheet's deal notes (a code and its parameters).
- :mod:`.rules_errors`: why the rules' options are refused.
- :mod:`.ui_catalogue`: the browser's strings (the ``ui`` domain) as ES modules.

The engine imports :mod:`.reasons`, :mod:`.notes` and :mod:`.rules_errors`, and importing
any of them runs this file first, while :mod:`.translate` imports the engine (actions, bids,
cards).  So this file imports nothing at its top: :mod:`.translate`'s names load on first
use (:pep:`562`), and ``import preferans.i18n`` leaves the engine unloaded.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .translate import (
        COOKIE_NAME,
        DEFAULT_LANGUAGE,
        DOMAIN,
        LANGUAGES,
        LOCALE_DIR,
        QUERY_PARAMETER,
        action_text,
        bid_text,
        bid_words,
        card_text,
        catalogue_path,
        choose_language,
        compile_po,
        count,
        gettext,
        ngettext,
        normalize,
        npgettext,
        option_description,
        parse_accept_language,
        pgettext,
        player_gender,
        player_name,
        player_text,
        preset_description,
        render_note,
        render_notes,
        render_reason,
        render_rules_error,
        suit_name,
        translator,
        value_text,
    )

__all__ = [
    "COOKIE_NAME",
    "DEFAULT_LANGUAGE",
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_DIR",
    "QUERY_PARAMETER",
    "action_text",
    "bid_text",
    "bid_words",
    "card_text",
    "catalogue_path",
    "choose_language",
    "compile_po",
    "count",
    "gettext",
    "ngettext",
    "normalize",
    "npgettext",
    "option_description",
    "parse_accept_language",
    "pgettext",
    "player_gender",
    "player_name",
    "player_text",
    "preset_description",
    "render_note",
    "render_notes",
    "render_reason",
    "render_rules_error",
    "suit_name",
    "translator",
    "value_text",
]


def __getattr__(name: str) -> Any:
    """:mod:`.translate`'s public names, loaded on first use."""
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(".translate", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
