"""The computer defenders against a misère with a defender on lead, under each reading of
when the defending hands go face up (``misere_exposure``).

    .venv/bin/python benchmarks/bench_misere.py --deals 300 --seed 35 --level normal
        [--readings after_declarer_lead,after_lead] [--json]

A fixed set of misère deals drawn from ``--seed``: Sochi, dealer C, the declarer is the second
or the third hand (so a defender, the first hand, makes the opening lead: the case where the
readings differ) and holds a hand one would call misère on: after the talon and the safest
discard its rough misère danger (:func:`preferans.players.evaluation.misere_danger`) is
below ``--danger`` (0.8).  The auction is set (the declarer calls MISERE, the others pass);
everything after it (the declarer's discard, every card) is chosen by ``--level`` players.
Each deal is played once per reading with the same players and seeds, so the readings are
paired.

Reported per reading: how often the misère is caught (the declarer takes a trick; Wilson
95% interval), the declarer's tricks a deal, and the defenders' whists a deal (what the
declarer loses, from a fresh sheet: each defender's settlement, averaged; 95% interval);
and the paired difference of each reading from the first.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from typing import Any

from preferans.cards import DECK
from preferans.game import Game
from preferans.players import make_player
from preferans.players.evaluation import misere_danger, misere_discard_candidates
from preferans.rules import Rules

DEALER = 2


def wilson(k: int, n: int) -> tuple[float, float, float]:
    if n == 0:
        return 0.0, 0.0, 1.0
    z = 1.96
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, max(0.0, centre - half), min(1.0, centre + half)


def mean_ci(values: list[float]) -> list[float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return [round(mean, 3), round(mean - half, 3), round(mean + half, 3)]


def misere_deals(count: int, seed: int, danger: float) -> list[tuple[int, list[list[str]],
                                                                       list[str]]]:
    """``count`` deals (declarer, hands by seat, talon) with a misère hand for the second or
    third hand, alternately."""
    rng = random.Random(f"bench-misere/{seed}")
    out = []
    while len(out) < count:
        declarer = 1 + len(out) % 2
        cards = list(DECK)
        rng.shuffle(cards)
        hands = [cards[0:10], cards[10:20], cards[20:30]]
        talon = cards[30:32]
        twelve = sum(c.mask for c in hands[declarer] + talon)
        best = misere_discard_candidates(twelve, keep=1)[0]
        if misere_danger(twelve & ~best) < danger:
            out.append((declarer, [[str(c) for c in h] for h in hands], [str(c) for c in talon]))
    return out


def play(rules: Rules, level: str, seed: int, number: int, declarer: int,
         hands: list[list[str]], talon: list[str]) -> tuple[int, float]:
    """One misère played out: the declarer's tricks and the defenders' mean settlement."""
    game = Game(rules, ["A", "B", "C"], first_dealer=DEALER)
    game.start_deal(hands, talon)
    for seat in range(3):  # first hand (A) first
        game.apply("MISERE" if seat == declarer else "PASS")
        if game.deal is not None and game.deal.phase.value != "auction":
            break
    deal = game.deal
    assert deal is not None and deal.declarer == declarer
    bots = [make_player(level, rules, seed=seed * 7919 + number * 31 + s, budget=None)
            for s in range(3)]
    while game.deal is not None:
        seat = game.deal.to_act
        assert seat is not None
        game.apply(bots[seat].choose(game.observation(seat)))
    done = game.finished_deals[-1]
    assert done.outcome().kind == "misere"
    balance = [float(x) for x in game.sheet.balance()]
    defenders = [s for s in range(3) if s != declarer]
    return done.outcome().tricks[declarer], statistics.fmean(balance[s] for s in defenders)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--level", default="normal")
    parser.add_argument("--danger", type=float, default=0.8)
    parser.add_argument("--readings", default="after_declarer_lead,after_lead")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    deals = misere_deals(args.deals, args.seed, args.danger)
    readings = args.readings.split(",")
    tricks: dict[str, list[int]] = {r: [] for r in readings}
    whists: dict[str, list[float]] = {r: [] for r in readings}
    start = time.perf_counter()
    for reading in readings:
        rules = Rules.preset("sochi", misere_exposure=reading)
        for number, (declarer, hands, talon) in enumerate(deals):
            t, w = play(rules, args.level, args.seed, number, declarer, hands, talon)
            tricks[reading].append(t)
            whists[reading].append(w)
    first = readings[0]
    out: dict[str, Any] = {"level": args.level, "deals": len(deals), "seed": args.seed,
                           "danger_below": args.danger, "readings": {}}
    for reading in readings:
        caught = sum(t > 0 for t in tricks[reading])
        share, lo, hi = wilson(caught, len(deals))
        entry: dict[str, Any] = {
            "caught": caught,
            "caught_share": [round(share, 3), round(lo, 3), round(hi, 3)],
            "declarer_tricks": mean_ci([float(t) for t in tricks[reading]]),
            "defender_whists": mean_ci(whists[reading]),
        }
        if reading != first:
            entry["vs_" + first] = {
                "caught_diff": mean_ci([float((a > 0) - (b > 0)) for a, b in
                                        zip(tricks[reading], tricks[first], strict=True)]),
                "defender_whists_diff": mean_ci([a - b for a, b in
                                                 zip(whists[reading], whists[first],
                                                     strict=True)]),
            }
        out["readings"][reading] = entry
    out["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps(out, indent=None if args.json else 2))


if __name__ == "__main__":
    main()
