"""Easy: bids by rough feel, whists on a hunch, forgets the cards gone, sometimes careless.

The Easy player never imagines deals.  It bids by rough feel, as a beginner does: the
hand evaluation (:mod:`preferans.players.evaluation`) plus a hunch, hopeful about the
talon and its kings (``optimism``), and afraid of the all-pass when nobody has bid yet
(``allpass_fear``: a hand full of high cards would take many all-pass tricks, more so as
the stakes rise, so it would rather play a six).  It always bids the cheapest bid it may,
never jumps, and stops where its feel stops.  It whists when its hand looks good enough
give or take a hunch, and plays each card from the cards on the table alone: it does not
remember what was played in earlier tricks, and now and then it plays any legal card at
all.

How often that makes a contract (benchmarks/bench_bidding.py, 300 Sochi deals, seed 35;
docs/strength.md has the figures): Easy tables now play about as many deals as contracts
as Normal tables do, where before they passed most deals out into the all-pass.

>>> from preferans.rules import Rules
>>> bot = EasyPlayer(Rules.preset("sochi"), seed=3)
>>> bot.choose({"seat": 0, "players": ["A", "B", "C"], "dealer": 2, "phase": "auction",
...             "hand": ["7S", "8S", "9C", "7C", "8D", "7D", "10H", "9H", "8H", "7H"],
...             "auction": [], "legal": ["6S", "MISERE", "PASS"]})
'MISERE'
"""

from __future__ import annotations

import contextlib
import json
import random
import zlib
from typing import Any

from ..bids import Bid
from ..cards import Card
from ..rules import Rules
from .evaluation import (
    allpass_tricks,
    best_strain,
    contract_tricks,
    defence_tricks,
    discard_candidates,
    max_level,
    misere_danger,
    misere_discard_candidates,
)
from .utility import cached_model
from .variants import (
    alone_allowed,
    alone_profile,
    blind_choice,
    choose_two_player,
    evaluation_baseline,
    evaluation_clean,
    evaluation_make,
    evaluation_profile,
    hand_bid_choice,
    hand_bids,
    invite_choice,
    nameable_contracts,
    open_profile_estimate,
    rogue_copies,
    rogue_scores,
    two_player_values,
    write_choice,
)
from .view import SeatView


class EasyPlayer:
    """The beginner (see the module docstring).  ``carelessness``: chance of a random card."""

    def __init__(self, rules: Rules, seed: int = 0, *, noise: float = 0.8,
                 carelessness: float = 0.12, optimism: float = 1.5,
                 allpass_fear: float = 0.3) -> None:
        self.rules = rules
        self.seed = seed
        self.noise = noise
        self.carelessness = carelessness
        self.optimism = optimism
        self.allpass_fear = allpass_fear

    def choose(self, observation: dict[str, Any]) -> str:
        legal = [str(t) for t in observation.get("legal") or []]
        if not legal:
            raise ValueError(f"seat {observation.get('seat')} has no legal action to choose")
        if len(legal) == 1:
            return legal[0]
        view = SeatView.from_observation(observation)
        digest = zlib.crc32(json.dumps(
            {k: v for k, v in observation.items() if k != "sheet"}, sort_keys=True).encode())
        rng = random.Random(self.seed * 1_000_003 + digest)
        # the hunch of this deal: one draw per deal and seat, so the feel is consistent
        dealt = view.hand | view.played_by[view.seat]
        hunch = random.Random(self.seed * 7919 + dealt * 4 + view.seat).gauss(0.0, self.noise)
        phase = view.phase
        if phase == "auction" and ("SEE" in legal or view.extras.get("hand_hidden")):
            token = blind_choice(view, self.rules)
        elif phase == "auction" and hand_bids(legal):
            token = hand_bid_choice(
                legal, lambda n: evaluation_make(view.hand, n),
                lambda: evaluation_clean(view.hand)) or self._auction(view, hunch)
        elif phase == "auction":
            token = self._auction(view, hunch)
        elif phase == "name":
            token = self._name(view)
        elif phase == "write":
            token = write_choice(view, self.rules)
        elif phase == "halftime":  # Classical: the leader keeps the rules' pool and time
            token = legal[0]
        elif phase == "invite":
            token = invite_choice(view, cached_model(self.rules, view.seat, dealer=view.dealer))
        elif view.dummy is not None and phase in ("defence", "defence mode"):
            token = self._defence_two(view, hunch)
        elif phase == "discard":
            token = self._discard(view)
        elif phase == "contract":
            token = self._contract(view, hunch)
        elif phase == "defence":
            token = self._defence(view, hunch)
        elif phase.startswith("defence"):
            token = "OPEN" if "OPEN" in legal else legal[0]
        elif phase == "play":
            token = self._play(view, rng)
        else:
            token = legal[0]
        return token if token in legal else legal[0]

    # --- bidding ---------------------------------------------------------------------------
    def _auction(self, view: SeatView, hunch: float) -> str:
        legal = view.legal
        if "MISERE" in legal and misere_danger(view.hand) + hunch * 0.3 < 0.5:
            return "MISERE"
        limit = int(self.feel(view, hunch) + 0.15)
        bids = []
        for t in legal:
            if t.upper() in ("PASS", "MISERE"):
                continue
            with contextlib.suppress(ValueError):
                bids.append((Bid.parse(t), t))
        bids.sort(key=lambda bt: bt[0].step)
        if bids and limit >= 6 and bids[0][0].level <= limit:
            return bids[0][1]
        return "PASS" if "PASS" in legal else legal[0]

    def feel(self, view: SeatView, hunch: float) -> float:
        """The tricks this beginner feels its hand will make as declarer: the evaluation
        with the talon (:func:`~.evaluation.max_level`), the deal's hunch and ``optimism``;
        while nobody has bid (passing may end in an all-pass) also ``allpass_fear`` per
        rough all-pass trick beyond five (:func:`~.evaluation.allpass_tricks`) times the
        stake the next all-pass would have.

        >>> from preferans.cards import CardSet
        >>> bot = EasyPlayer(Rules.preset("sochi"))
        >>> strong = {"seat": 0, "players": ["A", "B", "C"], "dealer": 2, "phase": "auction",
        ...           "hand": CardSet.parse("AS KS QS 9S 8S AC 10C KD 8D 7H").to_list(),
        ...           "auction": [], "legal": ["6S", "MISERE", "PASS"]}
        >>> round(bot.feel(SeatView.from_observation(strong), 0.0), 2)
        8.43
        """
        _level, _, est = max_level(view.hand)
        feel = est + hunch
        if view.bid is not None:  # raising another's bid: a little hope, no more
            return feel + self.optimism / 3
        stake = self.rules.allpass_stake(view.allpass_streak + 1)
        fear = self.allpass_fear * stake * max(0.0, allpass_tricks(view.hand) - 5.0)
        return feel + self.optimism + fear

    def _discard(self, view: SeatView) -> str:
        hand12 = view.hand
        if view.bid is not None and view.bid.misere:
            pair = misere_discard_candidates(hand12, keep=1)[0]
        else:
            strain = max(range(5), key=lambda s: contract_tricks(hand12, s))
            pair = discard_candidates(hand12, strain, keep=1)[0]
        cards = sorted(Card.from_index(i) for i in range(32) if pair >> i & 1)
        return "DISCARD " + " ".join(str(c) for c in cards)

    def _contract(self, view: SeatView, hunch: float) -> str:
        chosen, options = nameable_contracts(view)
        if chosen is not None:
            return chosen
        strain = best_strain(view.hand)  # ties go to the longest suit
        est = contract_tricks(view.hand, strain) + hunch * 0.5
        # a trick below its feel: named at its feel, it named 9 after a 6♠ auction 11 times
        # in 300 boards and went down in 9 (docs/strength.md, issue 35)
        fits = [(b, t) for b, t in options if b.strain == strain and b.level <= max(6, est - 1)]
        if fits:
            return max(fits, key=lambda bt: bt[0].step)[1]
        same = [(b, t) for b, t in options if b.strain == strain]  # e.g. the Rogue's trump
        return min(same or options, key=lambda bt: bt[0].step)[1]

    def _defence(self, view: SeatView, hunch: float) -> str:
        legal = [t.upper() for t in view.legal]
        contract = view.contract
        if contract is None:
            return view.legal[0]
        trump = None if contract.trump is None else int(contract.trump)
        sure = defence_tricks(view.hand, trump)
        if sure <= 0:
            return original_pass(view)
        mine = sure + hunch
        need = {6: 2.0, 7: 1.0}.get(contract.level, 0.8)
        choice = "WHIST" if mine >= need else "PASS"
        if choice == "PASS" and "HALF" in legal and mine >= need * 0.6:
            choice = "HALF"
        original = {t.upper(): t for t in view.legal}
        return original.get(choice, view.legal[0])

    # --- the structural variants (see :mod:`.variants`) ----------------------------------------
    def _name(self, view: SeatView) -> str:
        """The Rogue: the list item whose value now beats its value later the most."""
        model = cached_model(self.rules, view.seat, dealer=view.dealer)
        items_left, copies = rogue_copies(view)
        scores = rogue_scores(self.rules, model, view.seat, view.legal,
                              evaluation_profile(view.hand), evaluation_baseline(self.rules),
                              items_left, copies)
        if not scores:
            return view.legal[0]
        return max(view.legal, key=lambda t: scores.get(t, float("-inf")))

    def _defence_two(self, view: SeatView, hunch: float) -> str:
        """Two players: WHIST with the dummy, ALONE or PASS, by the hand evaluation (and a
        hunch: a hopeful Easy player counts on a little more)."""
        contract, declarer = view.contract, view.declarer
        if contract is None or declarer is None:
            return view.legal[0]
        trump = None if contract.trump is None else int(contract.trump)
        shift = max(-1.0, min(1.0, hunch * 0.5))
        open_tricks = [(max(0, min(10, t - round(shift))), w)
                       for t, w in open_profile_estimate(view.hand, trump, contract.level)]
        alone = None
        if alone_allowed(self.rules, contract):
            alone = alone_profile(view.hand, trump, contract.level)
        model = cached_model(self.rules, view.seat, dealer=view.dealer)
        values = two_player_values(self.rules, model, view, open_tricks, alone)
        return choose_two_player(values, view.legal)

    # --- card play: the table only -------------------------------------------------------------
    def _play(self, view: SeatView, rng: random.Random) -> str:
        cards = view.legal_cards()
        if not cards:
            return view.legal[0]
        if rng.random() < self.carelessness:
            return str(rng.choice(cards))
        seat = view.hand_to_play if view.hand_to_play is not None else view.seat
        trick = view.trick
        trump = view.trump

        def beats(card: Card, best: Card, led: int) -> bool:
            if card.suit == best.suit:
                return card.rank > best.rank
            return trump is not None and int(card.suit) == trump

        led = view.talon_lead
        if led is None and trick:
            led = int(trick[0][1].suit)
        winner = None
        if trick:
            best_seat, best = trick[0]
            for s, c in trick[1:]:
                if beats(c, best, led if led is not None else int(c.suit)):
                    best_seat, best = s, c
            winner = (best_seat, best)
        low = min(cards, key=lambda c: (int(c.rank), c.index))
        high = max(cards, key=lambda c: (int(c.rank), -c.index))
        avoid = view.is_allpass or (view.is_misere and seat == view.declarer)
        if avoid:
            if winner is None:
                return str(low)
            under = [c for c in cards if not beats(c, winner[1], led or 0)]
            return str(max(under, key=lambda c: int(c.rank)) if under else high)
        if view.is_misere:  # defending a misère: lead low, play high when it can't win
            return str(low if winner is None or winner[0] != view.declarer else high)
        partner_wins = (
            winner is not None
            and view.declarer is not None
            and winner[0] != view.declarer
            and seat != view.declarer
        )
        if winner is None:
            aces = [c for c in cards if c.rank == 7]
            return str(aces[0] if aces else high if rng.random() < 0.5 else low)
        if partner_wins:
            return str(low)
        winning = [c for c in cards if beats(c, winner[1], led or 0)]
        if winning:
            return str(min(winning, key=lambda c: (int(c.suit) == (trump or -1), int(c.rank))))
        return str(low)


def original_pass(view: SeatView) -> str:
    """PASS as the legal list spells it."""
    return next((t for t in view.legal if t.upper() == "PASS"), view.legal[0])


def allpass_feel(hand: int) -> float:
    """Rough all-pass tricks (re-exported for displays)."""
    return allpass_tricks(hand)
