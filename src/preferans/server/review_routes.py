"""The after-deal analysis and the replay viewer's routes.

- ``GET /api/games/{id}/analysis``: the analysis (``preferans-analysis/1``) of the deals of
  this browser's game that are over; the deal in progress is never in it.
- ``GET /api/games/{id}/review``: a finished game laid out for the replay viewer
  (``preferans-review/1``, :mod:`preferans.review`).
- ``POST /api/review``: the same for an uploaded record file (any record).

The viewer's page (``/replay/{id}``, stepping through these frames) is still to come.

The work (replaying, solving every position) runs in a worker thread, with the results
kept per game and record length, so a second look costs nothing.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

from ..record import RecordError, read_record
from ..review import finished_part, review
from ..rules import RulesError
from .store import SavedGame, StoreError

MAX_UPLOAD = 2_000_000
"""Bytes of an uploaded record (a long pulya's record is well under 200 KB)."""
CACHE_SIZE = 32


class _Cache:
    """Results kept per (kind, game, record length): a record only grows."""

    def __init__(self) -> None:
        self._items: OrderedDict[tuple[str, str, int], dict[str, Any]] = OrderedDict()

    def get(self, key: tuple[str, str, int]) -> dict[str, Any] | None:
        hit = self._items.get(key)
        if hit is not None:
            self._items.move_to_end(key)
        return hit

    def put(self, key: tuple[str, str, int], value: dict[str, Any]) -> None:
        self._items[key] = value
        while len(self._items) > CACHE_SIZE:
            self._items.popitem(last=False)


def _analysis_of(record: dict[str, Any]) -> dict[str, Any]:
    from ..analysis import analyse

    return analyse(finished_part(record))


def register(
    app: FastAPI,
    *,
    store: Any,
    game_id_ok: Callable[[str], bool],
    claim_for: Callable[[Request, SavedGame, list[str]], str],
    with_token: Callable[[Request, Response, list[str]], Response],
    page: Callable[..., Response],
    not_yours: str,
) -> None:
    """Add the routes to ``app`` (called by :func:`preferans.server.app.create_app`)."""
    cache = _Cache()

    def own_game(request: Request, game_id: str) -> tuple[SavedGame | None, Response | None,
                                                          list[str]]:
        new_token: list[str] = []
        if not game_id_ok(game_id):
            return None, JSONResponse({"detail": f"no game {game_id!r}"}, status_code=404), []
        try:
            saved = store.get(game_id)
            if saved is None:
                return None, JSONResponse({"detail": f"no game {game_id!r}"}, status_code=404), []
            if claim_for(request, saved, new_token) == "theirs":
                return None, JSONResponse({"detail": not_yours}, status_code=403), []
        except StoreError as exc:
            return None, JSONResponse({"detail": f"the database: {exc.message}"},
                                      status_code=503), []
        if saved.damage:
            return None, JSONResponse({"detail": f"the saved game is damaged: {saved.damage}"},
                                      status_code=409), []
        return saved, None, new_token

    async def computed(kind: str, saved: SavedGame, work: Callable[[dict[str, Any]],
                                                                   dict[str, Any]]) -> Response:
        key = (kind, saved.id, len(json.dumps(saved.record)))
        hit = cache.get(key)
        if hit is None:
            try:
                hit = await anyio.to_thread.run_sync(work, saved.record)
            except (RecordError, RulesError, ValueError) as exc:
                return JSONResponse({"detail": f"the record does not replay: {exc}"},
                                    status_code=409)
            cache.put(key, hit)
        return JSONResponse(hit)

    @app.get("/api/games/{game_id}/analysis")
    async def game_analysis(game_id: str, request: Request) -> Response:
        saved, refusal, new_token = own_game(request, game_id)
        if refusal is not None:
            return refusal
        assert saved is not None
        return with_token(request, await computed("analysis", saved, _analysis_of), new_token)

    @app.get("/api/games/{game_id}/review")
    async def game_review(game_id: str, request: Request) -> Response:
        saved, refusal, new_token = own_game(request, game_id)
        if refusal is not None:
            return refusal
        assert saved is not None
        if not saved.finished:
            return JSONResponse({"detail": "the replay opens once the game is over"},
                                status_code=403)
        return with_token(request, await computed("review", saved, review), new_token)

    @app.post("/api/review")
    async def upload_review(request: Request) -> Response:
        body = await request.body()
        if len(body) > MAX_UPLOAD:
            return JSONResponse({"detail": f"the file is larger than {MAX_UPLOAD:,} bytes"},
                                status_code=413)
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            return JSONResponse({"detail": "the file is not UTF-8 text"}, status_code=422)
        try:
            obj = json.loads(text)
        except (json.JSONDecodeError, RecursionError, ValueError) as exc:
            return JSONResponse({"detail": f"the file is not a JSON record: {exc}"},
                                status_code=422)
        try:
            record = read_record(obj)
            result = await anyio.to_thread.run_sync(review, record)
        except (RecordError, RulesError, ValueError) as exc:
            return JSONResponse({"detail": f"the record does not replay: {exc}"},
                                status_code=422)
        return JSONResponse(result)
