"""The server's public address (``--public-url``, ``PREFERANS_PUBLIC_URL``) and the links
made from it.

Behind a reverse proxy (Caddy with a domain, :doc:`docs/hosting.md`) the address friends
type is not the one the server listens on: ``preferans serve --public-url
https://pref.example.org`` names it once, and from it follow

- the links a page shows and a copy button copies (the invite, the watch-only link, a
  seat's own link): :meth:`Links.absolute` turns a path into ``https://pref.example.org/…``
  (the browser's ``links.js`` does the same with the page's ``preferans-public-url``
  meta tag); without a public address a link stays a path, and the page shows it at the
  address the browser used, as it always did;
- the Host the server answers for and the Origin whose pages may send it moves
  (:mod:`.guard`).

>>> Links(parse_public_url("https://pref.example.org/")).absolute("/join/g/c")
'https://pref.example.org/join/g/c'
>>> Links(None).absolute("/join/g/c")
'/join/g/c'
>>> parse_public_url("https://pref.example.org:8443").host
'pref.example.org'
>>> parse_public_url("pref.example.org")
Traceback (most recent call last):
...
ValueError: --public-url 'pref.example.org' must start with https:// or http:// (for example https://pref.example.org)
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from urllib.parse import urlsplit

ENV_PUBLIC_URL = "PREFERANS_PUBLIC_URL"
"""Environment variable: the public address (as ``--public-url``)."""

EXAMPLE = "https://pref.example.org"


@dataclass(frozen=True)
class PublicUrl:
    """A checked public address: its scheme, host and port (no path)."""

    scheme: str
    host: str
    """The host name or address, lower case, without brackets or port."""
    port: int | None

    @property
    def netloc(self) -> str:
        """``host[:port]`` as a Host header carries it (an IPv6 address in brackets)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return host if self.port is None else f"{host}:{self.port}"

    @property
    def origin(self) -> str:
        """``scheme://host[:port]``: what a browser sends as the Origin of its pages."""
        return f"{self.scheme}://{self.netloc}"


def parse_public_url(text: str) -> PublicUrl:
    """Check ``text`` as a public address: ``http`` or ``https``, a host, an optional port,
    no path, query, fragment or user; raise :class:`ValueError` saying what is wrong."""
    shown = f"--public-url {text!r}"
    raw = text.strip()
    if "://" not in raw:
        raise ValueError(f"{shown} must start with https:// or http:// (for example {EXAMPLE})")
    try:
        parts = urlsplit(raw)
        port = parts.port
    except ValueError as exc:
        raise ValueError(f"{shown} is not a web address: {exc}") from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise ValueError(f"{shown}: the scheme must be https or http, not {parts.scheme!r}")
    if not parts.hostname:
        raise ValueError(f"{shown} names no host (for example {EXAMPLE})")
    if parts.username is not None or parts.password is not None:
        raise ValueError(f"{shown} must not hold a user name or password")
    if parts.path not in ("", "/"):
        raise ValueError(f"{shown} must not have a path ({parts.path!r}): the game is served "
                         "at the root of its address")
    if parts.query or parts.fragment or raw.endswith(("?", "#")):
        raise ValueError(f"{shown} must not have a query or a fragment")
    if port is not None and port == {"http": 80, "https": 443}[scheme]:
        port = None
    return PublicUrl(scheme, parts.hostname.lower(), port)


def public_url_from(given: str | None) -> PublicUrl | None:
    """The public address: ``given``, else ``PREFERANS_PUBLIC_URL``, else none."""
    text = given if given else os.environ.get(ENV_PUBLIC_URL, "").strip()
    return parse_public_url(text) if text else None


@dataclass(frozen=True)
class Links:
    """The links the server hands out, made absolute from the public address if any."""

    public: PublicUrl | None

    @property
    def origin(self) -> str | None:
        """The public address's origin (``https://pref.example.org``), or none."""
        return None if self.public is None else self.public.origin

    def absolute(self, path: str) -> str:
        """``path`` (``/join/…``) at the public address; without one, the path itself (the
        browser shows it at the address it used)."""
        if self.public is None or not path.startswith("/") or path.startswith("//"):
            return path
        return self.public.origin + path


__all__ = ["ENV_PUBLIC_URL", "Links", "PublicUrl", "parse_public_url", "public_url_from"]
