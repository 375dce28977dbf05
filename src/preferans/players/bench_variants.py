"""Decision times of the structural variants' own decisions, over whole games.

    .venv/bin/python -m preferans.players.bench_variants --level hard --deals 6
    .venv/bin/python -m preferans.players.bench_variants --naming rogue-small --games 40

Plays ``--deals`` deals of every variant preset with one level in every seat and reports,
for the decisions :mod:`preferans.players.variants` makes (the Rogue's naming, the
two-player WHIST/PASS and OPEN/ALONE, blind and hand bids, POOL/HILL), the count, p50, p95
and max of the wall-clock time of ``choose``; then the same for every other decision.

``--naming PRESET``: the Rogue's naming by evaluation against naming in list order (the
players' old default), in duplicate whole games: each game is played twice with the same
deals, the two players swapping seats; both play everything else alike (``--level``, Normal
by default for speed).  Reports the evaluating player's balance minus the other's, per
game, averaged over each pair, with a 95% interval.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from typing import Any

from ..game import Game
from ..rules import VARIANTS, Rules
from . import make_player

PRESETS = (*VARIANTS, "classical-1971/second-half")
"""Every variant, and Classical once more from its second half (blind and hand bids)."""


def kind_of(obs: dict) -> str:
    """Which decision an observation asks for (the variants' own, or ``other``)."""
    phase = obs.get("phase")
    legal = [str(t).upper() for t in obs.get("legal") or []]
    if phase == "name":
        return "rogue name"
    if phase == "write":
        return "pool/hill"
    if obs.get("dummy") is not None and phase in ("defence", "defence mode"):
        return "two-player defence"
    if phase == "auction" and ("SEE" in legal or obs.get("hand_hidden")):
        return "blind/see"
    if phase == "auction" and any(t.endswith(" HAND") for t in legal):
        return "hand bid"
    return "other"


def percentile(values: list[float], q: float) -> float:
    """The ``q``-quantile (0..1) by nearest rank."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def run(level: str, deals: int, seed: int = 1) -> dict[str, dict[str, float]]:
    """Play the deals; the timing summary by decision kind."""
    times: dict[str, list[float]] = defaultdict(list)
    for preset in PRESETS:
        name, _, part = preset.partition("/")
        rules = Rules.preset(name)
        bots = [make_player(level, rules, seed=seed + i) for i in range(rules.players)]
        game = Game(rules, seed=seed)
        if part == "second-half":  # skip the Rogue half and the half-time all-passes
            game.sheet.stage = "second half"
            game.sheet.rogue_lists = [[] for _ in game.sheet.rogue_lists]
        for _ in range(deals):
            if game.finished:
                break
            game.start_deal()
            while game.deal is not None:
                seat = game.deal.to_act
                assert seat is not None
                obs = game.observation(seat)
                t0 = time.perf_counter()
                token = bots[seat].choose(obs)
                elapsed = time.perf_counter() - t0
                if len(obs["legal"]) > 1:
                    times[kind_of(obs)].append(elapsed)
                game.apply(token)
    out = {}
    for kind, vals in sorted(times.items()):
        out[kind] = {"n": len(vals), "p50_ms": round(percentile(vals, 0.5) * 1000, 1),
                     "p95_ms": round(percentile(vals, 0.95) * 1000, 1),
                     "max_ms": round(max(vals) * 1000, 1)}
    return out


def naming_ab(preset: str, games: int, level: str = "normal") -> dict[str, float]:
    """Duplicate games: the Rogue's naming by evaluation against list order."""
    import random
    import statistics

    from .levels import LEVELS_BY_NAME
    from .montecarlo import MonteCarloPlayer

    class ListOrder(MonteCarloPlayer):
        def _name(self, view: Any, rng: random.Random) -> str:
            return str(view.legal[0])

    rules = Rules.preset(preset)
    if rules.players != 2 or rules.rogue == "none":
        raise ValueError(f"{preset}: the naming comparison is for two-player Rogue presets")
    if level not in ("normal", "hard", "crazy"):
        raise ValueError(f"level {level!r}: the naming comparison needs normal, hard or crazy")
    lv = LEVELS_BY_NAME[level]
    pairs = []
    for g in range(games):
        pair = []
        for swap in (0, 1):
            bots: list[MonteCarloPlayer] = [MonteCarloPlayer(rules, 10 + g, lv, threads=1),
                                            ListOrder(rules, 20 + g, lv, threads=1)]
            if swap:
                bots.reverse()
            game = Game(rules, seed=1000 + g)
            while not game.finished:
                game.start_deal()
                while game.deal is not None:
                    seat = game.deal.to_act
                    assert seat is not None
                    game.apply(bots[seat].choose(game.observation(seat)))
            balance = [float(x) for x in game.sheet.balance()]
            pair.append(balance[swap] - balance[1 - swap])
        pairs.append(sum(pair) / 2)
    mean = statistics.mean(pairs)
    half = 1.96 * statistics.stdev(pairs) / len(pairs) ** 0.5 if len(pairs) > 1 else 0.0
    return {"preset": preset, "level": level, "pairs": len(pairs),  # type: ignore[dict-item]
            "gain_per_game": round(mean, 1), "ci95": round(half, 1)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--level", default=None, help="hard for the timings, normal for --naming")
    parser.add_argument("--deals", type=int, default=6, help="deals per variant preset")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--naming", default=None, help="a two-player Rogue preset to compare")
    parser.add_argument("--games", type=int, default=20, help="duplicate pairs for --naming")
    args = parser.parse_args(argv)
    try:
        if args.naming:
            print(json.dumps(naming_ab(args.naming, args.games, args.level or "normal")))
            return
        print(json.dumps(run(args.level or "hard", args.deals, args.seed), indent=1))
    except ValueError as exc:
        parser.error(str(exc))


if __name__ == "__main__":
    main()
