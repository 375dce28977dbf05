"""Two (or more) server processes on one PostgreSQL database and one Redis, for the tests of
issue 37: each is tests/server/cluster_node.py on its own loopback port; browsers are
cookie jars (httpx) with their own WebSockets (websockets' sync client), so a test chooses
which process each browser's socket lands on."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from redis_server import free_port
from websockets.sync.client import ClientConnection, connect

HERE = Path(__file__).parent


class Node:
    """One server process: ``start()``, ``url``, ``kill()`` (SIGKILL), ``stop()``."""

    def __init__(self, db: str, bus: str, lease: float, log: Path) -> None:
        self.db, self.bus, self.lease = db, bus, lease
        self.port = free_port()
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Node:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        out = self.log.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, str(HERE / "cluster_node.py"), str(self.port), self.db, self.bus,
             str(self.lease)], stdout=out, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the node died: {self.log.read_text()[-3000:]}")
            try:
                if httpx.get(f"{self.url}/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"the node did not start: {self.log.read_text()[-3000:]}")

    def status(self) -> dict[str, Any]:
        return httpx.get(f"{self.url}/api/status", timeout=5).json()

    def kill(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
            self.process = None


class Browser:
    """One browser: its cookies, its requests to a node, its socket to a node."""

    def __init__(self, lang: str = "en") -> None:
        self.cookies = httpx.Cookies()
        self.lang = lang

    def post(self, node: Node, path: str, body: Any) -> httpx.Response:
        response = httpx.post(f"{node.url}{path}", json=body, cookies=self.cookies,
                              headers={"Accept-Language": self.lang}, timeout=30)
        self.cookies.update(response.cookies)
        return response

    def socket(self, node: Node, game_id: str, watch: str | None = None) -> Socket:
        return Socket(self, node, game_id, watch)


class Socket:
    """A browser's table socket: ``read()`` the next frame (a state completed with the sheet
    it left out), ``send()``, ``reconnect(node)``; every frame kept in ``frames``."""

    def __init__(self, browser: Browser, node: Node, game_id: str, watch: str | None) -> None:
        self.browser, self.game_id, self.watch = browser, game_id, watch
        self.frames: list[str] = []
        self.sheet: Any = None
        self.ws: ClientConnection | None = None
        self.open(node)

    def open(self, node: Node) -> None:
        cookie = "; ".join(f"{k}={v}" for k, v in self.browser.cookies.items())
        query = f"?watch={self.watch}" if self.watch else ""
        self.node = node
        opening = connect(f"ws://127.0.0.1:{node.port}/ws/{self.game_id}{query}",
                          additional_headers={"Cookie": cookie,
                                              "Accept-Language": self.browser.lang},
                          open_timeout=20, max_size=2**22)
        self.ws = opening.__enter__()

    def reconnect(self, node: Node) -> None:
        self.close()
        self.open(node)

    def read(self, timeout: float = 20) -> dict[str, Any]:
        assert self.ws is not None
        text = str(self.ws.recv(timeout=timeout))
        self.frames.append(text)
        frame = json.loads(text)
        if frame.get("type") == "state":
            if "sheet" in (frame.get("kept") or []):
                frame["observation"]["sheet"] = self.sheet
            else:
                self.sheet = frame["observation"].get("sheet")
        return frame

    def read_state(self, timeout: float = 20) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            frame = self.read(max(0.1, deadline - time.monotonic()))
            if frame.get("type") == "state":
                return frame

    def send(self, payload: dict[str, Any]) -> None:
        assert self.ws is not None
        self.ws.send(json.dumps(payload))

    def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                self.ws.close()
            self.ws = None


def friends_table(node: Node, seats: list[str], names: list[str], seed: int
                  ) -> tuple[str, list[Browser], str]:
    """A started friends' table made through ``node``: Anna at seat 0, a friend at each
    "friend" seat; its id, the browsers, the invite code (a spectator's watch code)."""
    anna = Browser()
    created = anna.post(node, "/api/friends", {"name": "Anna", "seats": seats,
                                               "rules": "sochi", "pool": 10, "seed": seed})
    assert created.status_code == 201, created.text
    made = created.json()
    code = made["invite"].rsplit("/", 1)[1]
    browsers = [anna]
    for seat, kind in enumerate(seats, start=1):
        if kind != "friend":
            continue
        friend = Browser()
        joined = friend.post(node, f"/api/friends/{made['id']}/join",
                             {"code": code, "seat": seat, "name": names.pop(0)})
        assert joined.status_code == 200, joined.text
        browsers.append(friend)
    started = anna.post(node, f"/api/friends/{made['id']}/start", {})
    assert started.status_code == 200, started.text
    return made["id"], browsers, code
