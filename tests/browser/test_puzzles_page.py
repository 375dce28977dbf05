"""The puzzle page in Chromium: a puzzle solved by playing its line and one failed by a
wrong card, on a desktop and on a phone, in English and in Russian.  Screenshots in
``test-artifacts/``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer

from preferans.puzzles.shipped import generated

pytestmark = pytest.mark.browser

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
STATUS = "document.querySelector('#puzzle-status')"
WORDS = {"en": ("Solved!", "costs", "Puzzles"), "ru": ("Решено!", "стоит", "Задачи")}
RATED = {"en": "0 solved of 1 tried", "ru": "решено 0 из 1"}


def _puzzle() -> dict:
    """A puzzle whose line asks for two cards of the player (a solver answer between)."""
    return next(p for p in generated()
                if sum(1 for s in p["line"] if s["player"] and not s.get("forced")) == 2
                and p["kind"] == "contract")


def _tab(browser: Any, size: str, lang: str) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport=SIZES[size], locale="ru-RU" if lang == "ru" else "en-US")
    context.set_default_timeout(15_000)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    return context, tab, errors


def _play(tab: Any, card: str) -> None:
    button = tab.locator(f'#puzzle-table button[data-card="{card}"]:not([disabled])')
    button.scroll_into_view_if_needed()
    button.click()


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_solve_a_puzzle_and_fail_one(browser: Any, live_server: LiveServer, artifacts: Path,
                                     size: str, lang: str) -> None:
    puzzle = _puzzle()
    solved_word, cost_word, title = WORDS[lang]
    context, tab, errors = _tab(browser, size, lang)
    try:
        tab.goto(f"{live_server.url}/puzzles?lang={lang}&id={puzzle['id']}")
        tab.wait_for_selector("#puzzle-table .puzzle-seat")
        assert tab.locator("h1").inner_text() == title
        assert tab.locator("#puzzle-goal").inner_text().strip()
        # only the cards of the player's side that may be played are enabled
        enabled = tab.eval_on_selector_all("#puzzle-table button:not([disabled])",
                                           "(nodes) => nodes.map((n) => n.dataset.card)")
        assert set(puzzle["solution"]) <= set(enabled)
        # a wrong card: its cost, and the position stays
        wrong = puzzle["alternatives"][0]
        _play(tab, wrong["cards"][0])
        tab.wait_for_function(f"() => {STATUS}.classList.contains('bad')")
        assert cost_word in tab.locator("#puzzle-status").inner_text()
        assert str(wrong["cost"]) in tab.locator("#puzzle-status").inner_text()
        tab.screenshot(path=str(artifacts / f"puzzle-wrong-{size}-{lang}.png"), full_page=True)
        # the line to the end: solved, and the solution with every other card's cost
        cards = [s["card"] for s in puzzle["line"] if s["player"] and not s.get("forced")]
        for k, card in enumerate(cards):
            _play(tab, card)
            if k + 1 < len(cards):
                tab.wait_for_selector(f'#puzzle-table button[data-card="{cards[k + 1]}"]'
                                      ":not([disabled])")
        tab.wait_for_function(f"() => {STATUS}.textContent === {solved_word!r}")
        tab.wait_for_selector("#puzzle-answer:not([hidden]) li")
        assert tab.locator("#puzzle-answer li").count() == len(puzzle["alternatives"])
        assert tab.locator("#puzzle-table button:not([disabled])").count() == 0
        # the first try had a wrong card: a loss for the browser's rating, kept by the server
        # with the browser's holder (it follows him into an account)
        tab.wait_for_function("(text) => document.querySelector('#puzzle-rating')"
                              ".textContent.includes(text)", arg=RATED[lang])
        kept = tab.request.get(f"{live_server.url}/api/puzzles/rating").json()["rating"]
        assert kept["tried"] == 1 and kept["solved"] == 0 and kept["mu"] < 25
        assert tab.evaluate("() => localStorage.getItem('preferans.puzzleRating')") is None
        if size == "phone":  # nothing wider than the screen
            width = tab.evaluate("() => document.documentElement.scrollWidth")
            assert width <= SIZES[size]["width"]
        tab.screenshot(path=str(artifacts / f"puzzle-solved-{size}-{lang}.png"), full_page=True)
        # the statistics page counts the puzzles this browser tried
        tab.goto(f"{live_server.url}/stats?lang={lang}")
        tab.wait_for_function("() => document.querySelector('#stats-puzzles').textContent")
        assert RATED[lang] in tab.locator("#stats-puzzles").inner_text()
        assert not errors, errors
    finally:
        context.close()


def test_hint_and_choosing_a_theme(browser: Any, live_server: LiveServer) -> None:
    context, tab, errors = _tab(browser, "desktop", "en")
    try:
        tab.goto(f"{live_server.url}/puzzles?lang=en&theme=all-pass&grade=3")
        tab.wait_for_selector("#puzzle-table .puzzle-seat")
        shown = tab.evaluate("() => window.preferansPuzzles.view.puzzle")
        assert "all-pass" in shown["themes"] and shown["grade"] == 3
        assert "solution" not in shown
        tab.click("#puzzle-hint")
        tab.wait_for_function(f"() => /The card to play is a/.test({STATUS}.textContent)")
        tab.select_option("#puzzle-theme", "whisting")
        tab.select_option("#puzzle-grade", "")
        tab.click("#puzzle-next")
        tab.wait_for_function(
            "() => window.preferansPuzzles.view.puzzle.themes.includes('whisting')")
        assert "Whisting" in tab.locator("#puzzle-facts").inner_text()
        tab.click("#puzzle-daily")
        tab.wait_for_function("() => /^Puzzle of the day, /.test("
                              "document.querySelector('#puzzle-facts').textContent)")
        assert tab.evaluate("() => window.preferansPuzzles.view.puzzle.grade") >= 3
        assert not errors, errors
    finally:
        context.close()


def test_the_puzzle_page_names_its_controls(page: Any, live_server: LiveServer) -> None:
    from test_accessibility import CARD_NAME, assert_all_named

    puzzle = _puzzle()
    page.goto(f"{live_server.url}/puzzles?lang=en&id={puzzle['id']}")
    page.wait_for_selector("#puzzle-table .puzzle-seat")
    nodes = assert_all_named(page, "/puzzles")
    cards = [name for role, name in nodes if role == "button" and CARD_NAME.match(name)]
    assert len(cards) == sum(len(h) for h in puzzle["position"]["hands"])


def test_a_rating_this_browser_kept_itself_is_handed_to_the_server(
        browser: Any, live_server: LiveServer) -> None:
    """Before the server kept puzzle ratings, the page kept one in the browser's storage:
    it shows until the first try here, which hands it over (and the storage forgets it)."""
    context, tab, errors = _tab(browser, "desktop", "en")
    try:
        tab.goto(f"{live_server.url}/puzzles?lang=en")
        tab.evaluate("""() => localStorage.setItem('preferans.puzzleRating', JSON.stringify(
            {mu: 30, sigma: 5, shown: 600, solved: 4, tried: 6}))""")
        puzzle = _puzzle()
        tab.goto(f"{live_server.url}/puzzles?lang=en&id={puzzle['id']}")
        tab.wait_for_function("() => document.querySelector('#puzzle-rating')"
                              ".textContent.includes('4 solved of 6 tried')")
        tab.locator("#puzzle-show").click()  # the solution shown first: a loss
        tab.wait_for_function("() => document.querySelector('#puzzle-rating')"
                              ".textContent.includes('4 solved of 7 tried')")
        rating = tab.request.get(f"{live_server.url}/api/puzzles/rating").json()["rating"]
        assert (rating["solved"], rating["tried"]) == (4, 7) and rating["mu"] < 30
        assert tab.evaluate("() => localStorage.getItem('preferans.puzzleRating')") is None
        assert not errors, errors
    finally:
        context.close()
