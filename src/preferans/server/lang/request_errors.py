"""A refused request in the reader's language: the JSON body's validation errors (pydantic)
and the engine's :class:`~preferans.rules.RulesError` said as the reader reads them.

Each pydantic error type the API can meet has a ``page`` key (``error.request.*``); the
message names the field first (``pool: ...``), as the English always did:

>>> from pydantic import BaseModel
>>> from typing import Literal
>>> class Body(BaseModel):
...     pool: Literal[10, 20, 30]
>>> from pydantic import ValidationError
>>> try:
...     Body(pool=15)
... except ValidationError as exc:
...     errors = exc.errors()
>>> validation_message(errors, "ru")
'pool: можно только 10, 20 или 30'
>>> validation_message(errors, "en")
'pool: must be 10, 20 or 30'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ... import i18n
from .language import say

ERROR_KEYS: dict[str, str] = {
    "literal_error": "error.request.choose",
    "enum": "error.request.choose",
    "extra_forbidden": "error.request.unknown_field",
    "json_invalid": "error.request.not_json",
    "missing": "error.request.missing",
    "int_type": "error.request.whole",
    "int_parsing": "error.request.whole",
    "int_from_float": "error.request.whole",
    "bool_type": "error.request.bool",
    "bool_parsing": "error.request.bool",
    "string_type": "error.request.text",
    "greater_than_equal": "error.request.at_least",
    "greater_than": "error.request.above",
    "less_than_equal": "error.request.at_most",
    "less_than": "error.request.below",
    "model_attributes_type": "error.request.object",
    "model_type": "error.request.object",
    "dict_type": "error.request.object",
}
"""A pydantic error type -> its ``page`` key; any other type: ``error.request.invalid``."""


def _where(loc: Iterable[Any], lang: str) -> str:
    parts = [str(x) for x in loc if not isinstance(x, int)]
    if parts and parts[0] in ("body", "query", "path", "header", "cookie"):
        parts = parts[1:]
    return ".".join(parts) or say("error.request.body", lang)


def _expected(text: str, lang: str) -> str:
    """pydantic's list of choices (``'easy', 'normal' or 'hard'``) with the reader's "or"."""
    if i18n.normalize(lang) == "en":
        return text
    return text.replace(" or ", f" {i18n.pgettext('term', 'or', lang)} ")


def error_message(error: Mapping[str, Any], lang: str) -> str:
    """One pydantic error as ``field: what is wrong`` in ``lang``."""
    ctx = error.get("ctx") or {}
    key = ERROR_KEYS.get(str(error.get("type")), "error.request.invalid")
    fields = {"where": _where(error.get("loc", ()), lang),
              "expected": _expected(str(ctx.get("expected", "")), lang),
              "limit": ctx.get("ge", ctx.get("gt", ctx.get("le", ctx.get("lt", "")))),
              "detail": str(ctx.get("error", "")).strip() or error.get("msg", "")}
    return say(key, lang, **fields)


def validation_message(errors: Iterable[Mapping[str, Any]], lang: str) -> str:
    """Every error of a refused body, ``; ``-separated (``invalid request`` for none)."""
    parts = [error_message(error, lang) for error in errors]
    return "; ".join(parts) or say("error.request.none", lang)


def rules_problem(exc: BaseException, lang: str) -> str:
    """A :class:`~preferans.rules.RulesError` (or a record error caused by one) in ``lang``;
    any other error's own text."""
    rules_error = getattr(exc, "rules_error", None)
    if rules_error is not None:
        return say("error.rules", lang, problem=i18n.render_rules_error(rules_error,
                                                                               lang))
    if getattr(exc, "code", None) is not None and hasattr(exc, "params"):
        return i18n.render_rules_error(exc, lang)
    return str(exc)


class MessageError(Exception):
    """A browser message that cannot be accepted; ``code`` is the protocol's error code."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra

    def payload(self) -> dict[str, Any]:
        """The ``error`` message for the browser (an illegal action adds ``reason``, ``token``)."""
        return {"type": "error", "code": self.code, "message": self.message, **self.extra}
