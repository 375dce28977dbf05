"""The lobby of a table for friends: what each seat holder sees of it, the invite and watch
links, who may watch, and a change of its party (who sits where) made in one transaction.

The routes that ask for these are :mod:`..web.friends`; the party itself is :mod:`.party`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any, Protocol

from ...game import Game
from ...rules import Rules
from ..lang.language import say, socket_language
from ..lang.presets_text import preset_title_in
from ..security.links import Links
from ..security.lookalike import looks_like
from ..security.tokens import same_code
from ..store.games import GameStore
from ..store.saved import SavedGame
from .party import Party
from .seats import NAMES, NAMES_FOUR, seat_names
from .spectators import SPECTATOR

TITLE_KEY = "difficulty.friends"
"""How the pages name a table for friends where they name a game's difficulty (CONTINUE's
title, the replays' list): the store's difficulty column holds ``friends``."""
RESERVED = (*NAMES, *NAMES_FOUR, "Dummy")
"""Names a friend may not take: the computer players' and "You" (as every language writes
them: :func:`reserved_names`)."""


class Refused(Exception):
    """A lobby change that cannot be made: ``key`` names the words, ``status`` the answer."""

    def __init__(self, key: str, status: int = 409, **fields: Any) -> None:
        super().__init__(key)
        self.key = key
        self.status = status
        self.fields = fields


def reserved_names() -> list[str]:
    """The computer players' names and "You", in every language the pages speak (a friend
    called «Миша» beside the computer Misha would be two Мишы to a Russian reader)."""
    from ...i18n import player_name

    return list(dict.fromkeys(player_name(n, lang) for n in RESERVED for lang in ("en", "ru")))


def name_refusal(name: str, taken: list[str]) -> Refused | None:
    """Why a friend may not sit down as ``name`` beside the ``taken`` names and the
    computer players' (the same name, or one that only looks like it: a Cyrillic А in
    "Anna", :mod:`..security.lookalike`), or None."""
    for others in (taken, reserved_names()):
        if any(name.casefold() == other.casefold() for other in others):
            return Refused("friends.name_taken", name=name)
        other = looks_like(name, others)
        if other is not None:
            return Refused("friends.name_looks_like", name=name, other=other)
    return None


def may_watch(party: Party | None, code: str | None) -> bool:
    """Whether ``code`` lets a browser watch a started table (a spectator): the table's
    watch-only code, or its invite once every seat is taken (a full table's link)."""
    if party is None or not party.started or not isinstance(code, str) or len(code) > 64:
        return False
    return any(same_code(known, code) for known in (party.watch, party.invite))


def watch_url(game_id: str, party: Party) -> str:
    """The watch-only link (the invite's for a table saved before watch links: a spectator
    who comes by the invite is sent on to the watch link, so his page never holds it)."""
    return f"/watch/{game_id}/{party.watch or party.invite}"


WATCH_CHANGED = 4410
"""The close code of a spectator's socket when the creator made a new watch link (the old
one stopped working)."""


def invite_url(game_id: str, party: Party) -> str:
    return f"/join/{game_id}/{party.invite}"


NO_PUBLIC_URL = Links(None)
"""Links as paths (the browser shows them at the address it used)."""


def seat_url(game_id: str, party: Party, seat: int) -> str | None:
    """The link that opens ``seat`` on another device (None: it has none yet)."""
    code = party.link(seat)
    return f"/seat/{game_id}/{code}" if code else None


def lobby_view(saved: SavedGame, party: Party, mine: list[int], lang: str,
               links: Links = NO_PUBLIC_URL) -> dict[str, Any]:
    """The lobby as the holder of ``mine`` sees it: every seat (who took it, a computer's
    level), the invite only for the creator (its links at the public address, if any:
    :mod:`..security.links`)."""
    from ...i18n import player_name

    players = len(party.places)
    names = party.names(seat_names(players))
    genders = party.genders(seat_names(players))
    seats = []
    for seat, place in enumerate(party.places):
        seats.append({
            "seat": seat, "kind": "human" if place.human else "computer",
            "level": place.level, "taken": not place.human or place.name is not None,
            "name": place.name if place.human else player_name(names[seat], lang),
            "you": seat in mine, "gender": genders[seat]})
    view: dict[str, Any] = {
        "id": saved.id, "started": party.started, "seats": seats,
        "you": mine[0] if mine else None, "creator": 0 in mine, "clock": party.clock,
        "hints": party.hints, "stand_in": party.stand_in,
        "rules_title": rules_title_of(saved, lang), "url": f"/table/{saved.id}",
        "lobby": f"/lobby/{saved.id}", "free": party.free_seats()}
    # this seat's own link to open it on another device (no other seat's)
    device = seat_url(saved.id, party, mine[0]) if mine else None
    view["device"] = links.absolute(device) if device else None
    if 0 in mine:
        view["invite"] = links.absolute(invite_url(saved.id, party))
        view["watch"] = links.absolute(watch_url(saved.id, party)) if party.watch else None
    return view


def rules_of(saved: SavedGame) -> Rules:
    """A saved game's rules, as its record names them."""
    return Game.from_record(saved.record).rules


def rules_title_of(saved: SavedGame, lang: str) -> str:
    try:
        return preset_title_in(rules_of(saved).name, lang)
    except Exception:
        return str(saved.rules.get("preset", ""))


class OpenTables(Protocol):
    """What a lobby change needs of the open tables (:class:`.tables.Tables`)."""

    open: dict[str, Any]
    cluster: Any


async def change_party(store: GameStore, tables: OpenTables, game_id: str,
                       fn: Callable[[dict[str, str], Party], Any]) -> Any:
    """Apply a lobby change in one transaction on the store's writer thread: ``fn(seats,
    party)`` gives ``(answer, new party, row changes or None)``.  A table still gathering
    leaves memory (it has no socket: the table's WebSocket opens none before the start),
    so its next visit reads the change; a started one takes the new party.  Raises
    :class:`KeyError` (no such game) and :class:`StoreError`."""
    changed: list[Party] = []
    held: list[dict[str, str]] = []

    def apply(seats: dict[str, str], friends: dict[str, Any]) -> Any:
        party = Party.from_json(friends)
        answer, new_party, row = fn(seats, party)
        friends.clear()
        friends.update(new_party.to_json())
        if row:
            friends["_row"] = row
        changed.append(new_party)
        held.append(dict(seats))
        return answer

    answer = await store.write(store.change_friends, game_id, apply)
    table = tables.open.get(game_id)
    if table is not None and table.party is not None and table.party.started:
        table.party = changed[-1]
        await table.seats_changed(held[-1])  # a seat moved: its old browser watches
    elif table is not None:
        tables.open.pop(game_id, None)
        await table.stop()
    elif tables.cluster is not None:  # its owner may be another process: it reads it
        await tables.cluster.party_changed(game_id)
    return answer


async def show_out_spectators(table: Any) -> None:
    """Tell the spectators of ``table`` that their watch link stopped working, and close
    their sockets (:data:`WATCH_CHANGED`)."""
    for socket in [s for s in list(table.sockets) if table.seat_of(s) == SPECTATOR]:
        said = say("friends.watch_changed", socket_language(socket))
        with contextlib.suppress(Exception):  # a socket closing anyway
            await socket.send_json({"type": "error", "code": "watch_changed",
                                    "message": said})
            await socket.close(code=WATCH_CHANGED)
