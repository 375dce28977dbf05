"""The computer players' thinking, in worker processes away from the server's event loop.

A :class:`Thinking` pool holds a few *lanes*, each one worker process (started by
``forkserver``) that the event loop feeds through a non-blocking pipe, one decision at a
time: the loop never waits on a worker, whatever state it is in (busy, dead, stopped), and
no helper thread competes with it for the interpreter but a worker's restart, which waits
for the fork server in a thread of its own.  A table's computer players
are pinned to one lane for the table's life: the worker keeps each player between
decisions, cached by (table, seat, level, rules, seed), so a player that remembers (the
Monte Carlo levels' caches, the random baseline's generator) makes the same decisions as
one kept in the server process, and a game stays reproducible from its seed.  The worker
receives only the seat's observation (plain data, pickled) and answers an action token.

A worker that dies is started again at once; a decision it held, or one that overruns
``timeout`` seconds (its worker is killed and started again), raises :class:`ThinkingError`
and the table plays its random legal fallback.  A fork server that does not answer a
restart within :data:`START_SECONDS` (stopped, hung) is killed, the decisions waiting fail
the same way, and the next start makes a new one.  The new worker's players start fresh, as
after a restart.  Workers run at a lower priority (``nice``) than the server, so thinking
yields the CPU to the sockets.

>>> from preferans.rules import Rules
>>> make_bot("random", Rules.preset("sochi"), 3).choose({"legal": ["PASS"]})
'PASS'
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
import os
import pickle
import signal
import struct
import sys
import threading
import time
import types
from collections import OrderedDict, deque
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from ...players import Player, make_player
from ...rules import Rules

log = logging.getLogger("preferans.server")

ENV_WORKERS = "PREFERANS_BOT_WORKERS"
"""Environment variable: the number of thinking processes (0: think in a thread instead)."""
DEFAULT_TIMEOUT = 30.0
"""Seconds a decision of a level without a clock may take before its worker is restarted
and the table plays on."""
MARGIN = 2.0
"""Seconds a decision on a clock may run past twice its budget before it is abandoned (the
floor of worlds, a busy machine): Crazy's 1.2 s budget gives 4.4 s, Hard's 0.3 s 2.6 s."""
MAX_PLAYERS = 4096
"""Players a worker keeps at most (the least recently used go first)."""
NICE = 5
"""How much lower than the server's the workers' scheduling priority is."""


def make_bot(level: str, rules: Rules, seed: int) -> Player:
    """The computer player of this difficulty; the random player while a level is not built."""
    try:
        return make_player(level, rules, seed)
    except ValueError:
        log.warning("player level %r is not available yet: using the random player", level)
        return make_player("random", rules, seed)


def default_workers() -> int:
    """``PREFERANS_BOT_WORKERS`` if set, else ``min(2, cpu count)``."""
    configured = os.environ.get(ENV_WORKERS, "").strip()
    if configured:
        try:
            value = int(configured)
        except ValueError:
            raise ValueError(
                f"{ENV_WORKERS}={configured!r} is not a number of worker processes (0..64)"
            ) from None
        return check_workers(value)
    return min(2, os.cpu_count() or 1)


def check_workers(value: int) -> int:
    """``value`` if it is a usable number of thinking processes (0..64), else ValueError."""
    if not 0 <= value <= 64:
        raise ValueError(f"{value} thinking processes: choose 0 (a thread) to 64")
    return value


class ThinkingError(Exception):
    """A decision the workers could not give: the player failed, its worker died or hung."""


@dataclass(frozen=True)
class Seat:
    """Which computer player decides: its table (one per table object), seat, level, rules
    (as their JSON text) and seed.  The worker keeps one player per :class:`Seat`."""

    table: str
    seat: int
    level: str
    rules: str
    seed: int


# --- in the worker process -----------------------------------------------------------------
_PLAYERS: OrderedDict[Seat, Player] = OrderedDict()


def _decide(seat: Seat, observation: dict[str, Any], sent: float, limit: int
            ) -> tuple[bool, str]:
    """``(True, token)``, or ``(False, why)`` when the player failed (an exception of the
    player's own might not survive the trip back).  ``sent``: when the server asked
    (``time.monotonic``, one clock for every process): a player on a clock counts the time
    the request waited (for the worker, for a core) against its budget."""
    try:
        player = _PLAYERS.get(seat)
        if player is None:
            rules = Rules.from_json(json.loads(seat.rules))
            player = _PLAYERS[seat] = make_bot(seat.level, rules, seed=seat.seed)
            while len(_PLAYERS) > limit:
                _PLAYERS.popitem(last=False)
        else:
            _PLAYERS.move_to_end(seat)
        if hasattr(player, "waited"):
            player.waited = max(0.0, time.monotonic() - sent)
        return True, str(player.choose(observation))
    except Exception as exc:
        return False, f"{type(exc).__name__}: {exc}"


def _explain(seat: Seat, observation: dict[str, Any], limit: int, keep: bool
             ) -> tuple[bool, Any]:
    """``(True, explanation)`` of ``seat``'s player's decision (a hint: see
    :meth:`preferans.players.montecarlo.MonteCarloPlayer.explain`), or ``(False, why)``.
    ``keep``: the player is kept like a computer seat's (a hint player remembers the
    discard's worlds for the contract); else a fresh one answers and is dropped."""
    try:
        player = _PLAYERS.get(seat) if keep else None
        if player is None:
            player = make_bot(seat.level, Rules.from_json(json.loads(seat.rules)), seed=seat.seed)
            if keep:
                _PLAYERS[seat] = player
                while len(_PLAYERS) > limit:
                    _PLAYERS.popitem(last=False)
        elif keep:
            _PLAYERS.move_to_end(seat)
        explain = getattr(player, "explain", None)
        if explain is None:
            return False, f"the {seat.level} player gives no explanation"
        return True, explain(observation)
    except Exception as exc:
        return False, f"{type(exc).__name__}: {exc}"


def _forget(table: str) -> None:
    for seat in [seat for seat in _PLAYERS if seat.table == table]:
        del _PLAYERS[seat]


def _worker_main(requests: Connection, replies: Connection, nice: int, limit: int) -> None:
    """A thinking process: decide each request in turn, until the server closes the pipe."""
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)
    while True:
        try:
            kind, *args = pickle.loads(requests.recv_bytes())
        except (EOFError, OSError):
            return
        if kind == "forget":
            _forget(*args)
            continue
        if kind == "explain":
            seat, observation, keep = args
            replies.send_bytes(pickle.dumps(_explain(seat, observation, limit, keep)))
            continue
        replies.send_bytes(pickle.dumps(_decide(*args, limit)))


# --- in the server ---------------------------------------------------------------------------
def _context() -> multiprocessing.context.BaseContext:
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload([__name__])
        return ctx
    return multiprocessing.get_context("spawn")


Request = tuple[bytes, "asyncio.Future[tuple[bool, Any]] | None", float]
"""A framed request for a worker, the future its answer goes to (None: no answer), and the
seconds it may take once the worker starts on it."""

IN_FLIGHT_BYTES = 32 * 1024
"""Request bytes written ahead to a worker at most (below a pipe's 64 KiB: a write never
waits for the worker)."""


class Pickled:
    """A value pickled once, to go to the workers in many requests: pickling a request copies
    its bytes instead of pickling the value again, and the worker receives the value itself
    (an equal copy, as if it had been pickled with the request).  The sheet in an
    observation changes only when a deal ends, but goes with every decision.

    >>> sheet = {"deals": [1, 2], "balance": [0.5, -0.5]}
    >>> pickle.loads(pickle.dumps({"sheet": Pickled(sheet)})) == {"sheet": sheet}
    True
    """

    __slots__ = ("data",)

    def __init__(self, value: Any) -> None:
        self.data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)

    def __reduce__(self) -> tuple[Any, tuple[bytes]]:
        return pickle.loads, (self.data,)


RETRY_SECONDS = 1.0
"""How long a lane whose worker could not be started waits before trying again."""
START_SECONDS = 5.0
"""How long starting a worker may take before its fork server is taken for stopped or hung:
it is killed (the start in progress then fails at once and the next one makes a new fork
server) and the decisions waiting for that worker fail (their tables play on)."""
_MAIN_SWAP = threading.Lock()
"""Held while ``sys.modules["__main__"]`` is swapped for a start (:func:`_start_without_main`):
two lanes starting at once from their threads would otherwise leave the swap in place."""


def _forkserver() -> Any:
    from multiprocessing import forkserver

    return getattr(forkserver, "_forkserver", None)


def _forkserver_pid() -> int | None:
    return getattr(_forkserver(), "_forkserver_pid", None)


def _reset_forkserver(failed: int | None = None) -> None:
    """Forget a fork server that died or does not answer (killed by hand, out of memory,
    stopped), so that the next worker starts a new one instead of failing on the old one;
    ``failed``: the pid of the one that failed, when known (a newer one, started meanwhile
    by another lane, is left alone).  Run it off the event loop.

    It is killed first (its workers hold the pipe that would tell it to stop, so waiting for
    it to end by itself could wait for ever), and killed and waited for under the fork
    server's own lock: two lanes resetting at once used to wait, one of them, on a new fork
    server the other had started meanwhile, which never ends, and that lane never came back
    (``tests/server/test_thinking_stopped.py``)."""
    server = _forkserver()
    if server is None:
        return
    lock = getattr(server, "_lock", None)
    with lock if lock is not None else contextlib.nullcontext():
        pid = getattr(server, "_forkserver_pid", None)
        if pid is None or (failed is not None and pid != failed):
            return
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
        stop = getattr(server, "_stop_unlocked", None)
        if stop is not None:
            with contextlib.suppress(Exception):
                stop()


def _kill_forkserver() -> None:
    """Kill the fork server now (it does not answer): a start waiting for it fails at once,
    and the next start makes a new one (its workers live on)."""
    pid = getattr(_forkserver(), "_forkserver_pid", None)
    if pid:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def decision_timeout(level: str) -> float | None:
    """Seconds a decision of ``level`` may take before it is abandoned: twice its budget and
    :data:`MARGIN` (None: a level without a clock, the pool's own timeout)."""
    from ...players.clock import default_budget

    budget = default_budget(level)
    return None if budget is None else 2 * budget + MARGIN


def _frame(data: bytes) -> bytes:
    """``data`` framed as :meth:`multiprocessing.connection.Connection.recv_bytes` reads it."""
    return struct.pack("!i", len(data)) + data


def _unframe(buffer: bytearray) -> bytes | None:
    """The first whole frame of ``buffer`` (as ``Connection.send_bytes`` writes it), taken
    out of it; None while it has not all arrived.

    >>> buffer = bytearray(_frame(b"abc") + _frame(b"de")[:3])
    >>> _unframe(buffer), _unframe(buffer), bytes(buffer)
    (b'abc', None, b'\\x00\\x00\\x00')
    """
    if len(buffer) < 4:
        return None
    (size,) = struct.unpack("!i", buffer[:4])
    head = 4
    if size == -1:  # a frame of 2 GiB or more
        if len(buffer) < 12:
            return None
        (size,) = struct.unpack("!Q", buffer[4:12])
        head = 12
    if len(buffer) < head + size:
        return None
    data = bytes(buffer[head:head + size])
    del buffer[:head + size]
    return data


def _start_without_main(process: BaseProcess) -> None:
    """Start ``process`` without the server's ``__main__``: ``forkserver`` and ``spawn``
    import the parent's main script in the new process (and in the fork server), which
    would run a script without a ``__name__ == "__main__"`` guard (a test's server, a
    user's) a second time.  The worker needs only this module."""
    with _MAIN_SWAP:
        main = sys.modules.get("__main__")
        sys.modules["__main__"] = types.ModuleType("__main__")
        try:
            process.start()
        finally:
            if main is not None:
                sys.modules["__main__"] = main


Started = tuple[BaseProcess, Connection, Connection]
"""A worker process, the pipe its requests go to and the pipe its answers come from."""


class _Lane:
    """One thinking process and the requests waiting for it, driven from the event loop.

    The event loop never waits on the worker, whatever state it is in (busy, stopped with
    SIGSTOP, dead): both pipes are non-blocking, requests are written as far as the pipe
    takes them (the rest when it is writable again), answers are read as they arrive and
    taken whole; a worker is started again in a thread of its own, given
    :data:`START_SECONDS`.  No thread ever touches the lane's state: each hands its result
    to the loop.
    """

    def __init__(self, pool: Thinking, index: int, loop: asyncio.AbstractEventLoop) -> None:
        self.pool = pool
        self.index = index
        self.loop = loop
        self.waiting: deque[Request] = deque()
        self.in_flight: deque[Request] = deque()
        """Written, not answered yet; the first is the one the worker is deciding."""
        self.timer: asyncio.TimerHandle | None = None
        self.process: BaseProcess | None = None
        self.requests: Connection | None = None
        self.replies: Connection | None = None
        self.outbox = bytearray()
        """Requests not yet taken by the pipe (it was full)."""
        self.inbox = bytearray()
        """Answers' bytes read, not yet a whole answer."""
        self.writing = False
        self.starting: asyncio.TimerHandle | None = None
        """While a worker is being started in a thread: the deadline of that start."""
        self.closed = False
        self._start_now()

    # --- starting the worker ------------------------------------------------------------
    def _start_now(self) -> None:
        """Start the worker here and now (the pool's first start, before the server serves:
        the fork server is new and answers).  On failure the lane retries as below."""
        result, error = _spawn_twice(self.pool, self.index)
        self._started(result, error)

    def _start_soon(self) -> None:
        """Start the worker in a thread, the event loop going on; give up waiting after
        :data:`START_SECONDS` (:meth:`_start_overdue`)."""
        if self.closed or self.starting is not None or self.process is not None:
            return
        self.starting = self.loop.call_later(START_SECONDS, self._start_overdue)

        def start() -> None:
            result, error = _spawn_twice(self.pool, self.index)
            try:
                self.loop.call_soon_threadsafe(self._started, result, error)
            except RuntimeError:  # the loop is closed: the server stopped meanwhile
                if result is not None:
                    _discard(result)

        threading.Thread(target=start, name=f"preferans-thinking-start-{self.index}",
                         daemon=True).start()

    def _start_overdue(self) -> None:
        """A start that has not answered: the fork server is stopped or hung.  The decisions
        waiting fail now (their tables play on) and the fork server is killed, which ends
        the start (it fails, and the lane tries again with a new fork server)."""
        log.warning("thinking process %d: not started within %g s (its fork server does not "
                    "answer); the decisions waiting for it are given up", self.index,
                    START_SECONDS)
        self._fail_waiting(ThinkingError("the thinking process cannot be started"))
        _kill_forkserver()

    def _started(self, result: Started | None, error: BaseException | None) -> None:
        """On the loop: a start's outcome."""
        if self.starting is not None:
            self.starting.cancel()
            self.starting = None
        if self.closed:
            if result is not None:
                _discard(result)
            return
        if result is None:
            log.warning("thinking process %d cannot be started (%s: %s); trying again "
                        "in %g s", self.index, type(error).__name__, error, RETRY_SECONDS)
            self._fail_waiting(ThinkingError("the thinking process cannot be started"))
            self.loop.call_later(RETRY_SECONDS, self._retry)
            return
        self.process, self.requests, self.replies = result
        os.set_blocking(self.requests.fileno(), False)
        os.set_blocking(self.replies.fileno(), False)
        self.loop.add_reader(self.replies.fileno(), self._on_readable)
        self._dispatch()

    def _retry(self) -> None:
        if not self.closed and self.process is None:
            self._start_soon()

    def _fail_waiting(self, error: ThinkingError) -> None:
        for _, future, _ in self.waiting:
            if future is not None and not future.done():
                future.set_exception(error)
        self.waiting.clear()

    # --- requests out ---------------------------------------------------------------------
    def submit(self, message: tuple[Any, ...],
               future: asyncio.Future[tuple[bool, Any]] | None,
               timeout: float | None = None) -> None:
        limit = self.pool.timeout if timeout is None else min(timeout, self.pool.timeout)
        self.waiting.append((_frame(pickle.dumps(message)), future, limit))
        if len(self.waiting) == 1:
            # written at the end of this loop iteration, with the others submitted in it
            self.loop.call_soon(self._dispatch)

    def _dispatch(self) -> None:
        if self.requests is None:
            if self.waiting and self.process is None and self.starting is None:
                self._start_soon()  # requests wait and nothing is starting: start now
            return
        if not self.waiting:
            return
        ahead = sum(len(data) for data, _, _ in self.in_flight) + len(self.outbox)
        batch: list[Request] = []
        while self.waiting:
            data, future, _ = self.waiting[0]
            if future is not None and future.done():
                self.waiting.popleft()  # its table stopped waiting
                continue
            if (batch or self.in_flight or self.outbox) and ahead + len(data) > IN_FLIGHT_BYTES:
                break
            batch.append(self.waiting.popleft())
            ahead += len(data)
        if not batch:
            return
        self.outbox += b"".join(data for data, _, _ in batch)
        started = not self.in_flight
        self.in_flight.extend(item for item in batch if item[1] is not None)
        if started and self.in_flight:
            self._arm()
        self._flush()

    def _flush(self) -> None:
        """Write what the pipe takes now; the rest when it is writable again."""
        if self.requests is None:
            return
        fd = self.requests.fileno()
        while self.outbox:
            try:
                written = os.write(fd, self.outbox)
            except BlockingIOError:
                break
            except OSError:  # the worker is gone: what it was sent goes to the next one
                self._restart("its pipe is closed", fail_first=False)
                return
            del self.outbox[:written]
        if self.outbox and not self.writing:
            self.loop.add_writer(fd, self._flush)
            self.writing = True
        elif not self.outbox and self.writing:
            self.loop.remove_writer(fd)
            self.writing = False
            self._dispatch()

    def _arm(self) -> None:
        """Time the decision the worker starts on now (the first in flight)."""
        if self.timer is not None:
            self.timer.cancel()
        limit = self.in_flight[0][2] if self.in_flight else self.pool.timeout
        self.timer = self.loop.call_later(limit, self._timed_out, limit)

    # --- answers in -----------------------------------------------------------------------
    def _on_readable(self) -> None:
        replies = self.replies
        if replies is None:
            return
        try:
            chunk = os.read(replies.fileno(), 1 << 16)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            self._restart("its process died", ThinkingError("the thinking process died"))
            return
        self.inbox += chunk
        while self.replies is replies:
            data = _unframe(self.inbox)
            if data is None:
                return
            try:
                answer = pickle.loads(data)
            except Exception:
                self._restart("its answer cannot be read",
                              ThinkingError("the thinking process died"))
                return
            self._answered(answer)

    def _answered(self, answer: Any) -> None:
        if not self.in_flight:
            return
        _, future, _ = self.in_flight.popleft()
        if self.in_flight:
            self._arm()  # the next decision starts now
        elif self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if future is not None and not future.done():
            future.set_result(answer)
        self._dispatch()

    def _timed_out(self, limit: float) -> None:
        self.timer = None
        self._restart(f"a decision took over {limit:g} s",
                      ThinkingError(f"no decision within {limit:g} s"))

    def _restart(self, why: str, error: ThinkingError | None = None,
                 fail_first: bool = True) -> None:
        """Fail the decision the worker held (``fail_first``), start a new worker, hand it
        the others."""
        log.warning("thinking process %d: %s; starting it again", self.index, why)
        self.pool.restarts += 1
        if self.in_flight and fail_first:
            _, future, _ = self.in_flight.popleft()
            if future is not None and not future.done():
                future.set_exception(error or ThinkingError(why))
        self.waiting.extendleft(reversed(self.in_flight))
        self.in_flight.clear()
        self._stop()
        self._start_soon()

    def _stop(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.replies is not None:
            with contextlib.suppress(Exception):
                self.loop.remove_reader(self.replies.fileno())
        if self.requests is not None and self.writing:
            with contextlib.suppress(Exception):
                self.loop.remove_writer(self.requests.fileno())
        self.writing = False
        self.outbox.clear()
        self.inbox.clear()
        for connection in (self.requests, self.replies):
            if connection is not None:
                with contextlib.suppress(OSError):
                    connection.close()
        self.requests = self.replies = None
        if self.process is not None:
            with contextlib.suppress(Exception):
                self.process.kill()
        self.process = None

    def close(self) -> None:
        self.closed = True
        if self.starting is not None:
            self.starting.cancel()
            self.starting = None
        error = ThinkingError("the server is stopping")
        for _, future, _ in (*self.in_flight, *self.waiting):
            if future is not None and not future.done():
                future.set_exception(error)
        self.in_flight.clear()
        self.waiting.clear()
        self._stop()


def _spawn(pool: Thinking, index: int) -> Started:
    """A new worker process and its pipes (blocking: it waits for the fork server)."""
    ctx = _context()
    requests_in, requests_out = ctx.Pipe(duplex=False)
    replies_in, replies_out = ctx.Pipe(duplex=False)
    process = ctx.Process(target=_worker_main, name=f"preferans-thinking-{index}",
                          args=(requests_in, replies_out, pool.nice, pool.max_players),
                          daemon=True)
    try:
        _start_without_main(process)
    except BaseException:
        for end in (requests_in, requests_out, replies_in, replies_out):
            with contextlib.suppress(OSError):
                end.close()
        raise
    requests_in.close()
    replies_out.close()
    return process, requests_out, replies_in


def _spawn_twice(pool: Thinking, index: int) -> tuple[Started | None, BaseException | None]:
    """:func:`_spawn`, and once more with a new fork server if the first try fails (its
    fork server was killed, the machine is out of processes)."""
    error: BaseException | None = None
    for attempt in range(2):
        server = _forkserver_pid()
        try:
            return _spawn(pool, index), None
        except (OSError, EOFError, ValueError) as exc:
            error = exc
            if attempt == 0:
                _reset_forkserver(server)
    return None, error


def _discard(started: Started) -> None:
    process, requests, replies = started
    for connection in (requests, replies):
        with contextlib.suppress(OSError):
            connection.close()
    with contextlib.suppress(Exception):
        process.kill()


async def _bounded(future: asyncio.Future[tuple[bool, Any]], limit: float) -> tuple[bool, Any]:
    """A lane's answer, given up (:class:`ThinkingError`) if none comes within the decision's
    own limit, a worker's start and a margin: whatever state the lane is in, a table never
    waits for ever."""
    try:
        return await asyncio.wait_for(asyncio.shield(future), limit + START_SECONDS + MARGIN)
    except TimeoutError:
        future.cancel()
        raise ThinkingError("no answer from the thinking processes") from None


class Thinking:
    """The pool of thinking processes (see the module docstring).

    ``workers`` lanes (default :func:`default_workers`); ``timeout`` seconds per decision.
    Lanes start on :meth:`start` (or the first decision, on the running event loop) and stop
    on :meth:`close`.
    """

    def __init__(self, workers: int | None = None, *, timeout: float = DEFAULT_TIMEOUT,
                 max_players: int = MAX_PLAYERS, nice: int = NICE) -> None:
        count = default_workers() if workers is None else check_workers(workers)
        if count < 1:
            raise ValueError("a thinking pool needs at least one process")
        self.workers = count
        self.timeout = timeout
        self.max_players = max_players
        self.nice = nice
        self._lanes: list[_Lane] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tables: dict[str, int] = {}
        """The lane of each table that has asked for a decision."""
        self._load = [0] * count
        self.restarts = 0
        """How many times a lane was started again after a death or a timeout."""

    def start(self) -> None:
        """Start the processes now (from the event loop), so the first decision is quick."""
        self._ensure_lanes()

    def _ensure_lanes(self) -> list[_Lane]:
        loop = asyncio.get_running_loop()
        if self._loop is not loop or not self._lanes:
            self.close()
            self._loop = loop
            self._lanes = [_Lane(self, i, loop) for i in range(self.workers)]
        return self._lanes

    def lane_of(self, table: str) -> int:
        """The lane a table thinks in: the least loaded when it first asks, then always that."""
        index = self._tables.get(table)
        if index is None:
            index = min(range(self.workers), key=lambda i: (self._load[i], i))
            self._tables[table] = index
            self._load[index] += 1
        return index

    async def choose(self, seat: Seat, observation: dict[str, Any]) -> str:
        """The action token ``seat``'s player chooses; :class:`ThinkingError` if there is none."""
        lane = self._ensure_lanes()[self.lane_of(seat.table)]
        future: asyncio.Future[tuple[bool, str]] = lane.loop.create_future()
        lane.submit(("decide", seat, observation, time.monotonic()), future,
                    decision_timeout(seat.level))
        ok, answer = await _bounded(future, decision_timeout(seat.level) or self.timeout)
        if not ok:
            raise ThinkingError(answer)
        return answer

    async def explain(self, seat: Seat, observation: dict[str, Any], *,
                      keep: bool = True) -> dict[str, Any]:
        """What ``seat``'s player would decide and why (a hint, or the review of a call after
        the deal), worked out in the table's lane like a decision; :class:`ThinkingError`
        if there is no answer.  ``keep``: keep the player between requests (see
        :func:`_explain`)."""
        lane = self._ensure_lanes()[self.lane_of(seat.table)]
        future: asyncio.Future[tuple[bool, Any]] = lane.loop.create_future()
        lane.submit(("explain", seat, observation, keep), future, decision_timeout(seat.level))
        ok, answer = await _bounded(future, decision_timeout(seat.level) or self.timeout)
        if not ok:
            raise ThinkingError(answer)
        return dict(answer)

    def forget(self, table: str) -> None:
        """Drop a table's players from its worker (the table left memory)."""
        index = self._tables.pop(table, None)
        if index is None:
            return
        self._load[index] -= 1
        if index < len(self._lanes):
            self._lanes[index].submit(("forget", table), None)

    def pids(self) -> list[int | None]:
        """Each lane's process id (None: not started): for tests and the benchmark."""
        if not self._lanes:
            return [None] * self.workers
        return [lane.process.pid if lane.process is not None else None for lane in self._lanes]

    def close(self) -> None:
        """Stop every process (server shutdown); decisions in progress get ThinkingError."""
        lanes, self._lanes = self._lanes, []
        for lane in lanes:
            lane.close()
        self._loop = None
