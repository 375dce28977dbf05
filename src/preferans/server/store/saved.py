"""A row of the games table as the server reads it: :class:`SavedGame`, with ``damage`` set
when a column cannot be read (the row is still listed, and its record offered as stored)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Text, cast, select

from .schema import FINISHED, games


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
    seats: dict[str, str] | None = None
    """Human seat ("0") -> sha256 of the seat token; None: not claimed yet."""
    damage: str | None = None
    """Why a column of the row cannot be read (not JSON...); None when it reads."""
    friends: dict[str, Any] | None = None
    """A table for friends: who sits where, the invite, the clock (:mod:`..table.lobby`); None
    for a game against the computer."""
    chat: list[Any] | None = None
    """A table for friends' last chat messages as saved (unchecked: the table reads what it
    can of them, :mod:`..table.chat`); None: nothing said, or a damaged column."""

    @property
    def finished(self) -> bool:
        """Whether the game has reached its end."""
        return self.status == FINISHED


def readable_games() -> Any:
    """SELECT of every column, the JSON ones as text (parsed by :func:`saved_game`, so a damaged
    value marks the row damaged instead of failing the query)."""
    return select(*(cast(c, Text).label(c.name) if isinstance(c.type, JSON) else c
                    for c in games.c))


def json_object(raw: str | None) -> Any:
    """A JSON value read from text; None for NULL or text that is not JSON."""
    if raw is None:
        return None
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        return None


def saved_game(row: Mapping[str, Any]) -> SavedGame:
    damage: list[str] = []

    def column(name: str, kind: type, required: bool) -> Any:
        raw = row[name]
        if raw is None:
            if required:
                damage.append(f"its {name} is empty")
            return kind() if required else None
        try:
            value = json.loads(raw)
        except (ValueError, RecursionError) as exc:
            damage.append(f"its {name} is not valid JSON ({str(exc)[:80]})")
            return kind() if required else None
        if value is None and not required:
            return None
        if not isinstance(value, kind):
            damage.append(f"its {name} is not a JSON {'object' if kind is dict else 'list'}")
            return kind() if required else None
        return value

    return SavedGame(
        id=row["id"],
        created=row["created"],
        updated=row["updated"],
        difficulty=row["difficulty"],
        rules=column("rules", dict, True),
        names=column("names", list, True),
        seed=int(row["seed_text"]) if row.get("seed_text") else int(row["seed"]),
        record=column("record", dict, True),
        status=row["status"],
        result=column("result", list, False),
        summary=column("summary", dict, False),
        seats=column("seats", dict, False),
        friends=column("friends", dict, False) if "friends" in row else None,
        damage="; ".join(damage) or None,
        # the chat is no part of the game: a damaged one is left out, never the game
        chat=_listed(row.get("chat")),
    )


def _listed(raw: str | None) -> list[Any] | None:
    """A JSON list read from text, or None (NULL, not JSON, not a list)."""
    value = json_object(raw)
    return value if isinstance(value, list) else None
