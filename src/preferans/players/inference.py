"""What the other seats' cards say about the worlds: inference from the play.

The sampler weighs worlds by the calls (auction, whist).  The cards the other seats
played say more: a declarer who sees every card plays a double-dummy best card almost
every time, and Hard defenders about 95% of the time (measured on 300 Hard-vs-Normal
boards, non-trivial choices only: declarers 99%, defenders 95%, all-pass 91%).  So in a
world where an observed card was *not* a best card for the seat that played it, that
world is less likely to be the true one.

:func:`play_weights` replays the trick history in each world: for every card a seat
other than this one chose (with more than one legal card), it solves the position just
before that card and checks whether the card was among the best for that seat.  Each
card that was not multiplies the world's weight by ``SLIP`` (per trick it gave away,
at most twice).  All positions of all worlds go to the solver in one batch call; values
are memoised per player, since late in a deal the same worlds and positions recur.

This is *play inference* as used by strong Skat programs; only the Crazy level uses it.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..solver import Position, solve_moves_batch
from .sampling import World
from .solving import seat_map
from .view import SeatView

SLIP = 0.12
"""Relative likelihood of a world per card that would have been a double-dummy mistake in it."""
MAX_CHECKED = 14
"""The most recent choices checked (older ones cost the most and say the least now)."""
CACHE_LIMIT = 200_000

SUIT_MASKS = [0xFF << (8 * s) for s in range(4)]


def _legal_count(hand: int, led: int | None, trump: int | None) -> int:
    """How many cards ``hand`` may play to a trick led in suit ``led`` (``None``: leading)."""
    if led is None:
        return hand.bit_count()
    follow = hand & SUIT_MASKS[led]
    if follow:
        return follow.bit_count()
    if trump is not None:
        trumps = hand & SUIT_MASKS[trump]
        if trumps:
            return trumps.bit_count()
    return hand.bit_count()


def _controlled(view: SeatView) -> set[int]:
    """The seats whose cards this seat chose (its own, and a passer's it plays)."""
    mine = {view.seat}
    whisters = [s for s, t in view.defence if t.upper() == "WHIST"]
    if view.open_defence and whisters == [view.seat]:
        mine |= {s for s in view.defenders() if s != view.seat}
    return mine


def _talon_suits(view: SeatView, world: World, start: int) -> tuple[int, ...]:
    """All-pass: the suits the talon sets for tricks ``start``..1, as known in this world."""
    out: list[int] = []
    hidden = [i for i in range(32) if world.extra >> i & 1]
    for t in range(start, 2):
        if t < len(view.tricks) and view.tricks[t].talon is not None:
            out.append(int(view.tricks[t].talon.suit))  # type: ignore[union-attr]
        elif t == len(view.tricks) and view.talon_lead is not None:
            out.append(view.talon_lead)
        elif hidden:
            out.append(hidden.pop(0) >> 3)
    return tuple(out)


def _checks(view: SeatView) -> list[tuple[int, int, int, list[tuple[int, int]]]]:
    """The choices to check: (trick number, seat, card index, cards before it in the trick)."""
    mine = _controlled(view)
    out = []
    history = [(i, t.cards) for i, t in enumerate(view.tricks)]
    history.append((len(view.tricks), list(view.trick)))
    for number, cards in history:
        for k, (seat, card) in enumerate(cards):
            if seat in mine or not 0 <= seat < view.players:
                continue
            out.append((number, seat, card.index, [(s, c.index) for s, c in cards[:k]]))
    return out[-MAX_CHECKED:]


def play_weights(view: SeatView, worlds: Sequence[World], *, allpass_talon: str = "lead",
                 threads: int = 1, cache: dict[tuple, dict[int, int]] | None = None
                 ) -> list[float]:
    """A likelihood factor per world from the cards the other seats chose (see the module).

    Returns ``1.0`` for every world where nothing can be checked (four players, a
    variant with a dummy, no play yet).
    """
    factors = [1.0] * len(worlds)
    if view.players != 3 or not worlds or (view.declarer is None and not view.is_allpass):
        return factors
    if any(len(t.cards) != 3 for t in view.tricks):
        return factors  # a variant's trick shape (a dummy, a seat out): not modelled
    checks = _checks(view)
    if not checks:
        return factors
    trump = view.trump if not view.is_allpass and not view.is_misere else None
    mode = "allpass" if view.is_allpass else ("misere" if view.is_misere else "contract")
    smap = seat_map(view)
    # every card played from each trick on, per seat: hands then = hands now + these
    later: dict[tuple[int, int], int] = {}
    all_tricks = [t.cards for t in view.tricks] + [list(view.trick)]
    played_after = [0] * view.players
    for number in range(len(all_tricks) - 1, -1, -1):
        for k in range(len(all_tricks[number]) - 1, -1, -1):
            seat, card = all_tricks[number][k]
            if 0 <= seat < view.players:
                played_after[seat] |= card.mask
            later[(number, k)] = sum(
                (played_after[s] << (32 * s)) for s in range(view.players)
            )
    jobs: list[tuple[int, int, int, tuple]] = []  # (world, checked card, side is max?, key)
    positions: list[Position] = []
    keys: list[tuple] = []
    memo = cache if cache is not None else {}
    if len(memo) > CACHE_LIMIT:  # before the look-ups below, which must find what they saw
        memo.clear()
    pending: set[tuple] = set()
    for wi, w in enumerate(worlds):
        for number, seat, card, before in checks:
            k = len(before)
            packed = later[(number, k)]
            hands = [
                w.hands[s] | (packed >> (32 * s) & 0xFFFFFFFF) for s in range(view.players)
            ]
            led = (before[0][1] >> 3) if before else None
            leads: tuple[int, ...] = ()
            if mode == "allpass" and allpass_talon == "lead" and number < 2:
                leads = _talon_suits(view, w, number)
                if not before and leads:
                    led = leads[0]
            if _legal_count(hands[seat], led, trump) <= 1:
                continue
            side = seat if mode == "allpass" else view.declarer
            leader = before[0][0] if before else seat
            key = (tuple(hands), tuple(c for _, c in before), smap[leader], trump, mode,
                   smap[side], leads)  # type: ignore[index]
            maximise = (mode == "contract" and seat == view.declarer) or (
                mode == "misere" and seat != view.declarer)
            jobs.append((wi, card, int(maximise), key))
            if key not in memo and key not in pending:
                pending.add(key)
                positions.append(Position(
                    hands=key[0], trick=key[1], leader=key[2], trump=trump, mode=mode,
                    side=key[5], talon_leads=leads))
                keys.append(key)
    if positions:
        try:
            results = solve_moves_batch(positions, threads=threads)
        except ValueError:
            return factors
        for key, res in zip(keys, results, strict=True):
            memo[key] = res
    for wi, card, maximise, key in jobs:
        values = memo.get(key)
        if not values or card not in values:
            continue
        best = max(values.values()) if maximise else min(values.values())
        loss = abs(best - values[card])
        if loss:
            factors[wi] *= SLIP ** min(loss, 2)
    return factors


__all__ = ["SLIP", "play_weights"]
