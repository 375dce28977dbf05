"""The PettingZoo AEC environment: ``api_test``, action masks, rewards in whists, our levels
as policies."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("pyspiel")

from pettingzoo.test import api_test

import preferans.env
from preferans.env import spec, tensors

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize("params", [
    {},
    {"rules": "leningrad", "observation": "information_state"},
    {"rules": "rostov", "pulya": 10, "max_deals": 30},
    {"rules": "sochi", "seed": 3, "board": 5},
])
def test_api_test_passes(params):
    env = preferans.env.pettingzoo_env(**params)
    api_test(env, num_cycles=500, verbose_progress=False)


def _play(env, choose, seed=0):
    env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.shape == (spec.NUM_ACTIONS,)
        assert sorted(np.flatnonzero(mask)) == env.core.legal_actions()
        env.step(choose(agent, obs, info))
    return totals


def test_rewards_add_up_to_the_balance_of_a_pulya():
    env = preferans.env.pettingzoo_env(rules="sochi", pulya=10)
    rng = np.random.default_rng(1)
    totals = _play(env, lambda agent, obs, info: rng.choice(np.flatnonzero(obs["action_mask"])))
    assert env.core.game.finished
    assert [totals[a] for a in env.possible_agents] == pytest.approx(env.core.returns())
    assert abs(sum(totals.values())) < 1e-6


def test_a_pulya_cut_by_max_deals_ends_in_truncation():
    env = preferans.env.pettingzoo_env(rules="sochi", pulya=50, max_deals=2)
    rng = np.random.default_rng(2)
    _play(env, lambda agent, obs, info: rng.choice(np.flatnonzero(obs["action_mask"])))
    assert env.core.truncated and len(env.core.game.finished_deals) == 2


def test_the_observation_and_the_mask_are_the_seats_own():
    env = preferans.env.pettingzoo_env(observation="information_state", seed=1)
    env.reset()
    agent = env.agent_selection
    seat = env.possible_agents.index(agent)
    obs = env.observe(agent)
    assert obs["observation"].shape == (tensors.INFORMATION_STATE_SIZE,)
    assert np.array_equal(obs["observation"],
                          tensors.information_state_tensor(env.core, seat))
    other = env.possible_agents[(seat + 1) % 3]
    assert env.observe(other)["action_mask"].sum() == 0
    assert env.infos[agent] == {} and env.infos[other] == {}  # views on demand
    assert env.view(agent)["hand"] == env.core.game.deal.hand(seat).to_list()
    assert env.view(agent) == env.core.view(seat)


def test_views_in_infos_when_asked_for():
    env = preferans.env.pettingzoo_env(seed=1, views=True)
    env.reset()
    agent = env.agent_selection
    seat = env.possible_agents.index(agent)
    other = env.possible_agents[(seat + 1) % 3]
    assert "view" in env.infos[agent] and env.infos[other] == {}
    assert env.infos[agent]["view"]["hand"] == env.core.game.deal.hand(seat).to_list()


def test_a_policy_without_views_or_env_says_what_it_needs():
    from preferans.env.bots import PreferansPolicy

    env = preferans.env.pettingzoo_env(seed=1)
    env.reset()
    obs, *_, info = env.last()
    with pytest.raises(ValueError, match="views=True"):
        PreferansPolicy("easy", "sochi")(obs, info)
    assert obs["action_mask"][env.policy("easy")(obs, info)] == 1


@pytest.mark.parametrize("levels", [("easy", "normal/worlds=16", "random"),
                                    ("hard/worlds=16", "crazy/worlds=16", "easy")])
@pytest.mark.parametrize("views", [False, True])
def test_our_levels_play_as_pettingzoo_policies(levels, views):
    env = preferans.env.pettingzoo_env(rules="rostov", seed=4, board=2, views=views)
    policies = {a: env.policy(level, seed=k) for k, (a, level)
                in enumerate(zip(env.possible_agents, levels, strict=True))}
    totals = _play(env, lambda agent, obs, info: policies[agent](obs, info))
    assert env.core.over
    assert [totals[a] for a in env.possible_agents] == pytest.approx(env.core.returns())


def test_render_and_record():
    env = preferans.env.pettingzoo_env(render_mode="ansi", seed=2)
    env.reset()
    assert "hand" in env.render()
    assert env.to_record()["format"] == "preferans-record/1"
    env.close()


def test_duplicate_evaluation_against_a_level():
    from preferans.env.evaluate import duplicate
    from preferans.env.openspiel import make_bot

    report = duplicate(lambda game, p: make_bot(game, p, "random", seed=p), "easy",
                       boards=3, seed=2)
    assert report["boards"] == 3 and report["deals"] == 3
    low, high = report["ci95"]
    assert low <= report["gain_per_deal"] <= high
    # the gain is the agent's result minus the level's on the same cards and seats
    assert report["gain_per_deal"] == pytest.approx(
        report["agent_per_deal"] - report["level_per_deal"])
