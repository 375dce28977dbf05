"""A browser's message to its table, checked before anything reads it: size, depth, JSON, a known
type and its fields (every refusal a :class:`~..lang.request_errors.MessageError` in the reader's
language).
"""

from __future__ import annotations

import json
from typing import Any

from ... import i18n
from ..lang.language import (
    Rendered,
    Said,
)
from ..lang.request_errors import MessageError

MAX_MESSAGE_BYTES = 4096
"""The largest message a browser may send."""


MAX_MESSAGE_DEPTH = 8
"""The deepest nesting of arrays and objects a browser message may have (the protocol's
messages are flat objects)."""


MESSAGE_TYPES = ("action", "next_deal", "pause", "resume", "hint")


FRIENDS_MESSAGE_TYPES = (*MESSAGE_TYPES, "hand_over", "chat", "finish")
"""A table for friends takes three more: the creator's hand-over of an absent friend's seat,
the chat, and a friend's word on finishing the game early (``{"type": "finish"}`` agrees,
``"agree": false`` says no: :meth:`Table.finish`)."""


def json_depth(text: str) -> int:
    """How deeply the arrays and objects of a JSON text nest (brackets inside strings do
    not count); measured before parsing, so a deep frame never reaches the parser.

    >>> json_depth('{"a": [1, {"b": "[["}]}')
    3
    """
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def parse_message(text: str | bytes | None, friends: bool = False) -> dict[str, Any]:
    """Check one browser message: a JSON text frame of at most 4 KiB nested at most 8 deep,
    an object with a known ``type``; an ``action`` carries a string ``token``.  Raises
    :class:`MessageError`.

    >>> parse_message('{"type": "action", "token": "QH"}')
    {'type': 'action', 'token': 'QH'}
    >>> parse_message('{"type": "dance"}')
    Traceback (most recent call last):
    ...
    preferans.server.lang.request_errors.MessageError: Unknown message type 'dance' \
(expected action, next_deal, pause, resume or hint).
    """
    if text is None or isinstance(text, bytes | bytearray):
        raise MessageError("bad_message", Said("error.msg.binary"))
    size = len(text) if len(text) > MAX_MESSAGE_BYTES else len(text.encode("utf-8"))
    if size > MAX_MESSAGE_BYTES:
        raise MessageError("too_large", Said("error.msg.too_large", size=size,
                                             most=MAX_MESSAGE_BYTES))
    depth = json_depth(text)
    if depth > MAX_MESSAGE_DEPTH:
        raise MessageError("bad_message", Said("error.msg.too_deep", depth=depth,
                                               most=MAX_MESSAGE_DEPTH))
    try:
        obj = json.loads(text)
    except RecursionError:
        raise MessageError("bad_message", Said("error.msg.unreadable")) from None
    except json.JSONDecodeError as exc:
        raise MessageError("bad_message", Said("error.msg.not_json", detail=exc.msg,
                                               column=exc.colno)) from None
    if not isinstance(obj, dict):
        raise MessageError("bad_message", Said("error.msg.not_object"))
    kind = obj.get("type")
    known = FRIENDS_MESSAGE_TYPES if friends else MESSAGE_TYPES
    if kind not in known:
        raise MessageError("bad_message", Said("error.msg.unknown_type", kind=repr(kind),
                                               known=_one_of(known)))
    if kind == "action":
        token = obj.get("token")
        if not isinstance(token, str) or not token.strip():
            raise MessageError("bad_message", Said("error.msg.no_token"))
        if len(token) > 40:
            raise MessageError("bad_message", Said("error.msg.long_token",
                                                   token=repr(token[:40])))
    if kind == "finish" and not isinstance(obj.get("agree", True), bool):
        raise MessageError("bad_message", Said("friends.bad_finish"))
    if kind == "hand_over":
        seat = obj.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
            raise MessageError("bad_message", Said("friends.bad_seat"))
    return obj


def _one_of(words: tuple[str, ...]) -> Rendered:
    """``a, b or c`` with the reader's word for "or"."""
    def said(lang: str) -> str:
        return ", ".join(words[:-1]) + f" {i18n.pgettext('term', 'or', lang)} " + words[-1]

    return Rendered(said("en"), said)
