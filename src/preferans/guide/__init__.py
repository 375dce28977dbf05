"""The rules guide: one printable HTML page, generated from the engine.

:func:`render_guide` renders ``templates/guide.html``.  Everything on the page
that the engine knows is taken from the engine, never typed in:

- the contract values, quotas and the presets side by side come from
  :mod:`preferans.rules` (``PRESETS``, ``PRESET_DOCS``, :func:`option_docs`);
- the scoring examples are :data:`preferans.guide.examples.EXAMPLES`, which the
  tests score with the engine's sheet;
- the worked deal (§12) is ``worked_deal.json``, a game record replayed through
  :mod:`preferans.deal` and :mod:`preferans.sheet` to draw its hands, its
  tricks and its sheet.

>>> from preferans.guide import render_guide, worked_deal
>>> html = render_guide(standalone=True)
>>> html.startswith("<!DOCTYPE html>") and "A complete worked deal" in html
True
>>> worked_deal().tricks_won
[7, 3, 0]

``render_guide(lang="ru")`` is the Russian guide: its own text (``templates/guide.ru.html``,
written for Russian players, not translated line by line) around the same generated
tables, hands and tricks, their words taken from the gettext catalogue
(:mod:`preferans.i18n`).

>>> "Полный разбор одной раздачи" in render_guide(standalone=True, lang="ru")
True
"""

from __future__ import annotations

from fractions import Fraction
from importlib import resources
from typing import Any

from ..bids import Bid
from ..rules import PRESET_DOCS, PRESETS, Rules, option_docs, show_value
from ..server.lang.presets_text import plain_doc, preset_line, preset_title
from .examples import EXAMPLES, PLAYERS, by_section
from .worked import WorkedDeal, card_html, suit_rows, worked_deal, worked_deal_record

__all__ = ["GUIDE_LANGUAGES", "WorkedDeal", "render_guide", "worked_deal", "worked_deal_record"]

GUIDE_LANGUAGES = ("en", "ru")
"""The languages the guide is written in (``render_guide(lang=...)``)."""

# --- tables from the rules ------------------------------------------------------------------
def _show(value: Any) -> str:
    return show_value(value).replace("_", " ")


def contract_table(rules: Rules) -> list[dict[str, Any]]:
    """Per level: pool value, the defence's quota and a half-whister's credited tricks."""
    rows = []
    for level in (6, 7, 8, 9, 10):
        half = None
        if level in rules.half_whist_levels:
            half = rules.half_whist_tricks[level - 6]
        rows.append(
            {
                "level": level,
                "value": rules.contract_value(level),
                "quota": rules.quota(level) if rules.is_whisted(Bid(level, None)) else "—",
                "each": _each_quota(rules, level),
                "half": "—" if half is None else f"{half * rules.contract_value(level)} whists",
            }
        )
    return rows


def _each_quota(rules: Rules, level: int) -> str:
    quota = rules.quota(level)
    if quota >= 2:
        return f"{quota // 2} each"
    who = "second whister" if rules.responsible_at_8plus == "second" else "both share"
    return who


def presets_table(names: tuple[str, ...] = ("guide", "sochi", "leningrad", "rostov")) -> dict:
    """Options × presets, with the cells that differ from the guide's profile marked."""
    docs = option_docs()
    rows = []
    for name, doc in docs.items():
        values = [getattr(PRESETS[p], name) for p in names]
        rows.append(
            {
                "name": name,
                "doc": plain_doc(doc),
                "cells": [_show(v) for v in values],
                "differs": len({repr(v) for v in values}) > 1,
            }
        )

    return {"presets": [(preset_title(p), preset_line(p) or PRESET_DOCS.get(p, p)) for p in names],
            "rows": rows}


def _fmt(x: Fraction | int) -> str:
    x = Fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    return f"{float(x):.3f}"


# --- the page -------------------------------------------------------------------------------
def _template_text(name: str) -> str:
    return resources.files(__package__).joinpath("templates", name).read_text("utf-8")


def render_guide(standalone: bool = False, lang: str = "en", chosen: Rules | None = None) -> str:
    """The whole guide as one HTML page, in English or (``lang="ru"``) Russian.

    ``standalone=True`` gives a page that works offline as a single file: no links
    back into the web game (everything else, CSS and card diagrams included, is
    inline either way).  The web server serves ``render_guide()`` at ``/guide``
    (``/guide?lang=ru``: the Russian one).  An unknown language gets the English guide.
    The page opens with a line naming the profile it teaches and how the ``chosen`` rules
    (a table's: ``/guide?preset=leningrad&pool=10``; else the game's default, Sochi) differ
    from it (:mod:`.profile`).
    """
    import jinja2

    from .profile import profile

    if lang in GUIDE_LANGUAGES and lang != "en":
        return _render_local(standalone, lang, profile(chosen, lang))
    env = jinja2.Environment(autoescape=jinja2.select_autoescape(default=True))
    env.filters["card"] = lambda c: jinja2.filters.Markup(card_html(c))
    env.filters["fmt"] = _fmt
    template = env.from_string(_template_text("guide.html"))
    guide = Rules.preset("guide")
    wd = worked_deal()
    hands = [
        {"name": wd.players[seat], "seat": seat, "rows": suit_rows(hand)}
        for seat, hand in enumerate(wd.hands_after_discard)
    ]
    return template.render(
        standalone=standalone,
        css=_template_text("guide.css"),
        rules=guide,
        contracts=contract_table(guide),
        presets=presets_table(),
        examples=EXAMPLES,
        by_section=by_section,
        wd=wd,
        hands=hands,
        players=PLAYERS,
        profile=profile(chosen, "en"),
    )


def _render_local(standalone: bool, lang: str, profile: dict[str, Any]) -> str:
    import jinja2

    from .local import local_context

    env = jinja2.Environment(autoescape=jinja2.select_autoescape(default=True))
    env.filters["fmt"] = _fmt
    template = env.from_string(_template_text(f"guide.{lang}.html"))
    return template.render(standalone=standalone, css=_template_text("guide.css"),
                           profile=profile, **local_context(lang))
