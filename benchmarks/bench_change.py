"""A change to a computer player, judged where it changes a decision.

A match between two versions of a player needs thousands of deals to see a change that
touches one call in twenty.  This bench replays match records instead: at every decision
of the chosen phases (by any seat: the decision depends only on the seat's observation),
it asks both players, and where they differ it scores both choices on the true deal the
way ``preferans attribute`` scores a call: the deal goes on from the call with the later
calls as recorded where they are legal (otherwise the double-dummy fallback) and is played
double dummy (:class:`preferans.analysis.attribution.DealAnalyser`).  It prints how often the two
differ and the mean gain of A over B in whists per differing decision and per deal, with
95 % intervals over the decisions.  Double dummy is the judge, with its known bias (a
declarer takes about 0.2 tricks more in real play against a closed defence).

``--judge play`` adds a second judge that has no such bias: the deal goes on from the call
in real play, every later decision made by a computer player seeing only its seat (the
deciding seat's later calls by the player being judged, every card and every other seat's
call by ``--continue-with``, Hard without a clock by default).  Those players are
deterministic for an observation, so the two branches differ only through the call.

    .venv/bin/python benchmarks/bench_change.py runs/p10 \\
        --a crazy-nobudget --b crazy-nobudget/rival_in_pass=0 --phases auction
    .venv/bin/python benchmarks/bench_change.py runs/p10 --judge play \\
        --a crazy-nobudget/play_gap=1 --b crazy-nobudget --phases auction,defence

``--phases play`` judges card play: a differing card is valued double dummy in tricks for
the hand that plays it, and in real play the judged seat also plays its later cards.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from preferans.analysis.attribution import (
    DealAnalyser,
    check_rules,
    record_files,
    start_recorded_deal,
)
from preferans.cards import Card
from preferans.deal import Deal, Phase
from preferans.game import Game
from preferans.players import make_player
from preferans.record import read_record
from preferans.rules import Rules

PHASES = {"auction": Phase.AUCTION, "defence": Phase.DEFENCE, "discard": Phase.DISCARD,
          "contract": Phase.CONTRACT, "play": Phase.PLAY, "declarer": Phase.PLAY}
"""``declarer`` is ``play`` restricted to the cards a contract's declarer plays from his own
hand (not misère): a change that touches only the declaring hand is judged in a tenth of the
time."""


def _declaring(deal: Deal, seat: int) -> bool:
    return (deal.declarer == seat and deal.contract is not None
            and not deal.contract.misere)


def play_out(analyser: DealAnalyser, deal: Deal, seat: int, own: Any,
             others: dict[int, Any], sheet: dict[str, Any], own_cards: bool = False) -> float:
    """``seat``'s value of ``deal`` (just after its decision) played out by computer players:
    ``seat``'s later calls (and its cards, with ``own_cards``) by ``own``, everything else
    by ``others``."""
    d = deal.copy()
    for _ in range(300):
        if d.phase is Phase.DONE:
            return float(analyser.model(seat).value(d.outcome()))
        actor = d.to_act
        assert actor is not None
        observation = d.observation(actor)
        observation["sheet"] = sheet
        observation["game_finished"] = False
        mine = actor == seat and (own_cards or d.phase is not Phase.PLAY)
        player = own if mine else others[actor]
        d.apply(player.choose(observation))
    raise RuntimeError("a deal played out did not end")  # pragma: no cover


def card_values(analyser: DealAnalyser, deal: Deal, choice: dict[str, str]
                ) -> tuple[dict[str, float], str]:
    """Each card's double-dummy tricks from here, signed for the hand that plays it (more
    is better for it), and the row's label naming the hand's role."""
    values, maximise, role = analyser.card_values(deal)
    sign = 1.0 if maximise else -1.0
    return ({name: sign * values[Card.parse(token).index] for name, token in choice.items()},
            f"play ({role})")


def judge(path: str, a: str, b: str, phases: list[str], by_play: str | None = None
          ) -> dict[str, Any]:
    """The decisions of one record where ``a`` and ``b`` differ, each scored (double dummy,
    and in real play by ``by_play`` players when given)."""
    rec = read_record(json.loads(Path(path).read_text()))
    rules = Rules.from_json(rec["rules"])
    check_rules(rules)
    wanted = {PHASES[p] for p in phases}
    declarer_only = "declarer" in phases and "play" not in phases
    deals = rec["deals"]
    game = Game(rules, rec["players"], first_dealer=deals[0]["dealer"] if deals else 0)
    players = {(name, seat): make_player(name, rules, seed=seat + 17)
               for name in (a, b) for seat in range(rules.players)}
    others = {seat: make_player(by_play, rules, seed=seat + 101)
              for seat in range(rules.players)} if by_play else {}
    asked = 0
    differ: list[tuple[Any, ...]] = []
    seconds = {a: 0.0, b: 0.0}
    for entry in deals:
        sheet = game.sheet.to_json()
        analyser, steps = start_recorded_deal(game, entry)
        for k, (seat, phase, token) in enumerate(steps):
            deal = game.deal
            assert deal is not None
            if phase is Phase.DISCARD:
                analyser.discarded = (deal.copy(), token)
            if phase in wanted and len(deal.legal_actions()) > 1 and not (
                    declarer_only and phase is Phase.PLAY and not _declaring(deal, seat)):
                observation = game.observation(seat)
                choice = {}
                for name in (a, b):
                    start = time.perf_counter()
                    choice[name] = players[(name, seat)].choose(observation)
                    seconds[name] += time.perf_counter() - start
                asked += 1
                if choice[a] != choice[b]:
                    value, played = {}, {}
                    for name in (a, b):
                        d = deal.copy()
                        d.apply(choice[name])
                        if phase is not Phase.PLAY:
                            value[name] = analyser.complete(d, steps[k + 1:], seat)
                        if by_play:
                            played[name] = play_out(analyser, d, seat, players[(name, seat)],
                                                    others, sheet, own_cards=phase is Phase.PLAY)
                    label = phase.name.lower()
                    if phase is Phase.PLAY:  # double dummy in tricks, for the card's side
                        value, label = card_values(analyser, deal, choice)
                    row: tuple[Any, ...] = (label, choice[a], choice[b],
                                            float(value[a] - value[b]))
                    if by_play:
                        row += (played[a] - played[b],)
                    differ.append(row)
            game.apply(token)
    return {"path": path, "deals": len(deals), "asked": asked, "differ": differ,
            "seconds": seconds}


def _interval(values: list[float]) -> str:
    if len(values) < 2:
        return "—"
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", help="a records directory (preferans match --records-dir)")
    parser.add_argument("--a", required=True, help="the changed player, e.g. crazy-nobudget")
    parser.add_argument("--b", required=True,
                        help="the player it is judged against, e.g. crazy-nobudget/worlds=100")
    parser.add_argument("--phases", default="auction",
                        help=f"comma-separated, of {', '.join(PHASES)} (default auction)")
    parser.add_argument("--files", type=int, default=None, help="at most this many records")
    parser.add_argument("--skip", type=int, default=0, help="leave out the first SKIP records")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--judge", choices=("dd", "play"), default="dd",
                        help="dd: double dummy only; play: also played out by players")
    parser.add_argument("--continue-with", default="hard-nobudget",
                        help="the players of a real-play continuation (default hard-nobudget)")
    parser.add_argument("--json", default=None, help="also write every differing decision here")
    args = parser.parse_args()
    phases = [p.strip() for p in args.phases.split(",") if p.strip()]
    unknown = [p for p in phases if p not in PHASES]
    if unknown:
        parser.error(f"unknown phase {unknown[0]!r} (known: {', '.join(PHASES)})")
    files = [str(p) for p in record_files(Path(args.records))][args.skip:]
    files = files[: args.files]
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        by_play = args.continue_with if args.judge == "play" else None
        results = list(pool.map(judge, files, [args.a] * len(files), [args.b] * len(files),
                                [phases] * len(files), [by_play] * len(files)))
    deals = sum(r["deals"] for r in results)
    asked = sum(r["asked"] for r in results)
    differ = [d for r in results for d in r["differ"]]
    gains = [d[3] for d in differ]
    per_deal = [sum(d[3] for d in r["differ"]) / r["deals"] for r in results if r["deals"]]
    print(f"{len(files)} records, {deals} deals, {asked} decisions of {', '.join(phases)} "
          f"asked of both ({time.perf_counter() - start:.0f} s)")
    print(f"A = {args.a}, B = {args.b}: they differ in {len(differ)} "
          f"({100 * len(differ) / max(1, asked):.1f} %)")
    print(f"A − B per differing decision (whists, double dummy; a card: tricks): "
          f"{_interval(gains)}")
    print(f"A − B per deal, every seat's decisions (records as the unit): "
          f"{_interval(per_deal)}")
    if args.judge == "play":
        played = [d[4] for d in differ]
        per_deal_played = [sum(d[4] for d in r["differ"]) / r["deals"]
                           for r in results if r["deals"]]
        print(f"A − B per differing decision (whists, played out by {args.continue_with}): "
              f"{_interval(played)}")
        print(f"A − B per deal, played out: {_interval(per_deal_played)}")
    kinds: dict[str, list[tuple[float, ...]]] = {}
    for phase, ca, cb, *gains in differ:
        kind = phase if phase.startswith("play") else \
            f"{phase}: {'PASS' if ca == 'PASS' else 'bid' if ca[0].isdigit() else ca}" \
            f" for {'PASS' if cb == 'PASS' else 'bid' if cb[0].isdigit() else cb}"
        kinds.setdefault(kind, []).append(tuple(gains))
    for kind, rows in sorted(kinds.items(), key=lambda kv: -len(kv[1])):
        dd = [r[0] for r in rows]
        line = f"  {kind:32s} {len(rows):4d}  dd {_interval(dd)} (sum {sum(dd):+.1f})"
        if args.judge == "play":
            pl = [r[1] for r in rows]
            line += f"  played {_interval(pl)} (sum {sum(pl):+.1f})"
        print(line)
    for name in (args.a, args.b):
        total = sum(r["seconds"][name] for r in results)
        print(f"{name}: {total / max(1, asked) * 1000:.0f} ms per decision")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
