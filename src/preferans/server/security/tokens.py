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
import re
import secrets
from collections.abc import Mapping

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
        return self.signed(secrets.token_urlsafe(BODY)[:BODY])

    def signed(self, body: str) -> str:
        """The token of ``body`` (:data:`BODY` URL-safe characters the server chose: random,
        or an account's, :mod:`.passkeys`)."""
        return body + self._signature(body)

    def minted(self, token: str | None) -> bool:
        """Whether ``token`` is one this server minted."""
        if token is None or len(token) != BODY + SIGNATURE:
            return False
        body, signature = token[:BODY], token[BODY:]
        return same_code(self._signature(body), signature)


def same_code(known: str | None, given: object) -> bool:
    """Whether ``given`` (from the network: any characters, any type) is the secret code
    ``known``, compared in constant time.  ``hmac.compare_digest`` refuses a ``str`` that is
    not ASCII, so both are compared as UTF-8 bytes: a code of any characters is simply not
    the code.

    >>> same_code("abc", "abc"), same_code("abc", "abd"), same_code("abc", "Аbc")
    (True, False, False)
    >>> same_code("", ""), same_code(None, "x"), same_code("abc", None)
    (False, False, False)
    """
    if not known or not isinstance(given, str):
        return False
    return hmac.compare_digest(known.encode("utf-8", "surrogatepass"),
                               given.encode("utf-8", "surrogatepass"))


# --- whose a seat is ----------------------------------------------------------------------
SEAT_COOKIE = "preferans_seat"
"""The cookie holding this browser's seat token."""
SEAT_TOKEN = re.compile(r"^[A-Za-z0-9_-]{32,128}$")


def held_seats(seats: dict[str, str] | None, token_hash: str | None) -> list[int]:
    """The seats a browser whose token hashes to ``token_hash`` holds."""
    if not token_hash:
        return []
    return sorted(int(seat) for seat, held in (seats or {}).items()
                  if seat.isdigit() and hmac.compare_digest(held, token_hash))


def token_hash(token: str) -> str:
    """The sha256 (hex) of a seat token: what the store keeps, never the token itself."""
    return hashlib.sha256(token.encode()).hexdigest()


def seat_token(cookies: Mapping[str, str]) -> str | None:
    """The seat token of a request's cookies, or None when it has none (or a malformed one)."""
    token = cookies.get(SEAT_COOKIE)
    return token if token is not None and SEAT_TOKEN.match(token) else None


def holder(seats: Mapping[str, str] | None, token: str | None, seat: int,
           friends: bool = False) -> str:
    """Whose ``seat`` (the human's: :data:`..table.seats.HUMAN`) is for a browser with
    ``token``: ``mine``, ``free`` (nobody claimed it: a game saved before seat tokens) or
    ``theirs``.  At a table for ``friends``: ``mine``
    when the browser holds any seat, else ``theirs`` (its seats are taken in the lobby)."""
    if friends:
        return "mine" if token is not None and held_seats(
            dict(seats or {}), token_hash(token)) else "theirs"
    held = (seats or {}).get(str(seat))
    if not held:
        return "free"
    if token is not None and hmac.compare_digest(held, token_hash(token)):
        return "mine"
    return "theirs"
