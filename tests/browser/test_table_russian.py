"""The web table in Russian: the page's <html lang> chooses the catalogue that static/i18n.js
loads from GET /i18n/ru.js (made from ui.po), and a whole deal reads in Russian — bidding,
talon and discard, play, the sheet — with the .po's plural forms in the page's own t().

The page's language is set as a Russian page would have it (``<html lang="ru">``, set
before the modules run); ``?lang=ru`` is passed too, for the server's own choice.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from table_driver import new_game, phase, seed_where, step, wait_settled

pytestmark = pytest.mark.browser

RUSSIAN_PAGE = """document.addEventListener("readystatechange", () => {
  if (document.readyState === "interactive") document.documentElement.lang = "ru";
});"""
LATIN_ALLOWED = {"P"}  # the monogram on the backs of the cards
"""Latin words the table may show in Russian (the card faces' own A K Q J are images)."""
CARDS_AND_MARKS = re.compile(r"(?:10|[2-9TJQKA])[♠♣♦♥]")


def open_russian(page: Any, base_url: str, game_id: str) -> dict[str, Any]:
    page.add_init_script(RUSSIAN_PAGE)
    page.goto(f"{base_url}/table/{game_id}?lang=ru")
    return wait_settled(page)


def english_words(page: Any) -> set[str]:
    """Latin words in the table's visible text (cards written as 7♠ aside).  The rule set's
    title and description are the server's (``rules_title``, ``rules_doc``, the house rules:
    English until the server speaks the page's language), so they are left out."""
    text = page.locator("#app").inner_text()
    for block in page.locator(".rules-block").all_inner_texts():
        text = text.replace(block, " ")
    text = CARDS_AND_MARKS.sub(" ", text)
    title = page.evaluate("() => (window.preferansTable.state || {}).rules_title || ''")
    return set(re.findall(r"[A-Za-z][A-Za-z'-]+", text)) - LATIN_ALLOWED - set(title.split())


def test_the_catalogue_comes_from_the_po_and_counts_in_russian(page: Any,
                                                                 live_server: LiveServer) -> None:
    game = new_game(page, live_server.url, seed=77)
    open_russian(page, live_server.url, game)
    got = page.evaluate("""async () => {
      const i18n = await import("/static/i18n.js");
      const counts = [1, 2, 5, 11, 21, 22, 25];
      return { language: i18n.language(),
               tricks: counts.map((count) => i18n.t("plate.tricks", { count })),
               cards: counts.map((count) => i18n.t("seat.cards", { count })) };
    }""")
    assert got["language"] == "ru"
    assert got["tricks"] == ["1 взятка", "2 взятки", "5 взяток", "11 взяток", "21 взятка",
                             "22 взятки", "25 взяток"]
    assert got["cards"] == ["1 карта", "2 карты", "5 карт", "11 карт", "21 карта", "22 карты",
                            "25 карт"]
    assert page.locator("#menu-button").get_attribute("aria-label") == "Меню"
    page.locator("#menu-button").click()
    assert page.locator('#menu [data-menu="sound"]').inner_text() == "Звук: вкл."


def test_a_whole_deal_in_russian(page: Any, live_server: LiveServer, artifacts: Path) -> None:
    game = new_game(page, live_server.url, seed=seed_where(lambda s: s[0] >= 24))
    st = open_russian(page, live_server.url, game)
    status = page.locator("#status")
    seen: dict[str, str] = {}
    wanted = {"auction", "discard", "contract", "defence", "play", "sheet"}
    for _ in range(600):  # deal after deal until every phase has been read
        now = "sheet" if st["deal_over"] else phase(st)
        if now not in seen:
            seen[now] = status.inner_text()
            page.screenshot(path=str(artifacts / f"ru-deal-{now}.png"))
            assert not english_words(page), (now, english_words(page))
        if (st["deal_over"] and wanted <= set(seen)) or st["game_over"]:
            break
        st = step(page, st, bid=True)
    assert wanted <= set(seen), sorted(seen)
    assert seen["auction"] == "Ваше слово: выберите заявку в таблице."
    assert seen["discard"] == "Выберите две карты в снос и нажмите СНЕСТИ."
    assert seen["defence"] == "Вист или пас?"
    assert seen["play"].startswith("Ваш ход: сыграйте карту")
    sheet = page.locator("#sheet-overlay")
    sheet.wait_for(state="visible")
    text = sheet.inner_text()
    assert re.search(r"Раздача \d+ сыграна", text), text
    # The deal's line is the server's own summary written in Russian from the deal's notes
    # (what was scored: pool, mountain, whists), not the page's thinner fallback.
    last = st["last_entry"]
    assert last["summary_lang"] == "ru", last
    line = sheet.locator(".summary").first.inner_text()
    assert line == last["summary"], (line, last["summary"])
    assert re.search(r"(Вы|Миша|Лена).*(в пулю|в гору)|Распасы", line), line
    assert not re.search(r"\b(?:You|Misha|Lena|pool|mountain|whists?)\b", line), line
    for name in ("Миша", "Лена"):
        assert name in page.locator("#app").inner_text()
    # The sheet's totals page and the in-game help, in Russian too.
    page.locator('[data-tab="totals"]').click()
    assert not english_words(page), english_words(page)
    page.screenshot(path=str(artifacts / "ru-deal-totals.png"))
    page.keyboard.press("Escape")


@pytest.mark.parametrize(("settings", "names"), [
    ({"players": 4}, ["Вы", "Миша", "Саша", "Лена"]),
    ({"rules": "two-player"}, ["Вы", "Миша", "Болван"]),
])
def test_the_players_names_in_russian(page: Any, live_server: LiveServer,
                                      settings: dict[str, Any], names: list[str]) -> None:
    """The server names the seats in English (You, Misha, Sasha, Lena, the Dummy); the
    page writes them as the catalogue has them."""
    game = new_game(page, live_server.url, seed=3, **settings)
    open_russian(page, live_server.url, game)
    plates = page.locator(".seat .name").all_inner_texts()
    assert sorted(plates) == sorted(names), plates
    assert not english_words(page), english_words(page)
