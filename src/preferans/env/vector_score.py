"""The score of a deal the C core played, by the engine's own sheet.

The core ends a deal with a key (``vector_c/pc_score.c``), its seats turned so that the dealer
is seat 0: the declarer, the contract's level, what the defence did (a code), the tricks of
the dealer and of first hand, the talon's quick tricks and whether the talon was refused.
:class:`ScoreTable` decodes a key into the :class:`~preferans.outcome.DealOutcome` the Python
deal would have produced, records it on a fresh :class:`~preferans.sheet.Sheet` and keeps
each seat's balance: the returns in whists that :class:`~preferans.env.core.PreferansCore`
gives for one deal.  Keys are scored the first time they occur (a millisecond or a few each:
the first minute of a new table's play is slower) and kept, one table per rules and process,
shared by every vector environment.

>>> from preferans.rules import Rules
>>> table = ScoreTable(Rules.preset("sochi"), q=1, r=1)
>>> outcome = table.outcome(table.key(declarer=1, level=7, code=3, tricks=(1, 7)))
>>> outcome.kind, str(outcome.contract), outcome.whisters, outcome.tricks
('contract', '7H', (2, 0), (1, 7, 2))
>>> [round(x, 2) for x in table.score(table.key(declarer=1, level=7, code=3, tricks=(1, 7)))]
[-9.33, 14.67, -5.33]
"""

from __future__ import annotations

from typing import Final

import numpy as np

from ..bids import MISERE, Bid
from ..cards import Card, Suit
from ..outcome import DealOutcome
from ..rules import Rules
from ..sheet import Sheet

CODES: Final = 16
_TALONS: Final = tuple(tuple(Card.parse(c) for c in pair) for pair in
                       (("7S", "8S"), ("AS", "7C"), ("AS", "KS"), ("AS", "AC")))
"""A talon of 0, 1, 2 and 3 quick tricks (talon prizes read nothing else of it)."""
_PLAYED: Final = frozenset((3, 4, 5, 6, 7, 10, 11, 14, 15))
_DEFENCE: Final[dict[int, tuple[str, tuple[str, ...], tuple[int, ...], int | None,
                                bool | None]]] = {
    # code: kind, calls, whisters (0 first defender, 1 second), half-whister, open defence
    3: ("contract", ("WHIST", "WHIST"), (0, 1), None, None),
    4: ("contract", ("WHIST", "PASS"), (0,), None, True),
    5: ("contract", ("WHIST", "PASS"), (0,), None, False),
    6: ("contract", ("PASS", "WHIST"), (1,), None, True),
    7: ("contract", ("PASS", "WHIST"), (1,), None, False),
    8: ("passed", ("PASS", "PASS"), (), None, None),
    9: ("halfwhist", ("PASS", "HALF"), (), 1, None),
    10: ("contract", ("PASS", "HALF", "WHIST"), (0,), 1, True),
    11: ("contract", ("PASS", "HALF", "WHIST"), (0,), 1, False),
    12: ("halfwhist", ("PASS", "HALF", "PASS"), (), 1, None),
    13: ("halfwhist", ("WHIST", "PASS", "HALF"), (), 0, None),
    14: ("contract", ("WHIST", "WHIST"), (0, 1), None, None),
    15: ("contract", (), (), None, None),
}


class ScoreTable:
    """Each key's balance per seat (NaN until scored), for one set of rules."""

    def __init__(self, rules: Rules, q: int, r: int) -> None:
        self.rules = rules
        self.q, self.r = q, r
        self.size = 3 * 5 * CODES * 11 * 11 * q * r
        self.values = np.full((self.size, 3), np.nan)

    def key(self, *, declarer: int = 0, level: int = 6, code: int,
            tricks: tuple[int, int] = (0, 0), quick: int = 0, refused: bool = False) -> int:
        """The key of a deal dealt by seat 0 (``pc_score_key``): ``tricks`` are the dealer's
        and first hand's."""
        key = declarer * 5 + level - 6
        key = ((key * CODES + code) * 11 + tricks[0]) * 11 + tricks[1]
        return (key * self.q + quick) * self.r + int(refused)

    def outcome(self, key: int) -> DealOutcome:
        """The deal outcome a key stands for (dealt by seat 0)."""
        key, refused = divmod(key, self.r)
        key, quick = divmod(key, self.q)
        key, t1 = divmod(key, 11)
        key, t0 = divmod(key, 11)
        key, code = divmod(key, CODES)
        key, step = divmod(key, 5)
        dealer, declarer = 0, key
        level = step + 6
        tricks = (t0, t1, 10 - t0 - t1)
        talon = _TALONS[quick]
        if code == 0:
            return DealOutcome("allpass", dealer, 3, tricks=tricks, talon=talon)
        if code == 1:
            return DealOutcome("misere", dealer, 3, declarer, MISERE, tricks=tricks,
                               talon=talon, talon_refused=bool(refused))
        suit = Suit.SPADES if code == 14 else Suit.HEARTS
        contract = Bid(level, suit)
        if code == 2:
            return DealOutcome("resigned", dealer, 3, declarer, contract, tricks=(0, 0, 0),
                               talon=talon, talon_refused=bool(refused))
        kind, calls, whisters, half, open_defence = _DEFENCE[code]
        defenders = ((declarer + 1) % 3, (declarer + 2) % 3)
        return DealOutcome(
            kind,  # type: ignore[arg-type]
            dealer, 3, declarer, contract,
            defence=calls,  # type: ignore[arg-type]
            whisters=tuple(defenders[w] for w in whisters),
            half_whister=None if half is None else defenders[half],
            open_defence=open_defence,
            tricks=tricks if code in _PLAYED else (0, 0, 0),
            forced=code == 14,
            talon=talon,
            talon_refused=bool(refused),
        )

    def score(self, key: int, dealer: int = 0) -> list[float]:
        """The balance per seat after this deal on a fresh sheet (scored once, then kept),
        the deal dealt by ``dealer``."""
        row = self.values[key]
        if np.isnan(row[0]):
            sheet = Sheet(self.rules)
            sheet.record(self.outcome(key))
            row[:] = [float(x) for x in sheet.balance()]
        return [float(row[(seat - dealer) % 3]) for seat in range(3)]

_TABLES: dict[tuple[Rules, int, int], ScoreTable] = {}


def score_table(rules: Rules, q: int, r: int) -> ScoreTable:
    """The table of ``rules`` (one per process, filled as keys occur)."""
    table = _TABLES.get((rules, q, r))
    if table is None:
        table = _TABLES[(rules, q, r)] = ScoreTable(rules, q, r)
    return table
