"""The sheet a state frame leaves out (``"kept": ["sheet"]``) as a player meets it: over two
deals most frames leave it out, yet the page always holds the sheet the server has: the
score chip opens it mid-deal, a reload and a second tab in Russian show the same sheet, and
the first tab goes on keeping its own.  No script error on the way."""

from __future__ import annotations

import json
from typing import Any

import pytest
from browser_helpers import LiveServer
from table_driver import new_game, state, step, wait_settled

pytestmark = pytest.mark.browser


def _listen(page: Any, frames: list[dict[str, Any]], errors: list[str]) -> None:
    def on_socket(ws: Any) -> None:
        def on_frame(payload: Any) -> None:
            if isinstance(payload, str | bytes):
                message = json.loads(payload)
                if message.get("type") == "state":
                    frames.append(message)
        ws.on("framereceived", on_frame)
    page.on("websocket", on_socket)
    page.on("pageerror", lambda exc: errors.append(str(exc)))


def _sheet(page: Any) -> Any:
    return page.evaluate("() => window.preferansTable.state.observation.sheet")


def _scores(sheet: dict[str, Any]) -> dict[str, Any]:
    """The sheet less its deal summaries, which are written in each tab's language."""
    deals = [{k: v for k, v in d.items() if k not in ("summary", "summary_lang")}
             for d in sheet["deals"]]
    return {**sheet, "deals": deals}


def test_the_page_keeps_the_sheet_the_frames_leave_out(
        browser: Any, live_server: LiveServer) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        frames: list[dict[str, Any]] = []
        errors: list[str] = []
        _listen(page, frames, errors)
        game = new_game(page, live_server.url, seed=3)
        page.goto(f"{live_server.url}/table/{game}?lang=en")
        st = wait_settled(page)
        deals_over = 0
        for _ in range(200):
            if st["deal_over"]:
                deals_over += 1
                sheet = _sheet(page)
                assert sheet and sheet == st["observation"]["sheet"]
                if deals_over == 2:
                    break
            st = step(page, st)
            if deals_over == 1 and not st["deal_over"] and st["observation"]["tricks"]:
                # mid-deal of the second deal: the score chip opens the sheet kept so far
                page.locator("#score-chip").click()
                page.locator("#sheet-overlay:not([hidden]) .tab[data-tab='totals']").click()
                page.wait_for_selector("#sheet-overlay table.totals")
                assert page.locator("#sheet-overlay table.totals").inner_text().strip()
                assert _sheet(page) == state(page)["observation"]["sheet"]
                page.keyboard.press("Escape")
        assert deals_over == 2, "two deals were not played"
        kept = [f for f in frames if "sheet" in (f.get("kept") or [])]
        assert frames[0].get("kept") is None and frames[0]["observation"]["sheet"]
        assert len(kept) > len(frames) / 2, (len(kept), len(frames))
        assert all("sheet" not in f["observation"] for f in kept)
        sheet = _sheet(page)

        # a reload: the first frame carries the whole sheet again, the same one
        frames.clear()
        page.reload()
        wait_settled(page)
        assert frames and frames[0].get("kept") is None
        assert _sheet(page) == sheet

        # a second tab, in Russian, on the same game: the same sheet; the first tab goes on
        other = context.new_page()
        other_frames: list[dict[str, Any]] = []
        _listen(other, other_frames, errors)
        other.goto(f"{live_server.url}/table/{game}?lang=ru")
        wait_settled(other)
        # the same sheet, its deal summaries in the tab's own language
        assert _scores(_sheet(other)) == _scores(sheet)
        assert {d.get("summary_lang") for d in _sheet(other)["deals"]} == {"ru"}
        assert all(d.get("summary_lang", "en") == "en" for d in sheet["deals"])
        st = state(page)
        frames.clear()
        st = step(page, st)  # NEXT DEAL, then the computer players until the human's turn
        assert _sheet(page) == st["observation"]["sheet"]
        other.wait_for_function("(seq) => window.preferansTable.state.seq >= seq",
                                arg=st["seq"])
        assert _scores(_sheet(other)) == _scores(_sheet(page))
        assert any("sheet" in (f.get("kept") or []) for f in frames + other_frames)
        assert not errors, errors
    finally:
        context.close()
