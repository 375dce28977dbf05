"""The language of a page, a JSON answer or a table's socket, and the server's words in it.

The language is chosen per request (:func:`request_language`): ``?lang=ru`` / ``?lang=en``
first (a page answering it remembers the choice in the ``lang`` cookie), then the cookie,
then the browser's ``Accept-Language``, else English (:func:`preferans.i18n.choose_language`).
A table's WebSocket speaks the page's language: the table page names it in the socket's
address (``/ws/<game>?lang=ru``, checked against the languages the game speaks like any
``?lang=``), so the handshake's own ``Accept-Language`` (headless browsers send ``en-US``)
cannot make a Russian page's socket English; without it, the cookie or ``Accept-Language`` of
the upgrade decide.  The choice is kept on the socket (:func:`set_socket_language`).

The pages' and the server messages' words are ``msgctxt "page"`` entries of the catalogues,
keyed (``settings.play``, ``error.not_yours``); :func:`say` reads one, fills its
``{fields}``.  Every page's template gets :func:`page_context`: ``lang``, ``_`` (say in the
page's language), ``switch`` (the RU / EN links that keep the current page) and
``guide_url``.

A message made before its reader is known (a table's error, sent to each socket in the
socket's own language) is a :class:`Said` (a ``str``: its English) or a :class:`Refusal`
(an engine :class:`~preferans.i18n.reasons.Reason`); :func:`localize` renders them for a socket.

>>> say("error.no_game", "ru", game="abc")
'Игры «abc» нет: возможно, её удалили.'
>>> localize({"message": Said("error.server_error")}, "ru")["message"][:6]
'Сервер'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urlencode

from starlette.requests import HTTPConnection
from starlette.responses import Response

from ... import i18n
from ...i18n.reasons import Reason
from ...i18n.translate import _genitive

PAGE = "page"
"""The catalogue family of the pages' and the server's words."""
LANGUAGE_NAMES = {"ru": "Русский", "en": "English"}
COOKIE_DAYS = 400


def request_language(conn: HTTPConnection) -> str:
    """The language of a request or a WebSocket: ``?lang=``, the cookie, ``Accept-Language``."""
    return i18n.choose_language(conn.query_params.get(i18n.QUERY_PARAMETER),
                                conn.cookies.get(i18n.COOKIE_NAME),
                                conn.headers.get("accept-language"))


def asked_language(conn: HTTPConnection) -> str | None:
    """The language ``?lang=`` asks for, when it names one the game speaks."""
    asked = (conn.query_params.get(i18n.QUERY_PARAMETER) or "").strip().lower()
    return asked if asked in i18n.LANGUAGES else None


def remember_language(conn: HTTPConnection, response: Response) -> Response:
    """Keep a ``?lang=`` choice in the cookie (a plain preference: readable, lax)."""
    asked = asked_language(conn)
    if asked is not None and conn.cookies.get(i18n.COOKIE_NAME) != asked:
        response.set_cookie(i18n.COOKIE_NAME, asked, max_age=COOKIE_DAYS * 86400, path="/",
                            samesite="lax", secure=conn.url.scheme == "https")
    return response


def say(key: str, lang: str | None, **fields: Any) -> str:
    """The server's words ``key`` in ``lang`` (English where a language lacks them; the key
    itself only for a key no catalogue has: ``tests/test_i18n.py`` keeps that from
    happening)."""
    text = i18n.pgettext(PAGE, key, lang)
    if text == key and i18n.normalize(lang) != "en":
        text = i18n.pgettext(PAGE, key, "en")
    return text.format_map(fields) if fields else text


def switch_links(conn: HTTPConnection, lang: str) -> list[dict[str, Any]]:
    """The RU / EN links: the current page (its path and other parameters kept) in each
    language."""
    params = [(k, v) for k, v in conn.query_params.multi_items() if k != i18n.QUERY_PARAMETER]
    out = []
    for code in ("ru", "en"):
        query = urlencode([*params, (i18n.QUERY_PARAMETER, code)])
        out.append({"code": code, "label": code.upper(), "name": LANGUAGE_NAMES[code],
                    "href": f"{conn.url.path}?{query}", "current": code == lang})
    return out


def page_context(conn: HTTPConnection) -> dict[str, Any]:
    """What every page's template gets: its language and the words in it."""
    lang = request_language(conn)

    def _(key: str, **fields: Any) -> str:
        return say(key, lang, **fields)

    def count(key: str, n: float) -> str:
        return count_text(key, n, lang)

    return {"lang": lang, "_": _, "count": count, "switch": switch_links(conn, lang),
            "guide_url": f"/guide?{i18n.QUERY_PARAMETER}={lang}"}


def count_text(key: str, n: float, lang: str | None) -> str:
    """:func:`preferans.i18n.count` for a count that may be a fraction (``12.5 виста``: a
    fraction takes the form of 2).

    >>> count_text("whist", 12.5, "ru"), count_text("whist", 5.0, "ru")
    ('12.5 виста', '5 вистов')
    """
    if isinstance(n, float) and n.is_integer():
        n = int(n)
    if isinstance(n, int):
        return i18n.count(key, n, lang)
    return i18n.npgettext("count", key, key + "s", 2, lang).format(n=n)


# --- the database's troubles ----------------------------------------------------------------
STORE_PROBLEMS = {
    "is read-only": "store.read_only",
    "is on a full disk": "store.full_disk",
    "is damaged": "store.damaged",
    "is damaged (its games table is missing or not this program's)": "store.no_table",
    "is locked by another program": "store.locked",
    "cannot be opened": "store.cannot_open",
    "failed": "store.failed",
    "no longer holds this game": "store.lost_game",
}
"""The database's problems (:func:`preferans.server.store.faults.describe_fault`) by key."""
_DAMAGE = (
    (re.compile(r"^its record does not replay \((?P<detail>.*?)\)?$", re.S), "damaged.no_replay"),
    (re.compile(r"^its (?P<what>\w+) is empty$"), "damaged.empty"),
    (re.compile(r"^its (?P<what>\w+) is not valid JSON \((?P<detail>.*?)\)?$", re.S),
     "damaged.not_json"),
    (re.compile(r"^its (?P<what>\w+) is not a JSON (?:object|list)$"), "damaged.not_shaped"),
)


def store_message(exc: Any, lang: str | None) -> str:
    """What a player is told of a :class:`~preferans.server.store.faults.StoreError`, in ``lang``:
    what failed (``the server's database is read-only``), never where it is (a file's path,
    a host) nor the database's own words (SQL, internal names): the operator's log has
    those (:meth:`..store.games.GameStore.guard`).

    >>> class Fault:
    ...     location, problem, detail = "/srv/x.db", "is read-only", "attempt to write"
    >>> store_message(Fault(), "en"), store_message(Fault(), "ru")
    ("the server's database is read-only", 'база данных сервера доступна только для чтения')
    """
    key = STORE_PROBLEMS.get(exc.problem, "store.failed")
    return say("store.message", lang, problem=say(key, lang))


def damage_text(problem: str, lang: str | None) -> str:
    """Why a saved game is damaged, in ``lang`` (the technical detail as it is).

    >>> damage_text("its record is not valid JSON (Expecting value)", "ru")
    'запись партии — не JSON (Expecting value)'
    """
    if i18n.normalize(lang) == "en":
        return problem
    parts = [p.strip() for p in re.split(r";\s*(?=its )", problem)]
    out = []
    for part in parts:
        for pattern, key in _DAMAGE:
            match = pattern.match(part)
            if match:
                fields = match.groupdict()
                if "what" in fields:
                    fields["what"] = say(f"damaged.{fields['what']}", lang)
                out.append(say(key, lang, **fields))
                break
        else:
            out.append(part)
    return "; ".join(out)


PHASE_VERBS = {
    "AUCTION": "bid",
    "DISCARD": "discard",
    "CONTRACT": "name the contract",
    "DEFENCE": "whist or pass",
    "DEFENCE_MODE": "choose open or closed",
    "DEALER": "look at a defender's hand and whist or pass",
    "NAME": "name the game",
    "EXCHANGE": "exchange two cards with the talon",
    "PLAY": "play a card",
}
"""The verb of each phase in "waiting for X to ...": the key ``verb.PHASE`` says it."""


def dynamic_keys() -> set[str]:
    """The ``page`` keys the templates and the server build from a value (the difficulties,
    the pulya lengths, the phases' verbs): the catalogue must hold each."""
    from ..store.stats import DIFFICULTIES

    keys = {f"difficulty.{d}{note}" for d in DIFFICULTIES for note in ("", ".note")}
    keys |= {f"settings.pool{n}" for n in (10, 20, 30)}
    keys |= {f"verb.{phase}" for phase in PHASE_VERBS} | {"verb.act"}
    keys |= set(STORE_PROBLEMS.values())
    keys |= {f"damaged.{column}" for column in ("record", "names", "rules", "seats", "summary",
                                                 "result")}
    return keys | set(SETTINGS_SCRIPT_KEYS)


# --- messages rendered for their reader -----------------------------------------------------
class Localized(str):
    """A text for a reader not known yet: ``str`` is its English, :meth:`render` says it in
    another language."""

    def render(self, lang: str) -> str:
        return str(self)


class Said(Localized):
    """Server words whose reader is not known yet: the English text, with the key and the
    fields to say it again in the reader's language."""

    key: str
    fields: Mapping[str, Any]

    def __new__(cls, key: str, **fields: Any) -> Said:
        text = super().__new__(cls, say(key, "en", **fields))
        text.key = key
        text.fields = fields
        return text

    def render(self, lang: str) -> str:
        fields = {k: v.render(lang) if isinstance(v, Localized) else v
                  for k, v in self.fields.items()}
        return say(self.key, lang, **fields)


class Name(Localized):
    """A player's name: the computer players are Миша, Лена and Саша in Russian."""

    def render(self, lang: str) -> str:
        return i18n.player_name(str(self), lang)


class Token(Localized):
    """An action's record token (``QH``, ``WHIST``, ``7NT``) written as the reader's players
    write it: ``Д♥``, ``вист``, ``7 БК``.

    >>> Token("QH").render("ru"), Token("WHIST").render("ru"), Token("XYZ").render("ru")
    ('Д♥', 'вист', 'XYZ')
    """

    def render(self, lang: str) -> str:
        from ...actions import Action

        try:
            return i18n.action_text(Action.parse(str(self)), lang)
        except ValueError:
            return str(self)


class NameOf(Localized):
    """A player's name in the genitive where the language wants it: «очередь Миши»."""

    def render(self, lang: str) -> str:
        return _genitive(str(self), lang)


class Refusal(Localized):
    """An engine refusal whose reader is not known yet: its English text (as
    ``str(reason)``), rendered again with :func:`preferans.i18n.render_reason`."""

    reason: Reason

    def __new__(cls, reason: Reason) -> Refusal:
        text = super().__new__(cls, str(reason).rstrip("."))
        text.reason = reason
        return text

    def render(self, lang: str) -> str:
        return i18n.render_reason(self.reason, lang).rstrip(".")


class Rendered(Localized):
    """English text with the function that writes it in another language."""

    _render: Callable[[str], str]

    def __new__(cls, english: str, render: Callable[[str], str]) -> Rendered:
        text = super().__new__(cls, english)
        text._render = render
        return text

    def render(self, lang: str) -> str:
        return self._render(lang)


class HouseRules(list[dict[str, Any]]):
    """The state's ``house_rules`` (name, value, preset_value, doc): each option's ``doc``
    and ``title`` said again in the reader's language."""

    def render(self, lang: str) -> list[dict[str, Any]]:
        from .house_rules import option_title

        return [{**h, "doc": i18n.option_description(h["name"], lang),
                 "title": option_title(h["name"], lang)} for h in self]


class Lines(list[str]):
    """English lines with the function that writes them in another language (the state's
    ``rules_brief``)."""

    def __init__(self, english: list[str], render: Callable[[str], list[str]]) -> None:
        super().__init__(english)
        self._render = render

    def render(self, lang: str) -> list[str]:
        return self._render(lang)


class Reasons(dict[str, str]):
    """The state's ``why_not``: card token -> the English refusal, each rendered again for
    its reader."""

    def render(self, lang: str) -> dict[str, str]:
        return {k: v.render(lang) if isinstance(v, Localized) else v for k, v in self.items()}


def localize(payload: dict[str, Any], lang: str | None) -> dict[str, Any]:
    """A message for one socket: its :class:`Localized` and :class:`Reasons` values
    rendered in ``lang`` (English: the payload itself, untouched)."""
    lang = i18n.normalize(lang)
    kinds = Localized | Reasons | HouseRules | Lines
    if lang == "en" or not any(isinstance(v, kinds) for v in payload.values()):
        return payload
    return {k: v.render(lang) if isinstance(v, kinds) else v for k, v in payload.items()}


SOCKET_LANGUAGE = "lang"


def set_socket_language(socket: HTTPConnection) -> str:
    """Note a WebSocket's language on it (chosen at connect time) and return it."""
    lang = request_language(socket)
    socket.state.lang = lang
    return lang


def socket_language(socket: Any) -> str:
    """The language a socket was opened in (English for one nobody noted)."""
    state = getattr(socket, "state", None)
    return getattr(state, SOCKET_LANGUAGE, None) or i18n.DEFAULT_LANGUAGE


# --- the settings page's script -------------------------------------------------------------
SETTINGS_SCRIPT_KEYS = (
    "js.empty", "js.yes", "js.no", "js.numbers_like", "js.n_numbers", "js.each_number",
    "js.whole", "js.whole_range", "js.range", "js.fixed", "js.house_title", "js.invalid",
    "js.could_not", "js.server_answered",
)


def settings_strings(lang: str) -> dict[str, Any]:
    """The words the settings page's script writes (``js.*``), and the plural forms of the
    house-rules count by ``Intl.PluralRules`` category (``one``, ``few``, ``many``, ``other``).
    """
    out: dict[str, Any] = {key: say(key, lang) for key in SETTINGS_SCRIPT_KEYS}

    def count(n: int) -> str:
        return i18n.npgettext(PAGE, "js.count", "js.counts", n, lang)

    out["js.count"] = {"one": count(1), "few": count(2), "many": count(5), "other": count(5)}
    return out
