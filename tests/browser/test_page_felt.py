"""The pages' felt and language switch on a phone (issue 47's cosmetic leftovers): a long
page (the puzzles at 390 px) is green to its very end, never white below the first screen,
and the EN / RU switch is large and contrasted enough to see and to tap.  Screenshots in
``test-artifacts/felt-*.png``."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer

pytestmark = pytest.mark.browser

PIXELS = """async (data) => {
  const img = new Image();
  img.src = "data:image/png;base64," + data;
  await img.decode();
  const canvas = document.createElement("canvas");
  canvas.width = img.width;
  canvas.height = img.height;
  const g = canvas.getContext("2d");
  g.drawImage(img, 0, 0);
  const at = (x, y) => Array.from(g.getImageData(x, y, 1, 1).data.slice(0, 3));
  const rows = [0.3, 0.6, 0.8, 0.95].map((f) => Math.floor(img.height * f));
  return { height: img.height, margin: [...rows, img.height - 4].map((y) => at(4, y)) };
}"""
"""A screenshot's pixels in the left margin (outside the panel) down the page, read by the
browser itself (a canvas: no image library)."""


def felt(rgb: list[int]) -> bool:
    """Whether a pixel is the felt's green (not white, not grey)."""
    r, g, b = rgb
    return g > r + 20 and g > b and g < 140


@pytest.mark.parametrize("path", ["/puzzles?lang=ru", "/?lang=en"])
def test_a_long_phone_page_is_green_to_its_end(browser: Any, live_server: LiveServer,
                                                artifacts: Path, path: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    try:
        page = context.new_page()
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
        name = "puzzles" if "puzzles" in path else "home"
        picture = page.screenshot(full_page=True)
        (artifacts / f"felt-phone-{name}.png").write_bytes(picture)
        reader = context.new_page()
        seen = reader.evaluate(PIXELS, base64.b64encode(picture).decode())
        assert seen["height"] > 844 * 1.2, seen  # a page longer than the screen
        assert all(felt(rgb) for rgb in seen["margin"]), seen["margin"]
    finally:
        context.close()


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)])
def test_the_language_switch_is_easy_to_see_and_to_tap(
        browser: Any, live_server: LiveServer, artifacts: Path,
        size: tuple[int, int]) -> None:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        page = context.new_page()
        page.goto(live_server.url + "/puzzles?lang=en")
        links = page.locator("#lang-switch a")
        assert links.count() == 2
        for index in range(2):
            box = links.nth(index).bounding_box()
            assert box["width"] >= 44 and box["height"] >= 36, box
            size_px = float(links.nth(index).evaluate(
                "(a) => parseFloat(getComputedStyle(a).fontSize)"))
            assert size_px >= 15, size_px
        # the switch stands on its own dark plate: its white letters never sit on bare felt
        plate = page.locator("#lang-switch").evaluate(
            "(n) => getComputedStyle(n).backgroundColor")
        assert plate not in ("rgba(0, 0, 0, 0)", "transparent"), plate
        page.locator("#lang-switch").screenshot(
            path=str(artifacts / f"felt-lang-switch-{size[0]}.png"))
    finally:
        context.close()
