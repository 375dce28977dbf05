"""Who sits at a table for friends: a human ("a friend") or a computer player of a level at
each seat, the invite, the move clock, whether the game has started.

Pure data, kept in the store's ``friends`` column as JSON (:meth:`Party.to_json`); the
routes that change it are in :mod:`..web.friends`, the table reads it (:mod:`.table`).

>>> party = Party.new(["friend", "hard"], creator="Anna", clock=30, stand_in="normal")
>>> sorted(party.humans()), party.level(2), party.free_seats()
([0, 1], 'hard', [1])
>>> Party.from_json(party.to_json()) == party
True
>>> party.taken(1, "Никита").genders(("You", "Misha", "Lena"))
['f', 'm', 'f']
"""

from __future__ import annotations

import secrets
import unicodedata
from dataclasses import dataclass, replace
from typing import Any

from ...i18n.address import chosen
from ...i18n.translate import player_gender
from ..security.tokens import same_code

LEVELS = ("easy", "normal", "hard", "crazy")
"""The computer players' levels a seat may have (weakest first)."""
CLOCKS = (0, 30, 60, 120)
"""The move clocks a table may have, in seconds per decision (0: none)."""
NAME_MOST = 20
"""The longest name a friend may type."""
INVITE_BYTES = 16
"""Random bytes of an invite code (128 bits: too many to guess)."""


def new_invite() -> str:
    """A fresh invite code: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(INVITE_BYTES)


def clean_name(text: str) -> str | None:
    """A typed name as the table shows it (spaces collapsed, NFC), or None when it is empty,
    too long or holds a control character.

    >>> clean_name("  Anna   K. "), clean_name(""), clean_name("a\\u0007b")
    ('Anna K.', None, None)
    """
    name = " ".join(unicodedata.normalize("NFC", text).split())
    if not name or len(name) > NAME_MOST:
        return None
    if any(unicodedata.category(char)[0] == "C" for char in name):
        return None
    return name


@dataclass(frozen=True)
class Place:
    """One seat: a human (``level`` None; ``name`` None while nobody has taken it) or a
    computer player of ``level``.  ``gender`` is how the human is addressed in Russian, as
    he chose it in the name form (``"m"``: «он», ``"f"``: «она»; None: his name's guess,
    :mod:`preferans.i18n.address`; a table saved before there was a choice has None)."""

    level: str | None = None
    name: str | None = None
    gender: str | None = None

    @property
    def human(self) -> bool:
        return self.level is None

    def to_json(self) -> dict[str, Any]:
        if self.human:
            return {"kind": "human", "name": self.name,
                    **({"gender": self.gender} if self.gender else {})}
        return {"kind": "computer", "level": self.level}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Place:
        if data.get("kind") == "computer":
            level = data.get("level")
            return cls(level=level if level in LEVELS else "normal")
        name = data.get("name")
        return cls(name=name if isinstance(name, str) else None,
                   gender=chosen(data.get("gender")))


@dataclass(frozen=True)
class Party:
    """A table for friends (see the module docstring)."""

    places: tuple[Place, ...]
    invite: str
    clock: int = 0
    stand_in: str = "normal"
    """The level of the computer player that decides for a human who is out of time or
    away."""
    started: bool = False
    hints: bool = False
    handed: tuple[int, ...] = ()
    """Human seats the creator gave to the computer (the stand-in) for the rest of the game."""
    rematch: str | None = None
    """The game the same seats went on to after this one (REMATCH), or None."""
    rematch_ready: tuple[int, ...] = ()
    """The human seats that pressed REMATCH after the result: the rematch starts when every
    human at the table has (:func:`..web.friends.rematch`)."""
    watch: str = ""
    """The watch-only link's code (128 random bits like the invite, never the same): it opens
    the spectator's view of the started table, never a seat; "" for a table saved before
    there were watch links (its creator makes one)."""
    links: tuple[str, ...] = ()
    """Each human seat's own seat link's code (128 random bits, by seat; "" where none):
    it moves the seat to the browser that opens it (:func:`..web.seat_links`), shown
    only to that seat (and a new one to the creator when he issues it for a friend)."""
    deal_ready: tuple[int, ...] = ()
    """The human seats that pressed READY for the next deal after deal number
    ``deal_ready_at`` (kept with the table, so a restart or another process still knows who
    is ready: :meth:`.table.Table.restore`; a READY of an earlier deal counts for nothing)."""
    deal_ready_at: int = 0
    lobby: tuple[tuple[int, float, bool], ...] = ()
    """Whose lobby page is here: (seat, when last here or gone by the wall clock, whether
    gone), for the lobby's "away" (:mod:`.presence`)."""

    @classmethod
    def new(cls, others: list[str], *, creator: str, clock: int = 0,
            stand_in: str = "normal", hints: bool = False,
            creator_gender: str | None = None) -> Party:
        """Seat 0 the creator (addressed as ``creator_gender``, None: his name's guess),
        then each other seat a friend (``"friend"``) or a level."""
        places = [Place(name=creator, gender=chosen(creator_gender))] + [
            Place() if kind == "friend" else Place(level=kind) for kind in others]
        return cls(tuple(places), new_invite(), clock, stand_in, False, hints,
                   watch=new_invite()).relinked(0)

    def humans(self) -> frozenset[int]:
        """The seats humans play."""
        return frozenset(seat for seat, place in enumerate(self.places) if place.human)

    def level(self, seat: int) -> str:
        """A computer seat's level (the stand-in's for a human seat)."""
        return self.places[seat].level or self.stand_in

    def free_seats(self) -> list[int]:
        """The human seats nobody has taken yet."""
        return [seat for seat, place in enumerate(self.places)
                if place.human and place.name is None]

    def names(self, computer_names: tuple[str, ...]) -> list[str]:
        """Each seat's name at the table: the friend's, or the computer player's own
        (``computer_names``: the single-player table's names of those seats)."""
        return [place.name if place.human and place.name else computer_names[seat]
                for seat, place in enumerate(self.places)]

    def genders(self, computer_names: tuple[str, ...]) -> list[str]:
        """Each seat's form of address in Russian (``"m"``, ``"f"``): the friend's choice,
        else his name's guess; a computer player's from the catalogue (``name-gender``)."""
        return [player_gender(name, place.gender if place.human else None)
                for name, place in zip(self.names(computer_names), self.places, strict=True)]

    def taken(self, seat: int, name: str, gender: str | None = None) -> Party:
        places = list(self.places)
        places[seat] = Place(name=name, gender=chosen(gender))
        return replace(self, places=tuple(places)).relinked(seat)

    def addressed(self, seat: int, gender: str) -> Party:
        """``seat``'s friend addressed as ``gender`` («он» ``m``, «она» ``f``) from now on."""
        places = list(self.places)
        places[seat] = replace(places[seat], gender=chosen(gender))
        return replace(self, places=tuple(places))

    def lobby_marks(self) -> dict[int, tuple[float, bool]]:
        """Whose lobby page is here, by seat (:mod:`.presence`)."""
        return {seat: (when, went) for seat, when, went in self.lobby}

    def with_lobby(self, marks: dict[int, tuple[float, bool]]) -> Party:
        return replace(self, lobby=tuple((seat, *marks[seat]) for seat in sorted(marks)))

    def link(self, seat: int) -> str:
        """The seat link's code of ``seat`` ("" where it has none)."""
        return self.links[seat] if 0 <= seat < len(self.links) else ""

    def relinked(self, seat: int) -> Party:
        """A fresh seat link for ``seat``: the old one stops working."""
        links = [*self.links, *[""] * (len(self.places) - len(self.links))]
        links[seat] = new_invite()
        return replace(self, links=tuple(links))

    def all_relinked(self) -> Party:
        """Fresh seat links for every seat a human has taken (a new game of the same
        seats: the old game's links open nothing of it)."""
        party = replace(self, links=())
        for seat, place in enumerate(self.places):
            if place.human and place.name is not None:
                party = party.relinked(seat)
        return party

    def linked_seat(self, code: object) -> int | None:
        """The seat whose link is ``code`` (from the network: anything), or None."""
        for seat, known in enumerate(self.links):
            if known and same_code(known, code):
                return seat
        return None

    def computer(self, seat: int, level: str) -> Party:
        places = list(self.places)
        places[seat] = Place(level=level)
        return replace(self, places=tuple(places))

    def hand_over(self, seat: int) -> Party:
        return replace(self, handed=tuple(sorted({*self.handed, seat})))

    def to_json(self) -> dict[str, Any]:
        return {"seats": [place.to_json() for place in self.places], "invite": self.invite,
                "clock": self.clock, "stand_in": self.stand_in, "started": self.started,
                "hints": self.hints, "handed": list(self.handed), "rematch": self.rematch,
                "watch": self.watch, "links": list(self.links),
                "rematch_ready": list(self.rematch_ready),
                "deal_ready": {"deal": self.deal_ready_at, "seats": list(self.deal_ready)},
                "lobby": [list(mark) for mark in self.lobby]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Party:
        seats = data.get("seats") or []
        clock = data.get("clock") if data.get("clock") in CLOCKS else 0
        stand_in = data.get("stand_in") if data.get("stand_in") in LEVELS else "normal"
        places = tuple(Place.from_json(s) for s in seats if isinstance(s, dict))
        handed = tuple(sorted({s for s in data.get("handed") or []
                               if isinstance(s, int) and 0 < s < len(places)}))
        rematch = data.get("rematch")
        watch = data.get("watch")
        raw_links = data.get("links")
        links = tuple(code if isinstance(code, str) and len(code) <= 64 else ""
                      for code in (raw_links if isinstance(raw_links, list) else [])
                      [:len(places)])
        ready = tuple(sorted({s for s in data.get("rematch_ready") or []
                              if isinstance(s, int) and 0 <= s < len(places)}))
        deal_ready = data.get("deal_ready")
        deal_ready = deal_ready if isinstance(deal_ready, dict) else {}
        at = deal_ready.get("deal")
        next_ready = tuple(sorted({s for s in deal_ready.get("seats") or []
                                   if isinstance(s, int) and 0 <= s < len(places)}))
        return cls(places, str(data.get("invite") or ""), int(clock or 0), str(stand_in),
                   bool(data.get("started")), bool(data.get("hints")), handed,
                   rematch if isinstance(rematch, str) and len(rematch) <= 40 else None,
                   ready, watch if isinstance(watch, str) and len(watch) <= 64 else "", links,
                   deal_ready=next_ready, lobby=_lobby_marks(data.get("lobby"), len(places)),
                   deal_ready_at=at if isinstance(at, int) and not isinstance(at, bool)
                   and at >= 0 else 0)


def _lobby_marks(data: Any, seats: int) -> tuple[tuple[int, float, bool], ...]:
    """The lobby's marks as saved (anything from the store: bad ones left out)."""
    marks = {}
    for mark in data if isinstance(data, list) else []:
        if (isinstance(mark, list) and len(mark) == 3 and isinstance(mark[0], int)
                and 0 <= mark[0] < seats and isinstance(mark[1], int | float)
                and isinstance(mark[2], bool)):
            marks[mark[0]] = (mark[0], float(mark[1]), mark[2])
    return tuple(marks[seat] for seat in sorted(marks))
