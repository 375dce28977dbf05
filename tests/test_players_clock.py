"""Decisions on a clock (issue 15): a budget that does not bind changes no decision, one that
binds stops the solving at the budget and never below the floor of worlds.

The clock is a fake one here: it advances by a fixed cost per position the solver is handed
(or per look), so every figure is deterministic.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import preferans.players.clock as clock
import preferans.players.inference as inference
import preferans.players.montecarlo as montecarlo
from preferans.deal import Deal, Phase
from preferans.players import make_player, parse_player
from preferans.players.clock import (
    FLOOR_STEP,
    FLOOR_WORLDS,
    HARD_SHARE,
    LEAST_WORLDS,
    MODE_FLOOR,
    Deadline,
)
from preferans.players.view import SeatView
from preferans.rules import Rules

SOCHI = Rules.preset("sochi")
TWO = Rules.preset("two-player")
SMALL = Rules.preset("rogue-small")
CLASSICAL = Rules.preset("classical-1971")
HUGE = 1e9


def _deck() -> list[str]:
    return [r + s for s in "SCDH" for r in ["7", "8", "9", "10", "J", "Q", "K", "A"]]


Seen = dict[str, list[tuple[Rules, dict]]]


def _collect(deal: Deal, out: Seen, per_label: int,
             force: dict[str, str] | None = None) -> None:
    """Play ``deal`` out with Normal players, keeping observations of each decision type."""
    bots = [make_player("normal", deal.rules, seed=s, budget=None)
            for s in range(deal.rules.players)]
    while deal.phase is not Phase.DONE:
        seat = deal.to_act
        obs = deal.observation(seat)
        legal = [str(t) for t in obs["legal"]]
        if len(legal) > 1:
            view = SeatView.from_observation(obs)
            label = obs["phase"]
            if view.dummy is not None and label in ("defence", "defence mode"):
                label = "two players " + label
            if label == "play":
                label = ("two hands" if view.two_hand_play and view.hand.bit_count() <= 6
                         else "two hands early" if view.two_hand_play else
                         "all-pass" if view.is_allpass else
                         "misere" if view.is_misere else
                         # the declarer against an open defence sees every card: one world
                         "open play" if obs["open_defence"] and obs["seat"] == obs["declarer"]
                         else "play")
            if len(out.setdefault(label, [])) < per_label:
                out[label].append((deal.rules, obs))
        token = (force or {}).get(obs["phase"])
        if token not in legal:
            token = bots[seat].choose(obs)
        deal.apply(token)


def observations(per_label: int = 2) -> Seen:
    """Observations of every kind of decision, from seeded deals (and a few set ones)."""
    out: Seen = {}
    for seed in range(12):
        _collect(Deal.shuffle(SOCHI, seed % 3, random.Random(seed)), out, per_label)
    for seed in range(2):  # all-pass
        _collect(Deal.shuffle(SOCHI, seed, random.Random(100 + seed)), out, per_label,
                 force={"auction": "PASS"})
    misere = ["7S", "8S", "7C", "9C", "7D", "8D", "7H", "8H", "9H", "JH"]
    for seed in range(20):  # a misère (the others may outbid it: the next shuffle then)
        rest = [c for c in _deck() if c not in misere]
        random.Random(seed).shuffle(rest)
        deal = Deal(SOCHI, 2, [misere, rest[:10], rest[10:20]], rest[20:22])
        _collect(deal, out, per_label, force={"auction": "MISERE"})
        if "misere" in out:
            break
    for seed in range(4):  # the two-player game: the defence with the dummy, two hands
        _collect(Deal.shuffle(TWO, seed % 2, random.Random(seed)), out, per_label)
    cold = ["AS", "KS", "QS", "JS", "10S", "9S", "AH", "KH", "AD", "AC"]
    rest = [c for c in _deck() if c not in cold]
    rogue = Deal(SMALL, 0, [rest[0:10], cold, rest[10:20]], rest[20:22])
    out.setdefault("name", []).append((SMALL, rogue.observation(1)))
    strong = ["AS", "KS", "QS", "JS", "10S", "9S", "AH", "KH", "AC", "AD"]
    low = ["7S", "8S", "7C", "8C", "7D", "8D", "9D", "7H", "8H", "9H"]
    rest = [c for c in _deck() if c not in strong and c not in low]
    classical = Deal(CLASSICAL, 0, [strong, low, rest[:10]], rest[10:12])
    for _ in range(4):  # B calls misère, C passes: A may answer with a game in hand
        legal = [str(a) for a in classical.legal_actions()]
        if classical.to_act == 0 and any(t.endswith("HAND") for t in legal):
            out["hand bid"] = [(CLASSICAL, classical.observation(0))]
            break
        classical.apply("MISERE" if classical.to_act == 1 and "MISERE" in legal else "PASS")
    return out


@pytest.fixture(scope="module")
def every_kind() -> Seen:
    return observations()


def test_the_observations_cover_every_decision_type(every_kind: Seen) -> None:
    assert {"auction", "discard", "contract", "defence", "play", "all-pass", "misere",
            "two hands", "two players defence", "name", "hand bid"} <= set(every_kind)


@pytest.mark.parametrize("level", ["normal", "hard", "crazy"])
def test_a_budget_that_does_not_bind_changes_no_decision(
        level: str, every_kind: Seen) -> None:
    kinds = every_kind if level != "crazy" else {k: v[:1] for k, v in every_kind.items()}
    compared = 0
    for label, group in kinds.items():
        for i, (rules, obs) in enumerate(group):
            free = make_player(level, rules, seed=5 + i, budget=None)
            clocked = make_player(level, rules, seed=5 + i, budget=HUGE)
            assert free.choose(obs) == clocked.choose(obs), (level, label, i)
            compared += 1
    assert compared >= len(kinds)


class SolveClock:
    """A fake clock: ``cost`` seconds per position handed to the solver."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, cost: float) -> None:
        self.now = 0.0
        self.cost = cost
        for module in (montecarlo, inference):
            for name in ("solve_batch", "solve_moves_batch"):
                real = getattr(module, name, None)
                if real is not None:
                    monkeypatch.setattr(module, name, self._wrap(real))

    def _wrap(self, real: Any) -> Any:
        def solve(positions: Any, *args: Any, **kwargs: Any) -> Any:
            positions = list(positions)
            self.now += self.cost * len(positions)
            return real(positions, *args, **kwargs)
        return solve

    def __call__(self) -> float:
        return self.now


def _stage(player: Any, name: str) -> Any:
    deadline = player.last_deadline
    assert deadline is not None
    return next(s for s in deadline.stages if s.name == name)


@pytest.mark.parametrize(("level", "label", "stage"), [
    ("hard", "play", "play"), ("crazy", "all-pass", "play"), ("hard", "defence", "defence"),
    ("crazy", "auction", "bid"), ("hard", "discard", "discard"),
])
def test_a_binding_budget_stops_at_the_budget_and_above_the_floor(
        level: str, label: str, stage: str, every_kind: Seen,
        monkeypatch: pytest.MonkeyPatch) -> None:
    rules, obs = every_kind[label][0]
    clock = SolveClock(monkeypatch, cost=0.004)
    budget = 0.2
    bot = make_player(level, rules, seed=1, budget=budget, clock=clock)
    token = bot.choose(obs)
    assert token in obs["legal"]
    assert bot.last_deadline is not None
    stages = [s for s in bot.last_deadline.stages if s.name == stage]
    used = sum(s.used for s in stages)  # the discard races in rounds: one stage each
    planned = bot.level.worlds if stage == "discard" else stages[0].planned
    # the floor, or at least LEAST_WORLDS where the floor's next step would end past the
    # hard line (this fake clock's floor of 16 bid worlds costs 0.256 s, past 0.25 s)
    assert LEAST_WORLDS <= used < planned, stages
    # past the floor no span began once the budget was spent; the floor's steps stop at the
    # hard line
    assert all(s.last_span < budget * HARD_SHARE for s in stages if s.used), stages
    assert all(s.last_span < budget for s in stages if s.used > FLOOR_WORLDS), stages


def test_a_spent_budget_still_solves_the_least_worlds(every_kind: Seen,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    _, obs = every_kind["play"][0]
    clock = SolveClock(monkeypatch, cost=1.0)  # every position costs a second
    bot = make_player("crazy", SOCHI, seed=1, budget=0.001, clock=clock)
    assert bot.choose(obs) in obs["legal"]
    used = _stage(bot, "play")
    assert used.used == min(LEAST_WORLDS, used.planned)


def _spans(budget: float, waited: float, per_world: float, n: int = 100,
           floor: int = FLOOR_WORLDS) -> tuple[list[tuple[int, int]], float]:
    """The spans a deadline hands out when each world costs ``per_world`` seconds, and the
    seconds into the decision when the last one ended."""
    now = [0.0]
    deadline = Deadline(budget, clock=lambda: now[0], waited=waited)
    out = []
    for lo, hi in deadline.spans(n, floor=floor):
        out.append((lo, hi))
        now[0] += per_world * (hi - lo)
    return out, deadline.elapsed()


def test_the_floor_is_solved_past_the_budget_up_to_the_hard_line() -> None:
    # 0.9 s of a 1 s budget waited; the floor of 16 worlds at 10 ms each ends at 1.06 s,
    # past the budget and short of the hard line (1.25 s): the whole floor, then no span
    spans, ended = _spans(1.0, 0.9, 0.01)
    assert spans == [(0, 4), (4, 8), (8, 12), (12, 16)] and ended == pytest.approx(1.06)
    # at 50 ms a world the floor would end at 1.7 s: it stops at the least worlds (1.3 s)
    spans, ended = _spans(1.0, 0.9, 0.05)
    assert spans == [(0, 4), (4, 8)] and ended == pytest.approx(1.3)
    # however late, the least worlds are solved (or every world of a smaller stage)
    assert _spans(1.0, 5.0, 0.05)[0][-1] == (4, LEAST_WORLDS)
    assert _spans(1.0, 5.0, 0.05, n=6)[0] == [(0, 4), (4, 6)]
    # on time, a step at a time up to the floor, then spans while they end inside the budget
    spans, ended = _spans(1.0, 0.0, 0.01)
    assert spans[:4] == [(0, 4), (4, 8), (8, 12), (12, 16)] and spans[4] == (16, 32)
    assert ended <= 1.0 and all(hi - lo == FLOOR_STEP for lo, hi in spans[:4])


@pytest.mark.parametrize(("level", "label", "stage"), [
    ("hard", "play", "play"), ("crazy", "auction", "bid")])
def test_time_a_decision_waited_is_spent_from_its_budget(
        level: str, label: str, stage: str, every_kind: Seen,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A decision that waited (for the thinking process, for a core) before its player
    started has that much less of its budget: a wait of the whole budget leaves the floor
    alone, or fewer worlds down to the least where the floor would end past the hard line
    (where a decision without a clock solves every world); it is spent once."""
    rules, obs = every_kind[label][0]
    budget = 0.2
    fresh = make_player(level, rules, seed=1, budget=None,
                        clock=SolveClock(monkeypatch, cost=0.004))
    fresh.choose(obs)  # without a clock: every world
    full = sum(s.used for s in fresh.last_deadline.stages if s.name == stage)
    late = make_player(level, rules, seed=1, budget=budget,
                       clock=SolveClock(monkeypatch, cost=0.004))
    late.waited = budget
    assert late.choose(obs) in obs["legal"]
    assert late.waited == 0.0  # spent on that decision only
    stages = [s for s in late.last_deadline.stages if s.name == stage]
    used = sum(s.used for s in stages)
    planned = stages[0].planned
    assert min(LEAST_WORLDS, planned) <= used <= min(FLOOR_WORLDS, planned) < full
    assert late.last_deadline.elapsed() >= budget


def test_sampling_stops_at_its_share_of_the_budget(every_kind: Seen) -> None:
    _, obs = every_kind["all-pass"][0]  # the first lead: far too many worlds to enumerate
    ticks = iter(range(10**9))
    bot = make_player("crazy", SOCHI, seed=1, budget=5.0, clock=lambda: float(next(ticks)))
    assert bot.choose(obs) in obs["legal"]
    sample = _stage(bot, "sample")
    assert FLOOR_WORLDS <= sample.used <= 2 * FLOOR_WORLDS < sample.planned  # a look per 8


def _deal_at_defence_mode() -> Deal:
    for seed in range(200):
        deal = Deal.shuffle(SOCHI, seed % 3, random.Random(seed))
        bots = [make_player("normal", SOCHI, seed=s, budget=None) for s in range(3)]
        while deal.phase not in (Phase.DONE, Phase.DEFENCE_MODE):
            deal.apply(bots[deal.to_act].choose(deal.observation(deal.to_act)))
        if deal.phase is Phase.DEFENCE_MODE:
            return deal
    raise AssertionError("no lone whister in 200 deals")


def test_a_late_lone_whister_plays_out_the_floor_of_deals_and_opens() -> None:
    deal = _deal_at_defence_mode()
    obs = deal.observation(deal.to_act)
    ticks = iter(range(10**9))  # a second per look: the budget is soon spent
    bot = make_player("crazy", SOCHI, seed=1, budget=0.5, clock=lambda: float(next(ticks)))
    assert bot.choose(obs) == "OPEN"  # no time for a comparison: the sane default
    played = _stage(bot, "closed play-outs")
    assert played.used == MODE_FLOOR < played.planned
    free = make_player("crazy", SOCHI, seed=1, budget=None)
    clocked = make_player("crazy", SOCHI, seed=1, budget=HUGE)
    assert free.choose(obs) == clocked.choose(obs)


@pytest.mark.budgets
def test_budgets_by_name_and_parameter() -> None:
    assert make_player("hard", SOCHI).budget == clock.BUDGETS["hard"] == 0.3
    assert make_player("crazy", SOCHI, budget=None).budget is None
    assert make_player("crazy-nobudget", SOCHI, budget=2.0).budget is None
    assert make_player("crazy-budget", SOCHI, budget=None).budget == clock.BUDGETS["crazy"]
    assert make_player("crazy-budget=0.7", SOCHI).budget == 0.7
    assert parse_player("hard-budget=1") == ("hard", 1.0)
    for bad in ("crazy-budget=0", "crazy-budget=x", "crazy-fast", "crazy-budget=-1"):
        with pytest.raises(ValueError, match=r"budget|after the level"):
            make_player(bad, SOCHI)
    with pytest.raises(ValueError, match="positive"):
        make_player("hard", SOCHI, budget=0.0)


def test_a_deadline_without_budget_is_one_span() -> None:
    d = Deadline(None)
    assert list(d.spans(400)) == [(0, 400)]
    assert not d.over()
    assert MODE_FLOOR >= 0
