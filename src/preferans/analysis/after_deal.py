"""After-deal analysis: every card weighed against double-dummy play.

For each played deal of a record: the contract's double-dummy value from the opening lead
(the declarer's tricks with best play by everybody; for an all-pass, each player's tricks
when he plays to take as few as he can and the others play to give him as many), and for
every card played, how many tricks it cost its player's side against best play from that
moment on, with the cards that would have cost nothing.  All hands are known: this is the
view after the deal, never shown during it.

The JSON (``preferans analyse RECORD --json``) is documented in ``docs/analysis.md``:

>>> from preferans.guide import worked_deal_record
>>> report = analyse(worked_deal_record())
>>> report["format"], report["deals"][0]["dd_value"]
('preferans-analysis/1', 7)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from ..cards import Card
from ..deal import Deal, Phase
from ..players.sampling import World
from ..players.solving import play_position
from ..players.view import SeatView
from ..record import replay
from ..solver import solve, solve_moves

FORMAT: Final = "preferans-analysis/1"


def solver_mode(deal: Deal) -> str | None:
    """The solver's mode for the deal's play, or None when the solver cannot model it."""
    if deal.dummy is not None and (deal.kind == "allpass" or deal.alone):
        return None  # two hands playing: the solver is three-handed
    if deal.kind == "allpass":
        return "allpass"
    if deal.kind == "misere":
        return "misere"
    if deal.kind == "contract":
        return "contract"
    return None


def _world(deal: Deal, view: SeatView) -> World:
    """The true deal as a world: every hand now, and the hidden slot (the discard in a
    contract, the talon cards not yet turned in an all-pass)."""
    hands = [deal.hand(s).mask for s in range(len(deal._hands))]
    if deal.kind == "allpass":
        shown = {c.index for c in view.talon or []}
        extra = sum(c.mask for c in deal.talon if c.index not in shown)
    else:
        extra = deal._discard
    return World(hands, extra)


def solver_position(deal: Deal, side: int, mode: str) -> Any:
    """The solver position now, every hand known, counting ``side``'s tricks."""
    seat = deal.to_act
    assert seat is not None
    view = SeatView.from_observation(deal.observation(seat))
    return play_position(view, _world(deal, view), mode=mode, side=side,
                         allpass_talon=deal.rules.allpass_talon)


def counted_side(deal: Deal, mode: str, seat: int) -> int:
    """The seat whose tricks the solver counts for ``seat``'s card."""
    if mode == "allpass":
        return seat
    assert deal.declarer is not None
    return deal.declarer


def _cost(deal: Deal, mode: str, seat: int, values: Mapping[int, int], card: Card
          ) -> tuple[int, list[str]]:
    """Tricks ``card`` cost ``seat``'s side, and the cards that cost nothing."""
    declaring = seat == deal.declarer
    # who wants more of the counted side's tricks: the declarer in a contract, the
    # defenders of a misère; the counted player himself wants fewer (misère declarer,
    # every all-pass player), and so do the defenders of a contract
    wants_more = (mode == "contract" and declaring) or (mode == "misere" and not declaring)
    best = max(values.values()) if wants_more else min(values.values())
    got = values[card.index]
    cost = (best - got) if wants_more else (got - best)
    cards = sorted((Card.from_index(i) for i, v in values.items() if v == best),
                   key=lambda c: c.index)
    return cost, [str(c) for c in cards]


def _opening_value(deal: Deal, mode: str) -> int | list[int]:
    """The double-dummy value from the opening lead (``deal`` at its first card)."""
    if mode == "allpass":
        return [solve(solver_position(deal, s, mode)) if s in _active(deal) else 0
                for s in range(deal.players)]
    assert deal.declarer is not None
    return solve(solver_position(deal, deal.declarer, mode))


def _active(deal: Deal) -> list[int]:
    if deal.players == 4:
        return [s for s in range(4) if s != deal.dealer]
    return list(range(deal.players))


class _Collector:
    """Analyses each deal's play while the record is replayed."""

    def __init__(self, only: int | None = None) -> None:
        self.only = only
        self.deals: list[dict[str, Any]] = []
        self._current: dict[str, Any] | None = None
        self._mode: str | None = None
        self._objects: list[Deal] = []

    def before(self, number: int, deal: Deal, token: str) -> None:
        if self.only is not None and number != self.only:
            return
        if self._current is None or self._current["deal"] != number:
            self._current = {"deal": number, "dealer": deal.dealer, "played": False}
            self.deals.append(self._current)
            self._objects.append(deal)
        if deal.phase is not Phase.PLAY:
            return
        entry = self._current
        if not entry["played"]:
            self._mode = solver_mode(deal)
            entry["played"] = True
            entry["kind"] = deal.kind
            entry["declarer"] = deal.declarer
            entry["contract"] = None if deal.contract is None else str(deal.contract)
            if self._mode is None:
                entry["analysed"] = False
                entry["why"] = "two hands playing: the solver is three-handed"
                return
            entry["analysed"] = True
            entry["dd_value"] = _opening_value(deal, self._mode)
            entry["cards"] = []
        mode = self._mode
        if mode is None:
            return
        seat = deal.hand_to_play
        assert seat is not None
        try:
            card = Card.parse(token)
        except ValueError:
            return  # not a card: the replay refuses the action, naming it
        values = solve_moves(solver_position(deal, counted_side(deal, mode, seat), mode))
        if card.index not in values:
            return  # not a card this hand may play: the replay refuses it, naming why
        cost, best = _cost(deal, mode, seat, values, card)
        entry["cards"].append({"seat": seat, "card": str(card), "cost": cost, "best": best})

    def finish(self) -> None:
        for entry, deal in zip(self.deals, self._objects, strict=True):
            entry["kind"] = deal.kind
            entry["hands"] = [h.to_list() for h in deal.initial_hands]
            entry["talon"] = [str(c) for c in deal.talon]
            if entry.get("analysed"):
                entry["tricks"] = list(deal.tricks_won)
                entry["lost"] = _lost(entry)


def _lost(entry: Mapping[str, Any]) -> dict[str, int]:
    """Tricks each seat's cards cost its side over the deal."""
    out: dict[str, int] = {}
    for c in entry["cards"]:
        out[str(c["seat"])] = out.get(str(c["seat"]), 0) + c["cost"]
    return out


def analyse(record: Mapping[str, Any], deal: int | None = None, *,
            check: Callable[[], None] | None = None) -> dict[str, Any]:
    """The analysis of every deal of ``record`` (a preferans-record/1 object); ``deal``: of
    that deal alone (its number in the record, 1-based).  ``check``, when given, is called
    before each action and may raise to stop the work (a bound on its time)."""
    collector = _Collector(deal)

    def before(number: int, position: Deal, token: str) -> None:
        if check is not None:
            check()
        collector.before(number, position, token)

    game = replay(record, before_action=before)
    collector.finish()
    return {"format": FORMAT, "players": list(game.players), "deals": collector.deals}


def render(report: Mapping[str, Any]) -> str:
    """The analysis as plain text, deal by deal: the value, then each costly card."""
    names = list(report.get("players") or [])

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"seat {seat}"

    lines: list[str] = []
    for entry in report["deals"]:
        head = f"Deal {entry['deal']}"
        if not entry.get("played"):
            lines.append(f"{head}: not played ({entry.get('kind') or 'unfinished'}).")
            continue
        if not entry.get("analysed"):
            lines.append(f"{head}: {entry['kind']}, not analysed ({entry['why']}).")
            continue
        value = entry["dd_value"]
        if entry["kind"] == "allpass":
            shown = ", ".join(f"{name(s)} {v}" for s, v in enumerate(value))
            lines.append(f"{head}: all-pass; with best play each takes at least: {shown}.")
        else:
            lines.append(f"{head}: {name(entry['declarer'])} plays {entry['contract']}; "
                         f"double dummy {value} tricks, took {entry['tricks'][entry['declarer']]}.")
        costly = [(i, c) for i, c in enumerate(entry["cards"]) if c["cost"]]
        if not costly:
            lines.append("  every card was a best card.")
        for i, c in costly:
            trick = i // 3  # three hands play every analysed deal
            lines.append(f"  trick {trick + 1}: {name(c['seat'])} played {c['card']}, cost "
                         f"{c['cost']} trick{'s' if c['cost'] != 1 else ''}; best "
                         f"{' '.join(c['best'])}")
    return "\n".join(lines)
