"""The OpenSpiel game ``python_preferans``: OpenSpiel's own checks for Python games (random
simulations with serialisation and cloning), the action space, the seed policy, the bots."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

from preferans.env import spec  # noqa: E402
from preferans.env.core import MAX_STEPS_PER_DEAL, EnvConfig, PreferansCore  # noqa: E402
from preferans.env.openspiel import make_bot  # noqa: E402
from preferans.match import board_cards  # noqa: E402
from preferans.rules import Rules  # noqa: E402

FAMILIES = ("sochi", "leningrad", "rostov")


def _load(**params):
    return pyspiel.load_game("python_preferans", params)


def _python_sim(game, rng: random.Random, *, games: int) -> list[list[float]]:
    """What OpenSpiel's ``games_sim_test.sim_game`` does for a Python game, over ``games``
    games: pickling the game and its type, pyspiel and pickle serialisation of the state at
    every power of two actions, cloning before every decision, bounds of the returns."""
    assert game.min_utility() < game.max_utility()
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    assert pickle.loads(pickle.dumps(game.get_type())) == game.get_type()
    results = []
    for _ in range(games):
        state = game.new_initial_state()
        actions, check = 0, 1
        while not state.is_terminal():
            actions += 1
            if actions >= check:
                text = pyspiel.serialize_game_and_state(game, state)
                new_game, new_state = pyspiel.deserialize_game_and_state(text)
                assert str(new_game) == str(game) and str(new_state) == str(state)
                assert str(pickle.loads(pickle.dumps(state))) == str(state)
                check *= 2
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                assert abs(sum(probs) - 1) < 1e-9
                state.apply_action(rng.choice(outcomes))
                continue
            action = rng.choice(state.legal_actions())
            clone = state.clone()
            assert str(clone) == str(state) and clone.history() == state.history()
            state.apply_action(action)
            clone.apply_action(action)
            assert str(clone) == str(state) and clone.history() == state.history()
        assert state.legal_actions() == []
        assert len(state.history()) <= game.max_game_length()
        returns = state.returns()
        assert abs(sum(returns)) < 1e-6
        assert all(game.min_utility() <= r <= game.max_utility() for r in returns)
        results.append(returns)
    return results


def advance(state, rng: random.Random, decisions: int):
    """Random play: every chance node, then ``decisions`` decisions (or to the end)."""
    while not state.is_terminal() and (decisions > 0 or state.is_chance_node()):
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            decisions -= 1
    return state


def test_the_game_is_registered_with_its_parameters():
    game = _load()
    assert game.get_type().short_name == "python_preferans"
    assert game.num_players() == 3
    assert game.num_distinct_actions() == spec.NUM_ACTIONS == 118
    assert game.max_chance_outcomes() == 32
    assert game.max_game_length() == MAX_STEPS_PER_DEAL
    assert "rules=sochi" in str(game)
    pulya = _load(rules="rostov", pulya=10, max_deals=50)
    assert pulya.max_game_length() == 50 * MAX_STEPS_PER_DEAL
    assert pulya.max_utility() > game.max_utility()
    with pytest.raises(Exception, match="3 players"):
        _load(players=4)
    with pytest.raises(Exception, match="unknown"):
        _load(rules="no-such-preset")


@pytest.mark.slow
@pytest.mark.parametrize("preset", FAMILIES)
def test_openspiel_random_simulations_of_200_deals(preset):
    """OpenSpiel's C++ RandomSimTest (with serialisation) and the Python games' sim checks."""
    game = _load(rules=preset)
    pyspiel.random_sim_test(game, num_sims=200, serialize=True, verbose=False)
    _python_sim(game, random.Random(preset), games=10)


def test_the_seed_policy_deals_the_boards_of_preferans_match():
    rules = Rules.preset("leningrad")
    game = _load(rules="leningrad", seed=11, board=4)
    state = game.new_initial_state()
    while state.is_chance_node():
        (outcome, prob), = state.chance_outcomes()
        assert prob == 1.0
        state.apply_action(outcome)
    dealer, hands, talon = board_cards(rules, 11, 4)
    deal = state.core.game.deal
    assert deal.dealer == dealer == 4 % 3
    assert [h.to_list() for h in deal.hands] == [sorted_hand(h) for h in hands]
    assert [str(c) for c in deal.talon] == talon


def sorted_hand(cards: list[str]) -> list[str]:
    from preferans.cards import CardSet

    return CardSet.parse(" ".join(cards)).to_list()


def test_a_discard_is_two_single_card_steps_lower_card_first():
    core = PreferansCore(EnvConfig(seed=1, board=0))
    while core.current_player() == -1:
        core.apply(core.chance_outcomes()[0][0])
    # bid until someone wins the talon
    while core.game.deal.phase.value == "auction":
        legal = core.legal_actions()
        core.apply(legal[0] if core.game.deal.auction.high is None else spec.PASS_ID)
    deal = core.game.deal
    assert deal.phase.value == "discard"
    hand = sorted(c.index for c in deal.hand(deal.declarer))
    first = core.legal_actions()
    assert [a for a in first if a < 32] == hand[:-1]
    core.apply(hand[3])
    assert core.current_player() == deal.declarer
    assert core.legal_actions() == hand[4:]
    assert core.view(deal.declarer)["pending_discard"] == spec.ACTION_NAMES[hand[3]]
    other = (deal.declarer + 1) % 3
    assert "pending_discard" not in core.view(other)
    with pytest.raises(ValueError):
        core.apply(hand[2])
    core.apply(hand[7])
    assert core.game.deal.phase.value == "contract"
    assert {c.index for c in core.game.deal.discard} == {hand[3], hand[7]}


def test_action_strings_name_the_phase():
    state = _load(seed=3).new_initial_state()
    assert state.action_to_string(-1, 31) == "deal AH"
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.action_to_string(state.current_player(), spec.PASS_ID) == "PASS"
    assert state.action_to_string(state.current_player(), 32) == "6S"


def test_clones_diverge_without_sharing_the_sheet():
    """A clone shares the pulya sheet until a deal may end on it (copy on write)."""
    game = _load(rules="sochi", pulya=10, seed=2)
    rng = random.Random(5)
    state = game.new_initial_state()
    for _ in range(300):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    clones = [state.clone() for _ in range(3)]
    before = [str(c.core.game.sheet.to_json()) for c in clones]
    ended = []
    for k, clone in enumerate(clones):
        r = random.Random(k)
        deals = len(clone.core.game.finished_deals)
        while not clone.is_terminal() and len(clone.core.game.finished_deals) == deals:
            if clone.is_chance_node():
                clone.apply_action(clone.chance_outcomes()[0][0])
            else:
                clone.apply_action(r.choice(clone.legal_actions()))
        ended.append(clone)
    assert str(state.core.game.sheet.to_json()) == before[0]
    assert len({str(c.core.game.sheet.to_json()) for c in ended}) >= 2


def test_tensors_have_the_documented_shapes():
    from preferans.env import tensors

    game = _load()
    assert game.observation_tensor_shape() == [tensors.OBSERVATION_SIZE]
    assert game.information_state_tensor_shape() == [tensors.INFORMATION_STATE_SIZE]
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    seat = state.current_player()
    obs = np.array(state.observation_tensor(seat))
    info = np.array(state.information_state_tensor(seat))
    assert obs.sum() > 10 and info.sum() > 10  # 10 cards, seat, dealer, phase, to act
    assert state.information_state_string(seat).startswith(f"p{seat} | phase auction")


@pytest.mark.parametrize("level", ["easy", "normal", "hard", "crazy"])
def test_our_levels_play_as_openspiel_bots(level):
    """Each level plays whole deals as a ``pyspiel.Bot`` (against random bots), fed only
    its seat's view; the same seed gives the same game."""
    game = _load(rules="sochi", seed=7, board=1)
    worlds = {"normal": "normal/worlds=16", "hard": "hard/worlds=16", "crazy": "crazy/worlds=16"}
    histories = []
    for _ in range(2):
        bots = [make_bot(game, 0, worlds.get(level, level), seed=1),
                make_bot(game, 1, "random", seed=2), make_bot(game, 2, level_or(level), seed=3)]
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.chance_outcomes()[0][0])
            else:
                state.apply_action(bots[state.current_player()].step(state))
        histories.append(state.history())
        assert abs(sum(state.returns())) < 1e-9
    assert histories[0] == histories[1]


def level_or(level: str) -> str:
    return "easy" if level != "easy" else "random"


def test_evaluate_bots_runs_our_bots():
    from open_spiel.python.algorithms import evaluate_bots

    game = _load(rules="rostov")
    bots = [make_bot(game, p, "easy", seed=p) for p in range(3)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(3))
    assert len(returns) == 3 and abs(sum(returns)) < 1e-9


def test_module_doctests():
    import doctest

    from preferans.env import aec, core, evaluate, spec

    for module in (core, spec, aec, evaluate):
        assert doctest.testmod(module).failed == 0, module.__name__


@pytest.mark.parametrize("preset,pulya", [("sochi", 0), ("rostov", 10), ("vmk", 0),
                                          ("classical-1971", 10)])
def test_resample_from_infostate_keeps_the_information_state(preset, pulya):
    """A world drawn for a seat (``resample_from_infostate``, for information-set search)
    has that seat's information state, tensors and legal actions exactly."""
    game = _load(rules=preset, pulya=pulya)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    rng = random.Random(preset)
    checked = 0
    for _ in range(25):
        state = advance(game.new_initial_state(), rng, rng.randint(0, 120 if pulya else 45))
        if state.is_terminal():
            continue
        p = rng.randrange(3)
        world = state.resample_from_infostate(p, sampler)
        assert world.information_state_string(p) == state.information_state_string(p)
        assert world.information_state_tensor(p) == state.information_state_tensor(p)
        assert world.current_player() == state.current_player()
        if p == state.current_player():
            assert world.legal_actions() == state.legal_actions()
        checked += 1
    assert checked >= 8


def test_ismcts_plays_a_deal():
    from open_spiel.python.algorithms import ismcts, mcts

    game = _load(seed=1, board=3)
    search = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                              2.0, 20, random_state=np.random.RandomState(0))
    others = [make_bot(game, p, "easy") for p in range(3)]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        elif state.current_player() == 0:
            state.apply_action(search.step(state))
        else:
            state.apply_action(others[state.current_player()].step(state))
    assert abs(sum(state.returns())) < 1e-9
