"""Who sits where at a web table: the human's seat of a game against the computer, and the
seed each computer player of a game draws from (a game is reproducible from its seed alone).

>>> bot_seed(7, 1) == bot_seed(7, 1) != bot_seed(7, 2)
True
"""

from __future__ import annotations

import hashlib

__all__ = ["HUMAN", "bot_seed"]

HUMAN = 0
"""The human's seat: the bottom of the table."""


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the computer player at ``seat`` in a game seeded with ``game_seed``: with the
    deals (:func:`deal_cards`) it makes a game reproducible from its seed alone."""
    digest = hashlib.sha256(f"preferans-web-bot:{game_seed}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")
