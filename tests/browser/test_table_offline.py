"""The table with the server gone (issue 35): the status line says the connection is lost and
never "your turn"; no decision panel or playable card is offered (nothing could be sent); no
box covers the hand; the menu offers no Pause, nor on the result screen.  When the server is
back the table reconnects by itself and the turn is offered again.  Both languages, on a
laptop and a phone.  Screenshots ``offline-*.png``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from table_driver import new_game, open_table

pytestmark = pytest.mark.browser

OFFLINE = {"en": "Connection to the server lost", "ru": "Связь с сервером потеряна"}
TURN = {"en": "Your", "ru": "Ваш"}

BOXES = """() => {
  const box = (sel) => { const n = document.querySelector(sel);
    if (!n || n.hidden || !n.offsetParent) return null;
    const r = n.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  return { toast: box("#connection"), hand: box("#seat-0 .hand"), panel: box("#panel.open"),
           playable: document.querySelectorAll("#seat-0 .hand .playable").length,
           status: document.querySelector("#status").textContent,
           kind: document.querySelector("#status").dataset.kind };
}"""

PAUSE_SHOWN = """() => { const p = document.querySelector('#menu [data-menu="pause"]');
  return !p.hidden && getComputedStyle(p).display !== "none"; }"""

GAME_OVER_MENU = """async () => {
  const state = await import("/static/state.js");
  const menu = await import("/static/menu.js");
  state.app.state = { ...state.app.state, game_over: true };
  menu.renderMenu();
  const p = document.querySelector('#menu [data-menu="pause"]');
  return !p.hidden && getComputedStyle(p).display !== "none";
}"""
"""The menu drawn for a finished game, and whether it offers Pause, in one step (a state frame
arriving between two steps would draw it again for the game in progress)."""


def overlaps(a: list[float] | None, b: list[float] | None) -> bool:
    return bool(a and b) and not (a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1])


@pytest.mark.parametrize(("lang", "width", "height"), [("en", 1280, 800), ("ru", 390, 844)])
def test_the_table_says_the_server_is_gone_and_comes_back(
        browser: Any, tmp_path: Path, artifacts: Path, lang: str, width: int,
        height: int) -> None:
    server = LiveServer(tmp_path / "offline.db").start()
    context = browser.new_context(viewport={"width": width, "height": height},
                                  extra_http_headers={"Accept-Language": lang})
    try:
        page = context.new_page()
        game = new_game(page, server.url, seed=2)  # seed 2: the human speaks first
        open_table(page, server.url, game)
        before = page.evaluate(BOXES)
        assert before["kind"] == "turn" and before["status"].startswith(TURN[lang]), before
        page.locator("#menu-button").click()
        assert page.evaluate(PAUSE_SHOWN)
        page.keyboard.press("Escape")

        server.stop()
        page.wait_for_function("(text) => document.querySelector('#status').textContent"
                               ".startsWith(text)", arg=OFFLINE[lang], timeout=15_000)
        offline = page.evaluate(BOXES)
        assert offline["kind"] == "error", offline
        assert not offline["status"].startswith(TURN[lang]), offline
        assert offline["panel"] is None and offline["playable"] == 0, offline
        assert not overlaps(offline["toast"], offline["hand"]), offline
        assert page.evaluate("() => document.body.dataset.offline") == "true"
        page.screenshot(path=str(artifacts / f"offline-{lang}-{width}x{height}.png"))
        page.locator("#menu-button").click()
        assert not page.evaluate(PAUSE_SHOWN), "Pause offered with the server gone"
        page.keyboard.press("Escape")

        server = LiveServer(tmp_path / "offline.db", port=server.port).start()
        page.wait_for_function("() => document.querySelector('#status').dataset.kind === 'turn'",
                               timeout=30_000)
        assert page.evaluate("() => document.body.dataset.offline") == "false"
        assert page.evaluate(BOXES)["panel"] is not None  # the bidding grid is back

        # the result screen: nothing to pause
        assert not page.evaluate(GAME_OVER_MENU), "Pause offered on the result screen"
    finally:
        context.close()
        server.stop()
