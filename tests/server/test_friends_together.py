"""A table for friends played together, as people expect (issue 47): the next deal and the
rematch wait for every human's READY (who is ready shown to all; a friend away past his
grace time does not hold the table up), a friend gone is shown away from the first second
with the seconds left of his grace, the chat kept for the table's life.  Several browsers are
several cookie jars of one test client (:mod:`test_friends`)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from server_helpers import receive_json
from test_friends import (
    Browser,
    _play_deal_out,
    _read_until,
    _six_nobody_whists,
    in_step,
    open_sockets,
    seated,
)


def _all(sockets: dict[int, Any]) -> dict[int, dict[str, Any]]:
    return {seat: receive_json(ws) for seat, ws in sockets.items()}


def _humans_play_deal_out(sockets: dict[int, Any], states: dict[int, dict[str, Any]]
                          ) -> dict[int, dict[str, Any]]:
    """The humans of ``sockets`` (the first legal action each) and the computer play the
    deal on the table to its end; the last state each socket received."""
    first = min(sockets)
    for _ in range(600):
        state = states[first]
        if state["deal_over"]:
            return states
        actor = state["observation"]["to_act"]
        if actor in sockets and state["thinking"] is None:
            sockets[actor].send_json({"type": "action",
                                      "token": states[actor]["observation"]["legal"][0]})
        states = _all(sockets)
    raise AssertionError("the deal never ended")


def test_the_next_deal_waits_for_every_friends_ready(client: TestClient) -> None:
    game, browsers = seated(client, ["friend", "friend"], ["Boris", "Vera"], seed=30)
    with open_sockets(game, browsers) as sockets:
        states = _play_deal_out(sockets, in_step(sockets), _six_nobody_whists)
        table = client.app.state.tables.open[game]
        for state in states.values():  # nobody has said READY yet
            assert state["ready"] == [] and state["ready_waiting"] == [0, 1, 2]
        sockets[0].send_json({"type": "next_deal"})  # Anna is ready: the others read on
        states = _all(sockets)
        for state in states.values():
            assert state["deal_over"] and state["event"] is None
            assert state["ready"] == [0] and state["ready_waiting"] == [1, 2]
        sockets[0].send_json({"type": "next_deal"})  # twice is still once
        states = _all(sockets)
        assert states[2]["ready"] == [0] and states[2]["deal_over"]
        time.sleep(0.3)  # the computer players move at once: nothing is played for Vera
        assert table.deal_over() and len(table.game.finished_deals) == 1
        assert table.standin.away == set() and table.stand_ins == {}
        sockets[1].send_json({"type": "next_deal"})
        states = _all(sockets)
        assert states[1]["ready"] == [0, 1] and states[1]["ready_waiting"] == [2]
        assert states[1]["deal_over"]
        sockets[2].send_json({"type": "next_deal"})  # the last READY deals the next deal
        states = _all(sockets)
        for state in states.values():
            assert not state["deal_over"] and state["deal_number"] == 2
            assert state["event"]["kind"] == "deal_started"
            assert state["ready"] == [] and state["ready_waiting"] == []
        # a READY during the deal changes nothing
        sockets[0].send_json({"type": "next_deal"})
        sockets[0].send_json({"type": "pause"})
        after = receive_json(sockets[0])
        assert after["ready"] == [] and after["pause_asked"] == [0]


def test_a_friend_away_past_his_grace_does_not_hold_up_the_next_deal(
        client: TestClient) -> None:
    game, (anna, boris) = seated(client, ["friend", "easy"], ["Boris"], seed=4)
    wa_cm, wb_cm = anna.socket(game), boris.socket(game)
    sockets = {0: wa_cm.__enter__(), 1: wb_cm.__enter__()}
    open_cms = [wa_cm, wb_cm]
    try:
        states = _humans_play_deal_out(sockets, in_step(sockets))
        table = client.app.state.tables.open[game]
        assert states[0]["ready_waiting"] == [0, 1]
        open_cms.remove(wb_cm)
        wb_cm.__exit__(None, None, None)  # Boris closes his page, still reading
        del sockets[1]
        gone = _read_until(sockets[0], lambda m: m["away"])
        (away,) = gone["away"]
        assert away["seat"] == 1 and 25 < away["left"] <= 30 and away["grace"] == 30
        assert gone["stand_in"] == [] and gone["deal_over"]
        sockets[0].send_json({"type": "next_deal"})  # Anna is ready; Boris is within grace
        waiting = _read_until(sockets[0], lambda m: m["ready"] == [0])
        assert waiting["ready_waiting"] == [1] and waiting["deal_over"]
        # his grace time, shortened for the test, runs out: the stand-in sits in for Boris
        # and the deal starts
        table.standin.grace = 0.1
        client.portal.call(table.standin.stop)
        client.portal.call(table.standin.left, 1, False)
        dealt = _read_until(sockets[0], lambda m: not m["deal_over"])
        assert dealt["stand_in"] == [1] and dealt["event"]["kind"] == "deal_started"
        assert dealt["away"] == [] and dealt["deal_number"] == 2
    finally:
        for cm in open_cms:
            cm.__exit__(None, None, None)


def test_a_friend_gone_is_shown_away_from_the_first_second_until_he_is_back(
        client: TestClient) -> None:
    game, (anna, boris) = seated(client, ["friend", "easy"], ["Boris"], seed=4)
    with anna.socket(game) as wa:
        receive_json(wa)
        with boris.socket(game) as wb:
            first = receive_json(wb)
            assert first["away"] == []
        started = time.monotonic()
        gone = _read_until(wa, lambda m: m["away"])
        assert time.monotonic() - started < 1.0  # from the first second, not after 30 s
        assert gone["away"] == [{"seat": 1, "left": gone["away"][0]["left"], "grace": 30.0}]
        assert 28 < gone["away"][0]["left"] <= 30 and gone["stand_in"] == []
        with boris.socket(game) as wb:
            receive_json(wb)
            back = _read_until(wa, lambda m: not m["away"])
            assert back["stand_in"] == []
        assert client.app.state.tables.open[game].standin.away == set()


def _finish_now(sockets: list[Any]) -> None:
    """Every friend at the table agrees to finish the game now: it is over."""
    for ws in sockets:
        ws.send_json({"type": "finish"})
    for ws in sockets:
        _read_until(ws, lambda m: m["game_over"])


def test_rematch_waits_for_every_friends_ready(client: TestClient) -> None:
    game, (anna, boris, vera) = seated(client, ["friend", "friend"], ["Boris", "Vera"],
                                       seed=4)
    with anna.socket(game) as wa, boris.socket(game) as wb, vera.socket(game) as wv:
        for ws in (wa, wb, wv):
            receive_json(ws)
        assert anna.post(f"/api/friends/{game}/rematch", {}).status_code == 409  # not over
        _finish_now([wa, wb, wv])
        assert Browser(client).post(f"/api/friends/{game}/rematch", {}).status_code == 403
        answer = boris.post(f"/api/friends/{game}/rematch", {})
        assert answer.status_code == 200 and answer.json() == {"waiting": [0, 2]}
        for ws in (wa, wb, wv):  # every page is shown who is ready
            told = _read_until(ws, lambda m: m["ready"] == [1])
            assert told["ready_waiting"] == [0, 2] and told["rematch"] is None
        assert boris.post(f"/api/friends/{game}/rematch", {}).json() == {"waiting": [0, 2]}
        assert anna.post(f"/api/friends/{game}/rematch", {}).json() == {"waiting": [2]}
        assert client.app.state.store.get(game).friends["rematch"] is None  # no new game yet
        answer = vera.post(f"/api/friends/{game}/rematch", {})  # the last READY makes it
        url = answer.json()["url"]
        for ws in (wa, wb, wv):
            assert _read_until(ws, lambda m: m.get("rematch") is not None)["rematch"] == url
        assert anna.post(f"/api/friends/{game}/rematch", {}).json()["url"] == url  # one game
    new = url.rsplit("/", 1)[1]
    fresh = client.app.state.store.get(new)
    assert fresh.friends["rematch_ready"] == [] and fresh.friends["started"]


def test_rematch_does_not_wait_for_a_friend_away(client: TestClient) -> None:
    game, (anna, boris, _vera) = seated(client, ["friend", "friend"], ["Boris", "Vera"],
                                       seed=4)
    with anna.socket(game) as wa:
        receive_json(wa)
        table = client.app.state.tables.open[game]
        table.standin.grace = 0.1  # Vera's grace time, shortened for the test
        client.portal.call(table.standin.stop)
        client.portal.call(table.standin.left, 2)
        with boris.socket(game) as wb:
            _read_until(wa, lambda m: m["stand_in"] == [2])  # Vera never came: away
            _finish_now([wa, wb])
            assert anna.post(f"/api/friends/{game}/rematch", {}).json() == {"waiting": [1]}
            url = boris.post(f"/api/friends/{game}/rematch", {}).json()["url"]
            assert url.startswith("/table/")


def test_each_friend_reads_his_own_calls_replay_and_result(client: TestClient) -> None:
    """"Your calls beside Crazy's", the replay and the replay list's "your result" are the
    browser's own seat's, not seat 0's (Boris saw "Your Misère" though he only passed)."""
    game, browsers = seated(client, ["friend", "friend"], ["Boris", "Vera"], seed=30)
    with open_sockets(game, browsers) as sockets:
        _play_deal_out(sockets, in_step(sockets), _six_nobody_whists)
        history = client.app.state.tables.open[game].game.finished_deals[0].history
        _finish_now(list(sockets.values()))
    for seat, browser in enumerate(browsers):
        calls = browser.get(f"/api/games/{game}/calls/1").json()
        assert calls["seat"] == seat
        assert calls["calls"], calls  # everybody made a call with a choice (bid or pass)
        assert {history[c["action"]][0] for c in calls["calls"]} == {seat}
        review = browser.get(f"/api/games/{game}/review").json()
        assert review["seat"] == seat and review["players"] == ["Anna", "Boris", "Vera"]
        (listed,) = [g for g in browser.get("/api/replays").json()["games"] if g["id"] == game]
        assert listed["seat"] == seat


def test_the_chat_is_kept_for_the_tables_life_and_shown_again_after_a_reload(
        client: TestClient) -> None:
    from test_friends import _read_until_type

    from preferans.server.table.chat import CHAT_KEPT, ChatRoom

    game, (anna, boris) = seated(client, ["friend", "easy"], ["Boris"], seed=4)
    with anna.socket(game) as wa:
        receive_json(wa)
        with boris.socket(game) as wb:
            receive_json(wb)
            wb.send_json({"type": "chat", "text": "<b>hi</b>"})
            assert _read_until_type(wa, "chat")["text"] == "<b>hi</b>"
            wa.send_json({"type": "chat", "text": "one more deal?"})
            _read_until_type(wb, "chat")
        with boris.socket(game) as wb:  # Boris reloads his page: the chat is still there
            assert receive_json(wb)["type"] == "state"
            history = receive_json(wb)
            assert history["type"] == "chat_history"
            assert [(m["seat"], m["name"], m["text"]) for m in history["messages"]] == [
                (1, "Boris", "<b>hi</b>"), (0, "Anna", "one more deal?")]
    room = ChatRoom()  # bounded: the oldest go first
    assert room.history() is None
    for k in range(CHAT_KEPT + 50):
        room.said.append({"type": "chat", "seat": 0, "name": "Anna", "text": str(k)})
    kept = room.history()["messages"]
    assert len(kept) == CHAT_KEPT == 200 and kept[0]["text"] == "50"


def test_the_chat_is_saved_with_the_table_and_read_back_after_a_restart(
        tmp_path: Path) -> None:
    from test_friends import _read_until_type
    from test_friends_more import app_on

    db = f"sqlite:///{tmp_path / 'games.db'}"
    with app_on(db) as first:
        game, (anna, boris) = seated(first, ["friend", "easy"], ["Boris"], seed=4)
        with anna.socket(game) as wa:
            receive_json(wa)
            wa.send_json({"type": "chat", "text": "back in five"})
            _read_until_type(wa, "chat")
        saved = first.app.state.store.get(game)
        assert saved.chat == [{"type": "chat", "seat": 0, "name": "Anna",
                               "text": "back in five"}]
    with app_on(db) as second:  # the server restarts: the chat is still the table's
        boris.client = second
        with boris.socket(game) as wb:
            receive_json(wb)
            history = _read_until_type(wb, "chat_history")
            assert [m["text"] for m in history["messages"]] == ["back in five"]
