"""Hand evaluation by rule of thumb: tricks a hand should take, misère risk, all-pass risk.

These are fast estimates (a few microseconds) used where solving would be too
slow or too exact: the Easy player's feel, the weights that make sampled worlds
agree with the auction, and the pruning of discards before they are solved.

Ranks run 0 (seven) to 7 (ace); a hand is a 32-bit mask (see :mod:`preferans.cards`).

>>> from preferans.cards import CardSet
>>> hand = CardSet.parse("AS KS QS JS 10S 9S AH KH AD 7C").mask
>>> round(contract_tricks(hand, 0), 1)
10.0
>>> best_strain(hand)
0
>>> misere_danger(CardSet.parse("7S 9S JS 8C 7D 9D 7H 8H 10H QH").mask) < 1
True
"""

from __future__ import annotations

from functools import cache

NOTRUMP = 4


def suit_ranks(hand: int, suit: int) -> int:
    """The 8-bit rank mask of one suit of a hand."""
    return (hand >> (8 * suit)) & 0xFF


@cache
def _suit_tricks(ranks: int, trump: bool, notrump: bool) -> float:
    """Expected tricks from one suit holding (8-bit rank mask)."""
    length = ranks.bit_count()
    if not length:
        return 0.0
    honours = 0.0
    own_higher = 0
    for r in range(7, -1, -1):
        if not ranks >> r & 1:
            continue
        missing = (7 - r) - own_higher
        if missing == 0:
            honours += 1.0
        elif length > missing + own_higher:
            # a guarded card: wins when the higher cards fall or sit well
            honours += 0.5 ** missing * (1.2 if trump else 1.0)
        own_higher += 1
        if own_higher >= length:
            break
    others = 8 - length
    if trump:
        # long trumps win once the defenders' trumps are drawn
        rounds = (others + 1) // 2 + (1 if others >= 3 else 0)
        length_tricks = max(0, length - rounds)
        return min(float(length), max(honours, honours * 0.6 + length_tricks))
    if length >= 4 and honours >= 1:
        rounds = (others + 1) // 2
        extra = max(0, length - rounds - int(honours)) * (0.7 if notrump else 0.4)
        return min(float(length), honours + extra)
    return min(float(length), honours)


def contract_tricks(hand: int, strain: int) -> float:
    """Estimated tricks of ``hand`` as declarer in ``strain`` (0..3 a trump suit, 4 no trump).

    Side-suit shortness counts as ruffing value in a trump contract.
    """
    trump = strain if strain < 4 else None
    total = 0.0
    trumps = suit_ranks(hand, trump).bit_count() if trump is not None else 0
    spare_trumps = max(0, trumps - 4)
    for s in range(4):
        ranks = suit_ranks(hand, s)
        total += _suit_tricks(ranks, s == trump, trump is None)
        if trump is not None and s != trump and spare_trumps > 0:
            short = ranks.bit_count()
            if short <= 1:
                ruffs = min(spare_trumps, 2 - short)
                total += 0.6 * ruffs
                spare_trumps -= ruffs
    if trump is None:
        # no trump is dangerous with an unguarded suit: the defence runs it
        for s in range(4):
            ranks = suit_ranks(hand, s)
            if not ranks >> 7 & 1 and ranks.bit_count() <= 1:
                total -= 1.0
    return max(0.0, min(10.0, total))


def best_strain(hand: int) -> int:
    """The strain (0..3, 4 = no trump) with the most estimated tricks; ties to the longest."""
    def key(strain: int) -> tuple[float, int, int]:
        length = suit_ranks(hand, strain).bit_count() if strain < 4 else 0
        return (contract_tricks(hand, strain), length, -strain)

    return max(range(5), key=key)


def defence_tricks(hand: int, trump: int | None) -> float:
    """Tricks a defender's hand should take against a contract (rough, lower than declaring)."""
    total = 0.0
    for s in range(4):
        ranks = suit_ranks(hand, s)
        if not ranks:
            continue
        length = ranks.bit_count()
        if s == trump:
            total += 0.8 * _suit_tricks(ranks, True, False)
            continue
        if ranks >> 7 & 1:
            total += 1.0 if trump is None or length <= 4 else 0.8
        if ranks >> 6 & 1 and length >= 2:
            total += 0.8 if ranks >> 7 & 1 else 0.5
        if ranks >> 5 & 1 and length >= 3 and trump is None:
            total += 0.3
    return total


@cache
def _misere_suit_danger(ranks: int) -> float:
    """How likely this suit holding gives a misère trick (0 safe .. 1 sure)."""
    if not ranks:
        return 0.0
    own = [r for r in range(8) if ranks >> r & 1]
    danger = 0.0
    for i, r in enumerate(own):
        # the i-th lowest card is safe when at most 2*i ranks lie below... i.e. r <= 2*i
        gap = r - 2 * i
        if gap > 0:
            danger = max(danger, min(1.0, 0.35 * gap + (0.3 if i == 0 else 0.0)))
    return danger


def misere_danger(hand: int) -> float:
    """Expected misère tricks, roughly: 0 for a clean misère hand."""
    return sum(_misere_suit_danger(suit_ranks(hand, s)) for s in range(4))


def allpass_tricks(hand: int) -> float:
    """Expected tricks in an all-pass (raspasy) for this hand, roughly."""
    total = 0.0
    for s in range(4):
        ranks = suit_ranks(hand, s)
        length = ranks.bit_count()
        if not length:
            continue
        total += _misere_suit_danger(ranks) * min(length, 3) * 0.8
        if ranks >> 7 & 1:
            total += 0.5
    return total + 1.0


def max_level(hand: int, talon_bonus: float = 0.5) -> tuple[int, int, float]:
    """The highest level this hand should bid with the talon still to come.

    Returns ``(level, strain, estimate)``; level 0 when the hand should not bid.
    """
    strain = best_strain(hand)
    est = contract_tricks(hand, strain) + talon_bonus
    level = int(est + 0.15)
    return (level if level >= 6 else 0), strain, est


def _lowest_two_per_suit(hand: int) -> list[int]:
    out = []
    for s in range(4):
        ranks = suit_ranks(hand, s)
        taken = 0
        for r in range(8):
            if ranks >> r & 1:
                out.append(8 * s + r)
                taken += 1
                if taken == 2:
                    break
    return sorted(out)


def discard_candidates(hand12: int, strain: int, keep: int = 4, *, pruned: bool = False
                       ) -> list[int]:
    """The most promising two-card discards (as masks) for a contract in ``strain``.

    Ranks every pair by the evaluation of the ten cards kept; the best ``keep`` come first.
    ``pruned``: consider only the two lowest cards of each suit (at most 28 pairs instead of
    66): a higher card is never a better throw than a lower one of the same suit.
    """
    cards = (_lowest_two_per_suit(hand12) if pruned
             else [i for i in range(32) if hand12 >> i & 1])
    scored: list[tuple[float, int, int]] = []
    for a in range(len(cards)):
        for b in range(a + 1, len(cards)):
            pair = (1 << cards[a]) | (1 << cards[b])
            # ties: throw low cards of side suits, keep trumps
            cost = sum((c & 7) + (8 if c >> 3 == strain else 0) for c in (cards[a], cards[b]))
            scored.append((-round(contract_tricks(hand12 & ~pair, strain), 6), cost, pair))
    scored.sort()
    return [p for _, _, p in scored[:keep]]


def misere_discard_candidates(hand12: int, keep: int = 4) -> list[int]:
    """The two-card discards that leave the safest misère hand, best first."""
    cards = [i for i in range(32) if hand12 >> i & 1]
    scored: list[tuple[float, int, int]] = []
    for a in range(len(cards)):
        for b in range(a + 1, len(cards)):
            pair = (1 << cards[a]) | (1 << cards[b])
            # prefer throwing high cards when tied
            scored.append((misere_danger(hand12 & ~pair), -(cards[a] & 7) - (cards[b] & 7), pair))
    scored.sort()
    return [p for _, _, p in scored[:keep]]
