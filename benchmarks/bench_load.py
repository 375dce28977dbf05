"""Load on the web server: N scripted browsers on loopback, each with its own table.

The server runs as a separate process (uvicorn, as ``preferans serve`` runs it, computer
players Easy thinking in their worker processes, no bot delay) on a fresh SQLite file.
Each client, from its own loopback address (127.x.y.z, as each player has his own computer:
the server's per-address bounds apply to each), creates a game (keeping its cookies, as a
browser does), opens the table's WebSocket and plays the human seat: a legal action as
soon as it is its turn, NEXT DEAL after a deal, a new game after a game.  It prints:

- the human-move answer latency (from sending an action to the state frame that
  acknowledges it) p50/p95/max;
- the computer players' moves as a player waits for them: from the frame that names one
  thinking to the frame with its move (``--difficulty`` and ``--busy N`` other busy
  processes for the decision budgets at the web table);
- game creation (``POST /api/games``) p50/p95/max;
- errors (error frames, closed sockets, failed requests);
- the server's memory (RSS, and its thinking processes') before and after, and the
  server's RSS with the tables open every ``--sample`` seconds (``--idle S``: tables with no
  socket leave memory after S seconds instead of the server's 300, to show the level);
- the event loop's longest stall: a probe inside the server sleeps 1 ms in a loop and
  records the overshoot (exposed at ``/bench/probe``, only in this benchmark's server);
- the garbage collector's pauses in the server by generation (``gc.callbacks``);
- the mean size of a frame the clients received, and the machine's load average at the
  start and the end (other work on the machine shows in every figure).

``--humans 3`` plays tables for friends instead: each table is three scripted humans, one
creating it through the friends' API (``POST /api/friends``, then ``start``), two taking
their seats through the invite's code (``POST /api/friends/{id}/join``), each with its own
cookies and its own loopback address (127.x.y.z: the per-address bounds of a real server
apply to each as to a friend's own computer), all three on their own socket, each playing
its own seat.  It prints the figure the issue asks for: from a human's action sent to the
moment each OTHER human of that table receives the state frame carrying it, p50/p95/max
(and the acting human's own answer, as above).

The server is served as ``preferans serve`` serves it: no WebSocket compression and the
startup objects frozen out of the garbage collector (``--deflate`` and ``--no-freeze``
measure without them).

    .venv/bin/python benchmarks/bench_load.py --clients 100 --seconds 60
    .venv/bin/python benchmarks/bench_load.py --clients 300 --seconds 15 --workers 2
    .venv/bin/python benchmarks/bench_load.py --clients 4 --difficulty hard --workers 0
    .venv/bin/python benchmarks/bench_load.py --clients 1 --think 1 --seconds 150 \
        --difficulty crazy --busy 6 --seed 1     # the same deals in every run: pairs two versions
    .venv/bin/python benchmarks/bench_load.py --humans 3 --clients 100 --seconds 60
    .venv/bin/python benchmarks/bench_load.py --humans 3 --processes 1,2 --steps 10,20,40
    .venv/bin/python benchmarks/bench_load.py --humans 3 --processes 1,2 --think 1.5
    .venv/bin/python benchmarks/bench_load.py --humans 3 --processes 2 --steps 20 --kill-after 10

``--processes 1,2`` runs the server as several processes sharing the tables (PostgreSQL and
Redis, throwaway servers started for the run; each table's three humans spread over the
processes, as behind a load balancer) and finds, for each count of processes, the most
tables of ``--steps`` whose figure (a human's move reaching the others; with ``--humans 1``
the move's answer) stays at p95 <= ``--target`` ms with no error, then prints the ratio of
the counts' tables: the two measured in one run, on the same machine and load.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PROBE_PATH = "/bench/probe"


# --- the server side ---------------------------------------------------------------------------
class LagProbe:
    """Sleeps ``interval`` seconds in a loop and records how late each wake-up was."""

    def __init__(self, interval: float = 0.001) -> None:
        self.interval = interval
        self.reset()

    def reset(self) -> None:
        self.max_stall = 0.0
        self.samples = 0
        self.over_20ms = 0
        self.over_5ms = 0

    async def run(self) -> None:
        clock = time.perf_counter
        while True:
            start = clock()
            await asyncio.sleep(self.interval)
            stall = clock() - start - self.interval
            self.samples += 1
            if stall > self.max_stall:
                self.max_stall = stall
            if stall > 0.005:
                self.over_5ms += 1
                if stall > 0.020:
                    self.over_20ms += 1


def _rss_kib(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def _cpu_seconds(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_server(port: int, db: str, workers: int | None, skip_saves: bool = False,
               deflate: bool = False, freeze: bool = True, idle: float | None = None,
               bus: str | None = None) -> None:
    """This benchmark's server: the real app plus the lag probe and its endpoint.
    ``skip_saves`` (a diagnosis, not a figure to report) makes saving mid-game a no-op."""
    import uvicorn
    from fastapi.responses import JSONResponse

    from preferans.server.app import create_app
    from preferans.server.gcpause import GcPauses
    from preferans.server.store.games import GameStore

    if skip_saves:
        async def no_save(self: Any, *a: Any, **k: Any) -> None:
            return None

        GameStore.save = lambda self, *a, **k: None  # type: ignore[method-assign]
        GameStore.save_async = no_save  # type: ignore[method-assign]

    import logging

    logging.basicConfig(level=logging.WARNING, format=f"server {port} %(levelname)s %(message)s")
    # scripted clients answer at once, faster than a person's 10 messages a second that a
    # socket may keep up (server/limits.py): the benchmark measures the server, not that bound
    os.environ.setdefault("PREFERANS_MESSAGE_RATE", "100000")
    os.environ.setdefault("PREFERANS_CREATION_RATE", "100000")  # many tables from one address
    extra: dict[str, Any] = {} if idle is None else {"idle_seconds": idle}
    if bus:
        extra["bus_url"] = bus
    app = create_app(db, bot_delay=0, bot_workers=workers, freeze_startup=freeze, **extra)
    gc_pauses = GcPauses().install()
    probe = LagProbe()
    created: list[float] = []
    tables = app.state.tables
    create = tables.create

    def timed_create(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return create(*args, **kwargs)
        finally:
            created.append(time.perf_counter() - start)

    tables.create = timed_create
    inner = app.router.lifespan_context

    profile_to = os.environ.get("BENCH_PROFILE")  # diagnosis: cProfile the server's process

    @asynccontextmanager
    async def lifespan(a: Any) -> Any:
        task = asyncio.get_running_loop().create_task(probe.run())
        profiler = None
        if profile_to:
            import cProfile

            profiler = cProfile.Profile()
            profiler.enable()
        async with inner(a) as state:
            yield state
        task.cancel()
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(profile_to)

    app.router.lifespan_context = lifespan

    @app.get(PROBE_PATH)
    def probe_json(reset: bool = False) -> JSONResponse:
        thinking = app.state.thinking
        pids = [p for p in (thinking.pids() if thinking else []) if p is not None]
        body = {
            "max_stall_ms": probe.max_stall * 1000, "samples": probe.samples,
            "stalls_over_5ms": probe.over_5ms, "stalls_over_20ms": probe.over_20ms,
            "rss_kib": _rss_kib(os.getpid()),
            "worker_rss_kib": [_rss_kib(p) for p in pids],
            "cpu_s": _cpu_seconds(os.getpid()),
            "worker_cpu_s": sum(_cpu_seconds(p) or 0.0 for p in pids),
            "tables": len(app.state.tables.open),
            "pid": os.getpid(),
            "cluster": app.state.cluster.status() if app.state.cluster is not None else None,
            "worker_restarts": thinking.restarts if thinking else 0,
            "create_s": list(created),
            "gc": gc_pauses.summary(),
        }
        if reset:
            probe.reset()
            gc_pauses.reset()
        return JSONResponse(body)

    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", ws_max_size=65536,
                ws_per_message_deflate=deflate)


# --- the clients -------------------------------------------------------------------------------
@dataclass
class Figures:
    answers: list[float] = field(default_factory=list)
    creations: list[float] = field(default_factory=list)
    probe_creations: list[float] = field(default_factory=list)
    """Games created once every client plays (a probe every 0.5 s, its tables left idle)."""
    errors: list[str] = field(default_factory=list)
    games: int = 0
    deals: int = 0
    frames: int = 0
    frame_bytes: int = 0
    idle_clients: int = 0
    """Clients that never got to create a game (the load generator was too slow)."""
    ramp: float = 0.0
    computer_moves: list[float] = field(default_factory=list)
    """From the frame that names a computer player as thinking to the frame with its move."""
    memory: list[tuple[float, int | None, int]] = field(default_factory=list)
    """(seconds since the start, the server's RSS in KiB, tables open) while they play."""
    reached: list[float] = field(default_factory=list)
    """Friends' tables (``--humans 3``): from a human's action sent to each other human's
    frame carrying it."""
    reconnects: int = 0
    """Sockets opened again after their process was killed (``--kill-after``)."""
    acted_again: int = 0
    """Moves sent again: their answer never came, a state without them did."""
    move_times: dict[int, list[float]] = field(default_factory=dict)
    """With ``--processes``: table -> when each move reached one of its sockets."""
    last_move: dict[int, float] = field(default_factory=dict)
    """Table -> when a move of it last reached a socket (``time.perf_counter``)."""


LEAVE_AFTER = 0
"""Deals after which a client leaves its game for a new one (``--leave-after``; 0: never)."""

THINK = 0.0
"""Mean seconds a scripted player thinks before each move (``--think``; 0: at once)."""

SEED: int | None = None
"""``--seed``: each client's games are dealt from seeds drawn from it (the server started
with client seeds allowed), so that two runs (two versions of the code) play the same deals;
``None``: the server draws every seed."""


def _pick(state: dict[str, Any], rng: random.Random) -> str:
    """A legal action that keeps games short: mostly PASS in the auction, else any."""
    obs = state["observation"]
    legal = sorted(obs["legal"])
    if obs.get("phase") == "auction" and "PASS" in legal and rng.random() < 0.8:
        return "PASS"
    return rng.choice(legal)


def _acknowledges(message: dict[str, Any]) -> bool:
    if message.get("type") == "error":
        return True
    event = message.get("event") or {}
    return message.get("type") == "state" and event.get("seat") == 0


_TLS: Any = None

BASES: list[str] = []
"""With ``--processes``: each server process's address; a table's humans (and the
one-player clients) spread over them as a load balancer would spread them."""


DEAD: set[str] = set()
"""With ``--kill-after``: the address of the process killed (its clients go to another)."""
KILLED_AT: list[float] = []
"""When the process was killed (``time.perf_counter``)."""


def _base_for(number: int, seat: int, base: str) -> str:
    """The address of the process that client ``number``'s seat ``seat`` talks to (a living
    one: a load balancer stops sending to a process that died)."""
    if not BASES:
        return base
    living = [b for b in BASES if b not in DEAD] or BASES
    chosen = BASES[(number + seat) % len(BASES)]
    return chosen if chosen not in DEAD else living[(number + seat) % len(living)]


async def client(number: int, base: str, until: float, figures: Figures,
                 difficulty: str = "easy") -> None:
    import httpx
    from websockets.asyncio.client import connect

    rng = random.Random(number)
    if time.perf_counter() >= until:
        figures.idle_clients += 1
        return
    global _TLS
    if _TLS is None:  # one TLS context for all (each client building its own is slow)
        import ssl

        _TLS = ssl.create_default_context()
    # each client its own loopback address, as each player has his own computer: the
    # server's per-address bounds (server/limits.py: 32 sockets, 5 openings a second) would
    # otherwise refuse a hundred players who all come from 127.0.0.1
    address = _address(number, 0)
    base = _base_for(number, 0, base)
    async with httpx.AsyncClient(
            base_url=base, timeout=60, verify=_TLS,
            transport=httpx.AsyncHTTPTransport(local_address=address, verify=_TLS)) as http:
        games = 0
        while time.perf_counter() < until:
            started = time.perf_counter()
            settings: dict[str, Any] = {"difficulty": difficulty, "rules": "sochi", "pool": 10}
            if SEED is not None:
                settings["seed"] = SEED + 100_003 * number + games
            games += 1
            try:
                response = await http.post("/api/games", json=settings)
            except httpx.HTTPError as exc:
                figures.errors.append(f"create: {type(exc).__name__}: {exc}")
                await asyncio.sleep(0.5)
                continue
            figures.creations.append(time.perf_counter() - started)
            if response.status_code != 201:
                figures.errors.append(f"create: HTTP {response.status_code} {response.text[:80]}")
                await asyncio.sleep(0.5)
                continue
            game_id = response.json()["id"]
            figures.games += 1
            cookies = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
            headers = {"Cookie": cookies} if cookies else {}
            ws_url = base.replace("http", "ws", 1) + f"/ws/{game_id}"
            try:
                async with connect(ws_url, additional_headers=headers, max_size=2**22,
                                   open_timeout=60, local_addr=(address, 0)) as ws:
                    await _play(ws, rng, until, figures)
            except Exception as exc:
                figures.errors.append(f"socket: {type(exc).__name__}: {exc}")
                await asyncio.sleep(0.5)


async def _play(ws: Any, rng: random.Random, until: float, figures: Figures) -> None:
    sent_at: float | None = None
    deals = 0
    thinking: tuple[int, float] | None = None
    """The computer seat the last frame said was thinking, and when that frame came."""
    while True:
        remaining = until - time.perf_counter()
        if remaining <= 0 and sent_at is None:
            return
        try:
            text = await asyncio.wait_for(ws.recv(), timeout=max(remaining, 0) + 30)
        except TimeoutError:
            figures.errors.append("socket: no frame for 30 s")
            return
        message = json.loads(text)
        figures.frames += 1
        figures.frame_bytes += len(text.encode()) if isinstance(text, str) else len(text)
        if sent_at is not None and _acknowledges(message):
            figures.answers.append(time.perf_counter() - sent_at)
            sent_at = None
        if message.get("type") == "state":  # a computer move: the frame before to its own
            event = message.get("event") or {}
            if thinking is not None and event.get("seat") == thinking[0]:
                figures.computer_moves.append(time.perf_counter() - thinking[1])
                thinking = None
            if message.get("thinking") is None:
                thinking = None
            elif thinking is None or thinking[0] != message["thinking"]:
                thinking = (message["thinking"], time.perf_counter())
        if message.get("type") == "error":
            figures.errors.append(f"frame: {message.get('code')}: {message.get('message')}")
            continue
        if message.get("type") != "state" or message.get("thinking") is not None:
            continue
        if time.perf_counter() >= until:
            return
        if message["game_over"]:
            return
        if message["deal_over"]:
            figures.deals += 1
            deals += 1
            if deals == LEAVE_AFTER:
                return
            await ws.send(json.dumps({"type": "next_deal"}))
        elif message["observation"].get("to_act") == 0 and sent_at is None:
            if THINK > 0:  # a player's thinking time before the move (--think)
                await asyncio.sleep(rng.uniform(0.5 * THINK, 1.5 * THINK))
            sent_at = time.perf_counter()
            await ws.send(json.dumps({"type": "action", "token": _pick(message, rng)}))


# --- tables of three humans (--humans 3) --------------------------------------------------------
def _address(table: int, seat: int) -> str:
    """Each scripted human's own loopback address (127.1.0.0/16 and up): the server's
    per-address bounds (sockets, openings) see three friends, not one machine."""
    n = table * 3 + seat + 1
    return f"127.{1 + n // 65536}.{(n // 256) % 256}.{n % 256}"


@dataclass
class _Moves:
    """A table's actions in flight: seat -> (when it was sent, the others yet to see it)."""

    sent: dict[int, tuple[float, set[int]]] = field(default_factory=dict)
    table: int = 0


async def friends_table(number: int, base: str, until: float, figures: Figures) -> None:
    """One table of three humans, game after game until ``until``."""
    import httpx

    rng = random.Random(number)
    if time.perf_counter() >= until:
        figures.idle_clients += 1
        return
    global _TLS
    if _TLS is None:
        import ssl

        _TLS = ssl.create_default_context()
    https = [httpx.AsyncClient(base_url=_base_for(number, seat, base), timeout=60, verify=_TLS,
                               transport=httpx.AsyncHTTPTransport(
                                   local_address=_address(number, seat), verify=_TLS))
             for seat in range(3)]
    try:
        while time.perf_counter() < until:
            for seat, http in enumerate(https):  # a client of a dead process: another one
                if str(http.base_url).rstrip("/") in DEAD:
                    cookies = http.cookies
                    await http.aclose()
                    https[seat] = httpx.AsyncClient(
                        base_url=_base_for(number, seat, base), timeout=60, verify=_TLS,
                        cookies=cookies, transport=httpx.AsyncHTTPTransport(
                            local_address=_address(number, seat), verify=_TLS))
            game_id = await _gather_friends(https, figures)
            if game_id is None:
                await asyncio.sleep(0.5)
                continue
            figures.games += 1
            moves = _Moves(table=number)
            seats = [asyncio.create_task(_friend_plays(
                seat, https[seat], number, game_id, base, rng, until, figures, moves))
                for seat in range(3)]
            await asyncio.gather(*seats)
    finally:
        for http in https:
            await http.aclose()


async def _gather_friends(https: list[Any], figures: Figures) -> str | None:
    """Create a table for three friends, seat the two others by the invite, start it."""
    import httpx

    started = time.perf_counter()
    try:
        response = await https[0].post("/api/friends", json={
            "name": "Anna", "seats": ["friend", "friend"], "rules": "sochi", "pool": 10})
        if response.status_code != 201:
            figures.errors.append(f"create: HTTP {response.status_code} {response.text[:80]}")
            return None
        created = response.json()
        game_id, code = created["id"], created["invite"].rsplit("/", 1)[1]
        for seat, name in ((1, "Boris"), (2, "Vera")):
            joined = await https[seat].post(f"/api/friends/{game_id}/join", json={
                "code": code, "seat": seat, "name": name})
            if joined.status_code != 200:
                figures.errors.append(f"join: HTTP {joined.status_code} {joined.text[:80]}")
                return None
        begun = await https[0].post(f"/api/friends/{game_id}/start", json={})
        if begun.status_code != 200:
            figures.errors.append(f"start: HTTP {begun.status_code} {begun.text[:80]}")
            return None
    except httpx.HTTPError as exc:
        figures.errors.append(f"create: {type(exc).__name__}: {exc}")
        return None
    figures.creations.append(time.perf_counter() - started)
    return game_id


async def _friend_plays(seat: int, http: Any, number: int, game_id: str, base: str,
                        rng: random.Random, until: float, figures: Figures,
                        moves: _Moves) -> None:
    from websockets.asyncio.client import connect

    cookies = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
    for attempt in range(4):
        ws_url = _base_for(number, seat, base).replace("http", "ws", 1) + f"/ws/{game_id}"
        try:
            async with connect(ws_url, additional_headers={"Cookie": cookies}, max_size=2**22,
                               open_timeout=60, local_addr=(_address(number, seat), 0)) as ws:
                await _play_seat(ws, seat, rng, until, figures, moves)
            return
        except Exception as exc:
            if KILLED_AT and attempt < 3 and time.perf_counter() < until:
                figures.reconnects += 1  # its process was killed: as the page, reconnect
                await asyncio.sleep(0.3 * 2 ** attempt)
                continue
            figures.errors.append(f"socket: {type(exc).__name__}: {exc}")
            return


async def _play_seat(ws: Any, seat: int, rng: random.Random, until: float, figures: Figures,
                     moves: _Moves) -> None:
    """Play ``seat`` of a friends' table: its action when it is to act, NEXT DEAL (the
    creator) after a deal; note when another human's action reaches this seat."""
    mine: float | None = None
    while True:
        remaining = until - time.perf_counter()
        if remaining <= 0 and mine is None:
            return
        # waiting for another seat: until the run ends (the others stop then: a frame that
        # reached this socket just before the end and theirs just after leaves this seat
        # waiting for a move nobody makes), at most 30 s; waiting for its own move's answer:
        # 30 s
        wait = 30.0 if mine is not None else min(remaining, 30.0)
        try:
            text = await asyncio.wait_for(ws.recv(), timeout=wait)
        except TimeoutError:
            if mine is None and time.perf_counter() >= until:
                return
            figures.errors.append("socket: no frame for 30 s")
            return
        now = time.perf_counter()
        message = json.loads(text)
        figures.frames += 1
        figures.frame_bytes += len(text.encode()) if isinstance(text, str) else len(text)
        if message.get("type") == "error":
            figures.errors.append(f"frame: {message.get('code')}: {message.get('message')}")
            if mine is not None:
                mine = None
            continue
        if message.get("type") != "state":
            continue
        event = message.get("event") or {}
        actor = event.get("seat")
        if event and event.get("kind") != "deal_started" and isinstance(actor, int):
            if KILLED_AT or BASES:
                figures.move_times.setdefault(moves.table, []).append(now)
            figures.last_move[moves.table] = now
            if actor == seat and mine is not None:
                figures.answers.append(now - mine)
                mine = None
            in_flight = moves.sent.get(actor)
            if actor != seat and in_flight is not None and seat in in_flight[1]:
                figures.reached.append(now - in_flight[0])
                in_flight[1].discard(seat)
                if not in_flight[1]:
                    del moves.sent[actor]
        if now >= until:
            return
        if message["game_over"]:
            return
        if message["deal_over"]:
            if seat == 0:
                figures.deals += 1
                await ws.send(json.dumps({"type": "next_deal"}))
        elif message["observation"].get("to_act") == seat and mine is not None and not event:
            # a state with no move in it while this seat's move is unanswered: its move was
            # taken back (a refused save) or the state came again (a socket resuming after a
            # process died or the bus came back): as a player, act again
            figures.acted_again += 1
            mine = None
        if (not message["deal_over"] and mine is None
                and message["observation"].get("to_act") == seat):
            if THINK > 0:
                await asyncio.sleep(rng.uniform(0.5 * THINK, 1.5 * THINK))
            mine = time.perf_counter()
            moves.sent[seat] = (mine, {s for s in range(3) if s != seat})
            await ws.send(json.dumps({"type": "action", "token": _pick(message, rng)}))


async def memory_samples(base: str, started: float, until: float, every: float,
                         figures: Figures) -> None:
    """The server's RSS and open tables every ``every`` seconds while the clients play."""
    while True:
        now = time.perf_counter()
        probe = await asyncio.to_thread(_probe, base)
        figures.memory.append((now - started, probe["rss_kib"], probe["tables"]))
        if now + every > until:
            return
        await asyncio.sleep(every)


async def creation_probe(base: str, until: float, figures: Figures) -> None:
    """Create a game every 0.5 s while the clients play (nobody sits at these tables)."""
    import httpx

    async with httpx.AsyncClient(base_url=base, timeout=60, verify=_TLS) as http:
        while time.perf_counter() < until:
            started = time.perf_counter()
            try:
                response = await http.post("/api/games", json={
                    "difficulty": "easy", "rules": "sochi", "pool": 10})
            except httpx.HTTPError as exc:
                figures.errors.append(f"probe create: {type(exc).__name__}: {exc}")
            else:
                if response.status_code == 201:
                    figures.probe_creations.append(time.perf_counter() - started)
                else:
                    figures.errors.append(f"probe create: HTTP {response.status_code}")
            await asyncio.sleep(0.5)


def _quantiles(values: list[float]) -> str:
    if not values:
        return "none"
    ms = sorted(v * 1000 for v in values)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    return f"p50 {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, max {ms[-1]:.1f} ms"


def _probe(base: str, reset: bool = False) -> dict[str, Any]:
    import httpx

    return httpx.get(f"{base}{PROBE_PATH}", params={"reset": reset}, timeout=30).json()


def _mib(kib: int | None) -> str:
    return "?" if kib is None else f"{kib / 1024:.0f} MiB"


def _start_servers(args: Any, count: int, db: str, bus: str) -> list[subprocess.Popen[bytes]]:
    """``count`` benchmark servers on ports ``--port`` and up, sharing ``db`` and ``bus``."""
    import httpx

    servers = []
    for index in range(count):
        command = [sys.executable, __file__, "--serve", "--port", str(args.port + index),
                   "--db", db, "--bus", bus]
        if args.workers is not None:
            command += ["--workers", str(args.workers)]
        servers.append(subprocess.Popen(command))
    for index in range(count):
        for _ in range(900):
            try:
                _probe(f"http://127.0.0.1:{args.port + index}", reset=True)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            raise SystemExit("a server did not start")
    return servers


def kill_run(args: Any) -> None:
    """``--kill-after S``: the last count of ``--processes`` (two or more) carries the first
    count of ``--steps`` tables; S seconds in, the first process is killed (SIGKILL); its
    clients reconnect to another (as a page does, through the load balancer) and every
    table's first move after the kill is timed."""
    import signal

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "server"))
    from pg_server import TempPostgres
    from redis_server import TempRedis

    from preferans.server.store.games import GameStore

    count = [int(n) for n in args.processes.split(",")][-1]
    tables = int(args.steps.split(",")[0])
    if count < 2:
        raise SystemExit("--kill-after needs --processes 2 or more")
    postgres = TempPostgres().start()
    redis = TempRedis().start()
    try:
        db = postgres.new_database("bench_kill")
        GameStore(db).close()
        servers = _start_servers(args, count, db, redis.url)
        BASES[:] = [f"http://127.0.0.1:{args.port + i}" for i in range(count)]
        figures = Figures()
        ramp = max(2.0, tables / 30)

        async def kill_later(at: float) -> None:
            await asyncio.sleep(max(0.0, at - time.perf_counter()))
            owned = _probe(BASES[0])["tables"]
            servers[0].send_signal(signal.SIGKILL)
            KILLED_AT.append(time.perf_counter())
            DEAD.add(BASES[0])
            print(f"killed process 0 (pid {servers[0].pid}) holding {owned} tables in "
                  "memory", flush=True)

        async def run_all() -> float:
            started = time.perf_counter()
            until = started + ramp + args.seconds
            killer = asyncio.create_task(kill_later(started + ramp + args.kill_after))
            tasks = []
            for n in range(tables):
                tasks.append(asyncio.create_task(friends_table(n, BASES[0], until, figures)))
                await asyncio.sleep(ramp / max(tables, 1))
            await asyncio.gather(*tasks, killer)
            return time.perf_counter() - started

        load = os.getloadavg()
        try:
            wall = asyncio.run(run_all())
        finally:
            for server in servers:
                if server.poll() is None:
                    server.terminate()
            for server in servers:
                server.wait(timeout=60)
    finally:
        redis.close()
        postgres.stop()
    killed = KILLED_AT[0]
    pauses: dict[int, float] = {}
    """Table -> its pause across the kill: from the last move before it to the first after
    it (a frame in flight when the process died counts before)."""
    for table, times in figures.move_times.items():
        times = sorted(times)
        before = [t for t in times if t <= killed]
        after = [t for t in times if t > killed]
        if before and after:
            pauses[table] = after[0] - before[-1]
            for earlier, later in itertools.pairwise(times):
                if earlier <= killed + 0.5 and later > killed:  # frames still in flight
                    pauses[table] = max(pauses[table], later - earlier)
    moved_before = [t for t, times in figures.move_times.items() if min(times) <= killed]
    stalled = sorted(set(moved_before) - set(pauses))
    print(f"{count} processes, {tables} tables of three humans, {args.seconds:g} s "
          f"(+{ramp:.1f} s ramp), wall {wall:.1f} s, process 0 killed {args.kill_after:g} s "
          f"in; load average {load[0]:.2f} -> {os.getloadavg()[0]:.2f}")
    print(f"tables going on after the kill: {len(pauses)} of {len(moved_before)}; "
          f"each one's longest pause between two moves around the kill: "
          f"{_quantiles(list(pauses.values()))}; tables that never moved again: "
          f"{len(stalled)}; the longest pauses: "
          + ", ".join(f"{v:.2f} s" for v in sorted(pauses.values())[-6:][::-1]))
    print(f"sockets reconnected: {figures.reconnects}; moves sent again (their answer lost "
          f"with the process): {figures.acted_again}; errors {len(figures.errors)}"
          + (f" (first: {figures.errors[0][:120]})" if figures.errors else ""))
    print(f"a human's move reaching the other humans, the whole run: "
          f"{_quantiles(figures.reached)} ({len(figures.reached)} frames)")


def compare_processes(args: Any) -> None:
    """The tables carried at p95 <= ``--target`` ms by each count of processes, measured in
    this one run on a throwaway PostgreSQL and Redis (tests/server's helpers)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "server"))
    from pg_server import TempPostgres
    from redis_server import TempRedis

    counts = [int(n) for n in args.processes.split(",")]
    steps = [int(n) for n in args.steps.split(",")]
    metric = "a human's move reaching the other humans" if args.humans == 3 else \
        "a human's move answered"
    print(f"{metric}, p95 target {args.target:g} ms; tables of "
          f"{'three humans' if args.humans == 3 else 'one human and two computer players'}; "
          f"clients {'answer at once' if not args.think else f'think {args.think:g} s'}; "
          f"{args.seconds:g} s a step; {os.cpu_count()} CPUs", flush=True)
    postgres = TempPostgres().start()
    redis = TempRedis().start()
    carried: dict[int, int] = {}
    number = 0
    try:
        for count in counts:
            carried[count] = 0
            for tables in steps:
                number += 1
                db = postgres.new_database(f"bench_{number}")
                from preferans.server.store.games import GameStore

                GameStore(db).close()
                servers = _start_servers(args, count, db, redis.url)
                BASES[:] = [f"http://127.0.0.1:{args.port + i}" for i in range(count)]
                figures = Figures()
                ramp = max(2.0, tables / 30)

                async def run_all(tables: int = tables, ramp: float = ramp,
                                  figures: Figures = figures) -> float:
                    started = time.perf_counter()
                    until = started + ramp + args.seconds
                    tasks = []
                    for n in range(tables):
                        tasks.append(asyncio.create_task(
                            friends_table(n, BASES[0], until, figures) if args.humans == 3
                            else client(n, BASES[0], until, figures, args.difficulty)))
                        await asyncio.sleep(ramp / max(tables, 1))
                    await asyncio.gather(*tasks)
                    return time.perf_counter() - started

                load = os.getloadavg()
                try:
                    wall = asyncio.run(run_all())
                    probes = [_probe(base) for base in BASES]
                finally:
                    for server in servers:
                        server.terminate()
                    for server in servers:
                        server.wait(timeout=60)
                values = figures.reached if args.humans == 3 else figures.answers
                ms = sorted(v * 1000 for v in values)
                p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))] if ms else float("inf")
                ok = p95 <= args.target and not figures.errors
                if ok:
                    carried[count] = max(carried[count], tables)
                cpu = ", ".join(f"{p['cpu_s']:.0f}" for p in probes)
                print(f"processes {count}, tables {tables}: {_quantiles(values)} "
                      f"({len(values)} frames, {len(figures.answers) / wall:.0f} moves/s); "
                      f"errors {len(figures.errors)}"
                      + (f" (first: {figures.errors[0][:100]})" if figures.errors else "")
                      + f"; moves sent again {figures.acted_again}"
                      + "; takeovers, leases lost, bus reconnects, bus lag p95 ms: "
                      + ", ".join(f"{c['takeovers']}/{c['leases_lost']}/"
                                  f"{c['bus']['reconnects']}/{c['bus']['lag_ms']['p95']}"
                                  for c in (p["cluster"] for p in probes))
                      + f"; server CPU s {cpu}; tables owned "
                      f"{', '.join(str(p['tables']) for p in probes)}; load average "
                      f"{load[0]:.2f} -> {os.getloadavg()[0]:.2f}"
                      + ("" if ok else "  (over the target)"), flush=True)
                if not ok:
                    break
    finally:
        redis.close()
        postgres.stop()
    first = counts[0]
    line = "; ".join(f"{count} process{'es' if count > 1 else ''}: {carried[count]} tables"
                     for count in counts)
    ratios = ", ".join(f"{count}/{first}: "
                       + (f"{carried[count] / carried[first]:.2f}" if carried[first] else "-")
                       for count in counts[1:])
    print(f"tables carried at p95 <= {args.target:g} ms: {line}" + (
        f"; ratio {ratios}" if ratios else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=100, help="tables played at once")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long they play")
    parser.add_argument("--ramp", type=float, default=None,
                        help="seconds over which the clients start (default: 30 a second, "
                        "at least 2 s)")
    parser.add_argument("--workers", type=int, default=None,
                        help="the server's thinking processes (default: its own; 0: a thread)")
    parser.add_argument("--difficulty", default="easy",
                        choices=("easy", "normal", "hard", "crazy"),
                        help="the computer players' level (a few hard tables show the stall "
                        "while bots think)")
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean seconds each player thinks before a move, drawn uniformly "
                             "from half to one and a half times it (default 0: at once, "
                             "which saturates the server: a stress figure, not a player's)")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--skip-saves", action="store_true",
                        help="diagnosis: the server does not save mid-game (not a real figure)")
    parser.add_argument("--deflate", action="store_true",
                        help="diagnosis: the server compresses WebSocket frames (permessage-"
                        "deflate, uvicorn's default; `preferans serve` turns it off)")
    parser.add_argument("--no-freeze", action="store_true",
                        help="diagnosis: the server does not freeze its startup objects out of "
                        "the garbage collector nor change its thresholds")
    parser.add_argument("--idle", type=float, default=None,
                        help="seconds a table with no socket stays in the server's memory "
                        "(default: the server's, 300 s); a short one shows the memory level "
                        "off as finished games leave")
    parser.add_argument("--leave-after", type=int, default=0,
                        help="deals after which a client closes its game and starts another "
                        "(default 0: it plays each game to its end), as players who leave do")
    parser.add_argument("--sample", type=float, default=15.0,
                        help="seconds between the server's memory samples (RSS, tables open)")
    parser.add_argument("--busy", type=int, default=0,
                        help="other processes kept busy solving positions for the whole run "
                        "(the machine's other work, as in bench_players.py)")
    parser.add_argument("--humans", type=int, default=1, choices=(1, 3),
                        help="humans at each table: 1 (against two computer players) or 3 "
                        "(a table for friends, each human a client of its own; --clients "
                        "counts tables)")
    parser.add_argument("--processes", default=None, metavar="N[,M...]",
                        help="server processes sharing the tables through PostgreSQL and "
                        "Redis (throwaway servers; each table's humans spread over the "
                        "processes): for each count, the tables carried at p95 <= "
                        "--target ms with --steps tables, and the ratio to the first count "
                        "(e.g. --processes 1,2)")
    parser.add_argument("--steps", default="10,20,40,80",
                        help="with --processes: the table counts tried, each for --seconds")
    parser.add_argument("--target", type=float, default=50.0,
                        help="with --processes: the p95 (ms) a count of tables must keep")
    parser.add_argument("--kill-after", type=float, default=None, metavar="S",
                        help="with --processes 2 and --humans 3: kill the first process S "
                        "seconds in and time each table's first move after it")
    parser.add_argument("--seed", type=int, default=None,
                        help="deal each client's games from seeds drawn from this one (the "
                        "server started with client seeds allowed), so that two runs of two "
                        "versions of the code play the same deals (default: the server draws)")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--db", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--bus", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    global THINK, LEAVE_AFTER, SEED
    THINK, LEAVE_AFTER, SEED = args.think, args.leave_after, args.seed
    if SEED is not None:  # the server (started below, or this process with --serve) lets
        os.environ["PREFERANS_ALLOW_SEEDS"] = "1"  # a client choose a game's seed
    if args.serve:
        if os.environ.get("BENCH_SWITCH_INTERVAL"):  # diagnosis: the GIL's hand-over time
            sys.setswitchinterval(float(os.environ["BENCH_SWITCH_INTERVAL"]))
        run_server(args.port, args.db, args.workers, args.skip_saves, args.deflate,
                   not args.no_freeze, args.idle, args.bus)
        return
    if args.processes and args.kill_after is not None:
        kill_run(args)
        return
    if args.processes:
        compare_processes(args)
        return

    import httpx

    if args.ramp is None:
        args.ramp = max(2.0, args.clients / 30)
    base = f"http://127.0.0.1:{args.port}"
    with tempfile.TemporaryDirectory() as folder:
        db = f"sqlite:///{Path(folder) / 'load.db'}"
        command = [sys.executable, __file__, "--serve", "--port", str(args.port), "--db", db]
        if args.workers is not None:
            command += ["--workers", str(args.workers)]
        for flag in ("skip_saves", "deflate", "no_freeze"):
            if getattr(args, flag):
                command.append("--" + flag.replace("_", "-"))
        if args.idle is not None:
            command += ["--idle", str(args.idle)]
        server = subprocess.Popen(command)
        busy = []
        if args.busy:
            import multiprocessing

            from bench_players import spin

            busy = [multiprocessing.Process(target=spin, args=(i,), daemon=True)
                    for i in range(args.busy)]
            for process in busy:
                process.start()
        try:
            for _ in range(600):
                try:
                    before = _probe(base)
                    break
                except httpx.HTTPError:
                    time.sleep(0.1)
            else:
                raise SystemExit("the server did not start")
            time.sleep(1.0)
            before = _probe(base, reset=True)
            print(f"server pid {server.pid} ready", flush=True)
            figures = Figures()

            async def run_all() -> float:
                started = time.perf_counter()
                until = started + args.ramp + args.seconds
                tasks = []
                for n in range(args.clients):
                    tasks.append(asyncio.create_task(
                        friends_table(n, base, until, figures) if args.humans == 3
                        else client(n, base, until, figures, args.difficulty)))
                    await asyncio.sleep(args.ramp / max(args.clients, 1))
                figures.ramp = time.perf_counter() - started
                tasks.append(asyncio.create_task(creation_probe(base, until, figures)))
                tasks.append(asyncio.create_task(memory_samples(
                    base, started, until, args.sample, figures)))
                await asyncio.gather(*tasks)
                return time.perf_counter() - started

            load_start = os.getloadavg()
            client_cpu = time.process_time()
            wall = asyncio.run(run_all())
            client_cpu = time.process_time() - client_cpu
            load_end = os.getloadavg()
            after = _probe(base)
        finally:
            for process in busy:
                process.terminate()
            server.terminate()
            server.wait(timeout=30)
    if args.humans == 3:
        print(f"tables {args.clients} of three humans (friends' tables), {args.seconds:g} s "
              f"(+{args.ramp:.1f} s ramp), wall {wall:.1f} s; games {figures.games}, deals "
              f"{figures.deals}, human moves {len(figures.answers)} "
              f"({len(figures.answers) / wall:.0f}/s)")
        print(f"tables started in {figures.ramp:.1f} s; tables that never started a game: "
              f"{figures.idle_clients}")
        print(f"a human's move reaching the other humans (action sent to their frame): "
              f"{_quantiles(figures.reached)} ({len(figures.reached)} frames)")
        print(f"human move answered (to the one who moved): {_quantiles(figures.answers)}")
        print(f"table created, two friends seated by the invite and started: "
              f"{_quantiles(figures.creations)} ({len(figures.creations)}); a one-player "
              f"game created while all play: {_quantiles(figures.probe_creations)}")
    else:
        print(f"clients {args.clients} ({args.difficulty}), {args.seconds:g} s "
              f"(+{args.ramp:.1f} s ramp), "
              f"wall {wall:.1f} s; games {figures.games}, deals {figures.deals}, "
              f"human moves {len(figures.answers)} ({len(figures.answers) / wall:.0f}/s)")
        print(f"clients started in {figures.ramp:.1f} s; clients that never created a game: "
              f"{figures.idle_clients}")
        print(f"human move answered: {_quantiles(figures.answers)}")
        print(f"computer move (the frame naming it thinking to the frame with its move): "
              f"{_quantiles(figures.computer_moves)} ({len(figures.computer_moves)} moves, "
              f"{args.difficulty})")
        print(f"game created: {_quantiles(figures.creations)} ({len(figures.creations)}, most "
              f"while the clients start); while all play: {_quantiles(figures.probe_creations)}")
    print(f"game created, inside the server: {_quantiles(after['create_s'])}")
    print(f"errors: {len(figures.errors)}" + (
        "" if not figures.errors else f" (first: {figures.errors[0]})"))
    print(f"server RSS: before {_mib(before['rss_kib'])}, after {_mib(after['rss_kib'])} "
          f"({after['tables']} tables open); thinking processes: before "
          f"{', '.join(_mib(k) for k in before['worker_rss_kib']) or '-'}, after "
          f"{', '.join(_mib(k) for k in after['worker_rss_kib']) or '-'}")
    print("server memory while they play: " + ", ".join(
        f"{t:.0f} s {_mib(rss)} ({tables} tables)" for t, rss, tables in figures.memory)
        + ("" if args.idle is None else f"; tables leave memory after {args.idle:g} s idle"))
    cpu = after["cpu_s"] - before["cpu_s"]
    workers_cpu = after["worker_cpu_s"] - before["worker_cpu_s"]
    print(f"CPU: server {cpu:.1f} s ({cpu / wall:.0%} of one core; "
          f"{cpu * 1000 / max(figures.frames, 1):.2f} ms per state frame sent, "
          f"{figures.frames} frames), thinking processes {workers_cpu:.1f} s"
          + (" (saves skipped: a diagnosis)" if args.skip_saves else ""))
    gc_line = ", ".join(
        f"gen {g}: {after['gc'][f'gen{g}']['count']} ({after['gc'][f'gen{g}']['total_ms']:.0f} ms,"
        f" longest {after['gc'][f'gen{g}']['max_ms']:.1f} ms, as CPU time "
        f"{after['gc'][f'gen{g}']['cpu_max_ms']:.1f} ms)" for g in range(3))
    print(f"server gc: {gc_line}; {after['gc']['frozen']} objects frozen")
    print(f"frames: mean {figures.frame_bytes / max(figures.frames, 1) / 1024:.1f} KiB "
          f"({'deflate' if args.deflate else 'no compression'}); load average "
          f"{' '.join(f'{x:.2f}' for x in load_start)} at the start, "
          f"{' '.join(f'{x:.2f}' for x in load_end)} at the end ({os.cpu_count()} CPUs); "
          f"the clients' process used {client_cpu / wall:.0%} of one core")
    print(f"event loop: longest stall {after['max_stall_ms']:.1f} ms, stalls over 5 ms "
          f"{after['stalls_over_5ms']}, over 20 ms {after['stalls_over_20ms']} "
          f"(of {after['samples']} probes of 1 ms); worker restarts {after['worker_restarts']}")


if __name__ == "__main__":
    main()
