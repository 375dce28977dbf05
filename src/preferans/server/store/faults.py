"""A failing database said in words a player can act on: :class:`StoreError` names the
database and the problem (read-only, a full disk, damaged...); :class:`Fenced` is a save by
a process that no longer owns the table."""

from __future__ import annotations

from sqlalchemy.engine import make_url

from .config import sqlite_file


class StoreError(Exception):
    """The database failed: ``location`` names it, ``problem`` says how (``is read-only``,
    ``is on a full disk``, ``is damaged``...), ``detail`` is the database's own words."""

    def __init__(self, location: str, problem: str, detail: str) -> None:
        self.location = location
        self.problem = problem
        self.detail = detail
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """``the database /path/games.db is read-only (attempt to write a readonly database)``"""
        return f"the database {self.location} {self.problem} ({self.detail})"


class Fenced(StoreError):
    """A save of a table by a process that no longer owns it: another process has taken the
    table over (its epoch has moved on), so this one's write was refused."""

    def __init__(self, location: str, game_id: str, epoch: int, current: int | None) -> None:
        self.game_id = game_id
        self.epoch = epoch
        self.current = current
        super().__init__(location, "is held by another server process now",
                         f"game {game_id}: epoch {epoch} is over, the table is at {current}")


def describe_fault(exc: BaseException) -> tuple[str, str]:
    """``(problem, detail)`` of a database error: what a player can act on, and the
    database's own message (first line).

    >>> describe_fault(OSError(28, "No space left on device"))[0]
    'is on a full disk'
    """
    original = getattr(exc, "orig", None) or exc
    detail = (str(original).strip().splitlines() or [type(original).__name__])[0][:200]
    words = detail.lower()
    if "readonly" in words or "read-only" in words or "permission denied" in words:
        problem = "is read-only"
    elif "disk is full" in words or "no space" in words or "disk full" in words:
        problem = "is on a full disk"
    elif "not a database" in words or "malformed" in words or "corrupt" in words:
        problem = "is damaged"
    elif "no such table" in words or "no such column" in words:
        problem = "is damaged (its games table is missing or not this program's)"
    elif "locked" in words or "busy" in words:
        problem = "is locked by another program"
    elif "unable to open" in words:
        problem = "cannot be opened"
    else:
        problem = "failed"
    return problem, detail


def database_location(url: str) -> str:
    """How messages name a database: the SQLite file, ``memory``, or the URL without its
    password.

    >>> database_location("sqlite:////tmp/g.db"), database_location("postgresql://u:pw@h/db")
    ('/tmp/g.db', 'postgresql://u:***@h/db')
    """
    path = sqlite_file(url)
    if path is not None:
        return str(path)
    if url.startswith("sqlite"):
        return "in memory"
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return url.split("@")[-1]
