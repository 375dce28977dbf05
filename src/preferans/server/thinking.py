"""The computer players' thinking, in worker processes away from the server's event loop.

A :class:`Thinking` pool holds a few *lanes*, each one worker process (a
``ProcessPoolExecutor`` of one, started by ``forkserver``).  A table's computer players are
pinned to one lane for the table's life: the worker keeps each player between decisions,
cached by (table, seat, level, rules, seed), so a player that remembers (the Monte Carlo
levels' caches, the random baseline's generator) makes the same decisions as one kept in the
server process, and a game stays reproducible from its seed.  The worker receives only the
seat's observation (plain data, pickled) and answers an action token.

A worker that dies, or a decision that overruns ``timeout`` seconds, raises
:class:`ThinkingError` for the decisions it held (the table then plays its random legal
fallback) and the lane is started again; its players are rebuilt fresh, as after a restart.
Workers run at a lower priority (``nice``) than the server, so thinking yields the CPU to
the sockets.

>>> from preferans.rules import Rules
>>> make_bot("random", Rules.preset("sochi"), 3).choose({"legal": ["PASS"]})
'PASS'
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from ..players import Player, make_player
from ..rules import Rules

log = logging.getLogger("preferans.server")

ENV_WORKERS = "PREFERANS_BOT_WORKERS"
"""Environment variable: the number of thinking processes (0: think in a thread instead)."""
DEFAULT_TIMEOUT = 30.0
"""Seconds a decision may take before its worker is restarted and the table plays on."""
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


def _worker_start(nice: int) -> None:
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)


def _ready() -> int:
    return os.getpid()


def _decide(seat: Seat, observation: dict[str, Any], limit: int) -> tuple[bool, str]:
    """``(True, token)``, or ``(False, why)`` when the player failed (an exception of the
    player's own might not survive the trip back)."""
    try:
        player = _PLAYERS.get(seat)
        if player is None:
            import json

            rules = Rules.from_json(json.loads(seat.rules))
            player = _PLAYERS[seat] = make_bot(seat.level, rules, seat.seed)
            while len(_PLAYERS) > limit:
                _PLAYERS.popitem(last=False)
        else:
            _PLAYERS.move_to_end(seat)
        return True, str(player.choose(observation))
    except Exception as exc:
        return False, f"{type(exc).__name__}: {exc}"


def _forget(table: str) -> int:
    gone = [seat for seat in _PLAYERS if seat.table == table]
    for seat in gone:
        del _PLAYERS[seat]
    return len(gone)


# --- in the server ---------------------------------------------------------------------------
def _context() -> multiprocessing.context.BaseContext:
    methods = multiprocessing.get_all_start_methods()
    if "forkserver" in methods:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload([__name__])
        return ctx
    return multiprocessing.get_context("spawn")


class Thinking:
    """The pool of thinking processes (see the module docstring).

    ``workers`` lanes (default :func:`default_workers`); ``timeout`` seconds per decision.
    Lanes start on :meth:`start` (or the first decision) and stop on :meth:`close`.
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
        self._lanes: list[ProcessPoolExecutor | None] = [None] * count
        self._tables: dict[str, int] = {}
        """The lane of each table that has asked for a decision."""
        self._load = [0] * count
        self.restarts = 0
        """How many times a lane was started again after a death or a timeout."""
        self._closed = False

    def start(self) -> None:
        """Start every lane's process now (in the background), so the first decision is quick."""
        self._closed = False
        for index in range(self.workers):
            self._lane(index).submit(_ready)

    def _lane(self, index: int) -> ProcessPoolExecutor:
        lane = self._lanes[index]
        if lane is None:
            lane = self._lanes[index] = ProcessPoolExecutor(
                max_workers=1, mp_context=_context(), initializer=_worker_start,
                initargs=(self.nice,))
        return lane

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
        if self._closed:
            raise ThinkingError("the server is stopping")
        index = self.lane_of(seat.table)
        lane = self._lane(index)
        try:
            future = lane.submit(_decide, seat, observation, self.max_players)
        except (BrokenProcessPool, RuntimeError) as exc:
            self._restart(index, lane, f"cannot take work ({exc})")
            raise ThinkingError(f"the thinking process was not running ({exc})") from None
        try:
            ok, answer = await asyncio.wait_for(asyncio.wrap_future(future), self.timeout)
        except TimeoutError:
            self._restart(index, lane, f"a decision took over {self.timeout:g} s")
            raise ThinkingError(f"no decision within {self.timeout:g} s") from None
        except BrokenProcessPool as exc:
            self._restart(index, lane, f"its process died ({exc})")
            raise ThinkingError("the thinking process died") from None
        if not ok:
            raise ThinkingError(answer)
        return answer

    def forget(self, table: str) -> None:
        """Drop a table's players from its worker (the table left memory)."""
        index = self._tables.pop(table, None)
        if index is None:
            return
        self._load[index] -= 1
        lane = self._lanes[index]
        if lane is not None and not self._closed:
            with contextlib.suppress(BrokenProcessPool, RuntimeError):
                lane.submit(_forget, table)

    def pids(self) -> list[int | None]:
        """Each lane's worker process id (None: not running): for tests and the benchmark."""
        out: list[int | None] = []
        for lane in self._lanes:
            processes = list(getattr(lane, "_processes", None) or {}) if lane else []
            out.append(processes[0] if processes else None)
        return out

    def _restart(self, index: int, lane: ProcessPoolExecutor, why: str) -> None:
        if self._lanes[index] is not lane:
            return  # another decision restarted it already
        log.warning("thinking process %d: %s; starting it again", index, why)
        self._lanes[index] = None
        self.restarts += 1
        _stop(lane)

    def close(self) -> None:
        """Stop every lane (server shutdown); decisions in progress are abandoned."""
        self._closed = True
        lanes, self._lanes = self._lanes, [None] * self.workers
        for lane in lanes:
            if lane is not None:
                _stop(lane)
        self._tables.clear()
        self._load = [0] * self.workers


def _stop(lane: ProcessPoolExecutor) -> None:
    """Shut a lane down without waiting for a decision in progress."""
    processes = list((getattr(lane, "_processes", None) or {}).values())
    lane.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(Exception):
            if process.is_alive():
                process.kill()
    for process in processes:
        with contextlib.suppress(Exception):
            process.join(timeout=2)
