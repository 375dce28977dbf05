"""A seat on any device: each human's own seat link at a table for friends, opening it on
another browser, and the creator's new link for a friend who lost his.

Routes (every POST takes a JSON object; the Origin guard of :mod:`..security.guard`
applies; bad input is answered in the player's language):

- ``POST /api/friends/{id}/device`` ``{}`` (a seat holder) this browser's own seat link
  (one is made for a table saved before seat links) → ``{"seat", "device"}``;
- ``POST /api/friends/{id}/seat_link`` ``{"seat"}`` (the creator) a new seat link for a
  friend's seat (he lost his): the old one stops working at once → ``{"seat", "device"}``;
- ``GET /seat/{id}/{code}`` the page that asks "take Anna's seat here?" (404 for a link
  that is unknown, used or replaced);
- ``POST /api/friends/{id}/move`` ``{"code"}`` moves the seat to this browser: its holder
  (the sha256 of the seat token, the store's ``seats``) becomes this browser's token (one
  is minted for a browser that has none; bounded like the other creations), a fresh link
  replaces the used one, and the table tells the old browser at once and shows it the
  spectator's view from that frame on (:meth:`..table.friends.TableFriends.seats_changed`;
  through the table's owner when another process plays it: :mod:`..cluster`)
  → ``{"seat", "url"}``.

A seat link is 128 random bits (:func:`..table.party.new_invite`), kept with the invite in
the store's ``friends`` column; it is only ever shown to its own seat (the lobby, the
table's menu: the state frames of that seat) and to the creator who issues a new one.
"""

from __future__ import annotations

from typing import Any

import anyio.to_thread
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from ..lang.language import request_language, say
from ..security.limits import creation_refused
from ..security.tokens import held_seats, token_hash
from ..store.faults import StoreError
from ..table.lobby import Refused, change_party, seat_url
from ..table.party import Party
from ..table.seats import seat_names
from .deps import StoreDep, TablesDep, my_hash, own_token, with_token
from .friends import Empty, creator_change, invited
from .responses import page, refused, store_unavailable

router = APIRouter()

CODE_MOST = 64
"""The longest code a request may name (a seat link's is 22 characters)."""


class Move(BaseModel):
    """Opening a seat link on this browser."""

    model_config = ConfigDict(extra="forbid")

    code: str = Field(min_length=1, max_length=CODE_MOST)


class SeatOf(BaseModel):
    """The seat the creator makes a new link for."""

    model_config = ConfigDict(extra="forbid")

    seat: int = Field(ge=0, le=3)


def _place(game_id: str, party: Party) -> str:
    return f"/table/{game_id}" if party.started else f"/lobby/{game_id}"


async def _answer(request: Request, game_id: str, store: StoreDep, tables: TablesDep,
                  fn: Any, new_token: list[str] | None = None) -> Response:
    try:
        answer = await change_party(store, tables, game_id, fn)
    except Refused as exc:
        response: Response = refused(request, exc.key, exc.status, **exc.fields)
    except KeyError:
        response = refused(request, "error.no_game_short", 404, game=game_id)
    except StoreError as exc:
        response = store_unavailable(exc, "error.cannot_open_game", request)
    else:
        response = JSONResponse(answer)
    return with_token(request, response, new_token or [])


@router.post("/api/friends/{game_id}/device")
async def my_seat_link(game_id: str, body: Empty, request: Request, store: StoreDep,
                       tables: TablesDep) -> Response:
    """This browser's own seat link (made now for a table saved before seat links)."""
    mine_hash = my_hash(request)

    def mine(seats: dict[str, str], party: Party) -> Any:
        held = held_seats(seats, mine_hash)
        if not held:
            raise Refused("error.not_yours", 403)
        seat = held[0]
        if not party.link(seat):
            party = party.relinked(seat)
        return {"seat": seat, "device": seat_url(game_id, party, seat)}, party, None

    return await _answer(request, game_id, store, tables, mine)


@router.post("/api/friends/{game_id}/seat_link")
async def new_seat_link(game_id: str, body: SeatOf, request: Request, store: StoreDep,
                        tables: TablesDep) -> Response:
    """(The creator) a new seat link for a friend who lost his: the old one stops working."""
    def fresh(seats: dict[str, str], party: Party) -> Any:
        if (body.seat >= len(party.places) or not party.places[body.seat].human
                or party.places[body.seat].name is None):
            raise Refused("friends.no_such_seat", 422)
        if body.seat in party.handed:
            raise Refused("friends.seat_link_handed")
        party = party.relinked(body.seat)
        return {"seat": body.seat, "device": seat_url(game_id, party, body.seat)}, party, None

    response = await creator_change(game_id, request, store, tables, fresh)
    table = tables.open.get(game_id)
    if response.status_code == 200 and table is not None and body.seat == 0:
        await table.refresh()  # the creator's own menu shows his new link
    return response


@router.post("/api/friends/{game_id}/move")
async def move_seat(game_id: str, body: Move, request: Request, store: StoreDep,
                    tables: TablesDep) -> Response:
    """Open a seat link here: the seat is this browser's, its old browser watches."""
    too_many = creation_refused(request)  # it may mint a token and always mints a link
    if too_many is not None:
        return too_many
    new_token: list[str] = []
    try:
        token = await anyio.to_thread.run_sync(own_token, request, new_token)
    except StoreError as exc:
        return store_unavailable(exc, "error.cannot_open_game", request)
    mine_hash = token_hash(token)

    def move(seats: dict[str, str], party: Party) -> Any:
        seat = party.linked_seat(body.code)
        if seat is None:
            raise Refused("friends.stale_seat_link", 404)
        held = held_seats(seats, mine_hash)
        if seat in held:  # this browser holds it already: nothing to move
            return {"seat": seat, "url": _place(game_id, party)}, party, None
        if held:
            raise Refused("friends.seat_link_two_seats")
        if seat in party.handed:
            raise Refused("friends.seat_link_handed")
        seats[str(seat)] = mine_hash
        return {"seat": seat, "url": _place(game_id, party)}, party.relinked(seat), None

    return await _answer(request, game_id, store, tables, move, new_token)


@router.get("/seat/{game_id}/{code}")
async def seat_page(game_id: str, code: str, request: Request, store: StoreDep) -> Response:
    """The page of a seat link: whose seat it opens, and the button that takes it."""
    lang = request_language(request)
    saved, party, failed = await invited(store, game_id, request)
    if failed is not None:
        return failed
    seat = party.linked_seat(code) if party is not None and len(code) <= CODE_MOST else None
    if saved is None or party is None or seat is None:
        return page(request, "notfound.html", status_code=404,
                    title=say("friends.seat_link_title", lang),
                    message=say("friends.stale_seat_link", lang), reason="stale_seat_link")
    if seat in held_seats(saved.seats, my_hash(request)):  # opened where it is already
        return RedirectResponse(_place(game_id, party), status_code=303)
    name = party.names(seat_names(len(party.places)))[seat]
    return page(request, "seat.html", game_id=game_id, code=code, holder_name=name)
