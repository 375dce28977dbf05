"""The guide's worked deal, replayed through the engine, and the cards as HTML.

>>> worked_deal().contract
'7♥'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from importlib import resources
from typing import Any

from ..bids import Bid
from ..cards import Card, CardSet, Suit
from ..deal import Deal, Phase
from ..record import read_record, replay
from ..rules import Rules

RED_SUITS = (Suit.DIAMONDS, Suit.HEARTS)


# --- card rendering -------------------------------------------------------------------------
def card_html(card: Card) -> str:
    """A card as inline HTML: rank and suit symbol, red for ♦ and ♥."""
    colour = "red" if card.suit in RED_SUITS else "black"
    return f'<span class="card {colour}">{card.rank.label}{card.suit.symbol}</span>'


def suit_rows(cards: CardSet) -> list[dict[str, Any]]:
    """The four suit rows of a hand diagram, spades first, high cards first."""
    rows = []
    for suit in Suit:
        ranks = [c.rank.label for c in reversed(list(cards.of_suit(suit)))]
        rows.append(
            {
                "symbol": suit.symbol,
                "red": suit in RED_SUITS,
                "ranks": " ".join(ranks) if ranks else "—",
            }
        )
    return rows


def bid_text(token: str) -> str:
    """An auction or contract token for people: ``6♥``, ``pass``, ``misère``."""
    if token == "PASS":
        return "pass"
    bid = Bid.parse(token)
    return "misère" if bid.misere else bid.symbol


# --- the worked deal ------------------------------------------------------------------------
@dataclass
class WorkedDeal:
    """The worked deal as the page shows it, all read from the engine's replay."""

    players: tuple[str, ...]
    dealer: int
    first_hand: int
    auction: list[tuple[str, str, bool]]  # (player, call for people, "here")
    talon: list[Card]
    discard: list[Card]
    contract: str
    defence: list[tuple[str, str]]
    hands_after_discard: list[CardSet]
    tricks: list[dict[str, Any]]
    tricks_won: list[int]
    sheet: dict[str, Any]
    summary: str
    balance: list[Fraction]


def worked_deal_record() -> dict[str, Any]:
    """The worked deal's game record (``preferans-record/1``), as stored."""
    text = resources.files(__package__).joinpath("worked_deal.json").read_text("utf-8")
    return json.loads(text)


@cache
def worked_deal() -> WorkedDeal:
    """Replay ``worked_deal.json`` through the engine and collect what the page shows."""
    record = read_record(worked_deal_record())
    game = replay(record)
    data = record["deals"][0]
    rules = Rules.from_json(record["rules"])
    dealer = data["dealer"]
    deal = Deal(
        rules,
        dealer,
        [CardSet.parse(h) for h in data["hands"]],
        [Card.parse(c) for c in data["talon"]],
    )
    hands_after: list[CardSet] | None = None
    for token in data["actions"]:
        deal.apply(token)
        if hands_after is None and deal.phase is Phase.PLAY:
            hands_after = list(deal.hands)
    assert hands_after is not None and deal.phase is Phase.DONE
    players = tuple(record["players"])

    auction: list[tuple[str, str, bool]] = []
    defence: list[tuple[str, str]] = []
    last_bid: str | None = None
    contract_named = False
    for seat, action in deal.history:
        kind = action.kind.name
        token = str(action)
        if kind == "CONTRACT":
            contract_named = True
        elif not contract_named and kind in ("BID", "PASS"):
            here = kind == "BID" and token == last_bid  # an elder hand holds the bid
            auction.append((players[seat], bid_text(token), here))
            if kind == "BID":
                last_bid = token
        elif contract_named and kind in ("WHIST", "PASS", "HALF", "OPEN", "CLOSED"):
            defence.append((players[seat], token.lower()))

    tricks = []
    running = [0] * len(players)
    for number, trick in enumerate(deal.tricks, start=1):
        running[trick.winner] += 1
        tricks.append(
            {
                "number": number,
                "leader": players[trick.leader],
                "cards": [
                    {
                        "player": players[seat],
                        "html": card_html(card),
                        "text": card.symbol,
                        "winner": seat == trick.winner,
                    }
                    for seat, card in trick.cards
                ],
                "winner": players[trick.winner],
                "score": "–".join(str(x) for x in running),
            }
        )
    entry = game.sheet.entries[0]
    return WorkedDeal(
        players=players,
        dealer=dealer,
        first_hand=deal.first_hand,
        auction=auction,
        talon=list(deal.talon),
        discard=list(deal.discard or ()),
        contract=bid_text(str(deal.contract)),
        defence=defence,
        hands_after_discard=hands_after,
        tricks=tricks,
        tricks_won=list(deal.tricks_won),
        sheet=game.sheet.to_json(),
        summary=entry.summary,
        balance=game.sheet.balance(),
    )


