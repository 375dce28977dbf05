"""Real play against double dummy: how many tricks a declarer takes, given the double-dummy
count at the first lead.

Sampling-and-solving values a contract by the tricks its declarer takes double dummy in each
imagined deal.  Real defenders do not see each other's cards: in our own self-play a declarer
against a closed defence took about 0.2 tricks more than double dummy, and a contract double
dummy one trick short was made about a third of the time.  Against an open defence (the lone
whister's hand face up) double dummy is nearly exact.

The tables below were measured from self-play records (``benchmarks/bench_playgap.py``:
the declarer's tricks taken minus the double-dummy value of the position at the first lead,
by the defence's kind and by the double-dummy count against the contract's level): 249
whole pulya-10 games of Crazy and Hard (seed 30, 5 Dec), 816 contracts played against a
closed defence and 1,154 against an open one.  A player with ``Level.play_gap`` values a
contract's trick count ``t`` as the expected value over ``spread(t, level, closed)``.

>>> [(t, round(p, 3)) for t, p in spread(5, 6, closed=True)]
[(4, 0.042), (5, 0.592), (6, 0.342), (7, 0.025)]
>>> [(t, round(p, 3)) for t, p in spread(10, 6, closed=True)]
[(9, 0.09), (10, 0.91)]
"""

from __future__ import annotations

from collections.abc import Sequence

from .utility import TrickTable

# counts of (tricks taken - double dummy) by (double dummy - level), clamped to -2..+1
CLOSED_COUNTS: dict[int, dict[int, int]] = {
    -2: {0: 34, 1: 24, 2: 7, 3: 1},
    -1: {-1: 5, 0: 71, 1: 41, 2: 3},
    0: {-3: 3, -1: 15, 0: 281, 1: 75, 2: 12},
    1: {-1: 22, 0: 187, 1: 34, 2: 1},
}
"""Contracts played against a closed defence (two whisters, or a lone whister closed)."""
OPEN_COUNTS: dict[int, dict[int, int]] = {
    -2: {0: 74, 1: 10},
    -1: {0: 188, 1: 11},
    0: {0: 477, 1: 5, 2: 1},
    1: {0: 384, 1: 4},
}
"""Contracts played against a lone whister who opened."""
CLOSED_SHARE = 816 / (816 + 1154)
"""The share of played contracts whose defence was closed (a bidder does not know which
defence he will meet)."""


def _normalise(counts: dict[int, dict[int, int]]) -> dict[int, tuple[tuple[int, float], ...]]:
    out = {}
    for key, row in counts.items():
        total = sum(row.values())
        out[key] = tuple((k, n / total) for k, n in sorted(row.items()))
    return out


CLOSED = _normalise(CLOSED_COUNTS)
OPEN = _normalise(OPEN_COUNTS)


def spread(tricks: int, level: int, closed: bool | float) -> list[tuple[int, float]]:
    """The declarer's tricks in real play and their probabilities, given ``tricks`` double
    dummy in a contract of ``level``: against a closed defence (``True``), an open one
    (``False``), or a mixture with that share of closed defences (a float)."""
    key = max(-2, min(1, tricks - level))
    share = float(closed)
    probs: dict[int, float] = {}
    for table, weight in ((CLOSED, share), (OPEN, 1.0 - share)):
        if weight <= 0:
            continue
        for k, p in table[key]:
            t = max(0, min(10, tricks + k))
            probs[t] = probs.get(t, 0.0) + weight * p
    return sorted((t, p) for t, p in probs.items() if p > 0)


def real_play_table(table: Sequence[float], level: int, closed: bool | float) -> TrickTable:
    """``table`` (a value per double-dummy trick count) read through :func:`spread`: each
    count's value is the expected value of the tricks real play gives, scored lazily.

    >>> t = real_play_table([float(i) for i in range(11)], 6, closed=False)
    >>> round(t[10], 3), round(t[4], 3)
    (10.0, 4.119)
    """
    return TrickTable(lambda t: sum(p * table[u] for u, p in spread(t, level, closed)))
