"""Card play: the average over the worlds of the solver's value of each legal card.

Every world's position is solved in one batch call (:func:`play_card`); with
:attr:`.Level.play_inference` the worlds are first weighed by the other seats' cards
(:mod:`.inference`).  Hard counts tricks; Crazy values each card by the sheet
(:meth:`.ScoreModel.play_table` with :attr:`.Level.play_table`).  The all-pass and misère are
played the same way, each trick counted for the side that wants it.

Where only two hands play (a two-player all-pass, a lone whister), the three-handed solver
cannot model it: :func:`two_hand_card` searches the endgame exactly (:mod:`.twohand`).
"""

from __future__ import annotations

import random

from ..bids import MISERE
from ..cards import Card, mask_indices
from ..solver import solve_moves_batch
from .easy import EasyPlayer
from .inference import play_weights
from .sampling import World, weighted_mean
from .solving import play_position
from .thinker import Thinker
from .twohand import two_hand_tricks
from .variants import rogue_table
from .view import SeatView

TWO_HAND_ENDGAME = 6
"""Two hands playing: the exact search takes over when each holds at most this many cards."""


def play_card(mind: Thinker, view: SeatView, rng: random.Random) -> str:
    """The card: each legal card's value averaged over the worlds (the tricks from now on
    for the side that wants them, or the sheet's value of them for Crazy), ties to the
    lowest card."""
    legal_cards = view.legal_cards()
    if not legal_cards:
        return view.legal[0]
    hand_to_play = view.hand_to_play if view.hand_to_play is not None else view.seat
    if view.is_allpass:
        mode, side = "allpass", hand_to_play
    elif view.is_misere:
        mode, side = "misere", view.declarer
    else:
        mode, side = "contract", view.declarer
    assert side is not None
    worlds = mind.sample(view, rng, mind.level.worlds)
    results: list[dict[int, int]] = []
    for lo, hi in mind.deadline.spans(len(worlds), name="play"):
        part = worlds[lo:hi]
        if mind.level.play_inference and (
                mind.level.declarer_inference or mode != "contract"
                or hand_to_play != side):
            factors = play_weights(view, part, allpass_talon=mind.rules.allpass_talon,
                                   threads=mind.threads, cache=mind.inference_cache)
            for w, f in zip(part, factors, strict=True):
                w.weight *= f
        positions = [
            play_position(view, w, mode=mode, side=side,
                          allpass_talon=mind.rules.allpass_talon)
            for w in part
        ]
        results += solve_moves_batch(positions, threads=mind.threads)
    worlds = worlds[: len(results)]
    weights = [w.weight for w in worlds]
    if mind.level.score_aware:
        model = mind.model(view)
        item = view.extras.get("rogue_item")
        base = view.tricks_won[side] if side < len(view.tricks_won) else 0
        whisters = tuple(s for s, t in view.defence if t.upper() == "WHIST")
        if mode == "allpass":
            table = model.allpass_table()
        elif item and view.contract is not None:  # the Rogue: the named game's values
            table = rogue_table(mind.rules, model, side, view.contract, str(item))
        elif mind.level.play_table:
            contract = MISERE if view.is_misere else view.contract
            assert contract is not None
            table = model.play_table(side, contract, view.tricks_won,
                                     whisters=whisters, open_defence=view.open_defence)
            base = 0
        elif view.is_misere:
            table = model.contract_table(side, MISERE)
        else:
            assert view.contract is not None
            table = model.contract_table(side, view.contract, whisters=whisters)

        def utility(v: int) -> float:
            return table[max(0, min(10, base + v))]
    else:
        declaring = hand_to_play == side
        if mode == "allpass":
            sign = -1.0
        elif mode == "misere":
            sign = -1.0 if declaring else 1.0
        else:
            sign = 1.0 if declaring else -1.0

        def utility(v: int) -> float:
            return sign * v

    scores: dict[Card, float] = {}
    for card in legal_cards:
        vals = []
        for res in results:
            v = res.get(card.index)
            vals.append(utility(v) if v is not None else float("-inf"))
        scores[card] = (weighted_mean(vals, weights) if all(x != float("-inf") for x in vals)
                        else -1e9)
    if mind.explaining is not None:
        _note_play(mind, view, mode, side, hand_to_play, legal_cards, scores, results,
                   weights)
    best = max(legal_cards, key=lambda c: (round(scores[c], 9), -int(c.rank), -c.index))
    return str(best)


def _note_play(mind: Thinker, view: SeatView, mode: str, side: int, hand_to_play: int,
               cards: list[Card], scores: dict[Card, float],
               results: list[dict[int, int]], weights: list[float]) -> None:
    """The card play's values for an explanation, and the tricks each card yields over
    the worlds from now on: the player's side's (``counted`` ``side``, more is better), his
    own (``own``: an all-pass, a misère declarer, fewer is better) or a misère declarer's
    (``declarer``: his defenders want more)."""
    remaining = 10 - sum(view.tricks_won)
    declaring = hand_to_play == side
    if mode == "contract":
        counted = "side"
    elif mode == "misere":
        counted = "own" if declaring else "declarer"
    else:
        counted = "own"
    flip = mode == "contract" and not declaring
    tricks: dict[str, float] = {}
    for card in cards:
        got = [res.get(card.index) for res in results]
        if any(v is None for v in got):
            continue
        tricks[str(card)] = weighted_mean([float(remaining - v if flip else v)
                                           for v in got if v is not None], weights)
    mind.note("card", "whists" if mind.level.score_aware else "tricks",
              {str(c): v for c, v in scores.items() if v > -1e9}, len(results),
              tricks=tricks, counted=counted)


def two_hand_card(mind: Thinker, view: SeatView, rng: random.Random) -> str:
    """Two hands play (a two-player all-pass, a lone whister): the three-handed solver
    cannot model it.  Hard and Crazy search the last :data:`TWO_HAND_ENDGAME` cards
    exactly on imagined deals (:mod:`.twohand`: tricks for a lone whister's game, as few
    as possible in an all-pass); before that, and for Normal, the Easy player's table
    heuristic without its careless cards."""
    heuristic = EasyPlayer(mind.rules, mind.seed, carelessness=0.0)._play(view, rng)
    cards = view.legal_cards()
    me = view.hand_to_play if view.hand_to_play is not None else view.seat
    players = [s for s in view.active_seats if s != view.dummy]
    if (mind.level.name == "normal" or not cards or me not in players
            or view.hand.bit_count() > TWO_HAND_ENDGAME):
        return heuristic
    opp = next(s for s in players if s != me)
    allpass = view.is_allpass
    trump = None if allpass else view.trump
    worlds = mind.sample(view, rng, max(8, mind.level.worlds // 8))
    maximize = not allpass
    scores: dict[Card, float] = dict.fromkeys(cards, 0.0)
    used = 0
    for lo, hi in mind.deadline.spans(len(worlds), name="two hands", step=2):
        for card in cards:
            _two_hand_add(view, card, worlds[lo:hi], opp, trump, maximize, scores)
        used = hi
    if mind.explaining is not None:
        total = sum(w.weight for w in worlds[:used]) or 1.0
        mind.note("card", "tricks", {str(c): v / total for c, v in scores.items()}, used,
                  tricks={str(c): (v if maximize else -v) / total
                          for c, v in scores.items()},
                  counted="side" if maximize else "own")
    return str(max(cards, key=lambda c: (round(scores[c], 9), -int(c.rank), -c.index)))


def _beats(card: Card, other: Card, trump: int | None) -> bool:
    """Whether ``card``, played second, beats ``other`` (led)."""
    if card.suit == other.suit:
        return int(card.rank) > int(other.rank)
    return trump is not None and int(card.suit) == trump


def _two_hand_add(view: SeatView, card: Card, worlds: list[World], opp: int, trump: int | None,
                  maximize: bool, scores: dict[Card, float]) -> None:
    """Add ``card``'s weighted tricks (all-pass: minus the tricks) over ``worlds`` to its
    score: it ends the trick the other hand led, or leads and the other hand answers."""
    rest = view.hand & ~card.mask
    for w in worlds:
        opp_hand = w.hands[opp]
        if view.trick:  # the other hand led: this card ends the trick
            lead = view.trick[0][1]
            won = int(_beats(card, lead, trump))
            mine = won + two_hand_tricks(rest, opp_hand, bool(won), trump, maximize=maximize)
        else:  # this card leads: the other hand answers as suits him
            outcomes = []
            for reply in _playable(opp_hand, int(card.suit), trump):
                won = int(not _beats(Card.from_index(reply), card, trump))
                outcomes.append(won + two_hand_tricks(
                    rest, opp_hand & ~(1 << reply), bool(won), trump, maximize=maximize))
            mine = min(outcomes) if maximize else max(outcomes)
        scores[card] += w.weight * (mine if maximize else -mine)


def _playable(hand: int, suit: int, trump: int | None) -> list[int]:
    """The cards (indices) a hand may play to a trick led in ``suit``: follow, else trump."""
    same = hand & (0xFF << (8 * suit))
    if not same and trump is not None:
        same = hand & (0xFF << (8 * trump))
    return mask_indices(same or hand)
