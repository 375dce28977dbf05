"""The statistics page after a finished game, as a player reads it (found by playtesting):
the table's eight columns fit the panel on a desktop (HINTS was cut off at the right), the
results plot's axis labels are not cut at the left (the top label's '+' read as '-'), and a
result is written like the table's other numbers (a true minus; in Russian a decimal comma).
Screenshots ``playtest-stats-*.png``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from test_review_pages import finished_game

pytestmark = pytest.mark.browser

FITS = """() => {
  const box = document.querySelector('#stats').parentElement;
  const svg = document.querySelector('#plot-results svg').getBoundingClientRect();
  const ticks = [...document.querySelectorAll('#plot-results .tick')].map((t) => {
    const r = t.getBoundingClientRect();
    return [t.textContent, r.left >= svg.left - 0.5];
  });
  return { scroll: box.scrollWidth, client: box.clientWidth, ticks };
}"""


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_statistics_fit_and_read_right(browser: Any, live_server: LiveServer,
                                           artifacts: Path, lang: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        finished_game(live_server, page, f"statsGame{lang}", seed=16)
        page.goto(f"{live_server.url}/stats?lang={lang}")
        found = page.evaluate(FITS)
        assert found["scroll"] <= found["client"], found
        assert found["ticks"] and all(inside for _, inside in found["ticks"]), found["ticks"]
        top = found["ticks"][0][0]
        assert top.startswith("+"), top
        average = page.locator('tr[data-difficulty="easy"] td').nth(3).inner_text()
        pattern = r"[+−]\d+,\d" if lang == "ru" else r"[+−]\d+\.\d"
        assert re.fullmatch(pattern, average), average
        page.screenshot(path=str(artifacts / f"playtest-stats-{lang}.png"), full_page=True)
    finally:
        context.close()
