"""The guide's opening line: which rules it teaches and how they differ from the game's.

The guide teaches one profile of the rules (the ``guide`` preset: the step auction with
"here", pulya 20, …), which the web game does not play unless it is chosen.  A player who
opens the guide from a table (its "?" and its menu pass ``?preset=…&pool=…``) reads, before
anything else, what the table's rules do differently; opened on its own, the guide compares
itself with the game's default rules, Sochi.

>>> p = profile(chosen_rules("leningrad", "10"), "en")
>>> p["against_title"], p["against_pool"]
('Leningrad', 10)
>>> p["differences"][:2]
['pool: 10 (this guide: 20)', 'auction: ascending (this guide: seniority)']
>>> profile(chosen_rules("no-such", "7"), "en")["chosen"]
False
"""

from __future__ import annotations

import contextlib
import dataclasses
from typing import Any

from .. import i18n
from ..rules import PRESETS, Rules, RulesError
from ..server.lang.presets_text import preset_line_in, preset_title_in

__all__ = ["chosen_rules", "profile"]

GUIDE = "guide"
DEFAULT = "sochi"
LONGEST = 40
"""Longer query values are not rules names: ignored, like any unknown name."""


def chosen_rules(preset: str | None, pool: str | None) -> Rules | None:
    """The rules a table plays, from the guide's query (``?preset=leningrad&pool=10``):
    a preset of the game's and a pool the rules accept, else None (the query is the
    network's: anything else is ignored)."""
    name = (preset or "").strip().lower()
    if not name or len(name) > LONGEST or name not in PRESETS or name == GUIDE:
        return None
    rules = Rules.preset(name)
    text = (pool or "").strip()
    if text.isdigit() and len(text) <= 4:
        with contextlib.suppress(RulesError, ValueError):  # a pool the rules refuse: theirs
            rules = rules.replace(pool=int(text))
    return rules


def _name(option: str, lang: str) -> str:
    title = i18n.pgettext("option-title", option, lang)
    return option.replace("_", " ") if title == option else title[:1].lower() + title[1:]


def profile(chosen: Rules | None, lang: str | None) -> dict[str, Any]:
    """The opening line's parts in ``lang``: the guide's profile (title, line, pool), the
    rules compared with (the chosen ones, else Sochi) and each difference in words,
    ``"auction: ascending (this guide: seniority)"``; ``query`` keeps the choice in links."""
    lang = i18n.normalize(lang)
    guide = Rules.preset(GUIDE)
    against = chosen or Rules.preset(DEFAULT)
    here = "this guide" if lang == "en" else "в этих правилах"
    differences = []
    for field in dataclasses.fields(Rules):
        option = field.name
        if option == "name":
            continue
        mine, theirs = getattr(guide, option), getattr(against, option)
        if mine != theirs:
            differences.append(f"{_name(option, lang)}: {i18n.value_text(option, theirs, lang)}"
                               f" ({here}: {i18n.value_text(option, mine, lang)})")
    query = f"&preset={against.name}&pool={against.pool}" if chosen is not None else ""
    return {
        "chosen": chosen is not None, "title": preset_title_in(GUIDE, lang),
        "line": preset_line_in(GUIDE, lang), "pool": guide.pool,
        "against_title": preset_title_in(against.name, lang), "against_pool": against.pool,
        "differences": differences, "query": query,
    }
