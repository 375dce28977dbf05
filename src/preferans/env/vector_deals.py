"""The vector environment's cards: a seeded generator and the shuffle of a deal, the same in
Python as in the C core (``vector_c/pc_rng.c``), so both backends of
:class:`~preferans.env.vector.VectorEnv` deal the same cards from the same seed and pick the
same random actions.

>>> rng = DealRng(seed_of(7, 0))
>>> dealer, cards = rng.shuffle()
>>> dealer in (0, 1, 2), sorted(cards) == list(range(32))
(True, True)
>>> DealRng(seed_of(7, 0)).shuffle() == (dealer, cards)
True
"""

from __future__ import annotations

from typing import Final

_MASK: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15
PICK_SALT: Final = 0x5DEECE66D
"""The random actions' generator of env ``i`` is seeded with ``seed ^ PICK_SALT``."""


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def seed_of(seed: int, index: int) -> int:
    """The generator state of env ``index`` under ``seed`` (``pc_seed``)."""
    state = (seed * 0xD1B54A32D192ED03 + index) & _MASK
    return _mix((state + _GOLDEN) & _MASK)


class DealRng:
    """splitmix64, as ``pc_next``."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def next(self) -> int:
        self.state = (self.state + _GOLDEN) & _MASK
        return _mix(self.state)

    def shuffle(self) -> tuple[int, list[int]]:
        """The dealer (0..2), then the 32 cards in dealing order: ten to each hand from the
        dealer's left, then the two talon cards (``pc_shuffle``)."""
        dealer = self.next() % 3
        cards = list(range(32))
        for i in range(31, 0, -1):
            j = self.next() % (i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        return dealer, cards

    def pick(self, legal: list[int]) -> int:
        """One of ``legal`` (ascending ids), uniformly."""
        return legal[self.next() % len(legal)]
