"""The game's pages for a Russian-speaking browser (issue 17): a browser context whose locale is
ru-RU and whose Accept-Language asks for Russian gets every page in Russian, with
``<html lang="ru">`` and the RU / EN switch; the visible text holds no English word outside a
short whitelist.  Screenshots: ``test-artifacts/ru-*.png``.

The table's own drawing (status lines, bidding grid, sheet) is the table's script's catalogue;
:func:`test_a_whole_deal_in_russian` checks it and is skipped, with the reason, while that
catalogue is not Russian yet (it looks at what the script wrote, not at a route's name).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from table_driver import new_game, open_table, phase, play_until, wait_settled

pytestmark = pytest.mark.browser

WHITELIST = {"RU", "EN", "PDF", "SVG", "HTML", "JSON"}
"""Latin words a Russian page may show: the switch's labels, file formats."""
ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")


def english_words(text: str) -> set[str]:
    """The Latin-letter words of a visible text outside the whitelist."""
    return {w for w in ENGLISH_WORD.findall(text) if w not in WHITELIST}


def visible_text(page: Any) -> str:
    return page.evaluate("() => document.body.innerText")


def assert_russian(page: Any, where: str) -> str:
    """The page is in Russian: <html lang="ru">, the switch with RU current, Cyrillic text,
    no English word outside the whitelist."""
    assert page.evaluate("() => document.documentElement.lang") == "ru", where
    switch = page.locator("#lang-switch")
    assert switch.count() == 1, where
    assert switch.locator('a[data-lang="ru"]').get_attribute("aria-current") == "true", where
    text = visible_text(page)
    assert re.search(r"[А-Яа-яЁё]{4,}", text), where
    assert not english_words(text), (where, sorted(english_words(text)))
    return text


def test_the_settings_page_and_the_house_rules_editor_in_russian(
        ru_page: Any, live_server: LiveServer, artifacts: Path) -> None:
    page = ru_page
    page.goto(live_server.url + "/")
    text = assert_russian(page, "settings")
    for words in ("ИГРАТЬ", "Сила соперников", "Сочинка", "Ленинградка", "Пуля", "Миши"):
        assert words.lower() in text.lower(), words
    assert page.locator("#guide-link").get_attribute("href") == "/guide?lang=ru"
    page.screenshot(path=str(artifacts / "ru-settings.png"))

    # Every rule set, the house-rules editor with every option's description and values.
    page.locator("#more-rules-summary").click()
    page.locator('#rules label.choice:has(input[value="sochi"])').click()
    page.locator("#house-rules-button").click()
    page.locator("#house-rules").wait_for(state="visible")
    assert page.locator("#house-title").text_content() == "Домашние правила: Сочинка"
    row = page.locator('.option[data-option="stalingrad"]')
    assert row.locator("label").inner_text().startswith("Сталинград")
    assert "шести пик" in row.locator(".doc").inner_text()
    whist = page.locator("#opt-whist")
    assert whist.locator("option").all_inner_texts() == ["жлобский", "джентльменский"]
    page.locator("#opt-stalingrad").check()
    assert "Сочинка: нет" in row.locator(".was").inner_text()
    assert page.locator("#house-count").inner_text() == "1 домашнее правило: Сталинград"
    page.locator("#opt-jump_bids").click()
    assert page.locator("#house-count").inner_text().startswith("2 домашних правила:")
    page.locator("#opt-allpass_min_bid").fill("6, 11")
    problem = page.locator('.option[data-option="allpass_min_bid"] .field-error')
    assert "каждое число от 6 до 10" in problem.inner_text()
    text = assert_russian(page, "house rules editor")
    assert "Селезнёвка" in text and "Разбойник, короткий список" in text
    page.locator("#house-rules").screenshot(path=str(artifacts / "ru-house-rules.png"))
    page.locator("#more-rules-box").screenshot(path=str(artifacts / "ru-more-rules.png"))
    page.locator("#reset-rules").click()


def boxes_overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


def test_the_switch_on_a_phone(browser: Any, live_server: LiveServer, artifacts: Path) -> None:
    """On a phone the switch stays clear of the page's heading and its first choices."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="ru-RU",
                                  extra_http_headers={"Accept-Language": "ru"},
                                  device_scale_factor=2, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        for path, heading in (("/", "#settings h1"), ("/stats", "main h1")):
            page.goto(live_server.url + path)
            switch = page.locator("#lang-switch").bounding_box()
            assert switch is not None and switch["x"] + switch["width"] <= 360
            for selector in (heading, "main .lead"):
                box = page.locator(selector).first.bounding_box()
                assert box is not None and not boxes_overlap(switch, box), (path, selector)
            name = "ru-settings-phone.png" if path == "/" else "ru-stats-phone.png"
            page.screenshot(path=str(artifacts / name))
    finally:
        context.close()


def test_statistics_notfound_and_the_switch_in_russian(
        ru_page: Any, live_server: LiveServer, artifacts: Path) -> None:
    page = ru_page
    page.goto(live_server.url + "/stats")
    text = assert_russian(page, "statistics")
    for words in ("Статистика", "Средний итог", "Сыгранные игры", "Лёгкий", "Безумный",
                  "Итог каждой пули"):
        assert words.lower() in text.lower(), words
    legend = page.locator("#plot-results figcaption").inner_text()
    assert "доигранных пуль пока нет" in legend
    page.screenshot(path=str(artifacts / "ru-stats.png"), full_page=True)

    page.goto(live_server.url + "/no/such/page")
    text = assert_russian(page, "notfound")
    assert "По этому адресу ничего нет." in text and "К НАСТРОЙКАМ" in text
    page.screenshot(path=str(artifacts / "ru-notfound.png"))

    # The replay viewer's page: the server's part (its frame) in Russian, the switch there.
    page.goto(live_server.url + "/replay")
    assert page.evaluate("() => document.documentElement.lang") == "ru"
    assert page.locator("#lang-switch").count() == 1
    assert page.title() == "Преферанс — Повтор"
    page.locator("#replay-start").wait_for(state="visible")  # drawn by the viewer's script
    page.screenshot(path=str(artifacts / "ru-replay.png"))

    # The rules guide: Russian for a Russian browser, its switch to the English one.
    page.goto(live_server.url + "/guide")
    assert page.evaluate("() => document.documentElement.lang") == "ru"
    assert page.locator("#lang-switch").get_attribute("href") == "/guide?lang=en"
    page.screenshot(path=str(artifacts / "ru-guide.png"))

    # The switch keeps the page, and the choice is kept in the cookie.
    page.goto(live_server.url + "/stats")
    page.locator('#lang-switch a[data-lang="en"]').click()
    page.wait_for_url(re.compile(r"/stats\?lang=en$"))
    assert page.evaluate("() => document.documentElement.lang") == "en"
    assert "Average result" in visible_text(page)
    page.goto(live_server.url + "/stats")  # Accept-Language says ru, the cookie en
    assert page.evaluate("() => document.documentElement.lang") == "en"
    page.goto(live_server.url + "/stats?lang=ru")
    assert_russian(page, "statistics again")


def test_another_browsers_game_in_russian(ru_page: Any, browser: Any, live_server: LiveServer,
                                          artifacts: Path) -> None:
    owner = browser.new_context(locale="en-GB")
    try:
        game = new_game(owner.new_page(), live_server.url)
    finally:
        owner.close()
    page = ru_page
    response = page.goto(f"{live_server.url}/table/{game}")
    assert response is not None and response.status == 403
    text = assert_russian(page, "another browser's game")
    assert "Партия другого браузера" in text and "в другом браузере" in text
    page.screenshot(path=str(artifacts / "ru-not-yours.png"))


def test_the_table_page_in_russian(ru_page: Any, live_server: LiveServer,
                                   artifacts: Path) -> None:
    """The parts of the table page the server writes: the language, the title, the switch in
    the menu (it keeps the table), the seats' labels, the guide link."""
    page = ru_page
    game = new_game(page, live_server.url)
    open_table(page, live_server.url, game)
    assert page.evaluate("() => document.documentElement.lang") == "ru"
    assert page.title() == "Преферанс — стол"
    assert page.locator("#seat-1").get_attribute("aria-label") == "Миша, слева от вас"
    assert page.locator("#seat-2").get_attribute("aria-label") == "Лена, справа от вас"
    page.locator("#menu-button").click()
    switch = page.locator("#menu #lang-switch")
    switch.wait_for(state="visible")
    assert switch.locator('a[data-lang="ru"]').get_attribute("aria-current") == "true"
    assert page.locator('#menu a[href="/guide?lang=ru&preset=sochi&pool=10"]').count() == 1
    page.screenshot(path=str(artifacts / "ru-table-menu.png"))
    switch.locator('a[data-lang="en"]').click()
    page.wait_for_url(re.compile(rf"/table/{game}\?lang=en$"))
    wait_settled(page)
    assert page.evaluate("() => document.documentElement.lang") == "en"
    assert page.locator("#seat-1").get_attribute("aria-label") == "Misha, on your left"
    page.goto(f"{live_server.url}/table/{game}?lang=ru")
    wait_settled(page)


TABLE_SPEAKS_RUSSIAN = """() => {
  const item = document.querySelector('#menu [data-menu="new"]');
  return !!item && /[А-Яа-яЁё]/.test(item.textContent);
}"""


def test_a_whole_deal_in_russian(ru_page: Any, live_server: LiveServer,
                                 artifacts: Path) -> None:
    """A whole deal at the table in Russian: bidding, talon, discard, whist, play, the sheet.
    Needs the table script's Russian catalogue (another branch of issue 17): skipped until the
    script writes its menu in Russian."""
    page = ru_page
    game = new_game(page, live_server.url, seed=7)
    st = open_table(page, live_server.url, game)
    if not page.evaluate(TABLE_SPEAKS_RUSSIAN):
        pytest.skip("the table's script does not speak Russian yet (its catalogue is English: "
                    "the lead enables this once the table's Russian strings are merged)")
    seen: list[str] = []

    def look(st: dict[str, Any]) -> bool:
        text = visible_text(page)
        seen.append(phase(st))
        assert not english_words(text), (phase(st), sorted(english_words(text)))
        return st["deal_over"]

    st = play_until(page, st, look, bid=True)
    page.screenshot(path=str(artifacts / "ru-deal-over.png"))
    overlay = page.locator("#sheet-overlay")
    if not overlay.is_visible():
        page.locator("#score-chip").click()
    overlay.wait_for(state="visible")
    assert not english_words(visible_text(page))
    page.screenshot(path=str(artifacts / "ru-sheet.png"))
