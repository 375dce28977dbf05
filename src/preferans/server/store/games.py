"""Saved games: one row per game in a SQL database, through SQLAlchemy Core.

A row holds what it takes to put a player back exactly where they were: the
game record (``preferans-record/1``, replayed through the engine on load), the
difficulty, the rules, the names, the seed the deals are drawn from, the status
(``playing`` or ``finished``), the final balances, and a small summary of the
human's figures for the statistics page (see :mod:`..store.stats`), and
``seats``: which browser holds each human seat (``{"0": sha256 of the seat token}``;
NULL for a game saved before seat tokens: the first browser that continues it claims it).

Writes go through one writer thread per store (:meth:`GameStore.write`), so the event
loop never waits on the disk and saves commit in the order they were made.  Saves queued
while the thread writes are committed together (:meth:`GameStore.save_async`: up to
:data:`GROUP_COMMIT` in one transaction, one ``executemany``); if that transaction fails,
each save of the group is tried again alone, so a bad save fails only its own move.  The
saves of one event-loop iteration reach the thread as one job and a group's outcomes come
back to the loop in one call, so a save costs the loop little more than its future.  A failing
database raises :class:`StoreError`, which names the file and the problem (read-only,
disk full, damaged); a row whose JSON cannot be read comes back with ``damage`` set.

>>> store = GameStore("sqlite://")
>>> row = store.create("g1", difficulty="easy", rules={"preset": "sochi", "pool": 10},
...                    names=["You", "Misha", "Lena"], seed=7, record={"deals": []})
>>> store.get("g1").status
'playing'
>>> store.latest_unfinished().id
'g1'
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import (
    Text,
    bindparam,
    cast,
    create_engine,
    event,
    false,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import StaticPool

from .accounts import AccountStore
from .config import sqlite_file
from .fastjson import EncodedJSON, serializer
from .faults import Fenced, StoreError, database_location, describe_fault
from .holders import erase_holder, move_holder
from .leases import LeaseStore
from .saved import SavedGame, json_object, readable_games, saved_game
from .schema import (
    FINISHED,
    LOBBY,
    PLAYING,
    SCHEMA_LOCK,
    SEED_COLUMN,
    games,
    metadata,
    server_keys,
)
from .writer import Writer

log = logging.getLogger("preferans.server")

T = TypeVar("T")

_SAVE_COLUMNS = ("record", "status", "updated", "result", "summary")
_SAVE = {
    (with_summary, fenced): update(games).where(
        games.c.id == bindparam("b_id"),
        *((games.c.epoch == bindparam("b_epoch"),) if fenced else ())).values(
        **{name: bindparam(f"b_{name}") for name in _SAVE_COLUMNS
           if with_summary or name != "summary"})
    for with_summary in (False, True) for fenced in (False, True)
}
"""The UPDATE of a save (built once: a save per action), with and without the summary, and
with or without the owner's epoch (a table owned by a lease: :class:`Lease`)."""



















def _now() -> datetime:
    return datetime.now(UTC)


def make_engine(url: str) -> Engine:
    """A SQLAlchemy engine for ``url``; a SQLite file's folder is created, memory is shared."""
    if url.startswith("sqlite"):
        path = sqlite_file(url)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            engine = create_engine(url, connect_args={"check_same_thread": False},
                                   poolclass=StaticPool, json_serializer=serializer)
            if "mode=ro" not in url:  # a file opened read-only never writes: no lock to own
                event.listen(engine, "connect", _sqlite_pragmas)
            return engine
        return create_engine(
            url, connect_args={"check_same_thread": False}, poolclass=StaticPool,
            json_serializer=serializer,
        )
    return create_engine(url, pool_pre_ping=True, json_serializer=serializer)


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    """Write-ahead log with normal sync: a save per action stays fast, and a crash of the
    server loses nothing (only a power cut may lose the last moves).

    In exclusive locking mode, set before the log is first used: the server process owns
    the file (one connection, used by one thread at a time: :meth:`GameStore._connect`),
    and SQLite keeps the log's index in its own memory instead of a shared ``-shm`` file
    mapped into the process, where a fault of the file (made read-only or immutable, a
    full disk) is a SIGBUS that kills every table at once; now it fails one save."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA locking_mode=EXCLUSIVE")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


class GameStore(Writer, LeaseStore, AccountStore):
    """The saved games of one database (created on first use); its writer thread
    (:class:`.writer.Writer`) and the tables' leases (:class:`.leases.LeaseStore`) are
    parts of it."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.location = database_location(url)
        """The database as a player reads it: the SQLite file, or the URL without password."""
        self.engine = make_engine(url)
        self._db_lock: contextlib.AbstractContextManager[Any] = (
            threading.RLock() if url.startswith("sqlite") else contextlib.nullcontext())
        """SQLite: one connection, used by one thread at a time (see :func:`make_engine`)."""
        self.fault: StoreError | None = None
        """Why the database could not be prepared on opening (damaged, read-only...), or None:
        the server still starts, and the settings page names the problem."""
        self.last_error: StoreError | None = None
        """Why the last write failed, or None once a write succeeds."""
        self._start_writer()
        try:
            with self.guard():
                self._prepare()
        except StoreError as exc:
            self.fault = exc

    def _prepare(self) -> None:
        """Create the tables, or add the columns an older version did not have, and check
        that the database takes writes (a read-only one is found now, not at the first
        move).  On PostgreSQL one process prepares at a time: several opening a new database
        together (``serve --workers``, several machines) would otherwise race to create the
        same tables."""
        with self._begin() as conn:
            if conn.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
            metadata.create_all(conn)
            columns = {column["name"] for column in inspect(conn).get_columns("games")}
            if "seats" not in columns:
                conn.execute(text("ALTER TABLE games ADD COLUMN seats JSON"))
            if "seed_text" not in columns:
                conn.execute(text("ALTER TABLE games ADD COLUMN seed_text VARCHAR(64)"))
            if "friends" not in columns:
                conn.execute(text("ALTER TABLE games ADD COLUMN friends JSON"))
            if "epoch" not in columns:
                conn.execute(text("ALTER TABLE games ADD COLUMN epoch BIGINT"))
            if "chat" not in columns:
                conn.execute(text("ALTER TABLE games ADD COLUMN chat JSON"))
            conn.execute(update(games).where(false()).values(id=games.c.id))

    @contextmanager
    def _connect(self) -> Iterator[Any]:
        """A connection, held alone while it is used (SQLite's one connection)."""
        with self._db_lock, self.engine.connect() as conn:
            yield conn

    @contextmanager
    def _begin(self) -> Iterator[Any]:
        """A transaction, held alone while it runs (SQLite's one connection)."""
        with self._db_lock, self.engine.begin() as conn:
            yield conn

    @contextmanager
    def guard(self, writing: bool = False) -> Iterator[None]:
        """Turn a database error into a :class:`StoreError` naming the database (a write's
        is kept as :attr:`last_error` until a write succeeds)."""
        try:
            yield
        except (SQLAlchemyError, OSError) as exc:
            problem, detail = describe_fault(exc)
            error = StoreError(self.location, problem, detail)
            # the operator's log has where and the database's own words; a player is told
            # only what failed (:func:`..lang.language.store_message`)
            log.warning("%s", error.message)
            if writing:
                self.last_error = error
            raise error from exc
        if writing:
            self.last_error = None








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
        seats: Mapping[str, str] | None = None,
        friends: Mapping[str, Any] | None = None,
        status: str | None = None,
    ) -> SavedGame:
        """Save a new game (status ``playing``, or ``status``: a friends' table waits in its
        ``lobby``); ``seats`` maps a human seat to the hash of its browser's token,
        ``friends`` describes a table for friends.  Raises :class:`StoreError`."""
        now = _now()
        values = {
            "id": game_id,
            "created": now,
            "updated": now,
            "difficulty": difficulty,
            "rules": dict(rules),
            "names": list(names),
            "seed": seed % SEED_COLUMN,
            "seed_text": str(seed) if not 0 <= seed < SEED_COLUMN else None,
            "record": dict(record),
            "status": status or PLAYING,
            "result": None,
            "summary": dict(summary) if summary is not None else None,
            "seats": dict(seats) if seats is not None else None,
            "friends": dict(friends) if friends is not None else None,
        }

        def insert_row() -> None:
            with self.guard(writing=True), self._begin() as conn:
                conn.execute(insert(games).values(**values))

        self._on_writer(insert_row)
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
        epoch: int | None = None,
    ) -> None:
        """Rewrite a game's record (after every action), its status, result and summary.

        With ``epoch`` (a table owned by a :class:`Lease`) the row is written only while its
        epoch is still that one, in the same statement: once another process has taken the
        table over, :class:`Fenced` is raised and nothing is written.

        Raises :class:`StoreError` when the database fails (nothing is written then), and
        KeyError for an unknown game."""
        values: dict[str, Any] = {"record": record, "status": status, "result": result,
                                  "summary": summary}
        if epoch is not None:
            values["epoch"] = epoch
        with self.guard(writing=True), self._begin() as conn:
            done = self._update(conn, game_id, values)
            if done == 0 and epoch is not None:
                now = conn.execute(select(games.c.epoch).where(games.c.id == game_id)).first()
                if now is not None:
                    raise Fenced(self.location, game_id, epoch, now[0])
        if done == 0:
            raise KeyError(f"no saved game {game_id!r}")

    @staticmethod
    def _update(conn: Any, game_id: str, values: Mapping[str, Any]) -> int:
        """Write one save's row in ``conn``'s transaction; the rows it changed (0: no such
        game).  A record already encoded (:class:`EncodedJSON`) is written as its text."""
        params = GameStore._params(game_id, values)
        return int(conn.execute(_SAVE["b_summary" in params, "b_epoch" in params],
                                params).rowcount)

    def _update_many(self, conn: Any, saves: list[tuple[str, Mapping[str, Any]]]) -> None:
        """Write a group's rows in ``conn``'s transaction: one ``executemany`` per form of the
        UPDATE (with or without the summary) where the driver counts its rows, else one
        statement a save; raises KeyError when a game is missing (the group is then rolled
        back and each save tried alone)."""
        if not self.engine.dialect.supports_sane_multi_rowcount:
            for game_id, values in saves:
                if self._update(conn, game_id, values) == 0:
                    raise KeyError(game_id)
            return
        forms: dict[tuple[bool, bool], list[dict[str, Any]]] = {}
        for game_id, values in saves:
            params = self._params(game_id, values)
            forms.setdefault(("b_summary" in params, "b_epoch" in params), []).append(params)
        for form, rows in forms.items():
            if conn.execute(_SAVE[form], rows).rowcount != len(rows):
                raise KeyError("a game of the group")

    @staticmethod
    def _params(game_id: str, values: Mapping[str, Any]) -> dict[str, Any]:
        """The UPDATE's parameters for one save (see :meth:`_update`)."""
        record, result, summary = values["record"], values.get("result"), values.get("summary")
        params = {
            "b_id": game_id,
            "b_record": record if isinstance(record, EncodedJSON) else dict(record),
            "b_status": values.get("status", PLAYING),
            "b_updated": _now(),
            "b_result": list(result) if result is not None else None,
        }
        if summary is not None:
            params["b_summary"] = dict(summary)
        if values.get("epoch") is not None:
            params["b_epoch"] = values["epoch"]
        return params

    def save_summary(self, game_id: str, summary: Mapping[str, Any]) -> None:
        """Rewrite a game's summary alone (a hint was given).  Raises :class:`StoreError`,
        and KeyError for an unknown game."""
        with self.guard(writing=True), self._begin() as conn:
            done = conn.execute(update(games).where(games.c.id == game_id)
                                .values(summary=dict(summary), updated=_now()))
        if done.rowcount == 0:
            raise KeyError(f"no saved game {game_id!r}")



    def save_chat(self, game_id: str, messages: list[dict[str, Any]]) -> None:
        """Rewrite a friends' table's chat alone (the last messages, bounded by the table).
        Raises :class:`StoreError`, and KeyError for an unknown game."""
        with self.guard(writing=True), self._begin() as conn:
            done = conn.execute(update(games).where(games.c.id == game_id)
                                .values(chat=list(messages)))
        if done.rowcount == 0:
            raise KeyError(f"no saved game {game_id!r}")

    def claim(self, game_id: str, seat: int, token_hash: str) -> bool:
        """Give a free human seat to the browser whose token hashes to ``token_hash``; True
        when the seat is (now or already) that browser's, False when another holds it.
        Run it on the writer thread (:meth:`write`) so two claims cannot interleave."""
        key = str(seat)
        with self.guard(), self._begin() as conn:
            raw = conn.execute(
                select(cast(games.c.seats, Text)).where(games.c.id == game_id)
            ).scalar_one_or_none()
            seats = json_object(raw) or {}
            if key in seats:
                return bool(seats[key] == token_hash)
            seats[key] = token_hash
            conn.execute(update(games).where(games.c.id == game_id).values(seats=seats))
        return True

    def change_friends(self, game_id: str,
                       change: Callable[[dict[str, str], dict[str, Any]], T]) -> T:
        """Change a friends' table in one transaction: ``change(seats, friends)`` edits the
        row's seats and friends in place (raising to change nothing) and says what to
        answer; its ``_row`` key, when it sets one, is written too (``record``, ``names``,
        ``status`` when the game starts).  Run it on the writer thread (:meth:`write`), so
        two browsers taking the same seat cannot interleave.  KeyError: no such table."""
        with self.guard(writing=True), self._begin() as conn:
            row = conn.execute(
                select(cast(games.c.seats, Text).label("seats"),
                       cast(games.c.friends, Text).label("friends")).where(games.c.id == game_id)
            ).first()
            friends = json_object(row.friends) if row is not None else None
            if not isinstance(friends, dict):
                raise KeyError(game_id)
            seats = json_object(row.seats) or {}
            answer = change(seats, friends)
            values: dict[str, Any] = {"seats": seats, "updated": _now()}
            values.update(friends.pop("_row", None) or {})
            values["friends"] = friends
            conn.execute(update(games).where(games.c.id == game_id).values(**values))
        return answer




    def secret(self, name: str) -> bytes:
        """The server's secret ``name`` (32 random bytes), made and kept on first use; the
        same for every process of this database.  Raises :class:`StoreError`."""
        def read() -> str | None:
            with self.guard(), self._connect() as conn:
                return conn.execute(select(server_keys.c.value).where(
                    server_keys.c.name == name)).scalar_one_or_none()

        value = read()
        if value is None:
            def make() -> None:
                with self.guard(writing=True), self._begin() as conn:
                    if conn.execute(select(server_keys.c.value).where(
                            server_keys.c.name == name)).scalar_one_or_none() is None:
                        conn.execute(insert(server_keys).values(
                            name=name, value=secrets.token_hex(32)))

            with contextlib.suppress(StoreError):  # another process made it first: read it
                self._on_writer(make)
            value = read()
            if value is None:
                raise StoreError(self.location, "the server's key cannot be saved", name)
        return bytes.fromhex(value)

    def claim_browser(self, old_hash: str, new_hash: str) -> int:
        """Hand everything the token hashing to ``old_hash`` holds (its games' seats, and
        every other row keyed by it: :data:`.holders.MOVERS`) to ``new_hash``, in one
        transaction; how many rows.  A browser signing in to an account, an older server's
        token replaced by a minted one, an account's token rotated.  Run it on the writer
        thread (:meth:`write`)."""
        with self.guard(writing=True), self._begin() as conn:
            return move_holder(conn, old_hash, new_hash)

    rekey = claim_browser

    def erase_holder(self, holder_hash: str) -> int:
        """Delete everything the token hashing to ``holder_hash`` holds
        (:data:`.holders.ERASERS`), in one transaction; how many rows."""
        with self.guard(writing=True), self._begin() as conn:
            return erase_holder(conn, holder_hash)

    def get(self, game_id: str) -> SavedGame | None:
        """The saved game with this id, or None.  Raises :class:`StoreError`."""
        with self.guard(), self._connect() as conn:
            row = conn.execute(readable_games().where(games.c.id == game_id)).mappings().first()
        return saved_game(row) if row is not None else None

    def raw_record(self, game_id: str) -> str | None:
        """The record column as stored (text), even when it is not valid JSON; or None."""
        with self.guard(), self._connect() as conn:
            return conn.execute(
                select(cast(games.c.record, Text)).where(games.c.id == game_id)
            ).scalar_one_or_none()

    def unfinished(self) -> list[tuple[str, dict[str, str] | None]]:
        """``(id, seats)`` of every game still playing (or a friends' table in its lobby),
        the most recently played first."""
        query = (
            select(games.c.id, cast(games.c.seats, Text).label("seats"))
            .where(games.c.status.in_((PLAYING, LOBBY)))
            .order_by(games.c.updated.desc(), games.c.created.desc())
        )
        with self.guard(), self._connect() as conn:
            return [(row.id, json_object(row.seats)) for row in conn.execute(query)]

    def latest_unfinished(self) -> SavedGame | None:
        """The most recently played game that has not ended (for CONTINUE), or None."""
        query = (
            readable_games()
            .where(games.c.status == PLAYING)
            .order_by(games.c.updated.desc(), games.c.created.desc())
            .limit(1)
        )
        with self.guard(), self._connect() as conn:
            row = conn.execute(query).mappings().first()
        return saved_game(row) if row is not None else None

    def finished_games(self, limit: int = 200) -> list[dict[str, Any]]:
        """The finished games, the most recent first (for the replay viewer's list): ``id``,
        ``updated``, ``difficulty``, ``rules``, ``names``, ``result``, ``summary``,
        ``seats``; a column that is not valid JSON reads as None."""
        query = (
            select(games.c.id, games.c.updated, games.c.difficulty,
                   *(cast(c, Text).label(c.name) for c in
                     (games.c.rules, games.c.names, games.c.result, games.c.summary,
                      games.c.seats)))
            .where(games.c.status == FINISHED)
            .order_by(games.c.updated.desc())
            .limit(limit)
        )
        with self.guard(), self._connect() as conn:
            rows = list(conn.execute(query).mappings())
        return [{"id": r["id"], "updated": r["updated"], "difficulty": r["difficulty"],
                 **{k: json_object(r[k]) for k in ("rules", "names", "result", "summary",
                                                    "seats")}}
                for r in rows]

    def summaries(self) -> list[tuple[str, dict[str, Any] | None]]:
        """``(difficulty, summary)`` of every saved game, for the statistics."""
        query = select(games.c.difficulty, cast(games.c.summary, Text).label("summary"))
        with self.guard(), self._connect() as conn:
            return [(row.difficulty, json_object(row.summary))
                    for row in conn.execute(query.order_by(games.c.created))]

    def games_of_seats(self) -> list[dict[str, Any]]:
        """Every saved game's ``id``, ``updated``, ``status``, ``difficulty`` (``friends``: a
        table for friends), ``names``, ``result``, ``summary`` and ``seats``, the oldest
        first (a browser's statistics: :func:`.stats.of_browser`); a column that is
        not valid JSON reads as None."""
        query = (
            select(games.c.id, games.c.updated, games.c.status, games.c.difficulty,
                   *(cast(c, Text).label(c.name) for c in
                     (games.c.names, games.c.result, games.c.summary, games.c.seats)))
            .order_by(games.c.created)
        )
        with self.guard(), self._connect() as conn:
            rows = list(conn.execute(query).mappings())
        return [{"id": r["id"], "updated": r["updated"], "status": r["status"],
                 "difficulty": r["difficulty"],
                 **{k: json_object(r[k]) for k in ("names", "result", "summary", "seats")}}
                for r in rows]

    def close(self) -> None:
        """Finish the writes in progress and release the database connections."""
        self._stop_writer()
        with self._db_lock:  # SQLite's one connection: not closed under a thread using it
            self.engine.dispose()










