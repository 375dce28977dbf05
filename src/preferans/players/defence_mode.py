"""A lone whister's choice: OPEN (both defending hands face up) or CLOSED, by simulation.

Open, both defending hands lie face up (the whister's and the passer's): the declarer then
sees every card and plays exactly, and the defence sees every card but which two of the
declarer's twelve he discarded; so the deal plays double dummy, and the solver's value of
the world *is* the open result.  Closed, each side plays half blind; that
is simulated: in each of a few imagined deals the play is carried out to the end by quick
Monte Carlo players (a handful of worlds per card) for all three hands, each seeing only
what its seat would see.  The whister takes CLOSED only when, over the same worlds, closed
play is clearly better for it (paired comparison, world by world); otherwise OPEN, the
game's own advice ("a lone whister usually does better seeing both defending hands", 003).

The value compared is the whister's score under the rules (and, for Crazy, the sheet) for
the trick counts each way.
"""

from __future__ import annotations

import random
from typing import Any

from ..cards import Card, CardSet
from ..deal import Deal, Phase
from ..rules import Rules
from ..solver import solve_batch
from .clock import MODE_CLOSED_MIN, MODE_FLOOR, Deadline
from .sampling import World
from .solving import opening_position
from .utility import ScoreModel
from .view import SeatView

CLOSED_MARGIN = 0.5
"""Whists per deal that closed play must gain, on average, before the whister closes."""


def rebuild_deal(view: SeatView, rules: Rules, world: World) -> Deal:
    """The deal of ``world`` replayed up to the lone whister's choice (the view's calls)."""
    declarer = view.declarer
    assert declarer is not None and view.contract is not None and view.talon
    hands = list(world.hands)
    talon = view.talon_mask
    discard = world.extra
    if declarer == view.seat:
        discard = view.discard
    hands[declarer] = (hands[declarer] | discard) & ~talon
    deal = Deal(rules, view.dealer, [CardSet(h) for h in hands], list(view.talon))
    for _seat, token in view.auction:
        deal.apply(token)
    pair = sorted(Card.from_index(i) for i in range(32) if discard >> i & 1)
    deal.apply("DISCARD " + " ".join(str(c) for c in pair))
    deal.apply(str(view.contract))
    for _seat, token in view.defence:
        deal.apply(token)
    if deal.phase is not Phase.DEFENCE_MODE:
        raise ValueError(f"the replayed deal is in {deal.phase.value}, not the defence mode")
    return deal


def play_out(deal: Deal, bots: list[Any]) -> list[int]:
    """Play ``deal`` to the end with ``bots`` (one per seat); the tricks won per seat."""
    while deal.phase is not Phase.DONE:
        seat = deal.to_act
        assert seat is not None
        deal.apply(bots[seat].choose(deal.observation(seat)))
    return list(deal.tricks_won)


def choose_mode(view: SeatView, rules: Rules, worlds: list[World], model: ScoreModel,
                *, simulations: int, rng: random.Random, make_bot: Any, threads: int = 2,
                by_score: bool = True, deadline: Deadline | None = None,
                report: dict[str, Any] | None = None) -> str:
    """``"OPEN"`` or ``"CLOSED"`` for the lone whister of ``view`` (see the module docstring).

    ``worlds``: imagined deals for the whister; the first ``simulations`` of them are
    played out closed.  ``make_bot(seed)`` gives the quick player that plays them.
    ``deadline``: the decision's clock; no further deal is played out once the next would
    end past its budget, after :data:`~.clock.MODE_FLOOR` of them; cut short of
    :data:`~.clock.MODE_CLOSED_MIN` play-outs, the answer is OPEN.
    ``report``: when given, filled with what was compared (for a hint): each way's mean
    ``values`` and the defence's mean ``tricks`` over the deals played out, their number
    (``worlds``) and the ``margin`` closed play must gain by.
    """
    declarer, contract = view.declarer, view.contract
    assert declarer is not None and contract is not None
    me = view.seat
    sims = worlds[:simulations]
    trump = None if contract.trump is None else int(contract.trump)
    positions = [
        opening_position(view, dict(enumerate(w.hands)), mode="contract", side=declarer,
                         trump=trump)
        for w in sims
    ]
    open_tricks = solve_batch(positions, threads=threads)

    def value(tricks: int) -> float:
        if not by_score:
            return -float(tricks)
        outcome = model.contract_outcome(declarer, contract, tricks, whisters=(me,),
                                         open_defence=True)
        return model.value(outcome)

    diffs: list[float] = []
    weights: list[float] = []
    pairs: list[tuple[int, int]] = []  # the declarer's tricks open and closed, per deal
    played = 0
    last = 0.0
    for w, dd in zip(sims, open_tricks, strict=True):
        if deadline is not None and played >= MODE_FLOOR and deadline.over(ahead=last):
            break
        played += 1
        begun = deadline.clock() if deadline is not None else 0.0
        try:
            deal = rebuild_deal(view, rules, w)
        except ValueError:
            continue
        deal.apply("CLOSED")
        seed = rng.randrange(1 << 30)
        bots = [make_bot(seed + s) for s in range(rules.players)]
        closed = play_out(deal, bots)[declarer]
        diffs.append(value(closed) - value(dd))
        weights.append(w.weight)
        pairs.append((dd, closed))
        if deadline is not None:
            last = deadline.clock() - begun
    if deadline is not None:
        deadline.note("closed play-outs", len(sims), played)
    total = sum(weights)
    if not diffs or total <= 0 or (played < len(sims) and len(diffs) < MODE_CLOSED_MIN):
        return "OPEN"  # (the clock cut the play-outs short of a comparison)
    gain = sum(d * w for d, w in zip(diffs, weights, strict=True)) / total
    margin = CLOSED_MARGIN if by_score else 0.25
    if report is not None:
        def mean(values: list[float]) -> float:
            return sum(v * w for v, w in zip(values, weights, strict=True)) / total

        report.update(
            values={"OPEN": mean([value(o) for o, _ in pairs]),
                    "CLOSED": mean([value(c) for _, c in pairs])},
            tricks={"OPEN": mean([10.0 - o for o, _ in pairs]),
                    "CLOSED": mean([10.0 - c for _, c in pairs])},
            worlds=len(pairs), margin=margin)
    return "CLOSED" if gain > margin else "OPEN"
