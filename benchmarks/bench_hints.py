"""Hint and call-review speed: how long a HINT takes at the table, and how long the review of
a deal's calls (Crazy's view of each) takes after it.

    .venv/bin/python benchmarks/bench_hints.py [--deals 6] [--seed 3] [--levels hard,crazy]

Whole deals are played by Normal players; at every decision of seat 0 with more than one
legal action, a player of each level explains it (``explain``: the decision with its
values) with the level's own budget, as the web server's thinking process does (Hard 0.3 s,
Crazy 1.2 s).  Prints p50 / p95 / max seconds per hint, by level and decision kind.  Then
each deal's calls of seat 0 are reviewed by Crazy
(:func:`preferans.analysis.call_review.review_calls`) and the seconds per deal printed.  One
process here (the server runs hints in its thinking processes, beside the computer players).
"""

from __future__ import annotations

import argparse
import statistics
import time

from preferans.analysis.call_review import review_calls
from preferans.game import Game
from preferans.players import make_player
from preferans.record import write_record
from preferans.rules import Rules


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--levels", default="hard,crazy")
    args = parser.parse_args()
    rules = Rules.preset("sochi")
    levels = [x.strip() for x in args.levels.split(",") if x.strip()]
    times: dict[str, dict[str, list[float]]] = {lv: {} for lv in levels}
    records = []
    for k in range(args.deals):
        bots = [make_player("normal", rules, seed=args.seed + s) for s in range(3)]
        hinters = {lv: make_player(lv, rules, seed=args.seed * 7 + k) for lv in levels}
        game = Game(rules, ["A", "B", "C"], seed=args.seed * 1000 + k, first_dealer=k % 3)
        game.start_deal()
        while game.deal is not None:
            seat = game.deal.to_act
            observation = game.observation(seat)
            if seat == 0 and len(observation["legal"]) > 1:
                for level, player in hinters.items():
                    start = time.perf_counter()
                    hint = player.explain(observation)  # type: ignore[attr-defined]
                    spent = time.perf_counter() - start
                    times[level].setdefault(hint["kind"], []).append(spent)
            game.apply(bots[seat].choose(observation))
        records.append(write_record(game))
    for level in levels:
        every = [t for ts in times[level].values() for t in ts]
        if not every:
            continue
        for kind, ts in sorted(times[level].items()):
            print(f"{level:5} {kind:12} {len(ts):3} hints: p50 {statistics.median(ts):.3f} s, "
                  f"p95 {_pct(ts, 0.95):.3f} s, max {max(ts):.3f} s")
        print(f"{level:5} {'all':12} {len(every):3} hints: p50 {statistics.median(every):.3f} s, "
              f"p95 {_pct(every, 0.95):.3f} s, max {max(every):.3f} s")
    per_deal = []
    calls = 0
    for record in records:
        start = time.perf_counter()
        reviewed = review_calls(record, 1, 0)
        per_deal.append(time.perf_counter() - start)
        calls += len(reviewed)
    print(f"calls review (Crazy): {len(per_deal)} deals, {calls} calls: median "
          f"{statistics.median(per_deal):.2f} s, max {max(per_deal):.2f} s a deal")


if __name__ == "__main__":
    main()
