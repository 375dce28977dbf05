"""The long browser tests: a whole pulya-10 game, a server restart, computer players at speed.

Kept in their own module so that ``pytest -n 2 --dist loadfile`` runs them beside the
table tests of ``test_table.py`` rather than after them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from table_driver import new_game, open_table, phase, play_until, step, wait_settled

pytestmark = pytest.mark.browser


def test_restart_the_server_and_continue(page: Any, tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "restart.db").start()
    try:
        game = new_game(page, server.url, seed=66)
        st = open_table(page, server.url, game)
        st = play_until(page, st, lambda s: not s["deal_over"] and phase(s) == "play")
        before = st["observation"]
    finally:
        server.stop()
    again = LiveServer(tmp_path / "restart.db").start()
    try:
        page.goto(again.url + "/")
        page.locator("#continue").click()
        page.wait_for_url(re.compile(f"/table/{game}$"))
        st = wait_settled(page)
        for key in ("hand", "trick", "tricks", "phase", "contract", "declarer", "legal"):
            assert st["observation"][key] == before[key], key
        step(page, st)
    finally:
        again.stop()


def test_a_whole_short_game_to_its_result(page: Any, live_server: LiveServer,
                                          artifacts: Path) -> None:
    game = new_game(page, live_server.url, seed=99, pool=10)
    st = open_table(page, live_server.url, game)
    st = play_until(page, st, lambda s: s["game_over"], limit=3000, bid=True)
    page.locator("#sheet-overlay").wait_for(state="visible")
    headline = page.locator(".result .headline").inner_text()
    balance = st["result"]
    best = max(balance)
    winners = [name for name, value in zip(st["names"], balance, strict=True) if value == best]
    if len(winners) == 1:
        assert headline == ("You win!" if winners[0] == "You" else f"{winners[0]} wins")
    assert page.locator(".final li").count() == 3
    assert page.locator('[data-action="NEW GAME"]').get_attribute("href") == "/"
    assert page.locator('[data-action="NEXT DEAL"]').count() == 0
    page.screenshot(path=str(artifacts / "game-result.png"))
    # The statistics count the finished game.
    page.goto(live_server.url + "/stats")
    row = page.locator('tr[data-difficulty="easy"] td')
    assert int(row.nth(1).inner_text()) >= 1, "a finished Easy game in the statistics"


def test_a_thinking_computer_player_is_shown(page: Any, tmp_path: Path) -> None:
    """With the real pause between computer moves the thinking player is marked."""
    server = LiveServer(tmp_path / "slow.db", bot_delay=1.5).start()  # a wide window to tap in
    try:
        # seed % 3 is the first dealer: 0 or 1 puts a computer player first to bid.
        game = new_game(page, server.url, seed=3)
        page.goto(f"{server.url}/table/{game}")
        # Read the marked plate and the status line at one moment, in the page, as soon as a
        # plate is marked (the players move on, so a separate wait and read could race).
        seat, dots, status = page.wait_for_function("""() => {
          const plate = document.querySelector(".plate.thinking");
          if (!plate) return null;
          return [Number(plate.dataset.seat), !!plate.querySelector(".thinking-dots"),
                  document.getElementById("status").textContent];
        }""").json_value()
        assert seat in (1, 2) and dots
        assert status == f"{('Misha', 'Lena')[seat - 1]} is thinking…"
        # A card tapped out of turn shakes, and the status line says why; nothing is sent.
        card = page.locator("#seat-0 .hand [data-card]").first
        token = card.get_attribute("data-card")
        card.click(position={"x": 6, "y": 14})
        status = page.locator("#status")
        assert status.get_attribute("data-kind") == "why"
        assert re.search(r"turn, not yours|Bid first", status.inner_text())
        assert page.locator(f'#seat-0 [data-card="{token}"].shake').count() == 1
        wait_settled(page)
        assert page.locator(".plate.thinking").count() == 0
    finally:
        server.stop()
