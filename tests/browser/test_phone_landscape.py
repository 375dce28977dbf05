"""The table on a phone held sideways (844×390) and the open hands' columns on a phone: the
top band keeps its height through the phases, the hand (twelve cards too) stays within the
width and on the screen, an open defender's column can be read card by card.  Screenshots in
``test-artifacts/``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from table_driver import new_game, open_table, phase, play_until, seed_where, step, wait_settled
from test_variant_decisions import save_built_game

pytestmark = pytest.mark.browser

LANDSCAPE = {"width": 844, "height": 390}
SMALL_LANDSCAPE = {"width": 667, "height": 375}  # narrower than the desktop layout's 720 px
PORTRAIT = {"width": 390, "height": 844}

BAND = "() => document.querySelector('.topband').getBoundingClientRect().height"
HAND_SPAN = """() => {
  const r = [...document.querySelectorAll('#seat-0 .hand [data-card]')]
    .map(e => e.getBoundingClientRect());
  return [r.length, Math.min(...r.map(x => x.left)), Math.max(...r.map(x => x.right)),
          Math.min(...r.map(x => x.top)), Math.max(...r.map(x => x.bottom))];
}"""
# For each card of a column: how much of it shows (not covered by the next card), its width,
# and whether its corner index (rank and suit) is the topmost thing at that point.
COLUMN = """(seat) => {
  const cards = [...document.querySelectorAll(`#seat-${seat} .hand.column [data-card]`)];
  return cards.map((card) => {
    const r = card.getBoundingClientRect();
    let shown = 0;
    for (let y = r.top + 1; y < r.bottom; y += 1) {
      const hit = document.elementFromPoint(r.left + r.width * 0.15, y);
      if (hit && hit.closest("[data-card]") === card) shown += 1;
    }
    const corner = document.elementFromPoint(r.left + r.width * 0.13, r.top + r.height * 0.1);
    return { card: card.dataset.card, shown, width: r.width, top: r.top, bottom: r.bottom,
             left: r.left, right: r.right,
             index: !!corner && corner.closest("[data-card]") === card };
  });
}"""


def phone(browser: Any, viewport: dict[str, int]) -> Any:
    return browser.new_context(viewport=viewport, is_mobile=True, has_touch=True)


@pytest.mark.parametrize("viewport", [LANDSCAPE, SMALL_LANDSCAPE], ids=["844", "667"])
def test_landscape_band_constant_and_hand_within_the_width(
        browser: Any, live_server: LiveServer, artifacts: Path, viewport: dict[str, int]) -> None:
    context = phone(browser, viewport)
    shot = "landscape" if viewport is LANDSCAPE else "landscape-667"
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        game = new_game(page, live_server.url, seed=seed_where(lambda s: s[0] >= 24))
        st = open_table(page, live_server.url, game)
        heights: dict[str, float] = {}
        seen: set[str] = set()
        wanted = {"auction", "discard", "play", "deal over"}
        for _ in range(300):
            where = "deal over" if st["deal_over"] else phase(st)
            heights.setdefault(where, page.evaluate(BAND))
            if where not in seen:
                seen.add(where)
                page.screenshot(path=str(artifacts / f"{shot}-{where.replace(' ', '-')}.png"))
            if where in ("auction", "discard", "play"):
                count, left, right, top, bottom = page.evaluate(HAND_SPAN)
                assert left >= 0 and right <= viewport["width"], (where, count, left, right)
                assert top >= heights[where] - 1 and bottom <= viewport["height"] + 1, \
                    (where, top, bottom)
                if where == "discard":
                    assert count == 12
            if wanted <= seen:
                break
            st = step(page, st, bid=True, whist=True)
        assert wanted <= seen, seen
        assert len(set(heights.values())) == 1, heights
        # The sheet after a deal: its NEXT DEAL reachable (the dialog scrolls on the low screen).
        st = play_until(page, st, lambda s: s["deal_over"], bid=True, whist=True)
        button = page.locator('[data-action="NEXT DEAL"]')
        button.scroll_into_view_if_needed()
        box = button.bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], box
        button.click()
        st = wait_settled(page, st["seq"])
        assert not st["deal_over"]
        # The help overlay fits the screen and closes again.
        page.locator("#help-button").click()
        dialog = page.locator("#help-overlay .help-dialog")
        dialog.wait_for()
        box = dialog.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"] + 0.5
        assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"] + 0.5, box
        page.screenshot(path=str(artifacts / f"{shot}-help.png"))
        page.keyboard.press("Escape")
        page.wait_for_selector("#help-overlay", state="hidden")
        assert page.evaluate(BAND) == heights["auction"]
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.parametrize("viewport", [PORTRAIT, LANDSCAPE], ids=["portrait", "landscape"])
def test_the_open_hand_columns_are_readable_on_a_phone(
        browser: Any, live_server: LiveServer, artifacts: Path, viewport: dict[str, int]) -> None:
    def open_against_you(table: Any, seat: int, legal: list[str]) -> bool:
        obs = table.game.observation(0)
        return (str(obs.get("phase")).lower() == "play" and obs.get("declarer") == 0
                and len(obs.get("exposed") or {}) == 2 and seat != 0)

    game_id = f"open-phone-{viewport['width']}"
    save_built_game(live_server, game_id, "sochi", 2, open_against_you, pool=10, max_deals=12)
    context = phone(browser, viewport)
    try:
        page = context.new_page()
        st = open_table(page, live_server.url, game_id)
        assert sorted(st["observation"]["exposed"]) == ["1", "2"]
        name = "portrait" if viewport is PORTRAIT else "landscape"
        page.screenshot(path=str(artifacts / f"phone-open-defence-{name}.png"))
        for seat in (1, 2):
            cards = page.evaluate(COLUMN, seat)
            assert len(cards) == len(st["observation"]["exposed"][str(seat)])
            for card in cards:
                assert card["index"], f"seat {seat}: the corner of {card['card']} is covered"
                assert card["shown"] >= 14, f"seat {seat}: only {card['shown']} px of {card}"
                assert card["width"] >= 30, card
                assert card["left"] >= 0 and card["right"] <= viewport["width"], card
                assert card["top"] >= 0 and card["bottom"] <= viewport["height"], card
    finally:
        context.close()
