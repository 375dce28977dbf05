"""Seat tokens in real browsers: a second browser context (its own cookies, as another
browser on the same machine) can neither find, read nor play the first one's game."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import LiveServer
from table_driver import new_game, open_table, seq, state

pytestmark = pytest.mark.browser

OPEN_SOCKET = """(url) => new Promise((resolve) => {
  const messages = [];
  const ws = new WebSocket(url);
  ws.addEventListener("open", () => ws.send(JSON.stringify({type: "action", token: "PASS"})));
  ws.addEventListener("message", (event) => messages.push(JSON.parse(event.data)));
  ws.addEventListener("close", (event) => resolve({code: event.code, messages}));
  setTimeout(() => resolve({code: null, messages}), 10000);
})"""


def test_a_second_browser_can_neither_find_read_nor_play_the_game(
    page: Any, browser: Any, live_server: LiveServer
) -> None:
    base = live_server.url
    game_id = new_game(page, base, seed=2)  # the human speaks first
    mine = open_table(page, base, game_id)
    assert mine["observation"]["hand"]
    page.goto(base + "/")
    assert page.locator("#continue").get_attribute("href") == f"/table/{game_id}"

    other = browser.new_context()
    try:
        stranger = other.new_page()
        stranger.goto(base + "/")
        assert stranger.locator("#continue").count() == 0  # nothing to continue
        assert game_id not in stranger.content()
        current = stranger.request.get(base + "/api/games/current")
        assert current.status == 404
        answer = stranger.goto(f"{base}/table/{game_id}")
        assert answer is not None and answer.status == 403
        assert "belongs to another browser" in stranger.locator("main").inner_text()
        assert stranger.locator("#seat-0").count() == 0  # no table, no hand
        record = stranger.request.get(f"{base}/api/games/{game_id}/record")
        assert record.status == 403 and "another browser" in record.json()["detail"]
        socket = stranger.evaluate(OPEN_SOCKET, f"ws://127.0.0.1:{live_server.port}/ws/{game_id}")
        assert socket["code"] == 4403
        assert [m["type"] for m in socket["messages"]] == ["error"]
        assert socket["messages"][0]["code"] == "not_yours"
    finally:
        other.close()

    again = open_table(page, base, game_id)  # the owner's game is untouched
    assert again["observation"] == mine["observation"]
    assert seq(state(page)) >= seq(mine)
