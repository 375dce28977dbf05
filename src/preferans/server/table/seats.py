"""Who sits where at a web table: the human's seat of a game against the computer, the seats'
names and colours at a table of two, three or four, and the seed each computer player of a
game draws from (a game is reproducible from its seed alone).

>>> bot_seed(7, 1) == bot_seed(7, 1) != bot_seed(7, 2)
True
"""

from __future__ import annotations

import hashlib

__all__ = [
    "COLOURS", "COLOURS_FOUR", "DUMMY_COLOUR", "DUMMY_NAME", "HUMAN", "NAMES", "NAMES_FOUR",
    "NAMES_TWO", "bot_seed", "seat_colours", "seat_names",
]

HUMAN = 0
"""The human's seat: the bottom of the table."""


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the computer player at ``seat`` in a game seeded with ``game_seed``: with the
    deals (:func:`deal_cards`) it makes a game reproducible from its seed alone."""
    digest = hashlib.sha256(f"preferans-web-bot:{game_seed}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


NAMES = ("You", "Misha", "Lena")
"""Seats 0, 1, 2 clockwise: you at the bottom, Misha on your left, Lena on your right."""


COLOURS = ("#2e7d32", "#1565c0", "#c62828")
"""Each player's colour on the table and the sheet."""


NAMES_FOUR = ("You", "Misha", "Sasha", "Lena")
"""Four players, clockwise: you at the bottom, Misha on your left, Sasha opposite you at
the top, Lena on your right."""


COLOURS_FOUR = ("#2e7d32", "#1565c0", "#ef6c00", "#c62828")
"""Each player's colour with four players (Sasha orange; the others keep theirs)."""


NAMES_TWO = ("You", "Misha")
"""Two players (the two-player game and the Rogue): you and Misha; the dummy's hand is the
third (seat 2, :data:`DUMMY_NAME`), on the dealer's left, and never decides."""


DUMMY_NAME = "Dummy"
"""How the table names the two-player game's dummy (seat 2: state ``dummy``)."""


DUMMY_COLOUR = "#757575"
"""The dummy's colour (grey): the state's ``colours`` has it as a third entry."""


def seat_names(players: int) -> tuple[str, ...]:
    """The names at a table of two, three or four players (the dummy is not a player)."""
    return {2: NAMES_TWO, 4: NAMES_FOUR}.get(players, NAMES)


def seat_colours(players: int) -> tuple[str, ...]:
    """The colours at a table of two (the dummy's grey third), three or four players."""
    if players == 2:
        return (*COLOURS[:2], DUMMY_COLOUR)
    return COLOURS_FOUR if players == 4 else COLOURS
