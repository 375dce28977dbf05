"""The JSON API of a game against the computer: ``POST /api/games`` (a new game),
``GET /api/rules`` (the presets and the house-rules editor's options),
``GET /api/games/current`` (this browser's latest unfinished game),
``GET /api/games/{id}/record`` (the record, once the game is over) and ``GET /api/stats``
(this browser's statistics)."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from ...rules import RulesError
from ..lang.house_rules import editor_schema, preset_choices
from ..lang.language import request_language, say
from ..lang.request_errors import rules_problem
from ..security.limits import creation_refused
from ..security.tokens import seat_token, token_hash
from ..store.faults import StoreError
from ..store.stats import DIFFICULTIES, statistics
from ..table.seats import HUMAN
from .deps import (
    SettingsDep,
    StoreDep,
    TablesDep,
    browser_games,
    claim_for,
    game_id_ok,
    own_token,
    with_token,
)
from .responses import store_unavailable

router = APIRouter()


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


@router.post("/api/games", status_code=201)
def new_game(settings: NewGame, request: Request, store: StoreDep, tables: TablesDep,
             web: SettingsDep) -> Response:
    if store.fault is not None:
        return store_unavailable(store.fault, "error.cannot_start", request)
    too_many = creation_refused(request)
    if too_many is not None:
        return too_many
    if settings.seed is not None and not web.allow_seeds:
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


@router.get("/api/rules")
def rules_json(request: Request) -> dict[str, Any]:
    lang = request_language(request)
    return {"presets": preset_choices(lang), "options": editor_schema(lang)}


@router.get("/api/games/current")
def current_game(request: Request, tables: TablesDep) -> Response:
    try:
        saved, _ = tables.of_browser(seat_token(request.cookies))
    except StoreError as exc:
        return store_unavailable(exc, "error.cannot_read_games", request)
    if saved is None:
        return JSONResponse({"detail": say("error.no_current", request_language(request))},
                            status_code=404)
    return JSONResponse({"id": saved.id, "url": f"/table/{saved.id}",
                         "difficulty": saved.difficulty, "rules": saved.rules})


@router.get("/api/games/{game_id}/record")
def game_record(game_id: str, request: Request, store: StoreDep, tables: TablesDep) -> Response:
    lang = request_language(request)
    try:
        saved = store.get(game_id) if game_id_ok(game_id) else None
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


@router.get("/api/stats")
def stats_json(request: Request) -> Response:
    try:
        summaries, friends_tables = browser_games(request)
    except StoreError as exc:
        return store_unavailable(exc, "error.cannot_read_statistics", request)
    return JSONResponse({"difficulties": list(DIFFICULTIES), "stats": statistics(summaries),
                         "friends_tables": friends_tables})
