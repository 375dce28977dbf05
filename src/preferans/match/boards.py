"""Duplicate matches between computer players.

A *board* is one deal of cards (hands, talon, dealer) drawn from the match seed.
Each board is played once per rotation of the line-up around the table, so every
player holds every hand: luck of the cards cancels and what is left is skill.
Each play of a board is a one-deal game scored from a fresh sheet; a player's
*result* is its change of settlement balance in whists.

A player's **gain** on a board is, seat by seat, its result minus the mean result of
the other players who held the same seat's cards, averaged over the seats it held.
:func:`summarise` reports, per player, the mean gain per deal with a 95% confidence
interval, contracts made, misère success, whist success, all-pass tricks per deal and
decision times (p50 / p95).

>>> from preferans.rules import Rules
>>> result = run_match(["easy", "random", "random"], Rules.preset("sochi"), boards=2, seed=1,
...                    workers=1)
>>> sorted(result["players"])
['easy', 'random']
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

from ..deal import Deal
from ..game import Game
from ..rules import Rules
from .jobs import run_jobs


@dataclass
class SeatResult:
    """One player's part in one play of a board."""

    player: str
    seat: int
    result: float
    role: str  # declarer, misere, whister, defender, allpass, passer
    made: bool | None = None
    allpass_tricks: int | None = None
    times: list[float] = field(default_factory=list)


@dataclass
class BoardResult:
    """Every rotation of one board."""

    board: int
    plays: list[list[SeatResult]]
    records: list[dict[str, Any]]


def board_cards(rules: Rules, seed: int, board: int) -> tuple[int, list[list[str]], list[str]]:
    """The dealer, hands and talon of board ``board`` of a match with ``seed``."""
    rng = random.Random(seed * 1_000_003 + board)
    dealer = board % rules.players
    deal = Deal.shuffle(rules, dealer, rng)
    return dealer, [h.to_list() for h in deal.hands], [str(c) for c in deal.talon]


def _roles(deal: Deal, sheet_entry: Any) -> dict[int, tuple[str, bool | None, int | None]]:
    outcome = deal.outcome()
    out: dict[int, tuple[str, bool | None, int | None]] = {}
    n = outcome.players
    for seat in range(n):
        if outcome.kind == "allpass":
            out[seat] = ("allpass", None, outcome.tricks[seat])
        elif seat == outcome.declarer:
            assert outcome.contract is not None
            if outcome.kind == "misere":
                out[seat] = ("misere", outcome.tricks[seat] == 0, None)
            else:
                made = outcome.kind in ("passed", "halfwhist") or (
                    outcome.tricks[seat] >= outcome.contract.level
                )
                out[seat] = ("declarer", made, None)
        elif seat in outcome.whisters:
            out[seat] = ("whister", seat not in tuple(sheet_entry.short), None)
        else:
            out[seat] = ("defender", None, None)
    return out


def play_board(
    lineup: Sequence[str], rules: Rules, seed: int, board: int, *, threads: int = 2,
    budgets: bool = False,
) -> BoardResult:
    """Play one board in every rotation of ``lineup`` (player levels by seat).

    ``budgets``: the players think on their levels' clocks (see
    :mod:`preferans.players.clock`); off by default, so that a match is reproducible
    whatever the machine's load.  A name that says its budget (``crazy-nobudget``,
    ``crazy-budget``, ``crazy-budget=0.8``) keeps it either way.
    """
    from ..players import LEVEL_BUDGET, make_player

    n = rules.players
    dealer, hands, talon = board_cards(rules, seed, board)
    plays: list[list[SeatResult]] = []
    records: list[dict[str, Any]] = []
    for rotation in range(n):
        names = [lineup[(seat + rotation) % n] for seat in range(n)]
        bots = [
            make_player(name, rules, seed=seed * 7919 + board * 31 + seat,
                        budget=LEVEL_BUDGET if budgets else None)
            for seat, name in enumerate(names)
        ]
        for bot in bots:
            if hasattr(bot, "threads"):
                bot.threads = threads
        game = Game(rules, [f"{name}{seat}" for seat, name in enumerate(names)],
                    first_dealer=dealer)
        game.start_deal(hands, talon)
        times: list[list[float]] = [[] for _ in range(n)]
        while game.deal is not None:
            deal = game.deal
            seat = deal.to_act
            assert seat is not None
            obs = game.observation(seat)
            start = time.perf_counter()
            token = bots[seat].choose(obs)
            times[seat].append(time.perf_counter() - start)
            game.apply(token)
        deal = game.finished_deals[-1]
        entry = game.sheet.entries[-1]
        balance = [float(x) for x in game.sheet.balance()]
        roles = _roles(deal, entry)
        plays.append([
            SeatResult(names[s], s, balance[s], *roles[s], times=times[s]) for s in range(n)
        ])
        records.append({
            "board": board,
            "rotation": rotation,
            "lineup": names,
            "record": game.to_record(),
        })
    return BoardResult(board, plays, records)


def _play_board_job(args: tuple[list[str], dict[str, Any], int, int, bool], threads: int
                    ) -> BoardResult:
    lineup, rules_json, seed, board, budgets = args
    return play_board(lineup, Rules.from_json(rules_json), seed, board, threads=threads,
                      budgets=budgets)


def board_gains(result: BoardResult) -> dict[str, float]:
    """Each player's duplicate gain on one board (see the module docstring)."""
    per_seat: dict[int, list[SeatResult]] = {}
    for play in result.plays:
        for sr in play:
            per_seat.setdefault(sr.seat, []).append(sr)
    gains: dict[str, list[float]] = {}
    for rows in per_seat.values():
        for name in {r.player for r in rows}:
            mine = [r.result for r in rows if r.player == name]
            others = [r.result for r in rows if r.player != name]
            if not others:
                continue
            gains.setdefault(name, []).append(statistics.fmean(mine) - statistics.fmean(others))
    return {name: statistics.fmean(v) for name, v in gains.items()}


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def summarise(results: Sequence[BoardResult]) -> dict[str, Any]:
    """The match summary (see the module docstring), JSON-ready."""
    names = sorted({sr.player for r in results for play in r.plays for sr in play})
    players: dict[str, Any] = {}
    for name in names:
        gains = [g[name] for g in (board_gains(r) for r in results) if name in g]
        rows = [sr for r in results for play in r.plays for sr in play if sr.player == name]
        mean = statistics.fmean(gains) if gains else 0.0
        half = (
            1.96 * statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else math.inf
        )
        players[name] = {
            "boards": len(gains),
            "deals_played": len(rows),
            "whists_per_deal": round(mean, 3),
            "ci95": [round(mean - half, 3), round(mean + half, 3)],
            **play_stats(rows),
        }
    return {"boards": len(results), "players": players}


def play_stats(rows: Sequence[SeatResult]) -> dict[str, Any]:
    """One player's deal statistics over its seat results: result per deal, contracts,
    misère, whists, all-pass tricks, decision times."""
    times = [t for sr in rows for t in sr.times]
    decl = [sr.made for sr in rows if sr.role == "declarer"]
    mis = [sr.made for sr in rows if sr.role == "misere"]
    whist = [sr.made for sr in rows if sr.role == "whister"]
    allpass = [sr.allpass_tricks for sr in rows if sr.role == "allpass"]
    return {
        "result_per_deal": round(statistics.fmean(sr.result for sr in rows), 3) if rows else 0,
        "contracts": len(decl),
        "contracts_made_pct": _percent(decl),
        "misere": len(mis),
        "misere_made_pct": _percent(mis),
        "whists": len(whist),
        "whist_success_pct": _percent(whist),
        "allpass_deals": len(allpass),
        "allpass_tricks_per_deal": (
            round(statistics.fmean(a for a in allpass if a is not None), 3) if allpass else None
        ),
        "decisions": len(times),
        "decision_p50_ms": round(_pct(times, 0.5) * 1000, 2),
        "decision_p95_ms": round(_pct(times, 0.95) * 1000, 2),
        "decision_max_ms": round(max(times) * 1000, 2) if times else 0.0,
    }


def _percent(flags: list[bool | None]) -> float | None:
    return round(100.0 * sum(1 for f in flags if f) / len(flags), 1) if flags else None


def check_lineup(lineup: Sequence[str], rules: Rules) -> list[str]:
    """The line-up's levels, normalised; a :class:`ValueError` naming what is wrong."""
    from ..players import LEVELS, make_player

    names = [name.strip().lower() for name in lineup]
    if len(names) != rules.players:
        raise ValueError(f"the line-up names {len(names)} players, the rules need {rules.players}")
    for name in names:
        make_player(name, rules, 0)  # raises for an unknown level
    if len(set(names)) < 2:
        raise ValueError(
            f"a duplicate match needs two different players (got {', '.join(names)}; "
            f"levels: {', '.join((*LEVELS, 'random'))})"
        )
    return names


def record_name(kind: str, index: int, rotation: int) -> str:
    """The file name of one rotation's record in a records directory."""
    return f"{kind}-{index + 1:04d}-rot{rotation}.json"


def write_record_file(
    directory: Path, kind: str, index: int, rotation: int, lineup: Sequence[str],
    record: dict[str, Any], extra: dict[str, Any],
) -> Path:
    """Write one game record (``preferans-record/1``, replayable by ``preferans replay``)
    with a ``match`` key saying where it belongs (docs/records-extensions.md)."""
    path = directory / record_name(kind, index, rotation)
    obj = dict(record)
    obj["match"] = {kind: index, "rotation": rotation, "lineup": list(lineup), **extra}
    path.write_text(json.dumps(obj) + "\n", encoding="utf-8")
    return path


def run_match(
    lineup: Sequence[str],
    rules: Rules,
    *,
    boards: int,
    seed: int = 0,
    workers: int = 2,
    records: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
    time_limit: float | None = None,
    ray_address: str | None = None,
    records_dir: Path | None = None,
    budgets: bool = False,
) -> dict[str, Any]:
    """Play ``boards`` duplicate boards; return the summary (and write records as JSON lines).

    ``lineup`` names a player level per seat (``rules.players`` of them).  Boards run in
    ``workers`` processes (1: in this process).  ``records``: a ``.jsonl`` file with one
    ``{"board", "rotation", "lineup", "record"}`` object per play of a board, where
    ``record`` is a ``preferans-record/1`` game record; ``records_dir``: a directory with one
    record file per play of a board (``board-0001-rot0.json``, replayable by ``preferans
    replay``, with a ``match`` key saying board, rotation and line-up).  ``time_limit``:
    seconds after which no further board is started (at least one is played; the boards
    begun are finished; the summary counts the boards played).  ``ray_address``: run the
    boards as Ray tasks on that cluster (:mod:`preferans.match.jobs`); the same results.
    ``budgets``: see :func:`play_board` (off: the match is reproducible).
    """
    lineup = check_lineup(lineup, rules)
    if boards < 1:
        raise ValueError("a match needs at least one board")
    if records_dir is not None:
        records_dir.mkdir(parents=True, exist_ok=True)
    results: list[BoardResult] = []
    out = records.open("w", encoding="utf-8") if records else None
    try:
        def take(r: BoardResult) -> None:
            results.append(r)
            if out:
                for rec in r.records:
                    out.write(json.dumps(rec) + "\n")
            if records_dir is not None:
                for rec in r.records:
                    write_record_file(records_dir, "board", r.board, rec["rotation"],
                                      rec["lineup"], rec["record"], {"seed": seed})
            if progress:
                progress(len(results), boards)

        deadline = None if time_limit is None else time.monotonic() + time_limit

        def expired() -> bool:
            return deadline is not None and time.monotonic() > deadline

        jobs = [(list(lineup), rules.to_json(), seed, b, budgets) for b in range(boards)]
        run_jobs(_play_board_job, jobs, workers=workers, take=take,
                 start_more=lambda _k: not expired(), ray_address=ray_address)
    finally:
        if out:
            out.close()
    results.sort(key=lambda r: r.board)
    summary = summarise(results)
    summary.update({"lineup": list(lineup), "rules": rules.to_json(), "seed": seed,
                    "budgets": budgets})
    if records_dir is not None:
        (records_dir / "summary.json").write_text(json.dumps(summary, indent=2) + "\n",
                                                  encoding="utf-8")
    return summary


def format_summary(summary: dict[str, Any]) -> list[list[str]]:
    """Rows of the printed table: one per player."""
    rows = []
    for name, p in summary["players"].items():
        lo, hi = p["ci95"]
        rows.append([
            name,
            f"{p['whists_per_deal']:+.2f}",
            f"[{lo:+.2f}, {hi:+.2f}]",
            _show_pct(p["contracts_made_pct"], p["contracts"]),
            _show_pct(p["misere_made_pct"], p["misere"]),
            _show_pct(p["whist_success_pct"], p["whists"]),
            "—" if p["allpass_tricks_per_deal"] is None else f"{p['allpass_tricks_per_deal']:.2f}",
            f"{p['decision_p50_ms']:.1f} / {p['decision_p95_ms']:.1f} / "
            f"{p['decision_max_ms']:.0f}",
        ])
    return rows


def _show_pct(pct: float | None, n: int) -> str:
    return "—" if pct is None else f"{pct:.0f}% ({n})"


SUMMARY_HEADERS = [
    "player", "whists/deal", "95% CI", "contracts made", "misère made", "whists ok",
    "all-pass tricks", "decision ms p50 / p95 / max",
]
