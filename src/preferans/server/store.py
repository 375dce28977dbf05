"""Saved games: one row per game in a SQL database, through SQLAlchemy Core.

A row holds what it takes to put a player back exactly where they were: the
game record (``preferans-record/1``, replayed through the engine on load), the
difficulty, the rules, the names, the seed the deals are drawn from, the status
(``playing`` or ``finished``), the final balances, and a small summary of the
human's figures for the statistics page (see :mod:`preferans.server.stats`), and
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

import asyncio
import contextlib
import functools
import json
import logging
import queue
import secrets
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    DateTime,
    MetaData,
    String,
    Table,
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
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import StaticPool

from .config import sqlite_file
from .fastjson import EncodedJSON, serializer

log = logging.getLogger("preferans.server")

PLAYING = "playing"
FINISHED = "finished"
LOBBY = "lobby"
"""A friends' table whose creator has not started the game yet."""

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
    Column("seats", JSON, nullable=True),
    Column("seed_text", String(64), nullable=True),
    Column("friends", JSON, nullable=True),
    Column("epoch", BigInteger, nullable=True),
)
"""The games table: one row per game, rewritten after every action.  ``seats`` (added
later: an older database gets the column on opening) maps a human seat ("0") to the
sha256 of the token of the browser that holds it.  ``seed_text`` (added later) holds a seed
too large for the ``seed`` column (the server's seeds have 128 bits), which then holds its
low 63 bits.  ``epoch`` (added later) is the fencing number of the table's current owner
when several server processes share the database (:class:`Lease`); NULL for a game only
ever played by one process."""

table_leases = Table(
    "table_leases",
    metadata,
    Column("game_id", String(40), primary_key=True),
    Column("owner", String(64), nullable=False),
    Column("epoch", BigInteger, nullable=False),
    Column("expires_ms", BigInteger, nullable=False),
    Column("renewals", BigInteger, nullable=False, default=0),
)
"""Which server process owns each open table when several share the database: its
``owner`` (a process's name), the ``epoch`` (raised at every change of owner and copied
into the game's row, where every save of the owner is checked against it: fencing) and
when the lease ends (``expires_ms``, milliseconds since 1970 UTC) unless renewed."""

server_keys = Table(
    "server_keys",
    metadata,
    Column("name", String(40), primary_key=True),
    Column("value", String(200), nullable=False),
)
"""Secrets the server keeps across restarts (and shares between its processes): the key that
signs the seat tokens it mints."""

SEED_COLUMN = 2**63
"""Seeds below this fit the ``seed`` column; larger ones are kept whole in ``seed_text``."""

T = TypeVar("T")

GROUP_COMMIT = 64
"""The most saves the writer thread commits in one transaction."""

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
_STOP = object()

_Save = tuple[str, dict[str, Any], "asyncio.Future[None]"]
"""A save waiting for the writer thread: the game, its values, the future its caller awaits."""


def _settle(outcomes: list[tuple[asyncio.Future[None], BaseException | None]]) -> None:
    """On the event loop: give each save's caller its outcome (None: committed)."""
    for future, error in outcomes:
        if future.done():
            continue
        if error is None:
            future.set_result(None)
        else:
            future.set_exception(error)


SCHEMA_LOCK = 0x7072656665720001
"""The PostgreSQL advisory lock held while a process prepares the tables
(:meth:`GameStore._prepare`)."""


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


@dataclass(frozen=True)
class Lease:
    """Who owns a table (see ``table_leases``): ``owner``, ``epoch``, and ``expires_ms``."""

    game_id: str
    owner: str
    epoch: int
    expires_ms: int
    renewals: int = 0

    def live(self, now_ms: int | None = None) -> bool:
        """Whether the lease has not run out (at ``now_ms``, default now)."""
        return self.expires_ms > (now_ms if now_ms is not None else now_ms_())


def now_ms_() -> int:
    """Milliseconds since 1970 UTC (the clock of the leases: the processes' clocks are
    assumed to agree within a fraction of the lease time, as NTP keeps them)."""
    return time.time_ns() // 1_000_000


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
    """A table for friends: who sits where, the invite, the clock (:mod:`.friends`); None
    for a game against the computer."""

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


class GameStore:
    """The saved games of one database (created on first use)."""

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
        self._jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._batches: dict[asyncio.AbstractEventLoop, list[_Save]] = {}
        """Saves made in the current iteration of each event loop, not handed over yet."""
        self._closed = False
        self._writer = threading.Thread(target=self._write_forever, name="preferans-store",
                                        daemon=True)
        self._writer.start()
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
            # only what failed (:func:`.lang.store_message`)
            log.warning("%s", error.message)
            if writing:
                self.last_error = error
            raise error from exc
        if writing:
            self.last_error = None

    async def write(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run ``fn`` (a write: :meth:`save`, :meth:`claim`) on the store's writer thread,
        after every write submitted before it; the event loop goes on meanwhile."""
        self._hand_over(asyncio.get_running_loop())  # the saves made before it go first
        return await asyncio.wrap_future(self._submit("call", functools.partial(fn, *args,
                                                                                **kwargs)))

    def write_now(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """:meth:`write` from a thread that may block (a route run in the thread pool)."""
        return self._submit("call", functools.partial(fn, *args, **kwargs)).result()

    def _on_writer(self, job: Callable[[], T]) -> T:
        """Run a write on the writer thread and wait for it, so that a write from another
        thread (a new game, from a route in the thread pool) never contends with the saves
        for SQLite's lock (it timed out after 5 s under full load); directly on the writer
        thread itself or once the store is closed."""
        if self._closed or threading.current_thread() is self._writer:
            return job()
        return self._submit("call", job).result()

    def _submit(self, kind: str, job: Any) -> Future[Any]:
        if self._closed:
            raise RuntimeError("the store is closed")
        future: Future[Any] = Future()
        self._jobs.put((kind, job, future))
        return future

    def _write_forever(self) -> None:
        """The writer thread: each job in turn; consecutive saves as one group."""
        pending: Any = None
        while True:
            item = pending if pending is not None else self._jobs.get()
            pending = None
            if item is _STOP:
                self._refuse_left()
                return
            kind, job, future = item
            if kind == "call":
                if future.set_running_or_notify_cancel():
                    try:
                        future.set_result(job())
                    except BaseException as exc:
                        future.set_exception(exc)
                continue
            group: list[_Save] = list(job)
            while len(group) < GROUP_COMMIT:
                try:
                    following = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if following is _STOP or following[0] != "saves":
                    pending = following
                    break
                group.extend(following[1])
            self._save_group(group)

    def _refuse_left(self) -> None:
        """Once stopped: fail what was queued behind the stop (nothing waits for ever)."""
        closed = RuntimeError("the store is closed")
        while True:
            try:
                kind, job, future = self._jobs.get_nowait()
            except queue.Empty:
                return
            except (TypeError, ValueError):  # a second stop
                continue
            if kind == "saves":
                for _, _, waiting in job:
                    with contextlib.suppress(RuntimeError):
                        waiting.get_loop().call_soon_threadsafe(_settle, [(waiting, closed)])
            elif future.set_running_or_notify_cancel():
                future.set_exception(closed)

    def _save_group(self, group: list[_Save]) -> None:
        """Commit saves in one transaction; if it fails, each alone (:meth:`save`), so only
        the saves that cannot be written fail.  Their futures are settled on their event
        loop, one call for the whole group (one wake-up of the loop, not one per save)."""
        group = [save for save in group if not save[2].done()]  # its caller stopped waiting
        outcomes: list[tuple[asyncio.Future[None], BaseException | None]] = []
        if len(group) > 1:
            try:
                with self.guard(writing=True), self._begin() as conn:
                    self._update_many(conn, [(game_id, values) for game_id, values, _ in group])
            except Exception:
                pass  # tried again one by one below, where each save fails on its own
            else:
                outcomes = [(future, None) for _, _, future in group]
        if not outcomes:
            for game_id, values, future in group:
                try:
                    self.save(game_id, **values)
                except BaseException as exc:
                    outcomes.append((future, exc))
                else:
                    outcomes.append((future, None))
        by_loop: dict[asyncio.AbstractEventLoop, list[Any]] = {}
        for outcome in outcomes:
            by_loop.setdefault(outcome[0].get_loop(), []).append(outcome)
        for loop, settled in by_loop.items():
            with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits
                loop.call_soon_threadsafe(_settle, settled)

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

    async def save_async(self, game_id: str, **values: Any) -> None:
        """:meth:`save` on the writer thread (see :meth:`write`), committed together with the
        saves queued with it; raises as :meth:`save` does.

        The saves made in one iteration of the event loop go to the writer thread as one
        job, and each group's outcomes come back in one call: a save costs the loop no
        thread-safe future and no wake-up of its own."""
        if self._closed:
            raise RuntimeError("the store is closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        batch = self._batches.get(loop)
        if batch is None:
            batch = self._batches[loop] = []
            loop.call_soon(self._hand_over, loop)
        batch.append((game_id, values, future))
        await future

    def _hand_over(self, loop: asyncio.AbstractEventLoop) -> None:
        """Give the saves of this loop iteration to the writer thread (at its end)."""
        batch = self._batches.pop(loop, None)
        if not batch:
            return
        if self._closed:
            _settle([(future, RuntimeError("the store is closed")) for _, _, future in batch])
            return
        self._jobs.put(("saves", batch, None))

    def claim(self, game_id: str, seat: int, token_hash: str) -> bool:
        """Give a free human seat to the browser whose token hashes to ``token_hash``; True
        when the seat is (now or already) that browser's, False when another holds it.
        Run it on the writer thread (:meth:`write`) so two claims cannot interleave."""
        key = str(seat)
        with self.guard(), self._begin() as conn:
            raw = conn.execute(
                select(cast(games.c.seats, Text)).where(games.c.id == game_id)
            ).scalar_one_or_none()
            seats = _json_object(raw) or {}
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
            friends = _json_object(row.friends) if row is not None else None
            if not isinstance(friends, dict):
                raise KeyError(game_id)
            seats = _json_object(row.seats) or {}
            answer = change(seats, friends)
            values: dict[str, Any] = {"seats": seats, "updated": _now()}
            values.update(friends.pop("_row", None) or {})
            values["friends"] = friends
            conn.execute(update(games).where(games.c.id == game_id).values(**values))
        return answer

    # --- leases: one owner per table when several processes share the database -----------
    def acquire(self, game_id: str, owner: str, ttl_ms: int) -> Lease:
        """Take the lease of a table for ``owner`` for ``ttl_ms`` when nobody holds it or its
        holder's lease ran out (a new epoch, written into the game's row in the same
        transaction, so the old owner's saves are refused from now on: :meth:`save`); keep
        it (same epoch, a new expiry) when ``owner`` holds it already.  Returns the lease as
        it stands: ``owner`` says whether it was taken.  The game's row is locked first, so
        two processes taking it at once, or a save in flight, are serialised.  Raises
        KeyError for an unknown game, :class:`StoreError` when the database fails."""
        now = now_ms_()
        with self.guard(writing=True), self._begin() as conn:
            game = conn.execute(select(games.c.epoch).where(games.c.id == game_id)
                                .with_for_update()).first()
            if game is None:
                raise KeyError(f"no saved game {game_id!r}")
            row = conn.execute(select(table_leases).where(table_leases.c.game_id == game_id)
                               .with_for_update()).mappings().first()
            if row is not None and row["expires_ms"] > now:
                if row["owner"] != owner:
                    return _lease(row)
                conn.execute(update(table_leases).where(table_leases.c.game_id == game_id)
                             .values(expires_ms=now + ttl_ms))
                return Lease(game_id, owner, int(row["epoch"]), now + ttl_ms,
                             int(row["renewals"] or 0))
            epoch = max(int(row["epoch"]) if row is not None else 0, int(game[0] or 0)) + 1
            values = {"owner": owner, "epoch": epoch, "expires_ms": now + ttl_ms,
                      "renewals": 0}
            if row is None:
                conn.execute(insert(table_leases).values(game_id=game_id, **values))
            else:
                conn.execute(update(table_leases).where(table_leases.c.game_id == game_id)
                             .values(**values))
            conn.execute(update(games).where(games.c.id == game_id).values(epoch=epoch))
        return Lease(game_id, owner, epoch, now + ttl_ms)

    def renew(self, owner: str, held: Mapping[str, int], ttl_ms: int) -> list[str]:
        """Extend ``owner``'s leases (game -> epoch) by ``ttl_ms`` in one transaction; the
        games whose lease it no longer holds (taken over: their epoch moved on)."""
        now = now_ms_()
        lost = []
        with self.guard(writing=True), self._begin() as conn:
            for game_id, epoch in held.items():
                done = conn.execute(
                    update(table_leases).where(table_leases.c.game_id == game_id,
                                               table_leases.c.owner == owner,
                                               table_leases.c.epoch == epoch)
                    .values(expires_ms=now + ttl_ms, renewals=table_leases.c.renewals + 1))
                if done.rowcount == 0:
                    lost.append(game_id)
        return lost

    def release(self, game_id: str, owner: str, epoch: int) -> bool:
        """Give a lease up (the table left this process's memory): the next process that
        wants the table takes it at once.  False when ``owner`` no longer held it."""
        with self.guard(writing=True), self._begin() as conn:
            done = conn.execute(
                update(table_leases).where(table_leases.c.game_id == game_id,
                                           table_leases.c.owner == owner,
                                           table_leases.c.epoch == epoch)
                .values(expires_ms=0))
        return bool(done.rowcount)

    def lease(self, game_id: str) -> Lease | None:
        """The lease of a table as it stands, or None when no process ever took it."""
        with self.guard(), self._connect() as conn:
            row = conn.execute(select(table_leases).where(
                table_leases.c.game_id == game_id)).mappings().first()
        return _lease(row) if row is not None else None

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

    def rekey(self, old_hash: str, new_hash: str) -> int:
        """Hand every seat held by the token hashing to ``old_hash`` to ``new_hash`` (a
        browser's token replaced by one the server minted); how many games.  Run it on the
        writer thread (:meth:`write`)."""
        changed = 0
        with self.guard(writing=True), self._begin() as conn:
            rows = conn.execute(select(games.c.id, cast(games.c.seats, Text).label("seats"))
                                .where(cast(games.c.seats, Text).contains(old_hash))).all()
            for row in rows:
                seats = _json_object(row.seats) or {}
                moved = {k: (new_hash if v == old_hash else v) for k, v in seats.items()}
                if moved != seats:
                    conn.execute(update(games).where(games.c.id == row.id).values(seats=moved))
                    changed += 1
        return changed

    def get(self, game_id: str) -> SavedGame | None:
        """The saved game with this id, or None.  Raises :class:`StoreError`."""
        with self.guard(), self._connect() as conn:
            row = conn.execute(_readable().where(games.c.id == game_id)).mappings().first()
        return _saved(row) if row is not None else None

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
            return [(row.id, _json_object(row.seats)) for row in conn.execute(query)]

    def latest_unfinished(self) -> SavedGame | None:
        """The most recently played game that has not ended (for CONTINUE), or None."""
        query = (
            _readable()
            .where(games.c.status == PLAYING)
            .order_by(games.c.updated.desc(), games.c.created.desc())
            .limit(1)
        )
        with self.guard(), self._connect() as conn:
            row = conn.execute(query).mappings().first()
        return _saved(row) if row is not None else None

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
                 **{k: _json_object(r[k]) for k in ("rules", "names", "result", "summary",
                                                    "seats")}}
                for r in rows]

    def summaries(self) -> list[tuple[str, dict[str, Any] | None]]:
        """``(difficulty, summary)`` of every saved game, for the statistics."""
        query = select(games.c.difficulty, cast(games.c.summary, Text).label("summary"))
        with self.guard(), self._connect() as conn:
            return [(row.difficulty, _json_object(row.summary))
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
                 **{k: _json_object(r[k]) for k in ("names", "result", "summary", "seats")}}
                for r in rows]

    def close(self) -> None:
        """Finish the writes in progress and release the database connections."""
        if not self._closed:
            self._closed = True
            self._jobs.put(_STOP)
            self._writer.join()
        with self._db_lock:  # SQLite's one connection: not closed under a thread using it
            self.engine.dispose()


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


def _lease(row: Mapping[str, Any]) -> Lease:
    return Lease(row["game_id"], row["owner"], int(row["epoch"]), int(row["expires_ms"]),
                 int(row["renewals"] or 0))


def _readable() -> Any:
    """SELECT of every column, the JSON ones as text (parsed by :func:`_saved`, so a damaged
    value marks the row damaged instead of failing the query)."""
    return select(*(cast(c, Text).label(c.name) if isinstance(c.type, JSON) else c
                    for c in games.c))


def _json_object(raw: str | None) -> Any:
    """A JSON value read from text; None for NULL or text that is not JSON."""
    if raw is None:
        return None
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        return None


def _saved(row: Mapping[str, Any]) -> SavedGame:
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
    )
