"""The live web server of the browser tests: uvicorn in a thread, its own port and database."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import uvicorn


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class LiveServer:
    """The web game served by uvicorn in a thread, on its own port and database file."""

    def __init__(self, db_path: Path, port: int | None = None, bot_delay: float = 0,
                 **app_options: object) -> None:
        self.db_path = db_path
        self.bot_delay = bot_delay
        self.app_options = app_options
        """More arguments of ``create_app`` (``grace_seconds``...)."""
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> LiveServer:
        from preferans.server.app import create_app

        app = create_app(f"sqlite:///{self.db_path}", bot_delay=self.bot_delay,
                         **self.app_options)  # type: ignore[arg-type]
        self.store = app.state.store
        """The server's own store: it owns its SQLite file, so tests that plant games use
        this one (a second store on the file would find it locked)."""
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                ws_max_size=64 * 1024)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError(f"the web server did not start on port {self.port}")
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=20)
        self._server = None
        self._thread = None
