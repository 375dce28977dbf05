"""Decision time of each player level over whole deals (prints p50 / p95 / max per phase).

    .venv/bin/python benchmarks/bench_players.py [--deals 6] [--levels easy,normal,hard,crazy]

Each level plays every seat of ``--deals`` random Sochi deals (seeded), the way a
game plays them; every decision is timed twice: wall-clock time (what a player waits)
and the process's CPU time (every thread of the solver counted; on a machine loaded by
other work the wall time grows, the CPU time does not).  The load average is printed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections import defaultdict

from preferans.game import Game
from preferans.players import make_player
from preferans.rules import Rules


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def line(label: str, wall: list[float], cpu: list[float]) -> str:
    return (f"{label:16s} n={len(wall):4d} wall p50={pct(wall, .5)*1000:7.1f} "
            f"p95={pct(wall, .95)*1000:7.1f} max={max(wall)*1000:7.1f} ms | cpu "
            f"p50={pct(cpu, .5)*1000:7.1f} p95={pct(cpu, .95)*1000:7.1f} "
            f"max={max(cpu)*1000:7.1f} ms")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=6)
    ap.add_argument("--levels", default="easy,normal,hard,crazy")
    ap.add_argument("--rules", default="sochi")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    rules = Rules.preset(args.rules)
    print(f"load average before: {os.getloadavg()[0]:.2f}  rules: {args.rules}  "
          f"deals per level: {args.deals}")
    for level in args.levels.split(","):
        wall: dict[str, list[float]] = defaultdict(list)
        cpu: dict[str, list[float]] = defaultdict(list)
        game = Game(rules, seed=args.seed)
        bots = [make_player(level, rules, seed=s) for s in range(3)]
        for bot in bots:
            if hasattr(bot, "threads"):
                bot.threads = args.threads
        for _ in range(args.deals):
            game.start_deal()
            while game.deal is not None:
                seat = game.deal.to_act
                obs = game.observation(seat)
                start, start_cpu = time.perf_counter(), time.process_time()
                token = bots[seat].choose(obs)
                cpu[obs["phase"]].append(time.process_time() - start_cpu)
                wall[obs["phase"]].append(time.perf_counter() - start)
                game.apply(token)
        every = [t for v in wall.values() for t in v]
        every_cpu = [t for v in cpu.values() for t in v]
        print(line(f"{level} all", every, every_cpu)
              + f" | mean wall {statistics.fmean(every)*1000:.1f} ms")
        for phase in sorted(wall):
            print(line(f"  {phase}", wall[phase], cpu[phase]))
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
