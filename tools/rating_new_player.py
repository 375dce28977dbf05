"""How a new player's rating moves over his first ten games: for each computer level, a new
player who plays exactly as that level did in the seed games (his results are the level's
own, from ``data/rating/levels.json``), rated from 25 ± 16.7 against the other levels at
their seed ratings.  Prints a table per level, and where each step places him among the
levels (by the lower end, as the ladder does).

    .venv/bin/python tools/rating_new_player.py [--games 10] [--seed-file PATH]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from preferans.rating.seed import LEVELS, SEED_FILE, level_holder, load_seed, new_player_path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed-file", type=Path, default=SEED_FILE)
    args = parser.parse_args()
    data = json.loads(args.seed_file.read_text(encoding="utf-8"))
    seeds = load_seed(args.seed_file)
    print("seed ratings (mu ± 2 sigma):",
          ", ".join(f"{lv} {seeds[level_holder(lv)].shown()}" for lv in LEVELS))
    for level in LEVELS:
        path = new_player_path(data["plays"], level, seeds, args.games)
        print(f"\nA new player who plays as {level.capitalize()}:")
        print("game  rating          lower end  placed")
        for k, r in enumerate(path, start=1):
            below = [lv for lv in LEVELS if seeds[level_holder(lv)].low <= r.low]
            above = [lv for lv in LEVELS if seeds[level_holder(lv)].low > r.low]
            low_level = max(below, key=lambda lv: seeds[level_holder(lv)].low, default=None)
            high_level = min(above, key=lambda lv: seeds[level_holder(lv)].low, default=None)
            placed = (f"between {low_level} and {high_level}" if low_level and high_level
                      else f"above {low_level}" if low_level else f"below {high_level}")
            print(f"{k:>4}  {r.shown():<14}  {r.low:>9.2f}  {placed}")


if __name__ == "__main__":
    main()
