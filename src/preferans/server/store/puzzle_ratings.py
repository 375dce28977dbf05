"""The puzzle ratings in the store: each holder's rating (:mod:`preferans.puzzles.rating`),
how many puzzles he solved of those he tried, and which he tried.

A holder's first try at a puzzle rates him (:func:`rate_try`); another try at the same
puzzle (the page reloaded, the puzzle of the day again) changes nothing. A browser that kept
its rating itself before the server kept it (in its local storage) hands it over once, with
its first try here: it is taken only while the holder has none.

The rows move and go with their holder (:mod:`.holders`): signing in merges a browser's
puzzle rating into the account's (:func:`move_puzzle_rating`), deleting an account erases it
(:func:`erase_puzzle_rating`).

>>> from .games import GameStore
>>> store = GameStore("sqlite://")
>>> puzzle_rating(store, "ab12") is None
True
>>> after = rate_try(store, "ab12", "p0123456789a", grade=2, solved=True)
>>> after["counted"], after["tried"], after["solved"], after["mu"] > 25
(True, 1, 1, True)
>>> rate_try(store, "ab12", "p0123456789a", grade=2, solved=False)["counted"]
False
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, insert, select, update

from ...puzzles.rating import checked, new_rating, rate, shown
from .schema import puzzle_ratings, puzzle_tries

if TYPE_CHECKING:
    from .games import GameStore


def _json(row: Any) -> dict[str, Any]:
    return {"mu": row.mu, "sigma": row.sigma, "shown": shown(row.mu, row.sigma),
            "solved": int(row.solved), "tried": int(row.tried)}


def puzzle_rating(store: GameStore, holder: str | None) -> dict[str, Any] | None:
    """A holder's puzzle rating (``mu``, ``sigma``, ``shown``, ``solved``, ``tried``), or
    None: he has tried no puzzle here."""
    if not holder:
        return None
    with store.guard(), store._connect() as conn:
        row = conn.execute(select(puzzle_ratings).where(
            puzzle_ratings.c.holder == holder)).first()
    return None if row is None else _json(row)


def kept_rating(kept: Any) -> dict[str, Any] | None:
    """A rating a browser kept itself (``{"mu", "sigma", "solved", "tried"}``), checked (it
    is data), or None when it is not one."""
    if not isinstance(kept, dict):
        return None
    try:
        mu, sigma = checked(kept.get("mu"), kept.get("sigma"))
    except ValueError:
        return None
    counts = [kept.get("solved"), kept.get("tried")]
    if not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 100_000
               for n in counts) or counts[0] > counts[1]:
        return None
    return {"mu": mu, "sigma": sigma, "solved": counts[0], "tried": counts[1]}


def rate_try(store: GameStore, holder: str, puzzle_id: str, grade: int, solved: bool,
             kept: dict[str, Any] | None = None) -> dict[str, Any]:
    """Rate ``holder``'s try at a puzzle of ``grade`` (blocking: run it off the loop): his
    rating after it, with ``counted`` (False: he had tried this puzzle before, nothing
    changed). ``kept``: the rating his browser kept before (:func:`kept_rating`), taken only
    if he has none here."""
    return store.write_now(_rate, store, holder, puzzle_id, grade, solved, kept)


def _rate(store: GameStore, holder: str, puzzle_id: str, grade: int, solved: bool,
          kept: dict[str, Any] | None) -> dict[str, Any]:
    now = datetime.now(UTC)
    with store.guard(writing=True), store._begin() as conn:
        query = select(puzzle_ratings).where(puzzle_ratings.c.holder == holder)
        if conn.dialect.name == "postgresql":
            query = query.with_for_update()
        row = conn.execute(query).first()
        tried = conn.execute(select(puzzle_tries.c.puzzle_id).where(
            puzzle_tries.c.holder == holder, puzzle_tries.c.puzzle_id == puzzle_id)).first()
        if tried is not None and row is not None:
            return {**_json(row), "counted": False}
        if row is not None:
            start = {"mu": row.mu, "sigma": row.sigma, "solved": int(row.solved),
                     "tried": int(row.tried)}
        else:
            start = kept or {**new_rating(), "solved": 0, "tried": 0}
        after = rate(start, grade, solved)
        values = {"mu": after["mu"], "sigma": after["sigma"],
                  "solved": start["solved"] + int(solved), "tried": start["tried"] + 1,
                  "updated": now}
        if row is None:
            conn.execute(insert(puzzle_ratings).values(holder=holder, **values))
        else:
            conn.execute(update(puzzle_ratings).where(puzzle_ratings.c.holder == holder)
                         .values(**values))
        conn.execute(insert(puzzle_tries).values(holder=holder, puzzle_id=puzzle_id, at=now,
                                                 solved=solved))
    return {"mu": values["mu"], "sigma": values["sigma"],
            "shown": shown(values["mu"], values["sigma"]), "solved": values["solved"],
            "tried": values["tried"], "counted": True}


def move_puzzle_rating(conn: Any, old_hash: str, new_hash: str) -> int:
    """Merge a browser's puzzle rating (``old_hash``) into an account's (``new_hash``) in
    the open transaction ``conn`` (a mover of :mod:`.holders`); the rows changed. As with the
    game rating, ratings cannot be added up: the one of more tries is kept (the account's on
    a tie); the puzzles either tried stay tried."""
    if not old_hash or not new_hash or old_hash == new_hash:
        return 0
    rows = {r.holder: r for r in conn.execute(select(puzzle_ratings).where(
        puzzle_ratings.c.holder.in_([old_hash, new_hash])))}
    old, new = rows.get(old_hash), rows.get(new_hash)
    changed = 0
    if old is not None:
        if new is None:
            changed += conn.execute(update(puzzle_ratings).where(
                puzzle_ratings.c.holder == old_hash).values(holder=new_hash)).rowcount
        else:
            if old.tried > new.tried:
                changed += conn.execute(update(puzzle_ratings).where(
                    puzzle_ratings.c.holder == new_hash).values(
                    mu=old.mu, sigma=old.sigma, solved=old.solved, tried=old.tried,
                    updated=old.updated)).rowcount
            changed += conn.execute(delete(puzzle_ratings).where(
                puzzle_ratings.c.holder == old_hash)).rowcount
    theirs = set(conn.execute(select(puzzle_tries.c.puzzle_id).where(
        puzzle_tries.c.holder == new_hash)).scalars())
    for puzzle_id in conn.execute(select(puzzle_tries.c.puzzle_id).where(
            puzzle_tries.c.holder == old_hash)).scalars().all():
        if puzzle_id in theirs:
            conn.execute(delete(puzzle_tries).where(puzzle_tries.c.holder == old_hash,
                                                    puzzle_tries.c.puzzle_id == puzzle_id))
        else:
            conn.execute(update(puzzle_tries).where(
                puzzle_tries.c.holder == old_hash, puzzle_tries.c.puzzle_id == puzzle_id)
                .values(holder=new_hash))
        changed += 1
    return changed


def erase_puzzle_rating(conn: Any, holder: str) -> int:
    """A deleted holder's puzzle rating and tries gone (an eraser of :mod:`.holders`)."""
    return (conn.execute(delete(puzzle_ratings).where(puzzle_ratings.c.holder == holder))
            .rowcount + conn.execute(delete(puzzle_tries).where(
                puzzle_tries.c.holder == holder)).rowcount)
