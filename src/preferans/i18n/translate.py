"""The game in the reader's language: gettext catalogues, and the engine's words rendered in them.

The catalogues are standard gettext: ``locale/<lang>/LC_MESSAGES/preferans.po`` (sources,
Babel-compatible, Russian plural forms in the header), compiled to ``.mo`` by the build
(``make build``, ``setup.py build_py``; the ``.mo`` files are build outputs).  Where a
``.mo`` is missing or older than its ``.po`` (a fresh checkout run from source), the
``.po`` is compiled in memory, so the current source is always what is read.

**Message ids are keys, not English sentences.**  Every entry has a ``msgctxt`` naming its
family and a ``msgid`` that is a stable key; the English text lives in the ``en``
catalogue like any other language:

=============  =================================  ==========================================
``msgctxt``    ``msgid``                          ``msgstr``
=============  =================================  ==========================================
``reason``     a :mod:`preferans.i18n.reasons` code     the refusal, ``{param}`` fields
``option``     a :class:`~preferans.rules.Rules`   the option's description (house rules)
               option name
``preset``     a preset name                      its one-line description
``value``      ``option=value``                    an option's value in words
``rank``       ``A K Q J 10 9 8 7``               ``Т К Д В 10 9 8 7``
``suit``       ``S C D H``                         ``пики трефы бубны червы``
``suit-of``    ``S C D H NT``                      ``пик треф бубен червей``, ``без козыря``
``level``      ``6`` … ``10``                      ``шесть`` … ``десять``
``bid``        ``NT misere hand blind``            ``БК``, ``мизер``, …
``call``       an action word (``PASS`` …)         ``пас``, ``вист``, ``полвиста`` …
``name``       a player's name (``Misha``)         ``Миша``; ``name-of``: genitive forms
``term``       a game term key (``pool``)          ``пуля``, ``гора``, ``висты`` …
``count``      ``whist`` (plural ``whists``)       ``{n} вист / {n} виста / {n} вистов``
``example``    ``<key>.title`` / ``.explanation``  the rules guide's scoring examples
``guide``      a key of the guide's tables         the guide's generated cells
``rules-       a :mod:`preferans.i18n.rules_errors`     why the rules refuse an option, ``{param}``
error``        code                                fields (``rules-value``: a long value)
``note``       a :mod:`preferans.i18n.notes` code       a phrase of a deal's summary: ``{seat}``,
                                                   ``{seat:gen}``, ``{on:acc}``, a verb that
                                                   agrees ``{seat:v:записал/записала/записали}``,
                                                   ``{amount:whist}`` (a count)
``name-        a player's name                     ``m``, ``f`` or ``plural`` (``You``)
gender``
=============  =================================  ==========================================

>>> render_reason(Reason("must_follow", {"suit": Suit.SPADES}), "ru")
'нужно ходить в масть ♠'
>>> count("whist", 22, "ru"), count("whist", 25, "ru"), count("whist", 21, "ru")
('22 виста', '25 вистов', '21 вист')
>>> bid_text(Bid.parse("7NT"), "ru"), bid_words(Bid.parse("6S"), "ru")
('7 БК', 'шесть пик')
>>> choose_language(accept_language="ru-RU,ru;q=0.9,en;q=0.8")
'ru'
"""

from __future__ import annotations

import ast
import gettext as _gettext
import io
import re
import string
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from ..actions import Action, ActionKind
from ..bids import Bid
from ..cards import Card, Suit
from .address import GENDERS, guess
from .reasons import ENGLISH, Alternatives, Hand, Reason, english_value

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
    "choose_language",
    "count",
    "gettext",
    "ngettext",
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
    "translator",
    "value_text",
]

DOMAIN = "preferans"
LANGUAGES: tuple[str, ...] = ("ru", "en")
"""The languages the game speaks, as the ``?lang=`` parameter and the cookie write them."""
DEFAULT_LANGUAGE = "en"
COOKIE_NAME = "lang"
"""The cookie that remembers a player's choice of language."""
QUERY_PARAMETER = "lang"
"""``?lang=ru`` / ``?lang=en`` on any page."""
LOCALE_DIR = Path(__file__).parents[1] / "locale"


# --- catalogues -----------------------------------------------------------------------------
def normalize(lang: str | None) -> str:
    """A supported language for ``lang`` (``ru-RU`` → ``ru``), else the default."""
    if lang:
        primary = lang.strip().lower().replace("_", "-").split("-")[0]
        if primary in LANGUAGES:
            return primary
    return DEFAULT_LANGUAGE


def catalogue_path(lang: str, suffix: str = ".po") -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}{suffix}"


@cache
def translator(lang: str | None) -> _gettext.GNUTranslations:
    """The catalogue of ``lang`` (any supported tag; unsupported ones get the default)."""
    lang = normalize(lang)
    po, mo = catalogue_path(lang), catalogue_path(lang, ".mo")
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as fh:
            return _gettext.GNUTranslations(fh)
    return _gettext.GNUTranslations(io.BytesIO(compile_po(po)))


def compile_po(po: Path) -> bytes:
    """The ``.mo`` bytes of one ``.po`` file (Babel's reader and writer)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as fh:
        catalog = read_po(fh)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def gettext(message: str, lang: str | None) -> str:
    return translator(lang).gettext(message)


def ngettext(singular: str, plural: str, n: int, lang: str | None) -> str:
    return translator(lang).ngettext(singular, plural, n)


def pgettext(context: str, message: str, lang: str | None) -> str:
    return translator(lang).pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int, lang: str | None) -> str:
    return translator(lang).npgettext(context, singular, plural, n)


def count(key: str, n: int, lang: str | None) -> str:
    """``n`` of a thing with the plural form the language wants: ``5 вистов``.

    Keys: ``whist``, ``trick``, ``point``, ``deal``, ``game`` (``msgctxt "count"``).
    """
    return npgettext("count", key, key + "s", n, lang).format(n=n)


# --- cards, bids and calls ------------------------------------------------------------------
def card_text(card: Card, lang: str | None) -> str:
    """A card for people: ``Д♥`` in Russian, ``Q♥`` in English."""
    return pgettext("rank", card.rank.label, lang) + card.suit.symbol


def suit_name(suit: Suit, lang: str | None) -> str:
    """A suit's name: ``пики``, ``spades``."""
    return pgettext("suit", suit.letter, lang)


def bid_text(bid: Bid, lang: str | None) -> str:
    """A bid as players write it: ``6♠``, ``7 БК`` (``7NT``), ``мизер``."""
    if bid.misere:
        return pgettext("bid", "misere", lang)
    if bid.trump is None:
        nt = pgettext("bid", "NT", lang)
        return f"{bid.level} {nt}" if normalize(lang) == "ru" else f"{bid.level}{nt}"
    return f"{bid.level}{bid.trump.symbol}"


def bid_words(bid: Bid, lang: str | None) -> str:
    """A bid as players say it: ``шесть пик``, ``семь без козыря``, ``мизер``."""
    if bid.misere:
        return pgettext("bid", "misere", lang)
    trump = "NT" if bid.trump is None else bid.trump.letter
    return f"{pgettext('level', str(bid.level), lang)} {pgettext('suit-of', trump, lang)}"


def action_text(action: Action, lang: str | None) -> str:
    """A call or a card for people: ``пас``, ``вист``, ``7 БК``, ``мизер без прикупа``,
    ``Д♥``, ``снос 7♣ 8♦``."""
    kind = action.kind
    if action.hand and action.bid is not None:
        return pgettext("bid", "hand", lang).format(bid=bid_text(action.bid, lang))
    if action.blind:
        plain = Action(kind, bid=action.bid)
        return pgettext("bid", "blind", lang).format(call=action_text(plain, lang))
    if kind is ActionKind.PLAY:
        return card_text(action.cards[0], lang)
    if kind in (ActionKind.BID, ActionKind.CONTRACT) and action.bid is not None:
        return bid_text(action.bid, lang)
    if kind is ActionKind.TRICKS:
        return count("trick", action.level or 0, lang)
    if kind is ActionKind.DISCARD:
        cards = " ".join(card_text(c, lang) for c in action.cards)
        return pgettext("call", "DISCARD", lang).format(cards=cards)
    if kind is ActionKind.LOOK:
        return pgettext("call", "LOOK", lang).format(seat=action.seat)
    if kind is ActionKind.SECOND:
        return pgettext("call", "SECOND", lang).format(pool=action.level, after=action.after)
    return pgettext("call", kind.name, lang)


def player_name(name: str, lang: str | None) -> str:
    """A player's name in ``lang``: the computer players are Миша, Лена and Саша."""
    return pgettext("name", name, lang) if name else name


def player_gender(name: str, choice: str | None = None) -> str:
    """The form a seat's verbs take in Russian: ``"plural"`` for "You" («Вы сыграли»), else
    the form of address the player chose (``"m"``, ``"f"``), else the computer player's from
    the catalogue (``name-gender``), else his name's guess (:func:`.address.guess`).

    >>> player_gender("Вера"), player_gender("Вера", "m"), player_gender("You", "f")
    ('f', 'm', 'plural')
    >>> player_gender("Lena"), player_gender("Sasha"), player_gender("Anna")
    ('f', 'm', 'f')
    """
    if name == "You":
        return "plural"
    if choice in GENDERS:
        return choice
    said = pgettext("name-gender", name, "en")
    return said if said in GENDERS else guess(name)


def _genitive(name: str, lang: str | None, gender: str | None = None) -> str:
    """Russian genitive of a player's name for «у Миши», «у болвана», «у вас», «очередь
    Бориса» (``gender``: the player's form of address, None: his name's)."""
    special = pgettext("name-of", name, lang)
    if special != name:
        return special
    word = player_name(name, lang)
    if normalize(lang) != "ru" or not word:
        return word
    return declined(word, "gen", player_gender(name, gender))


_CYRILLIC_WORD = re.compile(r"[А-ЯЁ][а-яё]+")
_FLEETING = {"лев": "льв", "павел": "павл", "пётр": "петр", "петр": "петр"}
"""Men's names whose stem drops a vowel in the other cases: Лев → Льва, Павел → Павла."""


def declined(word: str, case: str, gender: str = "m") -> str:
    """A Russian name in a case (``gen``, ``dat``, ``acc``) as a player says it: a name in
    -а/-я like Миша or Вера (Миши, Мише, Мишу; Марии), a man's name ending in a consonant,
    -й or -ь (Бориса, Борису; Андрея; Игоря; Льва), a woman's in -ь (Любови); any other
    (Latin letters, Ким for a woman, Пьеро, several words but the -а/-я of the last) as it
    is written.

    >>> [declined(w, c) for w, c in [("Борис", "gen"), ("Андрей", "dat"), ("Лев", "acc")]]
    ['Бориса', 'Андрею', 'Льва']
    >>> declined("Мария", "dat", "f"), declined("Любовь", "gen", "f"), declined("Boris", "gen")
    ('Марии', 'Любови', 'Boris')
    """
    if case not in ("gen", "dat", "acc"):
        return word
    if word.endswith(("а", "я")):
        stem, last = word[:-1], word[-1]
        if case == "gen":
            return stem + ("и" if last == "я" or stem[-1:] in "гкхжчшщ" else "ы")
        if case == "dat":
            return stem + ("и" if word.endswith("ия") else "е")
        return stem + ("у" if last == "а" else "ю")
    if not _CYRILLIC_WORD.fullmatch(word):
        return word
    lower = word.lower()
    if gender == "f":
        if lower.endswith("ь") and case in ("gen", "dat"):
            return word[:-1] + "и"
        return word
    if lower[-1] in "йь":
        return word[:-1] + {"gen": "я", "acc": "я", "dat": "ю"}[case]
    if lower[-1] in "бвгджзклмнпрстфхцчшщ":
        stem = _FLEETING.get(lower)
        stem = word[0] + stem[1:] if stem else word
        return stem + {"gen": "а", "acc": "а", "dat": "у"}[case]
    return word


def _value(value: Any, lang: str) -> str:
    if isinstance(value, Suit):
        return value.symbol
    if isinstance(value, Card):
        return card_text(value, lang)
    if isinstance(value, Bid):
        return bid_text(value, lang)
    if isinstance(value, Action):
        return action_text(value, lang)
    if isinstance(value, Hand):
        if value.dummy and not value.name:
            return _genitive("Dummy", lang)
        if value.name:
            return _genitive(value.name, lang)
        return pgettext("name-of", "seat", lang).format(seat=value.seat)
    if isinstance(value, Alternatives):
        return f" {pgettext('term', 'or', lang)} ".join(_value(a, lang) for a in value.actions)
    if isinstance(value, tuple | list):
        sep = " " if value and all(isinstance(v, Card) for v in value) else ", "
        return sep.join(_value(v, lang) for v in value)
    return str(value)


def render_reason(reason: Reason, lang: str | None) -> str:
    """A refusal in ``lang``.  English is ``str(reason)`` exactly: the record tokens
    (``QH``, ``6NT``, ``WHIST``); other languages write cards, bids and calls as their
    players do."""
    lang = normalize(lang)
    if lang == "en":
        template = pgettext("reason", reason.code, lang)
        if template == reason.code:
            template = ENGLISH[reason.code]
        return template.format_map({k: english_value(v) for k, v in reason.params.items()})
    template = pgettext("reason", reason.code, lang)
    if template == reason.code:  # not translated: the English text, never the bare key
        return str(reason)
    return template.format_map({k: _value(v, lang) for k, v in reason.params.items()})


# --- the rules' refusals -------------------------------------------------------------------
_SHOWN = (  # what preferans.option_bounds.show writes for a value too long to repeat
    (re.compile(r"\(a number of (?:about )?(\d+) digits\)"), "digits"),
    (re.compile(r"\(a list of (\d+) entries\)"), "entries"),
    (re.compile(r"\(an object of (\d+) keys\)"), "keys"),
)


def _shown(text: str, lang: str) -> str:
    """A value as :func:`~preferans.option_bounds.show` wrote it, its words in ``lang``:
    ``(a number of 4001 digits)`` → ``(число из 4001 цифры)``."""
    for pattern, key in _SHOWN:
        text = pattern.sub(lambda m, key=key: npgettext(
            "rules-value", key, key + ".plural", int(m.group(1)), lang).format(n=m.group(1)), text)
    return text


def _choice(option: str, shown: str, lang: str) -> str:
    """One choice as its repr (``'greedy'``) said in words (``жлобский``), where it has them."""
    try:
        value = ast.literal_eval(shown)
    except (ValueError, SyntaxError):
        return shown
    text = value_text(option, value, lang)
    return text if isinstance(value, str) and text != value.replace("_", " ") else shown


def _rules_param(name: str, value: Any, params: dict[str, Any], lang: str) -> str:
    if name.startswith("option") and isinstance(value, str):
        return "«" + pgettext("option-title", value, lang) + "»"
    if name == "preset" and isinstance(value, str):
        title = pgettext("preset-title", value, lang)
        return "«" + title + "»" if title != value else value
    if name == "value" and isinstance(value, str) and value[:1] == "'":
        for owner in (params.get("option"), params.get("option2")):
            if isinstance(owner, str) and (said := _choice(owner, value, lang)) != value:
                return f"«{said}»"
    if name == "choices" and isinstance(params.get("option"), str):
        return ", ".join(_choice(params["option"], c, lang) for c in str(value).split(", "))
    if name == "doc" and isinstance(params.get("preset"), str):
        line = pgettext("preset-line", params["preset"], lang)
        return line.rstrip(".") if line != params["preset"] else str(value)
    return _shown(str(value), lang) if isinstance(value, str) else str(value)


def render_rules_error(error: Any, lang: str | None) -> str:
    """A :class:`~preferans.rules.RulesError` (``code`` and ``params``) in ``lang``
    (``msgctxt "rules-error"``).  English is ``str(error)``, less the rules texts' file
    numbers; another language names each option as the house-rules editor titles it.

    >>> from preferans.rules import RulesError
    >>> render_rules_error(RulesError("opt_range", option="pool", value="5000", low=1,
    ...                               high=1000), "ru")
    '«Пуля» = 5000: вне допустимых пределов, можно от 1 до 1000'
    """
    from .rules_errors import player_english

    code = getattr(error, "code", None)
    params = dict(getattr(error, "params", None) or {})
    if code is None:  # a plain message from elsewhere: as it is
        return str(error)
    lang = normalize(lang)
    template = pgettext("rules-error", code, lang)
    if template == code:  # not in this catalogue: the English
        template = pgettext("rules-error", code, "en")
        if template == code:
            template = player_english(code)
        lang = "en"
    if lang == "en":
        return player_text(template.format_map(params))
    return template.format_map({k: _rules_param(k, v, params, lang) for k, v in params.items()})


# --- the rules' options ---------------------------------------------------------------------
_SOURCE_NOTE = re.compile(r"what 00[0-3] says some allow; | \(00[0-3](?: §\d+)?\)")


def player_text(doc: str) -> str:
    """A developer's description made fit for players: the source-text numbers
    (``(003)``, ``(001 §03)``) that the code's docs cite are taken out."""
    return _SOURCE_NOTE.sub("", doc)


def option_description(name: str, lang: str | None) -> str:
    """The description of a :class:`~preferans.rules.Rules` option in ``lang``."""
    text = pgettext("option", name, lang)
    if text != name:
        return text
    from ..rules import option_docs

    return player_text(option_docs()[name])


def preset_description(name: str, lang: str | None) -> str:
    """A preset's one-line description in ``lang``."""
    text = pgettext("preset", name, lang)
    return name if text == name else text


def value_text(option: str, value: Any, lang: str | None) -> str:
    """An option's value in words: ``да``/``нет``, ``1–2–3``, ``жлобский``."""
    if isinstance(value, bool):
        return pgettext("value", "yes" if value else "no", lang)
    if isinstance(value, tuple):
        return "–".join(str(v) for v in value)
    if value is None:
        return "—"
    if isinstance(value, str):
        key = f"{option}={value}"
        text = pgettext("value", key, lang)
        return value.replace("_", " ") if text == key else text
    return str(value)


# --- choosing the language ------------------------------------------------------------------
def parse_accept_language(header: str | None) -> list[tuple[str, float]]:
    """The tags of an ``Accept-Language`` header with their q-values, best first
    (ties keep the header's order; ``q=0`` and malformed entries are dropped).

    >>> parse_accept_language("en-GB;q=0.8, ru, *;q=0.1")
    [('ru', 1.0), ('en-gb', 0.8), ('*', 0.1)]
    """
    out: list[tuple[int, str, float]] = []
    for i, part in enumerate((header or "").split(",")):
        tag, *params = (p.strip() for p in part.split(";"))
        if not tag or not re.fullmatch(r"[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*|\*", tag):
            continue
        q = 1.0
        for p in params:
            if p.lower().startswith("q="):
                try:
                    q = float(p[2:])
                except ValueError:
                    q = -1.0
        if 0 < q <= 1:
            out.append((i, tag.lower(), q))
    out.sort(key=lambda t: (-t[2], t[0]))
    return [(tag, q) for _, tag, q in out]


def choose_language(
    query: str | None = None, cookie: str | None = None, accept_language: str | None = None
) -> str:
    """The page's language: ``?lang=`` first, then the cookie, then the browser's
    ``Accept-Language`` (its best supported tag), else English."""
    for explicit in (query, cookie):
        primary = (explicit or "").strip().lower().split("-")[0]
        if primary in LANGUAGES:
            return primary
    for tag, _ in parse_accept_language(accept_language):
        primary = tag.split("-")[0]
        if primary in LANGUAGES:
            return primary
    return DEFAULT_LANGUAGE



# --- the sheet's deal notes ------------------------------------------------------------------
_VERB_FORMS = {"m": 0, "f": 1, "plural": 2}


class _Seats:
    """A note's seat (or seats) as the Russian template declines it: ``{on:acc}`` → «вас»,
    ``{seat:gen}`` → «Миши» (after «у»: «у вас»), ``{other:dat}`` → «Мише», ``{seat:v:записал/
    записала/записали}`` → the verb that agrees.  «Вы» is capitalised only where it opens the
    phrase (``first``), as in running text."""

    def __init__(self, names: list[str], lang: str, first: bool = False,
                 genders: list[str | None] | None = None) -> None:
        self.names = names
        self.lang = lang
        self.first = first
        self.genders = genders or [None] * len(names)

    def _case(self, name: str, case: str, k: int = 0) -> str:
        word = player_name(name, self.lang)
        if self.lang != "ru":
            return word
        if name == "You":
            word = {"gen": "вас", "acc": "вас", "dat": "вам"}.get(case, "вы")
            return word.capitalize() if self.first and k == 0 else word
        if case == "nom":
            return word
        if case == "gen":
            return _genitive(name, self.lang, self.genders[k])
        return declined(word, case, player_gender(name, self.genders[k]))

    def text(self, case: str) -> str:
        words = [self._case(n, case, k) for k, n in enumerate(self.names)]
        if len(words) == 1:
            return words[0]
        return f"{', '.join(words[:-1])} {pgettext('term', 'and', self.lang)} {words[-1]}"

    def gender(self) -> str:
        """``m``, ``f`` or ``plural``: a list of seats and «Вы» take the plural, a player
        the form of address he chose (the seat's ``genders``), else his name's
        (:func:`player_gender`)."""
        if len(self.names) != 1:
            return "plural"
        return player_gender(self.names[0], self.genders[0])


def _number(text: str, lang: str) -> str:
    return text.replace(".", ",") if lang == "ru" else text


class _NoteFormatter(string.Formatter):
    def __init__(self, lang: str) -> None:
        self.lang = lang

    def format_field(self, value: Any, spec: str) -> str:
        if isinstance(value, _Seats):
            if spec.startswith("v:"):
                return spec[2:].split("/")[_VERB_FORMS[value.gender()]]
            return value.text(spec or "nom")
        if spec in ("whist", "trick", "point"):
            if isinstance(value, int):
                return count(spec, value, self.lang)
            few = npgettext("count", spec, spec + "s", 2, self.lang)
            return few.format(n=_number(str(value), self.lang))
        return _number(str(value), self.lang) if isinstance(value, str) else str(value)


def render_note(note: dict[str, Any], names: list[str] | tuple[str, ...],
                lang: str | None, genders: Sequence[str | None] | None = None) -> str:
    """One note of a deal (as the sheet's JSON gives it: ``code`` and ``params``) in
    ``lang`` (``msgctxt "note"``), the seats as the players' names in that language, each
    verb in the form of address of its seat (``genders``: ``"m"``, ``"f"`` or None for the
    name's own, :func:`player_gender`).

    >>> render_note({"code": "misere_failed", "params": {"declarer": 1, "taken": 2,
    ...              "cost": 20}}, ["You", "Вера", "Lena"], "ru", [None, "f", None])
    'Вера поймалась на мизере: 2 взятки (+20 в гору)'

    >>> render_note({"code": "wrote_whists", "params": {"writer": 1, "amount": 60, "on": 0}},
    ...             ["You", "Misha", "Lena"], "ru")
    'Миша записал 60 вистов на вас'
    >>> render_note({"code": "closed_pool", "params": {"seat": 2, "points": 4, "other": 0,
    ...              "amount": 40}}, ["You", "Misha", "Lena"], "en")
    'Lena closed 4 of your pool (40 whists on you)'
    """
    from .notes import ENGLISH, SEAT_LIST_PARAMS, SEAT_PARAMS, english, opening_field

    code = note.get("code")
    params = note.get("params") or {}
    if code not in ENGLISH:
        return str(note.get("text", ""))
    lang = normalize(lang)
    template = pgettext("note", code, lang)
    if lang == "en" or template == code:
        return english(template if lang == "en" and template != code else ENGLISH[code],
                       params, [player_name(n, "en") for n in names])
    chosen = list(genders or []) + [None] * (len(names) - len(genders or []))

    def values(first: bool) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in params.items():
            if key in SEAT_PARAMS:
                out[key] = _Seats([names[value]], lang, first, [chosen[value]])
            elif key in SEAT_LIST_PARAMS:
                out[key] = _Seats([names[v] for v in value], lang, first,
                                  [chosen[v] for v in value])
            else:
                out[key] = value
        return out

    formatter = _NoteFormatter(lang)
    head, rest = opening_field(template)
    return (formatter.vformat(head, (), values(True))
            + formatter.vformat(rest, (), values(False)))


def render_notes(notes: list[dict[str, Any]], names: list[str] | tuple[str, ...],
                 lang: str | None, genders: Sequence[str | None] | None = None) -> str:
    """A deal's summary line in ``lang``: its notes rendered and joined by ``; ``."""
    return "; ".join(render_note(n, names, lang, genders) for n in notes)
