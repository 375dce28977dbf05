"""The vector environment's decisions a second against OpenSpiel's C++ skat and the
``python_preferans`` OpenSpiel game, all stepped from Python in the same run.

    python benchmarks/bench_vector.py [--rounds 5] [--seconds 2] [--envs 1024] [--rules sochi]

Every way plays random one-deal games with random legal decisions and reads the acting
seat's observation tensor and legal actions before each decision:

- ``vector (C)``: :class:`preferans.env.vector.VectorEnv`, ``--envs`` deals a step, the
  random legal actions drawn by the environment (``random_actions``): each step returns the
  observation tensors (``float32[envs, 594]``) and legal masks (``bool[envs, 118]``); first
  ``--warm`` seconds of play fill the score table (shared by the three ``vector`` ways);
- ``vector (C), numpy actions``: the same, the actions drawn in numpy from the masks (what
  an agent's own sampling costs on top);
- ``vector (Python)``: the same API on the Python engine (the fallback backend);
- ``skat (C++)``: ``pyspiel.load_game("skat")``: per decision ``observation_tensor``,
  ``legal_actions``, a random choice, ``apply_action``; chance outcomes sampled;
- ``python_preferans``: the same loop on our OpenSpiel game, which steps the C core for these
  rules (:mod:`preferans.env.deal_core`); the returns are read when a deal ends;
- ``python_preferans, engine``: the same game with the core off
  (:func:`preferans.env.deal_core.use_core`): every state on the Python engine;
- ``python_preferans, OTHER`` (``--against OTHER/src``, another copy of the package, main
  before the core say): the same loop in a worker process with that ``src`` first on the
  path, asked for a round at its turn (so the baseline is measured in the same run).

The ways take turns, ``--rounds`` rounds of about ``--seconds`` each (a changing load of the
machine weighs on each alike); the median decisions a second of the rounds is printed, and
each way's ratio to skat.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyspiel

import preferans.env


def vector(envs: int, rules: str, backend: str, numpy_actions: bool, warm: float = 0.0
           ) -> Callable[[float], tuple[int, float]]:
    from preferans.env.vector import VectorEnv  # not in the other copy's worker

    env = VectorEnv(envs, rules, seed=1, backend=backend)
    env.reset()
    rng = np.random.default_rng(1)
    start = time.perf_counter()
    while time.perf_counter() - start < warm:  # the score table fills as deals end
        env.step(env.random_actions())

    def run(seconds: float) -> tuple[int, float]:
        decisions = 0
        start = time.perf_counter()
        mask = env.mask
        assert mask is not None
        while time.perf_counter() - start < seconds:
            if numpy_actions:
                actions = (rng.random(mask.shape) * mask).argmax(axis=1)
            else:
                actions = env.random_actions()
            _obs, mask, _rewards, _done, _info = env.step(actions)
            decisions += envs
        return decisions, time.perf_counter() - start

    return run


def openspiel(name: str, params: dict[str, str] | None = None, core: bool = True
              ) -> Callable[[float], tuple[int, float]]:
    game = pyspiel.load_game(name, params or {})
    rng = random.Random(1)

    def run(seconds: float) -> tuple[int, float]:
        before = _use_core(core)
        try:
            return play(game, rng, seconds)
        finally:
            _use_core(before)

    return run


def _use_core(on: bool) -> bool:
    try:
        from preferans.env.deal_core import use_core
    except ImportError:  # a copy of the package without the core
        return on
    return use_core(on)


def play(game: object, rng: random.Random, seconds: float) -> tuple[int, float]:
    """Random deals for about ``seconds``: the observation tensor and the legal actions read
    at each decision, the returns at the end; (decisions, seconds)."""
    decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()  # type: ignore[attr-defined]
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
                continue
            player = state.current_player()
            state.observation_tensor(player)
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
        state.returns()
    return decisions, time.perf_counter() - start


def other_copy(src: Path, rules: str) -> Callable[[float], tuple[int, float]]:
    """``python_preferans`` of another copy of the package, in a worker process."""
    env = dict(os.environ, PYTHONPATH=str(src.resolve()))
    worker = subprocess.Popen([sys.executable, __file__, "--worker", "--rules", rules],
                              env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True)

    def run(seconds: float) -> tuple[int, float]:
        assert worker.stdin is not None and worker.stdout is not None
        worker.stdin.write(f"{seconds}\n")
        worker.stdin.flush()
        decisions, took = json.loads(worker.stdout.readline())
        return decisions, took

    return run


def serve(rules: str) -> None:
    """The worker: a round of ``python_preferans`` for each number of seconds read."""

    game = pyspiel.load_game("python_preferans", {"rules": rules})
    rng = random.Random(1)
    print(f"worker: preferans.env from {preferans.env.__file__}", file=sys.stderr)
    for line in sys.stdin:
        print(json.dumps(play(game, rng, float(line))), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--envs", type=int, default=1024)
    parser.add_argument("--rules", default="sochi")
    parser.add_argument("--warm", type=float, default=20.0,
                        help="seconds of play first, while the score table fills (each deal "
                        "outcome is scored by the engine's sheet the first time it occurs)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--against", type=Path, help="another copy's src folder: its "
                        "python_preferans is measured too (main before the core, say)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        serve(args.rules)
        return
    ways = {
        "vector (C)": vector(args.envs, args.rules, "c", numpy_actions=False, warm=args.warm),
        "vector (C), numpy actions": vector(args.envs, args.rules, "c", numpy_actions=True),
        "vector (Python)": vector(64, args.rules, "python", numpy_actions=False),
        "skat (C++)": openspiel("skat"),
        "python_preferans": openspiel("python_preferans", {"rules": args.rules}),
        "python_preferans, engine": openspiel("python_preferans", {"rules": args.rules},
                                              core=False),
    }
    if args.against is not None:
        ways[f"python_preferans, {args.against}"] = other_copy(args.against, args.rules)
    rates: dict[str, list[float]] = {name: [] for name in ways}
    for way in ways.values():  # warm up: imports, first deals, the score table
        way(args.warm if way is ways["python_preferans"] else 0.2)
    for _ in range(args.rounds):
        for name, way in ways.items():
            decisions, seconds = way(args.seconds)
            rates[name].append(decisions / seconds)
    skat = statistics.median(rates["skat (C++)"])
    base = [r for name, r in rates.items() if name.startswith("python_preferans, ")
            and name != "python_preferans, engine"]
    out = {name: {"median": round(statistics.median(r)), "min": round(min(r)),
                  "max": round(max(r)), "ratio_to_skat": round(statistics.median(r) / skat, 3)}
           for name, r in rates.items()}
    if base:
        for row in out.values():
            row["ratio_to_other"] = round(row["median"] / statistics.median(base[0]), 2)
    if args.json:
        print(json.dumps({"rules": args.rules, "envs": args.envs, "rounds": args.rounds,
                          "runs": out}, indent=2))
        return
    print(f"decisions a second with observation tensors and legal actions, {args.rules}, "
          f"{args.rounds} rounds of {args.seconds:g} s (median, min-max):")
    for name, row in out.items():
        print(f"  {name:27s} {row['median']:>10,}  ({row['min']:,}-{row['max']:,})  "
              f"{row['ratio_to_skat']:.2f}x skat" + (f", {row['ratio_to_other']:.2f}x "
                                                      "the other copy" if base else ""))


if __name__ == "__main__":
    main()
