"""The rules guide's generated parts in another language: the contract table, the presets
compared, the scoring examples, the worked deal's calls, hands and sheet line, all with the
words of the gettext catalogue (:mod:`preferans.i18n`).

>>> ctx = local_context("ru")
>>> ctx["contracts"][0]["level_text"], ctx["contracts"][0]["half"]
('6 взяток', '4 виста')
>>> ctx["wd"].contract, ctx["wd"].summary
('7♥', 'A сыграл 7♥ (+4 в пулю); B записал на A 12 вистов')
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from markupsafe import Markup

from .. import i18n
from ..bids import Bid
from ..cards import Card, CardSet, Suit
from ..rules import PRESETS, Rules, option_docs
from .examples import EXAMPLES, PLAYERS, ScoringExample, by_section
from .worked import RED_SUITS, WorkedDeal, worked_deal

__all__ = ["local_context"]

GUIDE_PRESETS = ("guide", "sochi", "leningrad", "rostov")


def _g(key: str, lang: str) -> str:
    return i18n.pgettext("guide", key, lang)


def card_html(card: Card, lang: str) -> Markup:
    """A card as inline HTML in ``lang``: ``Т♥`` in red."""
    colour = "red" if card.suit in RED_SUITS else "black"
    return Markup('<span class="card {}">{}</span>').format(colour, i18n.card_text(card, lang))


def suit_rows(cards: CardSet, lang: str) -> list[dict[str, Any]]:
    """The four suit rows of a hand diagram, ranks in ``lang``, high cards first."""
    rows = []
    for suit in Suit:
        ranks = [i18n.pgettext("rank", c.rank.label, lang)
                 for c in reversed(list(cards.of_suit(suit)))]
        rows.append({"symbol": suit.symbol, "red": suit in RED_SUITS,
                     "ranks": " ".join(ranks) if ranks else "—"})
    return rows


def contract_table(rules: Rules, lang: str) -> list[dict[str, Any]]:
    """Per level: value, quota, who answers when two whist, what a half-whist earns."""
    rows = []
    for level in (6, 7, 8, 9, 10):
        half = None
        if level in rules.half_whist_levels:
            half = rules.half_whist_tricks[level - 6] * rules.contract_value(level)
        quota = rules.quota(level)
        if quota >= 2:
            each = _g("each", lang).format(n=quota // 2)
        else:
            each = _g("second_whister" if rules.responsible_at_8plus == "second"
                      else "both_share", lang)
        rows.append({
            "level": level,
            "level_text": _g("tricks_level", lang).format(level=level),
            "value": rules.contract_value(level),
            "quota": quota if rules.is_whisted(Bid(level, None)) else "—",
            "each": each,
            "half": "—" if half is None else i18n.count("whist", half, lang),
            "half_n": half,
        })
    return rows


def presets_table(lang: str, names: tuple[str, ...] = GUIDE_PRESETS) -> dict[str, Any]:
    """Options × presets in ``lang``: each option by its description, values in words."""
    rows = []
    for name in option_docs():
        values = [getattr(PRESETS[p], name) for p in names]
        rows.append({
            "name": name,
            "doc": i18n.option_description(name, lang),
            "cells": [i18n.value_text(name, v, lang) for v in values],
            "differs": len({repr(v) for v in values}) > 1,
        })
    presets = [(p, i18n.preset_description(p, lang)) for p in names]
    return {"presets": presets, "rows": rows}


@dataclass(frozen=True)
class LocalExample:
    """A scoring example with its title, explanation and rows in ``lang``."""

    example: ScoringExample
    lang: str

    def __getattr__(self, name: str) -> Any:
        return getattr(self.example, name)

    @property
    def title(self) -> str:
        return i18n.pgettext("example", f"{self.example.key}.title", self.lang)

    @property
    def explanation(self) -> str:
        return i18n.pgettext("example", f"{self.example.key}.explanation", self.lang)

    def rows(self) -> list[dict[str, object]]:
        rows = self.example.rows()
        for i, row in enumerate(rows):
            written = [
                _g("whists_on", self.lang).format(n=w, player=PLAYERS[j])
                for j, w in enumerate(self.example.whists[i]) if w
            ]
            row["whists"] = ", ".join(written) or "—"
        return rows


def _summary(wd: WorkedDeal, lang: str) -> str:
    """The worked deal's sheet line in ``lang`` (a made contract, whists written)."""
    deal = wd.sheet["deals"][0]
    change = deal["change"]
    parts = []
    for seat, pool in enumerate(change["pool"]):
        if pool:
            parts.append(_g("made", lang).format(player=wd.players[seat], contract=wd.contract,
                                                 pool=int(pool)))
    for seat, row in enumerate(change["whists"]):
        for target, w in enumerate(row):
            if w:
                parts.append(_g("wrote", lang).format(
                    player=wd.players[seat], target=wd.players[target],
                    whists=i18n.count("whist", int(w), lang)))
    return "; ".join(parts)


def _call(token: str, lang: str) -> str:
    from ..actions import Action

    return i18n.action_text(Action.parse(token), lang)


def local_worked_deal(lang: str) -> WorkedDeal:
    """The worked deal with its calls, contract, cards and sheet line in ``lang``."""
    wd = worked_deal()
    from ..deal import Deal
    from ..record import read_record
    from .worked import worked_deal_record

    record = read_record(worked_deal_record())
    data = record["deals"][0]
    deal = Deal(Rules.from_json(record["rules"]), data["dealer"],
                [CardSet.parse(h) for h in data["hands"]],
                [Card.parse(c) for c in data["talon"]])
    calls: list[str] = []
    for token in data["actions"]:
        if deal.phase.name == "AUCTION":
            calls.append(_call(token, lang))
        deal.apply(token)
    auction = [(player, calls[i], here) for i, (player, _, here) in enumerate(wd.auction)]
    defence = [(p, i18n.pgettext("call", c.upper(), lang)) for p, c in wd.defence]
    tricks = []
    for t in wd.tricks:
        cards = []
        for c, (_, card) in zip(t["cards"], deal.tricks[t["number"] - 1].cards, strict=True):
            cards.append({**c, "html": card_html(card, lang),
                          "text": i18n.card_text(card, lang)})
        tricks.append({**t, "cards": cards})
    contract = i18n.bid_text(deal.contract, lang) if deal.contract is not None else ""
    local = replace(wd, auction=auction, defence=defence, tricks=tricks, contract=contract)
    return replace(local, summary=_summary(local, lang))


def local_context(lang: str) -> dict[str, Any]:
    """Everything ``guide.<lang>.html`` draws, in ``lang``."""
    rules = Rules.preset("guide")
    wd = local_worked_deal(lang)
    hands = [{"name": wd.players[seat], "seat": seat, "rows": suit_rows(hand, lang)}
             for seat, hand in enumerate(wd.hands_after_discard)]
    return {
        "lang": lang,
        "rules": rules,
        "contracts": contract_table(rules, lang),
        "presets": presets_table(lang),
        "examples": [LocalExample(e, lang) for e in EXAMPLES],
        "by_section": lambda section: [LocalExample(e, lang) for e in by_section(section)],
        "wd": wd,
        "hands": hands,
        "players": PLAYERS,
        "card": lambda c: card_html(c, lang),
        "count": lambda key, n: i18n.count(key, n, lang),
        "call": lambda key: i18n.pgettext("call", key, lang),
    }
