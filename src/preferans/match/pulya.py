"""Whole-pulya duplicate matches: every game played once per rotation of the line-up.

Game ``g`` of a match is a sequence of deals drawn from the match seed: deal ``k`` of game
``g`` is always the same 32 cards in the same order (:func:`game_deal_cards`), dealt from
the dealer of that deal clockwise (first hand first, the talon last).  The game is played
once per rotation of the line-up: in rotation ``r`` seat ``s`` is played by
``lineup[(s + r) % n]``, as with one-deal boards (:mod:`preferans.match`), and the first
dealer is seat ``g mod n`` in every rotation.  The dealer moves left after every deal, so
in every rotation deal ``k`` gives the same seat the same cards; a rotation whose game runs
longer than another's plays the next deals of the same sequence, so the deals the rotations
share stay paired.  (Where the rules keep the dealer after an all-pass, Classical, the cards
stay the same relative to the dealer.)

A player's **gain** in a game is, seat by seat, its final settlement (the sheet's balance
in whists) minus the mean settlement of the other players who held that seat in the other
rotations, averaged over the seats it held: the same rule as a board's
(:func:`preferans.match.board_gains`) with the whole game as the board.  Reported per player:

- **whists per game**: the mean gain over games, with a 95% Student-t interval over games
  (the unit is a game with all its rotations: its gains are paired);
- **whists per deal**: the ratio Σ gain / Σ deals, the deals of a game being the mean deal
  count of its rotations, with a 95% interval by the delta method over games
  (:func:`ratio_interval`).

>>> from preferans.rules import Rules
>>> dealer, hands, talon = game_deal_cards(Rules.preset("sochi"), seed=1, game=0, deal=3,
...                                        dealer=0)
>>> len(hands[1]), len(talon), dealer
(10, 2, 0)
"""

from __future__ import annotations

import json
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..cards import DECK
from ..game import Game
from ..rules import Rules
from .boards import SeatResult, _roles, check_lineup, play_stats, write_record_file
from .jobs import run_jobs

MAX_DEALS = 400
"""A game still open after this many deals is stopped and settled as it stands."""

T95 = {
    1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
    9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120,
    17: 2.110, 18: 2.101, 19: 2.093, 20: 2.086, 21: 2.080, 22: 2.074, 23: 2.069, 24: 2.064,
    25: 2.060, 26: 2.056, 27: 2.052, 28: 2.048, 29: 2.045, 30: 2.042, 40: 2.021, 60: 2.000,
    120: 1.980,
}


def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom.

    >>> t95(9), t95(45), t95(200), t95(1000)
    (2.262, 2.021, 1.98, 1.96)
    """
    if df < 1:
        return math.inf
    if df >= 1000:
        return 1.96
    return T95[max(k for k in T95 if k <= df)]  # between tabled values: the wider one


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and 95% interval (Student t) of independent values.

    >>> [round(x, 3) for x in mean_interval([1.0, 2.0, 3.0, 6.0])]
    [3.0, -0.437, 6.437]
    """
    mean = statistics.fmean(values) if values else 0.0
    if len(values) < 2:
        return mean, -math.inf, math.inf
    half = t95(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def ratio_interval(nums: Sequence[float], dens: Sequence[float]) -> tuple[float, float, float]:
    """The ratio Σnum / Σden with a 95% interval by the delta method, pairs independent.

    The linearised values ``z_i = (num_i − R · den_i) / mean(den)`` have mean zero; the
    ratio's standard error is their standard deviation over √n (Student t quantile).

    >>> r, lo, hi = ratio_interval([10.0, 20.0, 30.0], [10.0, 10.0, 20.0])
    >>> r, round(hi - r, 4)
    (1.5, 0.9316)
    """
    n = len(nums)
    if n != len(dens):
        raise ValueError("numerators and denominators differ in number")
    total = sum(dens)
    if n == 0 or total <= 0:
        return 0.0, -math.inf, math.inf
    ratio = sum(nums) / total
    if n < 2:
        return ratio, -math.inf, math.inf
    mean_den = total / n
    z = [(a - ratio * b) / mean_den for a, b in zip(nums, dens, strict=True)]
    half = t95(n - 1) * statistics.stdev(z) / math.sqrt(n)
    return ratio, ratio - half, ratio + half


def _seats_from(rules: Rules, dealer: int) -> list[int]:
    """The seats dealt cards, in dealing order (first hand first; the dummy first with two)."""
    n = rules.players
    if n == 2:
        return [2, 1 - dealer, dealer]
    first = (dealer + 1) % n
    return [s for s in ((first + k) % n for k in range(n)) if not (n == 4 and s == dealer)]


def game_deal_cards(
    rules: Rules, seed: int, game: int, deal: int, dealer: int
) -> tuple[int, list[list[str]], list[str]]:
    """Deal ``deal`` (0-based) of game ``game``: the dealer, the hands by seat, the talon.

    The 32 cards come from a generator seeded by ``(seed, game, deal)`` alone; they are
    dealt ten at a time from the dealer's left (the talon last), so the cards a seat gets
    depend only on where it sits relative to the dealer.
    """
    rng = random.Random(f"preferans-pulya/{seed}/{game}/{deal}")
    cards = [str(c) for c in DECK]
    rng.shuffle(cards)
    n_hands = 3 if rules.players == 2 else rules.players
    hands: list[list[str]] = [[] for _ in range(n_hands)]
    for i, seat in enumerate(_seats_from(rules, dealer)):
        hands[seat] = cards[10 * i: 10 * i + 10]
    return dealer, hands, cards[30:32]


@dataclass
class GamePlay:
    """One rotation of one game."""

    game: int
    rotation: int
    lineup: list[str]  # the player of each seat
    balance: list[float]  # final settlement per seat, whists
    finished: bool
    deals: list[list[SeatResult]] = field(default_factory=list)  # per deal, per seat
    record: dict[str, Any] = field(default_factory=dict)

    @property
    def deal_count(self) -> int:
        return len(self.deals)


def play_game(
    lineup: Sequence[str],
    rules: Rules,
    seed: int,
    game: int,
    rotation: int,
    *,
    threads: int = 2,
    max_deals: int = MAX_DEALS,
    budgets: bool = False,
) -> GamePlay:
    """Play game ``game`` of the match in one rotation of ``lineup`` to its end.

    ``budgets``: as in :func:`preferans.match.play_board` (off: reproducible)."""
    from ..players import LEVEL_BUDGET, make_player

    n = rules.players
    names = [lineup[(seat + rotation) % n] for seat in range(n)]
    bots = [
        make_player(name, rules, seed=seed * 7919 + game * 31 + seat + 1_000_000,
                    budget=LEVEL_BUDGET if budgets else None)
        for seat, name in enumerate(names)
    ]
    for bot in bots:
        if hasattr(bot, "threads"):
            bot.threads = threads
    g = Game(rules, [f"{name}{seat}" for seat, name in enumerate(names)],
             first_dealer=game % n)
    deals: list[list[SeatResult]] = []
    while not g.finished and len(g.finished_deals) < max_deals:
        _, hands, talon = game_deal_cards(rules, seed, game, len(g.finished_deals), g.dealer)
        g.start_deal(hands, talon)
        times: list[list[float]] = [[] for _ in range(n)]
        while g.deal is not None:
            seat = g.deal.to_act
            assert seat is not None
            obs = g.observation(seat)
            start = time.perf_counter()
            token = bots[seat].choose(obs)
            times[seat].append(time.perf_counter() - start)
            g.apply(token)
        entry = g.sheet.entries[-1]
        roles = _roles(g.finished_deals[-1], entry)
        change = [float(x) for x in entry.balance_change]
        deals.append([
            SeatResult(names[s], s, change[s], *roles[s], times=times[s]) for s in range(n)
        ])
    balance = [float(x) for x in g.sheet.balance()]
    return GamePlay(game, rotation, names, balance, g.finished, deals, g.to_record())


def _play_game_job(args: tuple[list[str], dict[str, Any], int, int, int, bool], threads: int
                   ) -> GamePlay:
    lineup, rules_json, seed, game, rotation, budgets = args
    return play_game(lineup, Rules.from_json(rules_json), seed, game, rotation, threads=threads,
                     budgets=budgets)


def game_gains(plays: Sequence[GamePlay]) -> dict[str, float]:
    """Each player's duplicate gain in one game over its rotations (module docstring)."""
    per_seat: dict[int, list[tuple[str, float]]] = {}
    for play in plays:
        for seat, (name, bal) in enumerate(zip(play.lineup, play.balance, strict=True)):
            per_seat.setdefault(seat, []).append((name, bal))
    gains: dict[str, list[float]] = {}
    for rows in per_seat.values():
        for name in {r[0] for r in rows}:
            mine = [b for p, b in rows if p == name]
            others = [b for p, b in rows if p != name]
            if others:
                gains.setdefault(name, []).append(statistics.fmean(mine) - statistics.fmean(others))
    return {name: statistics.fmean(v) for name, v in gains.items()}


def summarise_games(games: Sequence[Sequence[GamePlay]]) -> dict[str, Any]:
    """The match summary over whole games (each a list of its rotations), JSON-ready."""
    names = sorted({p for plays in games for play in plays for p in play.lineup})
    players: dict[str, Any] = {}
    for name in names:
        nums: list[float] = []
        dens: list[float] = []
        for plays in games:
            gain = game_gains(plays).get(name)
            if gain is not None:
                nums.append(gain)
                dens.append(statistics.fmean(p.deal_count for p in plays))
        per_game = mean_interval(nums)
        per_deal = ratio_interval(nums, dens)
        rows = [sr for plays in games for play in plays for deal in play.deals for sr in deal
                if sr.player == name]
        balances = [b for plays in games for play in plays
                    for p, b in zip(play.lineup, play.balance, strict=True) if p == name]
        players[name] = {
            "games": len(nums),
            "deals_played": len(rows),
            "whists_per_game": round(per_game[0], 3),
            "ci95_game": [round(per_game[1], 3), round(per_game[2], 3)],
            "whists_per_deal": round(per_deal[0], 3),
            "ci95": [round(per_deal[1], 3), round(per_deal[2], 3)],
            "balance_per_game": round(statistics.fmean(balances), 3) if balances else 0.0,
            **play_stats(rows),
        }
    deal_counts = [p.deal_count for plays in games for p in plays]
    return {
        "games": len(games),
        "deals_per_game": round(statistics.fmean(deal_counts), 2) if deal_counts else 0.0,
        "unfinished_games": sum(1 for plays in games for p in plays if not p.finished),
        "players": players,
    }


def run_pulya_match(
    lineup: Sequence[str],
    rules: Rules,
    *,
    games: int,
    seed: int = 0,
    workers: int = 2,
    records_dir: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
    time_limit: float | None = None,
    ray_address: str | None = None,
    budgets: bool = False,
) -> dict[str, Any]:
    """Play ``games`` whole games of ``rules.pool`` in every rotation; return the summary.

    Each rotation of a game is one job (:func:`preferans.match.jobs.run_jobs`: this process,
    ``workers`` processes, or Ray tasks).  ``records_dir``: one record file per rotation
    (:func:`record_name`), plus ``summary.json``.  ``time_limit``: seconds after which no
    further game is started; a game is counted only with all its rotations played.
    ``progress(done, total)`` counts rotations played.  ``budgets``: the players on their
    levels' clocks (off: reproducible; see :func:`preferans.match.play_board`).
    """
    lineup = check_lineup(lineup, rules)
    if games < 1:
        raise ValueError("a match needs at least one game")
    n = rules.players
    if records_dir is not None:
        records_dir.mkdir(parents=True, exist_ok=True)
    by_game: dict[int, list[GamePlay]] = {}
    done = 0

    def take(play: GamePlay) -> None:
        nonlocal done
        by_game.setdefault(play.game, []).append(play)
        done += 1
        if records_dir is not None:
            write_record_file(records_dir, "game", play.game, play.rotation, play.lineup,
                              play.record, {"seed": seed, "pulya": rules.pool,
                                            "finished": play.finished})
        if progress:
            progress(done, games * n)

    deadline = None if time_limit is None else time.monotonic() + time_limit

    def start_more(k: int) -> bool:
        # a game's rotations are started together, whatever the clock says
        return k % n != 0 or deadline is None or time.monotonic() <= deadline

    jobs = [(list(lineup), rules.to_json(), seed, g, r, budgets)
            for g in range(games) for r in range(n)]
    run_jobs(_play_game_job, jobs, workers=workers, take=take, start_more=start_more,
             ray_address=ray_address)
    complete = [sorted(by_game[g], key=lambda p: p.rotation) for g in sorted(by_game)
                if len(by_game[g]) == n]
    summary = summarise_games(complete)
    summary.update({"lineup": list(lineup), "rules": rules.to_json(), "pulya": rules.pool,
                    "seed": seed})
    if records_dir is not None:
        (records_dir / "summary.json").write_text(json.dumps(summary, indent=2) + "\n",
                                                  encoding="utf-8")
    return summary


def format_pulya_summary(summary: dict[str, Any]) -> list[list[str]]:
    """Rows of the printed table: one per player."""
    rows = []
    for name, p in summary["players"].items():
        lo, hi = p["ci95"]
        glo, ghi = p["ci95_game"]
        rows.append([
            name,
            f"{p['whists_per_deal']:+.2f}",
            f"[{lo:+.2f}, {hi:+.2f}]",
            f"{p['whists_per_game']:+.1f}",
            f"[{glo:+.1f}, {ghi:+.1f}]",
            _show_pct(p["contracts_made_pct"], p["contracts"]),
            _show_pct(p["whist_success_pct"], p["whists"]),
            f"{p['decision_p50_ms']:.1f} / {p['decision_p95_ms']:.1f}",
        ])
    return rows


def _show_pct(pct: float | None, n: int) -> str:
    return "—" if pct is None else f"{pct:.0f}% ({n})"


PULYA_HEADERS = [
    "player", "whists/deal", "95% CI", "whists/game", "95% CI", "contracts made", "whists ok",
    "decision ms p50 / p95",
]
