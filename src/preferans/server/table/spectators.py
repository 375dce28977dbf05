"""Spectators of a table for friends: the public table only, never a hidden card.

The public observation is what *every* seat sees alike: each seat's observation is taken
from the engine and only the values that all of them share are kept (:func:`public_view`).
A card one seat may not see differs between the seats' observations (its owner has it, the
others do not), so it can never be in the intersection: the hand, the legal actions, a
discard, the talon while only its taker sees it, a looked-at hand all drop out, whatever the
variant.  The calls, the cards on the table, the hands laid open and the sheet stay.

>>> from preferans.rules import Rules
>>> from preferans.server.table import first_game
>>> game = first_game(Rules.from_json("sochi"), 5, ["A", "B", "C"])
>>> view = public_view([game.deal.observation(seat) for seat in range(3)])
>>> view["hand"], view["legal"], view["seat"], view["hand_sizes"]
([], [], None, [10, 10, 10])

A spectator's socket opens with the table's watch code, or the invite of a full table
(``/ws/{id}?watch={code}``: :func:`.friends.may_watch`); it is
sent the public state (``"seat": null``) and may not act (:data:`SPECTATOR`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

SPECTATOR = -1
"""The seat the table notes for a spectator's socket (no seat: the public view)."""
PRIVATE_DEFAULTS: dict[str, Any] = {"seat": None, "hand": [], "legal": []}
"""What a spectator's observation says where the seats' observations differ."""


def public_view(observations: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The values every seat's observation shares (see the module docstring)."""
    first, *others = observations
    view = {key: value for key, value in first.items()
            if all(key in other and other[key] == value for other in others)}
    for key, value in PRIVATE_DEFAULTS.items():
        view.setdefault(key, value)
    return view
