"""The ratings in the store: each rated holder's rating, its history, the ladder.

A finished game is rated once (:func:`rate_finished`): the table that ends it asks, and so
may any process that finds a finished game not rated yet (:func:`rate_unrated`); the
``rated_games`` row, inserted first in the rating's transaction, makes the second try find
it done (its primary key: on PostgreSQL a second process waits for the first one's commit,
then fails the insert and changes nothing).  The holders' rows are read ``FOR UPDATE``, so
two games of the same holder ending in two processes update his rating one after the other.

Which seats count, and for whom, is :mod:`preferans.rating.games` (pure); the computer
levels start from their seed (:func:`preferans.rating.seed.load_seed`) the first time they
are rated here.

Holders move with the accounts: :func:`move_holder` merges a browser's rating into an
account's on sign-in, :func:`forget_holder` deletes a holder's rating and history.

>>> from .games import GameStore
>>> store = GameStore("sqlite://")
>>> rating_of(store, "ab12").shown()
'25.0 ± 16.7'

"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import Text, and_, cast, delete, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from ...rating.games import Change, RatedSeat, rate_game, rated_seats
from ...rating.model import Rating
from ...rating.seed import LEVELS, level_holder, load_seed
from .faults import StoreError
from .saved import json_object
from .schema import FINISHED, PLAYING, games, rated_games, rating_history, ratings

if TYPE_CHECKING:
    from .games import GameStore

ABANDONED_DAYS = 7
"""A game of a rated kind left unfinished this long (with at least one deal played) is rated
as it stands (the sheet settled as an early finish settles it), so that leaving a game one
is losing does not keep it off the rating.  Played on later, it is not rated again."""
HISTORY_MOST = 500
"""The most history points a holder's plot gets (the latest)."""
LADDER_MOST = 200
"""The most listed players the ladder shows (the best by the lower end of the interval)."""


def _now() -> datetime:
    return datetime.now(UTC)


def game_seats(store: GameStore, game_id: str) -> list[RatedSeat] | None:
    """The seats of a finished game (or one abandoned :data:`ABANDONED_DAYS` ago) as they
    enter its rating (empty: unrated), or None when the game is neither (or not there).
    Replays the record: run it off the loop."""
    query = select(games.c.status, games.c.difficulty, games.c.updated,
                   *(cast(c, Text).label(c.name) for c in
                     (games.c.rules, games.c.seats, games.c.friends, games.c.record,
                      games.c.result))).where(games.c.id == game_id)
    with store.guard(), store._connect() as conn:
        row = conn.execute(query).mappings().first()
    if row is None or row["status"] not in (FINISHED, PLAYING):
        return None
    rules = json_object(row["rules"]) or {}
    result = json_object(row["result"])
    record = json_object(row["record"])
    if row["status"] == PLAYING:
        if not _abandoned(row["updated"]) or not isinstance(record, dict):
            return None
        result = _standing(record)
        if result is None:
            return None
    if not isinstance(result, list) or not isinstance(record, dict):
        return []
    seats = json_object(row["seats"])
    friends = json_object(row["friends"])
    return rated_seats(difficulty=row["difficulty"], players=int(rules.get("players") or 3),
                       seats=seats if isinstance(seats, dict) else None,
                       friends=friends if isinstance(friends, dict) else None,
                       record=record, balance=[float(b) for b in result])


def _cutoff() -> datetime:
    return _now() - timedelta(days=ABANDONED_DAYS)


def _abandoned(updated: Any) -> bool:
    if not isinstance(updated, datetime):
        return False
    if updated.tzinfo is None:  # SQLite gives the stored UTC time back naive
        updated = updated.replace(tzinfo=UTC)
    return updated < _cutoff()


def _standing(record: dict[str, Any]) -> list[float] | None:
    """An unfinished game's balances as an early finish settles them (None: no deal
    finished yet, or a record that does not replay)."""
    from ...game import Game

    try:
        game = Game.from_record(record)
    except Exception:  # a damaged record: not rated
        return None
    if not game.finished_deals:
        return None
    return [float(b) for b in game.sheet.balance()]


def _read(conn: Any, holders: Sequence[str], lock: bool = False) -> dict[str, Rating]:
    query = select(ratings.c.holder, ratings.c.mu, ratings.c.sigma, ratings.c.games).where(
        ratings.c.holder.in_(sorted(set(holders))))
    if lock and conn.dialect.name == "postgresql":
        query = query.with_for_update()
    found = {r.holder: Rating(r.mu, r.sigma, r.games) for r in conn.execute(query)}
    seed = load_seed()
    for holder in holders:
        if holder not in found and holder in seed:
            found[holder] = seed[holder]
    return found


def apply_rating(store: GameStore, game_id: str, seats: Sequence[RatedSeat]
                 ) -> list[Change] | None:
    """Rate a finished game whose seats are ``seats`` (:func:`game_seats`), in one
    transaction; None when it was rated before (by this process or another).  Run it on the
    writer thread (:meth:`GameStore.write`)."""
    for attempt in range(3):
        try:
            return _apply(store, game_id, seats)
        except (IntegrityError, StoreError) as exc:
            # the store's guard reports the database's refusal as a StoreError from it
            if isinstance(exc, StoreError) and not isinstance(exc.__cause__, IntegrityError):
                raise
            # the game rated meanwhile, or a new holder's row made by another process
            with store.guard(), store._connect() as conn:
                if conn.execute(select(rated_games.c.game_id).where(
                        rated_games.c.game_id == game_id)).first() is not None:
                    return None
            if attempt == 2:
                raise
    return None


def _apply(store: GameStore, game_id: str, seats: Sequence[RatedSeat]) -> list[Change] | None:
    now = _now()
    with store.guard(writing=True), store._begin() as conn:
        if conn.execute(select(rated_games.c.game_id).where(
                rated_games.c.game_id == game_id)).first() is not None:
            return None
        counted = [s for s in seats if s.counts]
        conn.execute(insert(rated_games).values(game_id=game_id, at=now,
                                                holders=len({s.holder for s in counted})))
        if not counted:
            return []
        holders = [s.holder for s in seats]
        current = _read(conn, holders, lock=True)
        existing = set(conn.execute(select(ratings.c.holder).where(
            ratings.c.holder.in_(sorted(set(holders))))).scalars())
        changes = rate_game(seats, current)
        for change in changes:
            values = {"mu": change.after.mu, "sigma": change.after.sigma,
                      "games": change.after.games, "updated": now}
            if change.holder in existing:
                conn.execute(update(ratings).where(ratings.c.holder == change.holder)
                             .values(**values))
            else:
                conn.execute(insert(ratings).values(holder=change.holder, listed=False,
                                                    name=None, **values))
            conn.execute(insert(rating_history).values(
                game_id=game_id, holder=change.holder, at=now, mu=change.after.mu,
                sigma=change.after.sigma, place=change.place,
                delta=change.after.mu - change.before.mu))
        return changes


def rate_finished(store: GameStore, game_id: str) -> list[Change] | None:
    """Rate a finished (or abandoned) game if it is not rated yet (blocking: reads, replays,
    then writes on the writer thread); the changes, [] for an unrated game, None when done
    before or the game has not ended."""
    seats = game_seats(store, game_id)
    if seats is None:
        return None
    return store.write_now(apply_rating, store, game_id, seats)


def rate_unrated(store: GameStore, limit: int = 100,
                 stop: Callable[[], bool] | None = None) -> int:
    """Rate the finished games not rated yet (a process that stopped between a game's end
    and its rating) and the games abandoned :data:`ABANDONED_DAYS` ago, the oldest first, at
    most ``limit``, until ``stop()`` says so; how many were rated now."""
    done = select(rated_games.c.game_id)
    ended = or_(games.c.status == FINISHED,
                and_(games.c.status == PLAYING, games.c.updated < _cutoff()))
    query = (select(games.c.id).where(ended)
             .where(games.c.id.not_in(done)).order_by(games.c.updated).limit(limit))
    with store.guard(), store._connect() as conn:
        ids = list(conn.execute(query).scalars())
    done = 0
    for game_id in ids:
        if stop is not None and stop():
            break
        done += bool(rate_finished(store, game_id))
    return done


def rating_of(store: GameStore, holder: str | None) -> Rating:
    """A holder's rating now (a new player's when he has none; a level's seed)."""
    if not holder:
        return Rating()
    with store.guard(), store._connect() as conn:
        return _read(conn, [holder]).get(holder, Rating())


def history(store: GameStore, holder: str | None) -> list[dict[str, Any]]:
    """A holder's rating after each of his rated games, the oldest first (at most
    :data:`HISTORY_MOST`, the latest): ``at``, ``mu``, ``sigma``, ``place``, ``delta``.
    Nothing names the game or the other players."""
    if not holder:
        return []
    query = (select(rating_history.c.at, rating_history.c.mu, rating_history.c.sigma,
                    rating_history.c.place, rating_history.c.delta)
             .where(rating_history.c.holder == holder)
             .order_by(rating_history.c.at.desc()).limit(HISTORY_MOST))
    with store.guard(), store._connect() as conn:
        rows = list(conn.execute(query))
    return [{"at": r.at.isoformat() if hasattr(r.at, "isoformat") else str(r.at),
             "mu": round(r.mu, 3), "sigma": round(r.sigma, 3), "place": r.place,
             "delta": round(r.delta, 3)} for r in reversed(rows)]


def game_changes(store: GameStore, game_id: str, held: dict[int, str]) -> dict[str, Any]:
    """What a game did to the ratings of the ``held`` seats' holders (seat → holder):
    ``{"done": whether the game has been rated, "seats": {seat: {"mu", "sigma", "shown",
    "change", "place"}}}``; a seat the game did not move (its holder in two seats, a seat
    played mostly by the stand-in, an unrated game) is left out. Nothing names a holder."""
    holders = sorted(set(held.values()))
    with store.guard(), store._connect() as conn:
        done = conn.execute(select(rated_games.c.game_id).where(
            rated_games.c.game_id == game_id)).first() is not None
        rows = {r.holder: r for r in conn.execute(
            select(rating_history.c.holder, rating_history.c.mu, rating_history.c.sigma,
                   rating_history.c.place, rating_history.c.delta)
            .where(rating_history.c.game_id == game_id)
            .where(rating_history.c.holder.in_(holders)))} if done and holders else {}
    seats = {}
    for seat, holder in sorted(held.items()):
        row = rows.get(holder)
        if row is not None:
            seats[str(seat)] = {"mu": round(row.mu, 3), "sigma": round(row.sigma, 3),
                                "shown": Rating(row.mu, row.sigma).shown(),
                                "change": round(row.delta, 3), "place": row.place}
    return {"done": done, "seats": seats}


def listing(store: GameStore, holder: str | None) -> tuple[bool, str | None]:
    """Whether a holder chose to be on the ladder, and under which name."""
    if not holder:
        return False, None
    with store.guard(), store._connect() as conn:
        row = conn.execute(select(ratings.c.listed, ratings.c.name)
                           .where(ratings.c.holder == holder)).first()
    return (bool(row.listed), row.name) if row is not None else (False, None)


def set_listing(store: GameStore, holder: str, listed: bool, name: str | None) -> bool:
    """A holder's choice to be on the ladder (under ``name``) or not; False when he has no
    rating yet (nothing is made for a holder the games have not rated).  Run it on the
    writer thread (:meth:`GameStore.write`)."""
    with store.guard(writing=True), store._begin() as conn:
        done = conn.execute(update(ratings).where(ratings.c.holder == holder)
                            .where(ratings.c.holder.not_like("level:%"))
                            .values(listed=listed, name=name))
    return bool(done.rowcount)


def listed_names(store: GameStore, besides: str) -> list[str]:
    """The names the other listed players show on the ladder (a new name must not be one
    of them, nor look like one)."""
    query = select(ratings.c.name).where(ratings.c.listed.is_(True),
                                         ratings.c.holder != besides,
                                         ratings.c.name.is_not(None))
    with store.guard(), store._connect() as conn:
        return [str(name) for name in conn.execute(query).scalars()]


def ladder(store: GameStore, me: str | None = None) -> list[dict[str, Any]]:
    """The ladder: the listed players with at least one rated game and the four computer
    levels, the best first by the lower end of the interval (``mu − 2·sigma``).  Each entry:
    ``name`` (a player's chosen one; a level's ``level``), ``kind`` (``player``, ``level``),
    ``rating`` (a :class:`Rating`), ``you`` (the entry is ``me``'s); never a holder's id."""
    query = (select(ratings.c.holder, ratings.c.mu, ratings.c.sigma, ratings.c.games,
                    ratings.c.name)
             .where(ratings.c.listed.is_(True), ratings.c.games > 0,
                    ratings.c.holder.not_like("level:%"))
             .order_by((ratings.c.mu - 2 * ratings.c.sigma).desc()).limit(LADDER_MOST))
    with store.guard(), store._connect() as conn:
        rows = list(conn.execute(query))
        levels = _read(conn, [level_holder(level) for level in LEVELS])
    entries: list[dict[str, Any]] = [
        {"kind": "player", "name": r.name or "?", "you": bool(me) and r.holder == me,
         "rating": Rating(r.mu, r.sigma, r.games)} for r in rows]
    entries += [{"kind": "level", "name": level, "you": False,
                 "rating": levels[level_holder(level)]} for level in LEVELS]
    entries.sort(key=lambda e: -e["rating"].low)
    return entries


def placement(store: GameStore, rating: Rating) -> tuple[str | None, str | None]:
    """The computer levels just below and just above ``rating`` on the ladder (by the lower
    end of the interval): ``(below, above)``, None past the ends."""
    with store.guard(), store._connect() as conn:
        levels = _read(conn, [level_holder(level) for level in LEVELS])
    ordered = sorted(LEVELS, key=lambda lv: levels[level_holder(lv)].low)
    below = [lv for lv in ordered if levels[level_holder(lv)].low <= rating.low]
    above = [lv for lv in ordered if levels[level_holder(lv)].low > rating.low]
    return (below[-1] if below else None), (above[0] if above else None)


def move_rating(conn: Any, old_hash: str, new_hash: str) -> int:
    """Merge a browser's rating (``old_hash``) into an account's (``new_hash``) in the open
    transaction ``conn`` (a mover of the accounts' holder moves); the rows changed.

    Ratings cannot be added up: each is the result of its own games against opponents whose
    ratings moved meanwhile, and replaying them would change those opponents too.  So when
    only one of the two has a rating, it becomes the account's; when both have, the one with
    more rated games is kept (the account's on a tie) with its history, and the other's
    rating and history are dropped.  The ladder choice is kept if either made it (the
    account's name first)."""
    if not old_hash or not new_hash or old_hash == new_hash or old_hash.startswith("level:"):
        return 0
    rows = {r.holder: r for r in conn.execute(
        select(ratings).where(ratings.c.holder.in_([old_hash, new_hash])))}
    old, new = rows.get(old_hash), rows.get(new_hash)
    if old is None:
        return 0
    listed = bool(old.listed) or bool(new is not None and new.listed)
    name = (new.name if new is not None and new.name else None) or old.name
    if new is None or old.games > new.games:
        changed = conn.execute(delete(rating_history).where(
            rating_history.c.holder == new_hash)).rowcount
        conn.execute(delete(ratings).where(ratings.c.holder == new_hash))
        changed += conn.execute(update(rating_history).where(
            rating_history.c.holder == old_hash).values(holder=new_hash)).rowcount
        conn.execute(update(ratings).where(ratings.c.holder == old_hash)
                     .values(holder=new_hash, listed=listed, name=name))
    else:
        changed = conn.execute(delete(rating_history).where(
            rating_history.c.holder == old_hash)).rowcount
        conn.execute(delete(ratings).where(ratings.c.holder == old_hash))
        conn.execute(update(ratings).where(ratings.c.holder == new_hash)
                     .values(listed=listed, name=name))
    return int(changed) + 1


def erase_rating(conn: Any, holder: str) -> int:
    """Delete a holder's rating and its history in the open transaction ``conn`` (an
    eraser of the accounts' holder erasers); the games stay rated for the other players.
    The rows deleted."""
    if not holder or holder.startswith("level:"):
        return 0
    gone = conn.execute(delete(rating_history).where(rating_history.c.holder == holder))
    row = conn.execute(delete(ratings).where(ratings.c.holder == holder))
    return int(gone.rowcount) + int(row.rowcount)


def move_holder(store: GameStore, old_hash: str, new_hash: str) -> bool:
    """:func:`move_rating` in a transaction of its own; True when anything moved.  Run it on
    the writer thread."""
    with store.guard(writing=True), store._begin() as conn:
        return move_rating(conn, old_hash, new_hash) > 0


def forget_holder(store: GameStore, holder: str) -> int:
    """:func:`erase_rating` in a transaction of its own (an account deleted); how many rows
    went.  Run it on the writer thread."""
    with store.guard(writing=True), store._begin() as conn:
        return erase_rating(conn, holder)


def table_ratings(store: GameStore, seats: dict[str, str] | None,
                  friends: dict[str, Any] | None) -> list[dict[str, Any] | None]:
    """Each seat's rating at a table for friends, as its plate and the lobby show it
    (``mu``, ``sigma``, ``shown``, ``games``; None for a seat nobody has taken): a friend's
    own, a computer's level's.  Nothing names the holder."""
    places = [p for p in (friends or {}).get("seats") or [] if isinstance(p, dict)]
    holders: list[str | None] = []
    for seat, place in enumerate(places):
        level = place.get("level")
        if place.get("kind") == "computer" and level in LEVELS:
            holders.append(level_holder(str(level)))
        else:
            holder = (seats or {}).get(str(seat))
            holders.append(holder if isinstance(holder, str) and holder else None)
    known = [h for h in holders if h]
    with store.guard(), store._connect() as conn:
        found = _read(conn, known) if known else {}
    return [None if h is None else {
        k: v for k, v in found.get(h, Rating()).to_json().items()
        if k in ("mu", "sigma", "games", "shown")} for h in holders]
