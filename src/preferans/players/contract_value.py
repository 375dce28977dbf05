"""What a contract is worth to a seat when its declarer takes a given number of tricks
double dummy: the sheet's value (:mod:`.utility`), with the defence's answer modelled (whisted
when the defenders can take their quota, else written unplayed), real play's gap
(:mod:`.playgap`) and how often a short contract is really whisted (:data:`WHIST_RESPONSE`).
The auction, the discard and the contract all value contracts this way.
"""

from __future__ import annotations

from ..bids import Bid
from ..rules import Rules
from .playgap import CLOSED_SHARE, real_play_table
from .utility import ScoreModel
from .variants import rogue_table
from .view import SeatView

WHIST_RESPONSE = {6: (0.46, 0.69, 0.52), 7: (1.0, 1.0, 0.93)}
"""The chance that the defence whists a contract (rather than let it stand: pass and
half-whist) by level, for a declarer two or more, one, and no trick short of it double dummy
after the discard.  Measured on 1,149 contracts of one-deal board records (seed 35, 6 Dec:
three Crazy settings against two Hards): at six 24, 121 and 326 contracts, at seven 0, 5
and 74 (none two short: taken as whisted).  Defenders who trust the bidder
(:data:`DECLARER_TRUST`) let many a short six stand."""
DECLARER_TRUST = 0.35
"""Weight factor per trick a declarer would fall short in a world (defence decisions)."""


def defence_answer(rules: Rules, contract: Bid, tricks: int) -> bool:
    """Whether the defence whists against ``contract`` when declarer can take ``tricks``."""
    if not rules.is_whisted(contract):
        return True
    return 10 - tricks >= rules.quota(contract.level)


def declarer_value(rules: Rules, model: ScoreModel, view: SeatView, declarer: int,
                   contract: Bid, tricks: int, tables: dict[Bid, list[float]],
                   real_play: bool = False, response: bool = False) -> float:
    """The declarer's contract worth to this seat when its declarer takes ``tricks``
    double dummy; with ``real_play`` (the ``play_gap`` setting, after the talon), the
    expected worth over the tricks real play gives (:mod:`.playgap`); with ``response``
    (the ``whist_response`` setting, in the auction), a short contract weighed by the
    chance that the defence whists it (:data:`WHIST_RESPONSE`)."""
    item = view.extras.get("rogue_item")
    if item:  # the Rogue: the named game, whisted by force
        table = tables.get(contract)
        if table is None:
            table = tables[contract] = list(
                rogue_table(rules, model, declarer, contract, str(item)))
        return table[tricks]
    if contract.misere:
        table = tables.get(contract)
        if table is None:
            table = tables[contract] = model.contract_table(declarer, contract)
        return table[tricks]
    if not defence_answer(rules, contract, tricks):
        key = Bid(contract.level, contract.trump)
        return model.unplayed_value(declarer, key)
    table = tables.get(contract)
    if table is None:
        table = model.contract_table(declarer, contract)
        if real_play:  # the defence the declarer will meet is not known yet
            table = real_play_table(table, contract.level, CLOSED_SHARE)
        tables[contract] = table
    whisted = table[tricks]
    chances = WHIST_RESPONSE.get(contract.level)
    if (not response or chances is None or tricks > contract.level
            or contract.level not in rules.half_whist_levels):
        return whisted
    defenders = model.defenders(declarer)
    if len(defenders) != 2:
        return whisted
    p = chances[max(0, tricks - contract.level + 2)]
    key = Bid(contract.level, contract.trump)
    stands = model.unplayed_value(declarer, key, half_whister=defenders[1])
    return p * whisted + (1 - p) * stands
