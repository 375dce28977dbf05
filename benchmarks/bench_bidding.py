"""How often a table of one level bids: what each deal becomes when that level holds every seat.

    .venv/bin/python benchmarks/bench_bidding.py --level easy --deals 300 --seed 35
        [--pulya 10] [--rules sochi] [--json]

``preferans match`` needs two different players; this plays the same level at every seat.
Boards (the default): ``--deals`` one-deal games from a fresh sheet, the cards of
``preferans match``'s boards (same seed, same cards).  ``--pulya P``: whole games to pool
``P``, the cards of ``preferans match --pulya`` (same seed, same deals), game after game
until ``--deals`` deals have been played (the last game to its end): the all-pass streaks
(stakes 1, 2, 3 and the minimum bid 7 after an all-pass) come into it there.

Reported per deal: the share of deals played as contracts (any ordinary contract: whisted
and played, passed out, or half-whisted; misère apart), misère, all-pass, with 95%
intervals (Wilson for boards; for whole games the delta method over games, the deals of a
game not being independent), and the auction: calls, bids (calls other than PASS) per call.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections import Counter
from typing import Any

from preferans.game import Game
from preferans.match import board_cards
from preferans.match.pulya import game_deal_cards, ratio_interval
from preferans.players import make_player
from preferans.rules import Rules


def wilson(k: int, n: int) -> tuple[float, float, float]:
    """A share k/n with its 95% Wilson interval.

    >>> [round(x, 3) for x in wilson(30, 100)]
    [0.3, 0.219, 0.396]
    """
    if n == 0:
        return 0.0, 0.0, 1.0
    z = 1.96
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, centre - half, centre + half


def play_deal(game: Game, bots: list[Any], calls: Counter[str]) -> str:
    """Play the game's current deal to its end; returns the deal's kind."""
    while game.deal is not None:
        deal = game.deal
        seat = deal.to_act
        assert seat is not None
        obs = game.observation(seat)
        token = bots[seat].choose(obs)
        if obs["phase"] == "auction" and len(obs["legal"]) > 1:
            calls["calls"] += 1
            calls["bids"] += token.upper() != "PASS"
        game.apply(token)
    return game.finished_deals[-1].outcome().kind


def run(level: str, rules: Rules, deals: int, seed: int, pulya: int | None) -> dict[str, Any]:
    kinds: list[list[str]] = []  # per game (boards: one deal each)
    calls: Counter[str] = Counter()
    n = rules.players
    start = time.perf_counter()
    if pulya is None:
        for board in range(deals):
            dealer, hands, talon = board_cards(rules, seed, board)
            bots = [make_player(level, rules, seed=seed * 7919 + board * 31 + s, budget=None)
                    for s in range(n)]
            game = Game(rules, [f"{level}{s}" for s in range(n)], first_dealer=dealer)
            game.start_deal(hands, talon)
            kinds.append([play_deal(game, bots, calls)])
    else:
        rules = rules.replace(pool=pulya)
        number = 0
        while sum(len(k) for k in kinds) < deals:
            bots = [make_player(level, rules, seed=seed * 7919 + number * 31 + s + 1_000_000,
                                budget=None) for s in range(n)]
            game = Game(rules, [f"{level}{s}" for s in range(n)], first_dealer=number % n)
            played: list[str] = []
            while not game.finished and len(played) < 400:
                _, hands, talon = game_deal_cards(rules, seed, number, len(played), game.dealer)
                game.start_deal(hands, talon)
                played.append(play_deal(game, bots, calls))
            kinds.append(played)
            number += 1
    every = [k for game in kinds for k in game]
    total = len(every)
    groups = {
        "contract": ("contract", "passed", "halfwhist"),
        "misere": ("misere",),
        "allpass": ("allpass",),
    }
    out: dict[str, Any] = {
        "level": level, "rules": rules.name, "pool": rules.pool, "seed": seed,
        "mode": "boards" if pulya is None else f"pulya {pulya}",
        "games": len(kinds), "deals": total,
        "kinds": dict(Counter(every)),
        "auction_calls": calls["calls"], "bids": calls["bids"],
        "bids_per_call": round(calls["bids"] / calls["calls"], 3) if calls["calls"] else None,
        "seconds": round(time.perf_counter() - start, 1),
    }
    for name, members in groups.items():
        if pulya is None:
            share, lo, hi = wilson(sum(k in members for k in every), total)
        else:
            share, lo, hi = ratio_interval(
                [float(sum(k in members for k in game)) for game in kinds],
                [float(len(game)) for game in kinds])
        out[f"{name}_share"] = [round(share, 3), round(max(0.0, lo), 3), round(min(1.0, hi), 3)]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="easy")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--rules", default="sochi")
    parser.add_argument("--pulya", type=int, default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = run(args.level, Rules.preset(args.rules), args.deals, args.seed, args.pulya)
    if args.json:
        print(json.dumps(result))
        return
    for key, value in result.items():
        print(f"{key:16s} {value}")


if __name__ == "__main__":
    main()
