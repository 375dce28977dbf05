"""Cards named in text follow the page's deck (found by playtesting: the Russian analysis and
replay wrote «лучше — J♦ Q♦», English indices among Russian words).  The replay of a finished
game, its moves and its analysis, read in Russian: В Д К Т, never J Q K A; in English the
other way round."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from test_review_pages import finished_game

pytestmark = pytest.mark.browser

LATIN = re.compile(r"(?<![A-Za-z])[JQKA][♠♣♦♥]")
CYRILLIC = re.compile(r"(?<![А-Яа-яЁё])[ВДКТ][♠♣♦♥]")


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_replay_names_cards_with_the_deck_indices(
        browser: Any, live_server: LiveServer, artifacts: Path, lang: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        finished_game(live_server, page, f"cardWords{lang}", seed=16)
        page.goto(f"{live_server.url}/replay/cardWords{lang}?lang={lang}")
        page.locator(".replay-side").wait_for()
        texts = []
        for deal in range(page.locator("#replay-deal option").count()):
            page.locator("#replay-deal").select_option(index=deal)
            page.locator('.replay-side [data-tab="moves"]').click()
            texts.append(page.locator(".replay-side").inner_text())
            page.locator('.replay-side [data-tab="analysis"]').click()
            page.locator(".replay-side .analysis").wait_for()
            texts.append(page.locator(".replay-side").inner_text())
        words = "\n".join(texts)
        wrong, right = (LATIN, CYRILLIC) if lang == "ru" else (CYRILLIC, LATIN)
        assert right.search(words), "no face card named in the replay"
        assert not wrong.search(words), wrong.findall(words)[:5]
        page.screenshot(path=str(artifacts / f"playtest-replay-cards-{lang}.png"))
    finally:
        context.close()
