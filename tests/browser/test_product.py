"""The table as a product: the first screen, the help at the table, the sheet after every
deal, the words a player reads, the phone.  Screenshots in ``test-artifacts/``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from table_driver import (
    click_action,
    new_game,
    open_table,
    phase,
    play_until,
    step,
    wait_settled,
)

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

SOURCE_NUMBER = re.compile(r"\b00[0-3]\b")
"""The numbers of our source texts (000…003)."""
IDENTIFIER = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b|\b[a-z]+-\d{3,4}\b|\b(?:[A-Z]+_[A-Z_]+)\b")
"""Words that are code, not English: snake_case option names, preset ids like sochi-000."""

READ_TEXT = """() => {
  const parts = [document.body.innerText, document.title];
  for (const node of document.querySelectorAll("[title], [aria-label], img[alt]")) {
    if (node.closest("[hidden]")) continue;
    for (const attr of ["title", "aria-label", "alt"]) {
      const v = node.getAttribute(attr);
      if (v) parts.push(v);
    }
  }
  for (const node of document.querySelectorAll("svg title")) parts.push(node.textContent);
  return parts.join("\\n");
}"""


def within(page: Any, selector: str, viewport: dict[str, int]) -> bool:
    box = page.locator(selector).bounding_box()
    return (box is not None and box["x"] >= 0 and box["y"] >= 0
            and box["x"] + box["width"] <= viewport["width"] + 0.5
            and box["y"] + box["height"] <= viewport["height"] + 0.5)


def readable(text: str, where: str) -> None:
    """No source-file number and no code identifier in what a player reads."""
    numbers = SOURCE_NUMBER.findall(text)
    assert not numbers, f"{where}: source-file numbers {numbers}"
    words = [w for w in IDENTIFIER.findall(text) if w not in ("e_g",)]
    assert not words, f"{where}: identifiers {sorted(set(words))}"


@pytest.mark.parametrize(("name", "viewport"), [("desktop", DESKTOP), ("phone", PHONE)])
def test_play_and_continue_on_the_first_screen(browser: Any, live_server: LiveServer,
                                               artifacts: Path, name: str,
                                               viewport: dict[str, int]) -> None:
    context = browser.new_context(viewport=viewport, has_touch=name == "phone")
    try:
        page = context.new_page()
        new_game(page, live_server.url, seed=4)  # a game to continue
        page.goto(live_server.url + "/")
        for selector in ("#play", "#continue"):
            assert within(page, selector, viewport), f"{selector} below the fold on the {name}"
        # The three rule sets first; the others behind "More rules…", each with its line.
        shown = page.locator("#rules input").evaluate_all("els => els.map(e => e.value)")
        assert shown == ["sochi", "leningrad", "rostov"]
        assert not page.locator("#more-rules").is_visible()
        page.screenshot(path=str(artifacts / f"first-screen-{name}.png"))
        page.locator("#more-rules-summary").click()
        rows = page.locator("#more-rules-box .preset-row")
        assert rows.count() >= 10
        for i in range(rows.count()):
            line = rows.nth(i).locator("small").inner_text()
            assert len(line) > 20 and "(" not in line[:1], line
        readable(page.evaluate(READ_TEXT), f"settings ({name})")
        page.locator('#more-rules-box label.preset-row:has(input[value="piter"])').click()
        assert "2, 4, 6" in page.locator("#preset-doc").inner_text()
        assert within(page, "#play", viewport), "PLAY stays on the screen with the list open"
        page.screenshot(path=str(artifacts / f"first-screen-more-rules-{name}.png"))
    finally:
        context.close()


def test_help_opens_at_the_table_and_leaves_the_game_as_it_was(
        page: Any, live_server: LiveServer, artifacts: Path) -> None:
    game = new_game(page, live_server.url, seed=12)
    st = open_table(page, live_server.url, game)
    before = st["observation"]
    page.locator("#help-button").click()
    overlay = page.locator("#help-overlay")
    overlay.wait_for(state="visible")
    sections = overlay.locator(".help-section").evaluate_all(
        "els => els.map(e => e.dataset.section)")
    assert sections == ["table", "brief", "levels", "tips", "rules", "keys"]
    assert "Crazy" in overlay.inner_text() and "Sochi" in overlay.inner_text()
    guide = overlay.locator('a[href^="/guide?"]')
    assert guide.get_attribute("target") == "_blank"
    assert guide.get_attribute("href") == "/guide?lang=en&preset=sochi&pool=10"
    assert page.url.endswith(f"/table/{game}"), "the help does not leave the table"
    readable(page.evaluate(READ_TEXT), "help")
    page.screenshot(path=str(artifacts / "help-desktop.png"))
    page.keyboard.press("Escape")
    overlay.wait_for(state="hidden")
    after = page.evaluate("() => window.preferansTable.state")
    assert after["seq"] == st["seq"] and after["observation"] == before
    assert page.locator("#panel .bid.lit").count() == len(before["legal"])
    # "?" on the keyboard opens it too, and the game goes on after it.
    page.keyboard.press("?")
    overlay.wait_for(state="visible")
    overlay.locator('[data-action="CLOSE HELP"]').click()
    overlay.wait_for(state="hidden")
    play_until(page, st, lambda s: phase(s) == "play" or s["deal_over"])


def test_the_sheet_opens_after_a_deal_even_when_closed_during_it(
        page: Any, live_server: LiveServer, artifacts: Path) -> None:
    game = new_game(page, live_server.url, seed=31)
    st = open_table(page, live_server.url, game)
    page.locator("#score-chip").click()
    sheet = page.locator("#sheet-overlay")
    sheet.wait_for(state="visible")
    click_action(page, "CLOSE")
    sheet.wait_for(state="hidden")
    st = play_until(page, st, lambda s: s["deal_over"])
    sheet.wait_for(state="visible")
    # The menu stays reachable above the sheet.
    page.locator("#menu-button").click()
    assert page.locator("#menu").is_visible()
    page.locator("#menu-button").click()
    # The drawing names its zones, and a number tells its history.
    zones = page.locator("svg.pulya text.zone").evaluate_all("els => els.map(e => e.textContent)")
    assert zones == ["whists", "pool", "mountain"]
    entries = page.locator("svg.pulya text[data-history]")
    if entries.count():
        entries.first.hover()
        assert "deal by deal" in page.locator("#sheet-history").inner_text()
    readable(page.evaluate(READ_TEXT), "sheet")
    page.screenshot(path=str(artifacts / "sheet-after-closed-deal.png"))
    # Closed after the deal (to look at the table), it stays closed until NEXT DEAL.
    click_action(page, "CLOSE")
    sheet.wait_for(state="hidden")
    assert page.locator('#panel [data-action="NEXT DEAL"]').is_visible()
    click_action(page, "NEXT DEAL")
    st = wait_settled(page, st["seq"])
    assert not st["deal_over"] and not sheet.is_visible()


def test_every_page_reads_without_file_numbers_or_identifiers(
        browser: Any, live_server: LiveServer, artifacts: Path) -> None:
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        context = browser.new_context(viewport=viewport)
        try:
            page = context.new_page()
            for path in ("/", "/stats", "/guide"):
                page.goto(live_server.url + path)
                readable(page.evaluate(READ_TEXT), f"{path} ({name})")
            game = new_game(page, live_server.url, seed=21, rules="leningrad")
            st = open_table(page, live_server.url, game)
            seen: set[str] = set()
            for _ in range(120):
                where = "deal over" if st["deal_over"] else phase(st)
                if where not in seen:
                    seen.add(where)
                    readable(page.evaluate(READ_TEXT), f"table, {where} ({name})")
                    page.screenshot(path=str(artifacts / f"words-{where}-{name}.png"))
                if st["deal_over"]:
                    break
                st = step(page, st, bid=True)
            page.locator("#score-chip").click()
            for tab in ("pulya", "totals"):
                page.locator(f'.tab[data-tab="{tab}"]').click()
                readable(page.evaluate(READ_TEXT), f"sheet {tab} ({name})")
            page.locator("#help-button").click()
            readable(page.evaluate(READ_TEXT), f"help ({name})")
            assert {"auction", "deal over"} <= seen, seen
        finally:
            context.close()


WATCH_TRAVEL = """(token) => {
  const track = [];
  window.travelTrack = null;
  window.travelMiddle = null;
  const resolve = (found) => { window.travelTrack = found; };
  const observer = new MutationObserver(() => {
    const card = document.querySelector(`#trick .played[data-card="${token}"]`);
    if (!card) return;
    observer.disconnect();
    const started = performance.now();
    // Where the drawing is half-way through its animation, seeking it there and back: a busy
    // machine may draw no frame in the middle of 260 ms.
    const run = card.getAnimations()[0];
    if (run) {
      const now = run.currentTime;
      run.currentTime = 130;
      const m = card.getBoundingClientRect();
      window.travelMiddle = [m.left + m.width / 2, m.top + m.height / 2];
      run.currentTime = now;
    }
    const sample = () => {
      const r = card.getBoundingClientRect();
      track.push([performance.now() - started, r.left + r.width / 2, r.top + r.height / 2,
                  card.dataset.travel || ""]);
      if (performance.now() - started < 600) requestAnimationFrame(sample);
      else resolve(track);
    };
    sample();
  });
  observer.observe(document.getElementById("trick"), { childList: true });
}"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_played_card_travels_from_the_hand_to_the_table(
        browser: Any, live_server: LiveServer, artifacts: Path, motion: str) -> None:
    context = browser.new_context(viewport=DESKTOP, reduced_motion=motion)
    try:
        page = context.new_page()
        game = new_game(page, live_server.url, seed=7)
        st = open_table(page, live_server.url, game)
        st = play_until(page, st, lambda s: not s["deal_over"] and phase(s) == "play"
                        and (s["observation"].get("hand_to_play") or 0) == 0)
        token = sorted(st["observation"]["legal"])[0]
        box = page.locator(f'#seat-0 .hand [data-card="{token}"]').bounding_box()
        start = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.evaluate(WATCH_TRAVEL, token)
        page.locator(f'#seat-0 .hand [data-card="{token}"]').focus()
        page.keyboard.press("Enter")
        page.wait_for_function("() => window.travelTrack !== null", timeout=10_000)
        track = page.evaluate("() => window.travelTrack")
        first, last = track[0], track[-1]
        if motion == "reduce":
            assert all(t[3] == "" for t in track), "no travel under prefers-reduced-motion"
            return
        assert first[3] == "moving" and last[3] == "done"
        # It starts where the card was in the hand and ends on the table, above the hand.
        assert abs(first[1] - start[0]) < 30 and abs(first[2] - start[1]) < 30, (first, start)
        assert last[2] < start[1] - 100
        middle = page.evaluate("() => window.travelMiddle || null")
        assert middle is not None and first[2] - 5 > middle[1] > last[2] - 5, (first, middle, last)
        assert any(t[2] < first[2] - 5 and t[3] == "moving" for t in track), "drawn moving"
        page.screenshot(path=str(artifacts / "card-travelled.png"))
    finally:
        context.close()


BAND = "() => document.querySelector('.topband').getBoundingClientRect().height"
HAND_SPAN = """() => {
  const r = [...document.querySelectorAll('#seat-0 .hand [data-card]')]
    .map(e => e.getBoundingClientRect());
  return [r.length, Math.min(...r.map(x => x.left)), Math.max(...r.map(x => x.right))];
}"""


def test_the_phone_band_keeps_its_height_the_hand_fits_and_touch_drag_plays(
        browser: Any, live_server: LiveServer, artifacts: Path) -> None:
    from table_driver import seed_where

    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        game = new_game(page, live_server.url, seed=seed_where(lambda s: s[0] >= 24))
        st = open_table(page, live_server.url, game)
        heights: dict[str, float] = {}
        twelve = False
        for _ in range(80):
            where = "deal over" if st["deal_over"] else phase(st)
            heights.setdefault(where, page.evaluate(BAND))
            if where == "discard":
                count, left, right = page.evaluate(HAND_SPAN)
                assert count == 12 and left >= 0 and right <= PHONE["width"], (left, right)
                twelve = True
                page.screenshot(path=str(artifacts / "phone-twelve-cards.png"))
            if where == "play" and (st["observation"].get("hand_to_play") or 0) == 0:
                break
            st = step(page, st, bid=True, whist=True)
        assert twelve, "the human never held the talon"
        assert len(set(heights.values())) == 1, heights
        # Touch drag: a finger takes the card from the hand onto the table.
        token = sorted(st["observation"]["legal"])[0]
        box = page.locator(f'#seat-0 .hand [data-card="{token}"]').bounding_box()
        centre = page.locator(".centre").bounding_box()
        x, y = box["x"] + min(12, box["width"] / 2), box["y"] + 30
        tx, ty = centre["x"] + centre["width"] / 2, centre["y"] + centre["height"] / 2
        cdp = context.new_cdp_session(page)
        touch = lambda kind, px, py: cdp.send("Input.dispatchTouchEvent", {  # noqa: E731
            "type": kind, "touchPoints": [] if kind == "touchEnd" else [{"x": px, "y": py}]})
        touch("touchStart", x, y)
        for k in range(1, 9):
            touch("touchMove", x + (tx - x) * k / 8, y + (ty - y) * k / 8)
        page.screenshot(path=str(artifacts / "phone-touch-drag.png"))
        touch("touchEnd", tx, ty)
        st = wait_settled(page, st["seq"])
        assert token not in st["observation"]["hand"], "the dragged card was played"
        heights.setdefault("after play", page.evaluate(BAND))
        assert len(set(heights.values())) == 1, heights
    finally:
        context.close()


def test_the_statistics_page_draws_its_plots(page: Any, live_server: LiveServer,
                                             artifacts: Path) -> None:
    page.goto(live_server.url + "/stats")
    assert page.locator("#plot-results-title").text_content().startswith("Your result")
    assert page.locator("#plot-bars rect").count() == 8  # two bars for each of four levels
    readable(page.evaluate(READ_TEXT), "statistics")
    page.screenshot(path=str(artifacts / "stats-page.png"), full_page=True)
