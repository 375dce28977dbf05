"""The Monte Carlo player's calls in the structural variants, solved on imagined deals
(the choices themselves, given the tricks, are :mod:`.variants`'):

- the Rogue's naming (:func:`name_item`): each list item's value now against its value on a
  later deal (:func:`rogue_baseline`, random hands solved once per process);
- Classical's hand bid over a misère (:func:`hand_bid`) and the soloist's invitation of the
  dealer (:func:`invite`);
- the two-player defence with the dummy (:func:`two_player_defence`).

Normal judges all of them by the evaluation instead of solving.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from ..solver import misere_can_take_none, solve_batch
from .clock import Deadline
from .contract_value import DECLARER_TRUST
from .declarer import solved_tricks
from .evaluation import contract_tricks, defence_tricks, discard_candidates
from .misere import misere_openings, misere_tricks
from .sampling import weighted_mean
from .solving import opening_position, solve_openings
from .thinker import Thinker
from .twohand import two_hand_tricks
from .variants import (
    Profile,
    alone_allowed,
    alone_profile,
    choose_two_player,
    evaluation_baseline,
    evaluation_clean,
    evaluation_make,
    evaluation_profile,
    hand_bid_choice,
    invite_choice,
    open_profile_estimate,
    rogue_copies,
    rogue_item,
    rogue_scores,
    two_player_values,
)
from .view import SeatView

NAME_WORLDS = 64
"""At most this many worlds for the Rogue's naming (five strains and misère on each)."""
BASELINE_SOLVED_HANDS = 48
"""Random hands solved once per process for the Rogue items' later value (Hard, Crazy)."""
BASELINE_WORLDS = 4
"""Worlds per random hand of that baseline."""
_BASELINES: dict[tuple[Any, ...], list[Profile]] = {}


def name_item(mind: Thinker, view: SeatView, rng: random.Random) -> str:
    """The Rogue: name the list item with the best value now against its value later."""
    legal = view.legal
    model = mind.model(view)
    if mind.level.name == "normal":
        profile = evaluation_profile(view.hand)
        baseline = evaluation_baseline(mind.rules)
    else:
        keys = {rogue_item(t)[2] for t in legal if _is_item(t)}
        n = max(8, min(NAME_WORLDS, mind.level.bid_worlds // 2))
        profile = rogue_profile(mind, view, rng, keys, n)
        baseline = rogue_baseline(mind, view)
    items_left, copies = rogue_copies(view)
    scores = rogue_scores(mind.rules, model, view.seat, legal, profile, baseline,
                          items_left, copies)
    if not scores:
        return legal[0]
    worlds = len(next(iter(profile.values()), ())) if profile else 0
    mind.note("name", "whists", {t: v for t, v in scores.items() if t in legal}, worlds)
    return max(legal, key=lambda t: scores.get(t, float("-inf")))


def rogue_profile(mind: Thinker, view: SeatView, rng: random.Random, keys: set[Any], n: int,
                  *, clocked: bool = True) -> Profile:
    """The soloist's tricks in each strain the items need, solved on ``n`` worlds: the
    talon imagined and taken, a good discard per strain, ``any`` in the strain the
    evaluation prefers after the discard, misère with its own discard.  ``clocked``:
    on the decision's clock (not for the baseline every later decision shares)."""
    deadline = mind.deadline if clocked else Deadline(None)
    worlds = mind.sample(view, rng, n)
    hand = view.hand
    strains = sorted({k for k in keys if isinstance(k, int)} | (
        set(range(5)) if "any" in keys else set()))
    best: list[int] = []
    tricks = {s: [0] * len(worlds) for s in strains}
    used = 0
    for lo, hi in deadline.spans(len(worlds), name="rogue"):
        positions = []
        index: list[tuple[int, int]] = []
        for wi in range(lo, hi):
            w = worlds[wi]
            hand12 = hand | w.extra
            kept_est = {}
            for s in strains:
                pair = discard_candidates(hand12, s, keep=1, pruned=True)[0]
                hands = dict(enumerate(w.hands))
                hands[view.seat] = hand12 & ~pair
                kept_est[s] = contract_tricks(hand12 & ~pair, s)
                positions.append(opening_position(
                    view, hands, mode="contract", side=view.seat,
                    trump=s if s < 4 else None))
                index.append((wi, s))
            best.append(max(kept_est, key=lambda s: kept_est[s]) if kept_est else 0)
        values = solve_batch(positions, threads=mind.threads) if positions else []
        for (wi, s), v in zip(index, values, strict=True):
            tricks[s][wi] = v
        used = hi
    worlds = worlds[:used]
    tricks = {s: t[:used] for s, t in tricks.items()}
    weights = [w.weight for w in worlds]
    profile: Profile = {s: list(zip(tricks[s], weights, strict=True)) for s in strains}
    if "any" in keys:
        profile["any"] = [(tricks[best[i]][i], weights[i]) for i in range(len(worlds))]
    if "misere" in keys:
        mpos = misere_openings(view, hand, worlds)
        mt = misere_tricks(mpos, mind.threads, exact=max(4, len(mpos) // 4),
                           deadline=deadline)
        profile["misere"] = list(zip(mt, weights[: len(mt)], strict=True))
    return profile


def rogue_baseline(mind: Thinker, view: SeatView) -> list[Profile]:
    """Solved profiles of random hands (once per process and table shape): what an item
    can expect on a later deal, measured the way this hand is."""
    key = (view.players,)
    hit = _BASELINES.get(key)
    if hit is not None:
        return hit
    rng = random.Random(7)
    out = []
    for _ in range(BASELINE_SOLVED_HANDS):
        cards = rng.sample(range(32), 10)
        hand = sum(1 << c for c in cards)
        fake = replace(view, hand=hand, exposed={}, talon=None, discard=0)
        out.append(rogue_profile(mind, fake, rng, {0, 4, "any", "misere"},
                                 BASELINE_WORLDS, clocked=False))
    for p in out:  # suits are alike: every suit's tricks as the spades'
        for s in (1, 2, 3):
            p[s] = p[0]
    _BASELINES[key] = out
    return out


def hand_bid(mind: Thinker, view: SeatView, rng: random.Random) -> str | None:
    """Classical: a hand bid over a misère when the ten cards make it without the talon."""
    legal = view.legal
    if mind.level.name == "normal":
        return hand_bid_choice(legal, lambda n: evaluation_make(view.hand, n),
                               lambda: evaluation_clean(view.hand))
    worlds = mind.sample(view, rng, max(8, mind.level.worlds // 2))
    hand = view.hand
    ranked = sorted(range(5), key=lambda s: -contract_tricks(hand, s))[:2]
    values: list[int] = []
    used = 0
    for lo, hi in mind.deadline.spans(len(worlds), name="hand bid"):
        positions = []
        for w in worlds[lo:hi]:
            hands = dict(enumerate(w.hands))
            hands[view.seat] = hand
            for s in ranked:
                positions.append(opening_position(view, hands, mode="contract",
                                                  side=view.seat,
                                                  trump=s if s < 4 else None))
        values += solve_batch(positions, threads=mind.threads)
        used = hi
    worlds = worlds[:used]
    weights = [w.weight for w in worlds]
    total = sum(weights) or 1.0
    per = {s: [values[i * len(ranked) + j] for i in range(len(worlds))]
           for j, s in enumerate(ranked)}
    strain = max(ranked, key=lambda s: weighted_mean([float(v) for v in per[s]], weights))

    def make(level: int) -> float:
        return sum(w for w, t in zip(weights, per[strain], strict=True) if t >= level) / total

    def clean() -> float:
        mpos = []
        for w in worlds:
            hands = dict(enumerate(w.hands))
            hands[view.seat] = hand
            mpos.append(opening_position(view, hands, mode="misere", side=view.seat,
                                         trump=None))
        ok = [misere_can_take_none(p) for p in mpos]
        return sum(w for w, c in zip(weights, ok, strict=True) if c) / total

    return hand_bid_choice(legal, make, clean)


def two_player_defence(mind: Thinker, view: SeatView, rng: random.Random) -> str:
    """Two players: WHIST (then OPEN with the dummy or ALONE) or PASS, by the whists each
    is worth.  Hard and Crazy solve the declarer's tricks against the whister and the
    dummy on imagined deals (the C solver), and against the whister ALONE on the first
    16 (Hard) / 32 (Crazy) of them (:mod:`.twohand`); Normal estimates both from the
    hand."""
    contract, declarer = view.contract, view.declarer
    if contract is None or declarer is None:
        return view.legal[0]
    trump = None if contract.trump is None else int(contract.trump)
    if mind.level.name == "normal":
        open_tricks = open_profile_estimate(view.hand, trump, contract.level)
    else:
        worlds = mind.sample(view, rng, mind.level.worlds)
        worlds, values = solve_openings(view, worlds, declarer, trump, "two players",
                                        mind.deadline, mind.threads)
        open_tricks = [
            (t, w.weight * DECLARER_TRUST ** max(0, contract.level - t))
            for w, t in zip(worlds, values, strict=True)
        ]
    alone = None
    if alone_allowed(mind.rules, contract):
        if mind.level.name == "normal":
            alone = alone_profile(view.hand, trump, contract.level)
        else:  # the lone whister against the declarer's hand, solved two-handed
            me_leads = view.seat == 1 - view.dealer  # the dummy's neighbour leads
            guess = round(defence_tricks(view.hand, trump))
            n = min(len(worlds), mind.level.mode_simulations * 2 or 16)
            alone = []
            for lo, hi in mind.deadline.spans(n, name="alone", step=4):
                alone += [
                    (10 - two_hand_tricks(view.hand, w.hands[declarer], me_leads, trump,
                                          guess), weight)
                    for w, (_, weight) in zip(worlds[lo:hi], open_tricks[lo:hi],
                                              strict=True)
                ]
    values_by_call = two_player_values(mind.rules, mind.model(view), view, open_tricks,
                                       alone)
    mind.note("defence", "whists",
              {t: values_by_call[t.upper()] for t in view.legal
               if t.upper() in values_by_call}, len(open_tricks))
    return choose_two_player(values_by_call, view.legal)


def invite(mind: Thinker, view: SeatView) -> str:
    """Classical: the soloist invites the dealer when he expects to lose; the tricks come
    from the worlds the discard and the contract choice solved (else the evaluation)."""
    tricks = None
    contract = view.contract
    if contract is not None and view.declarer == view.seat:
        strain = -1 if contract.misere else (4 if contract.trump is None
                                             else int(contract.trump))
        tricks = solved_tricks(mind, view.hand, strain)
    return invite_choice(view, mind.model(view), tricks)


def _is_item(token: str) -> bool:
    try:
        rogue_item(token)
    except ValueError:
        return False
    return True
