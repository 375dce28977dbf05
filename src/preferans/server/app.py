"""The web game's application: :func:`create_app` makes the app's parts (the store, the
open tables, the thinking processes, the cluster when several processes share the tables,
the seat tokens, the limits) and puts them in its state, then includes one router per
concern (:mod:`.web`).

>>> from fastapi.testclient import TestClient
>>> client = TestClient(create_app("sqlite://", bot_delay=0))
>>> client.get("/api/games/current").status_code
404

The routes (see each router's module): the pages (:mod:`.web.pages`: ``/``,
``/table/{id}``, ``/stats``, ``/guide``), a game's JSON API (:mod:`.web.games`), the table's
WebSocket (:mod:`.web.sockets`), health and figures (:mod:`.web.status`), the browser's
catalogues (:mod:`.web.strings`), a table for friends (:mod:`.web.friends`) and its seat
links (:mod:`.web.seat_links`), the analysis
and the replays (:mod:`.web.review`); ``/static/...`` the scripts, styles and the card deck.

Seat tokens: creating a game sets the HttpOnly, SameSite=Strict cookie ``preferans_seat``
(a token the server minted and signed, kept for the browser's later games; a cookie it did
not mint is never adopted: :mod:`.security.tokens`) and saves the token's sha256 as the
holder of the human seat (the store's ``seats``).  The table page, its WebSocket, the
record and CONTINUE answer only that browser; another gets "this game belongs to another
browser" (page 403, JSON 403, socket error ``not_yours`` and close 4403).  A game saved
before seat tokens has no holder: the first browser that opens its table (or its record)
claims it.

Idle tables leave memory ``idle_seconds`` after their last socket closed and their
computer players stopped; the next visit restores them from the store
(:class:`.table.tables.Tables`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import webbrowser
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.middleware.trustedhost import TrustedHostMiddleware

from ..i18n.address import ADDRESS_RULE
from . import gcpause
from .gcpause import GcPauses
from .security import guard
from .security.bodies import BodyLimit
from .security.guard import OriginGuard
from .security.limits import (
    SOCKETS_PER_CLIENT,
    Openings,
    Slots,
    creation_rate,
    message_rate,
)
from .security.links import Links, public_url_from
from .security.tokens import SeatTokens
from .store.config import database_url
from .store.faults import StoreError
from .store.games import GameStore
from .table.comeback import restore_friends_tables
from .table.standin import GRACE_SECONDS
from .table.tables import IDLE_SECONDS, Tables
from .table.thinking import Thinking, default_workers
from .web import (
    accounts,
    errors,
    friends,
    games,
    pages,
    puzzles,
    review,
    seat_links,
    sockets,
    status,
    strings,
)
from .web.deps import SocketLimits, WebSettings

log = logging.getLogger("preferans.server")

HERE = Path(__file__).parent
STATIC = HERE / "static"
TEMPLATES = HERE / "templates"
ENV_ALLOW_SEEDS = "PREFERANS_ALLOW_SEEDS"
"""Environment variable: ``1`` lets a client choose a new game's seed (test servers only)."""
ROUTERS = (pages, games, sockets, status, strings, friends, seat_links, review, puzzles,
           accounts)
"""The routers, in the order their routes are matched."""

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
    public_url: str | None = None,
) -> FastAPI:
    """The web game.

    ``db_url`` is a SQLAlchemy URL or a file path (default: the user's data folder, or
    ``PREFERANS_DB``); ``bot_delay`` the pause in seconds before each computer move (0 in
    tests); ``open_browser`` opens ``browser_url`` once the server is up; ``bot_level``
    (tests) plays every computer seat at that level (e.g. ``random``) whatever the difficulty;
    ``idle_seconds`` how long a table with no socket stays in memory (then it is restored
    from the store on the next visit); ``grace_seconds`` how long a friend's seat waits for
    him (no socket open) before the stand-in plays it (:mod:`.table.standin`);
    ``bot_workers`` the number of processes the computer players think in (default
    ``PREFERANS_BOT_WORKERS``, else up to 2; 0: a thread of the server process instead);
    ``freeze_startup`` (the served app) freezes what exists once started out of the garbage
    collector's sight and sets its thresholds (:mod:`.gcpause`), for shorter pauses;
    ``allowed_hosts`` the hosts it answers for (default ``localhost``, ``127.0.0.1``, ``::1``,
    and ``PREFERANS_ALLOWED_HOSTS``) and ``allowed_origins`` the other sites whose pages may
    open its sockets and send it writes (see :mod:`.security.guard`); ``allow_seeds`` lets a client
    choose a new game's seed (tests; default ``PREFERANS_ALLOW_SEEDS=1``); ``bus_url`` (a
    ``redis://`` URL) makes this process one of several sharing the database's tables, each
    table owned by one of them for ``lease_seconds`` at a time, renewed (:mod:`.cluster`);
    ``public_url`` (else ``PREFERANS_PUBLIC_URL``) the address friends use behind a proxy
    (``https://pref.example.org``): the links it hands out are made absolute from it, and its
    host and origin are allowed (:mod:`.security.links`; a bad one raises ``ValueError``).
    """
    if allow_seeds is None:
        allow_seeds = os.environ.get(ENV_ALLOW_SEEDS, "").strip() == "1"
    workers = default_workers() if bot_workers is None else bot_workers
    thinking = Thinking(workers) if workers > 0 else None
    store = GameStore(database_url(db_url))
    tables = Tables(store, bot_delay, bot_level, idle_seconds, thinking, grace_seconds)
    cluster = None
    if bus_url:
        from .cluster.cluster import Cluster

        tables.shared = True
        cluster = tables.cluster = Cluster(store, bus_url, tables, lease_seconds)
    app = FastAPI(title="Preferans", docs_url=None, redoc_url=None,
                  lifespan=lifespan(open_browser, browser_url, freeze_startup))
    links = Links(public_url_from(public_url))
    public = [] if links.public is None else [links.public.host]
    app.add_middleware(OriginGuard, allowed=guard.allowed_origins(
        [*(allowed_origins or ()), *([links.origin] if links.origin else [])]))
    app.add_middleware(BodyLimit)
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=[
        *guard.allowed_hosts(allowed_hosts), *public], www_redirect=False)
    state = app.state
    state.store, state.tables, state.thinking, state.cluster = store, tables, thinking, cluster
    state.seat_tokens = seat_tokens(store)
    state.account_key = kept_key(store, "account_tokens")
    state.account_attempts = accounts.attempt_limits()
    state.templates = Jinja2Templates(directory=str(TEMPLATES))
    state.templates.env.globals["address_rule"] = ADDRESS_RULE  # the name forms' «он / она»
    state.web = WebSettings(allow_seeds=allow_seeds)
    state.links = links
    state.socket_limits = SocketLimits(Slots(per_key=SOCKETS_PER_CLIENT), Openings(),
                                       *message_rate())
    state.reviews = review.Results()
    state.creations = Openings(*creation_rate())
    STATIC.mkdir(parents=True, exist_ok=True)
    app.mount("/static", StaticFiles(directory=str(STATIC), check_dir=False), name="static")
    errors.install(app)
    for module in ROUTERS:
        app.include_router(module.router)
    return app


def seat_tokens(store: GameStore) -> SeatTokens:
    """The seat tokens, signed with the store's kept key (or, when it cannot be kept, one
    for this run only: the server still starts)."""
    return SeatTokens(kept_key(store, "seat_tokens"))


def kept_key(store: GameStore, name: str) -> bytes:
    """The store's kept key ``name`` (or, when it cannot be kept, one for this run only)."""
    try:
        return store.secret(name)
    except StoreError as exc:
        log.warning("the key %s cannot be kept (%s): one for this run only", name, exc)
        return secrets.token_bytes(32)


def lifespan(open_browser: bool, browser_url: str, freeze_startup: bool) -> Any:
    """The app's start and stop: the thinking processes, the cluster, the idle tables'
    reaper, the friends' tables brought back (:mod:`.table.comeback`), the garbage
    collector's settings; on stopping, each in turn, the store last."""

    @asynccontextmanager
    async def run(app: FastAPI) -> AsyncIterator[None]:
        store, tables = app.state.store, app.state.tables
        thinking, cluster = app.state.thinking, app.state.cluster
        if open_browser:
            asyncio.get_running_loop().call_later(0.8, webbrowser.open, browser_url)
        if thinking is not None:
            thinking.start()
        if cluster is not None:
            await cluster.start()
        reaper = asyncio.get_running_loop().create_task(tables.reap_forever())
        # the friends' tables being played come back at once: an absent friend's grace time
        # counts from the restart, not from the first friend's return (:mod:`.table.comeback`)
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

    return run
