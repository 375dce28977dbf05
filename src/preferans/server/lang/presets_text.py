"""How the rule sets read for a player: a title and one plain line each.

The engine's :data:`~preferans.rules.PRESET_DOCS` name each preset by the source text it
comes from (for us); the pages a player reads use these words instead: no file numbers,
no internal names.

>>> preset_title("code1996"), preset_line("sochi")[:20]
('1996 Code', 'The usual modern gam')
"""

from __future__ import annotations

import re
from typing import Final

PRESET_TEXT: Final[dict[str, tuple[str, str]]] = {
    "sochi": (
        "Sochi",
        "The usual modern game: a lone whister takes all the whists; all-pass stakes rise"
        " 1, 2, 3.",
    ),
    "leningrad": (
        "Leningrad",
        "Mountain and whists written doubled, defenders share the whists of a failed "
        "contract; all-pass 1, 2, 4.",
    ),
    "rostov": (
        "Rostov",
        "The talon stays closed in an all-pass, whose tricks cost whists instead of "
        "mountain.",
    ),
    "guide": (
        "Our guide's Sochi",
        "Sochi exactly as our printable rules guide describes it, with its house "
        "agreements.",
    ),
    "sochi-000": (
        "Sochi, flat all-pass",
        "Sochi without rising all-pass stakes: every all-pass costs the same.",
    ),
    "piter": (
        "St Petersburg",
        "All-pass stakes rise 2, 4, 6, and the bidding after an all-pass starts at 6, 7, "
        "7.",
    ),
    "piter-hard": (
        "Hard St Petersburg",
        "St Petersburg with a steeper way out of an all-pass: 6, 7, 8, 8.",
    ),
    "moscow": (
        "Moscow",
        "Prizes for talon cards and ten whists for each trick a declarer falls short.",
    ),
    "kazakhstan": (
        "Kazakhstan",
        "Big numbers: contracts worth 8 to 40 points and a pulya of 120.",
    ),
    "finn": (
        "Finn's",
        "A pulya of 40 with 20 already on each mountain, and large closing bonuses.",
    ),
    "vmk": (
        "Seleznevka",
        "A student's game: resigning allowed, both must whist 6♠, tens checked, a choice "
        "where surplus points go.",
    ),
    "code1996": (
        "1996 Code",
        "The tournament recommendations of the 1996 Preferans Code.",
    ),
    "two-player": (
        "Two players",
        "You and one opponent, with a dummy hand dealt on the dealer's left.",
    ),
    "rogue-small": (
        "Rogue, short list",
        "Two players and a dummy; each must play through a list of 10 named games.",
    ),
    "rogue-large": (
        "Rogue, long list",
        "The Rogue with a list of 14 games to play through.",
    ),
    "rogue-xl": (
        "Rogue, full list",
        "The Rogue with the full list of 30 games.",
    ),
    "racing-22": (
        "Racing to 22",
        "St Petersburg played in four rounds of 22 points, with bonuses of 300 and 200.",
    ),
    "racing-17": (
        "Racing to 17",
        "St Petersburg played in four rounds of 17 points.",
    ),
    "classical-1971": (
        "Classical 1971",
        "A first half of Rogue games, a half-time after an all-pass, then a free second "
        "half.",
    ),
}


def preset_title(name: str) -> str:
    """The rule set's name as a player reads it (``piter-hard`` -> ``Hard St Petersburg``)."""
    if name in PRESET_TEXT:
        return PRESET_TEXT[name][0]
    return name[:1].upper() + name[1:].replace("-", " ")


def preset_line(name: str) -> str:
    """One plain line on what the rule set changes, or an empty string."""
    return PRESET_TEXT[name][1] if name in PRESET_TEXT else ""


def preset_title_in(name: str, lang: str | None) -> str:
    """The rule set's name in ``lang`` (``msgctxt "preset-title"``; English: :func:`preset_title`).

    >>> preset_title_in("piter-hard", "ru")
    'Жёсткий Питер'
    """
    from ... import i18n

    text = i18n.pgettext("preset-title", name, lang)
    return preset_title(name) if text == name else text


def preset_line_in(name: str, lang: str | None) -> str:
    """:func:`preset_line` in ``lang`` (``msgctxt "preset-line"``)."""
    from ... import i18n

    text = i18n.pgettext("preset-line", name, lang)
    return preset_line(name) if text == name else text


_SOURCE_REF = re.compile(r"\s*\((?:text\s+)?00[0-3](?:\s*§\s*\d+)?\)")


def plain_doc(text: str) -> str:
    """An option's explanation without the source-text numbers we cite for ourselves.

    >>> plain_doc("every bid higher than the last (003); or DECLINE (what 000 says some allow)")
    'every bid higher than the last; or DECLINE (what some tables allow)'
    """
    text = _SOURCE_REF.sub("", text)
    text = re.sub(r"\bwhat 00[0-3] says\b", "what", text)
    text = text.replace("(what some allow", "(what some tables allow")
    text = re.sub(r"\b00[0-3]\b", "the old rules", text)
    return spaced(text)


def spaced(text: str) -> str:
    """Option and value names written as words: ``allpass_progression`` -> ``allpass progression``.

    >>> spaced("see whist_quota and mountain_then_opponents")
    'see whist quota and mountain then opponents'
    """
    return re.sub(r"\b[a-z]+(?:_[a-z0-9]+)+\b", lambda m: m.group(0).replace("_", " "), text)
