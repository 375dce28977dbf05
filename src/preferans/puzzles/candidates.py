"""Candidate positions: every card decision of a played deal, taken from a game record.

The record is replayed (:func:`preferans.record.replay`); before each card of a deal the
solver can model (three hands play: :func:`preferans.analysis.after_deal.solver_mode`) the
position is taken as the after-deal analysis takes it (``solver_position``), with the facts
that decide what matters (:class:`.goal.Situation`) and the deal's actions up to it.
Four-player and two-player tables are skipped (puzzles are three-handed).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..analysis.after_deal import counted_side, solver_mode, solver_position
from ..cards import Card
from ..deal import Deal, Phase
from ..record import replay
from ..rules import Rules
from ..solver import Position
from .goal import Situation


@dataclass(frozen=True)
class Candidate:
    """One card decision: the solver position, its situation and where it comes from."""

    pos: Position
    sit: Situation
    rules: Rules
    deal: dict[str, Any]     # dealer, hands, talon and the actions before this card
    number: int              # the deal's number in the record (1-based)
    action: int              # the card's index among the deal's actions (0-based)
    played: str              # the card the record's player chose here

    def deal_key(self) -> str:
        """The same cards, contract and side to play: a board replayed in another rotation
        gives the same key."""
        d = self.deal
        side = "declarer" if self.sit.mover == self.sit.declarer else (
            "defence" if self.sit.declarer is not None else f"seat{self.sit.mover}")
        return repr((d["dealer"], d["hands"], d["talon"], self.sit.kind, self.sit.level,
                     self.sit.declarer, side))


def _is_card(token: str) -> bool:
    try:
        Card.parse(token)
    except ValueError:
        return False
    return True


def situation(deal: Deal, mode: str) -> Situation:
    """The facts of ``deal`` in play (three hands, the seat to play)."""
    seat = deal.hand_to_play
    assert seat is not None
    level = deal.contract.level if deal.kind == "contract" and deal.contract else 0
    taken = tuple(deal.tricks_won[:3])
    cards = len(deal.hand(seat))
    return Situation(
        kind=mode, level=level, declarer=None if mode == "allpass" else deal.declarer,
        mover=seat, taken=(taken[0], taken[1], taken[2]), tricks_left=cards,
        whisted=bool(deal.whisters),
    )


def candidates(record: Mapping[str, Any]) -> Iterator[Candidate]:
    """Every card decision of the record's three-handed deals the solver can model."""
    found: list[Candidate] = []
    count: dict[int, int] = {}
    rules = Rules.from_json(record["rules"])
    deals = record.get("deals") or []

    def before(number: int, deal: Deal, token: str) -> None:
        k = count.get(number, 0)
        count[number] = k + 1
        if deal.phase is not Phase.PLAY or deal.players != 3 or deal.dummy is not None:
            return
        mode = solver_mode(deal)
        if mode is None or not _is_card(token):
            return
        seat = deal.hand_to_play
        if seat is None:
            return
        pos = solver_position(deal, counted_side(deal, mode, seat), mode)
        source = deals[number - 1]
        prefix = {"dealer": source["dealer"], "hands": source["hands"],
                  "talon": source["talon"], "actions": list(source["actions"][:k])}
        found.append(Candidate(pos, situation(deal, mode), rules, prefix, number, k, token))

    replay(record, before_action=before)
    yield from found
