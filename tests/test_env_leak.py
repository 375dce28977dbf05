"""No information leak: a seat's tensors, strings and view never change when a card it may
not see changes (a property test over random deals, presets and points of the deal)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

from preferans.actions import ActionKind
from preferans.cards import DECK
from preferans.env import tensors
from preferans.env.core import CHANCE, EnvConfig, PreferansCore, dealing_seats

PRESETS = ("sochi", "leningrad", "rostov", "piter", "vmk", "classical-1971")


def _random_prefix(config: EnvConfig, rng: random.Random, decisions: int
                   ) -> tuple[PreferansCore, list[int]]:
    core = PreferansCore(config)
    made = 0
    while not core.over and (made < decisions or core.current_player() == CHANCE):
        if core.current_player() == CHANCE:
            outcomes = core.chance_outcomes()
            core.apply(rng.choice(outcomes)[0])
            continue
        core.apply(rng.choice(core.legal_actions()))
        made += 1
    return core, list(core.history)


def _seen_by(core: PreferansCore, seat: int) -> int:
    """Every card ``seat`` has seen in the current deal (the ground truth, from the deal
    itself): its own cards, the talon once shown, open hands, every card played, its own
    discards."""
    deal = core.game.deal
    seen = deal.initial_hands[seat].mask | deal.hand(seat).mask
    for card in deal.shown_talon if deal.talon_shown else ():
        seen |= card.mask
    for s in deal.exposed:
        seen |= deal.hand(s).mask
    for trick in deal.tricks:
        seen |= sum(c.mask for _, c in trick.cards)
        if trick.talon_card is not None:
            seen |= trick.talon_card.mask
    seen |= sum(c.mask for _, c in deal.current_trick)
    for who, action in deal.history:
        if who == seat and action.kind is ActionKind.DISCARD:
            seen |= sum(c.mask for c in action.cards)
    return seen


def _discarded(core: PreferansCore) -> int:
    return sum(c.mask for _, a in core.game.deal.history if a.kind is ActionKind.DISCARD
               for c in a.cards)


def _everything(core: PreferansCore, seat: int) -> tuple:
    obs = tensors.observation_tensor(core, seat)
    info = tensors.information_state_tensor(core, seat)
    view = core.view(seat)
    return (obs.tobytes(), info.tobytes(), tensors.observation_string(core, seat),
            tensors.information_state_string(core, seat), repr(sorted(view.items())))


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), decisions=st.integers(0, 60),
       preset=st.sampled_from(PRESETS), pulya=st.sampled_from([0, 0, 10]),
       seat=st.integers(0, 2), pick=st.integers(0, 2**31))
def test_a_seat_never_sees_a_card_it_may_not_see(seed, decisions, preset, pulya, seat, pick):
    config = EnvConfig(rules=preset, pulya=pulya)
    core, history = _random_prefix(config, random.Random(seed), decisions)
    assume(core.game.deal is not None)
    deal = core.game.deal
    # the current deal's 32 chance outcomes come right before its decisions (a discard is
    # two of them, a discard's first card chosen but not the second one)
    discards = sum(1 for _, a in deal.history if a.kind is ActionKind.DISCARD)
    steps = len(deal.history) + discards + (core.pending is not None)
    start = len(history) - steps - 32
    cards = history[start: start + 32]
    location = {}
    for k, s in enumerate(dealing_seats(deal.dealer)):
        for c in cards[10 * k: 10 * k + 10]:
            location[c] = s
    for c in cards[30:]:
        location[c] = "talon"
    hidden = [c for c in range(32)
              if not (_seen_by(core, seat) | _discarded(core)) >> c & 1
              and (core.pending is None or c != core.pending)]
    pairs = [(a, b) for a in hidden for b in hidden if a < b and location[a] != location[b]]
    assume(pairs)
    same_suit = [(a, b) for a, b in pairs if a // 8 == b // 8]
    rng = random.Random(pick)
    a, b = rng.choice(same_suit or pairs)
    swapped = [b if c == a else a if c == b else c for c in cards]
    other_history = history[:start] + swapped + history[start + 32:]

    first = PreferansCore(config)
    second = PreferansCore(config)
    for k, (x, y) in enumerate(zip(history, other_history, strict=True)):
        first.apply(x)
        try:
            second.apply(y)
        except ValueError:
            assume(False)  # the swap made a later card illegal (different suits)
        if k >= start:
            assert _everything(first, seat) == _everything(second, seat), (
                f"seat {seat} sees the swap of {DECK[a]} and {DECK[b]} at step {k}")
    assert first.game.deal.hands != second.game.deal.hands or \
        first.game.deal.talon != second.game.deal.talon


def test_the_tensors_show_what_the_seat_does_see():
    """The other side of the property: the own hand, the talon once shown, a card played."""
    core, _ = _random_prefix(EnvConfig(seed=4), random.Random(1), 0)
    seat = core.current_player()
    info = tensors.information_state_tensor(core, seat)
    at = tensors.INFO_AT["hand"]
    hand = {c.index for c in core.game.deal.hand(seat)}
    assert set(np.flatnonzero(info[at: at + 32])) == hand
    other = (seat + 1) % 3
    other_hand = {c.index for c in core.game.deal.hand(other)}
    assert not set(np.flatnonzero(info[at: at + 32])) & other_hand
