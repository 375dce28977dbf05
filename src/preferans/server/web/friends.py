"""A table for friends: creating it, the invite link, the lobby, starting the game.

Routes (every POST takes a JSON object with bounds; the Origin guard and the seat tokens
of :mod:`..security` apply; bad input is answered in the player's language):

- ``POST /api/friends`` ``{"name", "gender", "seats": ["friend" | "easy" | ... ], "rules", "pool",
  "players", "clock": 0|30|60|120, "hints", "stand_in"}`` (``seats``: the seats after the
  creator's, clockwise) → 201 ``{"id", "lobby", "invite"}``; the creator holds seat 0;
- ``GET /api/friends/{id}`` the lobby as a seat holder sees it (:func:`lobby_view`);
- ``POST /api/friends/{id}/address`` ``{"gender": "m" | "f"}``: a seated friend's form of
  address in Russian, changed (the lobby and the table follow at once);
- ``POST /api/friends/{id}/left`` a seat holder's lobby page closed: the other lobbies show
  him away at once (each lobby ``GET`` says its seats are here: :mod:`..table.presence`);
- ``POST /api/friends/{id}/join`` ``{"code", "seat", "name", "gender"}`` takes a free seat with the
  invite's code → ``{"seat", "lobby"}`` (409 ``seat_taken`` when another browser was
  first: the seat is claimed on the store's writer thread, one claim at a time);
- ``POST /api/friends/{id}/invite`` ``{}`` (the creator) a new invite code; the old one
  stops working → ``{"invite"}``;
- ``POST /api/friends/{id}/watch`` ``{}`` (the creator) a new watch-only link (its own
  128-bit code: the spectator's view, never a seat); the old one stops working and the
  spectators watching by it are shown out (close code :data:`WATCH_CHANGED`) →
  ``{"watch"}``;
- ``POST /api/friends/{id}/seat`` ``{"seat", "level"}`` (the creator) an empty seat becomes a
  computer player of that level;
- ``POST /api/friends/{id}/start`` ``{}`` (the creator, every seat filled) names the seats,
  deals again under those names and starts the game → ``{"url"}``;
- ``POST /api/friends/{id}/rematch`` ``{}`` (a seat holder, the game over) his READY for a
  new game of the same seats → ``{"waiting": [seats]}`` until every human at the table has
  pressed it, then ``{"url"}`` of the new game (every page is sent there);
- ``GET /lobby/{id}`` the lobby page (seat holders), ``GET /join/{id}/{code}`` the invite's
  page (type a name, take a seat), ``GET /watch/{id}/{code}`` a spectator's table (the
  watch code; a full table's invite is sent on to the watch link).

The invite code is 128 random bits (:func:`.party.new_invite`), kept in the store's
``friends`` column and shown only to the creator; it grants a free seat, nothing else (once
the table is full, the spectator's view).  The watch code is another 128 random bits, shown
only to the creator (lobby and table): it grants the spectator's view, never a seat.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Literal

import anyio.to_thread
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from ...rules import RulesError
from ..lang.house_rules import rules_from_settings
from ..lang.language import request_language, say, store_message
from ..lang.request_errors import rules_problem
from ..security.limits import creation_refused
from ..security.tokens import held_seats, same_code, token_hash
from ..store.faults import StoreError
from ..store.games import GameStore
from ..store.ratings import table_ratings
from ..store.saved import SavedGame
from ..store.schema import PLAYING
from ..table import presence
from ..table.lobby import (
    Refused,
    change_party,
    invite_url,
    lobby_view,
    may_watch,
    name_refusal,
    rules_of,
    show_out_spectators,
    watch_url,
)
from ..table.party import LEVELS, Party, clean_name
from ..table.seats import seat_names
from ..table.table import first_game, rules_info
from ..table.tables import Tables
from .accounts import signed_in
from .deps import SettingsDep, StoreDep, TablesDep, game_id_ok, my_hash, own_token, with_token
from .pages import table_html
from .responses import page, refused, store_unavailable

log = logging.getLogger("preferans.server")

router = APIRouter()


class NewFriendsTable(BaseModel):
    """The settings of a table for friends."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=40)
    gender: Literal["m", "f"] | None = None
    """How the creator is addressed in Russian («он» / «она»; None: his name's guess)."""
    seats: list[Literal["friend", "easy", "normal", "hard", "crazy"]] = Field(
        min_length=1, max_length=3)
    """The seats after the creator's: one (the two-player game and the Rogue: the dummy is
    no seat), two or three."""
    rules: Any = "sochi"
    pool: Literal[10, 20, 30] | None = None
    players: Literal[2, 3, 4] | None = None
    clock: Literal[0, 30, 60, 120] = 0
    hints: bool = False
    stand_in: Literal["easy", "normal", "hard", "crazy"] = "normal"
    seed: int | None = Field(default=None, ge=0, le=2**53)
    rated: bool = True
    """Whether the game moves the players' ratings when it ends (the ladder)."""


class Join(BaseModel):
    """Taking a seat with an invite."""

    model_config = ConfigDict(extra="forbid")

    code: str = Field(min_length=1, max_length=64)
    seat: int = Field(ge=1, le=3)
    name: str = Field(min_length=1, max_length=40)
    gender: Literal["m", "f"] | None = None
    """How the friend is addressed in Russian («он» / «она»; None: his name's guess)."""


class Address(BaseModel):
    """A seated friend's form of address in Russian, changed."""

    model_config = ConfigDict(extra="forbid")

    gender: Literal["m", "f"]


class SeatLevel(BaseModel):
    """An empty seat given to a computer player."""

    model_config = ConfigDict(extra="forbid")

    seat: int = Field(ge=1, le=3)
    level: Literal["easy", "normal", "hard", "crazy"] = "normal"


class Empty(BaseModel):
    """A request with nothing to say but its JSON object."""

    model_config = ConfigDict(extra="forbid")


async def load(store: GameStore, game_id: str) -> SavedGame | None:
    """A table for friends as saved (None: no such game, or not a table for friends)."""
    if not game_id_ok(game_id):
        return None
    saved = await anyio.to_thread.run_sync(store.get, game_id)
    return saved if saved is not None and saved.friends else None


async def load_mine(store: GameStore, game_id: str, request: Request, unreadable: str
                    ) -> tuple[SavedGame, list[int]] | Response:
    """The table for friends ``game_id`` and the seats this browser holds at it; or the
    refusal to answer with: the store unreadable (``unreadable``, the message's key), no
    such table (404), no seat of this browser's (403)."""
    try:
        saved = await load(store, game_id)
    except StoreError as exc:
        return store_unavailable(exc, unreadable, request)
    if saved is None:
        return refused(request, "error.no_game_short", 404, game=game_id)
    mine = held_seats(saved.seats, my_hash(request))
    if not mine:
        return refused(request, "error.not_yours", 403)
    return saved, mine


# --- creating ------------------------------------------------------------------------
@router.post("/api/friends", status_code=201)
def new_friends_table(settings: NewFriendsTable, request: Request, store: StoreDep,
                      tables: TablesDep, web: SettingsDep) -> Response:
    lang = request_language(request)
    if store.fault is not None:
        return store_unavailable(store.fault, "error.cannot_start", request)
    if settings.seed is not None and not web.allow_seeds:
        said = say("error.no_seeds", lang)
        return JSONResponse({"detail": said, "field": "seed", "message": said},
                            status_code=422)
    name = clean_name(settings.name)
    if name is None:
        return refused(request, "friends.bad_name", 422)
    too_many = creation_refused(request)
    if too_many is not None:
        return too_many
    refusal = name_refusal(name, [])
    if refusal is not None:
        return refused(request, refusal.key, 422, **refusal.fields)
    if "friend" not in settings.seats:
        return refused(request, "friends.no_friend", 422)
    try:
        rules = rules_from_settings(settings.rules, players=settings.players,
                                    pool=settings.pool)
    except RulesError as exc:
        said = say("error.rules", lang, problem=rules_problem(exc, lang))
        return JSONResponse({"detail": said, "field": "rules", "message": said,
                             "code": exc.code, "params": exc.params}, status_code=422)
    if len(settings.seats) != rules.players - 1:
        return refused(request, "friends.seat_count", 422, players=rules.players,
                       others=rules.players - 1)
    party = Party.new(list(settings.seats), creator=name, clock=settings.clock,
                      stand_in=settings.stand_in, hints=settings.hints,
                      creator_gender=settings.gender, rated=settings.rated)
    new_token: list[str] = []
    try:
        token = own_token(request, new_token)
        table = tables.create_friends(rules, party, settings.seed,
                                      seats={"0": token_hash(token)})
    except StoreError as exc:
        return store_unavailable(exc, "error.cannot_start", request)
    links = request.app.state.links
    response = JSONResponse({"id": table.id, "lobby": f"/lobby/{table.id}",
                             "invite": links.absolute(invite_url(table.id, party))},
                            status_code=201)
    return with_token(request, response, new_token)


# --- the lobby -----------------------------------------------------------------------
async def seat_ratings(store: GameStore, saved: SavedGame) -> list[dict[str, Any] | None]:
    """Each seat's rating for the lobby (off the loop); none when they cannot be read."""
    try:
        return await anyio.to_thread.run_sync(table_ratings, store, saved.seats, saved.friends)
    except StoreError:
        return []



@router.get("/api/friends/{game_id}")
async def lobby_json(game_id: str, request: Request, store: StoreDep,
                     tables: TablesDep) -> Response:
    lang = request_language(request)
    got = await load_mine(store, game_id, request, "error.cannot_read_one")
    if isinstance(got, Response):
        return got
    saved, mine = got
    ratings = await seat_ratings(store, saved)
    party = Party.from_json(saved.friends or {})
    return JSONResponse(await with_presence(
        lobby_view(saved, party, mine, lang, request.app.state.links, ratings), store, tables,
        game_id, party, mine))


async def with_presence(view: dict[str, Any], store: GameStore, tables: Tables,
                        game_id: str, party: Party, mine: list[int]) -> dict[str, Any]:
    """The lobby ``view`` with who is away (``"away": [{"seat", "left", "grace",
    "closed"}]``), this page's seats noted here (it asks every 1.5 s: :mod:`..table.
    presence`)."""
    if party.started:
        view["away"] = []
        return view
    now = time.time()
    marks: dict[int, tuple[float, bool]] = party.lobby_marks()
    if any(presence.here(marks, seat, now) is not None for seat in mine):
        await note_lobby(store, game_id, mine, now, went=False)
        marks.update({seat: (now, False) for seat in mine})
    others = [seat for seat, place in enumerate(party.places)
              if place.human and place.name is not None and seat not in mine]
    view["away"] = presence.away(marks, others, now, tables.grace)
    return view


async def note_lobby(store: GameStore, game_id: str, seats: list[int], now: float,
                     went: bool) -> None:
    """Note in the store that the lobby page of ``seats`` is here (or went) at ``now``; a
    failing database only logs (the next visit notes it again)."""
    def note(held: dict[str, str], friends: dict[str, Any]) -> None:
        party = Party.from_json(friends)
        marks = party.lobby_marks()
        for seat in seats:
            marks = presence.gone(marks, seat, now) if went else {**marks, seat: (now, False)}
        friends.clear()
        friends.update(party.with_lobby(marks).to_json())

    try:
        await store.write(store.change_friends, game_id, note)
    except (StoreError, KeyError) as exc:
        log.warning("game %s: the lobby's presence was not saved: %s", game_id, exc)


@router.post("/api/friends/{game_id}/left")
async def lobby_left(game_id: str, body: Empty, request: Request, store: StoreDep) -> Response:
    """A seat holder's lobby page closed (sent as it goes): the others' lobbies show him
    away from this second, with the seconds left of the grace time."""
    got = await load_mine(store, game_id, request, "error.cannot_read_one")
    if isinstance(got, Response):
        return got
    saved, mine = got
    if not Party.from_json(saved.friends or {}).started:
        await note_lobby(store, game_id, mine, time.time(), went=True)
    return JSONResponse({"left": mine})


@router.post("/api/friends/{game_id}/join")
async def join(game_id: str, body: Join, request: Request, store: StoreDep,
               tables: TablesDep) -> Response:
    name = clean_name(body.name)
    if name is None:
        return refused(request, "friends.bad_name", 422)
    try:
        saved = await load(store, game_id)
    except StoreError as exc:
        return store_unavailable(exc, "error.cannot_open_game", request)
    if (saved is not None and saved.finished and isinstance(saved.friends, dict)
            and same_code(str(saved.friends.get("invite") or ""), body.code)):
        return refused(request, "friends.closed", 409)  # the game is over: no seat
    new_token: list[str] = []
    try:
        token = await anyio.to_thread.run_sync(own_token, request, new_token)
    except StoreError as exc:
        return store_unavailable(exc, "error.cannot_open_game", request)
    mine_hash = token_hash(token)

    def take(seats: dict[str, str], party: Party) -> Any:
        if not same_code(party.invite, body.code):
            raise Refused("friends.stale_invite", 404)
        held = held_seats(seats, mine_hash)
        if held:  # this browser sits here already: nothing to change
            return held[0], party, None
        if party.started:
            raise Refused("friends.started")
        if body.seat >= len(party.places) or not party.places[body.seat].human:
            raise Refused("friends.no_such_seat", 422)
        if body.seat not in party.free_seats() or str(body.seat) in seats:
            raise Refused("friends.seat_taken")
        seated = [n for seat, n in enumerate(party.names(seat_names(len(party.places))))
                  if seat != body.seat]
        refusal = name_refusal(name, seated)
        if refusal is not None:
            raise refusal
        seats[str(body.seat)] = mine_hash
        return body.seat, party.taken(body.seat, name, body.gender), None

    try:
        seat = await change_party(store, tables, game_id, take)
    except Refused as exc:
        return with_token(request, refused(request, exc.key, exc.status, **exc.fields),
                          new_token)
    except KeyError:
        return refused(request, "error.no_game_short", 404, game=game_id)
    except StoreError as exc:
        return store_unavailable(exc, "error.cannot_open_game", request)
    return with_token(request, JSONResponse({"seat": seat, "lobby": f"/lobby/{game_id}"}),
                      new_token)


def creator_only(request: Request, seats: dict[str, str]) -> None:
    if 0 not in held_seats(seats, my_hash(request)):
        raise Refused("friends.creator_only", 403)


async def creator_change(game_id: str, request: Request, store: GameStore, tables: Tables,
                         fn: Callable[[dict[str, str], Party], Any]) -> Response:
    """A lobby change only the creator (seat 0) may make, answered as JSON."""
    def guarded(seats: dict[str, str], party: Party) -> Any:
        creator_only(request, seats)
        return fn(seats, party)

    answer = await answered_change(game_id, request, store, tables, guarded)
    return answer if isinstance(answer, Response) else JSONResponse(answer)


async def answered_change(game_id: str, request: Request, store: GameStore, tables: Tables,
                          fn: Callable[[dict[str, str], Party], Any]) -> Any:
    """:func:`change_party`'s answer, or the response refusing it: what ``fn`` refused
    (:class:`Refused`), no such table (404), the store failing (503)."""
    try:
        return await change_party(store, tables, game_id, fn)
    except Refused as exc:
        return refused(request, exc.key, exc.status, **exc.fields)
    except KeyError:
        return refused(request, "error.no_game_short", 404, game=game_id)
    except StoreError as exc:
        return store_unavailable(exc, "error.cannot_open_game", request)


@router.post("/api/friends/{game_id}/invite")
async def new_invite(game_id: str, body: Empty, request: Request, store: StoreDep,
                     tables: TablesDep) -> Response:
    def fresh(seats: dict[str, str], party: Party) -> Any:
        from dataclasses import replace

        from ..table.party import new_invite as make

        party = replace(party, invite=make())
        return {"invite": request.app.state.links.absolute(invite_url(game_id, party))}, \
            party, None

    return await creator_change(game_id, request, store, tables, fresh)


@router.post("/api/friends/{game_id}/watch")
async def new_watch(game_id: str, body: Empty, request: Request, store: StoreDep,
                    tables: TablesDep) -> Response:
    """(The creator) a new watch-only link: the old one stops working, and the
    spectators who watch by it are shown out (their pages say so)."""
    def fresh(seats: dict[str, str], party: Party) -> Any:
        from dataclasses import replace

        from ..table.party import new_invite as make

        party = replace(party, watch=make())
        return {"watch": request.app.state.links.absolute(watch_url(game_id, party))}, \
            party, None

    response = await creator_change(game_id, request, store, tables, fresh)
    table = tables.open.get(game_id)
    if response.status_code == 200 and table is not None:
        await show_out_spectators(table)
        await table.refresh()  # the creator's page shows the new link
    return response


@router.post("/api/friends/{game_id}/address")
async def address(game_id: str, body: Address, request: Request, store: StoreDep,
                  tables: TablesDep) -> Response:
    """(A seated friend) how he is addressed in Russian («он» / «она»), changed after he sat
    down: the lobby and every page at the table say each sentence about him anew at once."""
    mine = my_hash(request)

    def change(seats: dict[str, str], party: Party) -> Any:
        held = held_seats(seats, mine)
        if not held or not party.places[held[0]].human:
            raise Refused("error.not_yours", 403)
        return ({"seat": held[0], "gender": body.gender},
                party.addressed(held[0], body.gender), None)

    answer = await answered_change(game_id, request, store, tables, change)
    if isinstance(answer, Response):
        return answer
    table = tables.open.get(game_id)
    if table is not None and table.party is not None and table.party.started:
        await table.refresh()  # every page: the new form in every sentence
    await keep_in_profile(request, store, body.gender)
    return JSONResponse(answer)


async def keep_in_profile(request: Request, store: GameStore, gender: str) -> None:
    """A signed-in friend's new form of address goes into his account's profile too, so the
    name forms on every device he signs in on start from it; a failing store only logs (the
    table has it)."""
    def keep() -> None:
        account = signed_in(request)
        if account is not None and account.address != gender:
            store.write_now(store.update_profile, account.id, account.name, account.language,
                            gender)

    try:
        await anyio.to_thread.run_sync(keep)
    except StoreError as exc:
        log.warning("the account's form of address was not saved: %s", exc)


@router.post("/api/friends/{game_id}/seat")
async def seat_to_computer(game_id: str, body: SeatLevel, request: Request, store: StoreDep,
                           tables: TablesDep) -> Response:
    def computer(seats: dict[str, str], party: Party) -> Any:
        if party.started:
            raise Refused("friends.started")
        if body.seat >= len(party.places) or body.seat not in party.free_seats():
            raise Refused("friends.seat_taken")
        return {"seat": body.seat}, party.computer(body.seat, body.level), None

    return await creator_change(game_id, request, store, tables, computer)


@router.post("/api/friends/{game_id}/start")
async def start(game_id: str, body: Empty, request: Request, store: StoreDep,
                tables: TablesDep) -> Response:
    saved = await load(store, game_id)
    if saved is None:
        return refused(request, "error.no_game_short", 404, game=game_id)

    def begin(seats: dict[str, str], party: Party) -> Any:
        if party.started:
            return {"url": f"/table/{game_id}"}, party, None
        if party.free_seats():
            raise Refused("friends.not_full")
        players = len(party.places)
        names = party.names(seat_names(players))
        rules = rules_of(saved)
        record = first_game(rules, saved.seed, names).to_record()
        row = {"names": names, "record": record, "status": PLAYING,
               "rules": rules_info(rules)}
        return {"url": f"/table/{game_id}"}, replace(party, started=True), row

    return await creator_change(game_id, request, store, tables, begin)


@router.post("/api/friends/{game_id}/rematch")
async def rematch(game_id: str, body: Empty, request: Request, store: StoreDep,
                  tables: TablesDep) -> Response:
    """After the result, a friend's REMATCH: his READY for the same seats (the same
    browsers, names, levels, clock) at a new game.  Until every human at the table has
    pressed it (a friend away, played by the stand-in, is not waited for) the answer is
    ``{"ready", "waiting"}`` and every socket is shown who is ready; the last one's makes
    the game (``{"url"}``, and the state's ``rematch`` sends every page there); asked again,
    the same game."""
    got = await load_mine(store, game_id, request, "error.cannot_start")
    if isinstance(got, Response):
        return got
    saved, mine = got
    if not saved.finished:
        return refused(request, "friends.not_over", 409)
    party = Party.from_json(saved.friends or {})
    if party.rematch:
        return JSONResponse({"url": f"/table/{party.rematch}"})
    old_table = tables.open.get(game_id)
    away = set(party.handed)
    if old_table is not None and old_table.standin is not None:
        away |= old_table.standin.away

    def ready(seats: dict[str, str], old: Party) -> Any:
        if old.rematch:  # another friend's READY has just made it
            return {"url": f"/table/{old.rematch}"}, old, None
        now = tuple(sorted({*old.rematch_ready, *mine}))
        waiting = sorted(old.humans() - away - set(now))
        return {"waiting": waiting}, replace(old, rematch_ready=now), None

    try:
        answer = await change_party(store, tables, game_id, ready)
    except (StoreError, KeyError) as exc:
        return store_unavailable(exc, "error.cannot_start", request)
    if answer.get("url") or answer["waiting"]:
        if old_table is not None:  # every page shows who is ready
            await old_table.refresh()
        return JSONResponse(answer)
    too_many = creation_refused(request)
    if too_many is not None:
        return too_many
    from ..table.party import new_invite as make

    fresh = replace(party, invite=make(), watch=make(), started=True, handed=(),
                    rematch=None, rematch_ready=()).all_relinked()
    try:
        table = await anyio.to_thread.run_sync(
            lambda: tables.create_friends(rules_of(saved), fresh, None,
                                          seats=dict(saved.seats or {}),
                                          names=list(saved.names)))
    except StoreError as exc:
        return store_unavailable(exc, "error.cannot_start", request)

    def point(seats: dict[str, str], old: Party) -> Any:
        if old.rematch:  # another friend was quicker: his game
            return old.rematch, old, None
        return table.id, replace(old, rematch=table.id), None

    try:
        new_id = await change_party(store, tables, game_id, point)
    except (StoreError, KeyError) as exc:
        log.warning("game %s: the rematch was not noted: %s", game_id, exc)
        new_id = table.id
    old_table = tables.open.get(game_id)
    if old_table is not None:
        await old_table.refresh()
    return JSONResponse({"url": f"/table/{new_id}"})


# --- pages ---------------------------------------------------------------------------
@router.get("/lobby/{game_id}")
async def lobby_page(game_id: str, request: Request, store: StoreDep,
                     tables: TablesDep) -> Response:
    lang = request_language(request)
    try:
        saved = await load(store, game_id)
    except StoreError as exc:
        return page(request, "notfound.html", status_code=503,
                    message=say("error.cannot_read_game", lang,
                                problem=store_message(exc, lang)))
    if saved is None:
        return page(request, "notfound.html", status_code=404,
                    message=say("error.no_game", lang, game=game_id))
    mine = held_seats(saved.seats, my_hash(request))
    if not mine:
        return page(request, "notfound.html", status_code=403,
                    title=say("title.not_yours", lang), message=say("error.not_yours", lang),
                    reason="not_yours")
    party = Party.from_json(saved.friends or {})
    if party.started:
        return RedirectResponse(f"/table/{game_id}", status_code=303)
    ratings = await seat_ratings(store, saved)
    return page(request, "lobby.html", game_id=game_id, levels=LEVELS,
                view=await with_presence(lobby_view(saved, party, mine, lang,
                                                    request.app.state.links, ratings),
                                         store, tables, game_id, party, mine))


async def invited(store: GameStore, game_id: str, request: Request
                  ) -> tuple[SavedGame | None, Party | None, Response | None]:
    """A page's game and its party, or the page saying the database failed."""
    try:
        saved = await load(store, game_id)
    except StoreError as exc:
        lang = request_language(request)
        return None, None, page(request, "notfound.html", status_code=503,
                                message=say("error.cannot_read_game", lang,
                                            problem=store_message(exc, lang)))
    party = Party.from_json(saved.friends or {}) if saved is not None else None
    return saved, party, None


@router.get("/join/{game_id}/{code}")
async def join_page(game_id: str, code: str, request: Request, store: StoreDep) -> Response:
    lang = request_language(request)
    saved, party, failed = await invited(store, game_id, request)
    if failed is not None:
        return failed
    if (saved is None or party is None or len(code) > 64
            or not same_code(party.invite, code)):
        return page(request, "notfound.html", status_code=404,
                    title=say("friends.invite_title", lang),
                    message=say("friends.stale_invite", lang), reason="stale_invite")
    return page(request, "join.html", game_id=game_id, code=code,
                view=lobby_view(saved, party, [], lang), watch=watch_url(game_id, party))


@router.get("/watch/{game_id}/{code}")
async def watch_page(game_id: str, code: str, request: Request, store: StoreDep) -> Response:
    """A spectator's table: the public view of a started table, with its watch code (a
    full table's invite is sent on to the watch link: the page never holds the
    invite)."""
    lang = request_language(request)
    saved, party, failed = await invited(store, game_id, request)
    if failed is not None:
        return failed
    title = say("friends.watch_title", lang)
    if (saved is not None and party is not None and not party.started and party.watch
            and len(code) <= 64 and same_code(party.watch, code)):
        return page(request, "notfound.html", status_code=409, title=title,
                    message=say("friends.watch_not_yet", lang), reason="not_started")
    if saved is None or party is None or not may_watch(party, code):
        return page(request, "notfound.html", status_code=404, title=title,
                    message=say("friends.stale_watch", lang), reason="stale_invite")
    if party.watch and not same_code(party.watch, code):
        return RedirectResponse(watch_url(game_id, party), status_code=303)
    return table_html(request, saved, watch=code)
