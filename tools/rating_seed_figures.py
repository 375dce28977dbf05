"""The seed file's figures as docs/rating.md shows them: the levels' ratings with their 95%
intervals, and each pairing's head-to-head in the same whole games (how often each finished
above the other, ties apart, and the mean balance difference in whists).

    .venv/bin/python tools/rating_seed_figures.py [--seed-file PATH]
"""

from __future__ import annotations

import argparse
import json
from itertools import combinations
from pathlib import Path
from statistics import median
from typing import Any

from preferans.rating.seed import LEVELS, SEED_FILE


def head_to_head(plays: list[dict[str, Any]], first: str, second: str) -> dict[str, float]:
    """The pair's whole games: games, first above, second above, ties, mean balance gap."""
    above = below = ties = 0
    gaps: list[float] = []
    for play in plays:
        lineup = play["lineup"]
        if first not in lineup or second not in lineup:
            continue
        a = play["balance"][lineup.index(first)]
        b = play["balance"][lineup.index(second)]
        gaps.append(a - b)
        above += a > b
        below += a < b
        ties += a == b
    mean = sum(gaps) / len(gaps) if gaps else 0.0
    return {"games": len(gaps), "above": above, "below": below, "ties": ties, "gap": mean}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed-file", type=Path, default=SEED_FILE)
    args = parser.parse_args()
    data = json.loads(args.seed_file.read_text(encoding="utf-8"))
    plays = data["plays"]
    print(f"{data['duplicate_games_per_lineup']} duplicate games a line-up, "
          f"{data['whole_games']} whole games of pulya {data['pool']}, "
          f"{data['deals_per_game']} deals a game; {data['cpu_seconds']} CPU s")
    print("whole games per pairing:", ", ".join(
        f"{k} {v}" for k, v in data["games_per_pairing"].items()))
    by_lineup: dict[str, list[float]] = {}
    for play in plays:
        by_lineup.setdefault("–".join(sorted(play["lineup"], key=LEVELS.index)), []).append(
            play["cpu_s"])
    print("CPU s a whole game (median):", ", ".join(
        f"{k} {median(v):.1f}" for k, v in by_lineup.items()))
    print("\n| level | rating (mu ± 2·sigma) | mu | sigma | 95% interval | games |")
    print("|---|---|---|---|---|---|")
    for level in LEVELS:
        r = data["ratings"][level]
        print(f"| {level.capitalize()} | {r['shown']} | {r['mu']:.2f} | {r['sigma']:.2f} | "
              f"[{r['low']:.1f}, {r['high']:.1f}] | {r['games']} |")
    print("\n| pairing | games | first above | second above | ties | "
          "mean balance (first − second) |")
    print("|---|---|---|---|---|---|")
    for first, second in combinations(LEVELS, 2):
        h = head_to_head(plays, first, second)
        print(f"| {first.capitalize()} / {second.capitalize()} | {h['games']} | {h['above']} | "
              f"{h['below']} | {h['ties']} | {h['gap']:+.1f} |")


if __name__ == "__main__":
    main()
