"""Hidden cards never leave the server.

A whole short game (pool 10, random computer players, the human's side played by a random
legal player) is played through the WebSocket.  At every state the server sends, the test
notes from the engine's true state which cards seat 0 may see then: its own hand as dealt,
the talon once shown (all of it to a declarer, card by card in an all-pass), the discard
only when seat 0 declared, the cards played, and the hands lying face up.  No other card
may appear anywhere in any payload.

With four players the dealer sits out (an empty hand) and may look at one defender's hand
(``LOOK s``): that hand is visible to seat 0 only when seat 0 dealt and looked.  In the
all-pass exchange seat 0 sees the talon it takes and the two cards it lays down, nothing
the others take or lay down.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

from fastapi.testclient import TestClient
from server_helpers import modest_token, new_game, play_until, send_action

from preferans.actions import ActionKind
from preferans.cards import Card, CardSet

CARD = re.compile(r"^(7|8|9|10|J|Q|K|A)[SCDH]$")
BID_KEYS = {"auction", "bid", "contract", "min_bid", "summary"}
"""Keys whose strings are bids or prose: ``7S`` there is a bid, not the seven of spades."""


def may_see(table: Any) -> set[str]:
    """The cards seat 0 may see now, from the engine's true state."""
    game = table.game
    deal = game.deal if game.deal is not None else game.finished_deals[-1]
    seen = CardSet(deal.initial_hands[0])
    talon_now = list(deal.talon)  # the all-pass exchange passes the talon round
    for seat, action in deal.history:
        if action.kind is ActionKind.DISCARD and deal.declarer is None:  # an exchange
            if seat == 0:
                seen = seen | CardSet(talon_now) | CardSet(action.cards)
            talon_now = list(action.cards)
        if action.kind is ActionKind.LOOK and seat == 0 == deal.dealer:
            seen = seen | deal.initial_hands[action.seat]
    if deal.phase.value == "exchange" and deal.to_act == 0:
        seen = seen | CardSet(talon_now)  # taken into seat 0's hand, not yet laid down
    if deal.declarer is not None:
        seen = seen | CardSet(deal.talon)  # turned up for everyone when the auction is won
    else:
        seen = seen | CardSet(talon_now[: deal.talon_turned])
    if deal.declarer == 0 and deal.discard is not None:
        seen = seen | deal.discard
    for trick in deal.tricks:
        seen = seen | CardSet(card for _, card in trick.cards)
    seen = seen | CardSet(card for _, card in deal.current_trick)
    for seat in deal.exposed:
        seen = seen | deal.hand(seat)
    return {str(card) for card in seen}


def cards_in(value: Any, *, bids_here: bool = False) -> Iterator[str]:
    """Every card token in a payload, skipping fields that hold bids."""
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str) and CARD.match(key):
                yield key
            yield from cards_in(item, bids_here=key in BID_KEYS)
    elif isinstance(value, list):
        for item in value:
            yield from cards_in(item, bids_here=bids_here)
    elif isinstance(value, str) and not bids_here:
        for word in value.split():
            if CARD.match(word):
                yield str(Card.parse(word))


def payload_cards(message: dict[str, Any]) -> set[str]:
    found = set(cards_in({k: v for k, v in message.items() if k not in ("observation", "event")}))
    observation = dict(message.get("observation") or {})
    if observation.get("phase") != "play":
        observation.pop("legal", None)  # bid tokens, or no cards
    found |= set(cards_in(observation))
    event = message.get("event") or {}
    if event.get("kind") in ("card", "trick", "deal_scored", "discard"):
        found |= set(cards_in(event.get("token")))
    return found


class Watched:
    """A table whose every state payload is noted with what seat 0 may see at that moment."""

    def __init__(self, table: Any) -> None:
        self.table = table
        self.visible_at: dict[int, set[str]] = {}
        self.record_drift: list[int] = []
        table.listeners.append(self.note)

    def note(self, payload: dict[str, Any]) -> None:
        self.visible_at[payload["seq"]] = may_see(self.table)
        if self.table.record() != self.table.game.to_record():  # what is saved is the engine's
            self.record_drift.append(payload["seq"])

    def check(self, log: list[dict[str, Any]]) -> int:
        """Assert that no payload shows a card seat 0 may not see; return the cards checked."""
        checked = 0
        for message in log:
            assert message["type"] == "state", message
            shown = payload_cards(message)
            leaked = shown - self.visible_at[message["seq"]]
            assert not leaked, (message["seq"], message["event"], sorted(leaked))
            checked += len(shown)
        assert self.record_drift == []
        return checked


def test_no_payload_shows_a_card_seat_0_may_not_see(client: TestClient) -> None:
    rng = random.Random(2024)
    game_id = new_game(client, seed=71, pool=10)
    table = client.app.state.tables.get(game_id)  # type: ignore[attr-defined]
    watched = Watched(table)
    log: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        final = play_until(ws, rng, lambda s: s["game_over"], log)

    assert final["game_over"] and final["result"] is not None
    assert abs(sum(final["result"])) < 0.01  # rounded to 3 places
    assert watched.check(log) > 100  # the walk did find the visible cards

    # the game went through the situations where something is hidden or shown
    deals = table.game.finished_deals
    assert final["deal_number"] == len(deals) >= 2
    assert any(d.declarer == 0 and d.tricks for d in deals), "seat 0 declared and played"
    assert any(d.declarer not in (None, 0) and d.tricks for d in deals), "a bot declared"
    assert any(d.open_defence and 0 in d.whisters for d in deals), "seat 0 played open"
    assert any(set(d.exposed) - {0} for d in deals), "another hand lay face up"

    # the end of the game is saved: status, result, statistics, and the record
    saved = table.store.get(game_id)
    assert saved.finished and saved.result == final["result"]
    stats = client.get("/api/stats").json()["stats"]["easy"]
    assert stats["games"] == 1 and stats["finished"] == 1
    assert stats["average_result"] == round(final["result"][0], 2)
    record = client.get(f"/api/games/{game_id}/record").json()
    assert len(record["deals"]) == len(deals)
    assert client.get("/api/games/current").status_code == 404


class AlwaysPass:
    """A computer player that passes in every auction (to bring about an all-pass)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, observation: dict[str, Any]) -> str:
        legal = sorted(observation["legal"])
        return "PASS" if "PASS" in legal else self.rng.choice(legal)


def test_an_allpass_talon_is_shown_one_card_at_a_time(client: TestClient) -> None:
    rng = random.Random(9)
    game_id = new_game(client, seed=2, pool=10)  # the human speaks first
    table = client.app.state.tables.get(game_id)  # type: ignore[attr-defined]
    table.bots = {1: AlwaysPass(1), 2: AlwaysPass(2)}
    watched = Watched(table)
    log: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        state = ws.receive_json()
        log.append(state)
        send_action(ws, "PASS")
        play_until(ws, rng, lambda s: s["deal_over"], log)
    assert table.game.finished_deals[0].kind == "allpass"
    watched.check(log)
    talon = [str(card) for card in table.game.finished_deals[0].talon]
    seen = [m["observation"]["talon"] for m in log]
    assert seen[0] is None and seen[1] is None  # the auction
    assert [talon[0]] in seen and talon in seen
    assert seen.index([talon[0]]) < seen.index(talon)


def test_the_walk_finds_hidden_cards() -> None:
    """The checker itself: a leaked card is found wherever it hides, bids are not cards."""
    message = {
        "observation": {"phase": "auction", "hand": ["AS"], "auction": [[1, "7S"]],
                        "legal": ["8D"], "exposed": {"1": ["KH"]}},
        "why_not": {"QC": "must follow"},
        "event": {"kind": "bid", "seat": 1, "token": "9H"},
        "last_entry": {"contract": "10H", "summary": "Misha made 7S"},
    }
    assert payload_cards(message) == {"AS", "KH", "QC"}
    message["event"] = {"kind": "discard", "seat": 0, "token": "DISCARD 7C 8D"}
    assert {"7C", "8D"} <= payload_cards(message)


class Steering:
    """A computer player that brings about what a test needs, legally: in the auction it bids
    the first legal bid of level ``bid_level`` or more when nobody has bid (with probability
    ``bid_rate``) and passes otherwise; it names the lowest contract, passes in the defence,
    refuses the talon when it may (``refuse_rate``), and as a four-player dealer looks at a
    defender's hand and then whists or passes at random."""

    def __init__(self, seed: int, bid_level: int = 8, bid_rate: float = 1.0,
                 refuse_rate: float = 0.5) -> None:
        self.rng = random.Random(seed)
        self.bid_level = bid_level
        self.bid_rate = bid_rate
        self.refuse_rate = refuse_rate

    def choose(self, observation: dict[str, Any]) -> str:
        legal = list(observation["legal"])
        phase = observation["phase"]
        if phase == "auction":
            bids = [t for t in legal if t[:-1].rstrip("N").isdigit()
                    and int(t[:-1].rstrip("N")) >= self.bid_level]
            if observation["bid"] is None and bids and self.rng.random() < self.bid_rate:
                return bids[0]
            return "PASS" if "PASS" in legal else legal[0]
        if phase == "contract":
            return legal[0]
        if phase == "defence":
            return "PASS" if "PASS" in legal else legal[0]
        if phase == "discard" and "REFUSE" in legal and self.rng.random() < self.refuse_rate:
            return "REFUSE"
        if phase == "dealer whist":
            looks = [t for t in legal if t.startswith("LOOK")]
            return looks[0] if looks else self.rng.choice(legal)
        return self.rng.choice(sorted(legal))


def refusing_token(state: dict[str, Any], rng: random.Random) -> str:
    """The human's side: REFUSE when it may, half the time; else a modest random action."""
    legal = state["observation"]["legal"]
    if "REFUSE" in legal and rng.random() < 0.5:
        return "REFUSE"
    return modest_token(state, rng)


def test_four_players_the_dealers_look_shows_a_hand_to_the_dealer_only(
    client: TestClient,
) -> None:
    rng = random.Random(44)
    game_id = new_game(client, seed=12, pool=10, players=4,
                       rules={"preset": "sochi", "dealer_whist": True})
    table = client.app.state.tables.get(game_id)  # type: ignore[attr-defined]
    table.bots = {seat: Steering(seat) for seat in (1, 2, 3)}
    watched = Watched(table)
    log: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        final = play_until(ws, rng, lambda s: s["game_over"], log)
    assert watched.check(log) > 100
    assert final["names"] == ["You", "Misha", "Sasha", "Lena"]
    assert abs(sum(final["result"])) < 0.01
    deals = table.game.finished_deals
    looks = [(d.dealer, a) for d in deals for seat, a in d.history
             if a.kind is ActionKind.LOOK]
    assert any(dealer == 0 for dealer, _ in looks), "seat 0 dealt and looked"
    assert any(dealer != 0 for dealer, _ in looks), "a computer dealer looked"
    assert all(not d.initial_hands[d.dealer] for d in deals), "the dealer sits out"
    # the dealer's look reaches the dealer only: seat 0 got it exactly when it looked
    looked_payloads = [m for m in log if m["observation"].get("looked")]
    assert looked_payloads
    assert all(m["observation"]["dealer"] == 0 for m in looked_payloads)


def test_talon_refusal_and_allpass_exchange_show_nothing_hidden(client: TestClient) -> None:
    rng = random.Random(5)
    rules = {"preset": "kazakhstan", "talon_refusal": True, "allpass_exchange": True}
    game_id = new_game(client, seed=8, pool=10, rules=rules)
    table = client.app.state.tables.get(game_id)  # type: ignore[attr-defined]
    table.bots = {seat: Steering(seat, bid_level=6, bid_rate=0.3) for seat in (1, 2)}
    watched = Watched(table)
    log: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        play_until(ws, rng, lambda s: s["game_over"] or s["deal_number"] > 14, log,
                   choose=refusing_token)
    assert watched.check(log) > 100
    deals = table.game.finished_deals
    exchanges = [(d, seat) for d in deals for seat, a in d.history
                 if a.kind is ActionKind.DISCARD and d.declarer is None]
    assert any(seat == 0 for _, seat in exchanges), "seat 0 exchanged before an all-pass"
    assert any(seat != 0 for _, seat in exchanges), "a computer player exchanged"
    assert any(d.talon_refused for d in deals), "a declarer refused the talon"
    # a computer player's exchange is shown face down
    hidden = [m["event"] for m in log if m["event"] and m["event"]["kind"] == "discard"
              and m["event"]["seat"] != 0]
    assert hidden and all(e["token"] in ("DISCARD", "REFUSE") for e in hidden)
