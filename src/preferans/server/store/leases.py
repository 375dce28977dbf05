"""The leases of the tables when several server processes share the database: one owner
per table at a time, its epoch raised at every change of owner and copied into the game's
row, where every save of the owner is checked against it (fencing: :mod:`..cluster`)."""

from __future__ import annotations

import time
from collections.abc import Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import insert, select, update

from .schema import games, table_leases


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


def lease_of(row: Mapping[str, Any]) -> Lease:
    return Lease(row["game_id"], row["owner"], int(row["epoch"]), int(row["expires_ms"]),
                 int(row["renewals"] or 0))


class LeaseStore:
    """The leases of a :class:`.games.GameStore` (a part of it: the store's connection and
    its database errors)."""

    if TYPE_CHECKING:  # the store's own, used here
        def guard(self, writing: bool = False) -> AbstractContextManager[None]: ...

        def _begin(self) -> AbstractContextManager[Any]: ...

        def _connect(self) -> AbstractContextManager[Any]: ...

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
                    return lease_of(row)
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
        return lease_of(row) if row is not None else None
