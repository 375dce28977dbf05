"""The gap between double dummy and real play, measured from game records.

For every contract played out in a record (not an all-pass, not a misère), the declarer's
tricks taken against the double-dummy value of the position at the first lead (all hands
known, the defence as it was: open or closed), counted by the defence's kind and by the
double-dummy count against the contract's level (clamped to -2..+1).  The computer players'
``play_gap`` tables (:mod:`preferans.players.playgap`) are such counts, measured on self-play
records; ``benchmarks/bench_playgap.py RECORDS`` prints them for a records directory.

Three-player rules without the structural variants only (as :mod:`preferans.analysis.attribution`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..deal import Phase
from ..game import Game
from ..players.sampling import World
from ..players.solving import play_position
from ..players.view import SeatView
from ..record import read_record
from ..rules import Rules
from ..solver import solve
from .attribution import check_rules, start_recorded_deal


@dataclass(frozen=True)
class PlayedContract:
    """One contract played out: who declared it, against which defence, and its tricks."""

    declarer: str
    """The declarer's player name (the record's lineup where a match wrote it)."""
    closed: bool
    whisters: int
    level: int
    double_dummy: int
    taken: int

    @property
    def gap(self) -> int:
        return self.taken - self.double_dummy

    @property
    def key(self) -> int:
        """The double-dummy count against the level, clamped to -2..+1."""
        return max(-2, min(1, self.double_dummy - self.level))


@dataclass
class GapCounts:
    """Counts of ``gap`` by defence (``closed``/``open``) and by :attr:`PlayedContract.key`."""

    contracts: list[PlayedContract] = field(default_factory=list)

    def add(self, contract: PlayedContract) -> None:
        self.contracts.append(contract)

    def table(self, closed: bool) -> dict[int, dict[int, int]]:
        out: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
        for c in self.contracts:
            if c.closed == closed:
                out[c.key][c.gap] += 1
        return {k: dict(sorted(v.items())) for k, v in sorted(out.items())}

    def mean_gap(self, closed: bool) -> float | None:
        gaps = [c.gap for c in self.contracts if c.closed == closed]
        return sum(gaps) / len(gaps) if gaps else None


def played_contracts(obj: dict[str, Any]) -> list[PlayedContract]:
    """The contracts played out in one record (a ``preferans-record/1`` object, with or
    without the ``match`` key of ``preferans match --records-dir``)."""
    rec = read_record(obj)
    rules = Rules.from_json(rec["rules"])
    check_rules(rules)
    lineup = list((obj.get("match") or {}).get("lineup") or rec["players"])
    deals = [d for d in rec["deals"] if "irregularity" not in d]
    if len(deals) != len(rec["deals"]):
        return []  # a game with an irregularity is not replayed
    game = Game(rules, rec["players"], first_dealer=deals[0]["dealer"] if deals else 0)
    out: list[PlayedContract] = []
    for entry in deals:
        _, steps = start_recorded_deal(game, entry)
        first: tuple[int, int, bool, int, int] | None = None
        for _seat, _phase, token in steps:
            deal = game.deal
            assert deal is not None
            if (first is None and deal.phase is Phase.PLAY and not deal.tricks
                    and not deal.current_trick):
                view = SeatView.from_observation(deal.observation(deal.to_act))  # type: ignore[arg-type]
                contract = view.contract
                if not (view.is_allpass or view.is_misere or view.declarer is None
                        or contract is None):
                    hands = [deal.hand(s).mask for s in range(view.players)]
                    dd = solve(play_position(view, World(hands, 0), mode="contract",
                                             side=view.declarer))
                    first = (view.declarer, dd, not view.exposed, len(deal.whisters),
                             contract.level)
            game.apply(token)
        if first is not None:
            declarer, dd, closed, whisters, level = first
            done = game.finished_deals[-1]
            out.append(PlayedContract(str(lineup[declarer]), closed, whisters, level, dd,
                                      done.tricks_won[declarer]))
    return out


def measure(objs: Iterable[dict[str, Any]]) -> GapCounts:
    """The counts over many records."""
    counts = GapCounts()
    for obj in objs:
        for c in played_contracts(obj):
            counts.add(c)
    return counts
