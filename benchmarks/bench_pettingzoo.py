"""Decisions a second of the PettingZoo environment at its default settings, here against
another copy of the package (main's, say) in the same run.

    python benchmarks/bench_pettingzoo.py [--against OTHER/src] [--seconds 4] [--warm 3]
                                          [--rounds 3] [--observation information_state]

Each round is a fresh process playing random one-deal episodes of ``pettingzoo_env(rules=
...)`` as an agent's loop does: ``env.last()`` (the observation tensor and the action mask)
at every step, a uniform legal action drawn from the mask, ``env.step``; ``--warm`` seconds
first (the score table of the C core fills as outcomes occur), then ``--seconds`` timed. With
``--against`` the rounds alternate between this package and the other, so a changing load
weighs on both alike; the medians and their ratio are printed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent / "src"


def one_round(rules: str, observation: str, seconds: float, warm: float) -> dict[str, float]:
    import numpy as np
    from bench_env import random_episode  # this folder: the script's own

    import preferans.env

    warnings.simplefilter("ignore")
    params = {"rules": rules}
    if observation != "observation":
        params["observation"] = observation
    env = preferans.env.pettingzoo_env(**params)
    rng = np.random.default_rng(1)

    def play(limit: float) -> tuple[int, float]:
        decisions = episode = 0
        start = time.perf_counter()
        while time.perf_counter() - start < limit:
            decisions += random_episode(env, rng, episode)
            episode += 1
        return decisions, time.perf_counter() - start

    play(warm)
    decisions, spent = play(seconds)
    return {"decisions_per_s": decisions / spent}


def _spawn(src: Path, args: argparse.Namespace) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(src))
    command = [sys.executable, __file__, "--one", "--rules", args.rules, "--observation",
               args.observation, "--seconds", str(args.seconds), "--warm", str(args.warm)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", type=Path, help="another copy's src folder")
    parser.add_argument("--rules", default="sochi")
    parser.add_argument("--observation", default="observation",
                        choices=["observation", "information_state"])
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--warm", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one_round(args.rules, args.observation, args.seconds, args.warm)))
        return
    copies = {"this": HERE}
    if args.against is not None:
        copies["other"] = args.against.resolve()
    figures: dict[str, list[float]] = {name: [] for name in copies}
    for _ in range(args.rounds):
        for name, src in copies.items():
            figures[name].append(_spawn(src, args)["decisions_per_s"])
    print(f"{args.rounds} rounds of {args.seconds:g} s of random one-deal episodes of "
          f"{args.rules}, PettingZoo's default settings, the {args.observation} tensor "
          f"(medians):")
    medians = {name: statistics.median(rows) for name, rows in figures.items()}
    for name, median in medians.items():
        print(f"  {name:6s} {copies[name]}: {median:>9,.0f} decisions/s")
    if "other" in medians:
        print(f"  this / other: {medians['this'] / medians['other']:.2f}x")


if __name__ == "__main__":
    main()
