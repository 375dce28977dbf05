"""Every word in its box on a 390 px phone (issue 35), in Russian (the longer words) and in
English, hints on: the bidding grid's buttons ("10 БК"), the top band's chips (the contract
with its declarer's name beside the HINT chip, one over the other nowhere), the help's
CLOSE.  A button's text wider than its box, or two chips of the band overlapping, fails.
Screenshots ``phone-fit-*.png``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from table_driver import new_game, open_table, phase, play_until

pytestmark = pytest.mark.browser

# Buttons and chips whose text runs out of their box (scroll size beyond the client size).
OVERFLOWING = """() => [...document.querySelectorAll('button, .chip, .action, .bid')]
  .filter((n) => n.offsetParent && !n.closest('[hidden]'))
  .filter((n) => n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1)
  .map((n) => `${n.id || n.className} "${n.textContent.trim()}" ${n.scrollWidth}x${n.scrollHeight}`
    + ` in ${n.clientWidth}x${n.clientHeight}`)"""

# The top band's items that overlap one another, and whether each lies inside the band.
BAND = """() => {
  const band = document.querySelector('.topband').getBoundingClientRect();
  const items = [...document.querySelectorAll('.topband > *')]
    .filter((n) => n.offsetParent && !n.hidden);
  const boxes = items.map((n) => [n.id || n.className, n.getBoundingClientRect()]);
  const out = [];
  for (let i = 0; i < boxes.length; i += 1) {
    const [a, r] = boxes[i];
    if (r.bottom > band.bottom + 0.5 || r.right > band.right + 0.5) {
      out.push(`${a} outside the band`);
    }
    for (let j = i + 1; j < boxes.length; j += 1) {
      const [b, q] = boxes[j];
      const across = r.left < q.right - 0.5 && q.left < r.right - 0.5;
      if (across && r.top < q.bottom - 0.5 && q.top < r.bottom - 0.5) out.push(`${a} over ${b}`);
    }
  }
  return out;
}"""

WHOLE_CHIP = """() => {
  const chip = document.querySelector('#contract-chip');
  const r = chip.getBoundingClientRect();
  const hit = document.elementFromPoint(r.right - 6, r.top + r.height / 2);
  return { text: chip.innerText, onTop: !!hit && chip.contains(hit), height: r.height };
}"""


def check(page: Any, where: str) -> None:
    assert page.evaluate(OVERFLOWING) == [], where
    assert page.evaluate(BAND) == [], where


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_word_fits_its_box_on_a_phone(browser: Any, live_server: LiveServer,
                                            artifacts: Path, lang: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                  is_mobile=True, has_touch=True,
                                  extra_http_headers={"Accept-Language": lang})
    try:
        page = context.new_page()
        # seed 0 at Normal: the human bids first, then Misha declares 6♣ and the human
        # is asked to whist.
        game = new_game(page, live_server.url, seed=0, hints=True, difficulty="normal")
        st = open_table(page, live_server.url, game)
        assert phase(st) == "auction" and page.locator("#hint-button").is_visible()
        assert page.locator('#panel [data-token="10NT"]').is_visible()
        check(page, "the bidding grid")
        page.screenshot(path=str(artifacts / f"phone-fit-{lang}-auction.png"))

        st = play_until(page, st, lambda s: s["deal_over"] or (
            s["observation"].get("contract") and s["observation"].get("declarer") not in (0, None)))
        assert not st["deal_over"], "no computer player declared in the first deal"
        chip = page.evaluate(WHOLE_CHIP)
        declarer = {"ru": ("Миша", "Лена"), "en": ("Misha", "Lena")}[lang]
        assert chip["text"].strip().endswith(declarer), chip
        assert chip["onTop"] and chip["height"] < 30, chip  # one line, nothing over its end
        check(page, f"the contract chip: {chip['text']}")
        page.screenshot(path=str(artifacts / f"phone-fit-{lang}-contract.png"))

        page.locator("#help-button").click()
        page.locator("#help-overlay .help-top .action").wait_for()
        check(page, "the help")
        page.screenshot(path=str(artifacts / f"phone-fit-{lang}-help.png"))
    finally:
        context.close()
