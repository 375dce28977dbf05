"""World sampling: consistent with everything the seat saw, enumerated when few remain."""

from __future__ import annotations

import random

import pytest

from preferans.deal import Deal, Phase
from preferans.players.sampling import Sampler
from preferans.players.view import SeatView
from preferans.rules import Rules

FULL = 0xFFFFFFFF


def _advance(deal: Deal, rng: random.Random, cards_to_play: int) -> None:
    """Random legal actions until ``cards_to_play`` cards are played (or the deal ends)."""
    played = 0
    while deal.phase is not Phase.DONE and played < cards_to_play:
        actions = deal.legal_actions()
        if deal.phase is Phase.AUCTION and len(deal.history) < 2:
            bids = [a for a in actions if str(a) == "6S"]
            action = bids[0] if bids else rng.choice(actions)
        else:
            action = rng.choice(actions)
        if deal.phase is Phase.PLAY:
            played += 1
        deal.apply(action)


def _check_world(view: SeatView, deal: Deal, world) -> None:
    hands = world.hands
    for seat in range(3):
        assert hands[seat].bit_count() == deal.hands[seat].mask.bit_count()
        # a shown void holds
        assert hands[seat] & view.void_mask(seat) == 0
    assert hands[view.seat] == view.hand
    for seat, mask in view.exposed.items():
        assert hands[seat] == mask
    union = hands[0] | hands[1] | hands[2] | world.extra | view.played
    if view.seat == view.declarer:
        union |= view.discard
    elif view.talon and view.declarer is None:
        union |= view.talon_mask
    assert union == FULL
    assert sum(h.bit_count() for h in hands) + world.extra.bit_count() + view.played.bit_count() \
        + (view.discard.bit_count() if view.seat == view.declarer else 0) \
        + (view.talon_mask.bit_count() if view.declarer is None and view.talon else 0) == 32
    if view.declarer is not None and view.declarer != view.seat and view.talon:
        # the talon cards are with the declarer (in hand, discarded or played)
        talon = view.talon_mask & ~view.played
        assert talon & ~(hands[view.declarer] | world.extra) == 0


@pytest.mark.parametrize("preset", ["sochi", "rostov"])
@pytest.mark.parametrize("seed", range(6))
def test_worlds_agree_with_everything_seen(preset: str, seed: int) -> None:
    rules = Rules.preset(preset)
    rng = random.Random(seed)
    deal = Deal.shuffle(rules, seed % 3, rng)
    _advance(deal, rng, cards_to_play=rng.randrange(0, 25))
    if deal.phase is Phase.DONE:
        return
    for seat in range(3):
        view = SeatView.from_observation(deal.observation(seat))
        worlds = Sampler(view, random.Random(seed)).sample(30)
        assert worlds
        for w in worlds:
            _check_world(view, deal, w)


def test_the_true_deal_is_among_the_enumerated_worlds_late_in_play() -> None:
    rules = Rules.preset("sochi")
    for seed in range(10):
        rng = random.Random(100 + seed)
        deal = Deal.shuffle(rules, 0, rng)
        _advance(deal, rng, cards_to_play=21)
        if deal.phase is not Phase.PLAY:
            continue
        seat = deal.to_act
        view = SeatView.from_observation(deal.observation(seat))
        sampler = Sampler(view, random.Random(1))
        worlds = sampler.enumerate(1000)
        assert worlds is not None
        truth = [h.mask for h in deal.hands]
        assert any(w.hands == truth for w in worlds)
        keys = {w.key() for w in worlds}
        assert len(keys) == len(worlds)  # no world twice
        every = sampler.sample(len(worlds))
        assert {w.key() for w in every} == keys


def test_voids_shown_by_not_following_are_respected() -> None:
    obs = {
        "seat": 0, "players": ["A", "B", "C"], "dealer": 2, "first_hand": 0, "phase": "play",
        "to_act": 0, "hand_to_play": 0,
        "hand": ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "AH", "KH"],
        "hand_sizes": [9, 9, 9], "declarer": 0, "contract": "6S", "bid": "6S",
        "discard": ["7C", "8C"], "talon": ["7C", "AH"],
        "defence": [[1, "WHIST"], [2, "WHIST"]],
        "tricks": [{"leader": 0, "cards": [[0, "AD"], [1, "7H"], [2, "7D"]], "winner": 0}],
        "trick": [], "tricks_won": [1, 0, 0], "legal": ["AS"], "kind": "contract",
    }
    view = SeatView.from_observation(obs)
    assert view.voids[1] == (1 << 2) | (1 << 0)  # no diamonds, and no trumps either
    for w in Sampler(view, random.Random(3)).sample(40):
        assert w.hands[1] & (0xFF << 16) == 0 and w.hands[1] & 0xFF == 0
        assert w.extra == 0
