"""The computer levels' seed ratings, from whole duplicate pulya games between them.

Every line-up of three different levels (Easy, Normal, Hard, Crazy: four line-ups) plays the
same games (:func:`preferans.match.pulya.play_game`: game ``g`` is a fixed sequence of deals,
played once in each rotation of the line-up, no decision budgets, so the games are
reproducible).  Each pair of levels sits together in two line-ups, so ``G`` duplicate games a
line-up give every pairing ``6·G`` whole games (two line-ups × three rotations).

The ratings come from every whole game, in a fixed order (game by game, line-up by line-up,
rotation by rotation: the order the games finish in does not matter), each an OpenSkill
update of the three seats from new ratings (:func:`ratings_from_plays`).  The results are
kept whole in the data file (:data:`SEED_FILE`) so that the ratings can be recomputed.

>>> pairings([["easy", "normal", "hard"]] * 2)["easy/hard"]
2
"""

from __future__ import annotations

import functools
import itertools
import json
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .model import Rating, rate_seats

LEVELS = ("easy", "normal", "hard", "crazy")
"""The computer levels, weakest first (the rated holders ``level:<name>``)."""
LINEUPS = [list(triple) for triple in itertools.combinations(LEVELS, 3)]
"""The line-ups: every three different levels."""
SEED_FILE = Path(__file__).resolve().parents[1] / "data" / "rating" / "levels.json"
"""Where the seed ratings and the games behind them are kept (package data)."""


def level_holder(level: str) -> str:
    """The rated holder of a computer level.

    >>> level_holder("hard")
    'level:hard'
    """
    return f"level:{level}"


def pairings(lineups: Sequence[Sequence[str]]) -> dict[str, int]:
    """Whole games per pair of levels among games with these line-ups."""
    count: dict[str, int] = {}
    for lineup in lineups:
        for a, b in itertools.combinations(sorted(set(lineup), key=LEVELS.index), 2):
            count[f"{a}/{b}"] = count.get(f"{a}/{b}", 0) + 1
    return count


def ratings_from_plays(plays: Sequence[dict[str, Any]]) -> dict[str, Rating]:
    """Each level's rating after every play (``lineup`` by seat, ``balance`` by seat) in
    order, from new ratings."""
    ratings: dict[str, Rating] = {}
    for play in plays:
        before = [ratings.get(name, Rating()) for name in play["lineup"]]
        for name, after in zip(play["lineup"], rate_seats(before, play["balance"]),
                               strict=True):
            ratings[name] = after
    return ratings


def _job(args: tuple[list[str], dict[str, Any], int, int, int], threads: int
         ) -> dict[str, Any]:
    from ..match.pulya import play_game
    from ..rules import Rules

    lineup, rules_json, seed, game, rotation = args
    start = time.process_time()
    play = play_game(lineup, Rules.from_json(rules_json), seed, game, rotation,
                     threads=threads)
    return {"game": game, "lineup_index": LINEUPS.index(lineup), "rotation": rotation,
            "lineup": play.lineup, "balance": [round(b, 3) for b in play.balance],
            "deals": play.deal_count, "finished": play.finished,
            "cpu_s": round(time.process_time() - start, 2)}


def play_seed_games(games: int, *, pool: int = 10, seed: int = 0, workers: int = 2,
                    time_limit: float | None = None,
                    progress: Callable[[int, int], None] | None = None,
                    earlier: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play ``games`` duplicate games a line-up (or what ``time_limit`` seconds allow: no new
    game is started after it, and a game counts only with all its line-ups and rotations
    played, so every line-up has played the same games) and return the seed data.

    ``earlier``: the data of an earlier run with the same pool and seed; its games are kept
    (rated first, as they were played) and only the duplicate games it lacks are played."""
    from ..match.jobs import run_jobs
    from ..rules import Rules

    rules = Rules.preset("sochi", pool=pool)
    per_game = len(LINEUPS) * 3
    kept: list[dict[str, Any]] = []
    spent = 0.0
    if earlier is not None:
        if earlier.get("pool") != pool or earlier.get("seed") != seed:
            raise ValueError(f"the earlier seed was played to pool {earlier.get('pool')} with "
                             f"seed {earlier.get('seed')}, not pool {pool} with seed {seed}")
        kept = list(earlier.get("plays", []))
        spent = float(earlier.get("wall_seconds", 0.0))
    first = 1 + max((p["game"] for p in kept), default=-1)
    jobs = [(lineup, rules.to_json(), seed, g, r)
            for g in range(first, games) for lineup in LINEUPS for r in range(3)]
    deadline = None if time_limit is None else time.monotonic() + time_limit
    done: list[dict[str, Any]] = []
    started = time.monotonic()

    def take(result: dict[str, Any]) -> None:
        done.append(result)
        if progress:
            progress(len(done), len(jobs))

    def start_more(k: int) -> bool:
        return k % per_game != 0 or deadline is None or time.monotonic() <= deadline

    run_jobs(_job, jobs, workers=workers, take=take, start_more=start_more)
    by_game: dict[int, list[dict[str, Any]]] = {}
    for result in done:
        by_game.setdefault(result["game"], []).append(result)
    complete = sorted(g for g, plays in by_game.items() if len(plays) == per_game)
    plays = kept + [p for g in complete for p in sorted(
        by_game[g], key=lambda p: (p["lineup_index"], p["rotation"]))]
    return seed_data(plays, pool=pool, seed=seed, workers=workers,
                     wall_s=spent + time.monotonic() - started)


def seed_data(plays: Sequence[dict[str, Any]], *, pool: int, seed: int, workers: int,
              wall_s: float) -> dict[str, Any]:
    """The data file's content: the ratings with their figures and the plays behind them."""
    ratings = ratings_from_plays(plays)
    cpu = [p["cpu_s"] for p in plays]
    games = len({p["game"] for p in plays})
    return {
        "format": "preferans-rating-seed/1",
        "made": datetime.now(UTC).replace(microsecond=0).isoformat(),
        "rules": "sochi", "pool": pool, "seed": seed, "workers": workers,
        "duplicate_games_per_lineup": games,
        "whole_games": len(plays),
        "games_per_pairing": pairings([p["lineup"] for p in plays]),
        "cpu_seconds": round(sum(cpu), 1),
        "wall_seconds": round(wall_s, 1),
        "deals_per_game": round(sum(p["deals"] for p in plays) / len(plays), 2) if plays
        else 0.0,
        "ratings": {level: ratings.get(level_holder(level), ratings.get(level, Rating())
                                       ).to_json() for level in LEVELS},
        "plays": [{k: p[k] for k in ("game", "lineup", "balance", "deals", "finished",
                                     "cpu_s")} for p in plays],
    }


def load_seed(path: Path = SEED_FILE) -> dict[str, Rating]:
    """The seed rating of each level holder (``level:hard``), from the data file (read once
    per path); a level the file lacks starts as a new player."""
    return dict(_seed(path))


@functools.lru_cache(maxsize=4)
def _seed(path: Path) -> dict[str, Rating]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = {}
    out: dict[str, Rating] = {}
    for level in LEVELS:
        row = (data.get("ratings") or {}).get(level) or {}
        out[level_holder(level)] = Rating(float(row.get("mu", 25.0)),
                                          float(row.get("sigma", 25.0 / 3)),
                                          int(row.get("games", 0)))
    return out


def new_player_path(plays: Sequence[dict[str, Any]], level: str,
                    seeds: dict[str, Rating], games: int = 10) -> list[Rating]:
    """How a new player who plays exactly as ``level`` did would be rated over his first
    ``games`` games: ``level``'s first plays (in order), with ``level`` a new holder (25 ±
    16.7) and the other seats the levels at their seed ratings (``seeds``: by level holder,
    as :func:`load_seed` gives them; they do not move, as a level's rating barely does in ten
    games).  The rating after each game."""
    path: list[Rating] = []
    mine = Rating()
    for play in plays:
        if len(path) >= games:
            break
        if level not in play["lineup"]:
            continue
        before = [mine if name == level else seeds.get(level_holder(name), Rating())
                  for name in play["lineup"]]
        mine = rate_seats(before, play["balance"])[play["lineup"].index(level)]
        path.append(mine)
    return path
