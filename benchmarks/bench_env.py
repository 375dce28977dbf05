"""The research environment's speed against the engine's own, in the same run.

    python benchmarks/bench_env.py [--deals 300] [--rules sochi] [--json]

Random one-deal games (uniformly random cards and legal decisions) are
played four ways, and each way's decisions per second are printed with its ratio to the
engine's:

- ``engine``: :class:`preferans.game.Game` alone (``legal_actions`` then ``apply``), each
  deal dealt by the game's own shuffle: the engine's actions per second.
- ``openspiel``: the OpenSpiel game (``python_preferans``): the 32 chance outcomes, then
  ``legal_actions`` and ``apply_action`` for each decision; a discard is two steps, so the
  figure counts the engine's actions (the steps are printed too).
- ``openspiel + tensor``: the same, reading the acting seat's information-state tensor
  before each decision (what a learning agent does), through OpenSpiel's observation API
  (``make_observation(game, INFO_STATE_OBS_TYPE).set_from(state, player)``: a numpy array;
  ``state.information_state_tensor(player)`` also converts it to a Python list).
- ``pettingzoo``: the AEC environment's loop at its default settings (``last()`` with the
  observation tensor and the action mask, ``step``; no views).

For the rules the C core plays, the OpenSpiel game and PettingZoo step it
(:mod:`preferans.env.deal_core`); the engine's actions of each deal are counted after its
time is taken (reading them replays the deal on the engine). ``--warm`` seconds of the
vector environment's play first fill the score table those ways share (each deal's outcome
is scored by the engine's sheet the first time it occurs: a few milliseconds).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.observation import INFO_STATE_OBS_TYPE, make_observation

import preferans.env
from preferans.game import Game
from preferans.rules import Rules


def engine(rules: Rules, deals: int, seed: int) -> tuple[int, int, float]:
    rng = random.Random(seed)
    actions = 0
    start = time.perf_counter()
    for k in range(seed, seed + deals):
        game = Game(rules, seed=k, first_dealer=k % 3)
        game.start_deal()
        while game.deal is not None:
            game.apply(rng.choice(game.legal_actions()))
            actions += 1
    return actions, actions, time.perf_counter() - start


def openspiel(rules: str, deals: int, seed: int, tensor: bool) -> tuple[int, int, float]:
    rng = random.Random(seed)
    game = pyspiel.load_game("python_preferans", {"rules": rules})
    observation = make_observation(game, INFO_STATE_OBS_TYPE) if tensor else None
    actions = steps = 0
    seconds = 0.0
    for _ in range(deals):
        start = time.perf_counter()
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            if observation is not None:
                observation.set_from(state, state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        seconds += time.perf_counter() - start
        # the engine's actions, counted out of the time (on the C core this replays the deal)
        actions += len(state.core.game.finished_deals[-1].history)
    return actions, steps, seconds


def random_episode(env: Any, rng: np.random.Generator, seed: int) -> int:
    """One PettingZoo episode as an agent's loop plays it: ``last()`` at every step, a
    uniform legal action from the mask; the decisions made (``bench_pettingzoo.py`` too)."""
    env.reset(seed=seed)
    decisions = 0
    for _agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))  # (Generator.choice: 10 µs more)
        decisions += 1
    return decisions


def pettingzoo(rules: str, deals: int, seed: int) -> tuple[int, int, float]:
    env = preferans.env.pettingzoo_env(rules=rules)
    rng = np.random.default_rng(seed)
    actions = steps = 0
    seconds = 0.0
    for k in range(seed, seed + deals):
        start = time.perf_counter()
        steps += random_episode(env, rng, k)
        seconds += time.perf_counter() - start
        # counted out of the time (on the C core this replays the episode)
        actions += len(env.core.game.finished_deals[-1].history)
    return actions, steps, seconds


def warm(rules: str, seconds: float) -> None:
    """Fill the score table of ``rules`` (one per process, shared by the OpenSpiel game and
    PettingZoo on the core) by ``seconds`` of random play of the vector environment."""
    if seconds <= 0:
        return
    from preferans.env.vector import VectorEnv

    env = VectorEnv(256, rules, seed=99)
    if env.backend != "c":
        return
    env.reset()
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.step(env.random_actions())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--rules", default="sochi")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=5,
                        help="the ways take turns in this many rounds (a changing load of the "
                        "machine then weighs on each alike)")
    parser.add_argument("--warm", type=float, default=10.0,
                        help="seconds of random play on the C core first, which fill the "
                        "score table the core's ways share (0: they start cold, as a fresh "
                        "process does, and the first way to meet an outcome pays its scoring)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rules = Rules.preset(args.rules)
    warm(args.rules, args.warm)
    ways = {
        "engine": lambda n, seed: engine(rules, n, seed),
        "openspiel": lambda n, seed: openspiel(args.rules, n, seed, tensor=False),
        "openspiel + tensor": lambda n, seed: openspiel(args.rules, n, seed, tensor=True),
        "pettingzoo": lambda n, seed: pettingzoo(args.rules, n, seed),
    }
    runs: dict[str, tuple[int, int, float]] = dict.fromkeys(ways, (0, 0, 0.0))
    per_round = max(1, args.deals // args.rounds)
    for r in range(args.rounds):
        for name, way in ways.items():
            a, s, t = way(per_round, args.seed * 1_000_003 + r * per_round)
            runs[name] = (runs[name][0] + a, runs[name][1] + s, runs[name][2] + t)
    base = runs["engine"][0] / runs["engine"][2]
    deals = per_round * args.rounds
    out: dict[str, Any] = {"deals": deals, "rules": args.rules, "runs": {}}
    for name, (actions, steps, seconds) in runs.items():
        rate = actions / seconds
        out["runs"][name] = {"actions": actions, "steps": steps, "seconds": round(seconds, 3),
                             "actions_per_s": round(rate), "steps_per_s": round(steps / seconds),
                             "ratio_to_engine": round(rate / base, 3)}
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{deals} random one-deal games of {args.rules}, each way:")
    for name, row in out["runs"].items():
        print(f"  {name:20s} {row['actions_per_s']:>8,} actions/s  {row['steps_per_s']:>8,} "
              f"decision steps/s  {row['ratio_to_engine']:.2f} of the engine")


if __name__ == "__main__":
    main()
