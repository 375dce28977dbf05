"""Leases with fencing in the store (issue 37): one owner per table, every save of the owner
carries its epoch and is refused by the database once another process has taken the table
over; on SQLite and on PostgreSQL (a throwaway server: tests/server/pg_server.py)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from itertools import count
from pathlib import Path
from typing import Any

import pytest
from pg_server import TempPostgres
from server_helpers import run_async

from preferans.server.store.faults import Fenced
from preferans.server.store.games import GameStore
from preferans.server.store.schema import PLAYING

_numbers = count(1)


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GameStore]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'games.db'}"
    else:
        postgres: TempPostgres = request.getfixturevalue("postgres")
        url = postgres.new_database(f"preferans_lease_{next(_numbers)}")
    games = GameStore(url)
    games.create("g1", difficulty="easy", rules={"preset": "sochi", "pool": 10},
                 names=["You", "Misha", "Lena"], seed=7, record={"deals": [], "n": 0})
    yield games
    games.close()


def record(n: int) -> dict[str, object]:
    return {"deals": [], "n": n}


def test_the_first_owner_takes_epoch_one_and_a_live_lease_is_not_taken(store: GameStore) -> None:
    first = store.acquire("g1", "proc-a", 5000)
    assert (first.owner, first.epoch) == ("proc-a", 1)
    other = store.acquire("g1", "proc-b", 5000)
    assert (other.owner, other.epoch) == ("proc-a", 1)  # held and live: not taken
    again = store.acquire("g1", "proc-a", 5000)
    assert (again.owner, again.epoch) == ("proc-a", 1)  # its own: kept, same epoch
    assert store.lease("g1") is not None and store.lease("g1").owner == "proc-a"
    with pytest.raises(KeyError):
        store.acquire("nope", "proc-a", 5000)


def test_an_expired_lease_is_taken_over_and_the_old_owner_can_no_longer_save(
        store: GameStore) -> None:
    a = store.acquire("g1", "proc-a", 150)
    store.save("g1", record=record(1), epoch=a.epoch)  # the owner saves
    time.sleep(0.25)  # a's lease runs out (a process paused or dead)
    b = store.acquire("g1", "proc-b", 5000)
    assert (b.owner, b.epoch) == ("proc-b", a.epoch + 1)
    with pytest.raises(Fenced) as refused:  # fenced: the database refuses a's write
        store.save("g1", record=record(99), epoch=a.epoch)
    assert refused.value.current == b.epoch
    assert store.get("g1").record == record(1)  # nothing written by a
    store.save("g1", record=record(2), epoch=b.epoch)
    assert store.get("g1").record == record(2)
    assert store.renew("proc-a", {"g1": a.epoch}, 5000) == ["g1"]  # a learns it lost it
    assert store.renew("proc-b", {"g1": b.epoch}, 5000) == []
    assert store.lease("g1").renewals == 1


def test_a_fenced_save_fails_alone_in_a_group_commit(store: GameStore) -> None:
    store.create("g2", difficulty="easy", rules={"preset": "sochi", "pool": 10},
                 names=["You", "Misha", "Lena"], seed=8, record=record(0))
    a1 = store.acquire("g1", "proc-a", 100)
    a2 = store.acquire("g2", "proc-a", 5000)
    time.sleep(0.2)
    b1 = store.acquire("g1", "proc-b", 5000)
    assert b1.epoch == a1.epoch + 1

    async def both() -> list[object]:
        return await asyncio.gather(
            store.save_async("g1", record=record(5), status=PLAYING, epoch=a1.epoch),
            store.save_async("g2", record=record(6), status=PLAYING, epoch=a2.epoch),
            return_exceptions=True)

    outcomes = run_async(both())
    assert isinstance(outcomes[0], Fenced) and outcomes[1] is None
    assert store.get("g1").record == record(0) and store.get("g2").record == record(6)


def test_a_released_lease_is_taken_at_once_with_a_new_epoch(store: GameStore) -> None:
    a = store.acquire("g1", "proc-a", 60_000)
    assert store.release("g1", "proc-a", a.epoch)
    assert not store.release("g1", "proc-b", a.epoch)
    b = store.acquire("g1", "proc-b", 60_000)
    assert (b.owner, b.epoch) == ("proc-b", a.epoch + 1)


def test_saves_without_an_epoch_are_the_single_process_ones(store: GameStore) -> None:
    """One process without leases writes as before (no epoch in the statement)."""
    store.save("g1", record=record(3))
    assert store.get("g1").record == record(3)


def test_two_processes_racing_for_a_free_table_get_one_owner(store: GameStore) -> None:
    """Many threads (each its own connection on PostgreSQL) acquiring at once: exactly one
    owner, one epoch."""
    other = GameStore(store.url) if not store.url.startswith("sqlite") else store
    results: list[object] = []
    barrier = threading.Barrier(6)

    def take(name: str, games: GameStore) -> None:
        barrier.wait()
        try:
            results.append(games.acquire("g1", name, 60_000))
        except Exception as exc:  # a unique-key race is a refusal, never two owners
            results.append(exc)

    threads = [threading.Thread(target=take, args=(f"p{i}", store if i % 2 else other))
               for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if other is not store:
        other.close()
    lease = store.lease("g1")
    owners = {r.owner for r in results if hasattr(r, "owner")}
    assert owners == {lease.owner} and lease.epoch == 1


# --- a table of a process whose lease is gone saves nothing ---------------------------------
def _table_with_lease(client: Any, lease_ms: int) -> tuple[Any, Any, Any]:
    from server_helpers import new_game, read_until_settled

    game_id = new_game(client)
    ws = client.websocket_connect(f"/ws/{game_id}").__enter__()
    state = read_until_settled(ws)
    table = client.app.state.tables.open[game_id]
    store = client.app.state.store
    lease = store.acquire(game_id, "proc-a", lease_ms)
    table.epoch, table.lease_until = lease.epoch, None
    return ws, table, state


def _a_move(state: dict[str, Any]) -> str:
    return str(state["observation"]["legal"][0])


def test_a_table_whose_lease_was_taken_over_cannot_save_its_move(client: Any) -> None:
    """The database refuses the save of a table whose epoch has moved on (another process
    took it over): the move is taken back, the player told, the record unchanged."""
    from server_helpers import receive_json

    ws, table, state = _table_with_lease(client, 100)
    store = client.app.state.store
    saved_before = store.raw_record(table.id)
    time.sleep(0.2)
    assert store.acquire(table.id, "proc-b", 60_000).owner == "proc-b"
    fenced: list[bool] = []
    table.on_fenced = lambda: fenced.append(True)
    ws.send_json({"type": "action", "token": _a_move(state)})
    messages = [receive_json(ws) for _ in range(2)]
    error = next(m for m in messages if m["type"] == "error")
    assert error["code"] == "save_failed" and "another server process" in error["problem"]
    assert store.raw_record(table.id) == saved_before and fenced == [True]
    ws.__exit__(None, None, None)


def test_a_table_past_its_lease_time_saves_nothing_even_before_anyone_takes_it(
        client: Any) -> None:
    """Past the lease's end (not renewed: the process stalled) the table does not even try:
    another process may own it already."""
    from server_helpers import receive_json

    ws, table, state = _table_with_lease(client, 60_000)
    store = client.app.state.store
    saved_before = store.raw_record(table.id)
    table.lease_until = time.monotonic() - 0.01
    ws.send_json({"type": "action", "token": _a_move(state)})
    messages = [receive_json(ws) for _ in range(2)]
    assert any(m["type"] == "error" and m["code"] == "save_failed" for m in messages)
    assert store.raw_record(table.id) == saved_before
    table.lease_until = time.monotonic() + 5  # renewed: the same move is saved
    ws.send_json({"type": "action", "token": _a_move(state)})
    assert receive_json(ws)["type"] == "state"
    assert store.raw_record(table.id) != saved_before
    ws.__exit__(None, None, None)
