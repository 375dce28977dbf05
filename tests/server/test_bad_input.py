"""Bad messages on the table's WebSocket: a clear error reply, the game unchanged and still
playable (each test plays on afterwards)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import human_to_act, new_game, random_token, read_until_settled, send_action

from preferans.server.app import create_app

HUMAN_FIRST = 2  # seed 2: seat 2 deals, so the human speaks first


def open_table(client: TestClient, seed: int = HUMAN_FIRST) -> tuple[str, Any]:
    game_id = new_game(client, seed=seed)
    table = client.app.state.tables.get(game_id)  # type: ignore[attr-defined]
    return game_id, table


def snapshot(table: Any) -> tuple[Any, ...]:
    deal = table.game.deal
    record = table.store.get(table.id).record
    return (list(deal.history), deal.hands, table.seq, record)


def expect_error(ws: Any, code: str, *words: str) -> dict[str, Any]:
    reply = ws.receive_json()
    assert reply["type"] == "error", reply
    assert reply["code"] == code, reply
    message = reply["message"]
    assert message.endswith((".", ")")) and len(message) > 15, message
    for word in words:
        assert word.lower() in message.lower(), (word, message)
    return reply


def play_on(ws: Any, state: dict[str, Any]) -> None:
    """Prove the table still works: a legal action is accepted and answered."""
    token = random_token(state, random.Random(1))
    send_action(ws, token)
    after = ws.receive_json()
    assert after["type"] == "state"
    assert (after["event"]["seat"], after["event"]["token"]) == (0, token)


BAD_MESSAGES = [
    ("{not json", "bad_message", ["JSON"]),
    ('["action", "6S"]', "bad_message", ["object"]),
    ('{"type": "dance"}', "bad_message", ["dance", "action"]),
    ('{"token": "6S"}', "bad_message", ["type"]),
    ('{"type": "action"}', "bad_message", ["token"]),
    ('{"type": "action", "token": 6}', "bad_message", ["token"]),
    ('{"type": "action", "token": ["6S"]}', "bad_message", ["token"]),
    ('{"type": "action", "token": "XYZ"}', "illegal", ["XYZ"]),
    ('{"type": "action", "token": "DISCARD 7C 8D"}', "illegal", ["DISCARD 7C 8D", "not allowed"]),
    ('{"type": "action", "token": "OPEN"}', "illegal", ["OPEN"]),
    ('{"type": "next_deal"}', "illegal", ["deal"]),
]


@pytest.mark.parametrize(("text", "code", "words"), BAD_MESSAGES)
def test_bad_message_gets_a_clear_error_and_changes_nothing(
    client: TestClient, text: str, code: str, words: list[str]
) -> None:
    game_id, table = open_table(client)
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        state = ws.receive_json()
        assert human_to_act(state)
        before = snapshot(table)
        ws.send_text(text)
        expect_error(ws, code, *words)
        assert snapshot(table) == before
        play_on(ws, state)


@pytest.mark.parametrize("text", [
    "[" * 4096,  # 4 KiB of nesting: once a 1006 close and a traceback
    "{" * 4000,
    '{"type": "action", "token": ' + "[" * 2000 + "]" * 2000 + "}",
    '{"type": "action", "token": {"a": {"b": {"c": {"d": {"e": {"f": {"g": {"h": 1}}}}}}}}}',
])
def test_a_deeply_nested_frame_gets_an_error_and_the_socket_stays_open(
    client: TestClient, text: str
) -> None:
    game_id, table = open_table(client)
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        state = ws.receive_json()
        before = snapshot(table)
        ws.send_text(text)
        reply = expect_error(ws, "bad_message", "deep")
        assert "at most 8" in reply["message"]
        assert snapshot(table) == before
        play_on(ws, state)


def test_brackets_inside_strings_do_not_count_as_nesting(client: TestClient) -> None:
    game_id, _ = open_table(client)
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        ws.receive_json()
        ws.send_text('{"type": "action", "token": "' + "[" * 30 + '"}')
        expect_error(ws, "illegal")


def test_oversized_and_binary_messages(client: TestClient) -> None:
    game_id, table = open_table(client)
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        state = ws.receive_json()
        before = snapshot(table)
        huge = '{"type": "action", "token": "6S", "pad": "' + "x" * 5000 + '"}'
        ws.send_text(huge)
        expect_error(ws, "too_large", "too large", "4096")
        ws.send_bytes(b'{"type": "action", "token": "6S"}')
        expect_error(ws, "bad_message", "text")
        assert snapshot(table) == before
        play_on(ws, state)


def test_an_illegal_bid_names_the_reason(client: TestClient) -> None:
    game_id, _ = open_table(client)
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        state = ws.receive_json()
        assert state["observation"]["phase"] == "auction"
        ws.send_json({"type": "action", "token": "WHIST"})
        reply = expect_error(ws, "illegal", "WHIST")
        assert reply["token"] == "WHIST" and reply["reason"]
        play_on(ws, state)


def test_out_of_turn_is_refused_and_the_game_goes_on(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0.5, bot_level="random")) as client:
        game_id, table = open_table(client, seed=3)  # Misha speaks first
        with client.websocket_connect(f"/ws/{game_id}") as ws:
            state = ws.receive_json()
            assert state["thinking"] == 1
            before = snapshot(table)
            send_action(ws, "6S")
            reply = expect_error(ws, "not_your_turn", "Misha", "not yours")
            assert "6S" in reply["message"]
            assert snapshot(table) == before
            table.bot_delay = 0
            state = read_until_settled(ws)
            if human_to_act(state):
                play_on(ws, state)


def test_acting_after_the_deal_is_over_says_so(client: TestClient) -> None:
    game_id, _ = open_table(client)
    rng = random.Random(4)
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        state = ws.receive_json()
        while not state["deal_over"]:
            send_action(ws, random_token(state, rng))
            state = read_until_settled(ws)
        send_action(ws, "PASS")
        expect_error(ws, "not_your_turn", "NEXT DEAL")
        ws.send_json({"type": "next_deal"})
        assert ws.receive_json()["event"]["kind"] == "deal_started"


def test_unknown_game_id(client: TestClient) -> None:
    for game_id in ("no-such-game", "bad%20id!"):
        with client.websocket_connect(f"/ws/{game_id}") as ws:
            reply = expect_error(ws, "unknown_game", "no game")
            assert reply["type"] == "error"
