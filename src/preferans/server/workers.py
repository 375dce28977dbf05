"""``preferans serve --workers N``: N server processes behind one address.

The parent process binds the listening socket once and starts N worker processes (the
``spawn`` way: nothing of the parent's state is copied), each of which builds its own app
(its store connections, its bus connection, its computer players' processes) and serves
the same socket: the kernel hands each new connection to one of the processes waiting in
``accept``, the way uvicorn's and gunicorn's own workers share a socket.  (SO_REUSEPORT,
one socket per process, balances by a hash of the client's address and port instead; the
shared socket needs no kernel option and works the same on every Unix.)  Which process a
browser's socket lands on does not matter: the tables are shared through the database
and the bus (:mod:`.cluster`).

The parent only watches: a worker that dies (a crash, ``kill -9``) is started again after
a second, and its tables go on meanwhile in the other workers once their leases run out.
Ctrl+C (or SIGTERM) stops them all.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import socket
import time
from typing import Any

RESTART_PAUSE = 1.0
"""Seconds before a worker that died is started again."""


def bind(host: str, port: int) -> socket.socket:
    """The listening socket every worker serves."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((host, port))
    listener.listen(2048)
    listener.set_inheritable(True)
    return listener


def _worker(listener: socket.socket, app_options: dict[str, Any], number: int,
            trusted_proxies: list[str]) -> None:
    """One worker process: its own app on the shared socket."""
    import uvicorn

    from .app import create_app
    from .security.connections import uvicorn_options

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops the workers (SIGTERM)
    app = create_app(**app_options)
    config = uvicorn.Config(app, log_level="warning", ws_max_size=65536,
                            ws_per_message_deflate=False, **uvicorn_options(trusted_proxies))
    server = uvicorn.Server(config)
    print(f"worker {number} (pid {os.getpid()}) serving", flush=True)
    server.run(sockets=[listener])


def run_workers(host: str, port: int, count: int, app_options: dict[str, Any],
                trusted_proxies: list[str] | None = None) -> None:
    """Serve ``count`` worker processes on ``host:port`` until interrupted (a client's
    forwarded address believed only from ``trusted_proxies``)."""
    listener = bind(host, port)
    context = multiprocessing.get_context("spawn")
    processes: dict[int, Any] = {}
    stopping = False

    def start(number: int) -> None:
        process = context.Process(target=_worker, args=(listener, app_options, number,
                                                        list(trusted_proxies or ())),
                                  name=f"preferans-worker-{number}")
        process.start()
        processes[number] = process

    def stop(*_: Any) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for number in range(count):
        start(number)
    try:
        while not stopping:
            time.sleep(0.2)
            for number, process in list(processes.items()):
                if not process.is_alive() and not stopping:
                    print(f"worker {number} (pid {process.pid}) stopped "
                          f"(exit {process.exitcode}); starting it again", flush=True)
                    time.sleep(RESTART_PAUSE)
                    start(number)
    finally:
        for process in processes.values():
            if process.is_alive():
                process.terminate()
        for process in processes.values():
            process.join(10)
            if process.is_alive():
                process.kill()
        listener.close()
