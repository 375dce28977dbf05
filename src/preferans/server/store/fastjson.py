"""JSON for the server's hot paths: orjson when it is installed, the standard library else.

Every state frame and every save writes JSON, so the server encodes with orjson (about ten
times faster than :mod:`json`), and encodes the parts that rarely change only once:
:func:`fragment` wraps JSON text already written so :func:`dumps` copies it into the output
(orjson's ``Fragment``) instead of encoding the value again.  Without orjson (an install that
lacks it) everything still works through :mod:`json`, only slower: a fragment then holds the
value too and is encoded again.

>>> dumps({"a": [1, "é"], "b": fragment({"c": None})})
'{"a":[1,"é"],"b":{"c":null}}'
>>> record = EncodedJSON('{"deals": []}')
>>> dict(record), record.text
({'deals': []}, '{"deals": []}')
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

try:  # pragma: no cover - which branch runs depends on the install
    import orjson
except ImportError:  # pragma: no cover
    orjson = None  # type: ignore[assignment]

_Fragment = getattr(orjson, "Fragment", None) if orjson is not None else None
_OPTIONS = orjson.OPT_NON_STR_KEYS if orjson is not None else 0
"""Integer keys written as strings, as :mod:`json` does (an observation's ``exposed``)."""
FAST = orjson is not None
"""Whether orjson encodes (else the standard library's json)."""


class _Stdlib(json.JSONEncoder):
    def default(self, o: Any) -> Any:
        if isinstance(o, Frag):
            return o.value
        if isinstance(o, EncodedJSON):
            return o.value
        return super().default(o)


_stdlib = _Stdlib(ensure_ascii=False, separators=(",", ":"))


class Frag:
    """A value whose JSON text is written once (stdlib fallback: the value itself)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


def _default(obj: Any) -> Any:
    if isinstance(obj, Frag):
        return obj.value
    if isinstance(obj, EncodedJSON):
        return _Fragment(obj.text) if _Fragment is not None else obj.value
    raise TypeError(f"Type is not JSON serializable: {type(obj).__name__}")


def dumps(obj: Any) -> str:
    """Compact JSON text (UTF-8 characters kept, as Starlette's ``send_json`` writes them)."""
    if orjson is not None:
        return orjson.dumps(obj, default=_default, option=_OPTIONS).decode()
    return _stdlib.encode(obj)


def loads(text: str | bytes) -> Any:
    """Parse JSON text."""
    if orjson is not None:
        return orjson.loads(text)
    return json.loads(text)


def fragment(value: Any) -> Any:
    """``value`` encoded now, to be copied as is into every :func:`dumps` that contains it."""
    if _Fragment is not None:
        return _Fragment(orjson.dumps(value, option=_OPTIONS))
    return Frag(value)


class EncodedJSON(Mapping[str, Any]):
    """A JSON object already written as text (a game record): the store writes :attr:`text`
    as it is instead of encoding the object again; read as a mapping, it is parsed (once)."""

    __slots__ = ("_value", "text")

    def __init__(self, text: str, value: dict[str, Any] | None = None) -> None:
        self.text = text
        self._value = value

    @property
    def value(self) -> dict[str, Any]:
        """The object (parsed from :attr:`text` on first use)."""
        if self._value is None:
            self._value = loads(self.text)
        return self._value

    def __getitem__(self, key: str) -> Any:
        return self.value[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.value)

    def __len__(self) -> int:
        return len(self.value)


def serializer(obj: Any) -> str:
    """The database's JSON serializer: an :class:`EncodedJSON` as its text, else :func:`dumps`
    (given to SQLAlchemy as ``json_serializer``)."""
    if isinstance(obj, EncodedJSON):
        return obj.text
    return dumps(obj)
