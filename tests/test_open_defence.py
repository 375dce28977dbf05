"""Open defence lays both defenders' hands face up, and nobody but the declarer sees the discard.

003: "play open (both defenders' cards face up, the whister plays both hands)"; 001 §08:
"For open defence, both hands are exposed before the opening lead".  The tests play many
seeded deals with quick computer players, steering every lone whister to OPEN, and check
every seat's observation from the moment of exposure to the end of the deal.
"""

from __future__ import annotations

import random

import pytest

from preferans.cards import Card, CardSet
from preferans.deal import Deal, Phase
from preferans.players import make_player
from preferans.players.sampling import Sampler
from preferans.players.view import SeatView
from preferans.rules import Rules
from preferans.solver import solve_moves
from test_deal import make, run


def _open_deals(rules: Rules, count: int, seed: int) -> list[Deal]:
    """Up to ``count`` played-out deals in which a lone whister chose OPEN, each checked at
    every step by :func:`_check_step`."""
    found: list[Deal] = []
    rng = random.Random(seed)
    bots = [make_player("normal", rules, seed=seed + i) for i in range(rules.players)]
    tries = 0
    while len(found) < count and tries < 400:
        tries += 1
        deal = Deal.shuffle(rules, rng.randrange(rules.players), rng)
        opened = False
        while deal.phase is not Phase.DONE:
            seat = deal.to_act
            assert seat is not None
            obs = deal.observation(seat)
            if deal.phase is Phase.DEFENCE_MODE and "OPEN" in obs["legal"]:
                token = "OPEN"
                opened = True
            elif deal.phase is Phase.DEFENCE and not opened and "WHIST" in obs["legal"]:
                # steer towards a lone whist: the first defender whists, the second passes
                token = "WHIST" if not deal.defence else "PASS"
            else:
                token = bots[seat].choose(obs)
            deal.apply(token)
            if opened:
                _check_step(deal)
        if opened and deal.open_defence and len(deal.whisters) == 1:
            found.append(deal)
    return found


def _check_step(deal: Deal) -> None:
    """After OPEN: what every seat may see (both defending hands, never the declarer's hand
    nor his discard), once the rules have laid the hands down."""
    declarer = deal.declarer
    assert declarer is not None
    defenders = list(deal.defenders)
    down = set(deal.exposed)
    if not down:  # open after declarer's opening card, and he has not led yet
        assert not deal.rules.open_before_lead and deal.declarer == deal.first_hand
        assert not deal.tricks and not deal._trick
        return
    assert down == set(defenders), (down, defenders)
    for seat in range(deal.players):
        obs = deal.observation(seat)
        exposed = obs["exposed"]
        for d in defenders:
            assert exposed[str(d)] == deal.hand(d).to_list()
        assert str(declarer) not in exposed
        if seat != declarer:
            assert obs["discard"] is None
            seen = set(obs["hand"])
            for cards in exposed.values():
                seen |= set(cards)
            assert not (seen & set(deal.hand(declarer).to_list()) - set(obs["hand"]))


@pytest.mark.parametrize(
    ("preset", "options", "seed"),
    [
        ("sochi", {}, 1),
        ("leningrad", {}, 2),
        ("sochi", {"open_before_lead": False}, 3),
        ("sochi", {"players": 4}, 4),
        ("rostov", {"players": 4, "open_before_lead": False}, 5),
    ],
)
def test_every_seat_sees_both_defending_hands_to_the_end(preset, options, seed):
    rules = Rules.preset(preset, **options)
    deals = _open_deals(rules, 3, seed)
    assert len(deals) == 3, "no open defence reached"
    for deal in deals:
        assert deal.phase is Phase.DONE and sum(deal.tricks_won) == 10


def test_open_defence_hands_go_down_together_and_stay_down():
    d = run(make(), "6S, PASS, PASS, DISCARD 7H 7D, 7H, PASS, WHIST")
    whister, passer = 2, 1
    hands = {s: d.hand(s).to_list() for s in (whister, passer)}
    d.apply("OPEN")
    assert d.exposed == (1, 2)
    declarer_view = d.observation(0)
    assert declarer_view["exposed"] == {str(s): hands[s] for s in (1, 2)}
    # the passer and the whister see each other's hands but not the declarer's discard
    for seat in (1, 2):
        obs = d.observation(seat)
        assert obs["exposed"] == declarer_view["exposed"] and obs["discard"] is None
    # a card played leaves the exposed hand it came from
    lead = d.legal_actions()[0]
    d.apply(lead)
    follow = d.legal_actions()[0]
    d.apply(follow)
    assert str(follow.card) not in d.observation(0)["exposed"][str(passer)]
    assert d.observation(0)["exposed"][str(whister)] == d.hand(whister).to_list()


def test_two_players_open_whist_lays_the_whisters_hand_beside_the_dummy():
    from test_two_players import to_defence

    deal = to_defence()
    deal.apply("WHIST")
    deal.apply("OPEN")
    assert set(deal.exposed) == {0, 2}  # the whister (seat 0) and the dummy
    assert deal.observation(1)["exposed"]["0"] == deal.hand(0).to_list()


def test_the_declarer_facing_an_open_defence_solves_the_one_exact_position():
    d = run(make(), "6S, PASS, PASS, DISCARD 7H 7D, 7H, PASS, WHIST, OPEN")
    obs = d.observation(0)
    view = SeatView.from_observation(obs)
    sampler = Sampler(view, random.Random(0))
    assert sampler.locations == [], "every card is known: nothing left to imagine"
    worlds = sampler.sample(100)
    assert len(worlds) == 1
    assert [CardSet(h) for h in worlds[0].hands] == [d.hand(s) for s in range(3)]
    # Hard's card is a best card of that exact position
    from preferans.players.solving import play_position

    pos = play_position(view, worlds[0], mode="contract", side=0)
    values = solve_moves(pos)
    best = max(values.values())
    token = make_player("hard", d.rules, seed=1).choose(obs)
    assert values[Card.parse(token).index] == best
