"""Decisions a second of the OpenSpiel game ``python_preferans``, here against another copy
of the package (main's, say) in the same run.

    python benchmarks/bench_openspiel.py [--against OTHER/src] [--deals 40] [--rounds 7]

Each round plays ``--deals`` random one-deal games (uniform chance outcomes, uniform legal
decisions), reading the acting seat's observation tensor before every decision through
OpenSpiel's observation API (``make_observation(game).set_from(state, player)``), as a
learning agent does; a round's figure is its decisions (non-chance steps) over its wall
time, chance steps included in the time. With ``--against`` the rounds alternate between
this package and the other (each round a fresh process with that ``src`` first on the
path), so a changing load of the shared machine weighs on both alike; the medians and
their ratio are printed. ``--info-state`` reads the information-state tensor instead.
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
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent / "src"


def one_round(deals: int, seed: int, rules: str, info_state: bool) -> dict[str, float]:
    import pyspiel
    from open_spiel.python.observation import INFO_STATE_OBS_TYPE, make_observation

    import preferans.env  # noqa: F401

    game = pyspiel.load_game("python_preferans", {"rules": rules})
    observer = make_observation(game, INFO_STATE_OBS_TYPE if info_state else None)
    rng = random.Random(seed)
    decisions = steps = 0
    start = time.perf_counter()
    for _ in range(deals):
        state = game.new_initial_state()
        while not state.is_terminal():
            steps += 1
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            observer.set_from(state, state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    seconds = time.perf_counter() - start
    return {"decisions_per_s": decisions / seconds, "steps_per_s": steps / seconds}


def _spawn(src: Path, args: argparse.Namespace, seed: int) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(src))
    command = [sys.executable, __file__, "--one", "--deals", str(args.deals), "--seed",
               str(seed), "--rules", args.rules] + (["--info-state"] if args.info_state else [])
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", type=Path, help="another copy's src folder")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--rules", default="sochi")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--info-state", action="store_true")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one_round(args.deals, args.seed, args.rules, args.info_state)))
        return
    copies = {"this": HERE}
    if args.against is not None:
        copies["other"] = args.against.resolve()
    figures: dict[str, list[dict[str, float]]] = {name: [] for name in copies}
    for r in range(args.rounds):
        for name, src in copies.items():
            figures[name].append(_spawn(src, args, args.seed * 1000 + r))
    tensor = "information-state" if args.info_state else "observation"
    print(f"{args.rounds} rounds of {args.deals} random deals of {args.rules}, the "
          f"{tensor} tensor read at each decision (medians):")
    medians = {}
    for name, rows in figures.items():
        medians[name] = statistics.median(r["decisions_per_s"] for r in rows)
        steps = statistics.median(r["steps_per_s"] for r in rows)
        print(f"  {name:6s} {copies[name]}: {medians[name]:>9,.0f} decisions/s "
              f"({steps:,.0f} steps/s with the chance steps)")
    if "other" in medians:
        print(f"  this / other: {medians['this'] / medians['other']:.2f}x")


if __name__ == "__main__":
    main()
