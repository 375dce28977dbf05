"""The rules a web game is played under: every preset, three or four players, house rules.

The settings page offers every preset of :mod:`preferans.rules` (the three of the game's
own description, text 003, first; then the other conventions, text 000 and the guide's
profile) and a house-rules editor that starts from the chosen preset and lists each
option with its one-line explanation (:func:`editor_schema`).  ``POST /api/games`` sends
the choice back as a preset name or ``{"preset": name, option: value, ...}``;
:func:`rules_from_settings` turns it into a :class:`~preferans.rules.Rules` through
:meth:`Rules.from_json <preferans.rules.Rules.from_json>`, so a bad option gets the
engine's own clear message.  :func:`house_rules` lists the options changed from the preset
(the sheet's circle shows them).

>>> rules = rules_from_settings({"preset": "sochi", "stalingrad": True}, players=4, pool=10)
>>> rules.name, rules.players, rules.pool, rules.stalingrad
('sochi', 4, 10, True)
>>> [(h["name"], h["value"], h["preset_value"]) for h in house_rules(rules)]
[('stalingrad', True, False)]
>>> rules_title(rules)
'Sochi'
>>> rules_from_settings({"preset": "sochi", "stalingrad": "yes"})
Traceback (most recent call last):
...
preferans.rules.RulesError: option stalingrad='yes' must be true or false
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Final

from ... import i18n
from ...option_bounds import show
from ...rules import PRESET_DOCS, PRESETS, VARIANT_DOCS, VARIANTS, Rules, RulesError, options_schema
from .presets_text import plain_doc, preset_line, preset_line_in, preset_title, preset_title_in

MAIN_PRESETS: Final = ("sochi", "leningrad", "rostov")
"""The presets of the game's own description (003), offered first."""
MORE_PRESETS: Final = tuple(name for name in PRESETS if name not in MAIN_PRESETS)
"""Every other preset: the conventions of text 000 and the rules guide's profile."""
MAIN_TITLE: Final = "main"
MORE_TITLE: Final = "more"
VARIANT_TITLE: Final = "variants"
"""The group of :data:`~preferans.rules.VARIANTS`: their own table shape (two players and
a dummy, the Rogue's lists, Racing rounds, Classical); each fixes the number of seats."""

OWN_CONTROLS: Final = ("players", "pool")
"""Options the settings page sets with their own controls, not in the editor."""
NOT_AT_THIS_TABLE: Final = {
    "dummy_lone_whist": "two players only (choose the two-player or a Rogue variant)",
    "dummy_alone_quota": "two players only (choose the two-player or a Rogue variant)",
    "rogue": "the Rogue is dealt only in its structural variants (rogue-small, ...)",
    "rogue_soloist": "the Rogue is dealt only in its structural variants (rogue-small, ...)",
    "rogue_defence": "the Rogue is dealt only in its structural variants (rogue-small, ...)",
    "ranks": "research only: a short pack (Mini Preferans) is for the research environment",
    "suits": "research only: a short pack (Mini Preferans) is for the research environment",
}
"""Options that belong to other table shapes, and why: the conventions' editor hides them
and refuses them; a structural variant whose shape they fit (:func:`shape_options`) offers
them."""
NOT_HERE_CODES: Final = {name: "only_two" if why.startswith("two") else
                         "only_research" if why.startswith("research") else "only_rogue"
                         for name, why in NOT_AT_THIS_TABLE.items()}
"""The :class:`~preferans.rules.RulesError` code refusing each of :data:`NOT_AT_THIS_TABLE`."""


def option_title(name: str, lang: str = "en") -> str:
    """An option's name for the reader: the code's own in English (``whist_quota``), a
    player's words in Russian (``норма вистов``; ``msgctxt "option-title"``).

    >>> option_title("stalingrad", "ru")
    'Сталинград'
    """
    return i18n.pgettext("option-title", name, lang)


def _all_presets() -> dict[str, Rules]:
    return {**PRESETS, **VARIANTS}


def is_variant(name: str) -> bool:
    """Whether ``name`` is a structural variant (its own table shape, a fixed number of seats)."""
    return name in VARIANTS


def shape_options(rules: Rules) -> tuple[str, ...]:
    """The options of :data:`NOT_AT_THIS_TABLE` that fit the table shape of ``rules``: the
    dummy's with two players, the Rogue's in a Rogue variant (its list is fixed by the preset).

    >>> shape_options(Rules.preset("two-player"))
    ('dummy_lone_whist', 'dummy_alone_quota')
    >>> shape_options(Rules.preset("sochi"))
    ()
    """
    out: list[str] = []
    if rules.name in VARIANTS and rules.players == 2:
        out += ["dummy_lone_whist", "dummy_alone_quota"]
    if rules.name in VARIANTS and rules.name.startswith("rogue"):
        out += ["rogue_soloist", "rogue_defence"]
    return tuple(out)
HIDDEN_CHOICES: Final = {"game_end": ("lists",)}
"""Choices of offered options that only the hidden ones make sense of."""


def _fields() -> dict[str, dataclasses.Field[Any]]:
    return {f.name: f for f in dataclasses.fields(Rules)}


def _fixed_length(name: str) -> int | None:
    """How many numbers a list option holds, when the option fixes it (contract values: 5)."""
    annotation = str(_fields()[name].type)
    if not annotation.startswith("tuple[") or "..." in annotation:
        return None
    return annotation.count("int")


def rules_title(rules: Rules) -> str:
    """The rule set's name as the sheet writes it: ``piter-hard`` -> ``Hard St Petersburg``."""
    return preset_title(rules.name)


def preset_choices(lang: str = "en") -> list[dict[str, Any]]:
    """Every preset for the settings page: name, title, description (PRESET_DOCS, or
    VARIANT_DOCS for the structural variants), group, its own pool (Kazakhstan's 120, Finn's
    40), the seats a variant fixes (``players``: None for a convention, played by three or
    four) and ``shape_options``, the variant's own options the editor shows; ``title`` and
    ``doc`` in ``lang`` (:func:`.presets_text.preset_title_in`).

    >>> [(p["name"], p["players"]) for p in preset_choices() if p["group"] == VARIANT_TITLE][:2]
    [('two-player', 2), ('rogue-small', 2)]
    """
    out = []
    groups = ((MAIN_TITLE, MAIN_PRESETS), (MORE_TITLE, MORE_PRESETS),
              (VARIANT_TITLE, tuple(VARIANTS)))
    for group, names in groups:
        for name in names:
            rules = _all_presets()[name]
            variant = is_variant(name)
            source = VARIANT_DOCS.get(name, "") if variant else PRESET_DOCS.get(name, "")
            doc = preset_line(name) or source
            if lang != "en":
                doc = preset_line_in(name, lang) or doc
            out.append({"name": name, "title": preset_title_in(name, lang),
                        "doc": doc,
                        "group": group, "pool": rules.pool,
                        "players": rules.players if variant else None,
                        "shape_options": list(shape_options(rules))})
    return out


def editor_schema(lang: str = "en") -> list[dict[str, Any]]:
    """The options of the house-rules editor: :func:`~preferans.rules.options_schema` less
    the ones with their own controls (players, pool); the options of other table shapes
    (:data:`NOT_AT_THIS_TABLE`) carry ``only_for``, the presets that offer them (the page
    hides them elsewhere); ``presets`` holds the structural variants' values too; each entry
    gains ``control`` (``checkbox``, ``select``, ``number``, ``numbers``,
    ``number or empty``), ``length`` (how many numbers a list needs, or None) and
    ``fixed`` (a choice the engine does not yet let change); for the reader in ``lang``:
    ``title`` (the option's name: the code's in English, a Russian one in Russian),
    ``doc`` and ``labels`` (each choice in words, :func:`preferans.i18n.value_text`).

    >>> entry = next(e for e in editor_schema() if e["name"] == "whist_quota")
    >>> entry["control"], entry["length"], entry["presets"]["sochi"]
    ('numbers', 5, [4, 2, 1, 1, 1])
    """
    out = []
    offered = {name: shape_options(rules) for name, rules in VARIANTS.items()}
    for entry in options_schema():
        name = entry["name"]
        if name in OWN_CONTROLS:
            continue
        entry = dict(entry)
        entry["doc"] = plain_doc(entry["doc"]) if lang == "en" else i18n.option_description(
            name, lang)
        entry["title"] = option_title(name, lang)
        entry["presets"] = {**entry["presets"], **{
            p: _jsonable(getattr(r, name)) for p, r in VARIANTS.items()}}
        entry["only_for"] = None
        if name in NOT_AT_THIS_TABLE:
            entry["only_for"] = [p for p, names in offered.items() if name in names]
            if not entry["only_for"]:
                continue
        choices = entry["choices"]
        if choices is not None:
            choices = [c for c in choices if c not in HIDDEN_CHOICES.get(name, ())]
            entry["choices"] = choices
            if lang != "en":  # English shows the values themselves (yes / no for a flag)
                entry["labels"] = [i18n.value_text(name, c, lang) for c in choices]
        kind = entry["type"]
        if kind == "bool":
            control = "checkbox"
        elif choices is not None:
            control = "select"
        elif kind == "int list":
            control = "numbers"
        elif kind == "int or null":
            control = "number or empty"
        else:
            control = "number"
        entry["control"] = control
        entry["length"] = _fixed_length(name) if kind == "int list" else None
        entry["fixed"] = choices is not None and len(choices) == 1
        out.append(entry)
    return out


def _check_value(name: str, value: Any) -> None:
    """The web's own checks of a list override, before the engine's: the message shows
    the preset's list as an example.  Types and ranges are the engine's
    (:mod:`preferans.option_bounds`), whose message names the allowed range."""
    length = _fixed_length(name)
    default = getattr(PRESETS["sochi"], name)
    if isinstance(default, tuple):
        if not isinstance(value, list | tuple) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value
        ):
            raise RulesError("list_like", option=name, value=show(value),
                             example=", ".join(str(v) for v in default))
        if length is not None and len(value) != length:
            raise RulesError("list_length", option=name, count=length, given=len(value),
                             example=", ".join(str(v) for v in default))


def rules_from_settings(
    rules: str | Mapping[str, Any] | None = "sochi",
    *,
    players: int | None = None,
    pool: int | None = None,
) -> Rules:
    """The rules of a new web game: a preset name or ``{"preset": name, option: value, ...}``,
    for three or four ``players`` (None: three; a structural variant fixes its own: two for
    two-player and the Rogue, three for Racing and Classical), with the pulya length ``pool``
    (None: the preset's own, or
    a ``pool`` given among the options).  Raises :class:`~preferans.rules.RulesError` with a
    message naming what is wrong.

    >>> rules_from_settings("kazakhstan").pool
    120
    >>> rules_from_settings({"preset": "sochi", "rogue": "small"})
    Traceback (most recent call last):
    ...
    preferans.rules.RulesError: option rogue is not offered here: the Rogue is dealt only in its \
structural variants (rogue-small, ...)
    >>> rules_from_settings("rogue-small").players
    2
    """
    if rules is None:
        rules = "sochi"
    if not isinstance(rules, str | Mapping):
        raise RulesError("rules_type", value=show(rules))
    options: dict[str, Any] = {"preset": rules} if isinstance(rules, str) else dict(rules)
    preset = options.get("preset", "sochi")
    if not isinstance(preset, str):
        raise RulesError("preset_type", value=show(preset))
    base = Rules.preset(preset)  # an unknown preset: the engine names the known ones
    if base.name not in _all_presets():
        known = ", ".join(_all_presets())
        raise RulesError("web_preset", name=show(preset), known=known)
    if is_variant(base.name):
        if players is not None and players != base.players:
            raise RulesError("variant_seats", value=show(players), preset=base.name,
                             players=base.players, doc=VARIANT_DOCS.get(base.name, base.name))
        players = base.players
    elif players is None:
        players = 3
    elif players not in (3, 4):
        raise RulesError("seats_three_four", value=show(players), preset=base.name)
    allowed = shape_options(base)
    options["preset"] = base.name
    for name, value in list(options.items()):
        if name in ("preset", "name"):
            continue
        hidden = name in NOT_AT_THIS_TABLE and name not in allowed
        if hidden and value != getattr(base, name, value):
            raise RulesError(NOT_HERE_CODES[name], option=name)
        if name == "players" and value != players:
            raise RulesError("players_twice", value=show(value), players=players)
        if name == "pool" and pool is not None and value != pool:
            raise RulesError("pool_twice", value=show(value), pool=show(pool))
        if name in _fields():
            _check_value(name, value)
    options["players"] = players
    if pool is not None:
        options["pool"] = pool
    return Rules.from_json(options)


def house_rules(rules: Rules) -> list[dict[str, Any]]:
    """The options of ``rules`` changed from its preset (pool and players aside, which
    every table shows anyway): name, value, the preset's value and the explanation."""
    base = _all_presets().get(rules.name)
    if base is None:
        return []
    docs = {e["name"]: plain_doc(e["doc"]) for e in options_schema()}
    out = []
    for name, doc in docs.items():
        if name in OWN_CONTROLS:
            continue
        value, was = getattr(rules, name), getattr(base, name)
        if value != was:
            out.append({"name": name, "value": _jsonable(value), "preset_value": _jsonable(was),
                        "doc": doc})
    return out


def _jsonable(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value
