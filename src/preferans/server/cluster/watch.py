"""The leases this process watches: the tables whose sockets it holds while another process
owns them.  A lease that ran out (its owner died or stalled) is taken over here; when the
bus comes back, every forwarded socket asks its owner for the state again (a part of
:class:`.cluster.Cluster`)."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import anyio.to_thread

from ..store.faults import StoreError
from ..store.games import GameStore
from ..store.leases import Lease, now_ms_

if TYPE_CHECKING:
    from ..table.table import Table

log = logging.getLogger("preferans.server")

WATCH_EVERY = 1.0
"""How often a process looks at the leases of the tables it holds sockets of."""


class LeaseWatch:
    """Watching the leases of the tables forwarded to another process (a part of
    :class:`.cluster.Cluster`, which holds the links, the store and the lease time)."""

    store: GameStore
    lease_seconds: float
    links: dict[str, dict[str, Any]]
    _looking: set[str]

    if TYPE_CHECKING:
        async def route(self, game_id: str) -> Table | None: ...

    def look_soon(self, game_id: str) -> None:
        """Look at the table's lease now (a message found no owner listening)."""
        if game_id not in self._looking:
            self._looking.add(game_id)
            asyncio.get_running_loop().create_task(self._look(game_id))

    async def _look(self, game_id: str) -> None:
        """Find the table's owner for the sockets here that forward to it: the lease's
        holder while it lives and listens, else this process (taking the table over, once
        the lease ran out)."""
        try:
            await asyncio.sleep(0.05)
            for _ in range(int(self.lease_seconds * 4) + 40):
                links = [link for link in self.links.get(game_id, {}).values()
                         if link.table is None and not link.closed]
                if not links:
                    return
                lease = await anyio.to_thread.run_sync(self.store.lease, game_id)
                if lease is None or not lease.live() or lease.owner == self.node:
                    table = await self.route(game_id)
                    if table is None:
                        continue  # another process took it first: ask it
                    for link in links:
                        await link.go_local(table)
                    return
                heard = True
                for link in links:  # the holder of a live lease: ask it (again)
                    heard = await link.resend() and heard
                if heard and not any(link.pending for link in links):
                    return  # (a message that found nobody while we asked: ask again)
                if heard:
                    await asyncio.sleep(0.05)
                    continue
                # it holds the lease but does not listen (it died): wait for the lease's end
                left = (lease.expires_ms - now_ms_()) / 1000
                await asyncio.sleep(min(max(left, 0.05), 0.5))
        except Exception:
            log.exception("table %s: cannot look at its lease", game_id)
        finally:
            self._looking.discard(game_id)

    async def _watch_forever(self) -> None:
        """Every :data:`WATCH_EVERY` s, the leases of the tables this process forwards to:
        one that ran out is taken over here."""
        while True:
            await asyncio.sleep(WATCH_EVERY)
            remote = [game_id for game_id, links in self.links.items()
                      if any(link.table is None for link in links.values())]
            if not remote:
                continue
            try:
                leases = await anyio.to_thread.run_sync(self._leases, remote)
            except StoreError as exc:
                log.warning("the leases cannot be read: %s", exc)
                continue
            now = now_ms_()
            for game_id in remote:
                lease = leases.get(game_id)
                if lease is None or not lease.live(now):
                    self.look_soon(game_id)

    def _leases(self, games: list[str]) -> dict[str, Lease]:
        found = {}
        for game_id in games:
            lease = self.store.lease(game_id)
            if lease is not None:
                found[game_id] = lease
        return found

    async def _resume(self) -> None:
        """The bus is back: every socket here forwarded to an owner asks for the state again
        (frames published while it was away are lost)."""
        for links in list(self.links.values()):
            for link in list(links.values()):
                if (link.table is None and not link.closed
                        and not await link.resend(refresh=True)):
                    self.look_soon(link.game_id)
