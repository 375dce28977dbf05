"""A random agent against two Hard players over 200 deals: its result in whists per deal,
with a 95% interval.

    python examples/random_vs_hard.py [--deals 200] [--seed 1] [--rules sochi] [--workers 2]

Each deal is board ``k`` of ``preferans match --seed SEED`` (the environment's seed policy),
the random agent in seat ``k % 3``, Hard in the other two, through the OpenSpiel game and
our players as ``pyspiel.Bot``s. To evaluate your own agent, replace the random bot with it:
any ``pyspiel.Bot`` (or anything with ``step(state) -> action``) will do; for duplicate
deals (each board with the agent in every seat) see ``preferans.env.evaluate.duplicate``.

On this project's 2-core machine (7 Dec) the 200 deals took 121 s of CPU (under load from
other work), played in two processes by default; the result:
random −567.9 whists a deal [−603.9, −531.9], Hard +283.9 [+265.9, +302.0].
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pyspiel
from open_spiel.python.bots.uniform_random import UniformRandomBot

import preferans.env  # noqa: F401  (registers python_preferans)
from preferans.env.openspiel import make_bot


def play(game: pyspiel.Game, bots: list) -> list[float]:
    """One game to its end; the returns in whists."""
    state = game.new_initial_state()
    for bot in bots:
        bot.restart_at(state)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(np.random.choice(outcomes, p=probs)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state.returns()


def one_board(job: tuple[str, int, str, int]) -> tuple[float, float]:
    """Board ``k``: the random agent in seat ``k % 3``, the level in the others; the agent's
    result and the others' mean, in whists."""
    rules, seed, level, board = job
    game = pyspiel.load_game("python_preferans", {"rules": rules, "seed": seed, "board": board})
    seat = board % 3
    bots = [make_bot(game, p, level, seed=seed * 1000 + board) for p in range(3)]
    bots[seat] = UniformRandomBot(seat, np.random.RandomState(board))
    returns = play(game, bots)
    return returns[seat], statistics.fmean(r for p, r in enumerate(returns) if p != seat)


def interval(values: list[float]) -> tuple[float, float, float]:
    """The mean and its 95% confidence interval (normal approximation)."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="sochi")
    parser.add_argument("--level", default="hard", help="our level to play against")
    parser.add_argument("--workers", type=int, default=2,
                        help="processes playing the boards (each its own core)")
    args = parser.parse_args()

    start = time.perf_counter()
    mine: list[float] = []
    theirs: list[float] = []
    jobs = [(args.rules, args.seed, args.level, board) for board in range(args.deals)]
    if args.workers > 1:  # the boards are independent: one process a core
        with ProcessPoolExecutor(args.workers) as pool:
            results = pool.map(one_board, jobs, chunksize=4)
            for done, (own, others) in enumerate(results, 1):
                mine.append(own)
                theirs.append(others)
                if done % 50 == 0:
                    print(f"{done} deals, {time.perf_counter() - start:.0f} s", flush=True)
    else:
        for done, job in enumerate(jobs, 1):
            own, others = one_board(job)
            mine.append(own)
            theirs.append(others)
            if done % 50 == 0:
                print(f"{done} deals, {time.perf_counter() - start:.0f} s", flush=True)

    mean, low, high = interval(mine)
    print(f"random agent vs {args.level} ({args.rules}), {args.deals} deals of seed "
          f"{args.seed}:")
    print(f"  random: {mean:+.1f} whists a deal, 95% interval [{low:+.1f}, {high:+.1f}]")
    mean, low, high = interval(theirs)
    print(f"  {args.level}: {mean:+.1f} whists a deal, 95% interval [{low:+.1f}, {high:+.1f}]")
    print(f"  {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
