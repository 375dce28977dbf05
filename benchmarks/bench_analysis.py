"""After-deal analysis speed: whole deals played by Normal players, each analysed alone.

    .venv/bin/python benchmarks/bench_analysis.py [--deals 60] [--seed 1]

Prints the median, p95 and maximum seconds per analysed deal, by kind (contract, misère,
all-pass), and the overall figures against the target of 0.3 s a deal.
"""

from __future__ import annotations

import argparse
import statistics
import time

from preferans.analysis import analyse
from preferans.game import Game
from preferans.players import make_player
from preferans.record import write_record
from preferans.rules import Rules


def _one_deal_records(deals: int, seed: int) -> list[dict]:
    rules = Rules.preset("sochi")
    bots = [make_player("normal", rules, seed=seed + s) for s in range(3)]
    out = []
    for k in range(deals):
        game = Game(rules, ["A", "B", "C"], seed=seed * 1000 + k, first_dealer=k % 3)
        game.start_deal()
        while game.deal is not None:
            seat = game.deal.to_act
            game.apply(bots[seat].choose(game.observation(seat)))
        out.append(write_record(game))
    return out


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    records = _one_deal_records(args.deals, args.seed)
    analyse(records[0])  # warm up: imports, the solver's tables
    by_kind: dict[str, list[float]] = {}
    for record in records:
        start = time.perf_counter()
        report = analyse(record)
        spent = time.perf_counter() - start
        deal = report["deals"][0]
        if deal.get("analysed"):
            by_kind.setdefault(deal["kind"], []).append(spent)
    every = [t for ts in by_kind.values() for t in ts]
    for kind, ts in sorted(by_kind.items()):
        print(f"{kind:9} {len(ts):3} deals: median {statistics.median(ts):.3f} s, "
              f"p95 {_pct(ts, 0.95):.3f} s, max {max(ts):.3f} s")
    print(f"all       {len(every):3} deals: median {statistics.median(every):.3f} s, "
          f"p95 {_pct(every, 0.95):.3f} s, max {max(every):.3f} s (target ≤ 0.3 s a deal)")


if __name__ == "__main__":
    main()
