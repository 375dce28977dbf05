"""Every thinking process stopped at once (SIGSTOP: the workers and their fork server, as an
attacker on the machine or a debugger could): the server's event loop goes on answering,
the decisions waiting fail within their timeout (the tables play their fallback), and the
lanes come back once the processes are gone or continued.  The loop used to wait for ever
on the fork server while it restarted a timed-out worker: the whole server froze."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from multiprocessing import forkserver
from typing import Any

import pytest

import preferans.server.table.thinking as thinking_module
from preferans.server.table.thinking import Seat, Thinking, ThinkingError

SOCHI = '{"preset": "sochi"}'
OBSERVATION: dict[str, Any] = {"seat": 1, "legal": ["PASS"], "phase": "auction"}


def _stop_all(thinking: Thinking) -> list[int]:
    """SIGSTOP every worker and the fork server; their pids."""
    pids = [pid for pid in thinking.pids() if pid is not None]
    server = getattr(forkserver._forkserver, "_forkserver_pid", None)  # type: ignore[attr-defined]
    if server:
        pids.append(server)
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)
    return pids


def _continue(pids: list[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGCONT)


def test_every_thinking_process_stopped_never_stops_the_event_loop(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(thinking_module, "START_SECONDS", 1.0, raising=False)
    stopped: list[int] = []
    lags: list[float] = []

    async def run() -> None:
        thinking = Thinking(2, timeout=0.5)
        seats = [Seat(f"t#{n}", 1, "random", SOCHI, n) for n in range(4)]
        try:
            thinking.start()
            for seat in seats:  # both lanes answer
                assert await thinking.choose(seat, OBSERVATION) == "PASS"
            stopped.extend(_stop_all(thinking))

            async def probe() -> None:  # the loop's lag, every 20 ms
                while True:
                    before = time.monotonic()
                    await asyncio.sleep(0.02)
                    lags.append(time.monotonic() - before - 0.02)

            ticking = asyncio.ensure_future(probe())
            for _ in range(3):  # decisions time out, lanes restart: the fork server is stopped
                results = await asyncio.gather(
                    *(thinking.choose(seat, OBSERVATION) for seat in seats),
                    return_exceptions=True)
                assert all(isinstance(r, ThinkingError) or r == "PASS" for r in results)
            await asyncio.sleep(1.5)  # the overdue start gives up and kills the fork server
            ticking.cancel()
            _continue(stopped)
            # every decision asked now ends, answered or given up, within its bound
            started = time.monotonic()
            results = await asyncio.gather(
                *(thinking.choose(seat, OBSERVATION) for seat in seats), return_exceptions=True)
            assert all(isinstance(r, ThinkingError) or r == "PASS" for r in results)
            assert time.monotonic() - started < 0.5 + thinking_module.START_SECONDS + 2.0 + 1.0
            # and every lane comes back: each seat's decisions are answered again
            while not all(r == "PASS" for r in results):
                assert time.monotonic() - started < 15, f"a lane did not come back: {results}"
                await asyncio.sleep(0.2)
                results = await asyncio.gather(
                    *(thinking.choose(seat, OBSERVATION) for seat in seats),
                    return_exceptions=True)
        finally:
            thinking.close()

    pool = ThreadPoolExecutor(max_workers=1)
    future = pool.submit(asyncio.run, run())
    try:
        future.result(timeout=60)
    except FutureTimeout:
        _continue(stopped)  # let a frozen loop go
        pytest.fail("the event loop froze, or a decision never ended, while the thinking "
                    "processes were stopped")
    finally:
        _continue(stopped)
        pool.shutdown(wait=False)  # never wait here for a loop that did not end
    assert lags, "the loop never ran"
    assert max(lags) < 0.5, f"the event loop waited {max(lags):.2f} s"


def test_a_reset_waits_only_for_the_fork_server_that_failed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Two lanes resetting at once: the second finds a new fork server the first started
    and leaves it alone (it used to close that server's pipe and wait for it to end, for
    ever, and its lane never came back); the failed one is killed and waited for."""
    import subprocess
    import sys
    import threading

    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    waited: list[int] = []

    class Server:
        _lock = threading.Lock()
        _forkserver_pid: int | None = alive.pid

        def _stop_unlocked(self) -> None:  # as multiprocessing's: wait for it to end
            os.waitpid(self._forkserver_pid, 0)
            waited.append(self._forkserver_pid)
            self._forkserver_pid = None

    server = Server()
    monkeypatch.setattr(thinking_module, "_forkserver", lambda: server)
    try:
        thinking_module._reset_forkserver(alive.pid + 100_000)  # another, older one failed
        assert alive.poll() is None and waited == [] and server._forkserver_pid == alive.pid
        done = threading.Thread(target=thinking_module._reset_forkserver, args=(alive.pid,))
        done.start()
        done.join(timeout=10)
        assert not done.is_alive() and waited == [alive.pid] and server._forkserver_pid is None
    finally:
        with contextlib.suppress(OSError):
            alive.kill()
