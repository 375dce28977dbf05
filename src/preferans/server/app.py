"""The web game's HTTP and WebSocket routes (FastAPI).

>>> from fastapi.testclient import TestClient
>>> client = TestClient(create_app("sqlite://", bot_delay=0))
>>> client.get("/api/games/current").status_code
404

Routes:

- ``GET /`` the settings page (CONTINUE when this browser has an unfinished game; the
  saved games that do not replay listed as damaged; a banner when the database fails);
- ``POST /api/games`` ``{"difficulty", "rules", "pool", "players"}`` (and optionally
  ``hints``, the HINT button (:mod:`.hints`), and ``seed``, to choose the deals on a server
  started for tests: see :func:`preferans.server.table.deal_cards`; else 128 random bits) →
  ``{"id", "url"}``; ``rules`` is a preset name or ``{"preset": name, option: value, ...}``
  (house rules), ``players`` 3 or 4 (a structural variant fixes its own: 2 for two-player
  and the Rogue), ``pool`` 10, 20 or 30 (left out: the preset's own);
- ``GET /api/rules`` the presets and the house-rules editor's options;
- ``GET /api/games/current`` this browser's latest unfinished game, or 404;
- ``GET /api/games/{id}/record`` the game record, only once the game is over (an
  unfinished record would show every hand), or as stored when it is damaged;
- ``GET /table/{id}`` the table page; ``GET /ws/{id}`` its WebSocket (see
  :mod:`preferans.server.table`);

Seat tokens: creating a game sets the HttpOnly, SameSite=Strict cookie ``preferans_seat``
(a token the server minted and signed, kept for the browser's later games; a cookie it did
not mint is never adopted: :mod:`.tokens`) and saves the token's sha256 as the
holder of the human seat (the store's ``seats``: one entry per human seat, so a game can
later seat several browsers).  The table page, its WebSocket, the record and CONTINUE
answer only that browser; another gets "this game belongs to another browser" (page 403,
JSON 403, socket error ``not_yours`` and close 4403).  A game saved before seat tokens has
no holder: the first browser that opens its table (or its record) claims it.

Idle tables leave memory ``idle_seconds`` after their last socket closed and their
computer players stopped; the next visit restores them from the store.
- ``GET /stats`` and ``GET /api/stats`` this browser's statistics per difficulty, each game
  from its own seat, and its tables for friends (never one where it holds no seat);
- ``GET /guide`` the rules guide; ``/static/...`` scripts, styles and the card deck.
- ``GET /i18n/<lang>.js`` the browser's strings in a language (an ES module made from ``ui.po``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import secrets
import threading
import webbrowser
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal

import anyio.to_thread
from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from jinja2 import TemplateNotFound
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware

from ..game import Game
from ..i18n import player_name
from ..rules import RulesError
from . import gcpause, guard
from .comeback import restore_friends_tables
from .config import database_url
from .friends import may_watch
from .gcpause import GcPauses
from .guard import OriginGuard
from .house_rules import editor_schema, preset_choices, rules_from_settings
from .lang import (
    damage_text,
    page_context,
    remember_language,
    request_language,
    say,
    set_socket_language,
    settings_strings,
    store_message,
)
from .limits import (
    FLOOD_CLOSE,
    SOCKETS_PER_CLIENT,
    SOCKETS_PER_TABLE,
    Bucket,
    Openings,
    Slots,
    client_key,
    message_rate,
)
from .party import Party
from .request_errors import rules_problem, validation_message
from .seats import HUMAN, seat_colours, seat_names
from .spectators import SPECTATOR
from .standin import GRACE_SECONDS
from .stats import DIFFICULTIES, ROWS, of_browser, statistics
from .store import GameStore, SavedGame, StoreError
from .table import Table
from .thinking import Thinking, default_workers
from .tokens import (
    SEAT_COOKIE,
    SeatTokens,
    held_seats,
    holder,
    seat_token,
    token_hash,
)

log = logging.getLogger("preferans.server")

HERE = Path(__file__).parent
STATIC = HERE / "static"
TEMPLATES = HERE / "templates"
GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
POOLS = (10, 20, 30)
COOKIE_DAYS = 400
"""How long the seat cookie lasts (the longest a browser keeps one)."""
NOT_YOURS = ("This game belongs to another browser: only the browser that started it can "
             "see its hands or play it. Start a new game from the settings.")
SEED_BITS = 128
"""Bits of the seed the server draws for a new game's deals (too many to search from the
cards one sees)."""
ENV_ALLOW_SEEDS = "PREFERANS_ALLOW_SEEDS"
"""Environment variable: ``1`` lets a client choose a new game's seed (test servers only)."""
FRIENDS = "friends"
"""The difficulty column of a table for friends (its computer seats each have a level)."""
IDLE_SECONDS = 300.0
"""How long an open table with no socket stays in memory (the app's ``idle_seconds``)."""


def set_seat_cookie(response: Response, token: str, secure: bool) -> None:
    """Give the browser its seat token: HttpOnly (no script reads it), SameSite=Strict (no
    other site's page sends it)."""
    response.set_cookie(SEAT_COOKIE, token, max_age=COOKIE_DAYS * 86400, path="/",
                        httponly=True, samesite="strict", secure=secure)


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
    """The deals' seed: only on a server started for tests (``--allow-seeds``); otherwise the
    server draws 128 random bits."""
    hints: bool = False
    """The HINT button at the table (off by default; games with hints are marked in the
    statistics)."""


class Tables:
    """The open tables of this server, loaded from the store on first use."""

    def __init__(self, store: GameStore, bot_delay: float, bot_level: str | None = None,
                 idle_seconds: float = IDLE_SECONDS,
                 thinking: Thinking | None = None, grace: float = GRACE_SECONDS) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.bot_level = bot_level
        self.idle_seconds = idle_seconds
        """A table with no socket and no move in progress leaves memory after this long."""
        self.thinking = thinking
        self.grace = grace
        """How long a friend may be gone before the stand-in plays his seat (:mod:`.standin`)."""
        self.open: dict[str, Table] = {}
        self.shared = False
        """Several processes share the store (:mod:`.cluster`): a table is kept open only by
        the process holding its lease, so a new one is saved and left to the first socket."""
        self.on_close: list[Callable[[str], Awaitable[None]]] = []
        """Run with a table's id when it leaves memory (its lease is given up)."""
        self.cluster: Any = None
        """This process's part of several sharing the tables (:class:`.cluster.Cluster`), or
        None: one process."""
        self._lock = threading.Lock()
        self._restoring = asyncio.Lock()
        self._replays: dict[tuple[str, Any], str | None] = {}

    def create(self, settings: NewGame, seats: dict[str, str] | None = None) -> Table:
        """Start and save a new game (raises :class:`StoreError` when it cannot be saved)."""
        game_id = secrets.token_urlsafe(9)
        seed = settings.seed if settings.seed is not None else secrets.randbits(SEED_BITS)
        rules = rules_from_settings(settings.rules, players=settings.players, pool=settings.pool)
        table = Table.new(game_id, difficulty=settings.difficulty, rules=rules, seed=seed,
                          store=self.store, bot_delay=self.bot_delay, bot_level=self.bot_level,
                          seats=seats, hints=settings.hints)
        self._prepare(table)
        if not self.shared:
            with self._lock:
                self.open[game_id] = table
        return table

    def _prepare(self, table: Table) -> Table:
        """A table made or restored here thinks in the server's processes; a friends' table
        gets the server's grace time."""
        table.thinking = self.thinking
        if table.standin is not None:
            table.standin.grace = self.grace
        return table

    def create_friends(self, rules: Any, party: Party, seed: int | None,
                       seats: dict[str, str], names: list[str] | None = None) -> Table:
        """Save a new table for friends, waiting in its lobby (started at once for a rematch:
        ``names`` the seats' names as the last game had them).  Raises
        :class:`StoreError`."""
        game_id = secrets.token_urlsafe(9)
        seed = seed if seed is not None else secrets.randbits(SEED_BITS)
        names = names or party.names(seat_names(rules.players))
        return self._prepare(Table.new(
            game_id, difficulty=FRIENDS, rules=rules, seed=seed, store=self.store,
            bot_delay=self.bot_delay, bot_level=self.bot_level, seats=seats, hints=party.hints,
            friends=party, names=names))

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
            self._prepare(table)
            self.open[game_id] = table
            return table

    async def load(self, game_id: str, saved: SavedGame | None = None) -> Table | None:
        """:meth:`get` for the event loop: the store is read and the record replayed in a
        worker thread.  Raises :class:`StoreError`, and the replay's error for a damaged
        record."""
        table = self.open.get(game_id)
        if table is not None:
            table.touch()
            return table
        async with self._restoring:
            table = self.open.get(game_id)
            if table is not None:
                return table
            if saved is None:
                saved = await anyio.to_thread.run_sync(self.store.get, game_id)
            if saved is None:
                return None
            if saved.damage:
                raise ValueError(saved.damage)
            table = await anyio.to_thread.run_sync(self._restore, saved)
            with self._lock:
                self.open[game_id] = table
            return table

    def _restore(self, saved: SavedGame) -> Table:
        table = Table.restore(saved, store=self.store, bot_delay=self.bot_delay,
                              bot_level=self.bot_level)
        self._prepare(table)
        return table

    def replay_problem(self, saved: SavedGame) -> str | None:
        """Why a saved game cannot be played on (its record does not replay), or None.
        Answers are kept per version of the row (its ``updated``)."""
        if saved.id in self.open:
            return None
        key = (saved.id, saved.updated)
        if key not in self._replays:
            problem = saved.damage
            if problem is None:
                try:
                    Game.from_record(saved.record)
                except Exception as exc:  # any failure to replay marks the game damaged
                    problem = f"its record does not replay ({type(exc).__name__}: {exc})"
            if len(self._replays) > 1000:
                self._replays.clear()
            self._replays[key] = problem[:300] if problem else None
        return self._replays[key]

    def of_browser(self, token: str | None) -> tuple[SavedGame | None, list[dict[str, str]]]:
        """This browser's latest unfinished game that can be played on (or a free one: saved
        before seat tokens), and the ones that are damaged (``id``, ``reason``).  Raises
        :class:`StoreError`."""
        playable: SavedGame | None = None
        damaged: list[dict[str, str]] = []
        for game_id, seats in self.store.unfinished():
            if holder(seats, token) == "theirs" and not (
                    token is not None and held_seats(seats or {}, token_hash(token))):
                continue
            saved = self.store.get(game_id)
            if saved is None:
                continue
            problem = self.replay_problem(saved)
            if problem is not None:
                damaged.append({"id": game_id, "reason": problem})
            elif playable is None:
                playable = saved
        return playable, damaged

    async def reap(self) -> list[str]:
        """Let the tables idle for ``idle_seconds`` leave memory; their ids."""
        gone = []
        with self._lock:
            for game_id, table in list(self.open.items()):
                idle = table.idle_for()
                if idle is not None and idle >= self.idle_seconds:
                    del self.open[game_id]
                    gone.append(table)
        for table in gone:
            await table.stop()
            for hook in self.on_close:
                await hook(table.id)
        return [table.id for table in gone]

    async def reap_forever(self) -> None:
        """Run :meth:`reap` now and then (a few times per ``idle_seconds``)."""
        while True:
            await asyncio.sleep(max(0.05, min(self.idle_seconds / 4, 30.0)))
            try:
                await self.reap()
            except Exception:
                log.exception("cannot close the idle tables")

    def rekey(self, old_hash: str, new_hash: str) -> None:
        """The open tables' seats held by ``old_hash`` now held by ``new_hash`` (the store's
        rows are changed by :meth:`GameStore.rekey`)."""
        for table in list(self.open.values()):
            for seat, held in list(table.seats.items()):
                if held == old_hash:
                    table.seats[seat] = new_hash

    def exists(self, game_id: str) -> bool:
        """Whether a game with this id is open or saved."""
        return bool(GAME_ID.match(game_id)) and (
            game_id in self.open or self.store.get(game_id) is not None
        )

    async def stop(self) -> None:
        """Stop every table's computer players."""
        for table in list(self.open.values()):
            await table.stop()


def create_app(
    db_url: str | None = None,
    bot_delay: float = 0.5,
    open_browser: bool = False,
    *,
    browser_url: str = "http://127.0.0.1:8000/",
    bot_level: str | None = None,
    idle_seconds: float = IDLE_SECONDS,
    grace_seconds: float = GRACE_SECONDS,
    bot_workers: int | None = None,
    freeze_startup: bool = False,
    allowed_hosts: Sequence[str] | None = None,
    allowed_origins: Sequence[str] | None = None,
    allow_seeds: bool | None = None,
    bus_url: str | None = None,
    lease_seconds: float = 5.0,
) -> FastAPI:
    """The web game.

    ``db_url`` is a SQLAlchemy URL or a file path (default: the user's data folder, or
    ``PREFERANS_DB``); ``bot_delay`` the pause in seconds before each computer move (0 in
    tests); ``open_browser`` opens ``browser_url`` once the server is up; ``bot_level``
    (tests) plays every computer seat at that level (e.g. ``random``) whatever the difficulty;
    ``idle_seconds`` how long a table with no socket stays in memory (then it is restored
    from the store on the next visit); ``grace_seconds`` how long a friend's seat waits for
    him (no socket open) before the stand-in plays it (:mod:`.standin`);
    ``bot_workers`` the number of processes the computer players think in (default
    ``PREFERANS_BOT_WORKERS``, else up to 2; 0: a thread of the server process instead);
    ``freeze_startup`` (the served app) freezes what exists once started out of the garbage
    collector's sight and sets its thresholds (:mod:`.gcpause`), for shorter pauses;
    ``allowed_hosts`` the hosts it answers for (default ``localhost``, ``127.0.0.1``, ``::1``,
    and ``PREFERANS_ALLOWED_HOSTS``) and ``allowed_origins`` the other sites whose pages may
    open its sockets and send it writes (see :mod:`.guard`); ``allow_seeds`` lets a client
    choose a new game's seed (tests; default ``PREFERANS_ALLOW_SEEDS=1``); ``bus_url`` (a
    ``redis://`` URL) makes this process one of several sharing the database's tables, each
    table owned by one of them for ``lease_seconds`` at a time, renewed (:mod:`.cluster`).
    """
    if allow_seeds is None:
        allow_seeds = os.environ.get(ENV_ALLOW_SEEDS, "").strip() == "1"
    workers = default_workers() if bot_workers is None else bot_workers
    thinking = Thinking(workers) if workers > 0 else None
    store = GameStore(database_url(db_url))
    tables = Tables(store, bot_delay, bot_level, idle_seconds, thinking, grace_seconds)
    cluster = None
    if bus_url:
        from .cluster import Cluster

        tables.shared = True
        cluster = tables.cluster = Cluster(store, bus_url, tables, lease_seconds)
    templates = Jinja2Templates(directory=str(TEMPLATES))

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if open_browser:
            asyncio.get_running_loop().call_later(0.8, webbrowser.open, browser_url)
        if thinking is not None:
            thinking.start()
        if cluster is not None:
            await cluster.start()
        reaper = asyncio.get_running_loop().create_task(tables.reap_forever())
        # the friends' tables being played come back at once: an absent friend's grace time
        # counts from the restart, not from the first friend's return (:mod:`.comeback`)
        comeback = asyncio.get_running_loop().create_task(restore_friends_tables(tables))
        gc_pauses = GcPauses().install() if os.environ.get("PREFERANS_GC_STATS") else None
        if freeze_startup:
            gcpause.freeze_startup()
        yield
        if gc_pauses is not None:
            gc_pauses.log()
        reaper.cancel()
        comeback.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await comeback  # a read it began in a thread finishes before the store closes
        if cluster is not None:
            await cluster.stop()
        await tables.stop()
        if thinking is not None:
            thinking.close()
        store.close()

    app = FastAPI(title="Preferans", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.add_middleware(OriginGuard, allowed=guard.allowed_origins(allowed_origins))
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=guard.allowed_hosts(allowed_hosts),
                       www_redirect=False)
    try:
        seat_tokens = SeatTokens(store.secret("seat_tokens"))
    except StoreError as exc:  # the server still starts; tokens last until it stops
        log.warning("the seat tokens' key cannot be kept (%s): one for this run only", exc)
        seat_tokens = SeatTokens(secrets.token_bytes(32))
    app.state.seat_tokens = seat_tokens
    client_sockets = Slots(per_key=SOCKETS_PER_CLIENT)
    rate, burst = message_rate()
    connections = Openings()
    app.state.store = store
    app.state.tables = tables
    app.state.thinking = thinking
    app.state.cluster = cluster
    STATIC.mkdir(parents=True, exist_ok=True)
    app.mount("/static", StaticFiles(directory=str(STATIC), check_dir=False), name="static")

    def page(request: Request, name: str, status_code: int = 200, **context: Any) -> Response:
        """A page in the request's language (a ``?lang=`` choice is kept in the cookie)."""
        context = {**page_context(request), **context}
        response = templates.TemplateResponse(request, name, context, status_code=status_code)
        return remember_language(request, response)

    def not_found(request: Request, what: str) -> Response:
        if request.url.path.startswith("/api/"):
            return JSONResponse({"detail": what}, status_code=404)
        return page(request, "notfound.html", status_code=404, message=what)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> Response:
        message = validation_message(exc.errors(), request_language(request))
        return JSONResponse({"detail": message, "message": message,
                             "errors": _jsonable(exc.errors())}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404:
            return not_found(request, say("error.nothing_here", request_language(request)))
        return JSONResponse({"detail": exc.detail}, status_code=exc.status_code)

    def store_problem(lang: str) -> str | None:
        """The banner of the settings page when the database failed on opening."""
        fault = store.fault or store.last_error
        if fault is None:
            return None
        return say("error.cannot_save", lang, problem=store_message(fault, lang))

    def store_unavailable(exc: StoreError, doing: str, request: Request) -> Response:
        """A 503 naming what could not be done (``doing``: a ``page`` key) and why."""
        lang = request_language(request)
        detail = f"{say(doing, lang)}: {store_message(exc, lang)}"
        return JSONResponse({"detail": detail, "database": exc.location,
                             "problem": exc.problem}, status_code=503)


    def claim_for(request: Request, saved: SavedGame, response_token: list[str]) -> str:
        """Who holds the game's human seat for this request; a free seat (a game saved before
        seat tokens) is claimed for this browser, its token put in ``response_token`` when
        the browser has to be given one."""
        token = seat_token(request.cookies)
        whose = holder(saved.seats, token, friends=saved.friends is not None)
        if whose != "free":
            return whose
        token = own_token(request, response_token)
        if not store.write_now(store.claim, saved.id, HUMAN, token_hash(token)):
            return "theirs"
        table = tables.open.get(saved.id)
        if table is not None:
            table.seats[str(HUMAN)] = token_hash(token)
        return "mine"

    def own_token(request: Request, response_token: list[str]) -> str:
        """This browser's token if the server minted it; else a new one, put in
        ``response_token`` for the response's cookie (a token of an older server hands its
        seats over to it; a planted one holds none).  Run it off the event loop."""
        token = seat_token(request.cookies)
        if token is not None and seat_tokens.minted(token):
            return token
        fresh = seat_tokens.mint()
        if token is not None:
            store.write_now(store.rekey, token_hash(token), token_hash(fresh))
            tables.rekey(token_hash(token), token_hash(fresh))
        response_token.append(fresh)
        return fresh

    def with_token(request: Request, response: Response, new_token: list[str]) -> Response:
        if new_token:
            set_seat_cookie(response, new_token[0], request.url.scheme == "https")
        return response

    # --- pages -------------------------------------------------------------------------------
    @app.get("/", response_class=HTMLResponse)
    def settings_page(request: Request) -> Response:
        lang = request_language(request)
        problem = store_problem(lang)
        saved, damaged = None, []
        try:
            saved, damaged = tables.of_browser(seat_token(request.cookies))
        except StoreError as exc:
            problem = problem or say("error.cannot_read_saved", lang,
                                     problem=store_message(exc, lang))
        damaged = [{**game, "reason": damage_text(game["reason"], lang)} for game in damaged]
        return page(
            request,
            "settings.html",
            continue_game=saved,
            continue_names=[player_name(n, lang) for n in saved.names]
            if saved is not None and saved.friends else None,  # a table for friends' players
            damaged_games=damaged,
            store_problem=problem,
            difficulties=DIFFICULTIES,
            presets=preset_choices(lang),
            pools=POOLS,
            options=editor_schema(lang),
            js_strings=settings_strings(lang),
        )

    @app.get("/table/{game_id}", response_class=HTMLResponse)
    def table_page(request: Request, game_id: str) -> Response:
        lang = request_language(request)
        database = say("title.database", lang)
        try:
            saved = store.get(game_id) if GAME_ID.match(game_id) else None
        except StoreError as exc:
            return page(request, "notfound.html", status_code=503, title=database,
                        message=say("error.cannot_read_game", lang,
                                    problem=store_message(exc, lang)))
        if saved is None:
            return not_found(request, say("error.no_game", lang, game=game_id))
        new_token: list[str] = []
        try:
            whose = claim_for(request, saved, new_token)
        except StoreError as exc:
            return page(request, "notfound.html", status_code=503, title=database,
                        message=say("error.cannot_open_game", lang,
                                    problem=store_message(exc, lang)))
        if whose == "theirs":
            return page(request, "notfound.html", status_code=403,
                        title=say("title.not_yours", lang), message=say("error.not_yours", lang),
                        reason="not_yours")
        problem = tables.replay_problem(saved) if not saved.finished else saved.damage
        if problem is not None:
            return with_token(request, page(
                request, "notfound.html", status_code=409, title=say("title.damaged", lang),
                message=say("error.damaged", lang, game=game_id,
                            problem=damage_text(problem, lang)),
                download=f"/api/games/{game_id}/record"), new_token)
        if saved.friends is not None and not Party.from_json(saved.friends).started:
            return with_token(request, RedirectResponse(f"/lobby/{game_id}", status_code=303),
                              new_token)
        return with_token(request, table_html(request, saved), new_token)

    def table_html(request: Request, saved: SavedGame, watch: str | None = None) -> Response:
        """The table page of a saved game (``watch``: a spectator's, with the invite code its
        socket opens with)."""
        lang = request_language(request)
        players = len(saved.names) if saved.names else 3
        context = {
            "game_id": saved.id,
            "names": list(saved.names or seat_names(players)),
            "shown_names": [player_name(n, lang) for n in (saved.names or seat_names(players))]
            + ([player_name("Dummy", lang)] if players == 2 else []),
            "colours": list(seat_colours(players)),
            "difficulty": saved.difficulty,
            "rules": saved.rules,
            "watch": watch,
        }
        try:
            return page(request, "table.html", **context)
        except TemplateNotFound:
            return page(request, "notfound.html", status_code=503,
                        message=say("error.no_table_page", lang))

    def browser_games(request: Request) -> tuple[list[Any], list[dict[str, Any]]]:
        """This browser's games for the statistics, each from its own seat, and its tables
        for friends (:func:`.stats.of_browser`).  Raises :class:`StoreError`."""
        token = seat_token(request.cookies)
        return of_browser(store.games_of_seats(), token_hash(token) if token else None)

    @app.get("/stats", response_class=HTMLResponse)
    def stats_page(request: Request) -> Response:
        try:
            summaries, friends_tables = browser_games(request)
        except StoreError as exc:
            lang = request_language(request)
            return page(request, "notfound.html", status_code=503,
                        title=say("title.database", lang),
                        message=say("error.cannot_read_stats", lang,
                                    problem=store_message(exc, lang)))
        lang = request_language(request)
        for listed in friends_tables:  # the computers' names in the page's language
            listed["others"] = [player_name(name, lang) for name in listed["others"]]
        return page(request, "stats.html", stats=statistics(summaries),
                    difficulties=ROWS if friends_tables else DIFFICULTIES,
                    friends_tables=friends_tables)

    @app.get("/guide", response_class=HTMLResponse)
    def guide_page(request: Request) -> Response:
        """The rules guide in the request's language (``?lang=``, the cookie, the browser)."""
        from ..guide import render_guide
        from ..guide.profile import chosen_rules

        chosen = chosen_rules(request.query_params.get("preset"), request.query_params.get("pool"))
        guide = HTMLResponse(render_guide(lang=request_language(request), chosen=chosen))
        return remember_language(request, guide)

    # --- the JSON API ------------------------------------------------------------------------
    @app.post("/api/games", status_code=201)
    def new_game(settings: NewGame, request: Request) -> Response:
        if store.fault is not None:
            return store_unavailable(store.fault, "error.cannot_start", request)
        if settings.seed is not None and not allow_seeds:
            said = say("error.no_seeds", request_language(request))
            return JSONResponse({"detail": said, "field": "seed", "message": said},
                                status_code=422)
        new_token: list[str] = []
        try:
            token = own_token(request, new_token)
        except StoreError as exc:
            return store_unavailable(exc, "error.cannot_start", request)
        try:
            table = tables.create(settings, seats={str(HUMAN): token_hash(token)})
        except RulesError as exc:
            lang = request_language(request)
            said = say("error.rules", lang, problem=rules_problem(exc, lang))
            return JSONResponse({"detail": said, "field": "rules", "message": said,
                                 "code": exc.code, "params": exc.params}, status_code=422)
        except StoreError as exc:
            return store_unavailable(exc, "error.cannot_start", request)
        response = JSONResponse({"id": table.id, "url": f"/table/{table.id}"}, status_code=201)
        return with_token(request, response, new_token)

    @app.get("/api/rules")
    def rules_json(request: Request) -> dict[str, Any]:
        lang = request_language(request)
        return {"presets": preset_choices(lang), "options": editor_schema(lang)}

    @app.get("/api/games/current")
    def current_game(request: Request) -> Response:
        try:
            saved, _ = tables.of_browser(seat_token(request.cookies))
        except StoreError as exc:
            return store_unavailable(exc, "error.cannot_read_games", request)
        if saved is None:
            return JSONResponse({"detail": say("error.no_current", request_language(request))},
                                status_code=404)
        return JSONResponse({"id": saved.id, "url": f"/table/{saved.id}",
                             "difficulty": saved.difficulty, "rules": saved.rules})

    @app.get("/api/games/{game_id}/record")
    def game_record(game_id: str, request: Request) -> Response:
        lang = request_language(request)
        try:
            saved = store.get(game_id) if GAME_ID.match(game_id) else None
            if saved is None:
                return JSONResponse({"detail": say("error.no_game_short", lang, game=game_id)},
                                    status_code=404)
            new_token: list[str] = []
            if claim_for(request, saved, new_token) == "theirs":
                return JSONResponse({"detail": say("error.not_yours", lang)}, status_code=403)
            problem = saved.damage or (None if saved.finished else tables.replay_problem(saved))
            if problem is not None:
                raw = store.raw_record(game_id) or ""
                response: Response = PlainTextResponse(raw, media_type="application/json", headers={
                    "Content-Disposition": f'attachment; filename="preferans-{game_id}.json"'})
                return with_token(request, response, new_token)
        except StoreError as exc:
            return store_unavailable(exc, "error.cannot_read_one", request)
        if not saved.finished:
            return JSONResponse({"detail": say("error.record_later", lang)}, status_code=403)
        return with_token(request, JSONResponse(saved.record), new_token)

    @app.get("/api/stats")
    def stats_json(request: Request) -> Response:
        try:
            summaries, friends_tables = browser_games(request)
        except StoreError as exc:
            return store_unavailable(exc, "error.cannot_read_statistics", request)
        return JSONResponse({"difficulties": list(DIFFICULTIES), "stats": statistics(summaries),
                             "friends_tables": friends_tables})

    # --- the table's WebSocket ---------------------------------------------------------------
    async def refuse(socket: WebSocket, code: str, message: str, close: int, **extra: Any) -> None:
        await socket.send_json({"type": "error", "code": code, "message": message, **extra})
        await socket.close(code=close)

    @app.websocket("/ws/{game_id}")
    async def table_socket(socket: WebSocket, game_id: str) -> None:
        if not connections.allow(client_key(socket)):  # refused before any work is done
            await socket.close(code=4429)
            return
        await socket.accept()
        lang = set_socket_language(socket)
        token = seat_token(socket.cookies)
        unknown = say("error.ws_no_game", lang, game=game_id)
        if not GAME_ID.match(game_id):
            await refuse(socket, "unknown_game", unknown, 4404)
            return
        table = tables.open.get(game_id)
        try:
            saved = None
            if table is None:
                saved = await anyio.to_thread.run_sync(store.get, game_id)
                if saved is None:
                    await refuse(socket, "unknown_game", unknown, 4404)
                    return
            seats = table.seats if table is not None else saved.seats if saved else None
            friends = (table.party is not None if table is not None
                       else saved is not None and saved.friends is not None)
            whose = holder(seats, token, friends=friends)
            if whose == "free" and seat_tokens.minted(token):
                mine = await store.write(store.claim, game_id, HUMAN, token_hash(token))
                whose = "mine" if mine else "theirs"
                if mine and table is not None:
                    table.seats[str(HUMAN)] = token_hash(token)
                elif saved is not None:
                    saved = await anyio.to_thread.run_sync(store.get, game_id)
            watching = False
            if whose != "mine" and friends:
                party = (table.party if table is not None
                         else Party.from_json(saved.friends or {}) if saved else None)
                watching = may_watch(party, socket.query_params.get("watch"))
            if whose != "mine" and not watching:
                message = say("error.not_yours" if whose == "theirs" else "error.open_table",
                              lang)
                await refuse(socket, "not_yours", message, 4403)
                return
            if table is None and cluster is None:
                try:
                    table = await tables.load(game_id, saved)
                except StoreError:
                    raise
                except Exception as exc:
                    log.warning("game %s cannot be restored: %s", game_id, exc)
                    await refuse(socket, "damaged",
                                 say("error.ws_damaged", lang, game=game_id,
                                     problem=rules_problem(exc, lang)),
                                 4404)
                    return
        except StoreError as exc:
            await refuse(socket, "database",
                         say("error.cannot_read_game", lang, problem=store_message(exc, lang)),
                         4503, database=exc.location)
            return
        if cluster is not None:
            await shared_socket(socket, game_id, table, saved, token, watching, lang)
            return
        if table is None:
            await refuse(socket, "unknown_game", unknown, 4404)
            return
        if not table.started():  # friends still gathering: the lobby page, not the table
            await refuse(socket, "not_started", say("friends.not_started", lang), 4409)
            return
        client = client_key(socket)
        if len(table.sockets) >= SOCKETS_PER_TABLE or not client_sockets.take(client):
            await refuse(socket, "too_many_sockets", say("error.too_many_sockets", lang), 4429)
            return
        mine = held_seats(table.seats, token_hash(token)) if token else []
        seat = SPECTATOR if watching else (
            mine[0] if table.party is not None and mine else HUMAN)
        try:
            await table.connect(socket, seat)
            async for message in flood_limited(socket, lang):
                text = message.get("text")
                await table.receive(socket, text if text is not None else message.get("bytes"))
        except WebSocketDisconnect:
            pass
        finally:
            table.disconnect(socket)
            client_sockets.give(client)

    async def flood_limited(socket: WebSocket, lang: str) -> AsyncIterator[dict[str, Any]]:
        """A socket's messages until it closes, at most ``rate`` a second (``burst`` at
        once): a flood is dropped and said once, and a socket that keeps flooding is
        closed."""
        bucket = Bucket(rate, burst)
        dropped = 0
        while True:
            message = await socket.receive()
            if message["type"] == "websocket.disconnect":
                return
            if not bucket.allow():
                dropped += 1
                if dropped == 1:
                    await socket.send_json({"type": "error", "code": "too_many_messages",
                                            "message": say("error.too_many_messages", lang)})
                elif dropped > FLOOD_CLOSE:
                    await socket.close(code=4429)
                    return
                continue
            dropped = 0
            yield message

    async def shared_socket(socket: WebSocket, game_id: str, table: Table | None,
                            saved: SavedGame | None, token: str | None, watching: bool,
                            lang: str) -> None:
        """A table's socket when several processes share the tables (:mod:`.cluster`): the
        table is played here if this process owns it (or takes it now), else by its owner,
        to which the socket's messages go over the bus."""
        assert cluster is not None
        if table is not None:
            seats, party = table.seats, table.party
        else:
            assert saved is not None
            if saved.damage or tables.replay_problem(saved):
                problem = saved.damage or tables.replay_problem(saved) or ""
                await refuse(socket, "damaged", say("error.ws_damaged", lang, game=game_id,
                                                    problem=problem), 4404)
                return
            seats = dict(saved.seats or {})
            party = Party.from_json(saved.friends) if saved.friends else None
        if party is not None and not party.started:
            await refuse(socket, "not_started", say("friends.not_started", lang), 4409)
            return
        client = client_key(socket)
        if not client_sockets.take(client):
            await refuse(socket, "too_many_sockets", say("error.too_many_sockets", lang), 4429)
            return
        mine = held_seats(seats, token_hash(token)) if token else []
        seat = SPECTATOR if watching else (mine[0] if party is not None and mine else HUMAN)
        link = None
        try:
            try:
                link = await cluster.attach(socket, game_id, seat)
            except StoreError as exc:
                await refuse(socket, "database", say("error.cannot_read_game", lang,
                                                     problem=store_message(exc, lang)),
                             4503, database=exc.location)
                return
            async for message in flood_limited(socket, lang):
                text = message.get("text")
                if text is None:
                    text = (message.get("bytes") or b"")[:65536].decode("utf-8", "replace")
                await link.receive(text)
        except WebSocketDisconnect:
            pass
        finally:
            if link is not None:
                await cluster.detach(link)
            client_sockets.give(client)

    @app.get("/health")
    def health() -> Response:
        """For a load balancer: 200 while this process can serve (its database opened, its
        bus connected), else 503."""
        problems = []
        if store.fault is not None:
            problems.append(store.fault.message)
        if cluster is not None and not cluster.bus.connected:
            problems.append("the bus (Redis) is not connected")
        body = {"ok": not problems, "pid": os.getpid(), "problems": problems,
                "node": cluster.node if cluster is not None else None}
        return JSONResponse(body, status_code=503 if problems else 200)

    def status_figures() -> dict[str, Any]:
        if cluster is not None:
            return cluster.status()
        return {"node": None, "pid": os.getpid(), "tables_owned": len(tables.open),
                "sockets_held": sum(len(t.sockets) for t in list(tables.open.values()))}

    @app.get("/api/status")
    def status_json() -> Response:
        """This process's figures: tables owned, sockets held, lease renewals, bus lag."""
        return JSONResponse(status_figures())

    @app.get("/status", response_class=HTMLResponse)
    def status_page() -> Response:
        """The same figures as a small page, for whoever runs the server."""
        from html import escape

        def rows(figures: dict[str, Any], prefix: str = "") -> list[str]:
            out = []
            for key, value in figures.items():
                if isinstance(value, dict):
                    out.extend(rows(value, f"{prefix}{key}."))
                else:
                    out.append(f"<tr><th>{escape(prefix + key)}</th>"
                               f"<td>{escape(str(value))}</td></tr>")
            return out

        body = "".join(rows(status_figures()))
        return HTMLResponse("<!doctype html><meta charset=utf-8><title>Preferans: status"
                            "</title><meta http-equiv=refresh content=5>"
                            "<style>body{font:14px sans-serif;margin:2em}th{text-align:left;"
                            "padding-right:2em}</style><h1>This server process</h1>"
                            f"<table>{body}</table>")

    from .friends import register as register_friends
    from .review_routes import register as register_review
    from .ui_routes import register as register_ui_strings

    register_ui_strings(app)
    register_friends(app, tables=tables, store=store, own_token=own_token,
                     with_token=with_token, token_hash=token_hash, seat_token=seat_token,
                     page=page, allow_seeds=allow_seeds, store_unavailable=store_unavailable,
                     game_id_ok=lambda g: bool(GAME_ID.match(g)), table_html=table_html)

    register_review(app, store=store, game_id_ok=lambda g: bool(GAME_ID.match(g)),
                    claim_for=claim_for, with_token=with_token, page=page,
                    not_yours=NOT_YOURS, thinking=thinking)
    app.include_router(__import__("preferans.server.puzzle_routes", fromlist=["_"]).router)
    return app


def _jsonable(errors: Any) -> Any:
    """Pydantic errors with their context made printable."""
    out = []
    for error in errors:
        item = {k: v for k, v in error.items() if k in ("loc", "msg", "type")}
        item["loc"] = list(item.get("loc", ()))
        out.append(item)
    return out
