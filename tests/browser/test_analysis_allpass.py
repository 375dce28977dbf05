"""The after-deal analysis of an all-pass (issue 35), as a player reads it: the sentence says
what its figures are (the fewest tricks each could hold himself to, each worked out on its
own, so they need not add up to ten) and what was taken; on a phone the hands' cards are
big enough to read (they overlap rather than shrink to 22 px).  Both languages.
Screenshots ``analysis-allpass-*.png``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from table_driver import new_game, open_table, play_until

pytestmark = pytest.mark.browser

SAID = {
    "en": ("All-pass. However the other two played, each could keep his tricks down to: ",
           "need not add up to 10", "Taken: ", ("You", "Misha", "Lena")),
    "ru": ("Распасы. Как бы ни играли двое других, каждый мог взять не больше: ",
           "в сумме не обязательно 10", "Взято: ", ("Вы", "Миша", "Лена")),
}
CARDS = """() => [...document.querySelectorAll('.analysis-hands .card')].map((c) => {
  const r = c.getBoundingClientRect();
  const next = c.nextElementSibling;
  const shown = next ? next.getBoundingClientRect().left - r.left : r.width;
  return [r.width, shown, r.right]; })"""


def an_allpass(page: Any, url: str) -> dict[str, Any]:
    """The first seed whose first deal the computer players leave to an all-pass (the human
    passing), played out: its state, the sheet open after it."""
    for seed in range(20):
        game = new_game(page, url, seed=seed)
        st = play_until(page, open_table(page, url, game), lambda s: s["deal_over"])
        if st["last_entry"]["kind"] == "allpass":
            return st
    raise AssertionError("no all-pass in twenty first deals")


@pytest.mark.parametrize(("lang", "width", "height"), [("en", 1280, 800), ("ru", 390, 844)])
def test_the_allpass_analysis_says_what_its_figures_are(
        browser: Any, live_server: LiveServer, artifacts: Path, lang: str, width: int,
        height: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": height},
                                  extra_http_headers={"Accept-Language": lang})
    try:
        page = context.new_page()
        st = an_allpass(page, live_server.url)
        page.locator("#sheet-overlay .tab[data-tab='analysis']").click()
        value = page.locator("#sheet-overlay .analysis-value")
        value.wait_for(timeout=30_000)
        text = value.inner_text()
        opening, caveat, taken, names = SAID[lang]
        assert text.startswith(opening) and caveat in text and taken in text, text
        tricks = st["last_entry"]["tricks"]
        took = text.split(taken, 1)[1].rstrip(".")
        assert took == ", ".join(f"{n} {t}" for n, t in zip(names, tricks, strict=True)), text
        figures = re.findall(r"(\S+) (\d+)", text.split(opening, 1)[1].split(" — ")[0])
        assert [n for n, _ in figures] == list(names), text
        assert all(0 <= int(v) <= 10 for _, v in figures), text

        cards = page.evaluate(CARDS)
        assert len(cards) >= 30, cards
        assert min(w for w, _, _ in cards) >= 30, cards  # not 22 px thumbnails
        assert min(s for _, s, _ in cards) >= 20, cards  # each card's corner in sight
        assert max(r for _, _, r in cards) <= width, cards
        page.screenshot(path=str(artifacts / f"analysis-allpass-{lang}-{width}x{height}.png"))
    finally:
        context.close()
