"""The declarer after the talon: the discard and the contract named.

Both decisions see the same unknown cards (the defenders' twenty), so they share one set of
worlds (:func:`declarer_worlds`, kept in :attr:`.Thinker.declarer_cache`) and every solve:
each world is solved once per kept hand and strain (:func:`solve_declarer`).

- **discard**: every promising pair × strain raced over the worlds: screened on a few, the
  clear losers (compared with the leader world by world) and the weaker half dropped round
  by round, the winner solved on every world;
- **contract**: each legal contract valued on the same worlds, reusing every solve the
  discard made (with :attr:`.Level.play_gap`, by the tricks real play gives).
"""

from __future__ import annotations

import random
from typing import Any

from ..bids import MISERE, Bid
from ..cards import Card, mask_indices
from ..solver import solve_batch
from .clock import FLOOR_WORLDS
from .contract_value import declarer_value
from .evaluation import contract_tricks, discard_candidates, misere_discard_candidates
from .misere import misere_tricks
from .sampling import World, weighted_mean
from .solving import opening_position
from .thinker import Thinker
from .variants import nameable_contracts, rogue_contract_options
from .view import SeatView


def contract_options(view: SeatView) -> list[Bid]:
    """The contracts the declarer may name: the Rogue's item, misère after a misère bid,
    else every contract at or above the bid."""
    bid = view.bid
    rogue = rogue_contract_options(view)
    if rogue is not None:
        return rogue
    if bid is not None and bid.misere:
        return [MISERE]
    out = []
    for b in Bid.ladder():
        if bid is None or b.step >= bid.step:
            out.append(b)
    return out


def declarer_worlds(mind: Thinker, view: SeatView, rng: random.Random) -> dict[str, Any]:
    """The declarer's worlds after the talon, shared by the discard and the contract.

    Both decisions see the same unknown cards (the defenders' twenty), so the worlds drawn
    for the discard and every world already solved there serve the contract choice too.
    """
    held = view.hand | (view.discard if view.phase == "contract" else 0)
    key = ("declarer", view.seat, view.dealer, held, view.talon_mask,
           tuple(view.auction))
    hit = mind.declarer_cache.get(key)
    if hit is None:
        if len(mind.declarer_cache) > 8:
            mind.declarer_cache.clear()
        worlds = mind.sample(view, rng, mind.level.worlds)
        hit = mind.declarer_cache[key] = {"worlds": worlds, "solved": {}}
    return hit


def solve_declarer(mind: Thinker, view: SeatView, entry: dict[str, Any], kept: int,
                   strain: int, indices: list[int]) -> None:
    """Solve the declarer's ``kept`` ten cards in ``strain`` (-1: misère) on those worlds."""
    worlds: list[World] = entry["worlds"]
    values = entry["solved"].setdefault((kept, strain), [None] * len(worlds))
    todo = [i for i in indices if values[i] is None]
    if not todo:
        return
    positions = []
    for i in todo:
        hands = dict(enumerate(worlds[i].hands))
        hands[view.seat] = kept
        if strain < 0:
            positions.append(opening_position(view, hands, mode="misere", side=view.seat,
                                              trump=None))
        else:
            positions.append(opening_position(view, hands, mode="contract", side=view.seat,
                                              trump=strain if strain < 4 else None))
    if strain < 0:
        results = misere_tricks(positions, mind.threads)
    else:
        results = solve_batch(positions, threads=mind.threads)
    for i, v in zip(todo, results, strict=True):
        values[i] = v


def declarer_score(mind: Thinker, view: SeatView, entry: dict[str, Any], kept: int,
                   strain: int, options: list[Bid], indices: list[int],
                   real_play: bool = False) -> tuple[float, Bid | None, list[float]]:
    """The best expected value of ``kept`` in ``strain`` on those worlds, its contract,
    and that contract's value world by world (with ``real_play``, through the gap of
    :mod:`.playgap`)."""
    solve_declarer(mind, view, entry, kept, strain, indices)
    worlds: list[World] = entry["worlds"]
    values = entry["solved"][(kept, strain)]
    weights = [worlds[i].weight for i in indices]
    tricks = [values[i] for i in indices]
    model = mind.model(view)
    tables: dict[Bid, Any] = {}
    if strain < 0:
        row = [declarer_value(mind.rules, model, view, view.seat, MISERE, t, tables)
               for t in tricks]
        return weighted_mean(row, weights), MISERE, row
    best, best_bid, best_row = float("-inf"), None, [0.0] * len(indices)
    for c in options:
        if c.misere or c.strain != strain:
            continue
        row = [declarer_value(mind.rules, model, view, view.seat, c, t, tables,
                              real_play=real_play) for t in tricks]
        v = weighted_mean(row, weights)
        if v > best + 1e-9:
            best, best_bid, best_row = v, c, row
    return best, best_bid, best_row


def discard(mind: Thinker, view: SeatView, rng: random.Random) -> str:
    """Every promising pair × strain raced over the worlds: screened on a few, the clear
    losers (paired against the leader, world by world) and the weaker half dropped round
    by round, the winner solved on every world (and kept for the contract choice)."""
    hand12 = view.hand
    options = contract_options(view)
    entry = declarer_worlds(mind, view, rng)
    worlds: list[World] = entry["worlds"]
    if options == [MISERE]:
        candidates = [(hand12 & ~p, -1) for p in misere_discard_candidates(hand12, keep=6)]
    else:
        strains = sorted({b.strain for b in options},
                         key=lambda s: (-max(contract_tricks(hand12 & ~p, s)
                                             for p in discard_candidates(hand12, s, keep=1)),
                                        -_length(hand12, s)))
        candidates = []
        for s in strains[:3]:
            for p in discard_candidates(hand12, s, keep=mind.level.discard_keep):
                if (hand12 & ~p, s) not in candidates:
                    candidates.append((hand12 & ~p, s))
    n = len(worlds)
    done = min(n, mind.level.screen_worlds)
    solved = 0  # every candidate left is solved on the worlds before this one
    raced: dict[str, tuple[int, float, str | None]] = {}
    while True:
        reached = solved
        for lo, hi in mind.deadline.spans(done - solved, name="discard",
                                          floor=FLOOR_WORLDS - solved):
            span = list(range(solved + lo, solved + hi))
            for kept, s in candidates:
                solve_declarer(mind, view, entry, kept, s, span)
            reached = solved + hi
        cut = reached < done
        done = solved = reached
        indices = list(range(done))
        weights = [worlds[i].weight for i in indices]
        scored = [declarer_score(mind, view, entry, kept, s, options, indices)
                  for kept, s in candidates]
        order = sorted(range(len(candidates)), key=lambda i: -scored[i][0])
        if mind.explaining is not None:  # each discard's latest value, for a hint
            for i in reversed(order):
                token = discard_token(hand12 & ~candidates[i][0])
                value, bid, _ = scored[i]
                if raced.get(token, (0, float("-inf")))[:2] <= (done, value):
                    raced[token] = (done, value, None if bid is None else str(bid))
        if done >= n or cut:
            break
        lead = scored[order[0]][2]
        survivors = [order[0]]
        for i in order[1: max(1, (len(candidates) + 1) // 2)]:
            if not clearly_worse(scored[i][2], lead, weights):
                survivors.append(i)
        candidates = [candidates[i] for i in survivors]
        done = n if len(candidates) <= 2 else min(n, done * 2)
    if mind.explaining is not None:  # a dropped discard: its value where it was dropped
        mind.note("discard", "whists", {k: v[1] for k, v in raced.items()}, done,
                  contracts={k: v[2] for k, v in raced.items()},
                  option_worlds={k: v[0] for k, v in raced.items()})
    return discard_token(hand12 & ~candidates[order[0]][0])


def contract(mind: Thinker, view: SeatView, rng: random.Random) -> str:
    """The contract named: each legal one valued on the discard's worlds (the strains the
    discard solved first, then the evaluation's best), the best taken."""
    chosen, options = nameable_contracts(view)
    if chosen is not None:
        return chosen
    if not options:
        return view.legal[0]
    entry = declarer_worlds(mind, view, rng)
    hand = view.hand
    solved = {s for (kept, s) in entry["solved"] if kept == hand}
    strains = sorted({b.strain for b, _ in options},
                     key=lambda s: (s not in solved, -contract_tricks(hand, s),
                                    -_length(hand, s)))
    strains = strains[: max(mind.level.contract_strains, len(solved))]
    reached = 0
    for lo, hi in mind.deadline.spans(len(entry["worlds"]), name="contract"):
        for s in strains:
            solve_declarer(mind, view, entry, hand, s, list(range(lo, hi)))
        reached = hi
    indices = list(range(reached))
    bids = [b for b, _ in options]
    best_bid, best_value = options[0][0], float("-inf")
    noted: dict[str, float] = {}
    for s in strains:
        value, bid, _ = declarer_score(mind, view, entry, hand, s, bids, indices,
                                       real_play=mind.level.play_gap)
        if bid is not None:
            noted[next(t for b, t in options if b == bid)] = value
        if bid is not None and value > best_value + 1e-9:
            best_bid, best_value = bid, value
    mind.note("contract", "whists", noted, reached)
    return next(t for b, t in options if b == best_bid)


def solved_tricks(mind: Thinker, kept: int, strain: int) -> list[tuple[int, float]] | None:
    """The declarer's tricks with ``kept`` in ``strain`` (-1: misère) and their weights,
    world by world, where the discard and the contract solved it on every world."""
    for entry in mind.declarer_cache.values():
        solved = entry["solved"].get((kept, strain))
        if solved and all(v is not None for v in solved):
            return [(t, w.weight) for t, w in zip(solved, entry["worlds"], strict=True)]
    return None


def discard_token(pair: int) -> str:
    """``DISCARD`` and the two cards of ``pair`` (a mask), lowest first."""
    cards = sorted(Card.from_index(i) for i in mask_indices(pair))
    return "DISCARD " + " ".join(str(c) for c in cards)


def _length(hand: int, strain: int) -> int:
    """Cards held in a suit (0 for no trump): the tie-break between equal strains."""
    return (hand >> (8 * strain) & 0xFF).bit_count() if strain < 4 else 0


def clearly_worse(row: list[float], lead: list[float], weights: list[float],
                  z: float = 2.0) -> bool:
    """Whether ``row`` trails ``lead`` by more than ``z`` standard errors, world by world.

    >>> clearly_worse([0, 0, 0, 0], [2, 3, 2, 3], [1, 1, 1, 1])
    True
    >>> clearly_worse([2, 0, 3, 1], [0, 2, 1, 3], [1, 1, 1, 1])
    False
    """
    total = sum(weights)
    if total <= 0 or len(row) < 4:
        return False
    diffs = [a - b for a, b in zip(row, lead, strict=True)]
    mean = sum(d * w for d, w in zip(diffs, weights, strict=True)) / total
    var = sum(w * (d - mean) ** 2 for d, w in zip(diffs, weights, strict=True)) / total
    se = (var / len(row)) ** 0.5
    return mean + z * se < 0 if se > 0 else mean < 0
