"""HINT at the table and the after-deal review of the human's calls (issue 18): only with
hints switched on, only on the human's turn, worked out in the thinking processes, never a
card seat 0 may not see; the calls' review only for deals that are over."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import modest_token, new_game, play_until, read_until_settled, receive_json
from test_privacy import may_see

from preferans.players import make_player
from preferans.server.table.seats import HUMAN, bot_seed

CARD = re.compile(r"\b(?:7|8|9|10|J|Q|K|A)[SCDH]\b")


def ask_hint(ws: Any) -> dict[str, Any]:
    ws.send_json({"type": "hint"})
    return receive_json(ws, timeout=60)


def hint_cards(message: dict[str, Any]) -> set[str]:
    """The cards a hint names: in its card and discard options (a bid such as 7D is no
    card), and nowhere else."""
    hint = message["hint"]
    named: set[str] = set()
    if hint["kind"] in ("card", "discard"):
        named = {c for o in hint["options"] for c in CARD.findall(o["token"])}
        named |= {c for k in hint["values"] for c in CARD.findall(k)}
    rest = {k: v for k, v in hint.items() if k not in ("choice", "contracts", "values",
                                                       "options")}
    rest["options"] = [{k: v for k, v in o.items() if k not in ("token", "contract")}
                       for o in hint["options"]]
    assert not CARD.findall(str(rest)), rest
    return named


def test_no_hint_in_a_game_without_hints(client: TestClient) -> None:
    game_id = new_game(client, seed=3)
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        state = read_until_settled(ws)
        assert state["hints"] is False
        answer = ask_hint(ws)
    assert answer["type"] == "error" and answer["code"] == "hints_off"


def test_hints_during_a_game_show_only_what_seat_0_sees(client: TestClient) -> None:
    """A hint at every human decision of a few deals, through the thinking processes: each is
    for the position on the table, names only cards seat 0 may see, and is counted."""
    game_id = new_game(client, seed=11, hints=True)
    table = client.app.state.tables.get(game_id)  # type: ignore[attr-defined]
    assert table.thinking is not None  # the hints go through the worker processes
    rng = random.Random(5)
    kinds: set[str] = set()
    hints = 0
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        state = read_until_settled(ws)
        assert state["hints"] is True
        for _ in range(400):
            if state["deal_over"]:
                if state["deal_number"] >= 2 and {"bid", "card"} <= kinds:
                    break
                ws.send_json({"type": "next_deal"})
                state = read_until_settled(ws)
                continue
            answer = ask_hint(ws)
            assert answer["type"] == "hint", answer
            assert answer["seq"] == state["seq"]
            hint = answer["hint"]
            obs = state["observation"]
            assert hint["choice"] in obs["legal"]
            assert {o["token"] for o in hint["options"]} <= set(obs["legal"])
            assert hint["level"] == "hard"
            leaked = hint_cards(answer) - may_see(table)
            assert not leaked, (obs["phase"], leaked)
            kinds.add(hint["kind"])
            hints += 1
            ws.send_json({"type": "action", "token": modest_token(state, rng)})
            state = read_until_settled(ws)
    assert hints >= 5 and {"bid", "card"} <= kinds
    saved = table.store.get(game_id)
    assert saved.summary["hints"] is True and saved.summary["hints_used"] == hints
    stats = client.get("/api/stats").json()["stats"]["easy"]
    assert stats["hinted"] == 1


def test_a_hint_is_refused_when_it_is_not_the_humans_turn(client: TestClient) -> None:
    game_id = new_game(client, seed=3, hints=True)
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        play_until(ws, random.Random(1), lambda s: s["deal_over"])
        answer = ask_hint(ws)
    assert answer["type"] == "error" and answer["code"] == "not_your_turn"


def test_the_hint_is_the_hard_players_own_explanation(db_url: str) -> None:
    """Without thinking processes (and without budgets: tests/conftest.py) the hint is
    exactly what a Hard player with the seat's seed explains from seat 0's observation."""
    from preferans.server.app import create_app

    with TestClient(create_app(db_url, bot_delay=0, bot_level="random",
                               bot_workers=0)) as client:
        game_id = new_game(client, seed=8, hints=True, difficulty="hard")
        table = client.app.state.tables.get(game_id)  # type: ignore[attr-defined]
        with client.websocket_connect(f"/ws/{game_id}") as ws:
            read_until_settled(ws)
            observation = table.seat_observation(HUMAN)
            answer = ask_hint(ws)
            again = ask_hint(ws)  # the same position: the same hint, counted once
    mine = make_player("hard", table.rules, bot_seed(8, HUMAN)).explain(observation)  # type: ignore[attr-defined]
    got = answer["hint"]
    assert got["choice"] == mine["choice"]
    assert got["values"] == pytest.approx(mine["values"])
    assert [o["token"] for o in got["options"]] == [o["token"] for o in mine["options"]]
    assert again["hint"] == got
    assert table.hints.used == 1


def test_the_calls_review_opens_only_after_the_deal(client: TestClient) -> None:
    """Nothing of a deal in progress: neither its calls' review nor its analysis; then
    each call of the human beside Crazy's, the difference being Crazy's values'."""
    game_id = new_game(client, seed=3)
    rng = random.Random(3)
    early = client.get(f"/api/games/{game_id}/calls/1")
    assert early.status_code == 403  # deal 1 is being played
    assert client.get(f"/api/games/{game_id}/analysis?deal=1").json()["deals"] == []
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        state = play_until(ws, rng, lambda s: s["deal_over"])
        table = client.app.state.tables.get(game_id)  # type: ignore[attr-defined]
        made = [(s, str(a)) for s, a in table.game.finished_deals[0].history
                if s == HUMAN and a.kind.name in ("PASS", "BID", "MISERE", "WHIST",
                                                  "HALF", "OPEN", "CLOSED")]
        review = client.get(f"/api/games/{game_id}/calls/1")
        assert review.status_code == 200, review.text
        calls = review.json()["calls"]
        assert client.get(f"/api/games/{game_id}/calls/2").status_code == 403
    assert state["deal_number"] == 1 and made
    assert [c["token"] for c in calls] == [t for _, t in made][: len(calls)]
    for call in calls:
        assert call["level"] == "crazy"
        assert call["choice"] in call["values"] or not call["values"]
        if call["choice"] == call["token"]:
            assert call["difference"] == 0
        elif call["difference"] is not None:
            values = {k.upper(): v for k, v in call["values"].items()}
            assert call["difference"] == pytest.approx(
                values[call["choice"].upper()] - values[call["token"].upper()])
    stranger = TestClient(client.app)
    assert stranger.get(f"/api/games/{game_id}/calls/1").status_code == 403
