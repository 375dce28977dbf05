"""After a server restart: the tables for friends that were being played come back from the
store at once, so that the grace time of a human who never comes back counts from then.

A table is otherwise restored when its first browser returns (:meth:`.app.Tables.load`):
the friends who reconnect would then wait a whole grace time more for the one who is gone.
Restored here, every human seat with no socket is away from the restore on
(:meth:`.standin.StandIn.from_now`); whoever reconnects first finds the stand-in already
playing the seat of a friend whose grace time has run out, and a friend who comes back takes
his seat back at his next decision, as always.  A table nobody returns to leaves memory again
after the app's idle time (:meth:`.app.Tables.reap`); nothing is played meanwhile (a table
with no human connected waits: :meth:`.table.Table.bot_to_move`).

Bounded: the :data:`RESTORE_MOST` most recently played tables for friends of the last
:data:`RESTORE_WITHIN` seconds, each read and replayed off the event loop; a table that
cannot be restored is logged and left for its first browser, as before.  Where several
processes share the tables (:mod:`..cluster`), a table is restored by whichever takes its
lease first; one another process owns is left to it.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

import anyio.to_thread

from ..store.faults import StoreError
from ..store.schema import PLAYING
from .party import Party

log = logging.getLogger("preferans.server")

RESTORE_MOST = 100
"""At most this many tables for friends are restored when the server starts."""
RESTORE_WITHIN = 24 * 3600.0
"""Only tables played within this many seconds before the start are restored."""


def _age(updated: datetime, now: datetime) -> float:
    if updated.tzinfo is None:  # SQLite gives the stored UTC time without its zone
        updated = updated.replace(tzinfo=UTC)
    return (now - updated).total_seconds()


async def restore_friends_tables(tables: Any, most: int = RESTORE_MOST,
                                 within: float = RESTORE_WITHIN) -> list[str]:
    """Restore the started tables for friends still being played (see the module
    docstring) and start their absent humans' grace time; their ids."""
    store = tables.store
    try:
        rows = await anyio.to_thread.run_sync(store.unfinished)
    except StoreError as exc:
        log.warning("the tables for friends were not restored at the start: %s", exc.message)
        return []
    now = datetime.now(UTC)
    restored: list[str] = []
    for game_id, seats in rows:
        if len(restored) >= most:
            break
        if not seats or len(seats) < 2:  # one human (or none): nobody waits for anybody
            continue
        try:
            saved = await anyio.to_thread.run_sync(store.get, game_id)
            if (saved is None or saved.friends is None or saved.status != PLAYING
                    or saved.damage or not Party.from_json(saved.friends).started):
                continue
            if _age(saved.updated, now) > within:
                break  # the rows come most recently played first: the rest are older
            if tables.cluster is not None:  # several processes: the table's lease first
                table = await tables.cluster.route(game_id)
            else:
                table = await tables.load(game_id, saved)
        except Exception as exc:  # a damaged record, a database fault: its first browser
            log.warning("game %s was not restored at the start: %s", game_id, exc)
            continue
        if table is not None and table.standin is not None:
            table.standin.from_now()
            restored.append(game_id)
    if restored:
        log.info("restored %d tables for friends at the start", len(restored))
    return restored
