"""The vector environment (:class:`preferans.env.vector.VectorEnv`): its API on both backends,
determinism, the C core's claim, and the differential check of the C core against the Python
engine, action by action, for every preset the core claims and a few house rules."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from preferans.env import spec, tensors
from preferans.env.vector import VectorEnv
from preferans.env.vector_claim import core_parameters, refusal
from preferans.env.vector_score import CODES, ScoreTable
from preferans.rules import PRESETS, Rules

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))

import vector_differential

PRODUCT = ("sochi", "leningrad", "rostov")
HOUSE_RULES = (
    {"preset": "sochi", "half_whist_reopen": False, "open_before_lead": False},
    {"preset": "sochi", "misere_exposure": "before_lead", "misere_outbid_by": 10},
    {"preset": "leningrad", "jump_bids": False, "stalingrad_sixes": True},
    {"preset": "rostov", "over_greedy": True, "resignation": True, "talon_refusal": True,
     "talon_prizes": "whists", "tens_whisted": False},
    {"preset": "kazakhstan", "over_greedy": True, "over_greedy_two_only": True,
     "allpass_min_bid": [7, 8]},
)
FALLBACK = ("classical-1971", "racing-22")


def _play(env: VectorEnv, steps: int) -> list[tuple[np.ndarray, ...]]:
    out = []
    obs, mask = env.reset()
    for _ in range(steps):
        actions = env.random_actions()
        assert mask[np.arange(env.num_envs), actions].all()
        obs, mask, rewards, done, info = env.step(actions)
        out.append((obs, mask, rewards, done, info["player"]))
    return out


@pytest.mark.parametrize("backend", ["c", "python"])
def test_the_arrays_and_the_deals(backend):
    env = VectorEnv(6, "sochi", seed=5, backend=backend)
    assert env.backend == backend
    obs, mask = env.reset()
    assert obs.shape == (6, tensors.OBSERVATION_SIZE) and obs.dtype == np.float32
    assert mask.shape == (6, spec.NUM_ACTIONS) and mask.dtype == np.bool_
    assert (mask.sum(axis=1) > 0).all()
    # the first call of a deal: first hand's auction, every bid from 6S, misère and PASS
    assert (env.player == (obs[:, 3:6].argmax(axis=1) + env.player + 1) % 3).all()
    ended = 0
    for obs, _mask, rewards, done, player in _play(env, 300):
        assert rewards.shape == (6, 3) and done.shape == (6,)
        assert np.allclose(rewards.sum(axis=1), 0)  # zero-sum, in whists
        assert not rewards[~done].any()
        assert (obs[np.arange(6), player] == 1).all()  # the tensor is the acting seat's
        assert (obs[done, 6 + 3] == 1).all()  # a new deal starts with its auction
        ended += int(done.sum())
    assert ended > 6


@pytest.mark.parametrize("backend", ["c", "python"])
def test_seeded_and_deterministic(backend):
    first = _play(VectorEnv(3, "rostov", seed=9, backend=backend), 120)
    again = _play(VectorEnv(3, "rostov", seed=9, backend=backend), 120)
    other = _play(VectorEnv(3, "rostov", seed=10, backend=backend), 120)
    for a, b in zip(first, again, strict=True):
        for x, y in zip(a, b, strict=True):
            assert np.array_equal(x, y)
    assert any(not np.array_equal(a[0], b[0]) for a, b in zip(first, other, strict=True))


def test_reset_with_a_seed_deals_again():
    env = VectorEnv(4, "sochi", seed=1)
    obs, _ = env.reset(seed=3)
    env.step(env.random_actions())
    again, _ = env.reset(seed=3)
    assert np.array_equal(obs, again)


@pytest.mark.parametrize("backend", ["c", "python"])
def test_an_illegal_action_is_refused_and_nothing_moves(backend):
    env = VectorEnv(2, "sochi", seed=2, backend=backend)
    _obs, mask = env.reset()
    illegal = int(np.flatnonzero(~mask[1])[0])
    with pytest.raises(ValueError, match="not legal"):
        env.step([env.random_actions()[0], illegal])
    with pytest.raises(ValueError, match="2 environments"):
        env.step([0])
    # nothing was applied: the first env still plays its first call
    assert np.array_equal(env.mask, mask)
    env.step(env.random_actions())


def test_the_same_cards_and_actions_on_both_backends():
    fast, slow = VectorEnv(5, "sochi", seed=4, backend="c"), VectorEnv(5, "sochi", seed=4,
                                                                        backend="python")
    assert np.array_equal(fast.reset()[0], slow.reset()[0])
    assert np.array_equal(fast.random_actions(), slow.random_actions())


@pytest.mark.parametrize("name", FALLBACK)
def test_rules_the_core_does_not_play_step_the_python_engine(name):
    assert refusal(Rules.preset(name)) is not None
    env = VectorEnv(2, name, seed=1)
    assert env.backend == "python"
    steps = _play(env, 60)
    assert steps[-1][0].shape == (2, tensors.OBSERVATION_SIZE)
    with pytest.raises(ValueError, match="does not play"):
        VectorEnv(2, name, backend="c")


def test_the_core_claims_every_preset_and_refuses_the_variants():
    assert all(core_parameters(rules) is not None for rules in PRESETS.values())
    assert refusal(Rules.preset("two-player")) == "the core plays three players, not 2"
    assert "blind bids" in refusal(Rules.preset("sochi", blind_bids=True))
    assert "exchange" in refusal(Rules.preset("kazakhstan", allpass_exchange=True))


def test_rules_given_as_objects_dicts_and_json():
    for rules in (Rules.preset("leningrad"), {"preset": "leningrad"},
                  json.dumps({"preset": "leningrad"})):
        env = VectorEnv(1, rules, seed=3)
        assert env.rules == Rules.preset("leningrad") and env.backend == "c"
    with pytest.raises(ValueError):
        VectorEnv(1, "no-such-preset")
    with pytest.raises(ValueError):
        VectorEnv(0)


def test_every_key_of_the_score_table_decodes_to_an_outcome_the_sheet_scores():
    table = ScoreTable(Rules.preset("moscow"), q=4, r=2)
    key = table.key(declarer=2, level=8, code=10, tricks=(3, 1), quick=3, refused=True)
    outcome = table.outcome(key)
    assert (outcome.kind, outcome.declarer, outcome.contract.level) == ("contract", 2, 8)
    assert outcome.defence == ("PASS", "HALF", "WHIST") and outcome.whisters == (0,)
    assert outcome.half_whister == 1 and outcome.open_defence is True
    assert outcome.tricks == (3, 1, 6) and outcome.talon_refused
    turned = table.score(key, dealer=1)
    assert turned == [table.score(key)[(s - 1) % 3] for s in range(3)]
    assert CODES == 16


@pytest.mark.slow
@pytest.mark.parametrize("name", PRODUCT)
def test_differential_product_presets(name):
    report = vector_differential.compare(name, deals=600, envs=32, seed=7)
    assert report.mismatches == 0, report.first
    assert report.deals >= 600
    # the deals cover what the core plays: all-pass, misère, whisted, passed, half-whist
    for end in ("all-pass", "misère", "whist-whist", "passed", "half-whist, pass"):
        assert report.ends[end] > 0, (end, report.ends)


def test_the_differential_tests_cover_every_claimed_preset():
    """The suite's differential runs are bounded (the 100,000-deal runs are the tool's,
    ``tools/vector_differential.py``); between them they play every preset the core claims."""
    assert set(vector_differential.claimed_presets()) == set(PRODUCT) | set(OTHER_PRESETS)
    assert set(vector_differential.claimed_presets()) <= set(PRESETS)


OTHER_PRESETS = [n for n in vector_differential.claimed_presets() if n not in PRODUCT]


@pytest.mark.slow
@pytest.mark.parametrize("name", OTHER_PRESETS)
def test_differential_other_presets(name):
    report = vector_differential.compare(name, deals=150, envs=16, seed=8)
    assert report.mismatches == 0, report.first


@pytest.mark.slow
@pytest.mark.parametrize("rules", HOUSE_RULES, ids=lambda r: "-".join(map(str, r.values())))
def test_differential_house_rules(rules):
    text = json.dumps(rules)
    assert core_parameters(Rules.from_json(rules)) is not None
    report = vector_differential.compare(text, deals=150, envs=16, seed=9)
    assert report.mismatches == 0, report.first


@pytest.mark.parametrize("name", ["vector", "vector_score", "vector_deals", "vector_claim"])
def test_module_examples(name):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"preferans.env.{name}"))
    assert result.attempted > 0 and result.failed == 0


def test_views_for_our_players_on_the_python_backend():
    env = VectorEnv(2, "sochi", seed=1, backend="python")
    env.reset()
    seat = int(env.player[0])
    view = env.view(0, seat)
    assert view["seat"] == seat and len(view["hand"]) == 10 and view["legal"]
    fast = VectorEnv(2, "sochi", seed=1)
    fast.reset()
    with pytest.raises(ValueError, match="backend='python'"):
        fast.view(0, 0)


def test_the_learning_example_runs(monkeypatch, capsys, tmp_path):
    import runpy

    plot = tmp_path / "curve.png"
    script = Path(__file__).resolve().parents[1] / "examples" / "vector_pg_vs_easy.py"
    monkeypatch.setattr(sys, "argv", [str(script), "--deals", "12", "--envs", "4",
                                      "--window", "6", "--plot", str(plot)])
    runpy.run_path(str(script), run_name="__main__")
    out = capsys.readouterr().out
    assert out.count("mean score of the last 6:") == 2
    assert plot.stat().st_size > 1000
