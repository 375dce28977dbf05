"""Decision time of each player level over whole deals (prints p50 / p95 / max per phase).

    .venv/bin/python benchmarks/bench_players.py [--deals 6] [--levels easy,normal,hard,crazy]

Each level plays every seat of ``--deals`` random Sochi deals (seeded), the way a
game plays them; every decision is timed.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict

from preferans.game import Game
from preferans.players import make_player
from preferans.rules import Rules


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=6)
    ap.add_argument("--levels", default="easy,normal,hard,crazy")
    ap.add_argument("--rules", default="sochi")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rules = Rules.preset(args.rules)
    for level in args.levels.split(","):
        times: dict[str, list[float]] = defaultdict(list)
        game = Game(rules, seed=args.seed)
        bots = [make_player(level, rules, seed=s) for s in range(3)]
        for _ in range(args.deals):
            game.start_deal()
            while game.deal is not None:
                seat = game.deal.to_act
                obs = game.observation(seat)
                start = time.perf_counter()
                token = bots[seat].choose(obs)
                times[obs["phase"]].append(time.perf_counter() - start)
                game.apply(token)
        every = [t for v in times.values() for t in v]
        print(f"{level:7s} all      n={len(every):4d} p50={pct(every, .5)*1000:8.1f} ms "
              f"p95={pct(every, .95)*1000:8.1f} ms max={max(every)*1000:8.1f} ms "
              f"mean={statistics.fmean(every)*1000:7.1f} ms")
        for phase, v in sorted(times.items()):
            print(f"{'':7s} {phase:8s} n={len(v):4d} p50={pct(v, .5)*1000:8.1f} ms "
                  f"p95={pct(v, .95)*1000:8.1f} ms max={max(v)*1000:8.1f} ms")


if __name__ == "__main__":
    main()
