"""Another table's move latency while a stranger attacks the server, one attack at a time.

Starts ``preferans serve`` on a free port (its default bounds, two thinking processes), a
player at one table who moves and times each move's acknowledgement (the state frame that
shows his move, saved), first with nobody else (the baseline), then while each attack runs:

- ``bodies``: 8 clients each sending 200 MB bodies to ``POST /api/games``, over and over;
- ``slowloris``: 1,100 connections from 11 addresses whose headers never finish;
- ``stopped``: every thinking process and their fork server stopped (SIGSTOP) while
  another table's Normal computers are asked to decide;
- ``codes``: the join route and pages asked with non-ASCII codes, as fast as one client can;
- ``forwarded``: 60 sockets from one client, each claiming another ``X-Forwarded-For``;
- ``creation``: one client creating games as fast as it can.

Prints, per attack, the players' acknowledgement latency (median and 95th percentile, ms),
the server's CPU time and memory, and what the attack got (answers by status, connections
still held).  The attacker runs in a process of its own pinned to the last core, the server
and the players on the others: on one machine, an attacker's own CPU would otherwise be
counted against the server.

    .venv/bin/python benchmarks/bench_attacks.py [--seconds 8]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def thinking_pids(server_pid: int) -> list[int]:
    """The server's descendants: the thinking workers and their fork server."""
    out = subprocess.run(["ps", "-e", "-o", "pid=,ppid="], capture_output=True, text=True)
    children: dict[int, list[int]] = {}
    for line in out.stdout.splitlines():
        pid, ppid = map(int, line.split())
        children.setdefault(ppid, []).append(pid)
    found, todo = [], [server_pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


class Player:
    """A table of three friends (three humans: no computer's thinking in the way), each
    moving as soon as it is his turn; the mover times the acknowledgement of his move (the
    state frame that shows it, saved)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.latencies: list[float] = []
        self.recording = False

    async def run(self, stop: asyncio.Event) -> None:
        https = [httpx.AsyncClient(base_url=self.base, transport=httpx.AsyncHTTPTransport(
            local_address=f"127.0.0.{2 + seat}")) for seat in range(3)]  # not the attacker
        try:
            made = await https[0].post("/api/friends", json={
                "name": "Anna", "seats": ["friend", "friend"], "rules": "sochi", "pool": 10})
            made.raise_for_status()
            game, code = made.json()["id"], made.json()["invite"].rsplit("/", 1)[1]
            for seat, name in ((1, "Boris"), (2, "Vera")):
                joined = await https[seat].post(f"/api/friends/{game}/join", json={
                    "code": code, "seat": seat, "name": name})
                joined.raise_for_status()
            (await https[0].post(f"/api/friends/{game}/start", json={})).raise_for_status()
            cookies = ["; ".join(f"{k}={v}" for k, v in http.cookies.items()) for http in https]
        finally:
            for http in https:
                await http.aclose()
        url = self.base.replace("http", "ws", 1) + f"/ws/{game}"
        await asyncio.gather(*(self._seat(url, seat, cookies[seat], stop) for seat in range(3)))

    async def _seat(self, url: str, seat: int, cookie: str, stop: asyncio.Event) -> None:
        async with connect(url, additional_headers={"Cookie": cookie},
                           local_addr=(f"127.0.0.{2 + seat}", 0)) as ws:
            sent: float | None = None
            while not stop.is_set():
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
                except TimeoutError:
                    continue
                if message.get("type") == "error":
                    sent = None
                    continue
                if message.get("type") != "state":
                    continue
                event = message.get("event") or {}
                if sent is not None and event.get("seat") == seat:
                    if self.recording:
                        self.latencies.append(time.perf_counter() - sent)
                    sent = None
                if message["deal_over"]:
                    if seat == 0 and not message.get("game_over"):
                        await asyncio.sleep(0.05)
                        await ws.send(json.dumps({"type": "next_deal"}))
                    continue
                obs = message["observation"]
                if obs.get("to_act") != seat or sent is not None:
                    continue
                legal = sorted(obs["legal"])
                await asyncio.sleep(0.05)  # a quick player, not a flood
                sent = time.perf_counter()
                await ws.send(json.dumps({"type": "action",
                                          "token": "PASS" if "PASS" in legal else legal[0]}))


async def computer_table(base: str, stop: asyncio.Event) -> None:
    """A player against two Normal computers (a clock: a hung decision is given up after
    2.6 s and its worker started again), so that thinking is asked while it is stopped."""
    transport = httpx.AsyncHTTPTransport(local_address="127.0.0.9")
    async with httpx.AsyncClient(base_url=base, transport=transport) as http:
        made = await http.post("/api/games", json={"difficulty": "normal"})
        made.raise_for_status()
        cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
    url = base.replace("http", "ws", 1) + f"/ws/{made.json()['id']}"
    async with connect(url, additional_headers={"Cookie": cookie},
                       local_addr=("127.0.0.9", 0)) as ws:
        while not stop.is_set():
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
            except TimeoutError:
                continue
            if message.get("type") != "state":
                continue
            if message["deal_over"]:
                await ws.send(json.dumps({"type": "next_deal"}))
                continue
            obs = message["observation"]
            if obs.get("to_act") == 0 and message.get("thinking") is None:
                legal = sorted(obs["legal"])
                await ws.send(json.dumps({"type": "action",
                                          "token": "PASS" if "PASS" in legal else legal[0]}))


async def attack_bodies(base: str, stop: asyncio.Event, seen: Counter[str]) -> None:
    async def one() -> None:
        async def body() -> Any:
            chunk = b"x" * (1 << 20)
            for _ in range(200):
                yield chunk

        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            while not stop.is_set():
                try:
                    answer = await http.post("/api/games", content=body(),
                                             headers={"content-type": "application/json"})
                    seen[str(answer.status_code)] += 1
                except httpx.HTTPError as exc:
                    seen[type(exc).__name__] += 1

    await asyncio.gather(*(one() for _ in range(8)))


async def attack_slowloris(port: int, stop: asyncio.Event, seen: Counter[str]) -> None:
    def hold() -> list[socket.socket]:
        held = []
        for n in range(1100):
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=2,
                                                source_address=(f"127.0.0.{20 + n // 100}", 0))
                sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-a: b")
                held.append(sock)
            except OSError as exc:
                seen[type(exc).__name__] += 1
        return held

    held = await asyncio.to_thread(hold)
    seen["opened"] = len(held)
    await stop.wait()
    seen["still held at the end"] = sum(_alive(sock) for sock in held)
    for sock in held:
        sock.close()


def _alive(sock: socket.socket) -> bool:
    """Whether the server still holds ``sock`` open without having answered."""
    try:
        sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
    except BlockingIOError:
        return True
    except OSError:
        return False
    return False  # closed (b"") or answered (a 408)


async def attack_codes(base: str, game: str, stop: asyncio.Event, seen: Counter[str]) -> None:
    async with httpx.AsyncClient(base_url=base) as http:
        while not stop.is_set():
            for code in ("Аbc", "ключ-к-столу", "💥💥"):
                answer = await http.post(f"/api/friends/{game}/join",
                                         json={"code": code, "seat": 1, "name": "Eve"})
                seen[f"join {answer.status_code}"] += 1
                page = await http.get(f"/join/{game}/{code}")
                seen[f"page {page.status_code}"] += 1


async def attack_forwarded(base: str, stop: asyncio.Event, seen: Counter[str]) -> None:
    async with httpx.AsyncClient(base_url=base) as http:
        games = []
        for _ in range(8):
            made = await http.post("/api/games", json={"difficulty": "easy"})
            games.append(made.json()["id"])
        cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
    held = []
    for n in range(60):
        url = base.replace("http", "ws", 1) + f"/ws/{games[n % 8]}"
        try:
            ws = await connect(url, additional_headers={"Cookie": cookie,
                                                        "X-Forwarded-For": f"10.1.1.{n + 1}"})
            first = json.loads(await asyncio.wait_for(ws.recv(), 10))
            seen["accepted" if first.get("type") == "state" else first.get("code", "?")] += 1
            held.append(ws)
        except (InvalidStatus, ConnectionClosed, TimeoutError):
            seen["refused at the handshake"] += 1
    await stop.wait()
    for ws in held:
        await ws.close()


async def attack_creation(base: str, stop: asyncio.Event, seen: Counter[str]) -> None:
    async with httpx.AsyncClient(base_url=base) as http:
        while not stop.is_set():
            answer = await http.post("/api/games", json={"difficulty": "easy"})
            seen[str(answer.status_code)] += 1


def cpu_seconds(pid: int) -> float:
    """The CPU time ``pid`` has used (user and system), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def run_attack(name: str, base: str, port: int, seconds: float, friends: str) -> None:
    """One attack, in a process of its own (``--attack``), for ``seconds``; prints what it
    got as JSON."""
    stop = asyncio.Event()
    seen: Counter[str] = Counter()
    attacks = {"bodies": lambda: attack_bodies(base, stop, seen),
               "slowloris": lambda: attack_slowloris(port, stop, seen),
               "codes": lambda: attack_codes(base, friends, stop, seen),
               "forwarded": lambda: attack_forwarded(base, stop, seen),
               "creation": lambda: attack_creation(base, stop, seen)}
    task = asyncio.ensure_future(attacks[name]())
    await asyncio.sleep(seconds)
    stop.set()
    try:
        await asyncio.wait_for(task, 15)
    except TimeoutError:
        task.cancel()
    print(json.dumps(dict(seen)))


async def measure(base: str, port: int, pid: int, seconds: float) -> None:
    async with httpx.AsyncClient(base_url=base) as http:  # a friends' table for the codes
        made = await http.post("/api/friends", json={"name": "Anna", "seats": ["friend", "easy"]})
        friends = made.json()["id"]
    for name in ("baseline", "bodies", "slowloris", "stopped", "codes", "forwarded",
                 "creation", "after"):
        player = Player(base)
        stop = asyncio.Event()
        playing = asyncio.ensure_future(player.run(stop))
        await asyncio.sleep(1.0)  # the game is made and the first moves are in
        seen: dict[str, Any] = {}
        rss_before, cpu_before = rss_mb(pid), cpu_seconds(pid)
        stopped: list[int] = []
        attacker = None
        computers = None
        if name == "stopped":
            computers = asyncio.ensure_future(computer_table(base, stop))
            await asyncio.sleep(0.5)
            stopped = thinking_pids(pid)
            for child in stopped:
                os.kill(child, signal.SIGSTOP)
            seen["processes stopped"] = len(stopped)
        elif name not in ("baseline", "after"):  # the attacker: its own process, its own core
            attacker = await asyncio.create_subprocess_exec(
                *ATTACKER_CORE, sys.executable, __file__, "--attack", name, "--base", base,
                "--port", str(port), "--seconds", str(seconds), "--friends", friends,
                stdout=asyncio.subprocess.PIPE)
        player.recording = True
        await asyncio.sleep(seconds)
        player.recording = False
        rss_peak, cpu = rss_mb(pid), cpu_seconds(pid) - cpu_before
        stop.set()
        for child in stopped:
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, signal.SIGCONT)
        if attacker is not None:
            try:
                out, _ = await asyncio.wait_for(attacker.communicate(), 30)
                seen = json.loads((out.decode().strip().splitlines() or ["{}"])[-1])
            except TimeoutError:  # its requests hang: the server no longer answers them
                attacker.kill()
                await attacker.wait()
                seen = {"attacker": "its requests still hung 30 s after the attack"}
        playing.cancel()
        if computers is not None:
            computers.cancel()
        lat = sorted(player.latencies)
        med = statistics.median(lat) * 1000 if lat else float("nan")
        p95 = lat[int(0.95 * (len(lat) - 1))] * 1000 if lat else float("nan")
        print(f"{name:10} moves {len(lat):4}  ack median {med:6.1f} ms  p95 {p95:6.1f} ms  "
              f"server cpu {cpu:4.1f} s  rss {rss_before:4.0f} -> {rss_peak:4.0f} MB  {seen}",
              flush=True)
        await asyncio.sleep(1.0)


ATTACKER_CORE: list[str] = []
"""``taskset -c N`` for the attacker's process: the last core, the server and the players
keep the others (on a machine of 2 cores: one each)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--attack", help=argparse.SUPPRESS)
    parser.add_argument("--base", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--friends", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.attack:
        asyncio.run(run_attack(args.attack, args.base, args.port, args.seconds, args.friends))
        return
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) > 1 and shutil.which("taskset"):
        ATTACKER_CORE[:] = ["taskset", "-c", str(cores[-1])]
        os.sched_setaffinity(0, cores[:-1])  # the players, and the server started below
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PREFERANS_BOT_WORKERS": "2"}
        env.pop("PREFERANS_CREATION_RATE", None)
        env.pop("PREFERANS_MESSAGE_RATE", None)
        server = subprocess.Popen(
            [sys.executable, "-c", "from preferans.cli import main; main()", "serve",
             "--no-browser", "--port", str(port), "--db", f"{tmp}/games.db", "--bot-delay",
             "0"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(300):
                try:
                    if httpx.get(base + "/api/rules", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            asyncio.run(measure(base, port, server.pid, args.seconds))
            print("server alive at the end:", server.poll() is None)
        finally:
            server.terminate()
            server.wait(15)


if __name__ == "__main__":
    main()
