"""An open hand's column shows each card's whole corner index, the suit under the rank too
(found by playtesting: at 1280×800 the next card covered the suit, so a red king could be
hearts or diamonds and a black ace spades or clubs).  Screenshots ``playtest-columns-*.png``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from table_driver import open_table
from test_variant_decisions import save_built_game

pytestmark = pytest.mark.browser

# For each card of a column: is the card itself the topmost thing at its rank (10% down)
# and at its suit sign under the rank (the card faces draw it from 22% to 31% of the height)?
CORNERS = """(seat) => {
  const cards = [...document.querySelectorAll(`#seat-${seat} .hand.column [data-card]`)];
  const mine = (card, fx, fy) => {
    const r = card.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width * fx, r.top + r.height * fy);
    return !!hit && hit.closest("[data-card]") === card;
  };
  return cards.map((card) => ({ card: card.dataset.card, rank: mine(card, 0.13, 0.1),
    suit: mine(card, 0.13, 0.27), bottom: card.getBoundingClientRect().bottom }));
}"""


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (1280, 720), (390, 844)])
def test_an_open_column_shows_rank_and_suit_of_every_card(
        browser: Any, live_server: LiveServer, artifacts: Path, width: int, height: int) -> None:
    def open_against_you(table: Any, seat: int, legal: list[str]) -> bool:
        obs = table.game.observation(0)
        return (str(obs.get("phase")).lower() == "play" and obs.get("declarer") == 0
                and len(obs.get("exposed") or {}) == 2 and seat != 0)

    game_id = f"columns-{width}x{height}"
    save_built_game(live_server, game_id, "sochi", 2, open_against_you, pool=10, max_deals=12)
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        st = open_table(page, live_server.url, game_id)
        assert sorted(st["observation"]["exposed"]) == ["1", "2"]
        page.screenshot(path=str(artifacts / f"playtest-columns-{width}x{height}.png"))
        for seat in (1, 2):
            cards = page.evaluate(CORNERS, seat)
            assert len(cards) == len(st["observation"]["exposed"][str(seat)]) >= 8
            for card in cards:
                assert card["rank"] and card["suit"], f"seat {seat}: {card} is not readable"
                assert card["bottom"] <= height, card
    finally:
        context.close()
