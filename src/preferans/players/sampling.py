"""Imagined deals ("worlds"): the unseen cards placed consistently with what a seat saw.

A world gives every active seat its current hand and the hidden two-card slot
(the talon before it is shown, the declarer's discard as a defender sees it, the
unturned talon of an all-pass).  Worlds respect everything the seat has seen:

- its own hand, the talon once shown, the played cards, exposed hands, its own discard;
- hand sizes;
- voids shown by not following suit or not trumping;
- the talon cards a declarer took stay with the declarer (in hand or in the discard).

Worlds are then *weighted* by how well they explain what the others said: a player
who passed at once seldom holds a cold seven, a whister likely holds tricks, a
declarer's contract fits its hand (see :func:`call_log_likelihood`).  When only a
few worlds remain they are all enumerated.

>>> import random
>>> from preferans.players.view import SeatView
>>> obs = {"seat": 0, "players": ["A", "B", "C"], "dealer": 2, "phase": "auction",
...        "hand": ["AS", "KS", "QS", "JS", "10S", "9S", "AH", "KH", "AD", "7C"],
...        "hand_sizes": [10, 10, 10], "auction": [], "legal": ["6S", "PASS"]}
>>> worlds = Sampler(SeatView.from_observation(obs), random.Random(1)).sample(5)
>>> len(worlds), all(w.hands[0] == worlds[0].hands[0] for w in worlds)
(5, True)
>>> all(bin(w.hands[1]).count("1") == 10 and bin(w.extra).count("1") == 2 for w in worlds)
True
"""

from __future__ import annotations

import json
import math
import random
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from ..bids import Bid
from ..cards import mask_indices
from .evaluation import allpass_tricks, contract_tricks, defence_tricks, misere_danger
from .view import SeatView

FULL = 0xFFFFFFFF
STOP_EVERY = 8
"""Candidate worlds drawn between two questions to a sample's ``stop``."""


@dataclass
class World:
    """One imagined deal: ``hands[seat]`` now, the hidden slot ``extra``, and a weight."""

    hands: list[int]
    extra: int
    weight: float = 1.0

    def key(self) -> tuple[int, ...]:
        return (*self.hands, self.extra)


class Sampler:
    """Deals the unseen cards of one seat's view into worlds.

    ``locations`` are the seats whose hands are hidden from this seat, plus the
    hidden slot (index ``-1``); each has a size and a mask of cards it may hold.
    """

    def __init__(self, view: SeatView, rng: random.Random) -> None:
        self.view = view
        self.rng = rng
        n = view.players
        me = view.seat
        fixed = [0] * n
        fixed[me] = view.hand
        for seat, mask in view.exposed.items():
            if 0 <= seat < n:
                fixed[seat] = mask
        self.fixed = fixed
        known = view.known
        talon_with_declarer = 0
        declarer = view.declarer
        if view.talon and declarer is not None and declarer != me and not view.is_allpass:
            talon_with_declarer = view.talon_mask & ~view.played & ~fixed[declarer]
            known &= ~talon_with_declarer
        elif view.talon:
            known |= view.talon_mask
        self.unknown = FULL & ~known
        self.talon_with_declarer = talon_with_declarer
        locs: list[tuple[int, int, int]] = []  # (seat or -1, size, allowed)
        assigned = 0
        for seat in view.active_seats:
            if seat == me or seat in view.exposed:
                continue
            size = view.hand_sizes[seat] if seat < len(view.hand_sizes) else 0
            allowed = self.unknown & ~view.void_mask(seat)
            if seat != declarer:
                allowed &= ~talon_with_declarer
            locs.append((seat, size, allowed))
            assigned += size
        extra = self.unknown.bit_count() - assigned
        if extra < 0:
            raise ValueError(
                f"seat {me} in {view.phase}: the hands hold more cards than are unseen "
                f"({assigned} > {self.unknown.bit_count()})"
            )
        if extra:
            locs.append((-1, extra, self.unknown))
        self.locations = locs
        self.affinity = [card_affinity(view, seat) for seat, _, _ in locs]
        self._hall: tuple[dict[int, int], list[int], list[list[int]], list[list[int]]] | None = None
        self._biased = any(any(a != 1.0 for a in aff) for aff in self.affinity)

    # --- counting and enumeration ------------------------------------------------------------
    def count_upper_bound(self) -> int:
        """The number of worlds ignoring voids (an upper bound)."""
        total = self.unknown.bit_count()
        count = 1
        for _, size, _ in self.locations:
            count *= math.comb(total, size)
            total -= size
        return count

    def enumerate(self, limit: int) -> list[World] | None:
        """Every world, or ``None`` when there are more than ``limit``."""
        if self.count_upper_bound() > limit * 20:
            return None
        out: list[World] = []
        locs = self.locations

        def rec(i: int, remaining: int, chosen: list[int]) -> bool:
            if i == len(locs):
                out.append(self._make(chosen))
                return len(out) <= limit
            _, size, allowed = locs[i]
            pool = mask_indices(remaining & allowed)
            if i == len(locs) - 1:
                if (remaining & ~allowed) or remaining.bit_count() != size:
                    return True
                return rec(i + 1, 0, [*chosen, remaining])
            for combo in combinations(pool, size):
                m = sum(1 << c for c in combo)
                if not rec(i + 1, remaining & ~m, [*chosen, m]):
                    return False
            return True

        if not locs:
            return [self._make([])]
        if not rec(0, self.unknown, []) or len(out) > limit:
            return None
        return out

    def _make(self, masks: list[int]) -> World:
        hands = list(self.fixed)
        extra = 0
        for (seat, _, _), m in zip(self.locations, masks, strict=True):
            if seat < 0:
                extra = m
            else:
                hands[seat] = m
        return World(hands, extra)

    # --- random worlds ------------------------------------------------------------------------
    def _hall_tables(
        self,
    ) -> tuple[dict[int, int], list[int], list[list[int]], list[list[int]]]:
        """Per card the locations it fits (a bit pattern), and the set tables of Hall's test."""
        if self._hall is not None:
            return self._hall
        locs = self.locations
        k = len(locs)
        full = (1 << k) - 1
        patterns = {}
        for c in mask_indices(self.unknown):
            pat = 0
            for j, (_, _, allowed) in enumerate(locs):
                if allowed >> c & 1:
                    pat |= 1 << j
            if pat == 0:
                raise ValueError(f"card index {c} fits no hidden hand: inconsistent observation")
            patterns[c] = pat
        supersets = [[sub for sub in range(1, full + 1) if pat & ~sub == 0]
                     for pat in range(1 << k)]
        need = [0] * (1 << k)
        for pat in patterns.values():
            for sub in supersets[pat]:
                need[sub] += 1
        holding = [[sub for sub in range(1, full + 1) if sub >> j & 1] for j in range(k)]
        self._hall = (patterns, need, supersets, holding)
        return self._hall

    def deal_one(self) -> World:
        """One random world: cards placed most-constrained first, never into a dead end."""
        locs = self.locations
        if not locs:
            return self._make([])
        k = len(locs)
        caps = [size for _, size, _ in locs]
        cards = mask_indices(self.unknown)
        if not self._biased and all(allowed == self.unknown for _, _, allowed in locs):
            self.rng.shuffle(cards)
            masks, start = [], 0
            for size in caps:
                masks.append(sum(1 << c for c in cards[start : start + size]))
                start += size
            return self._make(masks)
        patterns, need0, supersets, holding = self._hall_tables()
        full = (1 << k) - 1
        need = list(need0)
        room = [sum(caps[j] for j in range(k) if sub >> j & 1) for sub in range(1 << k)]
        constrained = any(allowed != self.unknown for _, _, allowed in locs)
        affinity = self.affinity

        def place(j: int, sign: int) -> None:
            caps[j] -= sign
            for sub in holding[j]:
                room[sub] -= sign

        def feasible() -> bool:
            return all(need[sub] <= room[sub] for sub in range(1, full + 1))

        rng = self.rng
        random_ = rng.random
        rng.shuffle(cards)
        cards.sort(key=lambda c: patterns[c].bit_count())
        masks = [0] * k
        for c in cards:
            pat = patterns[c]
            for sub in supersets[pat]:
                need[sub] -= 1
            options = [j for j in range(k) if pat >> j & 1 and caps[j] > 0]
            while True:
                if len(options) == 1:
                    j = options[0]
                else:
                    weights = [caps[i] * affinity[i][c] for i in options]
                    r = random_() * sum(weights)
                    j = options[-1]
                    for i, w in zip(options, weights, strict=True):
                        r -= w
                        if r < 0:
                            j = i
                            break
                place(j, 1)
                if len(options) == 1 or not constrained or feasible():
                    break
                place(j, -1)
                options.remove(j)
            masks[j] |= 1 << c
        return self._make(masks)

    def sample(self, n: int, *, oversample: int = 3, weighted: bool = True,
               stop: Callable[[], bool] | None = None, floor: int = 16) -> list[World]:
        """About ``n`` worlds with weights; every world when there are at most ``n``.

        Draws ``oversample × n`` candidates, weighs them by the calls of the other
        seats and resamples ``n`` in proportion (duplicates merge into one heavier world).
        ``stop``: asked every :data:`STOP_EVERY` candidates once ``floor`` worlds' worth
        are drawn; when it says so, no more are drawn and the worlds are resampled from
        those (about one per ``oversample`` candidates).  The random draws are the same
        as without it up to that point, so a ``stop`` that never fires changes nothing.
        """
        every = self.enumerate(n)
        if every is not None:
            if weighted:
                for w in every:
                    w.weight = math.exp(call_log_likelihood(self.view, w))
                _normalise(every)
            return every
        if not weighted or not self._informative():
            worlds = []
            for i in range(n):
                if stop is not None and i >= floor and i % STOP_EVERY == 0 and stop():
                    break
                worlds.append(self.deal_one())
            return _merge(worlds)
        candidates: list[World] = []
        logs: list[float] = []
        for i in range(n * oversample):
            if (stop is not None and i >= floor * oversample and i % STOP_EVERY == 0
                    and stop()):
                n = max(1, -(-i // oversample))
                break
            w = self.deal_one()
            candidates.append(w)
            logs.append(call_log_likelihood(self.view, w))
        top = max(logs)
        weights = [math.exp(x - top) for x in logs]
        total = sum(weights)
        picked: list[World] = []
        step = total / n
        u = self.rng.random() * step
        acc = 0.0
        i = 0
        for w, c in zip(weights, candidates, strict=True):
            acc += w
            while u < acc and i < n:
                picked.append(World(list(c.hands), c.extra))
                u += step
                i += 1
        return _merge(picked)

    def _informative(self) -> bool:
        v = self.view
        return any(s != v.seat for s, _ in v.auction) or any(s != v.seat for s, _ in v.defence)


def _normalise(worlds: list[World]) -> None:
    total = sum(w.weight for w in worlds)
    if total <= 0:
        for w in worlds:
            w.weight = 1.0
        return
    scale = len(worlds) / total
    for w in worlds:
        w.weight *= scale


def _merge(worlds: list[World]) -> list[World]:
    seen: dict[tuple[int, ...], World] = {}
    for w in worlds:
        key = w.key()
        if key in seen:
            seen[key].weight += w.weight
        else:
            seen[key] = w
    return list(seen.values())


# --- what the calls say ----------------------------------------------------------------------
def _log_sigmoid(x: float) -> float:
    if x >= 0:
        return -math.log1p(math.exp(-x))
    return x - math.log1p(math.exp(x))


SHARPNESS = 1.6


def original_hand(view: SeatView, world: World, seat: int) -> int:
    """``seat``'s ten cards as dealt, in this world (the declarer's talon taken back out)."""
    hand = world.hands[seat] | view.played_by[seat]
    if seat == view.declarer and not view.is_allpass:
        discard = view.discard if seat == view.seat else world.extra
        hand |= discard
        hand &= ~view.talon_mask
    return hand


def card_affinity(view: SeatView, seat: int) -> list[float]:
    """How much likelier than average each card is in ``seat``'s hand (``-1``: the hidden slot),
    from the calls: a declarer holds trumps and aces, a discard holds low side cards."""
    aff = [1.0] * 32
    contract = view.contract
    declarer = view.declarer
    if seat == -1:
        if declarer is not None and declarer != view.seat and contract is not None:
            for c in range(32):
                rank, suit = c & 7, c >> 3
                if contract.misere:
                    aff[c] = 0.4 if rank <= 2 else 1.0 + 0.3 * (rank - 2)
                else:
                    aff[c] = 0.3 if contract.trump is not None and suit == int(contract.trump) \
                        else (0.4 if rank >= 6 else 1.0 + 0.1 * (5 - rank))
        return aff
    if seat == declarer and contract is not None:
        if contract.misere:
            for c in range(32):
                rank = c & 7
                aff[c] = 1.8 if rank <= 2 else (0.5 if rank >= 5 else 1.0)
            return aff
        boost = contract.level - 5
        for c in range(32):
            rank, suit = c & 7, c >> 3
            if contract.trump is not None and suit == int(contract.trump):
                aff[c] *= 1.0 + 0.45 * boost
            if rank == 7:
                aff[c] *= 1.0 + 0.35 * boost
            elif rank == 6:
                aff[c] *= 1.0 + 0.15 * boost
        return aff
    highest: Bid | None = None
    first_call: str | None = None
    for s, token in view.auction:
        if s != seat:
            continue
        if first_call is None:
            first_call = token.upper()
        if token.upper() != "PASS":
            try:
                bid = Bid.parse(token)
            except ValueError:
                continue
            highest = bid
    if highest is not None and highest.misere:
        for c in range(32):
            aff[c] = 1.4 if (c & 7) <= 2 else (0.7 if (c & 7) >= 5 else 1.0)
    elif highest is not None:
        for c in range(32):
            if highest.trump is not None and c >> 3 == int(highest.trump):
                aff[c] *= 1.5
            if c & 7 == 7:
                aff[c] *= 1.4
    elif first_call == "PASS":
        for c in range(32):
            if c & 7 == 7:
                aff[c] *= 0.85
    for s, token in view.defence:
        if s == seat and token.upper() == "WHIST":
            for c in range(32):
                if c & 7 >= 6:
                    aff[c] *= 1.4
    return aff


def call_log_likelihood(view: SeatView, world: World) -> float:
    """How well this world explains the other seats' auction calls, contract and defence calls."""
    total = 0.0
    me = view.seat
    best: dict[int, float] = {}
    highest: Bid | None = None
    bidders_pass: dict[int, bool] = {}

    def strength(seat: int) -> float:
        if seat not in best:
            hand = original_hand(view, world, seat)
            best[seat] = max(contract_tricks(hand, s) for s in range(5)) + 0.5
        return best[seat]

    for seat, token in view.auction:
        if token.upper() == "PASS":
            if seat != me:
                level = highest.level if highest is not None and not highest.misere else 5
                if bidders_pass.get(seat):
                    total += _log_sigmoid(SHARPNESS * (level + 1.5 - strength(seat)))
                else:
                    total += _log_sigmoid(SHARPNESS * (max(level, 5) + 0.6 - strength(seat)))
            continue
        try:
            bid = Bid.parse(token)
        except ValueError:
            continue
        if seat != me:
            if bid.misere:
                hand = original_hand(view, world, seat)
                total += _log_sigmoid(2.0 * (1.2 - misere_danger(hand)))
            else:
                total += _log_sigmoid(SHARPNESS * (strength(seat) + 0.8 - bid.level))
        bidders_pass[seat] = True
        if not bid.misere:
            highest = bid
    declarer = view.declarer
    contract = view.contract
    if declarer is not None and declarer != me and contract is not None:
        hand10 = world.hands[declarer] | view.played_by[declarer]
        if contract.misere:
            total += _log_sigmoid(2.0 * (1.5 - misere_danger(hand10)))
        else:
            est = contract_tricks(hand10, contract.strain)
            total += _log_sigmoid(2.5 * (est + 1.0 - contract.level))
    if contract is not None and not contract.misere:
        trump = None if contract.trump is None else int(contract.trump)
        need = {6: 2.0, 7: 1.0}.get(contract.level, 0.7)
        for seat, token in view.defence:
            if seat == me:
                continue
            hand = original_hand(view, world, seat)
            d = defence_tricks(hand, trump)
            t = token.upper()
            if t == "WHIST":
                total += _log_sigmoid(SHARPNESS * (d + 0.6 - need))
            elif t == "PASS":
                total += _log_sigmoid(0.8 * (need + 0.8 - d))
    if view.is_allpass and view.tricks:
        pass  # all-pass play reveals itself through voids
    return total


def expected_allpass_tricks(hand: int) -> float:
    """Re-exported for players: rough all-pass tricks of a hand."""
    return allpass_tricks(hand)


_NOT_SEEDED = frozenset({"sheet", "players"})
"""Observation fields left out of a decision's seed: the sheet, and the players' names, so
that renaming a player (``hard`` as ``hard/worlds=100`` in a match) changes no one's
draws and two matches of the same seed stay paired wherever their decisions agree."""


def decision_rng(seed: int, observation: Mapping[str, Any]) -> random.Random:
    """The random draws of one decision: seeded from the player's seed and the observation
    less :data:`_NOT_SEEDED` (the same observation always draws the same worlds).

    >>> obs = {"seat": 0, "players": ["a", "b", "c"], "hand": ["AS"]}
    >>> a = decision_rng(1, obs).random()
    >>> a == decision_rng(1, {**obs, "players": ["x", "y", "z"]}).random()
    True
    """
    digest = zlib.crc32(
        json.dumps({k: v for k, v in observation.items() if k not in _NOT_SEEDED},
                   sort_keys=True).encode()
    )
    return random.Random(seed * 1_000_003 + digest)


def weighted_mean(values: list[float], weights: list[float]) -> float:
    """The mean of ``values`` (one a world) by the worlds' ``weights`` (0 when they weigh
    nothing).

    >>> weighted_mean([1.0, 4.0], [3.0, 1.0])
    1.75
    """
    total = sum(weights)
    return sum(v * w for v, w in zip(values, weights, strict=True)) / total if total else 0.0
