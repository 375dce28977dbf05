"""Another table's move latency while a stranger attacks the server, one attack at a time.

Starts ``preferans serve`` on a free port (its default bounds, two thinking processes), a
player at one table who moves and times each move's acknowledgement (the state frame that
shows his move, saved), first with nobody else (the baseline), then while each attack runs:

- ``bodies``: 8 clients each sending 200 MB bodies to ``POST /api/games``, over and over;
- ``slowloris``: 1,100 connections from 11 addresses whose headers never finish;
- ``stopped``: every thinking process and their fork server stopped (SIGSTOP);
- ``codes``: the join route and pages asked with non-ASCII codes, as fast as one client can;
- ``forwarded``: 60 sockets from one client, each claiming another ``X-Forwarded-For``;
- ``creation``: one client creating games as fast as it can.

Prints, per attack, the player's acknowledgement latency (median and 95th percentile, ms),
and what the attack got (answers by status, connections still held, the server's memory).

    .venv/bin/python benchmarks/bench_attacks.py [--seconds 8]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
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
    """One human at a table of three Easy players, moving as soon as it is his turn."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.latencies: list[float] = []
        self.recording = False

    async def run(self, stop: asyncio.Event) -> None:
        transport = httpx.AsyncHTTPTransport(local_address="127.0.0.2")  # not the attacker's
        async with httpx.AsyncClient(base_url=self.base, transport=transport) as http:
            made = await http.post("/api/games", json={"difficulty": "easy"})
            made.raise_for_status()
            cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
            game = made.json()["id"]
        url = self.base.replace("http", "ws", 1) + f"/ws/{game}"
        async with connect(url, additional_headers={"Cookie": cookie}) as ws:
            while not stop.is_set():
                message = json.loads(await ws.recv())
                if message.get("type") != "state":
                    continue
                if message["deal_over"]:
                    if message.get("game_over"):
                        return
                    await ws.send(json.dumps({"type": "next_deal"}))
                    continue
                obs = message["observation"]
                if obs.get("to_act") != 0 or message.get("thinking") is not None:
                    continue
                legal = sorted(obs["legal"])
                token = "PASS" if "PASS" in legal else legal[0]
                sent = time.perf_counter()
                await ws.send(json.dumps({"type": "action", "token": token}))
                while True:
                    answer = json.loads(await ws.recv())
                    if answer.get("type") == "error":
                        break
                    if answer.get("type") == "state" and (answer.get("event") or {}).get(
                            "seat") == 0:
                        if self.recording:
                            self.latencies.append(time.perf_counter() - sent)
                        break
                await asyncio.sleep(0.05)  # a quick player, not a flood


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
    held: list[asyncio.StreamWriter] = []
    for n in range(1100):
        try:
            _, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=(f"127.0.0.{20 + n // 100}", 0))
            writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-a: b")
            held.append(writer)
        except OSError as exc:
            seen[type(exc).__name__] += 1
    seen["opened"] = len(held)
    await stop.wait()
    seen["still open at the end"] = sum(not w.is_closing() and not w.transport.is_closing()
                                        and _alive(w) for w in held)
    for writer in held:
        writer.close()


def _alive(writer: asyncio.StreamWriter) -> bool:
    sock = writer.get_extra_info("socket")
    try:
        data = sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
    except BlockingIOError:
        return True
    except OSError:
        return False
    return bool(data) and not data.startswith(b"H")


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


async def measure(base: str, port: int, pid: int, seconds: float) -> None:
    rows = []
    async with httpx.AsyncClient(base_url=base) as http:  # a friends' table for the codes
        made = await http.post("/api/friends", json={"name": "Anna", "seats": ["friend", "easy"]})
        friends = made.json()["id"]
    for name in ("baseline", "bodies", "slowloris", "stopped", "codes", "forwarded",
                 "creation", "after"):
        player = Player(base)
        stop = asyncio.Event()
        playing = asyncio.ensure_future(player.run(stop))
        await asyncio.sleep(1.0)  # the game is made and the first moves are in
        seen: Counter[str] = Counter()
        rss_before = rss_mb(pid)
        stopped: list[int] = []
        attack: Any = None
        if name == "bodies":
            attack = asyncio.ensure_future(attack_bodies(base, stop, seen))
        elif name == "slowloris":
            attack = asyncio.ensure_future(attack_slowloris(port, stop, seen))
        elif name == "stopped":
            stopped = thinking_pids(pid)
            for child in stopped:
                os.kill(child, signal.SIGSTOP)
            seen["processes stopped"] = len(stopped)
        elif name == "codes":
            attack = asyncio.ensure_future(attack_codes(base, friends, stop, seen))
        elif name == "forwarded":
            attack = asyncio.ensure_future(attack_forwarded(base, stop, seen))
        elif name == "creation":
            attack = asyncio.ensure_future(attack_creation(base, stop, seen))
        player.recording = True
        await asyncio.sleep(seconds)
        player.recording = False
        rss_peak = rss_mb(pid)
        stop.set()
        for child in stopped:
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, signal.SIGCONT)
        if attack is not None:
            try:
                await asyncio.wait_for(attack, 15)
            except TimeoutError:
                attack.cancel()
        playing.cancel()
        lat = sorted(player.latencies)
        med = statistics.median(lat) * 1000 if lat else float("nan")
        p95 = lat[int(0.95 * (len(lat) - 1))] * 1000 if lat else float("nan")
        rows.append((name, len(lat), med, p95, rss_before, rss_peak, dict(seen)))
        print(f"{name:10} moves {len(lat):4}  ack median {med:7.1f} ms  p95 {p95:7.1f} ms  "
              f"rss {rss_before:6.0f} -> {rss_peak:6.0f} MB  {dict(seen)}", flush=True)
        await asyncio.sleep(1.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0)
    args = parser.parse_args()
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
