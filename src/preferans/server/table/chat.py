"""The table chat of a table for friends: short text messages between the people at the
table, shown as text; the last :data:`CHAT_KEPT` are kept for the table's life, saved with
it (the store's ``chat`` column, off the event loop) and given to a page opened again
(``{"type": "chat_history", "messages": [...]}``), never in the record.

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
from collections import deque
from typing import Any

from ..security.limits import Bucket

CHAT_MOST = 200
"""The longest chat message, in characters."""
CHAT_RATE = 0.5
"""Chat messages a socket may send a second, on average."""
CHAT_BURST = 4
"""Chat messages a socket may send at once."""
CHAT_KEPT = 200
"""The chat messages a table keeps for a page opened again (the oldest go first)."""


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
    """Each socket's pace of chat messages, and the messages kept."""

    def __init__(self) -> None:
        self._buckets: dict[Any, Bucket] = {}
        self.said: deque[dict[str, Any]] = deque(maxlen=CHAT_KEPT)
        """The last messages said at the table (each as it was sent), the oldest first."""

    def restore(self, saved: Any) -> None:
        """Take back the messages saved with the table (each checked: a seat, a name and a
        text as :func:`clean_chat` leaves it; anything else is left out)."""
        for message in saved if isinstance(saved, list) else []:
            if (isinstance(message, dict) and isinstance(message.get("seat"), int)
                    and isinstance(message.get("name"), str)
                    and clean_chat(message.get("text")) == message.get("text")):
                self.said.append({"type": "chat", "seat": message["seat"],
                                  "name": message["name"][:40], "text": message["text"]})

    def history(self) -> dict[str, Any] | None:
        """The message that gives a page opened again the chat so far, or None (nothing said)."""
        if not self.said:
            return None
        return {"type": "chat_history", "messages": list(self.said)}

    def allow(self, socket: Any) -> bool:
        """Whether this socket may send one more message now (counted if so)."""
        bucket = self._buckets.get(socket)
        if bucket is None:
            bucket = self._buckets[socket] = Bucket(CHAT_RATE, CHAT_BURST)
        return bucket.allow()

    def forget(self, socket: Any) -> None:
        self._buckets.pop(socket, None)
