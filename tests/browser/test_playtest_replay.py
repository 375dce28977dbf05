"""The replay viewer on a phone (found by playtesting): the players' plates stay on the screen
and inside the replay's table (at 390 px Misha's plate ran off the left edge, «иша» showing).
Screenshots ``playtest-replay-*.png``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from test_review_pages import finished_game

pytestmark = pytest.mark.browser

PLATES = """() => {
  const table = document.querySelector('.replay-table').getBoundingClientRect();
  return [...document.querySelectorAll('.replay-table .rplate')].map((p) => {
    const r = p.getBoundingClientRect();
    return { text: p.innerText, left: r.left, right: r.right,
             inside: r.left >= table.left - 0.5 && r.right <= table.right + 0.5,
             screen: r.left >= 0 && r.right <= window.innerWidth };
  });
}"""


@pytest.mark.parametrize(("lang", "width", "height"), [("ru", 390, 844), ("en", 844, 390)])
def test_the_replay_plates_stay_on_a_phone_screen(
        browser: Any, live_server: LiveServer, artifacts: Path,
        lang: str, width: int, height: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": height},
                                  is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        table = finished_game(live_server, page, f"replayPhone{lang}", seed=16)
        # a deal with cards played: since Easy bids, many deals end without play (passed
        # out, half-whisted), the first of this game among them
        number = next(k for k, deal in enumerate(table.game.finished_deals, 1)
                      if len(deal.tricks) >= 3)
        page.goto(f"{live_server.url}/replay/replayPhone{lang}?lang={lang}#deal={number}")
        page.locator(".replay-table").wait_for()
        for _ in range(8):
            page.keyboard.press("ArrowRight")
        page.locator('.replay-table[data-step="8"]').wait_for()
        plates = page.evaluate(PLATES)
        assert len(plates) == 3, plates
        for plate in plates:
            assert plate["inside"] and plate["screen"], plate
        page.screenshot(path=str(artifacts / f"playtest-replay-{lang}-{width}x{height}.png"))
    finally:
        context.close()
