"""The allowed range of every number among the rules' options, and the type check of
each option's value: what :class:`~preferans.rules.Rules` enforces when it is built, so
records, house rules and the options' JSON schema (``minimum``/``maximum``) share them.

The ranges are wide enough for every convention of the rules texts (Kazakhstan's pool
of 120 and contract values up to 40, Finn's bonuses of 120 and 80, Racing's 300 and 200)
and narrow enough that no number can overflow a score sheet or a message:

>>> BOUNDS["pool"], BOUNDS["start_mountain"], BOUNDS["stakes"]
((1, 1000), (0, 10000), (0, 1000000))
>>> value_problem("pool", int, 5000)
'option pool=5000 is out of range: 1 to 1000'
>>> value_problem("contract_values", tuple[int, int, int, int, int], "x")
"option contract_values='x' must be a list of 5 whole numbers"
>>> value_problem("start_mountain", int, 10 ** 4000)
'option start_mountain=(a number of 4001 digits) is out of range: 0 to 10000'

An option missing from :data:`BOUNDS` (one added later) gets :data:`DEFAULT_BOUNDS`.
"""

from __future__ import annotations

import math
import types
import typing
from typing import Any, Final, Literal

from .i18n.rules_errors import english

BOUNDS: Final[dict[str, tuple[int, int]]] = {
    # the table
    "pool": (1, 1000),
    "contract_values": (1, 1000),
    "misere_value": (1, 1000),
    # the defence: tricks
    "whist_quota": (0, 10),
    "half_whist_levels": (6, 7),
    "dummy_alone_quota": (0, 10),
    "half_whist_tricks": (0, 10),
    # Classical: laps, deals, points, money
    "halftime_laps": (0, 100),
    "dealer_stays": (0, 10),
    "final_lap_after": (0, 10000),
    "staying_dealer_hill": (0, 10),
    "halftime_pool": (0, 1000),
    "stakes": (0, 1_000_000),
    # Racing
    "racing_rounds": (0, 100),
    "racing_bonuses": (0, 100_000),
    # scoring
    "mountain_scale": (1, 100),
    "whist_scale": (1, 100),
    "consolation_per_undertrick": (0, 1000),
    "start_mountain": (0, 10000),
    "first_pool_bonus": (0, 100_000),
    "clear_mountain_bonus": (0, 100_000),
    # all-pass
    "allpass_trick_points": (0, 1000),
    "allpass_progression": (0, 1000),
    "allpass_min_bid": (6, 10),
    "allpass_zero_pool": (0, 1000),
    # closing the pool
    "pool_help_whists": (0, 1000),
}
"""Each numeric option's smallest and largest value (for a list option: of each entry)."""

NOTES: Final = {"staying_dealer_hill": "000 allows 0 to 10 points"}
"""Where a range comes from, when a rules text sets it (added to the message: the
``opt_range_noted`` error of :mod:`preferans.i18n.rules_errors` says it)."""

DEFAULT_BOUNDS: Final = (0, 10000)
"""The range of a numeric option that :data:`BOUNDS` does not list."""

MAX_ENTRIES: Final = 32
"""The most entries of a list option of free length (all-pass stakes, minimum bids)."""


def bounds(name: str) -> tuple[int, int]:
    """The allowed range of option ``name`` (or of each of its entries)."""
    return BOUNDS.get(name, DEFAULT_BOUNDS)


def show(value: Any) -> str:
    """``repr(value)`` cut short: a huge number by its digit count, a long text cut."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**30:
        if value.bit_length() <= 14000:  # str() refuses more than 4300 digits
            return f"(a number of {len(str(abs(value)))} digits)"
        return f"(a number of about {math.floor(math.log10(abs(value))) + 1} digits)"
    if isinstance(value, list | tuple) and len(value) > 8:
        return f"(a list of {len(value)} entries)"
    if isinstance(value, list | tuple):  # as JSON writes it: a list
        text = "[" + ", ".join(show(v) for v in value) + "]"
        return text if len(text) <= 60 else f"(a list of {len(value)} entries)"
    text = repr(value) if not isinstance(value, dict) else f"(an object of {len(value)} keys)"
    return text if len(text) <= 60 else text[:57] + "..."


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def value_problem(
    name: str, hint: Any, value: Any, choices: tuple[Any, ...] | None = None
) -> str | None:
    """What is wrong with ``value`` for option ``name`` of type ``hint`` (None: nothing);
    an option with ``choices`` takes one of them (of the same type: not ``1`` for ``True``).
    The English text of :func:`value_fault`."""
    fault = value_fault(name, hint, value, choices)
    return None if fault is None else english(fault[0], **fault[1])


def value_fault(
    name: str, hint: Any, value: Any, choices: tuple[Any, ...] | None = None
) -> tuple[str, dict[str, Any]] | None:
    """:func:`value_problem` as data: a :mod:`preferans.i18n.rules_errors` code and its
    parameters (None: nothing wrong).

    >>> value_fault("pool", int, 5000)
    ('opt_range', {'option': 'pool', 'value': '5000', 'low': 1, 'high': 1000})
    """
    where = {"option": name, "value": show(value)}
    if choices is not None:
        if not any(value == c and type(value) is type(c) for c in choices):
            return "opt_not_allowed", {**where, "choices": ", ".join(repr(c) for c in choices)}
        return None
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        inner = [a for a in args if a is not type(None)]
        if len(inner) == 1:
            problem = value_fault(name, inner[0], value)
            if problem and value is not None and not _is_int(value) and inner[0] is int:
                return "opt_whole_or_null", where
            return problem
        return None
    if origin is Literal:
        if value not in args or type(value) not in {type(a) for a in args}:
            return "opt_not_allowed", {**where, "choices": ", ".join(repr(a) for a in args)}
        return None
    if hint is bool:
        return None if isinstance(value, bool) else ("opt_bool", where)
    if hint is str:
        return None if isinstance(value, str) else ("opt_text", where)
    if hint is int:
        if not _is_int(value):
            return "opt_whole", where
        lo, hi = bounds(name)
        if lo <= value <= hi:
            return None
        if name in NOTES:
            return "opt_range_noted", {**where, "low": lo, "high": hi}
        return "opt_range", {**where, "low": lo, "high": hi}
    if origin is tuple:
        free = len(args) == 2 and args[1] is Ellipsis
        if not isinstance(value, tuple) or not all(_is_int(v) for v in value) or (
            not free and len(value) != len(args)
        ):
            return ("opt_list", where) if free else ("opt_list_of", {**where,
                                                                      "count": len(args)})
        if free and len(value) > MAX_ENTRIES:
            return "opt_entries", {**where, "entries": len(value), "most": MAX_ENTRIES}
        lo, hi = bounds(name)
        bad = [v for v in value if not lo <= v <= hi]
        if bad:
            return "opt_entry_range", {**where, "entry": show(bad[0]), "low": lo, "high": hi}
        return None
    return None  # a type this check does not know: the option's own checks decide


def schema_bounds(name: str, hint: Any) -> dict[str, int]:
    """``{"minimum": lo, "maximum": hi}`` for a numeric option (or its entries), else ``{}``."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        return schema_bounds(name, inner[0]) if len(inner) == 1 else {}
    if hint is int or (origin is tuple and args and args[0] is int):
        lo, hi = bounds(name)
        return {"minimum": lo, "maximum": hi}
    return {}
