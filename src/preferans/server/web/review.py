"""The after-deal analysis and the replay viewer's routes.

- ``GET /api/games/{id}/analysis``: the analysis (``preferans-analysis/1``) of the deals of
  this browser's game that are over; the deal in progress is never in it.  ``?deal=N``:
  of deal N alone (empty while it is being played).
- ``GET /api/games/{id}/calls/{deal}``: the browser's own seat's calls in that deal (bids, whist or
  pass, open or closed) beside what Crazy would have chosen from the same seat's view, with
  the expected difference (:mod:`preferans.analysis.call_review`); only once the deal is over (403
  before).  Worked out in the thinking processes, a call at a time, within Crazy's budget.
- ``GET /api/games/{id}/review``: a finished game laid out for the replay viewer
  (``preferans-review/1``, :mod:`preferans.analysis.review`), with the seats' ``colours``.
- ``POST /api/review``: the same for an uploaded record (the body itself, JSON; never a
  path): bounded in size, deals and time, a few at once per client (``docs/security.md``).
- ``GET /api/replays``: this browser's finished games, the most recent first, each with the
  ``seat`` it held (its result is ``result[seat]``); the review also names the viewer's
  ``seat`` (the replay is drawn from it).
- ``GET /replay/{id}``: the replay viewer of a finished game of this browser;
  ``GET /replay``: the viewer's start page (this browser's finished games, and a record file
  to open).

The work runs off the event loop (replaying and solving in a worker thread, Crazy's views in
the thinking processes), with the results kept per game and record length, so a second
look costs nothing.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Annotated, Any

import anyio.to_thread
from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.requests import HTTPConnection

from ...analysis.review import finished_part, review
from ...record import RecordError, record_from_json
from ...rules import RulesError
from ..lang.language import damage_text, request_language, say, store_message
from ..lang.request_errors import rules_problem
from ..security.limits import UPLOADS_AT_ONCE, UPLOADS_PER_CLIENT, Slots, client_key
from ..security.tokens import held_seats, holder, seat_token, token_hash
from ..store.faults import StoreError
from ..store.saved import SavedGame
from ..table.seats import HUMAN, bot_seed, seat_colours
from ..table.thinking import Seat, Thinking
from .deps import ThinkingDep, claim_for, game_id_ok, my_hash, with_token
from .responses import page

MAX_UPLOAD = 2_000_000
"""Bytes of an uploaded record (a long pulya's record is well under 200 KB)."""
UPLOAD_DEALS = 400
"""Deals of an uploaded record at most (a game of pool 30 is played in well under 400)."""
UPLOAD_SECONDS = 30.0
"""Seconds an uploaded record's review may take in all (a long pulya's takes a few)."""
CACHE_SIZE = 64
CALLS_LEVEL = "crazy"
"""The level whose view of the human's calls the analysis shows."""
REVIEW_LANE = "review"
"""The name the thinking processes know the after-deal reviews by (one lane)."""


class _Cache:
    """Results kept per key, e.g. (kind, game, record length): a record only grows."""

    def __init__(self) -> None:
        self._items: OrderedDict[tuple[Any, ...], Any] = OrderedDict()

    def get(self, key: tuple[Any, ...]) -> Any:
        hit = self._items.get(key)
        if hit is not None:
            self._items.move_to_end(key)
        return hit

    def put(self, key: tuple[Any, ...], value: Any) -> None:
        self._items[key] = value
        while len(self._items) > CACHE_SIZE:
            self._items.popitem(last=False)


def _analysis_of(record: dict[str, Any], deal: int | None = None) -> dict[str, Any]:
    from ...analysis.after_deal import analyse

    return analyse(finished_part(record), deal)


def _with_colours(result: dict[str, Any]) -> dict[str, Any]:
    """A review with what the viewer draws the table and the sheet with: the seats'
    ``colours``, the rules' ``pool``, ``rules_title`` and ``house_rules``."""
    from ...rules import Rules
    from ..lang.house_rules import house_rules, rules_title

    players = len(result.get("players") or ())
    rules = Rules.from_json(result["rules"])
    return {**result, "colours": list(seat_colours(players if players in (2, 4) else 3)),
            "pool": rules.pool, "rules_title": rules_title(rules),
            "house_rules": house_rules(rules)}


def _in_language(result: dict[str, Any], lang: str) -> dict[str, Any]:
    """A review's rules title and house rules in the reader's language."""
    if lang == "en" or "rules" not in result:
        return result
    from ...rules import Rules
    from ..lang.language import HouseRules
    from ..lang.presets_text import preset_title_in

    name = Rules.from_json(result["rules"]).name
    return {**result, "rules_title": preset_title_in(name, lang),
            "house_rules": HouseRules(result.get("house_rules") or []).render(lang)}


def not_replayed(exc: BaseException, lang: str) -> str:
    """Why a record does not replay, in ``lang`` (a refused rule said in it: ``запись партии
    не воспроизводится: правила: «Сталинград» = 'yes': нужно «да» или «нет»``)."""
    return say("error.no_replay", lang, problem=rules_problem(exc, lang))


class UploadTooLong(Exception):
    """An uploaded record's review ran past :data:`UPLOAD_SECONDS`."""


class _UploadRefused(Exception):
    """An upload refused before its review: the words' key and their fields."""

    def __init__(self, key: str, **fields: Any) -> None:
        super().__init__(key)
        self.key = key
        self.fields = fields


async def _bounded_body(request: Request, most: int) -> bytes | None:
    """The request's body, or None once it is longer than ``most`` bytes: counted while it
    arrives, so an oversized upload is never held whole."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > most:
        return None
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > most:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def _review_upload(body: bytes, seconds: float | None = None,
                   clock: Callable[[], float] = time.monotonic) -> dict[str, Any]:
    """In a worker thread: an uploaded body parsed as a record and reviewed, within the
    bounds (raises :class:`_UploadRefused`, :class:`UploadTooLong`, or the record's error)."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise _UploadRefused("error.upload.not_utf8") from None
    try:
        obj = json.loads(text)
    except (json.JSONDecodeError, RecursionError, ValueError) as exc:
        raise _UploadRefused("error.upload.not_json", detail=str(exc)) from None
    deals = obj.get("deals") if isinstance(obj, dict) else None
    if isinstance(deals, list) and len(deals) > UPLOAD_DEALS:
        raise _UploadRefused("error.upload.too_many_deals", deals=len(deals),
                             most=UPLOAD_DEALS)
    record = record_from_json(obj)
    ends = clock() + (UPLOAD_SECONDS if seconds is None else seconds)

    def check() -> None:
        if clock() > ends:
            raise UploadTooLong

    return _with_colours(review(record, check=check))


class Results:
    """What the review routes keep per app: the results per game and record length, the
    work running for a key (shared by the requests that ask meanwhile), and the uploads
    each client runs at once."""

    def __init__(self) -> None:
        self.cache = _Cache()
        self.pending: dict[tuple[Any, ...], asyncio.Future[Any]] = {}
        self.uploads = Slots(per_key=UPLOADS_PER_CLIENT, total=UPLOADS_AT_ONCE)


async def get_results(conn: HTTPConnection) -> Results:
    return conn.app.state.reviews


ResultsDep = Annotated[Results, Depends(get_results)]
router = APIRouter()


def own_game(request: Request, game_id: str) -> tuple[SavedGame | None, Response | None,
                                                      list[str]]:
    """This browser's game (claimed for it if free), or the refusal to answer with."""
    store = request.app.state.store
    new_token: list[str] = []
    lang = request_language(request)
    missing = {"detail": say("error.no_game_short", lang, game=game_id)}
    if not game_id_ok(game_id):
        return None, JSONResponse(missing, status_code=404), []
    try:
        saved = store.get(game_id)
        if saved is None:
            return None, JSONResponse(missing, status_code=404), []
        if claim_for(request, saved, new_token) == "theirs":
            return None, JSONResponse({"detail": say("error.not_yours", lang)},
                                      status_code=403), []
    except StoreError as exc:
        return None, JSONResponse({"detail": say("error.database", lang, problem=store_message(
            exc, lang))}, status_code=503), []
    if saved.damage:
        damaged = say("error.damaged_short", lang, problem=damage_text(saved.damage, lang))
        return None, JSONResponse({"detail": damaged}, status_code=409), []
    return saved, None, new_token


def viewer_seat(request: Request, saved: SavedGame) -> int:
    """The seat this browser holds in ``saved`` (its own at a table for friends; the human's
    seat against the computer): whose calls, result and view the pages say "your" of."""
    held = held_seats(saved.seats, my_hash(request))
    return held[0] if held else HUMAN


async def once(results: Results, key: tuple[Any, ...], work: Callable[[], Any]) -> Any:
    """``await work()`` once per key: kept, and shared by requests that ask meanwhile."""
    cache, pending = results.cache, results.pending
    hit = cache.get(key)
    if hit is not None:
        return hit
    running = pending.get(key)
    if running is not None:
        return await asyncio.shield(running)
    future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    pending[key] = future
    try:
        result = await work()
    except BaseException as exc:
        future.set_exception(exc)
        future.exception()  # retrieved: nobody else may be waiting
        raise
    finally:
        pending.pop(key, None)
    cache.put(key, result)
    future.set_result(result)
    return result


async def computed(results: Results, key: tuple[Any, ...], saved: SavedGame,
                   work: Callable[[dict[str, Any]], dict[str, Any]],
                   lang: str | None = None, extra: dict[str, Any] | None = None) -> Response:
    """The result kept for ``key`` (worked out once), in ``lang``, with ``extra`` (what is
    the asker's own: his seat)."""
    try:
        hit = await once(results, (*key, len(json.dumps(saved.record))),
                         lambda: anyio.to_thread.run_sync(work, saved.record))
    except (RecordError, RulesError, ValueError) as exc:
        return JSONResponse({"detail": not_replayed(exc, lang or "en")}, status_code=409)
    shown = hit if lang is None else _in_language(hit, lang)
    return JSONResponse({**shown, **extra} if extra else shown)


def watched_game(request: Request, game_id: str) -> SavedGame | None:
    """A started table for friends a spectator watches (``?watch=`` its watch code):
    the analysis of its finished deals is open to him too (never a deal in progress:
    :func:`_analysis_of` reads only the finished part of the record)."""
    from ..table.lobby import may_watch
    from ..table.party import Party

    saved = request.app.state.store.get(game_id)
    if saved is None or saved.friends is None or saved.damage:
        return None
    watch = request.query_params.get("watch")
    return saved if may_watch(Party.from_json(saved.friends), watch) else None


@router.get("/api/games/{game_id}/analysis")
async def game_analysis(game_id: str, request: Request, results: ResultsDep,
                        deal: int | None = None) -> Response:
    saved, refusal, new_token = own_game(request, game_id)
    if refusal is not None and refusal.status_code == 403 and "watch" in request.query_params:
        try:
            watched = await anyio.to_thread.run_sync(watched_game, request, game_id)
        except StoreError:
            watched = None
        if watched is not None:
            saved, refusal, new_token = watched, None, []
    if refusal is not None:
        return refusal
    assert saved is not None
    if deal is None:
        response = await computed(results, ("analysis", saved.id), saved, _analysis_of)
    else:
        response = await computed(results, ("analysis", saved.id, deal), saved,
                                  lambda record: _analysis_of(record, deal))
    return with_token(request, response, new_token)


@router.get("/api/games/{game_id}/calls/{deal}")
async def game_calls(game_id: str, deal: int, request: Request, results: ResultsDep,
                     thinking: ThinkingDep) -> Response:
    saved, refusal, new_token = own_game(request, game_id)
    if refusal is not None:
        return refusal
    assert saved is not None
    from ...analysis.call_review import call_positions

    seat = viewer_seat(request, saved)  # a friend's own calls, never seat 0's
    try:
        positions = await anyio.to_thread.run_sync(call_positions, saved.record, deal, seat)
    except (RecordError, RulesError) as exc:
        return JSONResponse({"detail": not_replayed(exc, request_language(request))},
                            status_code=409)
    except ValueError as exc:  # no such deal, or not over: nothing of it is shown
        return JSONResponse({"detail": str(exc)}, status_code=403)
    rules = json.dumps(saved.record.get("rules") or {}, sort_keys=True)

    async def work() -> dict[str, Any]:
        return {"deal": deal, "level": CALLS_LEVEL, "seat": seat,
                "calls": [await _compare(thinking, p, rules, saved.seed, seat)
                      for p in positions]}

    try:
        result = await once(results, ("calls", saved.id, deal, seat), work)
    except Exception as exc:  # the thinking process failed: say so, never a traceback
        return JSONResponse({"detail": f"the calls were not weighed ({exc})"},
                            status_code=503)
    return with_token(request, JSONResponse(result), new_token)


async def _compare(thinking: Thinking | None, position: dict[str, Any], rules: str,
                   seed: int, seat: int = HUMAN) -> dict[str, Any]:
    from ...analysis.call_review import compare

    observation = position["observation"]
    if thinking is None:
        from ...players import make_player
        from ...rules import Rules

        player = make_player(CALLS_LEVEL, Rules.from_json(json.loads(rules)),
                             bot_seed(seed, seat))
        explained = await anyio.to_thread.run_sync(
            player.explain, observation)  # type: ignore[attr-defined]
    else:
        lane = Seat(REVIEW_LANE, seat, CALLS_LEVEL, rules, bot_seed(seed, seat))
        explained = await thinking.explain(lane, observation, keep=False)
    return compare(position, explained)


@router.get("/api/games/{game_id}/review")
async def game_review(game_id: str, request: Request, results: ResultsDep) -> Response:
    saved, refusal, new_token = own_game(request, game_id)
    if refusal is not None:
        return refusal
    assert saved is not None
    if not saved.finished:
        return JSONResponse({"detail": say("error.replay_later",
                                           request_language(request))}, status_code=403)
    response = await computed(results, ("review", saved.id), saved,
                              lambda record: _with_colours(review(record)),
                              request_language(request),
                              {"seat": viewer_seat(request, saved)})  # the viewer's own
    return with_token(request, response, new_token)


@router.post("/api/review")
async def upload_review(request: Request, results: ResultsDep) -> Response:
    """An uploaded record laid out for the viewer: the body is the record itself (never
    a path), read up to :data:`MAX_UPLOAD` bytes, parsed and reviewed in a worker thread
    within :data:`UPLOAD_DEALS` deals and :data:`UPLOAD_SECONDS`; a client runs at most
    a few at once."""
    lang = request_language(request)

    def refused(key: str, status: int, **fields: Any) -> Response:
        return JSONResponse({"detail": say(key, lang, **fields)}, status_code=status)

    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json":
        return refused("error.upload.not_json_type", 415)
    client = client_key(request)
    if not results.uploads.take(client):
        return refused("error.upload.busy", 429)
    try:
        body = await _bounded_body(request, MAX_UPLOAD)
        if body is None:
            return refused("error.upload.too_large", 413, most=f"{MAX_UPLOAD:,}")
        try:
            result = await anyio.to_thread.run_sync(_review_upload, body)
        except _UploadRefused as exc:
            return refused(exc.key, 422, **exc.fields)
        except UploadTooLong:
            return refused("error.upload.too_long", 422, seconds=f"{UPLOAD_SECONDS:g}")
        except (RecordError, RulesError, ValueError) as exc:
            return JSONResponse({"detail": not_replayed(exc, lang)}, status_code=422)
    finally:
        results.uploads.give(client)
    return JSONResponse(_in_language(result, lang))


def finished_of_browser(request: Request) -> list[dict[str, Any]]:
    """This browser's finished games for the replays' list, the most recent first."""
    store = request.app.state.store
    token = seat_token(request.cookies)
    out = []
    for game in store.finished_games():
        # a table for friends: any seat the browser holds there (not only seat 0)
        if holder(game["seats"], token, HUMAN,
                  friends=game["difficulty"] == "friends") != "mine":
            continue
        held = held_seats(game["seats"], token_hash(token)) if token else []
        seat = held[0] if held else HUMAN  # the browser's own seat: "your result" is his
        summary = game["summary"] or {}
        rules = game["rules"] or {}
        try:
            from ...rules import Rules
            from ..lang.house_rules import rules_title

            title = rules_title(Rules.from_json(rules))
        except (RulesError, ValueError, TypeError, KeyError):
            title = str(rules.get("preset") or "")
        out.append({
            "id": game["id"], "url": f"/replay/{game['id']}",
            "finished": game["updated"].isoformat() if game["updated"] else None,
            "difficulty": game["difficulty"], "rules": title,
            "pool": rules.get("pool"), "names": game["names"], "result": game["result"],
            "seat": seat,
            "deals": summary.get("deals"), "hints_used": summary.get("hints_used", 0),
        })
    return out


@router.get("/api/replays")
async def replays(request: Request) -> Response:
    try:
        games = await anyio.to_thread.run_sync(finished_of_browser, request)
    except StoreError as exc:
        lang = request_language(request)
        return JSONResponse({"detail": say("error.database", lang, problem=store_message(
            exc, lang))}, status_code=503)
    return JSONResponse({"games": games})


@router.get("/replay", response_class=HTMLResponse)
def replay_start(request: Request) -> Response:
    return page(request, "replay.html", game_id="")


@router.get("/replay/{game_id}", response_class=HTMLResponse)
def replay_page(game_id: str, request: Request) -> Response:
    saved, refusal, new_token = own_game(request, game_id)
    lang = request_language(request)
    title = say("replay.title", lang)
    if refusal is not None:
        detail = json.loads(bytes(refusal.body)).get("detail", "")
        return page(request, "notfound.html", status_code=refusal.status_code,
                    title=title, message=say("error.replay_refused", lang, problem=detail),
                    reason="not_yours" if refusal.status_code == 403 else None)
    assert saved is not None
    if not saved.finished:
        return with_token(request, page(
            request, "notfound.html", status_code=403, title=title,
            message=say("error.replay_unfinished", lang),
            download=None), new_token)
    return with_token(request, page(request, "replay.html", game_id=game_id), new_token)
