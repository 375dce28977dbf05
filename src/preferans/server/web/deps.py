"""What a route needs, given by ``Depends``: the app's parts (the store, the open tables,
the thinking processes, the cluster, the seat tokens, the settings it was made with) and the
caller's seat token.

The parts live in the app's state (``app.state``, set by
:func:`preferans.server.app.create_app`); a test may override any of these dependencies.
The seat helpers (:func:`own_token`, :func:`claim_for`, :func:`with_token`) touch the
store: a route runs them off the event loop (a plain ``def`` route, or a worker thread).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.responses import Response
from starlette.requests import HTTPConnection

from ..security.limits import Openings, Slots
from ..security.links import Links
from ..security.tokens import (
    SEAT_COOKIE,
    SeatTokens,
    holder,
    seat_token,
    token_hash,
)
from ..store.games import GameStore
from ..store.saved import SavedGame
from ..store.stats import of_browser
from ..table.seats import HUMAN
from ..table.tables import GAME_ID, Tables
from ..table.thinking import Thinking

COOKIE_DAYS = 400
"""How long the seat cookie lasts (the longest a browser keeps one)."""


@dataclass
class WebSettings:
    """How the app was made, as the routes read it."""

    allow_seeds: bool
    """A client may choose a new game's seed (test servers only)."""


@dataclass
class SocketLimits:
    """The bounds on the table sockets (:mod:`..security.limits`), one set per app."""

    per_client: Slots
    """Sockets each client holds."""
    openings: Openings
    """Sockets a client opens a second."""
    rate: float
    """Messages a socket may send a second..."""
    burst: int
    """...and at once."""


async def get_store(conn: HTTPConnection) -> GameStore:
    return conn.app.state.store


async def get_tables(conn: HTTPConnection) -> Tables:
    return conn.app.state.tables


async def get_thinking(conn: HTTPConnection) -> Thinking | None:
    return conn.app.state.thinking


async def get_cluster(conn: HTTPConnection) -> Any:
    return conn.app.state.cluster


async def get_settings(conn: HTTPConnection) -> WebSettings:
    return conn.app.state.web


async def get_links(conn: HTTPConnection) -> Links:
    return conn.app.state.links


async def get_socket_limits(conn: HTTPConnection) -> SocketLimits:
    return conn.app.state.socket_limits


StoreDep = Annotated[GameStore, Depends(get_store)]
TablesDep = Annotated[Tables, Depends(get_tables)]
ThinkingDep = Annotated[Thinking | None, Depends(get_thinking)]
ClusterDep = Annotated[Any, Depends(get_cluster)]
SettingsDep = Annotated[WebSettings, Depends(get_settings)]
SocketLimitsDep = Annotated[SocketLimits, Depends(get_socket_limits)]
LinksDep = Annotated[Links, Depends(get_links)]
"""The links the server hands out (absolute at the public address: :mod:`..security.links`)."""


def game_id_ok(game_id: str) -> bool:
    """Whether ``game_id`` looks like a game's id (anything else is unknown at once)."""
    return bool(GAME_ID.match(game_id))


def my_hash(request: Request) -> str | None:
    """The hash of the caller's seat token, or None: it has none."""
    token = seat_token(request.cookies)
    return token_hash(token) if token else None


def set_seat_cookie(response: Response, token: str, secure: bool) -> None:
    """Give the browser its seat token: HttpOnly (no script reads it), SameSite=Strict (no
    other site's page sends it)."""
    response.set_cookie(SEAT_COOKIE, token, max_age=COOKIE_DAYS * 86400, path="/",
                        httponly=True, samesite="strict", secure=secure)


def own_token(request: Request, response_token: list[str]) -> str:
    """This browser's token if the server minted it; else a new one, put in
    ``response_token`` for the response's cookie (a token of an older server hands its
    seats over to it; a planted one holds none).  Run it off the event loop."""
    state = request.app.state
    seat_tokens: SeatTokens = state.seat_tokens
    token = seat_token(request.cookies)
    if token is not None and seat_tokens.minted(token):
        return token
    fresh = seat_tokens.mint()
    if token is not None:
        state.store.write_now(state.store.rekey, token_hash(token), token_hash(fresh))
        state.tables.rekey(token_hash(token), token_hash(fresh))
    response_token.append(fresh)
    return fresh


def with_token(request: Request, response: Response, new_token: list[str]) -> Response:
    """``response`` with the seat cookie of a token minted for it (if one was)."""
    if new_token:
        set_seat_cookie(response, new_token[0], request.url.scheme == "https")
    return response


def claim_for(request: Request, saved: SavedGame, response_token: list[str]) -> str:
    """Who holds the game's human seat for this request; a free seat (a game saved before
    seat tokens) is claimed for this browser, its token put in ``response_token`` when
    the browser has to be given one."""
    store: GameStore = request.app.state.store
    token = seat_token(request.cookies)
    whose = holder(saved.seats, token, HUMAN, friends=saved.friends is not None)
    if whose != "free":
        return whose
    token = own_token(request, response_token)
    if not store.write_now(store.claim, saved.id, HUMAN, token_hash(token)):
        return "theirs"
    table = request.app.state.tables.open.get(saved.id)
    if table is not None:
        table.seats[str(HUMAN)] = token_hash(token)
    return "mine"


def browser_games(request: Request) -> tuple[list[Any], list[dict[str, Any]]]:
    """This browser's games for the statistics, each from its own seat, and its tables
    for friends (:func:`..store.stats.of_browser`).  Raises :class:`StoreError`."""
    return of_browser(request.app.state.store.games_of_seats(), my_hash(request))
