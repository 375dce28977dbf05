"""Who holds a seat, as the store keeps it: the sha256 of a seat token (a browser's, or the
one an account owns: :mod:`.accounts`).  Every row keyed by such a hash belongs to that
holder, and moves or goes with it in one place:

- :data:`MOVERS` run when a holder's rows pass to another hash, in one transaction
  (:meth:`.games.GameStore.claim_browser`): a browser signing in to an account hands its
  games over to the account's token; an older server's unsigned token hands its seats to a
  minted one; "sign out everywhere" hands the account's rows to its new token.
- :data:`ERASERS` run when a holder is deleted with everything it holds
  (:meth:`.games.GameStore.erase_holder`: an account deleted).

A new kind of row keyed by the holder's hash adds its mover and its eraser to these lists:
each takes the open transaction's connection.  The rating's (:mod:`.ratings`): a browser's
rating merged into the account's, a deleted holder's rating and history gone; the puzzle
rating's (:mod:`.puzzle_ratings`) likewise.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import Text, cast, delete, select, update

from .puzzle_ratings import erase_puzzle_rating, move_puzzle_rating
from .ratings import erase_rating, move_rating
from .saved import json_object
from .schema import games

GONE = "gone"
"""What a deleted holder's seat holds in a game it shared with others: no token hashes to
it (a hash is 64 hex digits), so nobody may take the seat, and the others' game stays."""

Mover = Callable[[Any, str, str], int]
"""``mover(conn, old_hash, new_hash)``: how many rows it moved."""
Eraser = Callable[[Any, str], int]
"""``eraser(conn, holder_hash)``: how many rows it deleted or emptied."""


def _held(conn: Any, holder_hash: str) -> list[tuple[str, dict[str, str]]]:
    rows = conn.execute(select(games.c.id, cast(games.c.seats, Text).label("seats"))
                        .where(cast(games.c.seats, Text).contains(holder_hash))).all()
    return [(row.id, json_object(row.seats) or {}) for row in rows]


def move_games(conn: Any, old_hash: str, new_hash: str) -> int:
    """Every game seat held by ``old_hash`` now held by ``new_hash``; how many games."""
    changed = 0
    for game_id, seats in _held(conn, old_hash):
        moved = {k: (new_hash if v == old_hash else v) for k, v in seats.items()}
        if moved != seats:
            conn.execute(update(games).where(games.c.id == game_id).values(seats=moved))
            changed += 1
    return changed


def erase_games(conn: Any, holder_hash: str) -> int:
    """The games only ``holder_hash`` played in deleted; in a game shared with other people,
    its seats marked :data:`GONE` (their game stays theirs); how many games."""
    changed = 0
    for game_id, seats in _held(conn, holder_hash):
        if holder_hash not in seats.values():
            continue
        if all(held in (holder_hash, GONE) for held in seats.values() if held):
            conn.execute(delete(games).where(games.c.id == game_id))
        else:
            kept = {k: (GONE if v == holder_hash else v) for k, v in seats.items()}
            conn.execute(update(games).where(games.c.id == game_id).values(seats=kept))
        changed += 1
    return changed


MOVERS: list[Mover] = [move_games, move_rating, move_puzzle_rating]
"""What moves with a holder (in this order, in one transaction)."""
ERASERS: list[Eraser] = [erase_games, erase_rating, erase_puzzle_rating]
"""What goes with a deleted holder (in this order, in one transaction)."""


def move_holder(conn: Any, old_hash: str, new_hash: str) -> int:
    """Run every :data:`MOVERS` in the open transaction ``conn``; the rows moved."""
    if not old_hash or not new_hash or old_hash == new_hash:
        return 0
    return sum(move(conn, old_hash, new_hash) for move in MOVERS)


def erase_holder(conn: Any, holder_hash: str) -> int:
    """Run every :data:`ERASERS` in the open transaction ``conn``; the rows erased."""
    if not holder_hash:
        return 0
    return sum(erase(conn, holder_hash) for erase in ERASERS)
