"""A finished game laid out for the replay viewer: every deal, action by action, all hands.

``review(record)`` replays a ``preferans-record/1`` and returns, per deal, the hands as
dealt, the talon, and one frame per action: who acted, what, and the table after it (every
seat's cards, the trick on the table or the trick just gathered, the tricks won).  Each deal
carries the sheet as it stood after it and the after-deal analysis (:mod:`preferans.analysis`).
Everything is shown, so this is for finished deals only: the web server never sends a
review of a deal still being played.

>>> from preferans.guide import worked_deal_record
>>> deal = review(worked_deal_record())["deals"][0]
>>> deal["frames"][0]["token"], len(deal["frames"]), deal["frames"][-1]["tricks_won"]
('6S', 43, [7, 3, 0])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from ..deal import Deal
from ..record import replay
from .after_deal import analyse

FORMAT: Final = "preferans-review/1"


def _table(deal: Deal) -> dict[str, Any]:
    """What lies on the table now, every hand face up."""
    out: dict[str, Any] = {
        "phase": deal.phase.value,
        "hands": [deal.hand(s).to_list() for s in range(len(deal.initial_hands))],
        "trick": [[s, str(c)] for s, c in deal._trick],
        "tricks_won": list(deal.tricks_won),
    }
    if not deal._trick and deal.tricks:
        last = deal.tricks[-1]
        out["gathered"] = {"cards": [[s, str(c)] for s, c in last.cards],
                           "winner": last.winner}
    return out


class _Frames:
    def __init__(self) -> None:
        self.deals: dict[int, dict[str, Any]] = {}
        self._pending: tuple[int, Deal, int | None, str, str] | None = None

    def _flush(self) -> None:
        if self._pending is None:
            return
        number, deal, seat, token, phase = self._pending
        self.deals[number]["frames"].append(
            {"seat": seat, "token": token, "phase_before": phase, **_table(deal)})
        self._pending = None

    def before(self, number: int, deal: Deal, token: str) -> None:
        self._flush()
        if number not in self.deals:
            self.deals[number] = {
                "deal": number,
                "dealer": deal.dealer,
                "hands": [h.to_list() for h in deal.initial_hands],
                "talon": [str(c) for c in deal.talon],
                "frames": [],
            }
        self._pending = (number, deal, deal.to_act, token, deal.phase.value)

    def after(self, number: int, game: Any) -> None:
        self._flush()
        entry = self.deals.get(number)
        if entry is None:
            return
        deal = game.finished_deals[-1] if game.deal is None and game.finished_deals else None
        entry["finished"] = deal is not None
        if deal is not None:
            entry["kind"] = deal.kind
            entry["declarer"] = deal.declarer
            entry["contract"] = None if deal.contract is None else str(deal.contract)
            entry["sheet"] = game.sheet.to_json()


def review(record: Mapping[str, Any], *, check: Callable[[], None] | None = None
           ) -> dict[str, Any]:
    """Every deal of ``record`` frame by frame, with its sheet and analysis (see the module).

    ``check``, when given, is called before every action of the replay and of the analysis:
    it may raise to stop the work (the web server's bound on an uploaded record's time)."""
    frames = _Frames()

    def before(number: int, deal: Deal, token: str) -> None:
        if check is not None:
            check()
        frames.before(number, deal, token)

    game = replay(record, before_action=before, after_deal=frames.after)
    analysis = {d["deal"]: d for d in analyse(record, check=check)["deals"]}
    deals = []
    for number in sorted(frames.deals):
        entry = frames.deals[number]
        if entry.get("finished"):
            entry["analysis"] = analysis.get(number)
        deals.append(entry)
    return {
        "format": FORMAT,
        "players": list(game.players),
        "rules": game.rules.to_json(),
        "finished": game.sheet.finished,
        "deals": deals,
        "sheet": game.sheet.to_json(),
    }


def finished_part(record: Mapping[str, Any]) -> dict[str, Any]:
    """``record`` without its deal in progress (the last one, when it is unfinished)."""
    game = replay(record)
    if game.deal is None:
        return dict(record)
    out = dict(record)
    out["deals"] = list(record["deals"])[:-1]
    return out
