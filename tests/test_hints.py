"""The players explain themselves (issue 18): ``MonteCarloPlayer.explain`` gives the decision
``choose`` gives, with the values the player computed for it.

The card play's values are recomputed here from scratch (the same worlds drawn with the
same seed, solved by the solver, averaged as the player does); every other decision type is
checked against a fresh player's choice and the explanation's own invariants.  Without
budgets (tests/conftest.py), so the figures do not depend on the machine's load.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from preferans.deal import Deal, Phase
from preferans.players import make_player
from preferans.players.clock import FLOOR_WORLDS
from preferans.players.explain import FORMAT
from preferans.players.montecarlo import HARD, MonteCarloPlayer, decision_rng
from preferans.players.sampling import Sampler
from preferans.players.solving import play_position
from preferans.players.view import SeatView
from preferans.rules import Rules
from preferans.solver import solve_moves_batch
from test_players_clock import Seen, observations

SOCHI = Rules.preset("sochi")
CARD = re.compile(r"\b(?:7|8|9|10|J|Q|K|A)[SCDH]\b")


@pytest.fixture(scope="module")
def every_kind() -> Seen:
    return observations(per_label=1)


def _mid_play(seed: int, cards: int) -> dict[str, Any]:
    """A seat's observation ``cards`` cards into the play of a contract (Normal players)."""
    for k in range(40):
        deal = Deal.shuffle(SOCHI, k % 3, random.Random(seed * 100 + k))
        bots = [make_player("normal", SOCHI, seed=s) for s in range(3)]
        played = 0
        while deal.phase is not Phase.DONE:
            seat = deal.to_act
            obs = deal.observation(seat)
            if deal.phase is Phase.PLAY:
                if deal.kind != "contract":
                    break
                if played == cards and len(obs["legal"]) > 1:
                    return obs
                played += 1
            deal.apply(bots[seat].choose(obs))
    raise AssertionError("no contract deal found")


def _recomputed_card_values(obs: dict[str, Any], seed: int
                            ) -> tuple[dict[str, tuple[float, float]], int]:
    """Hard's card values, done again by hand: the worlds drawn from the player's seed and
    the observation, each solved, the value (declarer + / defender -) and the tricks of the
    player's side averaged by the worlds' weights."""
    view = SeatView.from_observation(obs)
    rng = decision_rng(seed, obs)
    worlds = Sampler(view, rng).sample(HARD.worlds, oversample=HARD.oversample, stop=None,
                                       floor=FLOOR_WORLDS)
    side = view.declarer
    positions = [play_position(view, w, mode="contract", side=side) for w in worlds]
    results = solve_moves_batch(positions)
    total = sum(w.weight for w in worlds)
    me = view.hand_to_play if view.hand_to_play is not None else view.seat
    sign = 1 if me == side else -1
    remaining = 10 - sum(view.tricks_won)
    out = {}
    for card in view.legal_cards():
        values = [r[card.index] for r in results]
        value = sum(sign * v * w.weight for v, w in zip(values, worlds, strict=True)) / total
        mine = [v if sign > 0 else remaining - v for v in values]
        tricks = sum(t * w.weight for t, w in zip(mine, worlds, strict=True)) / total
        out[str(card)] = (value, tricks)
    return out, len(worlds)


@pytest.mark.parametrize(("seed", "cards"), [(1, 0), (2, 4), (3, 11), (4, 7)])
def test_the_card_hint_gives_the_values_the_player_computes(seed: int, cards: int) -> None:
    obs = _mid_play(seed, cards)
    hint = MonteCarloPlayer(SOCHI, 17, HARD).explain(obs)
    expected, worlds = _recomputed_card_values(obs, 17)
    assert hint["format"] == FORMAT and hint["kind"] == "card" and hint["unit"] == "tricks"
    assert hint["counted"] == "side"
    assert {o["token"] for o in hint["options"]} == set(expected)
    for option in hint["options"]:
        value, tricks = expected[option["token"]]
        assert option["value"] == pytest.approx(value, abs=1e-9)
        assert option["tricks"] == pytest.approx(tricks, abs=1e-9)
    assert hint["worlds"] == worlds >= 1  # few unknown cards: every world, merged
    # the best card is the player's card, and it is the first option
    assert hint["choice"] == MonteCarloPlayer(SOCHI, 17, HARD).choose(obs)
    assert hint["options"][0]["token"] == hint["choice"]
    assert hint["options"][0]["value"] == max(o["value"] for o in hint["options"])


@pytest.mark.parametrize("level", ["hard", "crazy"])
def test_every_kind_of_decision_is_explained_as_the_player_decides(
        level: str, every_kind: Seen) -> None:
    explained = set()
    for label, group in every_kind.items():
        for rules, obs in group:
            hint = make_player(level, rules, seed=9, budget=None).explain(obs)  # type: ignore[attr-defined]
            chosen = make_player(level, rules, seed=9, budget=None).choose(obs)
            assert hint["choice"] == chosen, (level, label)
            assert hint["level"] == level
            json.dumps(hint)  # plain JSON: it goes through a pipe and a socket
            if not hint["options"]:
                continue
            explained.add(hint["kind"])
            tokens = [o["token"] for o in hint["options"]]
            assert tokens[0] == chosen and len(set(tokens)) == len(tokens)
            assert set(tokens) <= set(obs["legal"]), (level, label)
            assert hint["worlds"] >= 1
            assert hint["unit"] in ("whists", "tricks")
            values = [o["value"] for o in hint["options"]]
            if hint["kind"] in ("card", "defence", "contract"):  # the choice is the best value
                assert values[0] == pytest.approx(max(values)), (level, label, hint)
            assert values[1:] == sorted(values[1:], reverse=True)
    assert {"bid", "discard", "contract", "defence", "card"} <= explained


def test_the_auction_hint_values_passing_and_bidding_as_the_player_does() -> None:
    """The auction's figures are those the decision compares: the player bids when the best
    contract it can reach beats passing, and passes otherwise."""
    seen = 0
    for seed in range(30):
        deal = Deal.shuffle(SOCHI, seed % 3, random.Random(500 + seed))
        obs = deal.observation(deal.to_act)
        hint = MonteCarloPlayer(SOCHI, 3, HARD).explain(obs)
        values = {o["token"]: o["value"] for o in hint["options"]}
        assert hint["kind"] == "bid" and "PASS" in values
        bids = [t for t in values if t not in ("PASS", "MISERE")]
        if hint["choice"] == "PASS":
            assert all(values[b] <= values["PASS"] for b in bids)
        elif hint["choice"] != "MISERE":
            assert values[hint["choice"]] > values["PASS"]
            best = max(c["value"] for c in hint["contracts"])
            assert values[hint["choice"]] == pytest.approx(best)
        seen += hint["choice"] != "PASS"
    assert seen >= 3


def test_a_hint_names_no_card_the_seat_cannot_see(every_kind: Seen) -> None:
    for _label, group in every_kind.items():
        for rules, obs in group:
            hint = make_player("hard", rules, seed=4, budget=None).explain(obs)  # type: ignore[attr-defined]
            visible = set(obs.get("hand") or [])
            for cards in (obs.get("exposed") or {}).values():
                visible |= set(cards)
            visible |= set(obs.get("talon") or []) | set(obs.get("discard") or [])
            for trick in obs.get("tricks") or []:
                visible |= {c for _, c in trick["cards"]}
            visible |= {c for _, c in obs.get("trick") or []}
            # calls are legal actions of the seat (a bid such as 7D is no card); every card
            # named is a card it sees, and nothing else in the hint names a card
            assert {o["token"] for o in hint["options"]} <= set(obs["legal"])
            assert set(hint["values"]) <= set(obs["legal"])
            named = set()
            if hint["kind"] in ("card", "discard"):
                named = {c for o in hint["options"] for c in CARD.findall(o["token"])}
            assert named <= visible, (named - visible, obs["phase"])
            rest = {k: v for k, v in hint.items()
                    if k not in ("choice", "contracts", "values")}
            rest["options"] = [{k: v for k, v in o.items() if k not in ("token", "contract")}
                               for o in hint["options"]]
            assert not CARD.findall(json.dumps(rest)), rest


def test_explaining_changes_no_later_decision() -> None:
    """A player asked for hints decides afterwards as one that never was."""
    obs = _mid_play(5, 3)
    asked = MonteCarloPlayer(SOCHI, 2, HARD)
    asked.explain(obs)
    assert asked.choose(obs) == MonteCarloPlayer(SOCHI, 2, HARD).choose(obs)
