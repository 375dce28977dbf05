"""A stranger against a real server process (``preferans serve`` on a free port): requests
whose headers never finish, a client holding hundreds of connections, and forwarded
addresses from a client that is no proxy.  Slow: each starts its own server."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from server_helpers import run_async
from test_attacks_live import ServerProcess, _open_game

from preferans.server.security.connections import (
    CONNECTIONS_PER_CLIENT,
    HEADER_SECONDS,
    ConnectionBounds,
    guarded_protocols,
)
from preferans.server.security.limits import SOCKETS_PER_CLIENT

pytestmark = pytest.mark.slow


def _connect(port: int, source: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5,
                                    source_address=(source, 0))
    return sock


def _closed(sock: socket.socket, within: float) -> bool:
    """Whether the server closes ``sock`` within ``within`` seconds (a 408 first is fine)."""
    sock.settimeout(within)
    deadline = time.monotonic() + within
    try:
        while time.monotonic() < deadline:
            data = sock.recv(4096)
            if not data:
                return True
            if not data.startswith(b"HTTP/1.1 408"):
                return False
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False
    return False


def _rules_latency(base: str) -> float:
    started = time.monotonic()
    assert httpx.get(base + "/api/rules", timeout=10).status_code == 200
    return time.monotonic() - started


def test_slow_headers_and_a_connection_hoarder_are_cut_off(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "games.db")
    try:
        limits = Path(f"/proc/{server.process.pid}/limits").read_text()
        line = next(x for x in limits.splitlines() if x.startswith("Max open files"))
        soft, hard = line.split()[3:5]
        assert soft == hard, line  # raised to what the system allows
        before = _rules_latency(server.base)
        slow = []
        for n in range(40):  # headers that never finish, and connections that say nothing
            sock = _connect(server.port, "127.0.0.7")
            if n % 2 == 0:
                sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-a: ")
            slow.append(sock)
        hoard = [_connect(server.port, "127.0.0.8") for _ in range(CONNECTIONS_PER_CLIENT + 20)]
        time.sleep(0.5)
        refused = sum(_closed(sock, 0.2) for sock in hoard[CONNECTIONS_PER_CLIENT:])
        assert refused == 20  # over the client's bound: closed as soon as they opened
        during = _rules_latency(server.base)  # another client is served meanwhile
        assert during < max(1.0, 10 * before)
        time.sleep(HEADER_SECONDS - 0.5)
        still_open = [sock for sock in slow if not _closed(sock, 3.0)]
        assert not still_open, f"{len(still_open)} slow requests still held"
        assert all(_closed(sock, 3.0) for sock in hoard[:CONNECTIONS_PER_CLIENT])
        for sock in slow + hoard:
            sock.close()
        assert server.process.poll() is None
    finally:
        server.stop()


def _sockets_accepted(server: ServerProcess, count: int) -> int:
    """Sockets opened on a few tables of one client, each claiming another address in
    ``X-Forwarded-For``: how many were accepted (a state arrived)."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    async def run() -> int:
        games = [await _open_game(server.base, seed=n) for n in range(count // 8 + 1)]
        accepted = 0
        held = []
        for n in range(count):
            game_id, headers = games[n // 8]
            url = server.base.replace("http", "ws", 1) + f"/ws/{game_id}"
            try:
                ws = await connect(url, additional_headers={
                    **headers, "X-Forwarded-For": f"10.9.{n // 250}.{n % 250 + 1}"})
            except InvalidStatus:  # refused before it opened (the client's openings)
                continue
            held.append(ws)
            first = json.loads(await asyncio.wait_for(ws.recv(), 10))
            accepted += first.get("type") == "state"
        for ws in held:
            await ws.close()
        return accepted

    return run_async(run())


def test_forwarded_addresses_are_believed_only_from_a_named_proxy(tmp_path: Path) -> None:
    plain = ServerProcess(tmp_path / "plain.db")
    try:
        assert _sockets_accepted(plain, 40) <= SOCKETS_PER_CLIENT  # one client, whatever it says
    finally:
        plain.stop()
    proxied = ServerProcess(tmp_path / "proxied.db", "--trusted-proxy", "127.0.0.1")
    try:  # behind a proxy the operator named, each forwarded address is its own client
        assert _sockets_accepted(proxied, 40) == 40
    finally:
        proxied.stop()


def test_a_bad_trusted_proxy_is_refused(tmp_path: Path) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", "from preferans.cli import main; main()", "serve",
         "--no-browser", "--port", "1", "--trusted-proxy", "caddy.local"],
        capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "not an IP address" in done.stderr + done.stdout


async def _echo_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "http":
        return
    while (await receive()).get("more_body"):
        pass
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"ok"})


def test_the_header_and_body_deadlines_of_the_protocol() -> None:
    """uvicorn with the guarded protocol classes and short deadlines: a request that keeps
    its headers or its body unfinished is closed with a 408, a prompt one is answered, and a
    kept-alive connection must finish its next request's headers in time too."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    http, ws = guarded_protocols(ConnectionBounds(per_client=10), header_seconds=0.5,
                                 body_seconds=0.5)
    server = uvicorn.Server(uvicorn.Config(_echo_app, host="127.0.0.1", port=port, http=http,
                                           ws=ws, lifespan="off", log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    try:
        slow_headers = _connect(port, "127.0.0.1")
        slow_headers.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        slow_body = _connect(port, "127.0.0.1")
        slow_body.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc")
        prompt = _connect(port, "127.0.0.1")
        prompt.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        assert prompt.recv(4096).startswith(b"HTTP/1.1 200")
        prompt.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # the next request, never finished
        for sock in (slow_headers, slow_body, prompt):
            assert _closed(sock, 2.0)
            sock.close()
    finally:
        server.should_exit = True
        thread.join(10)
