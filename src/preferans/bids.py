"""Bids and contracts: the ladder 6♠ … 10NT and misère.

A :class:`Bid` names a number of tricks (6 to 10) and a trump suit, or no
trump; :data:`MISERE` is the special bid to take no tricks.  Tokens are the
record's: ``6S``, ``7NT``, ``10H``, ``MISERE``.

>>> Bid.parse("7nt")
Bid.parse('7NT')
>>> Bid.parse("6S") < Bid.parse("6C") < Bid.parse("6NT") < Bid.parse("7S")
True
>>> [str(b) for b in Bid.ladder()][:6]
['6S', '6C', '6D', '6H', '6NT', '7S']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .cards import Suit

LEVELS: Final = (6, 7, 8, 9, 10)


@dataclass(frozen=True, slots=True)
class Bid:
    """A bid or contract.  ``trump`` is a :class:`Suit` or ``None`` for no trump.

    Ordinary bids order by level, then spades < clubs < diamonds < hearts < NT.
    Misère has ``level == 0``; where it stands on the ladder depends on the
    rules (see :meth:`ladder_key`), so comparing it with ``<`` is an error.
    """

    level: int
    trump: Suit | None = None
    misere: bool = False

    def __post_init__(self) -> None:
        if self.misere:
            if self.level != 0 or self.trump is not None:
                raise ValueError("misère has no level and no trump")
        elif self.level not in LEVELS:
            raise ValueError(f"a bid names 6 to 10 tricks, not {self.level}")

    @classmethod
    def parse(cls, text: str) -> Bid:
        """Read ``6S`` … ``10NT`` (suits also as ♠ ♣ ♦ ♥) or ``MISERE``/``MISÈRE``."""
        token = text.strip().upper()
        if token in ("MISERE", "MISÈRE", "MIZER"):
            return MISERE
        for tail in ("NT", "БК"):
            if token.endswith(tail):
                level_text, trump = token[: -len(tail)], None
                break
        else:
            if len(token) < 2:
                raise ValueError(f"cannot read bid {text!r}: write it like '7H', '6NT' or 'MISERE'")
            level_text = token[:-1]
            try:
                trump = Suit.parse(token[-1])
            except ValueError:
                raise ValueError(f"cannot read bid {text!r}: unknown trump {token[-1]!r}") from None
        if not level_text.isdigit():
            raise ValueError(f"cannot read bid {text!r}: the level must be 6 to 10")
        level = int(level_text)
        if level not in LEVELS:
            raise ValueError(f"cannot read bid {text!r}: the level must be 6 to 10")
        return cls(level, trump)

    @classmethod
    def ladder(cls) -> list[Bid]:
        """The 25 ordinary bids, lowest first."""
        return [cls(level, trump) for level in LEVELS for trump in (*Suit, None)]

    @property
    def strain(self) -> int:
        """0..3 for the suits, 4 for no trump."""
        return 4 if self.trump is None else int(self.trump)

    @property
    def step(self) -> int:
        """The position on the ordinary ladder, 0 (6♠) to 24 (10NT)."""
        if self.misere:
            raise ValueError("misère has no step on the ordinary ladder")
        return (self.level - 6) * 5 + self.strain

    def ladder_key(self, misere_outbid_by: int = 9) -> float:
        """A sort key with misère just below ``misere_outbid_by``♠."""
        if self.misere:
            return (misere_outbid_by - 6) * 5 - 0.5
        return float(self.step)

    def __lt__(self, other: Bid) -> bool:
        if self.misere or other.misere:
            raise TypeError("misère's place depends on the rules: compare ladder_key()")
        return self.step < other.step

    def __le__(self, other: Bid) -> bool:
        return self == other or self < other

    def __gt__(self, other: Bid) -> bool:
        return other < self

    def __ge__(self, other: Bid) -> bool:
        return self == other or other < self

    @property
    def symbol(self) -> str:
        """For people: ``7♥``, ``6NT``, ``Misère``."""
        if self.misere:
            return "Misère"
        return f"{self.level}{'NT' if self.trump is None else self.trump.symbol}"

    def __str__(self) -> str:
        if self.misere:
            return "MISERE"
        return f"{self.level}{'NT' if self.trump is None else self.trump.letter}"

    def __repr__(self) -> str:
        return f"Bid.parse({str(self)!r})"


MISERE: Final = Bid(0, None, True)
