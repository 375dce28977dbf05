"""Seat tokens: minted by the server alone, so a cookie planted in a browser is never
adopted (token fixation).

A token is 32 random characters followed by 32 characters of their HMAC-SHA256 under the
server's key (kept in the store, so it outlives restarts and is the same for every process
of one database).  A well-formed cookie without a valid signature is unknown: a new game
gets a freshly minted token instead.  A token of an older version of the server (43
random characters, unsigned) still answers for the seats it holds; when such a browser
starts a game, the server mints it a signed token and hands the old one's seats over to it.

>>> tokens = SeatTokens(b"k" * 32)
>>> token = tokens.mint()
>>> len(token), tokens.minted(token), tokens.minted(token[:-1] + "A"), tokens.minted("x" * 64)
(64, True, False, False)
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

BODY = 32
"""Random characters of a token."""
SIGNATURE = 32
"""Characters of its signature."""


class SeatTokens:
    """Mints and recognises the seat tokens of one server (its ``key``)."""

    def __init__(self, key: bytes) -> None:
        self._key = key

    def _signature(self, body: str) -> str:
        digest = hmac.new(self._key, body.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).decode()[:SIGNATURE]

    def mint(self) -> str:
        """A new token (64 URL-safe characters)."""
        body = secrets.token_urlsafe(BODY)[:BODY]
        return body + self._signature(body)

    def minted(self, token: str | None) -> bool:
        """Whether ``token`` is one this server minted."""
        if token is None or len(token) != BODY + SIGNATURE:
            return False
        body, signature = token[:BODY], token[BODY:]
        return hmac.compare_digest(signature, self._signature(body))
