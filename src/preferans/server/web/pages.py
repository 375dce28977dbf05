"""The pages: the settings page (``GET /``), a game's table (``GET /table/{id}``), this
browser's statistics (``GET /stats``) and the rules guide (``GET /guide``)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import TemplateNotFound

from ...i18n import player_name
from ..lang.house_rules import editor_schema, preset_choices
from ..lang.language import (
    damage_text,
    remember_language,
    request_language,
    say,
    settings_strings,
    store_message,
)
from ..security.tokens import seat_token
from ..store.faults import StoreError
from ..store.saved import SavedGame
from ..store.stats import DIFFICULTIES, ROWS, statistics
from ..table.party import Party
from ..table.seats import seat_colours, seat_names
from .deps import StoreDep, TablesDep, browser_games, claim_for, game_id_ok, with_token
from .responses import not_found, page, store_problem

router = APIRouter()

POOLS = (10, 20, 30)
"""The pulya lengths the settings page offers."""


@router.get("/", response_class=HTMLResponse)
def settings_page(request: Request, store: StoreDep, tables: TablesDep) -> Response:
    lang = request_language(request)
    problem = store_problem(store, lang)
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


@router.get("/table/{game_id}", response_class=HTMLResponse)
def table_page(request: Request, game_id: str, store: StoreDep, tables: TablesDep) -> Response:
    lang = request_language(request)
    database = say("title.database", lang)
    try:
        saved = store.get(game_id) if game_id_ok(game_id) else None
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


@router.get("/stats", response_class=HTMLResponse)
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


@router.get("/guide", response_class=HTMLResponse)
def guide_page(request: Request) -> Response:
    """The rules guide in the request's language (``?lang=``, the cookie, the browser)."""
    from ...guide import render_guide
    from ...guide.profile import chosen_rules

    chosen = chosen_rules(request.query_params.get("preset"), request.query_params.get("pool"))
    guide = HTMLResponse(render_guide(lang=request_language(request), chosen=chosen))
    return remember_language(request, guide)
