"""An illegal action's error carries the engine's reason as a message code with JSON
parameters beside the English ``reason``, and renders in Russian from them."""

from __future__ import annotations

from fastapi.testclient import TestClient
from server_helpers import new_game

from preferans import i18n
from preferans.actions import Action
from preferans.i18n.reasons import Reason

HUMAN_FIRST = 2  # seed 2: seat 2 deals, so the human speaks first


def test_an_illegal_call_carries_its_code_and_params(client: TestClient) -> None:
    game_id = new_game(client, seed=HUMAN_FIRST)
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        state = ws.receive_json()
        assert state["observation"]["phase"] == "auction"
        ws.send_json({"type": "action", "token": "WHIST"})
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["code"] == "illegal"
        assert reply["reason_code"] == "bid_or_pass" and reply["reason_params"] == {}
        assert reply["reason"] == str(Reason("bid_or_pass"))
        assert i18n.render_reason(Reason(reply["reason_code"]), "ru") == (
            "в торговле можно только назвать игру или сказать «пас»")
        ws.send_json({"type": "action", "token": "XYZ"})
        reply = ws.receive_json()
        assert reply["code"] == "illegal" and reply["reason_code"] == "unreadable"
        assert reply["reason_params"]["token"] == "XYZ"
        assert reply["reason_params"]["detail"] == reply["reason"]
        assert i18n.render_reason(Reason("unreadable", reply["reason_params"]), "ru") == (
            "не понимаю «XYZ»")


def test_reason_params_keep_tokens_for_the_client() -> None:
    from preferans.i18n.reasons import params_json

    reason = Reason("defender_says", {"shown": (Action.parse("WHIST"), Action.parse("PASS"))})
    assert params_json(reason.params) == {"shown": ["WHIST", "PASS"]}
