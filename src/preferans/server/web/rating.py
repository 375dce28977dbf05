"""The rating's routes: this browser's rating and its history (``GET /api/rating``), its
choice to be on the ladder (``POST /api/rating/listing``) and the server's ladder
(``GET /ladder``).

The rating belongs to the caller's own holder (the hash of his seat token: an account's,
once the browser signs in); nothing here answers about another holder, and no answer carries
a holder's id: the ladder shows the names players chose to be listed under, and the four
computer levels."""

from __future__ import annotations

from typing import Any

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from ...rating.games import is_rated
from ..lang.language import request_language, say, store_message
from ..security.tokens import held_seats
from ..store import ratings as store_ratings
from ..store.faults import StoreError
from ..table.lobby import name_refusal
from ..table.party import clean_name
from .deps import StoreDep, game_id_ok, my_hash
from .responses import page, refused, store_unavailable

router = APIRouter()


class Listing(BaseModel):
    """A player's choice to be on the ladder, and the name it shows."""

    model_config = ConfigDict(extra="forbid")

    listed: bool
    name: str = Field(default="", max_length=40)


def own_rating(store: Any, holder: str | None) -> dict[str, Any]:
    """The caller's rating as the statistics page shows it (blocking: run off the loop)."""
    rating = store_ratings.rating_of(store, holder)
    below, above = store_ratings.placement(store, rating)
    listed, name = store_ratings.listing(store, holder)
    levels = {e["name"]: e["rating"].to_json() for e in store_ratings.ladder(store)
              if e["kind"] == "level"}
    return {"rating": rating.to_json(), "below": below, "above": above, "listed": listed,
            "name": name or "", "history": store_ratings.history(store, holder),
            "levels": levels}


@router.get("/api/rating")
async def my_rating(request: Request, store: StoreDep) -> Response:
    try:
        mine = await anyio.to_thread.run_sync(own_rating, store, my_hash(request))
    except StoreError as exc:
        return store_unavailable(exc, "error.cannot_read_stats", request)
    return JSONResponse(mine, headers={"Cache-Control": "no-store"})


@router.post("/api/rating/listing")
async def set_listing(body: Listing, request: Request, store: StoreDep) -> Response:
    holder = my_hash(request)
    if holder is None:
        return refused(request, "rating.no_games", 409)
    name = clean_name(body.name) if body.name.strip() else None
    if body.listed:
        if name is None:
            return refused(request, "friends.bad_name", 422)
        taken = await anyio.to_thread.run_sync(store_ratings.listed_names, store, holder)
        refusal = name_refusal(name, taken)
        if refusal is not None:
            return refused(request, refusal.key, 422, **refusal.fields)
    try:
        done = await store.write(store_ratings.set_listing, store, holder, body.listed, name)
    except StoreError as exc:
        return store_unavailable(exc, "error.cannot_save", request)
    if not done:
        return refused(request, "rating.no_games", 409)
    return JSONResponse({"listed": body.listed, "name": name or ""})


@router.get("/api/rating/table/{game_id}")
async def table_ratings(game_id: str, request: Request, store: StoreDep) -> Response:
    """The ratings of a friends' table's seats (its plates), for a browser holding a seat
    there: ``{"rated", "seats": [rating or null by seat]}``."""
    holder = my_hash(request)

    def read() -> dict[str, Any] | None:
        saved = store.get(game_id) if game_id_ok(game_id) else None
        if saved is None or saved.friends is None or not held_seats(saved.seats, holder):
            return None
        return {"rated": saved.friends.get("rated") is True,
                "seats": store_ratings.table_ratings(store, saved.seats, saved.friends)}

    try:
        answer = await anyio.to_thread.run_sync(read)
    except StoreError as exc:
        return store_unavailable(exc, "error.cannot_read_one", request)
    if answer is None:
        return refused(request, "error.not_yours", 403)
    return JSONResponse(answer, headers={"Cache-Control": "no-store"})


@router.get("/api/rating/game/{game_id}")
async def game_rating(game_id: str, request: Request, store: StoreDep) -> Response:
    """How a game moved the ratings of the seats this browser holds there (the result's
    "your rating" line): ``{"rated", "done", "seats": {seat: {"mu", "sigma", "shown",
    "change", "place"}}}``. ``rated``: the game is of a rated kind; ``done``: its rating has
    been written (it is, moments after the game's end)."""
    holder = my_hash(request)

    def read() -> dict[str, Any] | None:
        saved = store.get(game_id) if game_id_ok(game_id) else None
        mine = [] if saved is None else held_seats(saved.seats, holder)
        if saved is None or not mine or holder is None:
            return None
        rated = is_rated(saved.difficulty, saved.friends, len(saved.names))
        answer = store_ratings.game_changes(store, game_id, dict.fromkeys(mine, holder))
        return {"rated": rated, **answer}

    try:
        answer = await anyio.to_thread.run_sync(read)
    except StoreError as exc:
        return store_unavailable(exc, "error.cannot_read_one", request)
    if answer is None:
        return refused(request, "error.not_yours", 403)
    return JSONResponse(answer, headers={"Cache-Control": "no-store"})


@router.get("/ladder", response_class=HTMLResponse)
async def ladder_page(request: Request, store: StoreDep) -> Response:
    lang = request_language(request)
    holder = my_hash(request)

    def read() -> tuple[list[dict[str, Any]], dict[str, Any]]:
        return store_ratings.ladder(store, holder), own_rating(store, holder)

    try:
        entries, mine = await anyio.to_thread.run_sync(read)
    except StoreError as exc:
        return page(request, "notfound.html", status_code=503,
                    title=say("title.database", lang),
                    message=say("error.cannot_read_stats", lang,
                                problem=store_message(exc, lang)))
    rows = [{"kind": e["kind"], "name": e["name"], "you": e["you"],
             **e["rating"].to_json()} for e in entries]
    return page(request, "ladder.html", rows=rows, mine=mine)
