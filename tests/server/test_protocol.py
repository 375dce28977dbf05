"""The table's WebSocket protocol: states after every action, the human's turn, the
computer players, next deal, pause and resume, several tabs, and restoring a saved game."""

from __future__ import annotations

import json
import random
import time
from typing import Any

from fastapi.testclient import TestClient
from server_helpers import (
    human_to_act,
    new_game,
    play_until,
    random_token,
    read_until_settled,
    send_action,
)

from preferans.server.app import create_app

BOTS_FIRST = 3  # seed 3: seat 0 deals, so Misha speaks first


def test_connect_sends_the_state_of_seat_0(client: TestClient) -> None:
    game_id = new_game(client, seed=BOTS_FIRST)
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        state = ws.receive_json()
        assert state["type"] == "state"
        assert state["game_id"] == game_id
        assert state["seat"] == 0
        assert state["names"] == ["You", "Misha", "Lena"]
        assert state["difficulty"] == "easy"
        assert state["rules"]["preset"] == "sochi" and state["rules"]["pool"] == 10
        assert state["event"] is None
        assert (state["deal_over"], state["game_over"], state["paused"]) == (False, False, False)
        assert state["last_entry"] is None and state["result"] is None
        obs = state["observation"]
        assert obs["seat"] == 0 and obs["dealer"] == 0 and obs["first_hand"] == 1
        assert len(obs["hand"]) == 10 and obs["talon"] is None
        assert obs["phase"] == "auction" and obs["to_act"] == 1
        assert state["thinking"] == 1  # Misha is about to bid
        # the computer players bid until the human is to act (or the auction is over)
        settled = read_until_settled(ws)
        events = [e for e in [settled["event"]] if e]
        assert events and events[0]["seat"] in (1, 2)


def test_every_action_sends_one_state_in_order_and_a_deal_ends_with_its_entry(
    client: TestClient,
) -> None:
    rng = random.Random(5)
    game_id = new_game(client, seed=BOTS_FIRST)
    log: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        first = ws.receive_json()
        state = play_until(ws, rng, lambda s: s["deal_over"], log)
        table = client.app.state.tables.get(game_id)  # type: ignore[attr-defined]
        deal = table.game.finished_deals[0] if table.game.finished_deals else table.game.deal
        seqs = [first["seq"]] + [m["seq"] for m in log]
        assert seqs == list(range(first["seq"], first["seq"] + len(seqs)))
        # one state per action, each naming its seat and token, in the engine's order
        events = [m["event"] for m in log]
        assert [(e["seat"], e["token"]) for e in events] == [
            (seat, "DISCARD" if seat != 0 and str(action).startswith("DISCARD") else str(action))
            for seat, action in deal.history
        ]
        assert events[-1]["kind"] == "deal_scored"
        kinds = {e["kind"] for e in events}
        assert kinds <= {"bid", "pass", "talon", "discard", "contract", "defence", "card",
                         "trick", "deal_scored"}
        assert state["deal_over"] and state["thinking"] is None
        entry = state["last_entry"]
        assert entry is not None and entry["kind"] in ("contract", "misere", "allpass", "passed",
                                                       "halfwhist")
        assert "change" in entry and "summary" in entry
        # the next deal starts only when asked
        ws.send_json({"type": "next_deal"})
        started = ws.receive_json()
        assert started["event"]["kind"] == "deal_started"
        assert not started["deal_over"] and started["last_entry"] is None
        assert started["observation"]["dealer"] == 1
        assert len(started["observation"]["hand"]) == 10


def test_trick_events_name_the_winner(client: TestClient) -> None:
    rng = random.Random(11)
    game_id = new_game(client, seed=BOTS_FIRST)
    log: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        ws.receive_json()
        play_until(ws, rng, lambda s: any(m["event"] and m["event"]["kind"] == "trick"
                                          for m in log), log)
    trick_states = [m for m in log if m["event"] and m["event"]["kind"] == "trick"]
    for state in trick_states:
        last = state["observation"]["tricks"][-1]
        assert state["event"]["winner"] == last["winner"]
        assert [state["event"]["seat"], state["event"]["token"]] == last["cards"][-1]
        assert state["observation"]["trick"] == []


def test_why_not_explains_each_unplayable_card_and_the_engine_agrees(
    client: TestClient,
) -> None:
    rng = random.Random(3)
    game_id = new_game(client, seed=BOTS_FIRST)
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        ws.receive_json()
        state = play_until(ws, rng, lambda s: human_to_act(s) and bool(s["why_not"]))
        obs = state["observation"]
        assert obs["phase"] == "play"
        legal = set(obs["legal"])
        visible = set(obs["hand"])
        for cards in obs["exposed"].values():
            visible |= set(cards)
        assert set(state["why_not"]) <= visible - legal
        assert all(isinstance(r, str) and r for r in state["why_not"].values())
        bad, reason = sorted(state["why_not"].items())[0]
        send_action(ws, bad)
        error = ws.receive_json()
        assert error["type"] == "error" and error["code"] == "illegal"
        assert bad in error["message"] and reason in error["message"]
        assert error["reason"] == reason.rstrip(".")
        # the game is unchanged: a legal card is accepted
        good = random_token(state, rng)
        send_action(ws, good)
        after = ws.receive_json()
        assert after["event"]["seat"] == 0 and after["event"]["token"] == good


def test_pause_stops_the_computer_players_and_resume_restarts_them(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0.3, bot_level="random")) as client:
        game_id = new_game(client, seed=BOTS_FIRST)
        table = client.app.state.tables.get(game_id)  # type: ignore[attr-defined]
        with client.websocket_connect(f"/ws/{game_id}") as ws:
            assert ws.receive_json()["thinking"] == 1
            ws.send_json({"type": "pause"})
            paused = ws.receive_json()
            assert paused["paused"] is True and paused["thinking"] is None
            assert paused["event"] is None
            moves = len(table.game.deal.history)
            time.sleep(0.6)
            assert len(table.game.deal.history) == moves  # nobody moved while paused
            ws.send_json({"type": "resume"})
            resumed = ws.receive_json()
            assert resumed["paused"] is False and resumed["thinking"] == 1
            table.bot_delay = 0
            state = read_until_settled(ws)
            assert len(table.game.deal.history) > moves
            assert human_to_act(state) or state["deal_over"]


def test_two_tabs_on_one_table_see_the_same_states(client: TestClient) -> None:
    rng = random.Random(8)
    game_id = new_game(client, seed=2)  # seat 2 deals: the human speaks first
    with client.websocket_connect(f"/ws/{game_id}") as one, \
            client.websocket_connect(f"/ws/{game_id}") as two:
        a, b = one.receive_json(), two.receive_json()
        assert a["observation"] == b["observation"] and human_to_act(a)
        send_action(two, random_token(b, rng))
        seen_one = read_until_settled(one)
        seen_two = read_until_settled(two)
        assert seen_one == seen_two
        assert seen_one["seq"] > a["seq"]


def test_reload_and_restart_put_the_player_back_exactly(db_url: str) -> None:
    rng = random.Random(21)
    with TestClient(create_app(db_url, bot_delay=0, bot_level="random")) as client:
        game_id = new_game(client, seed=BOTS_FIRST)
        with client.websocket_connect(f"/ws/{game_id}") as ws:
            ws.receive_json()
            # play into the middle of the card play of some deal
            before = play_until(
                ws, rng,
                lambda s: human_to_act(s) and s["observation"]["phase"] == "play"
                and len(s["observation"]["tricks"]) >= 2,
            )
        with client.websocket_connect(f"/ws/{game_id}") as ws:  # reload the page
            reloaded = ws.receive_json()
        assert reloaded["observation"] == before["observation"]
    # a new server on the same database: CONTINUE finds the game and replays it
    with TestClient(create_app(db_url, bot_delay=0, bot_level="random"),
                    cookies=client.cookies) as client:  # the same browser
        assert client.get("/api/games/current").json()["id"] == game_id
        assert client.get(f"/table/{game_id}").status_code in (200, 503)
        with client.websocket_connect(f"/ws/{game_id}") as ws:
            restored = ws.receive_json()
            assert restored["observation"] == before["observation"]
            assert restored["why_not"] == before["why_not"]
            assert restored["deal_number"] == before["deal_number"]
            token = random_token(restored, rng)
            send_action(ws, token)
            after = ws.receive_json()
            assert (after["event"]["seat"], after["event"]["token"]) == (0, token)
            assert after["event"]["kind"] in ("card", "trick", "deal_scored")


def test_the_difficulty_chooses_the_computer_players(db_url: str) -> None:
    """Without a test override the table plays the real Easy player (not the random one)."""
    from preferans.players import RandomPlayer

    rng = random.Random(6)
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        game_id = new_game(client, difficulty="easy", seed=BOTS_FIRST)
        table = client.app.state.tables.get(game_id)  # type: ignore[attr-defined]
        assert not any(isinstance(bot, RandomPlayer) for bot in table.bots.values())
        with client.websocket_connect(f"/ws/{game_id}") as ws:
            ws.receive_json()
            state = play_until(ws, rng, lambda s: s["deal_over"])
        assert state["last_entry"] is not None


def test_a_frame_leaves_out_the_sheet_the_socket_already_has(client: TestClient) -> None:
    """The sheet goes to a socket on its first state and when a deal is scored; in between
    a frame says ``"kept": ["sheet"]`` and carries no sheet (frames stay small as the
    sheet grows over a game)."""
    rng = random.Random(8)
    game_id = new_game(client, seed=BOTS_FIRST)

    def raw(ws: Any) -> dict[str, Any]:
        return json.loads(ws.receive_text())  # the frame as sent, not completed

    with client.websocket_connect(f"/ws/{game_id}") as ws:
        first = raw(ws)
        assert "kept" not in first and first["observation"]["sheet"]["deals"] == []
        frames: list[dict[str, Any]] = []
        state = first
        while not state["deal_over"]:
            if state["type"] == "state" and human_to_act(state) and state["thinking"] is None:
                send_action(ws, random_token({**state, "observation": {
                    **state["observation"], "sheet": None}}, rng))
            state = raw(ws)
            assert state["type"] == "state", state
            frames.append(state)
            if len(frames) == 3:  # a second tab mid-deal: its first state has the sheet
                with client.websocket_connect(f"/ws/{game_id}") as other:
                    joined = raw(other)
                    assert "kept" not in joined and "sheet" in joined["observation"]
        *during, scored = frames
        assert during and all(f["kept"] == ["sheet"] and "sheet" not in f["observation"]
                              for f in during)
        assert "kept" not in scored and len(scored["observation"]["sheet"]["deals"]) == 1
        ws.send_json({"type": "next_deal"})
        started = raw(ws)
        assert started["event"]["kind"] == "deal_started" and started["kept"] == ["sheet"]
    with client.websocket_connect(f"/ws/{game_id}") as again:  # a reload: the whole sheet
        reloaded = raw(again)
        assert "kept" not in reloaded
        assert reloaded["observation"]["sheet"] == scored["observation"]["sheet"]
