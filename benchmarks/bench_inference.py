"""Measures behind Crazy's play inference (docs/strength.md, "Play inference: why it is
sound, what it costs").

Reads match records (``preferans match ... --records FILE.jsonl``) and prints:

- ``optimal``: how often each level's card was a double-dummy best card of the true deal,
  among choices where the legal cards differ in value;
- ``proxy``: a level with and without play inference choosing the same card decisions
  (with hidden cards), scored by the tricks each gives away in the true deal;
- ``ddgap``: the declarer's tricks taken minus the double-dummy value at the first lead;
- ``factor``: the inference factor of the true deal against that of 400 sampled worlds,
  and the time :func:`play_weights` takes.

    .venv/bin/python benchmarks/bench_inference.py optimal RECORDS.jsonl --boards 300
    .venv/bin/python benchmarks/bench_inference.py proxy RECORDS.jsonl --boards 400 --level hard
    .venv/bin/python benchmarks/bench_inference.py ddgap RECORDS.jsonl --boards 3000
    .venv/bin/python benchmarks/bench_inference.py factor RECORDS.jsonl --boards 30
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import json
import random
import statistics
import time
from collections.abc import Iterator
from typing import Any

from preferans.analysis.ddgap import played_contracts
from preferans.cards import Card, CardSet
from preferans.deal import Deal, Phase
from preferans.game import Game
from preferans.players.inference import play_weights
from preferans.players.montecarlo import CRAZY, HARD, MonteCarloPlayer
from preferans.players.sampling import Sampler, World
from preferans.players.solving import play_position
from preferans.players.view import SeatView
from preferans.rules import Rules
from preferans.solver import solve_moves


def _games(path: str, boards: int) -> Iterator[tuple[int, dict[str, Any], Game, list[str]]]:
    """Each record's game, dealt and ready; the caller applies the actions."""
    with open(path) as fh:
        for i, line in enumerate(fh):
            if i >= boards:
                return
            row = json.loads(line)
            rec = row["record"]
            deal = rec["deals"][0]
            game = Game(Rules.from_json(rec["rules"]), rec["players"], first_dealer=deal["dealer"])
            game.start_deal([CardSet.parse(h) for h in deal["hands"]], deal["talon"])
            yield i, row, game, deal["actions"]


def _true_values(deal: Deal, view: SeatView, rules: Rules) -> tuple[dict[int, int], bool, str]:
    """The true deal's value of each legal card, whether the player maximises, its role."""
    seat = deal.hand_to_play
    hands = [deal.hand(s).mask for s in range(view.players)]
    world = World(hands, view.talon_mask & ~view.played)
    if view.is_allpass:
        mode, side, role = "allpass", seat, "allpass"
    elif view.is_misere:
        mode, side, role = "misere", view.declarer, "misere"
    else:
        mode, side = "contract", view.declarer
        role = "declarer" if seat == side else "defender"
    values = solve_moves(play_position(view, world, mode=mode, side=side,  # type: ignore[arg-type]
                                       allpass_talon=rules.allpass_talon))
    maximise = (mode == "contract" and seat == side) or (mode == "misere" and seat != side)
    return values, maximise, role


def optimal(path: str, boards: int) -> None:
    stats: dict[tuple[str, str], collections.Counter[int]] = collections.defaultdict(
        collections.Counter)
    for _, row, game, actions in _games(path, boards):
        for token in actions:
            deal = game.deal
            assert deal is not None
            if deal.phase is Phase.PLAY and game.rules.players == 3:
                view = SeatView.from_observation(deal.observation(deal.to_act))  # type: ignore[arg-type]
                values, maximise, role = _true_values(deal, view, game.rules)
                if len(set(values.values())) > 1:
                    best = max(values.values()) if maximise else min(values.values())
                    loss = abs(best - values[Card.parse(token).index])
                    stats[(row["lineup"][deal.hand_to_play], role)][loss] += 1  # type: ignore[index]
            game.apply(token)
    for key in sorted(stats):
        c = stats[key]
        n = sum(c.values())
        print(f"{key[0]:8s} {key[1]:9s} choices {n:5d}  best card {c[0] / n:.3f}  losses {dict(c)}")


def proxy(path: str, boards: int, level: str) -> None:
    base = {"hard": HARD, "crazy": CRAZY}[level]
    with_inf = dataclasses.replace(base, name=f"{level}+inference", play_inference=True)
    without = dataclasses.replace(base, name=level, play_inference=False)
    rows: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0])
    for i, _, game, actions in _games(path, boards):
        a = MonteCarloPlayer(game.rules, seed=i, level=with_inf, threads=1)
        b = MonteCarloPlayer(game.rules, seed=i, level=without, threads=1)
        for token in actions:
            deal = game.deal
            assert deal is not None
            if deal.phase is Phase.PLAY and deal.tricks and game.rules.players == 3:
                actor = deal.to_act
                obs = deal.observation(actor)  # type: ignore[arg-type]
                view = SeatView.from_observation(obs)
                hidden = any(s != actor and s not in view.exposed for s in range(3))
                if hidden and len(view.legal) > 1:
                    values, maximise, role = _true_values(deal, view, game.rules)
                    if len(set(values.values())) > 1:
                        best = max(values.values()) if maximise else min(values.values())
                        r = rows[role]
                        r[0] += 1
                        r[1] += abs(best - values[Card.parse(a.choose(obs)).index])
                        r[2] += abs(best - values[Card.parse(b.choose(obs)).index])
            game.apply(token)
    total = [0, 0, 0]
    for role, (n, x, y) in sorted(rows.items()):
        print(f"{role:9s} decisions {n:5d}  tricks given away: with inference {x}, without {y}")
        total = [total[0] + n, total[1] + x, total[2] + y]
    print(f"{'total':9s} decisions {total[0]:5d}  with inference {total[1]}, without {total[2]}")


def ddgap(path: str, boards: int) -> None:
    gaps: dict[tuple[str, str], list[int]] = collections.defaultdict(list)
    with open(path) as fh:
        for i, line in enumerate(fh):
            if i >= boards:
                break
            row = json.loads(line)
            record = {**row["record"], "match": {"lineup": row["lineup"]}}
            for c in played_contracts(record):
                gaps[(c.declarer, "closed" if c.closed else "open")].append(c.gap)
    for key, v in sorted(gaps.items()):
        print(f"{key[0]:8s} {key[1]:6s} deals {len(v):5d}  tricks taken − double dummy "
              f"{sum(v) / len(v):+.3f}")


def factor(path: str, boards: int) -> None:
    true_f: list[float] = []
    sampled: list[float] = []
    times: list[float] = []
    cache: dict = {}
    for i, _, game, actions in _games(path, boards):
        for token in actions:
            deal = game.deal
            assert deal is not None
            if deal.phase is Phase.PLAY and game.rules.players == 3:
                view = SeatView.from_observation(deal.observation(deal.to_act))  # type: ignore[arg-type]
                worlds = Sampler(view, random.Random(i)).sample(400)
                truth = World([deal.hand(s).mask for s in range(3)], 0)
                start = time.perf_counter()
                f = play_weights(view, [*worlds, truth], threads=1, cache=cache,
                                 allpass_talon=game.rules.allpass_talon)
                times.append(time.perf_counter() - start)
                if len(set(f[:-1])) > 1:
                    true_f.append(f[-1])
                    w = [x.weight for x in worlds]
                    sampled.append(sum(a * b for a, b in zip(f, w, strict=False)) / sum(w))
            game.apply(token)
    times.sort()
    print(f"decisions where the inference tells worlds apart: {len(true_f)}")
    print(f"true deal's factor: mean {statistics.fmean(true_f):.3f}, "
          f"1.0 in {sum(x == 1 for x in true_f) / len(true_f):.0%}")
    print(f"sampled worlds' mean factor: {statistics.fmean(sampled):.3f}")
    print(f"time per decision: p50 {1000 * times[len(times) // 2]:.1f} ms, "
          f"p95 {1000 * times[int(0.95 * len(times))]:.1f} ms, max {1000 * times[-1]:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("optimal", "proxy", "ddgap", "factor"))
    parser.add_argument("records")
    parser.add_argument("--boards", type=int, default=300, help="records (lines) to read")
    parser.add_argument("--level", default="hard", choices=("hard", "crazy"))
    args = parser.parse_args()
    if args.what == "optimal":
        optimal(args.records, args.boards)
    elif args.what == "proxy":
        proxy(args.records, args.boards, args.level)
    elif args.what == "ddgap":
        ddgap(args.records, args.boards)
    else:
        factor(args.records, args.boards)


if __name__ == "__main__":
    main()
