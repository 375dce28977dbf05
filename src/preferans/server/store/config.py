"""Where the web game keeps its games: the data folder and the database URL.

The database is a SQLAlchemy URL.  By default it is a SQLite file in the
user's data folder (``$XDG_DATA_HOME/preferans/preferans.db``, else
``~/.local/share/preferans/preferans.db``); ``PREFERANS_DB`` or ``--db``
override it with any URL (``postgresql://user@host/db`` works too) or a plain
file path.

>>> database_url("sqlite:///tmp/x.db")
'sqlite:///tmp/x.db'
>>> database_url("/tmp/games.db")
'sqlite:////tmp/games.db'
>>> sqlite_file("sqlite:///file:/tmp/games.db?mode=ro&uri=true")
PosixPath('/tmp/games.db')
"""

from __future__ import annotations

import os
from pathlib import Path

ENV_DB = "PREFERANS_DB"
"""Environment variable naming the database (a SQLAlchemy URL or a file path)."""


def data_folder() -> Path:
    """The user's data folder for Preferans (not created here)."""
    base = os.environ.get("XDG_DATA_HOME") or ""
    root = Path(base) if base.strip() else Path.home() / ".local" / "share"
    return root / "preferans"


def default_database_url() -> str:
    """``PREFERANS_DB`` if set, else the SQLite file in :func:`data_folder`."""
    configured = os.environ.get(ENV_DB, "").strip()
    if configured:
        return database_url(configured)
    return f"sqlite:///{data_folder() / 'preferans.db'}"


def database_url(value: str | None) -> str:
    """A SQLAlchemy URL from ``--db``: a URL stays, a file path becomes SQLite, None the default."""
    if value is None or not value.strip():
        return default_database_url()
    text = value.strip()
    if "://" in text:
        return text
    return f"sqlite:///{Path(text).expanduser().absolute()}"


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite URL (to create its folder), or None for memory or another database."""
    prefix = "sqlite:///"
    if not url.startswith(prefix):
        return None
    path = url[len(prefix):].split("?", 1)[0]
    if path.startswith("file:"):  # a URI filename: sqlite:///file:/path/games.db?mode=ro&uri=true
        path = path[len("file:"):]
    if not path or path == ":memory:":
        return None
    return Path(path)
