"""The rules in short, for the table's help ("?"): the rules the table is playing, in a few
lines a new player reads before the first deal (the product's "Rules" part: the cards and
their ranks, the bid ladder and where misère stands, the whist quotas, the contract values,
all-pass, the sheet), every figure taken from the table's :class:`~preferans.rules.Rules`.

>>> lines = rules_brief(Rules.preset("sochi"), "en")
>>> [line.split(":")[0].split(" (")[0].split(",")[0] for line in lines]
['The cards', 'Bidding', 'Whisting', 'Contract values', 'All-pass', 'The sheet']
>>> lines[2].split(" take together ")[1].split(".")[0]
'4 tricks against a 6, 2 against a 7, 1 against an 8, 9 or 10'
>>> rules_brief(Rules.preset("rostov"), "ru")[4].split("; ")[2].split(".")[0]
'взявший меньше всех пишет на остальных по 5 вистов за каждую их взятку'
"""

from __future__ import annotations

from functools import lru_cache
from itertools import groupby

from ... import i18n
from ...bids import Bid
from ...rules import Rules
from .language import say

__all__ = ["rules_brief"]

LEVELS = (6, 7, 8, 9, 10)
AUCTION = {"ascending": "table.brief.auction_ascending",
           "seniority": "table.brief.auction_seniority"}
TALON = {"lead": "table.brief.allpass_talon_lead", "closed": "table.brief.allpass_talon_closed"}
COST = {"mountain": "table.brief.allpass_mountain", "whists": "table.brief.allpass_whists"}


def _levels(levels: list[int], lang: str) -> str:
    """``6``, ``6 or 7``, ``8, 9 or 10`` (with the article English needs: ``an 8, 9 or 10``)."""
    words = [str(level) for level in levels]
    text = words[0] if len(words) == 1 else (
        f"{', '.join(words[:-1])} {say('table.brief.or', lang)} {words[-1]}")
    if i18n.normalize(lang) == "en":
        return ("an " if levels[0] == 8 else "a ") + text
    return text


def _quotas(rules: Rules, lang: str) -> str:
    levels = [lv for lv in LEVELS if lv < 10 or rules.tens_whisted]
    groups = [(quota, [lv for lv, _ in group]) for quota, group in
              groupby(((lv, rules.quota(lv)) for lv in levels), key=lambda item: item[1])]
    parts = [say("table.brief.quota_first" if k == 0 else "table.brief.quota", lang,
                 count=i18n.count("trick", quota, lang) if k == 0 else quota,
                 levels=_levels(group, lang))
             for k, (quota, group) in enumerate(groups)]
    return ", ".join(parts)


def rules_brief(rules: Rules, lang: str | None) -> list[str]:
    """The rules the table plays, in short, one line each, in ``lang``."""
    return list(_brief(rules, i18n.normalize(lang)))


@lru_cache(maxsize=128)
def _brief(rules: Rules, lang: str) -> tuple[str, ...]:
    cards = say("table.brief.cards", lang)
    if rules.players == 4:
        cards += say("table.brief.four", lang)

    auction = say(AUCTION.get(rules.auction, AUCTION["ascending"]), lang)
    outbid = int(rules.misere_outbid_by)
    bidding = say("table.brief.bidding", lang, auction=auction,
                  below=i18n.bid_text(Bid.parse(f"{outbid - 1}NT"), lang),
                  above=i18n.bid_text(Bid.parse(f"{outbid}S"), lang))

    whisting = say("table.brief.whisting", lang, quotas=_quotas(rules, lang))
    if not rules.tens_whisted:
        whisting += say("table.brief.tens_checked", lang)
    half = sorted(rules.half_whist_levels)
    if half:
        whisting += say("table.brief.half_whist", lang, levels=_levels(half, lang))

    values = ", ".join(f"{lv} — {rules.contract_value(lv)}" for lv in LEVELS)
    scoring = say("table.brief.values", lang, values=values, misere=rules.misere_value)
    if rules.mountain_scale != 1 or rules.whist_scale != 1:
        scoring += say("table.brief.scales", lang, mountain=rules.mountain_scale,
                       whists=rules.whist_scale)

    stakes = rules.allpass_progression
    allpass = say("table.brief.allpass", lang,
                  talon=say(TALON.get(rules.allpass_talon, TALON["closed"]), lang),
                  cost=say(COST.get(rules.allpass_scoring, COST["mountain"]), lang,
                           points=rules.allpass_trick_points,
                           whists=i18n.count("whist", rules.allpass_trick_points, lang)))
    if len(stakes) > 1:
        allpass += say("table.brief.allpass_stakes", lang,
                       stakes=", ".join(f"×{s}" for s in stakes))
    after = [lv for lv in rules.allpass_min_bid if lv > 6]
    if after:
        allpass += say("table.brief.allpass_min_bid", lang, level=after[0])

    end = (say("table.brief.end_all_pools", lang, pool=rules.pool)
           if rules.game_end == "all_pools"
           else say("table.brief.end_other", lang, end=i18n.value_text(
               "game_end", rules.game_end, lang), pool=rules.pool))
    sheet = say("table.brief.sheet", lang, end=end)
    return (cards, bidding, whisting, scoring, allpass, sheet)
