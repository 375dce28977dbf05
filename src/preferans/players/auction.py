"""The auction: whether to bid on, what the bid is worth, and what passing is.

The analysis is made once per deal and seat (:func:`bid_analysis`, kept in
:attr:`.Thinker.bid_cache`) and reused by every later call of the auction: on the bidding
worlds, the hand's tricks with the talon (imagined too) in its best strain (and the second best
when the evaluation puts it close) with a good discard per world; misère screened by the
solver's fast test (:mod:`.misere`); with :attr:`.Level.rival_in_pass`, the rival's contract;
with :attr:`.Level.allpass_solved`, the all-pass (:mod:`.allpass`).  Each contract is valued by
:func:`.contract_value.declarer_value`; the seat bids while some contract at or above the bid
beats passing.  Classical's hand bids and blind calls are in :mod:`.variant_calls`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..bids import MISERE, Bid
from ..cards import Suit
from ..solver import solve_batch
from .allpass import ALLPASS_KEY, ALLPASS_WORLDS, allpass_in_bidding, allpass_opening, allpass_worth
from .contract_value import DECLARER_TRUST, declarer_value
from .evaluation import best_strain, contract_tricks, discard_candidates, misere_danger
from .misere import misere_openings, misere_tricks
from .sampling import World, weighted_mean
from .solving import opening_position
from .thinker import Thinker
from .utility import ScoreModel
from .view import SeatView

STRAIN_MARGIN = 1.5
"""The bidding analysis solves the second-best strain only when its estimate is this close."""


def bid_analysis(mind: Thinker, view: SeatView, rng: random.Random) -> dict[str, Any]:
    """The bidding worlds solved, once per deal and seat: their ``weights``, the hand's
    ``tricks`` per strain, the ``rival``'s (seat, strain, tricks) per world, the ``misere``
    tricks (and ``misere_weights``) and the ``allpass`` tricks, each ``None`` where not
    solved."""
    rivals = rivals_of(mind, view)
    key = (view.seat, view.dealer, view.hand, view.allpass_streak, view.min_bid, rivals)
    hit = mind.bid_cache.get(key)
    if hit is not None:
        return hit
    if len(mind.bid_cache) > 64:
        mind.bid_cache.clear()
    worlds = mind.sample(view, rng, mind.level.bid_worlds)
    hand = view.hand
    ranked = sorted(range(5), key=lambda s: -contract_tricks(hand, s))
    strains = ranked[:1]
    if contract_tricks(hand, ranked[1]) >= contract_tricks(hand, ranked[0]) - STRAIN_MARGIN:
        strains.append(ranked[1])  # a cheap screen: a clearly weaker strain is not solved
    tricks: dict[int, list[int]] = {s: [0] * len(worlds) for s in strains}
    rival: list[tuple[int, int, int]] = [(0, 0, 0)] * len(worlds)
    """Per world: the rival seat, its strain and its double-dummy tricks."""
    allpass = allpass_in_bidding(mind.level, mind.rules, view)
    allpass_tricks_dd = [0] * len(worlds)
    used = 0
    for lo, hi in mind.deadline.spans(len(worlds), name="bid"):
        positions = []
        index: list[tuple[int, int]] = []
        for wi in range(lo, hi):
            w = worlds[wi]
            hand12 = hand | w.extra
            for s in strains:
                pair = discard_candidates(hand12, s, keep=1, pruned=True)[0]
                hands = dict(enumerate(w.hands))
                hands[view.seat] = hand12 & ~pair
                positions.append(opening_position(
                    view, hands, mode="contract", side=view.seat,
                    trump=s if s < 4 else None))
                index.append((wi, s))
            if rivals:
                seat, s, hands = rival_hands(w, rivals)
                positions.append(opening_position(
                    view, hands, mode="contract", side=seat, trump=s if s < 4 else None))
                index.append((wi, -1 - seat * 8 - s))
            if allpass and wi < ALLPASS_WORLDS:
                positions.append(allpass_opening(view, w, mind.rules))
                index.append((wi, ALLPASS_KEY))
        values = solve_batch(positions, threads=mind.threads) if positions else []
        for (wi, s), v in zip(index, values, strict=True):
            if s == ALLPASS_KEY:
                allpass_tricks_dd[wi] = v
            elif s < 0:
                code = -1 - s
                rival[wi] = (code // 8, code % 8, v)
            else:
                tricks[s][wi] = v
        used = hi
    worlds = worlds[:used]
    tricks = {s: t[:used] for s, t in tricks.items()}
    misere_counts: list[int] | None = None
    if not mind.level.solve_misere_bids and misere_danger(hand) < 0.4:
        misere_counts = [0] * len(worlds)
    elif mind.level.solve_misere_bids and misere_danger(hand) < 1.3:
        misere_counts = misere_tricks(
            misere_openings(view, hand, worlds), mind.threads,
            exact=max(8, len(worlds) // 4), deadline=mind.deadline)
    result = {
        "weights": [w.weight for w in worlds],
        "tricks": tricks,
        "rival": rival[:used] if rivals else None,
        "misere": misere_counts,
        "misere_weights": [w.weight for w in worlds][: len(misere_counts or ())],
        "allpass": allpass_tricks_dd[:min(used, ALLPASS_WORLDS)] if allpass else None,
    }
    mind.bid_cache[key] = result
    return result


def auction(mind: Thinker, view: SeatView, rng: random.Random) -> str:
    """The call: a bid while some contract at or above it beats passing, misère when it
    beats both by a whist."""
    legal = view.legal
    analysis = bid_analysis(mind, view, rng)
    model = mind.model(view)
    weights = analysis["weights"]
    tables: dict[Bid, list[float]] = {}
    # value of each contract (level, strain) analysed
    values: dict[Bid, float] = {}
    for s, tr in analysis["tricks"].items():
        for level in range(6, 11):
            contract = Bid(level, None if s == 4 else suit_of(s))
            values[contract] = weighted_mean(
                [declarer_value(mind.rules, model, view, view.seat, contract, t, tables,
                                response=mind.level.whist_response)
                 for t in tr],
                weights,
            )
    misere_value = None
    if analysis["misere"] is not None and "MISERE" in legal:
        misere_value = weighted_mean(
            [declarer_value(mind.rules, model, view, view.seat, MISERE, t, tables)
             for t in analysis["misere"]],
            analysis["misere_weights"],
        )
    passing = pass_value(mind, view, model, analysis)
    bids = []
    for token in legal:
        if token.upper() in ("PASS", "MISERE"):
            continue
        try:
            bids.append((Bid.parse(token), token))
        except ValueError:
            continue
    bids.sort(key=lambda bt: bt[0].step)
    if mind.explaining is not None:
        _note_auction(mind, legal, values, misere_value, passing, bids, len(weights))
    best_contract = max(values.values()) if values else float("-inf")
    if misere_value is not None and misere_value > max(best_contract, passing) + 1.0:
        return "MISERE"
    for bid, token in bids:
        reachable = [v for c, v in values.items() if c.step >= bid.step]
        if reachable and max(reachable) > passing:
            return token
        break
    return "PASS" if "PASS" in legal else legal[0]


def _note_auction(mind: Thinker, legal: list[str], values: dict[Bid, float],
                  misere_value: float | None, pass_value: float,
                  bids: list[tuple[Bid, str]], worlds: int) -> None:
    """The auction's values for an explanation: PASS, the lowest bid (worth the best
    contract at or above it, which is what bidding on aims at), MISERE; and the best
    contracts themselves."""
    noted: dict[str, float] = {}
    passes = [t for t in legal if t.upper() == "PASS"]
    if passes:
        noted[passes[0]] = pass_value
    every = dict(noted)  # every legal bid: the best contract it can still reach
    for bid, token in bids:
        reach = [v for c, v in values.items() if c.step >= bid.step]
        if reach:
            every[token] = max(reach)
    if bids and bids[0][1] in every:
        noted[bids[0][1]] = every[bids[0][1]]
    if misere_value is not None:
        misere = next(t for t in legal if t.upper() == "MISERE")
        noted[misere] = every[misere] = misere_value
    top = sorted(values.items(), key=lambda cv: (-cv[1], cv[0].step))[:3]
    mind.note("bid", "whists", noted, worlds, every=every,
              contracts={str(c): v for c, v in top}, misere_margin=1.0)


def pass_value(mind: Thinker, view: SeatView, model: ScoreModel,
               analysis: Mapping[str, Any] | None = None) -> float:
    """What passing is worth: an all-pass risk when nobody has bid yet, else about 0.

    With :attr:`Level.rival_in_pass` (and the rival solved in ``analysis``), world by
    world: after a bid, what the highest bidder's contract is worth to this seat (worlds
    where it fails weigh less, as in the whist decision: a bidder seldom bids what it
    cannot make); before any bid, that of the strongest other hand when it makes six
    tricks double dummy, else the all-pass.
    """
    passed = {s for s, t in view.auction if t.upper() == "PASS"}
    others = [s for s in view.active_seats
              if s != view.seat and s not in passed and s != view.dummy]
    bids_made = [t for s, t in view.auction if t.upper() != "PASS"]
    rivals = rivals_of(mind, view)
    rival = analysis.get("rival") if analysis and rivals is not None else None
    if bids_made and not rival:
        return 0.0
    allpass = allpass_worth(view, model, analysis)
    if not rival or rivals is None:
        return mind.level.allpass_chance ** len(others) * allpass
    level = rivals[0]
    tables: dict[int, dict[Bid, list[float]]] = {}
    values: list[float] = []
    weights: list[float] = []
    for (seat, strain, t), weight in zip(rival, analysis["weights"], strict=False):
        if not bids_made and t < level:
            values.append(allpass)
            weights.append(weight)
            continue
        contract = Bid(level, None if strain == 4 else suit_of(strain))
        values.append(declarer_value(mind.rules, model, view, seat, contract, t,
                                     tables.setdefault(seat, {})))
        weights.append(weight * DECLARER_TRUST ** max(0, level - t) if bids_made
                       else weight)
    return weighted_mean(values, weights)


def rivals_of(mind: Thinker, view: SeatView) -> tuple[int, tuple[int, ...]] | None:
    """Who would declare if this seat passed: (the level, the candidate seats): the
    highest bidder at its bid, or before any bid every other seat still bidding at the
    lowest level.  ``None`` where the level does not model it or the deal is not a
    plain three-hand auction (misère bid, variants)."""
    if (not mind.level.rival_in_pass or view.players != 3 or view.dummy is not None
            or view.extras or mind.rules.players != 3):
        return None
    bids = [(s, t) for s, t in view.auction if t.upper() != "PASS"]
    if bids:
        seat, token = bids[-1]
        try:
            bid = Bid.parse(token)
        except ValueError:
            return None
        if bid.misere or seat == view.seat:
            return None
        return bid.level, (seat,)
    passed = {s for s, t in view.auction if t.upper() == "PASS"}
    others = tuple(s for s in range(3) if s != view.seat and s not in passed)
    return (6, others) if others else None


def rival_hands(w: World, rivals: tuple[int, tuple[int, ...]]
                ) -> tuple[int, int, dict[int, int]]:
    """The rival who would declare in world ``w`` (of the candidates, the one whose hand
    with the talon the evaluation rates highest), its strain and the hands after its
    discard."""
    best: tuple[float, int, int] | None = None
    for seat in rivals[1]:
        hand12 = w.hands[seat] | w.extra
        strain = best_strain(hand12)
        estimate = contract_tricks(hand12, strain)
        if best is None or estimate > best[0]:
            best = (estimate, seat, strain)
    assert best is not None
    _, seat, strain = best
    hand12 = w.hands[seat] | w.extra
    pair = discard_candidates(hand12, strain, keep=1, pruned=True)[0]
    hands = dict(enumerate(w.hands))
    hands[seat] = hand12 & ~pair
    return seat, strain, hands


def suit_of(strain: int) -> Suit:
    """The suit of a strain 0..3."""
    return Suit(strain)
