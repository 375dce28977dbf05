"""The computer players think in worker processes (preferans.server.table.thinking): the same
decisions as in the server process for the same seed, one player kept per table seat, and a
worker that dies or hangs never stalls a table."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import modest_token, new_game, read_until_settled, receive_json, send_action

from preferans.players import RandomPlayer
from preferans.rules import Rules
from preferans.server.app import create_app
from preferans.server.table.thinking import Seat, Thinking, ThinkingError, check_workers

SOCHI = '{"preset": "sochi"}'


def _run(coro: Any) -> None:
    """asyncio.run in a thread of its own: in a test process where a browser test ran
    first, Playwright's sync API keeps an event loop running in the main thread."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, coro).result()


def _observation(legal: list[str]) -> dict[str, Any]:
    return {"seat": 1, "legal": legal, "phase": "auction"}


def _wait_dead(pid: int) -> None:
    for _ in range(200):
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().split()[2] == "Z":
                    return
        except (FileNotFoundError, ProcessLookupError):  # reaped while read
            return
        time.sleep(0.01)


def play_deals(client: TestClient, deals: int, seed: int, difficulty: str) -> dict[str, Any]:
    """Play ``deals`` deals of a game seeded ``seed``, the human's moves drawn by a generator of
    its own; the table's record at the end (the game is unfinished: read on the server)."""
    rng = random.Random(seed)
    game_id = new_game(client, seed=seed, difficulty=difficulty)
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        state = read_until_settled(ws)
        played = 0
        while True:
            if state["deal_over"]:
                played += 1
                if played == deals or state["game_over"]:
                    break
                ws.send_json({"type": "next_deal"})
            else:
                send_action(ws, modest_token(state, rng))
            state = read_until_settled(ws)
    table = client.app.state.tables.open[game_id]
    return table.record()


@pytest.mark.parametrize(("level", "deals"), [("random", 3), ("easy", 3), ("normal", 2)])
def test_processes_play_the_same_game_as_a_thread(
    db_url: str, tmp_path: Any, level: str, deals: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same seed gives the same record whether the players think in a thread of the
    server (as before) or in worker processes: Normal's caches and the random baseline's
    generator live on between decisions in the worker that keeps the table's players."""
    with TestClient(create_app(db_url, bot_delay=0, bot_level=level, bot_workers=0)) as client:
        assert client.app.state.thinking is None
        in_thread = play_deals(client, deals, seed=21, difficulty="easy")

    # the server process's players may not decide: the workers (fresh imports) must
    def refuse(self: Any, observation: dict[str, Any]) -> str:
        raise AssertionError("a computer player decided in the server process")

    monkeypatch.setattr(RandomPlayer, "choose", refuse)
    monkeypatch.setattr("preferans.players.easy.EasyPlayer.choose", refuse)
    monkeypatch.setattr("preferans.players.montecarlo.MonteCarloPlayer.choose", refuse)
    other = f"sqlite:///{tmp_path / 'other.db'}"
    with TestClient(create_app(other, bot_delay=0, bot_level=level, bot_workers=2)) as client:
        thinking = client.app.state.thinking
        assert thinking is not None and thinking.workers == 2
        in_processes = play_deals(client, deals, seed=21, difficulty="easy")
        assert thinking.restarts == 0
        assert all(pid is not None and pid != os.getpid() for pid in thinking.pids())
    assert in_processes == in_thread
    assert sum(len(d["actions"]) for d in in_thread["deals"]) > 10 * deals


def test_a_worker_keeps_one_player_per_table_seat() -> None:
    async def run() -> None:
        thinking = Thinking(1)
        try:
            legal = [f"A{i}" for i in range(20)]
            a, b = Seat("t#1", 1, "random", SOCHI, 5), Seat("t#1", 2, "random", SOCHI, 5)
            got_a = [await thinking.choose(a, _observation(legal)) for _ in range(4)]
            got_b = [await thinking.choose(b, _observation(legal)) for _ in range(2)]
            got_a += [await thinking.choose(a, _observation(legal)) for _ in range(2)]
            local = RandomPlayer(5)
            assert got_a == [local.choose(_observation(legal)) for _ in range(6)]
            assert got_b == got_a[:2]  # the other seat has a player of its own
            thinking.forget("t#1")  # the table left memory: its players start again
            assert await thinking.choose(a, _observation(legal)) == got_a[0]
        finally:
            thinking.close()

    _run(run())


def test_decisions_asked_together_each_get_their_own_answer() -> None:
    """Requests written to a worker together are answered in order, each to its asker."""

    async def run() -> None:
        thinking = Thinking(1)
        try:
            legal = [f"A{i}" for i in range(50)]
            seats = [Seat(f"t#{n}", 1, "random", SOCHI, n) for n in range(30)]
            got = await asyncio.gather(*(
                thinking.choose(seat, _observation(legal)) for seat in seats for _ in range(2)))
            want = []
            for seat in seats:
                local = RandomPlayer(seat.seed)
                want += [local.choose(_observation(legal)) for _ in range(2)]
            assert sorted(got) == sorted(want)
            firsts = await asyncio.gather(*(
                thinking.choose(seat, _observation(legal)) for seat in seats))
            thirds = []
            for seat in seats:
                local = RandomPlayer(seat.seed)
                thirds.append([local.choose(_observation(legal)) for _ in range(3)][2])
            assert firsts == thirds
        finally:
            thinking.close()

    _run(run())


def test_tables_are_spread_over_the_lanes_and_stay_on_theirs() -> None:
    thinking = Thinking(2)
    assert [thinking.lane_of(t) for t in ("a", "b", "c", "a", "b")] == [0, 1, 0, 0, 1]
    thinking.forget("a")
    thinking.forget("c")
    assert thinking.lane_of("d") == 0


def test_a_player_that_fails_raises_thinking_error() -> None:
    async def run() -> None:
        thinking = Thinking(1)
        try:
            with pytest.raises(ThinkingError, match="no legal action"):
                await thinking.choose(Seat("t#2", 1, "random", SOCHI, 1), _observation([]))
            assert thinking.restarts == 0  # the worker lives on
        finally:
            thinking.close()

    _run(run())


def test_a_worker_killed_mid_decision_or_hung_is_replaced() -> None:
    async def run() -> None:
        thinking = Thinking(1, timeout=1.0)
        seat = Seat("t#3", 1, "random", SOCHI, 1)
        try:
            assert await thinking.choose(seat, _observation(["PASS"])) == "PASS"
            (pid,) = thinking.pids()
            assert pid is not None
            os.kill(pid, signal.SIGSTOP)  # hung: the decision times out
            started = time.monotonic()
            with pytest.raises(ThinkingError, match="within 1 s"):
                await thinking.choose(seat, _observation(["PASS"]))
            assert time.monotonic() - started < 5
            assert thinking.restarts == 1
            _wait_dead(pid)
            assert await thinking.choose(seat, _observation(["PASS"])) == "PASS"
            (pid,) = thinking.pids()
            assert pid is not None
            os.kill(pid, signal.SIGSTOP)
            deciding = asyncio.ensure_future(thinking.choose(seat, _observation(["PASS"])))
            await asyncio.sleep(0.2)
            os.kill(pid, signal.SIGKILL)  # died mid-decision: an answer well before the timeout
            started = time.monotonic()
            with pytest.raises(ThinkingError, match="died"):
                await deciding
            assert time.monotonic() - started < 0.9
            assert thinking.restarts == 2
            assert await thinking.choose(seat, _observation(["PASS"])) == "PASS"
        finally:
            thinking.close()

    _run(run())


@pytest.mark.budgets
def test_a_hung_decision_on_a_clock_is_abandoned_within_its_budget_and_margin() -> None:
    """Crazy's decision (a 1.2 s budget) whose worker hangs is given up after twice its
    budget and the margin (4.4 s), not the pool's 30 s: the table plays its fallback."""
    from preferans.server.table.thinking import decision_timeout

    assert decision_timeout("crazy") == pytest.approx(4.4)
    assert decision_timeout("random") is None  # no clock: the pool's own timeout

    async def run() -> None:
        thinking = Thinking(1)  # the default 30 s for levels without a clock
        try:
            thinking.start()
            (pid,) = thinking.pids()
            assert pid is not None
            os.kill(pid, signal.SIGSTOP)
            started = time.monotonic()
            with pytest.raises(ThinkingError, match=r"no decision within 4\.4 s"):
                await thinking.choose(Seat("t#9", 1, "crazy", SOCHI, 1), _observation(["PASS"]))
            assert 4.3 < time.monotonic() - started < 8
            assert thinking.restarts == 1
            _wait_dead(pid)
            seat = Seat("t#9", 1, "random", SOCHI, 1)
            assert await thinking.choose(seat, _observation(["PASS"])) == "PASS"
        finally:
            thinking.close()

    _run(run())


def test_a_killed_fork_server_is_replaced_without_a_traceback(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """The workers' fork server killed, then a worker: the next worker starts a new fork
    server; a worker that cannot be started at all is one warning line, its decisions fail
    (the table plays its fallback), and the lane tries again."""
    from multiprocessing import forkserver

    import preferans.server.table.thinking as thinking_module

    async def run() -> None:
        thinking = Thinking(1, timeout=5.0)
        seat = Seat("t#4", 1, "random", SOCHI, 1)
        try:
            assert await thinking.choose(seat, _observation(["PASS"])) == "PASS"
            server_pid = forkserver._forkserver._forkserver_pid  # type: ignore[attr-defined]
            if server_pid is not None:
                os.kill(server_pid, signal.SIGKILL)
            (pid,) = thinking.pids()
            os.kill(pid, signal.SIGKILL)
            _wait_dead(pid)
            with caplog.at_level(logging.WARNING, logger="preferans.server"):
                assert await thinking.choose(seat, _observation(["PASS"])) == "PASS"
                assert thinking.restarts == 1
                failing = [0]

                def cannot_start(process: Any) -> None:
                    failing[0] += 1
                    raise EOFError("the fork server is gone")

                monkeypatch.setattr(thinking_module, "_start_without_main", cannot_start)
                (pid,) = thinking.pids()
                os.kill(pid, signal.SIGKILL)
                for _ in range(100):  # the restart runs in a thread of its own
                    if failing[0] >= 2:
                        break
                    await asyncio.sleep(0.05)
                assert failing[0] == 2  # tried, the fork server reset, tried again
                with pytest.raises(ThinkingError, match="cannot be started"):
                    await thinking.choose(seat, _observation(["PASS"]))  # the retry fails too
                monkeypatch.undo()
                await asyncio.sleep(thinking_module.RETRY_SECONDS + 0.5)  # the lane retries
                assert await thinking.choose(seat, _observation(["PASS"])) == "PASS"
        finally:
            thinking.close()
        assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
        assert any("cannot be started (EOFError: the fork server is gone)" in r.getMessage()
                   for r in caplog.records)

    _run(run())


def test_a_dead_or_hung_worker_does_not_stall_the_table(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Each turn of the human's, the worker is stopped (SIGSTOP: its decision times out, the
    table plays a random legal move) or killed while idle (replaced before it is needed)."""
    rng = random.Random(3)
    with TestClient(create_app(db_url, bot_delay=0, bot_level="random", bot_workers=1)) as client:
        thinking = client.app.state.thinking
        thinking.timeout = 0.5
        game_id = new_game(client, seed=4)
        with client.websocket_connect(f"/ws/{game_id}") as ws:
            state = read_until_settled(ws)
            turns = 0
            while turns < 12:
                if state["deal_over"]:
                    ws.send_json({"type": "next_deal"})
                    state = read_until_settled(ws)
                    continue
                turns += 1
                for pid in thinking.pids():
                    if pid is None:
                        continue
                    try:
                        os.kill(pid, signal.SIGSTOP if turns % 2 else signal.SIGKILL)
                    except ProcessLookupError:
                        continue  # the lane's worker was just being replaced
                    if turns % 2 == 0:
                        _wait_dead(pid)
                with caplog.at_level(logging.WARNING, logger="preferans.server"):
                    send_action(ws, modest_token(state, rng))
                    state = read_until_settled(ws)
            assert thinking.restarts >= 6
            messages = [r.getMessage() for r in caplog.records]
            assert any("failed to choose (no decision within 0.5 s)" in m for m in messages)
            assert any("its process died" in m for m in messages)
            ws.send_json({"type": "pause"})  # the table still answers
            assert receive_json(ws)["paused"] is True


def test_the_number_of_workers_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    assert check_workers(0) == 0
    with pytest.raises(ValueError, match=r"0 \(a thread\) to 64"):
        check_workers(65)
    monkeypatch.setenv("PREFERANS_BOT_WORKERS", "lots")
    with pytest.raises(ValueError, match="PREFERANS_BOT_WORKERS='lots'"):
        Thinking()
    monkeypatch.setenv("PREFERANS_BOT_WORKERS", "3")
    assert Thinking().workers == 3
    assert Rules.preset("sochi").to_json() == {"preset": "sochi"}


UNGUARDED = """
import asyncio, os
print("top level", os.getpid(), flush=True)
from preferans.server.table.thinking import Seat, Thinking
async def main():
    thinking = Thinking(2)
    seat = Seat("x#1", 1, "random", '{"preset": "sochi"}', 1)
    print("answer", await thinking.choose(seat, {"legal": ["PASS"]}), flush=True)
    thinking.close()
asyncio.run(main())
"""


def test_a_script_without_a_main_guard_runs_once(tmp_path: Any) -> None:
    """The workers (and the fork server) do not import the server's main script again."""
    import subprocess
    import sys

    script = tmp_path / "unguarded.py"
    script.write_text(UNGUARDED)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("top level") == 1, done.stdout
    assert "answer PASS" in done.stdout
