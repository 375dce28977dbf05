"""The puzzle page and its API (``/puzzles``): find the one card, the solver answering.

- ``GET /puzzles``: the page (``?id=`` a puzzle, ``?theme=``, ``?grade=`` a choice).
- ``GET /api/puzzles/random?theme=&grade=``: a puzzle of that theme and grade, as the page
  sees it before it is solved (:func:`preferans.puzzles.session.public`: never the solution).
- ``GET /api/puzzles/daily``: the puzzle of the day (the same for everyone on a UTC date).
- ``GET /api/puzzles/{id}``: that puzzle, the same way.
- ``POST /api/puzzles/{id}/play`` ``{"cards": [...]}``: the player's cards so far, replayed
  with the solver answering (:func:`preferans.puzzles.session.advance`): ``continue``,
  ``solved`` or ``wrong`` (with the card's cost); a card that cannot be played is a 422 with
  a ``code`` the page words in its language.
- ``POST /api/puzzles/{id}/rate`` ``{"solved", "kept"}``: the first try at a puzzle rates
  the browser's holder (:mod:`..store.puzzle_ratings`, OpenSkill: :mod:`preferans.puzzles.
  rating`), kept with the player so that it follows him into his account; ``kept``, a
  rating the browser kept itself before, is taken once. ``GET /api/puzzles/rating``: it.
- ``GET /api/puzzles/{id}/solution``: the solution, its line and every other card's cost
  (asked for by the page's hint, after a wrong card or once solved).

Requests are data: an id must match the shipped ids' form and name a shipped puzzle, the
cards are at most ten short strings; the solving runs in a worker thread, a few
milliseconds a request (positions of ten cards or fewer), two at once per client and eight
in all (beyond that a 429 with a ``code`` the page words).
"""

from __future__ import annotations

import datetime
import hashlib
import random
import re
from functools import cache
from typing import Any

import anyio.to_thread
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from ...puzzles.session import PlayError, advance, public
from ...puzzles.shipped import generated
from ..security.limits import Slots, client_key
from ..security.tokens import token_hash
from ..store.faults import StoreError
from ..store.puzzle_ratings import kept_rating, puzzle_rating
from ..store.puzzle_ratings import rate_try as store_rate_try
from .deps import StoreDep, my_hash, own_token, with_token
from .responses import page, store_unavailable

PLAYS_PER_CLIENT = 2
"""A client's puzzle moves being solved at once (a third is answered 429: one at a time)."""
PLAYS_AT_ONCE = 8
"""Puzzle moves being solved at once in all: the worker threads stay free for the tables."""

router = APIRouter()
_solving = Slots(per_key=PLAYS_PER_CLIENT, total=PLAYS_AT_ONCE)
PUZZLE_ID = re.compile(r"^p[0-9a-f]{11}$")


class Play(BaseModel):
    """The player's cards so far."""

    model_config = ConfigDict(extra="forbid")
    cards: list[str] = Field(default_factory=list, max_length=10)


@cache
def _by_id() -> dict[str, dict[str, Any]]:
    return {p["id"]: p for p in generated()}


def _missing(code: str = "puzzles.error.none") -> JSONResponse:
    return JSONResponse({"detail": "no such puzzle", "code": code}, status_code=404)


def _find(puzzle_id: str) -> dict[str, Any] | None:
    if not PUZZLE_ID.match(puzzle_id):
        return None
    return _by_id().get(puzzle_id)


@router.get("/puzzles", response_class=HTMLResponse)
def puzzles_page(request: Request) -> Response:
    return page(request, "puzzles.html")


@router.get("/api/puzzles/random")
def random_puzzle(theme: str | None = None, grade: int | None = None) -> Response:
    chosen = [p for p in generated()
              if (not theme or theme in p["themes"]) and (grade is None or p["grade"] == grade)]
    if not chosen:
        return _missing("puzzles.error.none_left")
    return JSONResponse(public(random.choice(chosen)))


def daily_puzzle(day: datetime.date) -> dict[str, Any]:
    """The puzzle of the day: the same for everyone on a UTC date, drawn from the shipped
    puzzles of grade 3 and above by the date's hash."""
    pool = [p for p in generated() if p["grade"] >= 3]
    digest = hashlib.sha256(day.isoformat().encode()).digest()
    return pool[int.from_bytes(digest[:8], "big") % len(pool)]


@router.get("/api/puzzles/daily")
def daily() -> Response:
    today = datetime.datetime.now(datetime.UTC).date()
    return JSONResponse({**public(daily_puzzle(today)), "daily": today.isoformat()})


@router.get("/api/puzzles/rating")
async def my_puzzle_rating(request: Request, store: StoreDep) -> Response:
    """This browser's puzzle rating (its account's, signed in): ``{"rating": {"mu",
    "sigma", "shown", "solved", "tried"}}``, ``null`` before a first try."""
    try:
        rating = await anyio.to_thread.run_sync(puzzle_rating, store, my_hash(request))
    except StoreError as exc:
        return store_unavailable(exc, "error.cannot_read_one", request)
    return JSONResponse({"rating": rating}, headers={"Cache-Control": "no-store"})


@router.get("/api/puzzles/{puzzle_id}")
def one_puzzle(puzzle_id: str) -> Response:
    puzzle = _find(puzzle_id)
    return _missing() if puzzle is None else JSONResponse(public(puzzle))


@router.get("/api/puzzles/{puzzle_id}/solution")
def solution(puzzle_id: str) -> Response:
    puzzle = _find(puzzle_id)
    if puzzle is None:
        return _missing()
    return JSONResponse({k: puzzle[k] for k in ("id", "solution", "line", "line_end",
                                                "alternatives", "obvious", "value")})


class Try(BaseModel):
    """A try at a puzzle: solved at once (no wrong card, no hint) or not; ``kept``, the
    rating a browser kept itself before the server kept it, handed over once."""

    model_config = ConfigDict(extra="forbid")
    solved: bool
    kept: dict[str, Any] | None = None


@router.post("/api/puzzles/{puzzle_id}/rate")
async def rate_try(puzzle_id: str, body: Try, request: Request, store: StoreDep) -> Response:
    """Rate this browser's first try at a puzzle (its holder's: an account's, signed in);
    the rating after it, ``counted`` False when the puzzle was tried before."""
    puzzle = _find(puzzle_id)
    if puzzle is None:
        return _missing()
    kept = None if body.kept is None else kept_rating(body.kept)
    if body.kept is not None and kept is None:
        return JSONResponse({"detail": "kept must be a rating", "code": "puzzles.error.rating"},
                            status_code=422)
    new_token: list[str] = []

    def rated() -> dict[str, Any]:
        holder = token_hash(own_token(request, new_token))
        return store_rate_try(store, holder, puzzle_id, int(puzzle["grade"]), body.solved, kept)

    try:
        answer = await anyio.to_thread.run_sync(rated)
    except StoreError as exc:
        return store_unavailable(exc, "error.cannot_save", request)
    return with_token(request, JSONResponse(answer), new_token)


@router.post("/api/puzzles/{puzzle_id}/play")
async def play(puzzle_id: str, body: Play, request: Request) -> Response:
    puzzle = _find(puzzle_id)
    if puzzle is None:
        return _missing()
    if any(len(c) > 4 for c in body.cards):
        return JSONResponse({"detail": "not a card", "code": "puzzles.error.card"},
                            status_code=422)
    client = client_key(request)
    if not _solving.take(client):
        return JSONResponse({"detail": "one move at a time", "code": "puzzles.error.busy"},
                            status_code=429)
    try:
        result = await anyio.to_thread.run_sync(advance, puzzle, body.cards)
    except PlayError as exc:
        return JSONResponse({"detail": str(exc), "code": "puzzles.error.card"},
                            status_code=422)
    finally:
        _solving.give(client)
    return JSONResponse(result)
