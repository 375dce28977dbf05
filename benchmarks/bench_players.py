"""Decision time of each player level over whole deals (prints p50 / p95 / max per phase).

    .venv/bin/python benchmarks/bench_players.py [--deals 6] [--levels easy,normal,hard,crazy]
        [--busy 6] [--no-budget] [--allpass 2]

Each level plays every seat of ``--deals`` random Sochi deals (seeded), the way a
game plays them, with the budgets a game gives its players (``--no-budget``: none);
``--allpass N`` adds N deals where every seat passes (the all-pass play, the slowest
card play).  Every decision is timed twice: wall-clock time (what a player waits) and
the process's CPU time (every thread of the solver counted; on a machine loaded by other
work the wall time grows, the CPU time does not).  ``clipped`` counts the decisions whose
budget bound (some stage used fewer worlds than the level plans).

``--busy N`` keeps N other processes busy for the whole run (each solving random
positions in a loop with one thread, as a server thinking for other tables would); they
are stopped at the end.  The load average is printed before and after.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import time
from collections import defaultdict
from typing import Any

from preferans.game import Game
from preferans.players import make_player
from preferans.rules import Rules


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def line(label: str, wall: list[float], cpu: list[float], clipped: int | None = None) -> str:
    out = (f"{label:16s} n={len(wall):4d} wall p50={pct(wall, .5)*1000:7.1f} "
           f"p95={pct(wall, .95)*1000:7.1f} max={max(wall)*1000:7.1f} ms | cpu "
           f"p50={pct(cpu, .5)*1000:7.1f} p95={pct(cpu, .95)*1000:7.1f} "
           f"max={max(cpu)*1000:7.1f} ms")
    return out if clipped is None else out + f" | clipped {clipped}"


def spin(seed: int) -> None:
    """A busy process: solve random positions for ever (until terminated)."""
    from preferans import solver
    from preferans.solver.samples import random_position

    rng = random.Random(seed)
    while True:
        solver.solve_batch([random_position(rng, 10, "contract") for _ in range(8)], threads=1)


def clipped(bot: Any) -> bool:
    deadline = getattr(bot, "last_deadline", None)
    return bool(deadline and any(s.used < s.planned for s in deadline.stages
                                 if s.name != "sample"))


def play(game: Game, bots: list[Any], wall: dict[str, list[float]],
         cpu: dict[str, list[float]], cut: dict[str, int], *, allpass: bool) -> None:
    game.start_deal()
    while game.deal is not None:
        seat = game.deal.to_act
        obs = game.observation(seat)
        if allpass and obs["phase"] == "auction" and "PASS" in obs["legal"]:
            game.apply("PASS")
            continue
        start, start_cpu = time.perf_counter(), time.process_time()
        token = bots[seat].choose(obs)
        spent_cpu, spent = time.process_time() - start_cpu, time.perf_counter() - start
        phase = obs["phase"] + (" all-pass" if allpass and obs["phase"] == "play" else "")
        cpu[phase].append(spent_cpu)
        wall[phase].append(spent)
        cut[phase] += clipped(bots[seat])
        game.apply(token)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=6)
    ap.add_argument("--allpass", type=int, default=0,
                    help="deals more where every seat passes (the all-pass play)")
    ap.add_argument("--levels", default="easy,normal,hard,crazy")
    ap.add_argument("--rules", default="sochi")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--busy", type=int, default=0,
                    help="other processes kept busy solving positions during the run")
    ap.add_argument("--no-budget", action="store_true",
                    help="players without their decision budgets")
    args = ap.parse_args()
    rules = Rules.preset(args.rules)
    busy = [multiprocessing.Process(target=spin, args=(i,), daemon=True)
            for i in range(args.busy)]
    for p in busy:
        p.start()
    try:
        if busy:
            time.sleep(1.0)  # let them get going
        print(f"load average before: {os.getloadavg()[0]:.2f}  rules: {args.rules}  "
              f"deals per level: {args.deals} (+{args.allpass} all-pass)  busy processes: "
              f"{args.busy}  budgets: {'off' if args.no_budget else 'on'}")
        for level in args.levels.split(","):
            wall: dict[str, list[float]] = defaultdict(list)
            cpu: dict[str, list[float]] = defaultdict(list)
            cut: dict[str, int] = defaultdict(int)
            game = Game(rules, seed=args.seed)
            kw: dict[str, Any] = {"budget": None} if args.no_budget else {}
            bots = [make_player(level, rules, seed=s, **kw) for s in range(rules.players)]
            for bot in bots:
                if hasattr(bot, "threads"):
                    bot.threads = args.threads
            for _ in range(args.deals):
                play(game, bots, wall, cpu, cut, allpass=False)
            for _ in range(args.allpass):
                play(game, bots, wall, cpu, cut, allpass=True)
            every = [t for v in wall.values() for t in v]
            every_cpu = [t for v in cpu.values() for t in v]
            print(line(f"{level} all", every, every_cpu, sum(cut.values()))
                  + f" | mean wall {statistics.fmean(every)*1000:.1f} ms")
            for phase in sorted(wall):
                print(line(f"  {phase}", wall[phase], cpu[phase], cut[phase]))
        print(f"load average after: {os.getloadavg()[0]:.2f}")
    finally:
        for p in busy:
            p.terminate()
        for p in busy:
            p.join(5)


if __name__ == "__main__":
    main()
