"""The OpenSpiel game and the PettingZoo environment on the C deal core
(:mod:`preferans.env.deal_core`): the same game as on the Python engine, step by step, for
every preset the core claims; the fallbacks; the move onto the engine when a caller needs it;
copies, pickling and serialisation of a state on the core."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.observation import INFO_STATE_OBS_TYPE, make_observation  # noqa: E402

import preferans.env  # noqa: E402
from preferans.env import deal_core, tensors  # noqa: E402
from preferans.env.core import EnvConfig, PreferansCore  # noqa: E402
from preferans.env.openspiel import PreferansState  # noqa: E402
from preferans.env.vector_claim import core_parameters  # noqa: E402
from preferans.rules import PRESETS, Rules  # noqa: E402

CLAIMED = [name for name in PRESETS if core_parameters(Rules.preset(name)) is not None]


def _load(**params):
    return pyspiel.load_game("python_preferans", params)


def _engine_state(game):
    """The game's fresh state on the Python engine."""
    return PreferansState(game, game._fresh.engine.clone())


def _lockstep(game, rng: random.Random, deals: int) -> int:
    """``deals`` random deals on the core and on the engine side by side; the decisions made."""
    observers = (make_observation(game), make_observation(game, INFO_STATE_OBS_TYPE))
    decisions = 0
    for _ in range(deals):
        fast, slow = game.new_initial_state(), _engine_state(game)
        assert fast.on_core and not slow.on_core
        while True:
            assert fast.current_player() == slow.current_player()
            assert fast.is_terminal() == slow.is_terminal()
            assert fast.rewards() == slow.rewards()
            if slow.is_terminal():
                break
            if slow.is_chance_node():
                outcomes = slow.chance_outcomes()
                assert fast.chance_outcomes() == outcomes
                action = rng.choice(outcomes)[0]
            else:
                player = slow.current_player()
                legal = slow.legal_actions()
                assert fast.legal_actions() == legal
                assert fast.legal_actions((player + 1) % 3) == []
                for seat in range(3):
                    for observer in observers:  # the observation and the information state
                        observer.set_from(slow, seat)
                        expected = observer.tensor.copy()
                        observer.set_from(fast, seat)
                        assert np.array_equal(observer.tensor, expected), \
                            (seat, observer.perfect_recall, slow.history())
                names = [slow.action_to_string(player, a) for a in legal]
                assert [fast.action_to_string(player, a) for a in legal] == names
                action = rng.choice(legal)
                decisions += 1
            fast.apply_action(action)
            slow.apply_action(action)
        assert fast.returns() == pytest.approx(slow.returns())
        assert fast.on_core  # nothing above needed the engine
    return decisions


@pytest.mark.parametrize("name", CLAIMED)
def test_the_core_plays_each_claimed_preset_as_the_engine_does(name):
    assert _lockstep(_load(rules=name), random.Random(name), deals=12) > 120


def test_house_rules_as_json_and_a_seed_of_the_game():
    rules = '{"preset": "rostov", "over_greedy": true, "resignation": true, ' \
            '"talon_refusal": true, "talon_prizes": "whists"}'
    _lockstep(_load(rules=rules), random.Random(3), deals=8)
    seeded = _load(rules="leningrad", seed=11, board=4)
    assert len(seeded.new_initial_state().chance_outcomes()) == 1
    _lockstep(seeded, random.Random(4), deals=3)


@pytest.mark.parametrize("params", [
    {"rules": "sochi", "pulya": 10},  # a whole pulya: the sheet carries over
    {"rules": "sochi", "ranks": 5},  # Mini Preferans
    {"rules": "classical-1971"},  # halves the core does not play
    {"rules": "racing-22"},
])
def test_what_the_core_does_not_play_stays_on_the_engine(params):
    state = _load(**params).new_initial_state()
    assert not state.on_core
    assert not state.clone().on_core


def test_use_core_off_puts_every_state_on_the_engine():
    game = _load(rules="sochi")
    before = deal_core.use_core(False)
    try:
        assert not game.new_initial_state().on_core
    finally:
        deal_core.use_core(before)
    assert game.new_initial_state().on_core


def _random_prefix(game, rng, decisions):
    state = game.new_initial_state()
    made = 0
    while not state.is_terminal() and (made < decisions or state.is_chance_node()):
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            made += 1
    return state


def test_what_needs_the_engine_moves_the_state_onto_it():
    game = _load(rules="sochi")
    rng = random.Random(8)
    for decisions in (0, 3, 6, 12, 20):
        state = _random_prefix(game, rng, decisions)
        assert state.on_core
        history = state.history()
        engine = PreferansCore.replay(game.config, history)
        seat = max(state.current_player(), 0)
        expected = (tensors.information_state_string(engine, seat),
                    tensors.information_state_tensor(engine, seat).tolist(), str(
                        PreferansState(game, engine.clone())))
        # a string needs the engine: the state replays its history there and stays
        assert state.information_state_string(seat) == expected[0]
        assert not state.on_core
        assert state.information_state_tensor(seat) == expected[1]
        assert str(state) == expected[2]
        assert state.core.history == history
        # and plays on from there as the engine does
        while not state.is_terminal():
            legal = state.legal_actions() if not state.is_chance_node() else \
                [a for a, _ in state.chance_outcomes()]
            assert legal == (engine.legal_actions() if engine.current_player() != -1
                             else [a for a, _ in engine.chance_outcomes()])
            action = rng.choice(legal)
            state.apply_action(action)
            engine.apply(action)
        assert state.returns() == engine.returns()


def test_copies_pickles_and_serialisation_of_a_state_on_the_core():
    game = _load(rules="leningrad")
    rng = random.Random(5)
    state = _random_prefix(game, rng, 4)
    assert state.on_core and not state.is_terminal()
    copies = [state.clone(), pickle.loads(pickle.dumps(state)),
              pyspiel.deserialize_game_and_state(
                  pyspiel.serialize_game_and_state(game, state))[1]]
    for other in copies:
        assert other.history() == state.history()
        assert other.legal_actions() == state.legal_actions()
    clone = copies[0]
    assert clone.on_core
    # the copy is apart: playing it on leaves the original where it was
    legal = state.legal_actions()
    clone.apply_action(legal[0])
    assert state.legal_actions() == legal and len(state.history()) + 1 == len(clone.history())


def test_fresh_states_share_the_fresh_deal_until_they_move():
    game = _load(rules="sochi")
    first, second = game.new_initial_state(), game.new_initial_state()
    first.apply_action(7)
    assert second.chance_outcomes() == game.new_initial_state().chance_outcomes()
    assert len(second.chance_outcomes()) == 32 and len(first.chance_outcomes()) == 31
    copy = second.clone()
    copy.apply_action(9)
    assert second.history() == [] and len(second.chance_outcomes()) == 32


def test_illegal_actions_are_refused_on_the_core():
    game = _load(rules="sochi")
    state = game.new_initial_state()
    state.apply_action(5)
    deal = state._c
    with pytest.raises(ValueError, match="not the card"):
        deal.apply(5)  # dealt already
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    illegal = next(a for a in range(118) if a not in state.legal_actions())
    with pytest.raises(ValueError, match="not legal"):
        deal.apply(illegal)
    assert state.on_core


def test_resample_and_ismcts_start_from_a_state_on_the_core():
    from preferans.env.openspiel import make_ismcts_bot

    game = _load(rules="sochi")
    state = _random_prefix(game, random.Random(2), 4)
    player = state.current_player()
    bot = make_ismcts_bot(game, player, simulations=8, seed=1)
    assert bot.step(state) in state.legal_actions()


@pytest.mark.parametrize("observation", ["observation", "information_state"])
def test_pettingzoo_steps_the_core_without_views_and_matches_the_engine(observation):
    def episode(env, seed):
        env.reset(seed=seed)
        rng = random.Random(seed)
        out = []
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            out.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(),
                        reward))
            if terminated or truncated:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        return out

    fast = preferans.env.pettingzoo_env(rules="rostov", observation=observation)
    assert fast._on_core
    before = deal_core.use_core(False)
    try:
        slow = preferans.env.pettingzoo_env(rules="rostov", observation=observation)
        runs = [episode(slow, seed) for seed in range(4)]
    finally:
        deal_core.use_core(before)
    for seed in range(4):
        assert episode(fast, seed) == runs[seed]
        assert type(fast._c) is deal_core.CoreDeal
    # asking for the engine's state replays the episode there
    assert fast.core.over and type(fast._c) is PreferansCore


def test_the_module_example():
    import doctest

    result = doctest.testmod(deal_core)
    assert result.attempted > 0 and result.failed == 0


def test_the_configurations_the_core_takes():
    assert deal_core.fast_config(EnvConfig(rules="sochi")) is not None
    assert deal_core.fast_config(EnvConfig(rules="sochi", pulya=10)) is None
    assert deal_core.fast_config(EnvConfig(rules="sochi", ranks=2)) is None


@pytest.mark.parametrize("rules", [
    "sochi", "leningrad", "rostov",
    '{"preset": "sochi", "misere_exposure": "before_lead", "open_before_lead": false}',
    '{"preset": "rostov", "over_greedy": true, "resignation": true, "talon_refusal": true}',
    '{"preset": "leningrad", "allpass_talon": "closed", "half_whist_reopen": false}',
])
def test_the_information_state_differential(rules):
    """``tools/info_state_differential.py``, bounded: every seat's information-state and
    observation tensors from C equal the engine's at every decision (its 10,000-deal runs
    per preset are quoted in docs/research.md)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
    import info_state_differential

    deals, decisions, compared, problem, _ = info_state_differential.compare(rules, 80, 5)
    assert problem == "" and deals == 80
    assert compared == 6 * decisions > 1500
