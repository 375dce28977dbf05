"""The table chat of a table for friends: short text messages between the people at the
table, shown as text, never kept (not in the store, not in the record).

A message is at most :data:`CHAT_MOST` characters (spaces collapsed, control characters
refused) and each socket may send :data:`CHAT_BURST` at once, then one every
``1 / CHAT_RATE`` seconds; the table (:mod:`.table`) sends each accepted message to every
socket of the table as ``{"type": "chat", "seat", "name", "text"}``.  Spectators read it and
may not write.

>>> clean_chat("  hello   there "), clean_chat(""), clean_chat("x" * 201)
('hello there', None, None)
"""

from __future__ import annotations

import unicodedata
from typing import Any

from ..security.limits import Bucket

CHAT_MOST = 200
"""The longest chat message, in characters."""
CHAT_RATE = 0.5
"""Chat messages a socket may send a second, on average."""
CHAT_BURST = 4
"""Chat messages a socket may send at once."""


def clean_chat(text: Any) -> str | None:
    """A chat message as the table shows it, or None when it is empty, too long, not text
    or holds a control character."""
    if not isinstance(text, str) or len(text) > 4 * CHAT_MOST:
        return None
    said = " ".join(unicodedata.normalize("NFC", text).split())
    if not said or len(said) > CHAT_MOST:
        return None
    if any(unicodedata.category(char) in ("Cc", "Cf", "Co", "Cs") for char in said):
        return None
    return said


class ChatRoom:
    """Each socket's pace of chat messages."""

    def __init__(self) -> None:
        self._buckets: dict[Any, Bucket] = {}

    def allow(self, socket: Any) -> bool:
        """Whether this socket may send one more message now (counted if so)."""
        bucket = self._buckets.get(socket)
        if bucket is None:
            bucket = self._buckets[socket] = Bucket(CHAT_RATE, CHAT_BURST)
        return bucket.allow()

    def forget(self, socket: Any) -> None:
        self._buckets.pop(socket, None)
