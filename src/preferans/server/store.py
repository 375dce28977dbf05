"""Saved games: one row per game in a SQL database, through SQLAlchemy Core.

A row holds what it takes to put a player back exactly where they were: the
game record (``preferans-record/1``, replayed through the engine on load), the
difficulty, the rules, the names, the seed the deals are drawn from, the status
(``playing`` or ``finished``), the final balances, and a small summary of the
human's figures for the statistics page (see :mod:`preferans.server.stats`).

>>> store = GameStore("sqlite://")
>>> row = store.create("g1", difficulty="easy", rules={"preset": "sochi", "pool": 10},
...                    names=["You", "Misha", "Lena"], seed=7, record={"deals": []})
>>> store.get("g1").status
'playing'
>>> store.latest_unfinished().id
'g1'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    DateTime,
    MetaData,
    String,
    Table,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.pool import StaticPool

from .config import sqlite_file

PLAYING = "playing"
FINISHED = "finished"

metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("updated", DateTime(timezone=True), nullable=False, index=True),
    Column("difficulty", String(16), nullable=False, index=True),
    Column("rules", JSON, nullable=False),
    Column("names", JSON, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("record", JSON, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("result", JSON, nullable=True),
    Column("summary", JSON, nullable=True),
)
"""The games table: one row per game, rewritten after every action."""


@dataclass(frozen=True)
class SavedGame:
    """One row of the games table."""

    id: str
    created: datetime
    updated: datetime
    difficulty: str
    rules: dict[str, Any]
    names: list[str]
    seed: int
    record: dict[str, Any]
    status: str
    result: list[float] | None
    summary: dict[str, Any] | None

    @property
    def finished(self) -> bool:
        """Whether the game has reached its end."""
        return self.status == FINISHED


def _now() -> datetime:
    return datetime.now(UTC)


def make_engine(url: str) -> Engine:
    """A SQLAlchemy engine for ``url``; a SQLite file's folder is created, memory is shared."""
    if url.startswith("sqlite"):
        path = sqlite_file(url)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            engine = create_engine(url, connect_args={"check_same_thread": False})
            event.listen(engine, "connect", _sqlite_pragmas)
            return engine
        return create_engine(
            url, connect_args={"check_same_thread": False}, poolclass=StaticPool
        )
    return create_engine(url, pool_pre_ping=True)


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    """Write-ahead log with normal sync: a save per action stays fast, and a crash of the
    server loses nothing (only a power cut may lose the last moves)."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


class GameStore:
    """The saved games of one database (created on first use)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        metadata.create_all(self.engine)

    def create(
        self,
        game_id: str,
        *,
        difficulty: str,
        rules: Mapping[str, Any],
        names: Sequence[str],
        seed: int,
        record: Mapping[str, Any],
        summary: Mapping[str, Any] | None = None,
    ) -> SavedGame:
        """Save a new game (status ``playing``)."""
        now = _now()
        values = {
            "id": game_id,
            "created": now,
            "updated": now,
            "difficulty": difficulty,
            "rules": dict(rules),
            "names": list(names),
            "seed": seed,
            "record": dict(record),
            "status": PLAYING,
            "result": None,
            "summary": dict(summary) if summary is not None else None,
        }
        with self.engine.begin() as conn:
            conn.execute(insert(games).values(**values))
        saved = self.get(game_id)
        assert saved is not None
        return saved

    def save(
        self,
        game_id: str,
        *,
        record: Mapping[str, Any],
        status: str = PLAYING,
        result: Sequence[float] | None = None,
        summary: Mapping[str, Any] | None = None,
    ) -> None:
        """Rewrite a game's record (after every action), its status, result and summary."""
        values: dict[str, Any] = {
            "record": dict(record),
            "status": status,
            "updated": _now(),
            "result": list(result) if result is not None else None,
        }
        if summary is not None:
            values["summary"] = dict(summary)
        with self.engine.begin() as conn:
            done = conn.execute(update(games).where(games.c.id == game_id).values(**values))
        if done.rowcount == 0:
            raise KeyError(f"no saved game {game_id!r}")

    def get(self, game_id: str) -> SavedGame | None:
        """The saved game with this id, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(select(games).where(games.c.id == game_id)).mappings().first()
        return _saved(row) if row is not None else None

    def latest_unfinished(self) -> SavedGame | None:
        """The most recently played game that has not ended (for CONTINUE), or None."""
        query = (
            select(games)
            .where(games.c.status == PLAYING)
            .order_by(games.c.updated.desc(), games.c.created.desc())
            .limit(1)
        )
        with self.engine.connect() as conn:
            row = conn.execute(query).mappings().first()
        return _saved(row) if row is not None else None

    def summaries(self) -> list[tuple[str, dict[str, Any] | None]]:
        """``(difficulty, summary)`` of every saved game, for the statistics."""
        query = select(games.c.difficulty, games.c.summary).order_by(games.c.created)
        with self.engine.connect() as conn:
            return [(row.difficulty, row.summary) for row in conn.execute(query)]

    def close(self) -> None:
        """Release the database connections."""
        self.engine.dispose()


def _saved(row: Mapping[str, Any]) -> SavedGame:
    return SavedGame(
        id=row["id"],
        created=row["created"],
        updated=row["updated"],
        difficulty=row["difficulty"],
        rules=dict(row["rules"]),
        names=list(row["names"]),
        seed=int(row["seed"]),
        record=dict(row["record"]),
        status=row["status"],
        result=list(row["result"]) if row["result"] is not None else None,
        summary=dict(row["summary"]) if row["summary"] is not None else None,
    )
