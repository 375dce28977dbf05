"""The table's "?" gives the rules it plays in short (issue 35): the cards, the bid ladder
and where misère stands, the whist quotas, the contract values, all-pass and the sheet, with
the table's own figures (a Leningrad table: stakes ×1, ×2, ×4; mountain doubled); its guide
link carries the table's rules, and the printable guide opens with a line naming its own
profile and how the table's rules differ.  Both languages, laptop and phone.  Screenshots
``help-brief-*.png`` and ``guide-profile-*.png``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from table_driver import new_game, open_table

pytestmark = pytest.mark.browser

WORDS = {
    "en": ("The rules in short", "Leningrad", "×1, ×2, ×4", "ranks between 8NT and 9♠",
           "4 tricks against a 6", "Your table plays Leningrad, pulya 10"),
    "ru": ("Правила вкратце", "Ленинградка", "×1, ×2, ×4", "стоит между 8 БК и 9♠",
           "4 взятки против 6", "За вашим столом играют Ленинградка, пуля 10"),
}


@pytest.mark.parametrize(("lang", "width", "height"), [("en", 1280, 800), ("ru", 390, 844)])
def test_the_help_gives_the_tables_rules_in_short(browser: Any, live_server: LiveServer,
                                                  artifacts: Path, lang: str, width: int,
                                                  height: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": height},
                                  extra_http_headers={"Accept-Language": lang})
    try:
        page = context.new_page()
        game = new_game(page, live_server.url, rules={"preset": "leningrad"})
        open_table(page, live_server.url, game)
        page.locator("#help-button").click()
        brief = page.locator('#help-overlay [data-section="brief"]')
        brief.wait_for()
        head, title, stakes, misere, quota, _ = WORDS[lang]
        assert brief.locator("h3").inner_text().lower() == head.lower()
        items = brief.locator("li").all_inner_texts()
        assert len(items) == 6, items
        text = brief.inner_text()
        assert title in text and stakes in text and misere in text and quota in text, text
        doubled = {"en": "Mountain entries are multiplied by 2",
                   "ru": "Записи в гору умножаются на 2"}
        assert doubled[lang] in items[3], items[3]
        sections = page.locator("#help-overlay .help-section").evaluate_all(
            "els => els.map(e => e.dataset.section)")
        assert sections[:2] == ["table", "brief"], sections
        brief.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"help-brief-{lang}-{width}x{height}.png"))

        href = page.locator("#help-guide-link").get_attribute("href")
        assert href == f"/guide?lang={lang}&preset=leningrad&pool=10", href
        page.goto(live_server.url + href)
        line = page.locator("#profile")
        assert line.get_attribute("data-chosen") == "true"
        said = " ".join(line.inner_text().split())
        assert WORDS[lang][5] in said, said
        page.screenshot(path=str(artifacts / f"guide-profile-{lang}-{width}x{height}.png"))
    finally:
        context.close()
