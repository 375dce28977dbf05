"""Play inference (Crazy): a world loses weight when an observed card was a mistake in it."""

from __future__ import annotations

import random

from preferans.cards import Card, CardSet
from preferans.players.inference import SLIP, play_weights
from preferans.players.sampling import World
from preferans.players.view import SeatView
from preferans.solver import Position
from preferans.solver import reference as ref


def _observation() -> dict:
    # 6NT by seat 0, four cards each; seat 0 has led the king of spades, seat 1 (a closed
    # defender) is to play.  Seat 1 sees its own hand and the king only.
    return {
        "seat": 1,
        "players": ["A", "B", "C"],
        "dealer": 2,
        "first_hand": 0,
        "phase": "play",
        "to_act": 1,
        "hand_to_play": 1,
        "hand": ["QS", "7S", "AD", "7C"],
        "hand_sizes": [3, 4, 4],
        "auction": [[0, "6NT"], [1, "PASS"], [2, "PASS"]],
        "defence": [[1, "WHIST"], [2, "PASS"]],
        "legal": ["QS", "7S"],
        "declarer": 0,
        "contract": "6NT",
        "open_defence": False,
        "trick": [[0, "KS"]],
        "tricks": [],
        "tricks_won": [0, 0, 0],
    }


def _worlds(view: SeatView, n: int, seed: int) -> list[World]:
    rng = random.Random(seed)
    unseen = [c for c in range(32) if not (view.known >> c) & 1]
    out = []
    for _ in range(n):
        cards = rng.sample(unseen, 7)
        out.append(World([sum(1 << c for c in cards[:3]), view.hand,
                          sum(1 << c for c in cards[3:])], 0))
    return out


def test_a_world_loses_weight_exactly_when_the_lead_was_a_mistake_in_it() -> None:
    view = SeatView.from_observation(_observation())
    worlds = _worlds(view, 60, seed=5)
    factors = play_weights(view, worlds, threads=1)
    king = Card.parse("KS").index
    kinds = set()
    for w, f in zip(worlds, factors, strict=True):
        before = Position(hands=(w.hands[0] | 1 << king, w.hands[1], w.hands[2]),
                          trick=(), leader=0, trump=None, mode="contract", side=0)
        values = ref.solve_moves(before)  # the plain Python reference, not the C solver
        loss = max(values.values()) - values[king]
        assert f == SLIP ** min(loss, 2), (CardSet(w.hands[0]), values, f)
        kinds.add(loss > 0)
    assert kinds == {True, False}  # the sample holds worlds of both kinds


def test_the_seats_own_cards_say_nothing() -> None:
    obs = _observation()
    # the declarer looks at its own lead: no inference about anyone
    obs["seat"] = 0
    obs["hand"] = ["AS", "9S", "8D"]
    obs["legal"] = []
    obs["to_act"] = 1
    view = SeatView.from_observation(obs)
    unseen = [c for c in range(32) if not (view.known >> c) & 1]
    rng = random.Random(1)
    worlds = []
    for _ in range(10):
        cards = rng.sample(unseen, 8)
        worlds.append(World([view.hand, sum(1 << c for c in cards[:4]),
                             sum(1 << c for c in cards[4:])], 0))
    assert play_weights(view, worlds, threads=1) == [1.0] * len(worlds)


def test_the_cache_gives_the_same_factors() -> None:
    view = SeatView.from_observation(_observation())
    worlds = _worlds(view, 30, seed=9)
    cache: dict = {}
    first = play_weights(view, worlds, threads=1, cache=cache)
    assert cache
    assert play_weights(view, worlds, threads=2, cache=cache) == first
