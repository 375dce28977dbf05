"""The open tables of this server process: each loaded from the store on first use, kept
while played, and let go when idle (restored from the store on the next visit).

A table is created here (a new game against the computer, or a table for friends waiting in
its lobby) and restored here from its saved record; :attr:`Tables.open` is what the routes,
the sockets and the cluster (:mod:`..cluster`) look tables up in.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import threading
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import anyio.to_thread

from ...game import Game
from ..lang.house_rules import rules_from_settings
from ..security.tokens import held_seats, holder, token_hash
from ..store.games import GameStore
from ..store.saved import SavedGame
from .party import Party
from .seats import HUMAN, seat_names
from .standin import GRACE_SECONDS
from .table import Table
from .thinking import Thinking

log = logging.getLogger("preferans.server")

GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
"""What a game's id looks like (anything else is answered as unknown before any work)."""
SEED_BITS = 128
"""Bits of the seed the server draws for a new game's deals (too many to search from the
cards one sees)."""
FRIENDS = "friends"
"""The difficulty column of a table for friends (its computer seats each have a level)."""
IDLE_SECONDS = 300.0
"""How long an open table with no socket stays in memory (the app's ``idle_seconds``)."""


class GameSettings(Protocol):
    """What a new game against the computer is made from (the web's ``NewGame`` body)."""

    difficulty: str
    rules: Any
    players: int | None
    pool: int | None
    seed: int | None
    hints: bool


class Tables:
    """The open tables of this server, loaded from the store on first use."""

    def __init__(self, store: GameStore, bot_delay: float, bot_level: str | None = None,
                 idle_seconds: float = IDLE_SECONDS,
                 thinking: Thinking | None = None, grace: float = GRACE_SECONDS) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.bot_level = bot_level
        self.idle_seconds = idle_seconds
        """A table with no socket and no move in progress leaves memory after this long."""
        self.thinking = thinking
        self.grace = grace
        """How long a friend may be gone before the stand-in plays his seat (:mod:`.standin`)."""
        self.open: dict[str, Table] = {}
        self.shared = False
        """Several processes share the store (:mod:`..cluster`): a table is kept open only by
        the process holding its lease, so a new one is saved and left to the first socket."""
        self.on_close: list[Callable[[str], Awaitable[None]]] = []
        """Run with a table's id when it leaves memory (its lease is given up)."""
        self.cluster: Any = None
        """This process's part of several sharing the tables (:class:`.cluster.Cluster`), or
        None: one process."""
        self._lock = threading.Lock()
        self._restoring = asyncio.Lock()
        self._replays: dict[tuple[str, Any], str | None] = {}

    def create(self, settings: GameSettings, seats: dict[str, str] | None = None) -> Table:
        """Start and save a new game (raises :class:`StoreError` when it cannot be saved)."""
        game_id = secrets.token_urlsafe(9)
        seed = settings.seed if settings.seed is not None else secrets.randbits(SEED_BITS)
        rules = rules_from_settings(settings.rules, players=settings.players, pool=settings.pool)
        table = Table.new(game_id, difficulty=settings.difficulty, rules=rules, seed=seed,
                          store=self.store, bot_delay=self.bot_delay, bot_level=self.bot_level,
                          seats=seats, hints=settings.hints)
        self._prepare(table)
        if not self.shared:
            with self._lock:
                self.open[game_id] = table
        return table

    def _prepare(self, table: Table) -> Table:
        """A table made or restored here thinks in the server's processes; a friends' table
        gets the server's grace time."""
        table.thinking = self.thinking
        if table.standin is not None:
            table.standin.grace = self.grace
        return table

    def create_friends(self, rules: Any, party: Party, seed: int | None,
                       seats: dict[str, str], names: list[str] | None = None) -> Table:
        """Save a new table for friends, waiting in its lobby (started at once for a rematch:
        ``names`` the seats' names as the last game had them).  Raises
        :class:`StoreError`."""
        game_id = secrets.token_urlsafe(9)
        seed = seed if seed is not None else secrets.randbits(SEED_BITS)
        names = names or party.names(seat_names(rules.players))
        return self._prepare(Table.new(
            game_id, difficulty=FRIENDS, rules=rules, seed=seed, store=self.store,
            bot_delay=self.bot_delay, bot_level=self.bot_level, seats=seats, hints=party.hints,
            friends=party, names=names))

    def get(self, game_id: str) -> Table | None:
        """The open table of a game, restored from its record if needed; None if unknown."""
        if not GAME_ID.match(game_id):
            return None
        with self._lock:
            table = self.open.get(game_id)
            if table is not None:
                return table
            saved = self.store.get(game_id)
            if saved is None:
                return None
            table = Table.restore(saved, store=self.store, bot_delay=self.bot_delay,
                                  bot_level=self.bot_level)
            self._prepare(table)
            self.open[game_id] = table
            return table

    async def load(self, game_id: str, saved: SavedGame | None = None) -> Table | None:
        """:meth:`get` for the event loop: the store is read and the record replayed in a
        worker thread.  Raises :class:`StoreError`, and the replay's error for a damaged
        record."""
        table = self.open.get(game_id)
        if table is not None:
            table.touch()
            return table
        async with self._restoring:
            table = self.open.get(game_id)
            if table is not None:
                return table
            if saved is None:
                saved = await anyio.to_thread.run_sync(self.store.get, game_id)
            if saved is None:
                return None
            if saved.damage:
                raise ValueError(saved.damage)
            table = await anyio.to_thread.run_sync(self._restore, saved)
            with self._lock:
                self.open[game_id] = table
            return table

    def _restore(self, saved: SavedGame) -> Table:
        table = Table.restore(saved, store=self.store, bot_delay=self.bot_delay,
                              bot_level=self.bot_level)
        self._prepare(table)
        return table

    def replay_problem(self, saved: SavedGame) -> str | None:
        """Why a saved game cannot be played on (its record does not replay), or None.
        Answers are kept per version of the row (its ``updated``)."""
        if saved.id in self.open:
            return None
        key = (saved.id, saved.updated)
        if key not in self._replays:
            problem = saved.damage
            if problem is None:
                try:
                    Game.from_record(saved.record)
                except Exception as exc:  # any failure to replay marks the game damaged
                    problem = f"its record does not replay ({type(exc).__name__}: {exc})"
            if len(self._replays) > 1000:
                self._replays.clear()
            self._replays[key] = problem[:300] if problem else None
        return self._replays[key]

    def of_browser(self, token: str | None) -> tuple[SavedGame | None, list[dict[str, str]]]:
        """This browser's latest unfinished game that can be played on (or a free one: saved
        before seat tokens), and the ones that are damaged (``id``, ``reason``).  Raises
        :class:`StoreError`."""
        playable: SavedGame | None = None
        damaged: list[dict[str, str]] = []
        for game_id, seats in self.store.unfinished():
            if holder(seats, token, HUMAN) == "theirs" and not (
                    token is not None and held_seats(seats or {}, token_hash(token))):
                continue
            saved = self.store.get(game_id)
            if saved is None:
                continue
            problem = self.replay_problem(saved)
            if problem is not None:
                damaged.append({"id": game_id, "reason": problem})
            elif playable is None:
                playable = saved
        return playable, damaged

    async def reap(self) -> list[str]:
        """Let the tables idle for ``idle_seconds`` leave memory; their ids."""
        gone = []
        with self._lock:
            for game_id, table in list(self.open.items()):
                idle = table.idle_for()
                if idle is not None and idle >= self.idle_seconds:
                    del self.open[game_id]
                    gone.append(table)
        for table in gone:
            await table.stop()
            for hook in self.on_close:
                await hook(table.id)
        return [table.id for table in gone]

    async def reap_forever(self) -> None:
        """Run :meth:`reap` now and then (a few times per ``idle_seconds``)."""
        while True:
            await asyncio.sleep(max(0.05, min(self.idle_seconds / 4, 30.0)))
            try:
                await self.reap()
            except Exception:
                log.exception("cannot close the idle tables")

    def rekey(self, old_hash: str, new_hash: str) -> None:
        """The open tables' seats held by ``old_hash`` now held by ``new_hash`` (the store's
        rows are changed by :meth:`GameStore.rekey`)."""
        for table in list(self.open.values()):
            for seat, held in list(table.seats.items()):
                if held == old_hash:
                    table.seats[seat] = new_hash

    def exists(self, game_id: str) -> bool:
        """Whether a game with this id is open or saved."""
        return bool(GAME_ID.match(game_id)) and (
            game_id in self.open or self.store.get(game_id) is not None
        )

    async def stop(self) -> None:
        """Stop every table's computer players."""
        for table in list(self.open.values()):
            await table.stop()
