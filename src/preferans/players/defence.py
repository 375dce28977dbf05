"""The defence's calls: whist, pass or half-whist, and a lone whister's open or closed.

- **whist / pass / half-whist** (:func:`whist_call`): the whists the defence earns against
  the mountain it risks, on worlds weighed by how likely the declarer is to make the
  contract (:data:`.contract_value.DECLARER_TRUST`), with the other defender's answer
  modelled;
- **open / closed** (:func:`open_or_closed`, Hard and Crazy): open play is double dummy,
  closed play is simulated by playing imagined deals out (:mod:`.defence_mode`).

The two-player game's defence (with the dummy) is in :mod:`.variant_calls`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .base import Player
from .contract_value import DECLARER_TRUST
from .defence_mode import choose_mode
from .evaluation import defence_tricks
from .sampling import weighted_mean
from .solving import solve_openings
from .thinker import Thinker
from .view import SeatView


def whist_call(mind: Thinker, view: SeatView, rng: random.Random) -> str:
    """WHIST, PASS or HALF against the declared contract: each call's expected value over
    the worlds, the other defender's answer modelled; near-ties go to the cautious call."""
    legal = [t.upper() for t in view.legal]
    contract = view.contract
    declarer = view.declarer
    if contract is None or declarer is None:
        return view.legal[0]
    worlds = mind.sample(view, rng, mind.level.worlds)
    trump = None if contract.trump is None else int(contract.trump)
    worlds, values = solve_openings(view, worlds, declarer, trump, "defence",
                                    mind.deadline, mind.threads)
    # a declarer seldom names a contract it cannot make: worlds where it fails count less
    weights = [
        w.weight * DECLARER_TRUST ** max(0, contract.level - t)
        for w, t in zip(worlds, values, strict=True)
    ]
    model = mind.model(view)
    defs = model.defenders(declarer)
    me = view.seat
    other = defs[1] if defs[0] == me else defs[0]
    calls = [t.upper() for _, t in view.defence]
    need = {6: 2.0, 7: 1.0}.get(contract.level, 0.7)
    played_half = mind.rules.half_whist_played  # house option: HALF means playing

    def value(whisters: tuple[int, ...], t: int, defence: tuple[str, ...] = (),
              half: int | None = None, split: float = 0.5) -> float:
        outcome = model.contract_outcome(
            declarer, contract, t, whisters=whisters, defence=defence, half_whister=half,
            open_defence=True if len(whisters) == 1 else None, split=split)
        return model.value(outcome)

    results: dict[str, list[float]] = {k: [] for k in legal}
    for w, t in zip(worlds, values, strict=True):
        mine = defence_tricks(w.hands[me], trump)
        theirs = defence_tricks(w.hands[other], trump)
        share = 0.5 if mine + theirs <= 0 else mine / (mine + theirs)
        split = share if defs[0] == me else 1 - share
        other_whists = theirs + 0.3 >= need
        for option in legal:
            if not calls:  # I speak first
                if option == "WHIST":
                    wh = (me, other) if other_whists else (me,)
                    v = value(wh, t, split=split)
                else:  # PASS: the other whists alone or lets it go
                    if other_whists and theirs >= need * 1.5:
                        v = value((other,), t, split=split)
                    else:
                        v = model.unplayed_value(declarer, contract)
            elif calls == ["WHIST"]:
                v = value((other, me), t, split=split) if option == "WHIST" else value(
                    (other,), t, split=split)
            elif calls == ["PASS"]:
                if option == "WHIST":
                    v = value((me,), t, split=split)
                elif option == "HALF" and played_half:  # the half-whist is played out
                    v = value((me,), t, defence=("PASS", "HALF", "PASS"), half=me,
                              split=split)
                elif option == "HALF":
                    v = model.unplayed_value(declarer, contract, half_whister=me)
                else:
                    v = model.unplayed_value(declarer, contract)
            else:  # reopening after PASS, HALF
                if option == "WHIST":
                    v = value((me,), t, defence=("PASS", "HALF", "WHIST"), half=other,
                              split=split)
                elif played_half:
                    v = value((other,), t, defence=("PASS", "HALF", "PASS"), half=other,
                              split=split)
                else:
                    v = model.unplayed_value(declarer, contract, half_whister=other)
            results[option].append(v)
    scored = {k: weighted_mean(v, weights) for k, v in results.items()}
    # ties and near-ties go to the cautious call
    order = ["PASS", "HALF", "WHIST"]
    best = max(scored, key=lambda k: (scored[k], -order.index(k) if k in order else 0))
    original = {t.upper(): t for t in view.legal}
    mind.note("defence", "whists", {original.get(k, k): v for k, v in scored.items()},
              len(worlds))
    return original.get(best, view.legal[0])


def open_or_closed(mind: Thinker, view: SeatView, rng: random.Random,
                   make_bot: Callable[[int], Player]) -> str:
    """A lone whister's OPEN or CLOSED: imagined deals played out closed by the quick
    players ``make_bot(seed)`` gives, against open play's double dummy."""
    legal = [t.upper() for t in view.legal]
    if "OPEN" not in legal or "CLOSED" not in legal or not mind.level.mode_simulations:
        return "OPEN" if "OPEN" in legal else view.legal[0]
    worlds = mind.sample(view, rng, mind.level.mode_simulations)
    rules = mind.rules
    report: dict[str, Any] | None = {} if mind.explaining is not None else None
    token = choose_mode(view, rules, worlds, mind.model(view),
                        simulations=mind.level.mode_simulations, rng=rng,
                        make_bot=make_bot, threads=mind.threads,
                        by_score=mind.level.score_aware, deadline=mind.deadline,
                        report=report)
    if report:
        original = {t.upper(): t for t in view.legal}
        values = report["values"] if mind.level.score_aware else report["tricks"]
        mind.note("defence mode", "whists" if mind.level.score_aware else "tricks",
                  {original[k]: v for k, v in values.items()}, report["worlds"],
                  margin=report["margin"], counted="side")
    return token
