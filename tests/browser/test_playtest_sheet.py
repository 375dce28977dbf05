"""The sheet after a deal, as a player meets it (found by playtesting): its buttons NEXT DEAL
and SEE THE TABLE stay in sight at the dialog's foot on a laptop's 1280×800 and on a phone
(the PULYA drawing made the sheet taller than the screen, the buttons half cut off); on a
phone the TOTALS table fits the dialog's width (its last columns were hidden to the right);
the rules line ends with one full stop.  Screenshots ``playtest-sheet-*.png``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from table_driver import new_game, step, wait_settled

pytestmark = pytest.mark.browser

# The button's box, and the box of the part of the dialog one sees (its scrollport).
IN_SIGHT = """(name) => {
  const button = document.querySelector(`#sheet-overlay [data-action="${name}"]`);
  const dialog = document.querySelector("#sheet-overlay .sheet-dialog").getBoundingClientRect();
  const r = button.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return { top: r.top, bottom: r.bottom, dialogTop: dialog.top, dialogBottom: dialog.bottom,
           screen: window.innerHeight, onTop: !!hit && button.contains(hit) };
}"""
OVERFLOW = """() => {
  const d = document.querySelector("#sheet-overlay .sheet-dialog");
  return [d.scrollWidth, d.clientWidth];
}"""


def first_deal_over(page: Any, url: str, lang: str) -> dict[str, Any]:
    game = new_game(page, url, seed=3)
    page.goto(f"{url}/table/{game}?lang={lang}")
    st = wait_settled(page)
    for _ in range(80):
        if st["deal_over"]:
            return st
        st = step(page, st)
    raise AssertionError("the first deal did not end")


@pytest.mark.parametrize(("lang", "width", "height"), [
    ("ru", 1280, 800), ("en", 1280, 800), ("ru", 390, 844), ("en", 390, 844)])
def test_the_sheet_buttons_are_in_sight_and_the_totals_fit(
        browser: Any, live_server: LiveServer, artifacts: Path,
        lang: str, width: int, height: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        first_deal_over(page, live_server.url, lang)
        page.locator("#sheet-overlay:not([hidden]) .tab[data-tab='pulya']").click()
        page.wait_for_selector("#sheet-overlay svg.pulya")
        for action in ("NEXT DEAL", "CLOSE"):
            box = page.evaluate(IN_SIGHT, action)
            assert box["top"] >= box["dialogTop"] and box["bottom"] <= box["dialogBottom"], box
            assert box["bottom"] <= box["screen"] and box["onTop"], box
        page.screenshot(path=str(artifacts / f"playtest-sheet-{lang}-{width}x{height}-pulya.png"))

        page.locator("#sheet-overlay .tab[data-tab='totals']").click()
        page.wait_for_selector("#sheet-overlay table.totals")
        scroll, client = page.evaluate(OVERFLOW)
        assert scroll <= client, f"the sheet is {scroll} px wide in a {client} px dialog"
        rules = page.locator("#sheet-overlay .rules-line").first.inner_text().strip()
        assert rules.endswith(".") and not rules.endswith(".."), rules
        assert page.evaluate(IN_SIGHT, "NEXT DEAL")["onTop"]
        page.screenshot(path=str(artifacts / f"playtest-sheet-{lang}-{width}x{height}-totals.png"))
    finally:
        context.close()
