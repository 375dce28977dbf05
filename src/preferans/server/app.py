"""The web game's HTTP and WebSocket routes (FastAPI).

>>> from fastapi.testclient import TestClient
>>> client = TestClient(create_app("sqlite://", bot_delay=0))
>>> client.get("/api/games/current").status_code
404

Routes:

- ``GET /`` the settings page (CONTINUE when an unfinished game is saved);
- ``POST /api/games`` ``{"difficulty", "rules", "pool", "players"}`` (and optionally
  ``seed``, to choose the deals: see :func:`preferans.server.table.deal_cards`) →
  ``{"id", "url"}``; ``rules`` is a preset name or ``{"preset": name, option: value, ...}``
  (house rules), ``players`` 3 or 4 (a structural variant fixes its own: 2 for two-player
  and the Rogue), ``pool`` 10, 20 or 30 (left out: the preset's own);
- ``GET /api/rules`` the presets and the house-rules editor's options;
- ``GET /api/games/current`` the latest unfinished game, or 404;
- ``GET /api/games/{id}/record`` the game record, only once the game is over (an
  unfinished record would show every hand);
- ``GET /table/{id}`` the table page; ``GET /ws/{id}`` its WebSocket (see
  :mod:`preferans.server.table`);
- ``GET /stats`` and ``GET /api/stats`` the statistics per difficulty;
- ``GET /guide`` the rules guide; ``/static/...`` scripts, styles and the card deck.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import threading
import webbrowser
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from jinja2 import TemplateNotFound
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..rules import RulesError
from .config import database_url
from .house_rules import editor_schema, preset_choices, rules_from_settings
from .stats import DIFFICULTIES, statistics
from .store import GameStore
from .table import Table, seat_colours, seat_names
from .thinking import Thinking, default_workers

log = logging.getLogger("preferans.server")

HERE = Path(__file__).parent
STATIC = HERE / "static"
TEMPLATES = HERE / "templates"
GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
POOLS = (10, 20, 30)


class NewGame(BaseModel):
    """The settings of a new game."""

    model_config = ConfigDict(extra="forbid")

    difficulty: Literal["easy", "normal", "hard", "crazy"] = "normal"
    rules: Any = "sochi"
    """A preset name, or ``{"preset": name, option: value, ...}`` (house rules)."""
    players: Literal[2, 3, 4] | None = None
    """Three or four (left out: three); a structural variant fixes its own (two: two-player,
    the Rogue)."""
    pool: Literal[10, 20, 30] | None = None
    """The pulya length; left out, the preset's own (20 for 003's, 120 for Kazakhstan...)."""
    seed: int | None = Field(default=None, ge=0, le=2**53)


class Tables:
    """The open tables of this server, loaded from the store on first use."""

    def __init__(self, store: GameStore, bot_delay: float, bot_level: str | None = None,
                 thinking: Thinking | None = None) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.bot_level = bot_level
        self.thinking = thinking
        self.open: dict[str, Table] = {}
        self._lock = threading.Lock()

    def create(self, settings: NewGame) -> Table:
        """Start and save a new game."""
        game_id = secrets.token_urlsafe(9)
        seed = settings.seed if settings.seed is not None else secrets.randbelow(2**31)
        rules = rules_from_settings(settings.rules, players=settings.players, pool=settings.pool)
        table = Table.new(game_id, difficulty=settings.difficulty, rules=rules, seed=seed,
                          store=self.store, bot_delay=self.bot_delay, bot_level=self.bot_level)
        table.thinking = self.thinking
        with self._lock:
            self.open[game_id] = table
        return table

    def get(self, game_id: str) -> Table | None:
        """The open table of a game, restored from its record if needed; None if unknown."""
        if not GAME_ID.match(game_id):
            return None
        with self._lock:
            table = self.open.get(game_id)
            if table is not None:
                return table
            saved = self.store.get(game_id)
            if saved is None:
                return None
            table = Table.restore(saved, store=self.store, bot_delay=self.bot_delay,
                                  bot_level=self.bot_level)
            table.thinking = self.thinking
            self.open[game_id] = table
            return table

    def exists(self, game_id: str) -> bool:
        """Whether a game with this id is open or saved."""
        return bool(GAME_ID.match(game_id)) and (
            game_id in self.open or self.store.get(game_id) is not None
        )

    async def stop(self) -> None:
        """Stop every table's computer players."""
        for table in list(self.open.values()):
            await table.stop()


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for error in exc.errors():
        where = ".".join(str(x) for x in error.get("loc", ()) if x != "body") or "body"
        parts.append(f"{where}: {error.get('msg', 'invalid')}")
    return "; ".join(parts) or "invalid request"


def create_app(
    db_url: str | None = None,
    bot_delay: float = 0.5,
    open_browser: bool = False,
    *,
    browser_url: str = "http://127.0.0.1:8000/",
    bot_level: str | None = None,
    bot_workers: int | None = None,
) -> FastAPI:
    """The web game.

    ``db_url`` is a SQLAlchemy URL or a file path (default: the user's data folder, or
    ``PREFERANS_DB``); ``bot_delay`` the pause in seconds before each computer move (0 in
    tests); ``open_browser`` opens ``browser_url`` once the server is up; ``bot_level``
    (tests) plays every computer seat at that level (e.g. ``random``) whatever the difficulty;
    ``bot_workers`` the number of processes the computer players think in (default
    ``PREFERANS_BOT_WORKERS``, else up to 2; 0: a thread of the server process instead).
    """
    workers = default_workers() if bot_workers is None else bot_workers
    thinking = Thinking(workers) if workers > 0 else None
    store = GameStore(database_url(db_url))
    tables = Tables(store, bot_delay, bot_level, thinking)
    templates = Jinja2Templates(directory=str(TEMPLATES))

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if open_browser:
            asyncio.get_running_loop().call_later(0.8, webbrowser.open, browser_url)
        if thinking is not None:
            thinking.start()
        yield
        await tables.stop()
        if thinking is not None:
            thinking.close()
        store.close()

    app = FastAPI(title="Preferans", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.store = store
    app.state.tables = tables
    app.state.thinking = thinking
    STATIC.mkdir(parents=True, exist_ok=True)
    app.mount("/static", StaticFiles(directory=str(STATIC), check_dir=False), name="static")

    def page(request: Request, name: str, status_code: int = 200, **context: Any) -> Response:
        return templates.TemplateResponse(request, name, context, status_code=status_code)

    def not_found(request: Request, what: str) -> Response:
        if request.url.path.startswith("/api/"):
            return JSONResponse({"detail": what}, status_code=404)
        return page(request, "notfound.html", status_code=404, message=what)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> Response:
        return JSONResponse(
            {"detail": _validation_message(exc), "errors": _jsonable(exc.errors())},
            status_code=422,
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404:
            return not_found(request, "There is nothing at this address.")
        return JSONResponse({"detail": exc.detail}, status_code=exc.status_code)

    # --- pages -------------------------------------------------------------------------------
    @app.get("/", response_class=HTMLResponse)
    def settings_page(request: Request) -> Response:
        saved = store.latest_unfinished()
        return page(
            request,
            "settings.html",
            continue_game=saved,
            difficulties=DIFFICULTIES,
            presets=preset_choices(),
            pools=POOLS,
            options=editor_schema(),
        )

    @app.get("/table/{game_id}", response_class=HTMLResponse)
    def table_page(request: Request, game_id: str) -> Response:
        saved = store.get(game_id) if GAME_ID.match(game_id) else None
        if saved is None:
            return not_found(request, f"There is no game {game_id!r}: it may have been deleted.")
        players = len(saved.names) if saved.names else 3
        context = {
            "game_id": game_id,
            "names": list(saved.names or seat_names(players)),
            "colours": list(seat_colours(players)),
            "difficulty": saved.difficulty,
            "rules": saved.rules,
        }
        try:
            return page(request, "table.html", **context)
        except TemplateNotFound:
            return page(request, "notfound.html", status_code=503,
                        message="The table page is not installed yet.")

    @app.get("/stats", response_class=HTMLResponse)
    def stats_page(request: Request) -> Response:
        return page(request, "stats.html", stats=statistics(store.summaries()),
                    difficulties=DIFFICULTIES)

    @app.get("/guide", response_class=HTMLResponse)
    def guide_page(request: Request) -> Response:
        try:
            from ..guide import render_guide  # type: ignore[attr-defined]
        except ImportError:
            return page(request, "notfound.html", status_code=200, title="Rules guide",
                        message="The rules guide is coming soon.")
        return HTMLResponse(render_guide())

    # --- the JSON API ------------------------------------------------------------------------
    @app.post("/api/games", status_code=201)
    def new_game(settings: NewGame) -> Response:
        try:
            table = tables.create(settings)
        except RulesError as exc:
            return JSONResponse({"detail": f"rules: {exc}"}, status_code=422)
        return JSONResponse({"id": table.id, "url": f"/table/{table.id}"}, status_code=201)

    @app.get("/api/rules")
    def rules_json() -> dict[str, Any]:
        return {"presets": preset_choices(), "options": editor_schema()}

    @app.get("/api/games/current")
    def current_game() -> Response:
        saved = store.latest_unfinished()
        if saved is None:
            return JSONResponse({"detail": "no unfinished game is saved"}, status_code=404)
        return JSONResponse({"id": saved.id, "url": f"/table/{saved.id}",
                             "difficulty": saved.difficulty, "rules": saved.rules})

    @app.get("/api/games/{game_id}/record")
    def game_record(game_id: str) -> Response:
        saved = store.get(game_id) if GAME_ID.match(game_id) else None
        if saved is None:
            return JSONResponse({"detail": f"no game {game_id!r}"}, status_code=404)
        if not saved.finished:
            return JSONResponse(
                {"detail": "the record is available once the game is over"}, status_code=403
            )
        return JSONResponse(saved.record)

    @app.get("/api/stats")
    def stats_json() -> dict[str, Any]:
        return {"difficulties": list(DIFFICULTIES), "stats": statistics(store.summaries())}

    # --- the table's WebSocket ---------------------------------------------------------------
    @app.websocket("/ws/{game_id}")
    async def table_socket(socket: WebSocket, game_id: str) -> None:
        await socket.accept()
        try:
            table = tables.get(game_id)
        except Exception:
            log.exception("cannot restore game %s", game_id)
            table = None
        if table is None:
            await socket.send_json({
                "type": "error",
                "code": "unknown_game",
                "message": f"There is no game {game_id!r}: start a new game from the settings.",
            })
            await socket.close(code=4404)
            return
        await table.connect(socket)
        try:
            while True:
                message = await socket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                await table.receive(socket, text if text is not None else message.get("bytes"))
        except WebSocketDisconnect:
            pass
        finally:
            table.disconnect(socket)

    return app


def _jsonable(errors: Any) -> Any:
    """Pydantic errors with their context made printable."""
    out = []
    for error in errors:
        item = {k: v for k, v in error.items() if k in ("loc", "msg", "type")}
        item["loc"] = list(item.get("loc", ()))
        out.append(item)
    return out
