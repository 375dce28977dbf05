"""The puzzles' grades against our four levels: which levels find the card, by grade.

    .venv/bin/python benchmarks/bench_puzzle_levels.py [--per-grade 40] [--seed 0] [--json]
        [--exclude calibration.jsonl]

Takes a seeded sample of the shipped generated puzzles, up to ``--per-grade`` of each grade,
and lets Easy, Normal, Hard and Crazy (no time budget: reproducible) choose in each
position from their own seat's observation (``preferans.puzzles.levels``).  Prints, per
grade, the share of puzzles each level solved (its card in the solution run), and the
seconds it took.  The harder the grade, the fewer levels should find the card.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from preferans.puzzles.levels import LEVELS, level_table
from preferans.puzzles.shipped import generated


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-grade", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--exclude", type=Path, help="leave out the puzzles whose ids this "
                        "file lists (JSON lines with an 'id'): a calibration sample")
    args = parser.parse_args()
    left_out: set[str] = set()
    if args.exclude:
        left_out = {json.loads(line)["id"] for line in args.exclude.read_text().splitlines()
                    if line.strip()}
    rng = random.Random(args.seed)
    sample = []
    for grade in range(1, 6):
        of_grade = [p for p in generated() if p["grade"] == grade and p["id"] not in left_out]
        sample += rng.sample(of_grade, min(args.per_grade, len(of_grade)))
    start = time.process_time()
    table = level_table(sample, seed=args.seed)
    cpu = time.process_time() - start
    if args.json:
        print(json.dumps({"table": table, "cpu_seconds": round(cpu, 1)}, indent=2))
        return
    print(f"{'grade':>5} {'puzzles':>7} " + " ".join(f"{lv:>7}" for lv in LEVELS))
    for grade, row in table.items():
        n = row["puzzles"]
        print(f"{grade:>5} {n:>7} " + " ".join(f"{row[lv] / n:>7.0%}" for lv in LEVELS))
    total = sum(r["puzzles"] for r in table.values())
    print(f"{'all':>5} {total:>7} " + " ".join(
        f"{sum(r[lv] for r in table.values()) / total:>7.0%}" for lv in LEVELS))
    print(f"{cpu:.0f} CPU s")


if __name__ == "__main__":
    main()
