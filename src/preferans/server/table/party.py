"""Who sits at a table for friends: a human ("a friend") or a computer player of a level at
each seat, the invite, the move clock, whether the game has started.

Pure data, kept in the store's ``friends`` column as JSON (:meth:`Party.to_json`); the
routes that change it are in :mod:`..web.friends`, the table reads it (:mod:`.table`).

>>> party = Party.new(["friend", "hard"], creator="Anna", clock=30, stand_in="normal")
>>> sorted(party.humans()), party.level(2), party.free_seats()
([0, 1], 'hard', [1])
>>> Party.from_json(party.to_json()) == party
True
"""

from __future__ import annotations

import secrets
import unicodedata
from dataclasses import dataclass, replace
from typing import Any

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
    computer player of ``level``."""

    level: str | None = None
    name: str | None = None

    @property
    def human(self) -> bool:
        return self.level is None

    def to_json(self) -> dict[str, Any]:
        if self.human:
            return {"kind": "human", "name": self.name}
        return {"kind": "computer", "level": self.level}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Place:
        if data.get("kind") == "computer":
            level = data.get("level")
            return cls(level=level if level in LEVELS else "normal")
        name = data.get("name")
        return cls(name=name if isinstance(name, str) else None)


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

    @classmethod
    def new(cls, others: list[str], *, creator: str, clock: int = 0,
            stand_in: str = "normal", hints: bool = False) -> Party:
        """Seat 0 the creator, then each other seat a friend (``"friend"``) or a level."""
        places = [Place(name=creator)] + [
            Place() if kind == "friend" else Place(level=kind) for kind in others]
        return cls(tuple(places), new_invite(), clock, stand_in, False, hints,
                   watch=new_invite())

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

    def taken(self, seat: int, name: str) -> Party:
        places = list(self.places)
        places[seat] = Place(name=name)
        return replace(self, places=tuple(places))

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
                "watch": self.watch, "rematch_ready": list(self.rematch_ready)}

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
        ready = tuple(sorted({s for s in data.get("rematch_ready") or []
                              if isinstance(s, int) and 0 <= s < len(places)}))
        return cls(places, str(data.get("invite") or ""), int(clock or 0), str(stand_in),
                   bool(data.get("started")), bool(data.get("hints")), handed,
                   rematch if isinstance(rematch, str) and len(rematch) <= 40 else None,
                   ready, watch if isinstance(watch, str) and len(watch) <= 64 else "")
