"""Reading JSON that a user hands us (a record, a position): every way it can be bad
is one :class:`JsonFileError` whose message says what is wrong, never a traceback.

The files are UTF-8 (a UTF-8 byte-order mark is accepted); UTF-16 and UTF-32, binary
files, non-standard constants (``NaN``, ``Infinity``), numbers that cannot be meant
(more than :data:`MAX_DIGITS` digits, floats beyond the double range) and nesting
deeper than :data:`MAX_DEPTH` are refused with a message naming the problem.

>>> parse_json('{"a": [1, 2]}')
{'a': [1, 2]}
>>> parse_json('[' * 100 + ']' * 100)
Traceback (most recent call last):
...
preferans.jsonfile.JsonFileError: nested 100 levels deep (at most 64)
>>> parse_json('{"pool": ' + '9' * 5000 + '}')
Traceback (most recent call last):
...
preferans.jsonfile.JsonFileError: a number of 5000 digits (at most 100)
>>> read_object_text('null', "a record")
Traceback (most recent call last):
...
preferans.jsonfile.JsonFileError: a record is a JSON object {...}, not null
"""

from __future__ import annotations

import codecs
import json
import math
from pathlib import Path
from typing import Any, Final

MAX_BYTES: Final = 64 * 1024 * 1024
"""The largest file read (64 MiB); a long game's record is a few hundred KiB."""
MAX_DEPTH: Final = 64
"""The deepest nesting of lists and objects accepted (a record nests five levels)."""
MAX_DIGITS: Final = 100
"""The longest whole number accepted, in digits (the bounds of each field come later and
name its range; this only keeps absurd numbers out of parsing and messages)."""


class JsonFileError(ValueError):
    """A file or text that is not the JSON we can read; the message says why."""


_BOMS: Final = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)


def kind_of(value: Any) -> str:
    """A JSON value's kind in words, for messages: ``null``, ``a list``, ``a number``..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def decode(data: bytes) -> str:
    """The text of a file's bytes, which must be UTF-8 (an optional byte-order mark)."""
    for bom, name in _BOMS:  # UTF-32 LE starts like UTF-16 LE: test it first
        if data.startswith(bom):
            return _not_utf8(f"is {name} text (it starts with a byte-order mark)")
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    if b"\x00" in data:
        half = len(data) // 2
        if half and (data[1::2].count(0) > half * 0.9 or data[0::2].count(0) > half * 0.9):
            return _not_utf8("looks like UTF-16 or UTF-32 text (zero bytes between the characters)")
        raise JsonFileError("is a binary file, not JSON text (it holds zero bytes)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        byte = data[exc.start]
        raise JsonFileError(
            f"is not UTF-8 text (byte 0x{byte:02x} at offset {exc.start}); save it as UTF-8"
        ) from None


def _not_utf8(what: str) -> str:
    raise JsonFileError(f"{what}, not UTF-8: save it as UTF-8")


def _parse_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise JsonFileError(f"a number of {digits} digits (at most {MAX_DIGITS})")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        shown = text if len(text) <= 30 else text[:27] + "..."
        raise JsonFileError(f"the number {shown} is too large")
    return value


def _parse_constant(text: str) -> Any:
    raise JsonFileError(f"{text} is not a JSON value (JSON has no NaN or Infinity)")


def depth(value: Any) -> int:
    """How deep lists and objects nest in ``value`` (a scalar: 0), without recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        level += 1
        deepest = max(deepest, level)
        stack.extend((child, level) for child in children)
    return deepest


def parse_json(text: str) -> Any:
    """Parse JSON text; raise :class:`JsonFileError` naming what is wrong."""
    try:
        value = json.loads(
            text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant
        )
    except json.JSONDecodeError as exc:
        raise JsonFileError(
            f"is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
        ) from None
    except RecursionError:
        raise JsonFileError(f"nested too deep (at most {MAX_DEPTH} levels)") from None
    levels = depth(value)
    if levels > MAX_DEPTH:
        raise JsonFileError(f"nested {levels} levels deep (at most {MAX_DEPTH})")
    return value


def read_json_file(path: str | Path) -> Any:
    """The JSON value in the file at ``path``.  The message of the :class:`JsonFileError`
    starts with the path: ``game.json is not UTF-8 text (byte 0xff at offset 0)...``."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        raise JsonFileError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > MAX_BYTES:
        raise JsonFileError(f"{path} is larger than {MAX_BYTES // (1024 * 1024)} MiB")
    try:
        return parse_json(decode(data))
    except JsonFileError as exc:
        raise JsonFileError(f"{path} {predicate(exc)}") from None


def predicate(exc: JsonFileError) -> str:
    """The message of an error from :func:`parse_json` or :func:`decode` as the rest of a
    sentence whose subject is the file or text: ``is not valid JSON: ...``."""
    text = str(exc)
    if text.startswith(("is ", "looks ", "nested ")):
        return text
    return f"holds {text}" if text.startswith("a ") else f"is not valid JSON: {text}"


def require_object(value: Any, what: str) -> dict[str, Any]:
    """``value`` itself when it is a JSON object; otherwise an error naming its kind."""
    if not isinstance(value, dict):
        raise JsonFileError(f"{what} is a JSON object {{...}}, not {kind_of(value)}")
    return value


def read_object_text(text: str, what: str) -> dict[str, Any]:
    """JSON text that must hold an object (``what`` names it in the message)."""
    return require_object(parse_json(text), what)


def read_object_file(path: str | Path, what: str) -> dict[str, Any]:
    """A file that must hold a JSON object: ``game.json: a game record is a JSON object
    {...}, not a list``."""
    value = read_json_file(path)
    try:
        return require_object(value, what)
    except JsonFileError as exc:
        raise JsonFileError(f"{path}: {exc}") from None
