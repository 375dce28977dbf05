"""A state drawn from one seat's information state (OpenSpiel's ``resample_from_infostate``,
which information-set search such as ``ismcts.ISMCTSBot`` needs).

The cards the seat has not seen are placed by our players' own world sampler
(:class:`preferans.players.sampling.Sampler`: voids shown in the play, the talon a declarer
took, hand sizes, and weighted by how well the world explains the others' calls); the
deal is then played again from those cards with the same actions, the other seats' hidden
discard being the world's. The result has the seat's information state exactly (the tests
check it).
"""

from __future__ import annotations

import dataclasses
import random

from ..actions import ActionKind
from ..cards import DECK, CardSet
from ..players.sampling import Sampler, original_hand
from ..players.view import SeatView
from .core import CHANCE, PLAYERS, EnvConfig, PreferansCore, chance_sequence

TRIES = 20
"""Worlds drawn before giving up on one the engine plays through."""


def resample(core: PreferansCore, seat: int, rng: random.Random) -> PreferansCore:
    """A state with ``seat``'s information state, its hidden cards drawn (see the module
    docstring). At a chance node or at the end, a copy."""
    deal = core.game.deal
    if deal is None or core.current_player() == CHANCE or core.over:
        return core.clone()
    if core.rules.ranks != 8 or core.rules.suits != 4:
        raise ValueError("worlds are drawn for the full pack only (our players' sampler), "
                         f"not for a pack of {core.rules.ranks} ranks")
    view = SeatView.from_observation(deal.observation(seat))
    steps = _steps_of_this_deal(core)
    start = len(core.history) - steps - 32
    sampler = Sampler(view, rng)
    last: Exception | None = None
    for _ in range(TRIES):
        worlds = sampler.sample(1)
        world = rng.choices(worlds, [w.weight for w in worlds])[0]
        try:
            history = _history(core, view, world, seat, start, rng)
            return PreferansCore.replay(_unseeded(core), history)
        except ValueError as exc:
            last = exc
    raise ValueError(f"no world of seat {seat}'s information state could be played: {last}")


def _unseeded(core: PreferansCore) -> EnvConfig:
    """The config the world is replayed under: every card a chance outcome (a seeded game's
    plan would deal the true cards), the same first dealer."""
    config = core.config
    first = config.board % PLAYERS if config.seed >= 0 else config.dealer
    return dataclasses.replace(config, seed=-1, dealer=first)


def _steps_of_this_deal(core: PreferansCore) -> int:
    deal = core.game.deal
    discards = sum(1 for _, a in deal.history if a.kind is ActionKind.DISCARD)
    return len(deal.history) + discards + (core.pending is not None)


def _history(core: PreferansCore, view: SeatView, world: object, seat: int, start: int,
             rng: random.Random) -> list[int]:
    deal = core.game.deal
    hands = [CardSet(original_hand(view, world, s)).to_list() for s in range(PLAYERS)]  # type: ignore[arg-type]
    hands[seat] = deal.initial_hands[seat].to_list()
    shown = [str(c) for c in deal.shown_talon] if deal.talon_shown else []
    hidden = [str(DECK[c]) for c in _bits(world.extra)]  # type: ignore[attr-defined]
    talon = shown if len(shown) == 2 else shown + [c for c in hidden if c not in shown]
    if len(talon) != 2:  # the talon went to the declarer: it is shown
        talon = [str(c) for c in deal.talon]
    used = {c for h in hands for c in h} | set(talon)
    if len(used) != 32 or any(len(h) != 10 for h in hands):
        raise ValueError("the world does not make a deal")
    out = core.history[:start] + chance_sequence(deal.dealer, hands, talon)
    hidden_discard = sorted(_bits(world.extra)) if deal.declarer not in (None, seat) else []  # type: ignore[attr-defined]
    for who, action in _steps(deal, core):
        if action is None:  # the first card of a discard in progress
            if who == seat:
                out.append(core.pending)  # type: ignore[arg-type]
            else:  # another seat's, unseen: one of its cards in this world, not its highest
                held = sorted(_bits(world.hands[who]))  # type: ignore[attr-defined]
                out.append(rng.choice(held[:-1]))
            continue
        if action.kind is ActionKind.DISCARD and who != seat:
            if deal.phase.value == "exchange" or not hidden_discard:
                raise ValueError("an exchange discard is not resampled")
            out += hidden_discard
        elif action.kind is ActionKind.DISCARD:
            lo, hi = sorted(c.index for c in action.cards)
            out += [lo, hi]
        else:
            out.append(core.history[len(out)])  # a call or a card played: as it was
    return out


def _steps(deal: object, core: PreferansCore) -> list[tuple[int, object]]:
    steps: list[tuple[int, object]] = list(deal.history)  # type: ignore[attr-defined]
    if core.pending is not None:
        steps.append((deal.to_act, None))  # type: ignore[attr-defined]
    return steps


def _bits(mask: int) -> list[int]:
    return [i for i in range(32) if mask >> i & 1]
