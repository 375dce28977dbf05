"""The web game: a FastAPI server, its saved games and its pages.

``preferans serve`` (and ``preferans play``, ``make play``) run :func:`serve`;
:func:`preferans.server.app.create_app` builds the application (tests use it
with a temporary database and computer players that move at once).

Modules: :mod:`.app` (routes and the WebSocket), :mod:`.table` (one open
table: the game, its computer players, its sockets), :mod:`.store` (saved games,
SQLAlchemy Core), :mod:`.stats` (statistics per difficulty), :mod:`.config`
(the data folder and the database URL).
"""

from __future__ import annotations

import threading
import time
import webbrowser


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    *,
    open_browser: bool = True,
    bot_delay: float = 0.5,
) -> None:
    """Run the web game until interrupted, opening the browser once the server listens."""
    import uvicorn

    from .app import create_app
    from .config import database_url

    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    url = f"http://{shown}:{port}/"
    app = create_app(db, bot_delay=bot_delay)
    config = uvicorn.Config(app, host=host, port=port, log_level="info", ws_max_size=65536)
    server = uvicorn.Server(config)
    print(f"Preferans is at {url} (games saved in {database_url(db)}); Ctrl+C stops it.")
    if open_browser:
        def open_when_ready() -> None:
            for _ in range(200):
                if server.started:
                    webbrowser.open(url)
                    return
                time.sleep(0.05)

        threading.Thread(target=open_when_ready, daemon=True).start()
    server.run()


__all__ = ["serve"]
