"""An exact solver for two hands playing each other (the two-player game's lone whister).

The C solver is three-handed; a two-player whister who defends ALONE plays ten tricks of two
cards against the declarer.  This small search answers "can hand A take at least *k* of the
remaining tricks?" with memoised boolean searches (the cards of a hand that are adjacent
among the cards still in play count as one), and finds the exact count from a guess by
stepping up or down.  Ten cards a side take ~10 ms on average in pure Python.

Preferans rules of the play: follow suit; else trump; else any card.  ``trump`` is 0..3 or
``None`` (no trump).  Hands are 32-bit card masks (:mod:`preferans.cards`).

>>> from preferans.cards import CardSet
>>> a = CardSet.parse("AS KS AH").mask
>>> b = CardSet.parse("QS JS 7H").mask
>>> two_hand_tricks(a, b, a_leads=True, trump=None)
3
>>> two_hand_tricks(CardSet.parse("AS 7H").mask, CardSet.parse("KS 8D").mask, True, 2)
1
"""

from __future__ import annotations

from collections.abc import Callable

SUIT_MASKS = tuple(0xFF << (8 * s) for s in range(4))


def _representatives(hand: int, in_play: int) -> list[int]:
    """One card (its index) for each run of ``hand``'s cards adjacent among ``in_play``."""
    out = []
    m = hand
    while m:
        low = m & -m
        i = low.bit_length() - 1
        m ^= low
        if (i + 1) % 8:
            higher = in_play & SUIT_MASKS[i >> 3] & ~((1 << (i + 1)) - 1)
            if higher and hand >> ((higher & -higher).bit_length() - 1) & 1:
                continue  # the next card up in play is ours too: the same card
        out.append(i)
    return out


def _reach_search(trump: int | None, maximize: bool = True
                  ) -> Callable[[int, int, bool, int], bool]:
    """``can(a, b, a_leads, need)``: A ends with at least ``need`` of the remaining tricks
    when A plays to take tricks and B to stop him (``maximize``), or when B plays to hand
    them to A and A to avoid them (``maximize=False``: an all-pass)."""
    tmask = SUIT_MASKS[trump] if trump is not None else 0
    memo: dict[tuple[int, int, bool, int], bool] = {}

    def playable(hand: int, suit: int) -> int:
        same = hand & SUIT_MASKS[suit]
        if same:
            return same
        return hand & tmask or hand

    def a_wins(lead: int, follow: int, a_leads: bool) -> bool:
        if follow >> 3 == lead >> 3:
            leader_wins = lead > follow
        else:
            leader_wins = not (tmask and follow >> 3 == trump)
        return leader_wins == a_leads

    def can(a: int, b: int, a_leads: bool, need: int) -> bool:
        if need <= 0:
            return True
        if need > a.bit_count():
            return False
        key = (a, b, a_leads, need)
        hit = memo.get(key)
        if hit is not None:
            return hit
        in_play = a | b
        leader, follower = (a, b) if a_leads else (b, a)
        # the leader's side "wants" the count when it is the maximiser of A's tricks
        leader_wants = a_leads == maximize
        result = not leader_wants
        for i in _representatives(leader, in_play):
            replies = _representatives(playable(follower, i >> 3), in_play)
            outcomes = []
            for j in replies:
                won = a_wins(i, j, a_leads)
                if a_leads:
                    na, nb = a & ~(1 << i), b & ~(1 << j)
                else:
                    na, nb = a & ~(1 << j), b & ~(1 << i)
                outcomes.append((na, nb, won))
            if leader_wants:  # some lead such that every reply still reaches the count
                if all(can(na, nb, won, need - won) for na, nb, won in outcomes):
                    result = True
                    break
            elif not any(can(na, nb, won, need - won) for na, nb, won in outcomes):
                result = False  # some lead such that no reply reaches it
                break
        memo[key] = result
        return result

    return can


def two_hand_tricks(a: int, b: int, a_leads: bool, trump: int | None,
                    guess: int | None = None, *, maximize: bool = True) -> int:
    """The tricks hand ``a`` takes against hand ``b`` (equal sizes) with best play by both:
    A taking tricks and B stopping him, or (``maximize=False``, an all-pass) A avoiding
    tricks and B handing them to him."""
    if a.bit_count() != b.bit_count():
        raise ValueError(f"two hands of {a.bit_count()} and {b.bit_count()} cards")
    can = _reach_search(trump, maximize)
    n = a.bit_count()
    k = n // 2 if guess is None else max(0, min(n, guess))
    if can(a, b, a_leads, k):
        while k < n and can(a, b, a_leads, k + 1):
            k += 1
        return k
    while k > 0 and not can(a, b, a_leads, k - 1):
        k -= 1
    return max(0, k - 1)
