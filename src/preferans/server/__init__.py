"""The web game: a FastAPI server, its saved games and its pages.

``preferans serve`` (and ``preferans play``, ``make play``) run :func:`serve`;
:func:`preferans.server.app.create_app` builds the application (tests use it
with a temporary database and computer players that move at once).

The folders, from the top down (a folder imports only the ones below it):

- :mod:`.web`: the routes, one router a concern (pages, games, the table's socket,
  status, the browser's strings, a table for friends, the review), and what they need;
- :mod:`.cluster`: several processes behind one address (the bus, the leases watched);
- :mod:`.table`: the open tables: the game, its computer players and their thinking
  processes, its sockets and views, and a table for friends (the party, the lobby, the
  stand-in, the chat, the spectators);
- :mod:`.security`: the network's edge (hosts and origins, per-client limits, seat tokens);
- :mod:`.lang`: the server's words (a request's language, refusals, the rules as read);
- :mod:`.store`: the saved games (SQLAlchemy Core), the leases, where the database is.

Beside them, the process itself: :mod:`.app` (:func:`~.app.create_app`), this module
(:func:`serve`), :mod:`.workers` (several processes on one address) and :mod:`.gcpause`.
"""

from __future__ import annotations

import socket
import threading
import time
import webbrowser
from collections.abc import Sequence
from typing import Any


class ServeError(ValueError):
    """The server cannot start: the port is taken, the database cannot be opened..."""


def check_port(host: str, port: int) -> None:
    """Raise :class:`ServeError` unless ``host:port`` can be listened on."""
    if not 0 < port < 65536:
        raise ServeError(f"port {port} is not a port number (1..65535)")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as exc:
        raise ServeError(f"cannot listen on host {host!r}: {exc.strerror or exc}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            raise ServeError(
                f"cannot listen on {host}:{port} ({exc.strerror or exc}): "
                "is another server running there? Choose another with --port"
            ) from None


def _is_network(text: str) -> bool:
    import ipaddress

    try:
        ipaddress.ip_network(text, strict=False)
    except ValueError:
        return False
    return True


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    *,
    open_browser: bool = True,
    bot_delay: float = 0.5,
    bot_workers: int | None = None,
    allowed_hosts: Sequence[str] = (),
    allowed_origins: Sequence[str] = (),
    allow_seeds: bool = False,
    trusted_proxies: Sequence[str] = (),
    workers: int = 1,
    bus: str | None = None,
    lease_seconds: float = 5.0,
    public_url: str | None = None,
) -> None:
    """Run the web game until interrupted, opening the browser once the server listens;
    ``bot_delay`` seconds before each computer move, the computer players thinking in
    ``bot_workers`` processes (see :func:`preferans.server.app.create_app`).  The server
    answers for ``localhost``, ``127.0.0.1``, ``::1``, the address it listens on (unless a
    wildcard) and ``allowed_hosts``; pages of ``allowed_origins`` may use it as its own do;
    ``allow_seeds`` (tests) lets a client choose a new game's seed.  A client's
    ``X-Forwarded-For`` is believed only from ``trusted_proxies`` (and
    ``PREFERANS_TRUSTED_PROXIES``); connections are bounded as :mod:`.security.connections` says.

    With ``bus`` (a ``redis://`` URL) the process shares its tables with the other
    processes of the same database and bus (:mod:`.cluster`); ``workers`` starts that many
    such processes on this address (:mod:`.workers`).  Both need a database every process
    can open at once (PostgreSQL: ``postgresql+psycopg://...``).

    ``public_url`` (else ``PREFERANS_PUBLIC_URL``) is the address friends use, behind a
    reverse proxy (``https://pref.example.org``): the invite, watch and seat links are
    made at it, and its host and origin are allowed (:mod:`.security.links`).

    Raises :class:`ServeError` when the port is taken, the database cannot be opened or the
    public address is not one.
    """
    import uvicorn
    from sqlalchemy.exc import SQLAlchemyError

    from .app import create_app
    from .security.connections import uvicorn_options
    from .security.guard import DEFAULT_HOSTS, trusted_proxy_list
    from .security.links import ENV_PUBLIC_URL, public_url_from
    from .store.config import database_url
    from .table.thinking import default_workers

    try:
        public = public_url_from(public_url)
    except ValueError as exc:
        given = "" if public_url else f" (from {ENV_PUBLIC_URL})"
        raise ServeError(f"{exc}{given}") from None
    proxies = trusted_proxy_list(trusted_proxies)
    for proxy in proxies:
        if proxy != "*" and not _is_network(proxy):
            raise ServeError(f"--trusted-proxy {proxy!r} is not an IP address or network "
                             "(for example 127.0.0.1 or 10.0.0.0/8)")
    try:
        thinkers = default_workers() if bot_workers is None else bot_workers
    except ValueError as exc:
        raise ServeError(str(exc)) from None
    check_port(host, port)
    if workers > 1 and not bus:
        raise ServeError("--workers needs --bus redis://... (the processes pass the tables' "
                         "messages through it) and a shared --db (PostgreSQL)")
    if bus:
        check_bus(bus)
        if database_url(db).startswith("sqlite") and workers > 1:
            raise ServeError("several processes cannot share a SQLite file: give --db "
                             "postgresql+psycopg://user@host/dbname")
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    url = f"http://{shown}:{port}/" if public is None else f"{public.origin}/"
    location = database_url(db)
    hosts = list(dict.fromkeys([*DEFAULT_HOSTS, *allowed_hosts,
                                *([host] if host not in ("0.0.0.0", "::", "") else [])]))
    options: dict[str, Any] = {
        "bot_delay": bot_delay, "bot_workers": thinkers, "freeze_startup": True,
        "allowed_hosts": hosts, "allowed_origins": list(allowed_origins),
        "allow_seeds": allow_seeds or None,
        **({"public_url": public.origin} if public is not None else {}),
        **({"bus_url": bus, "lease_seconds": lease_seconds} if bus else {})}
    if workers > 1:
        from .workers import run_workers

        print(f"Preferans is at {url}: {workers} processes (games saved in {location}, "
              f"messages through {bus}); Ctrl+C stops them.", flush=True)
        run_workers(host, port, workers, {"db_url": location, **options},
                    proxies)
        return
    try:
        app = create_app(location, **options)
    except (SQLAlchemyError, OSError, ValueError) as exc:
        raise ServeError(f"cannot open the database {location}: {exc}") from None
    fault = app.state.store.fault
    if fault is not None:
        print(f"warning: games cannot be saved: {fault.message} (the settings page says so too)")
    # no per-message deflate: the state frames are a few KiB on loopback or a LAN, and
    # compressing each one cost the server more CPU than the JSON (benchmarks/bench_load.py)
    config = uvicorn.Config(app, host=host, port=port, log_level="info", ws_max_size=65536,
                            ws_per_message_deflate=False,
                            **uvicorn_options(proxies))
    server = uvicorn.Server(config)
    if public is None:
        print(f"Preferans is at {url} (games saved in {location}); Ctrl+C stops it.")
    else:
        print(f"Preferans is at {url} (listening on {host}:{port}; games "
              f"saved in {location}); Ctrl+C stops it.")
    if host in ("0.0.0.0", "::", "") and not allowed_hosts and public is None:
        print("note: it answers only for localhost; name the address others use with "
              "--allowed-host")
    if open_browser:
        def open_when_ready() -> None:
            for _ in range(400):
                if server.started:
                    webbrowser.open(f"http://{shown}:{port}/")
                    return
                time.sleep(0.05)

        threading.Thread(target=open_when_ready, daemon=True).start()
    server.run()


def check_bus(url: str) -> None:
    """Raise :class:`ServeError` unless Redis answers at ``url``."""
    try:
        import redis
    except ImportError:
        raise ServeError("--bus needs redis-py: pip install 'preferans[cluster]'") from None
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=3)
        client.ping()
        client.close()
    except Exception as exc:
        raise ServeError(f"the bus {url} cannot be reached: {exc}") from None


__all__ = ["ServeError", "check_bus", "check_port", "serve"]
