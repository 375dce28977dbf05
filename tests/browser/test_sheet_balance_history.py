"""The sheet after a deal (issue 35): the entry's last columns are what they say, the deal's
change to each balance ("Balance change") and the balance it leaves ("Balance"); a long
mountain history stays readable in the pulya drawing (its latest totals after "…", the whole
history in its label), never squeezed to a smear.  Both languages; laptop and phone.
Screenshots ``sheet-balance-*.png`` and ``sheet-long-history-*.png``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from table_driver import new_game, open_table, play_until

pytestmark = pytest.mark.browser

HEADS = {"en": ("Balance change", "Balance"), "ru": ("Итог за раздачу", "Итог")}

ENTRY = """() => {
  const heads = [...document.querySelectorAll('#sheet-overlay table.change thead th')]
    .map((th) => th.textContent);
  const rows = [...document.querySelectorAll('#sheet-overlay table.change tbody tr')].map((tr) => ({
    change: tr.querySelector('[data-column="change"]').textContent,
    balance: tr.querySelector('[data-column="balance"]').textContent }));
  return { heads, rows };
}"""

# The sheet of a long game drawn from the table's own last state: 60 deals, each writing 2
# on your mountain (your history 2.4.6…120).
LONG = """async () => {
  const { app } = await import("/static/state.js");
  const { render } = await import("/static/table.js");
  const sheet = app.state.observation.sheet;
  const deal = { ...sheet.deals[0], change: { pool: [0, 0, 0], mountain: [2, 0, 0],
                 whists: [[0, 0, 0], [0, 0, 0], [0, 0, 0]] } };
  const deals = Array.from({ length: 60 }, () => deal);
  app.state = { ...app.state, observation: { ...app.state.observation,
                sheet: { ...sheet, deals, mountain: [120, 0, 0] } } };
  app.ui.sheetOpen = true;
  app.ui.sheetTab = "pulya";
  render();
  const node = document.querySelector('svg.pulya text.mountain[data-history="mountain-0"]');
  const lines = [...node.querySelectorAll('tspan')];
  const parts = lines.length ? lines : [node];
  return { text: parts.map((p) => p.textContent), cut: node.dataset.cut,
           label: node.getAttribute('aria-label'),
           size: parseFloat(getComputedStyle(node).fontSize),
           advance: Math.min(...parts.map((p) => p.getComputedTextLength()
                                              / p.textContent.length)) };
}"""


@pytest.mark.parametrize(("lang", "width", "height"), [("en", 1280, 800), ("ru", 390, 844)])
def test_the_entry_s_balance_and_a_long_mountain(browser: Any, live_server: LiveServer,
                                                  artifacts: Path, lang: str, width: int,
                                                  height: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": height},
                                  extra_http_headers={"Accept-Language": lang})
    try:
        page = context.new_page()
        game = new_game(page, live_server.url, seed=3)
        st = play_until(page, open_table(page, live_server.url, game), lambda s: s["deal_over"])
        page.locator("#sheet-overlay table.change").wait_for()
        entry = page.evaluate(ENTRY)
        assert entry["heads"][-2:] == list(HEADS[lang]), entry
        change = st["last_entry"]["balance_change"]
        balance = st["observation"]["sheet"]["balance"]
        minus = "−"
        for row, moved, now in zip(entry["rows"], change, balance, strict=True):
            shown = float(row["change"].replace(minus, "-").replace(",", "."))
            assert shown == pytest.approx(moved, abs=0.05), row
            if now:
                shown = float(row["balance"].replace(minus, "-").replace(",", "."))
                assert shown == pytest.approx(now, abs=0.05), row
        page.screenshot(path=str(artifacts / f"sheet-balance-{lang}-{width}x{height}.png"))

        drawn = page.evaluate(LONG)
        assert drawn["cut"] == "true" and drawn["text"][0].startswith("…"), drawn
        assert drawn["text"][-1].endswith("120"), drawn  # the current total is in sight
        assert drawn["label"].endswith("114, 116, 118, 120") and "2, 4, 6, 8" in drawn["label"]
        assert drawn["size"] >= 14, drawn
        assert drawn["advance"] >= 6, drawn  # a digit keeps ¾ of its width: readable
        page.screenshot(path=str(artifacts / f"sheet-long-history-{lang}-{width}x{height}.png"))
    finally:
        context.close()
