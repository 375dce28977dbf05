"""The deck follows the page's language: a Russian page (``<html lang="ru">``) draws the
Russian cards (indices Т К Д В, static/cards/ru/), an English one the English cards; both
with the court figures.  Screenshots in ``test-artifacts/``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from table_driver import new_game, open_table

pytestmark = pytest.mark.browser

SOURCES = """() => [...document.querySelectorAll('#seat-0 .hand [data-card] img, #talon img.face')]
  .map((img) => [img.closest('[data-card]') ? img.closest('[data-card]').dataset.card : '',
                 new URL(img.src).pathname, img.complete && img.naturalWidth > 0])"""


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_deck_follows_the_page_language(browser: Any, live_server: LiveServer,
                                            artifacts: Path, lang: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(
        "document.addEventListener('DOMContentLoaded', () => "
        f"{{ document.documentElement.lang = '{lang}'; }});")
    try:
        page = context.new_page()
        game = new_game(page, live_server.url, seed=3)
        st = open_table(page, live_server.url, game)
        page.wait_for_function("""() => [...document.querySelectorAll('#seat-0 .hand img')]
          .every((img) => img.complete && img.naturalWidth > 0)""")
        shown = page.evaluate(SOURCES)
        assert len(shown) == len(st["observation"]["hand"]) == 10
        folder = "/static/cards/ru/" if lang == "ru" else "/static/cards/"
        for token, path, loaded in shown:
            assert path == f"{folder}{token}.svg" and loaded, (token, path, loaded)
        page.locator("#seat-0 .hand").screenshot(path=str(artifacts / f"deck-hand-{lang}.png"))
    finally:
        context.close()
