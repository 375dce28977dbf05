"""The player interface and the random baseline."""

from __future__ import annotations

import random
from typing import Any, Protocol


class Player(Protocol):
    """Chooses every decision of one seat from that seat's observation."""

    def choose(self, observation: dict[str, Any]) -> str:
        """A legal action token (``observation["legal"]`` lists them) for the seat to act."""
        ...


class RandomPlayer:
    """Picks uniformly among the legal actions: a baseline for tests and matches."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, observation: dict[str, Any]) -> str:
        legal = observation.get("legal") or []
        if not legal:
            raise ValueError(f"seat {observation.get('seat')} has no legal action to choose")
        return self._rng.choice(sorted(legal))
