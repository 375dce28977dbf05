"""The server's fast paths write exactly what the plain ones would: the state frame encoded
with its cached parts, the record built from parts, the saves grouped in one transaction."""

from __future__ import annotations

import json
import random
from typing import Any

from fastapi.testclient import TestClient
from server_helpers import new_game, play_until, run_async

from preferans.server.app import create_app
from preferans.server.store import fastjson


def test_state_frames_and_records_match_the_plain_encoding(db_url: str) -> None:
    """Over five deals of a game, every frame sent is the state payload itself, and the
    record saved after every action is the engine's own record."""
    with TestClient(create_app(db_url, bot_delay=0, bot_level="random")) as client:
        game_id = new_game(client, seed=5)
        table = client.app.state.tables.get(game_id)  # type: ignore[attr-defined]
        store = client.app.state.store  # type: ignore[attr-defined]
        payloads: list[dict[str, Any]] = []
        checked: list[int] = []

        def check(payload: dict[str, Any]) -> None:
            payloads.append(payload)
            encoded = table.record_encoded()
            assert json.loads(encoded.text) == table.game.to_record() == table.record()
            # the text itself, the finished deals appended one by one as they end
            assert encoded.text == fastjson.dumps(table.game.to_record())
            assert json.loads(table.encode_state(payload)) == json.loads(json.dumps(payload))
            checked.append(1)

        table.listeners.append(check)
        deals: list[int] = []

        def three_deals(state: dict[str, Any]) -> bool:
            if state["deal_over"] and (not deals or deals[-1] != state["deal_number"]):
                deals.append(state["deal_number"])
            return len(deals) >= 5 or state["game_over"]

        with client.websocket_connect(f"/ws/{game_id}") as ws:
            last = play_until(ws, random.Random(3), three_deals, log=(frames := []))
        assert len(checked) > 20
        assert frames[-1] == json.loads(json.dumps(payloads[-1])) == last
        assert store.get(game_id).record == table.game.to_record()


def test_fastjson_without_orjson_encodes_the_same(monkeypatch: Any) -> None:
    payload = {"a": [1, 2.5, None, "♠é"], "b": {"1": True}, 3: "int key"}
    fast = fastjson.dumps({**payload, "f": fastjson.fragment({"x": [1]})})
    monkeypatch.setattr(fastjson, "orjson", None)
    monkeypatch.setattr(fastjson, "_Fragment", None)
    slow = fastjson.dumps({**payload, "f": fastjson.fragment({"x": [1]})})
    assert json.loads(fast) == json.loads(slow) == {**json.loads(json.dumps(payload)),
                                                   "f": {"x": [1]}}
    record = fastjson.EncodedJSON('{"deals": [1]}')
    assert fastjson.serializer(record) == record.text and dict(record) == {"deals": [1]}


def test_saves_queued_together_commit_in_one_transaction_and_fail_alone(
        tmp_path: Any) -> None:
    """Saves queued behind a slow write commit as one group; a save that cannot be written
    (here: a game that does not exist) fails alone and the others are committed."""
    import asyncio
    import threading

    from sqlalchemy import event

    from preferans.server.store.games import GameStore

    store = GameStore(f"sqlite:///{tmp_path / 'g.db'}")
    for n in range(8):
        store.create(f"g{n}", difficulty="easy", rules={"preset": "sochi"}, names=["a"],
                     seed=n, record={"deals": []})
    commits: list[int] = []
    event.listen(store.engine, "commit", lambda conn: commits.append(1))
    release = threading.Event()

    async def main() -> list[Any]:
        blocker = asyncio.ensure_future(store.write(release.wait, 10))
        saves = [store.save_async(f"g{n}" if n != 3 else "missing",
                                  record=fastjson.EncodedJSON(f'{{"deals": [{n}]}}'),
                                  summary={"n": n})
                 for n in range(8)]
        tasks = [asyncio.ensure_future(save) for save in saves]
        await asyncio.sleep(0.2)  # all queued behind the blocker
        release.set()
        await blocker
        return await asyncio.gather(*tasks, return_exceptions=True)

    results = run_async(main())
    assert [type(r).__name__ for r in results] == ["NoneType"] * 3 + ["KeyError"] + [
        "NoneType"] * 4
    for n in range(8):
        if n != 3:
            saved = store.get(f"g{n}")
            assert saved.record == {"deals": [n]} and saved.summary == {"n": n}
    # the group of 8 was rolled back as a whole, then each committed alone (the missing
    # game's transaction too: it changed no row)
    assert len(commits) == 8
    commits.clear()

    async def again() -> None:
        release.clear()
        blocker = asyncio.ensure_future(store.write(release.wait, 10))
        tasks = [asyncio.ensure_future(store.save_async(f"g{n}", record={"deals": []}))
                 for n in range(5)]
        await asyncio.sleep(0.2)
        release.set()
        await blocker
        await asyncio.gather(*tasks)

    run_async(again())
    assert len(commits) == 1  # five saves, one transaction
    assert store.get("g4").record == {"deals": []}
    store.close()


def test_freeze_startup_freezes_sets_thresholds_and_pauses_are_recorded(
        monkeypatch: Any) -> None:
    import gc

    from preferans.server import gcpause

    before = gc.get_threshold()
    monkeypatch.delenv("PREFERANS_GC_THRESHOLDS", raising=False)
    pauses = gcpause.GcPauses().install()
    try:
        gcpause.freeze_startup()
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == gcpause.THRESHOLDS
        monkeypatch.setenv("PREFERANS_GC_THRESHOLDS", "900,11,12")
        gcpause.freeze_startup()
        assert gc.get_threshold() == (900, 11, 12)
        gc.collect()
        summary = pauses.summary()
        assert summary["gen2"]["count"] >= 1 and summary["gen2"]["max_ms"] >= 0
        assert summary["gen2"]["cpu_max_ms"] >= 0 and summary["frozen"] > 0
    finally:
        gc.callbacks.remove(pauses._callback)
        gc.unfreeze()
        gc.set_threshold(*before)


def test_a_russian_frame_is_the_payload_said_in_russian(db_url: str) -> None:
    """Frames are encoded once per language: the Russian one carries the rules, the house
    rules and the refusals in Russian, and equals the payload localised for Russian."""
    from preferans.server.lang.language import localize

    with TestClient(create_app(db_url, bot_delay=0, bot_level="random")) as client:
        game_id = new_game(client, seed=5, rules={"preset": "sochi", "jump_bids": False})
        table = client.app.state.tables.get(game_id)  # type: ignore[attr-defined]
        payload = table.state(None)
        english = json.loads(table.encode_state(payload))
        russian = json.loads(table.encode_state(payload, "ru"))
        assert english == json.loads(json.dumps(payload))
        expected = json.loads(json.dumps(localize(payload, "ru")))
        assert {k: v for k, v in russian.items() if k not in ("house_rules", "rules_doc")} == {
            k: v for k, v in expected.items() if k not in ("house_rules", "rules_doc")}
        assert russian["rules_title"] != english["rules_title"]
        assert any("\u0400" <= ch <= "\u04ff" for ch in russian["rules_doc"])
        assert russian["house_rules"] and all(
            any("\u0400" <= ch <= "\u04ff" for ch in rule["doc"])
            for rule in russian["house_rules"])


def test_a_new_game_is_written_by_the_store_s_writer_thread(db_url: str) -> None:
    """Game creation (a route in the thread pool) writes on the writer thread, so it never
    waits for SQLite's lock behind the saves."""
    import threading

    from sqlalchemy import event

    from preferans.server.store.games import GameStore

    store = GameStore(db_url)
    inserts: list[str] = []

    def seen(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.lstrip().upper().startswith("INSERT"):
            inserts.append(threading.current_thread().name)

    event.listen(store.engine, "before_cursor_execute", seen)
    done: list[str] = []

    def create() -> None:
        done.append(store.create("g1", difficulty="easy", rules={"preset": "sochi"},
                                 names=["You", "Misha", "Lena"], seed=1,
                                 record={"deals": []}).id)

    worker = threading.Thread(target=create, name="route")
    worker.start()
    worker.join(10)
    store.close()
    assert done == ["g1"]
    assert inserts == ["preferans-store"]


def test_a_group_of_saves_is_written_row_by_row_as_each_save_alone(tmp_path: Any) -> None:
    """A group mixing saves with and without a summary (one executemany per form) writes
    every row as a save alone would: record, status, result, summary."""
    import asyncio
    import threading

    from preferans.server.store.games import GameStore
    from preferans.server.store.schema import FINISHED

    store = GameStore(f"sqlite:///{tmp_path / 'g.db'}")
    for n in range(6):
        store.create(f"g{n}", difficulty="easy", rules={"preset": "sochi"}, names=["a"],
                     seed=n, record={"deals": []}, summary={"old": n})
    release = threading.Event()

    async def main() -> None:
        blocker = asyncio.ensure_future(store.write(release.wait, 10))
        tasks = [asyncio.ensure_future(store.save_async(
            f"g{n}", record=fastjson.EncodedJSON(f'{{"deals":[{n}]}}') if n % 2 else
            {"deals": [n, "é"]}, status=FINISHED if n == 4 else "playing",
            result=[n, -n] if n == 4 else None,
            summary={"n": n} if n % 3 else None)) for n in range(6)]
        await asyncio.sleep(0.2)
        release.set()
        await blocker
        await asyncio.gather(*tasks)

    run_async(main())
    for n in range(6):
        saved = store.get(f"g{n}")
        assert saved.record == ({"deals": [n]} if n % 2 else {"deals": [n, "é"]})
        assert saved.summary == ({"n": n} if n % 3 else {"old": n})
        assert saved.status == (FINISHED if n == 4 else "playing")
        assert saved.result == ([4, -4] if n == 4 else None)
    store.close()


def test_a_save_after_the_store_closed_fails_instead_of_waiting(tmp_path: Any) -> None:
    import asyncio

    import pytest

    from preferans.server.store.games import GameStore

    store = GameStore(f"sqlite:///{tmp_path / 'g.db'}")
    store.create("g1", difficulty="easy", rules={"preset": "sochi"}, names=["a"], seed=1,
                 record={"deals": []})
    store.close()
    with pytest.raises(RuntimeError, match="closed"):
        run_async(asyncio.wait_for(store.save_async("g1", record={"deals": []}), 5))


def test_the_thinking_processes_receive_the_sheet_of_the_moment(db_url: str) -> None:
    """The sheet goes to the thinking processes pickled once per deal: every decision's
    observation, as a worker unpickles it, is the seat's observation with the sheet as it
    stands then (the pickled copy is renewed when a deal ends)."""
    import pickle

    from preferans.server.table.thinking import Pickled

    with TestClient(create_app(db_url, bot_delay=0, bot_level="random")) as client:
        game_id = new_game(client, seed=11)
        table = client.app.state.tables.get(game_id)  # type: ignore[attr-defined]
        seen: list[int] = []
        sheets: set[bytes] = set()

        class Recorder:
            async def choose(self, seat: Any, observation: dict[str, Any]) -> str:
                assert isinstance(observation["sheet"], Pickled)
                received = pickle.loads(pickle.dumps(("decide", seat, observation)))[2]
                expected = table.seat_observation(seat.seat)
                assert received == expected
                seen.append(len(expected["sheet"].get("deals", [])))
                sheets.add(observation["sheet"].data)
                return random.Random(len(seen)).choice(sorted(expected["legal"]))

            def forget(self, table_id: str) -> None:
                pass

        table.thinking = Recorder()
        deals: list[int] = []

        def three_deals(state: dict[str, Any]) -> bool:
            if state["deal_over"] and (not deals or deals[-1] != state["deal_number"]):
                deals.append(state["deal_number"])
            return len(deals) >= 3 or state["game_over"]

        with client.websocket_connect(f"/ws/{game_id}") as ws:
            play_until(ws, random.Random(4), three_deals)
        assert len(seen) > 10 and len(set(seen)) >= 2 and len(sheets) >= 2
        assert pickle.loads(pickle.dumps(Pickled({"a": [1]}))) == {"a": [1]}


def test_a_write_after_saves_of_the_same_loop_iteration_runs_after_them(tmp_path: Any) -> None:
    """Saves are handed to the writer thread at the end of the loop iteration, but a write
    submitted after them in that iteration (a hint's summary) still runs after them."""
    import asyncio

    from preferans.server.store.games import GameStore

    store = GameStore(f"sqlite:///{tmp_path / 'g.db'}")
    store.create("g1", difficulty="easy", rules={"preset": "sochi"}, names=["a"], seed=1,
                 record={"deals": []})

    async def main() -> None:
        save = asyncio.ensure_future(store.save_async("g1", record={"deals": []},
                                                      summary={"hints_used": 1}))
        await asyncio.sleep(0)  # the save is queued in this iteration, not handed over yet
        await store.write(store.save_summary, "g1", {"hints_used": 2})
        await save

    run_async(main())
    assert store.get("g1").summary == {"hints_used": 2}
    store.close()
