"""Accessibility of the table and its pages: every card and control has an accessible name
(read from Chromium's accessibility tree, as a screen reader gets it), the status line is a
polite live region, keyboard focus shows an outline, and colour is never the only cue (suit
symbols beside the colours; a playable card stands raised, an unplayable one says so in its
name).  Screenshots in ``test-artifacts/``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from table_driver import new_game, open_table, phase, step

pytestmark = pytest.mark.browser

# Roles a person operates or reads as a picture: each needs a name.
NAMED_ROLES = {"button", "image", "img", "link", "menuitem", "menuitemcheckbox", "menuitemradio",
               "tab", "checkbox", "radio", "switch", "combobox", "textbox", "slider", "option"}
CARD_NAME = re.compile(r"^(seven|eight|nine|ten|jack|queen|king|ace) of "
                       r"(spades|clubs|diamonds|hearts)")
SUITS = "♠♣♦♥"


def ax_nodes(page: Any) -> list[tuple[str, str]]:
    """(role, accessible name) of every node of the page's accessibility tree not ignored."""
    cdp = page.context.new_cdp_session(page)
    try:
        nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        cdp.detach()
    out = []
    for node in nodes:
        if node.get("ignored"):
            continue
        role = (node.get("role") or {}).get("value", "")
        name = str((node.get("name") or {}).get("value", "")).strip()
        out.append((role, name))
    return out


def assert_all_named(page: Any, where: str) -> list[tuple[str, str]]:
    nodes = [(role, name) for role, name in ax_nodes(page) if role in NAMED_ROLES]
    unnamed = [role for role, name in nodes if not name]
    assert nodes and not unnamed, f"{where}: unnamed {unnamed}"
    return nodes


def hand_card_names(nodes: list[tuple[str, str]]) -> list[str]:
    return [name for role, name in nodes if role == "button" and CARD_NAME.match(name)]


def test_every_card_and_control_has_a_name_and_the_status_is_live(
        browser: Any, live_server: LiveServer, artifacts: Path) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        game = new_game(page, live_server.url, seed=3)
        st = open_table(page, live_server.url, game)
        assert phase(st) == "auction"
        status = page.locator("#status")
        assert status.get_attribute("aria-live") == "polite"
        assert status.get_attribute("role") == "status"
        assert status.inner_text().strip()

        nodes = assert_all_named(page, "auction")
        assert len(hand_card_names(nodes)) == len(st["observation"]["hand"]) == 10
        bids = [name for role, name in nodes if role == "button" and re.match(r"^\d+ ", name)]
        assert "6 spades" in bids and "7 no trump" in bids, bids
        # Colour is not the only cue: each suit bid shows its suit symbol beside its colour.
        for cell in page.locator("#panel .bid").all():
            text = cell.inner_text()
            if not text.endswith("NT") and text[:1].isdigit():
                assert text[-1] in SUITS, text

        # The menu and the help overlay: every item named too.
        page.locator("#menu-button").click()
        menu = [(r, n) for r, n in assert_all_named(page, "menu") if r == "menuitem"]
        assert len(menu) >= 5, menu
        # the statistics (with the rating) and the account open beside the game
        for href, name in (("/stats", "Statistics"), ("/account", "Account")):
            link = page.locator(f'#menu a[role="menuitem"][href="{href}"]')
            assert link.inner_text() == name and link.get_attribute("target") == "_blank"
        page.keyboard.press("Escape")
        page.locator("#help-button").click()
        page.wait_for_selector("#help-overlay:not([hidden])")
        assert_all_named(page, "help")
        page.keyboard.press("Escape")
        page.wait_for_selector("#help-overlay", state="hidden")

        # In play: an unplayable card says so in its name and lies lower than a playable one.
        seen_texts = {status.inner_text()}
        for _ in range(40):
            if phase(st) == "play" and not st["deal_over"]:
                legal = set(st["observation"]["legal"])
                if 0 < len(legal) < len(st["observation"]["hand"]):
                    break
            st = step(page, st, whist=True)
            seen_texts.add(status.inner_text())
        else:
            raise AssertionError("no turn with both playable and unplayable cards")
        assert len(seen_texts) > 1, "the live region speaks as the game goes on"
        nodes = assert_all_named(page, "play")
        names = hand_card_names(nodes)
        unplayable = len(st["observation"]["hand"]) - len(legal)
        assert sum("not playable" in n for n in names) == unplayable
        lifts = page.evaluate("""() => [...document.querySelectorAll('#seat-0 .hand [data-card]')]
          .map((c) => [c.dataset.card, getComputedStyle(c).getPropertyValue('--lift').trim()])""")
        for token, lift in lifts:
            assert (lift == "-14px") == (token in legal), (token, lift, sorted(legal))
        page.screenshot(path=str(artifacts / "a11y-play.png"))
    finally:
        context.close()


OUTLINE = """() => {
  const a = document.activeElement;
  const s = getComputedStyle(a);
  return [a.id || a.dataset.card || a.tagName, s.outlineStyle, parseFloat(s.outlineWidth)];
}"""


def test_keyboard_focus_is_visible(browser: Any, live_server: LiveServer,
                                   artifacts: Path) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        game = new_game(page, live_server.url, seed=3)
        open_table(page, live_server.url, game)
        page.locator("body").click(position={"x": 5, "y": 400})
        page.keyboard.press("Tab")
        target, style, width = page.evaluate(OUTLINE)
        assert target != "BODY" and style == "solid" and width >= 2, (target, style, width)
        page.screenshot(path=str(artifacts / "a11y-focus-first.png"))
        # Tab on into the hand: a card's focus is outlined as well.
        for _ in range(60):
            page.keyboard.press("Tab")
            if page.evaluate("() => !!document.activeElement.closest('.hand')"):
                break
        target, style, width = page.evaluate(OUTLINE)
        assert style == "solid" and width >= 2, (target, style, width)
        page.screenshot(path=str(artifacts / "a11y-focus-card.png"))
    finally:
        context.close()


@pytest.mark.parametrize("path", ["/", "/stats", "/replay", "/ladder"])
def test_the_other_pages_name_their_controls(page: Any, live_server: LiveServer,
                                             path: str) -> None:
    page.goto(live_server.url + path)
    page.wait_for_load_state("networkidle")
    assert_all_named(page, path)
