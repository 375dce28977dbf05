"""The rules guide served at /guide on a phone: the page never scrolls sideways, a wide table
scrolls inside itself; the page has a favicon the server serves.  Screenshots in
``test-artifacts/``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}

TABLES = """() => [...document.querySelectorAll('main table')].map((t) => {
  const r = t.getBoundingClientRect();
  return { left: r.left, right: r.right, scroll: t.scrollWidth, client: t.clientWidth,
           overflow: getComputedStyle(t).overflowX };
})"""


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_guide_on_a_phone(browser: Any, live_server: LiveServer, artifacts: Path,
                              lang: str) -> None:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/guide?lang={lang}")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        tables = page.evaluate(TABLES)
        assert len(tables) >= 5
        wide = [t for t in tables if t["scroll"] > t["client"] + 1]
        assert wide, "some table is wider than the phone (the presets at least)"
        for table in tables:
            assert table["left"] >= 0 and table["right"] <= PHONE["width"] + 0.5, table
        for table in wide:
            assert table["overflow"] in ("auto", "scroll"), table
        # A wide table scrolls inside itself when swiped; the page stays put.
        index = next(i for i, t in enumerate(tables) if t["scroll"] > t["client"] + 1)
        locator = page.locator("main table").nth(index)
        locator.scroll_into_view_if_needed()
        locator.evaluate("(t) => { t.scrollLeft = 120; }")
        assert locator.evaluate("(t) => t.scrollLeft") > 0
        assert page.evaluate("() => window.scrollX") == 0
        page.screenshot(path=str(artifacts / f"guide-phone-table-{lang}.png"))
        icon = page.locator('link[rel="icon"]').get_attribute("href")
        assert icon
        response = page.request.get(live_server.url + icon)
        assert response.status == 200 and "svg" in response.headers["content-type"]
    finally:
        context.close()
