"""Friends' names at a phone's width and in the table's words (issue 47, "Words"): the
longest names the form allows (20 characters, Latin and Cyrillic, the widest letters) never
push a 390 px page wider than the screen (join, lobby, each seat's table, the sheet, the
chat, the help); the "?" help names the real neighbours; the name form guesses «он / она»
from the name and keeps the player's own choice.  Screenshots ``test-artifacts/names-*.png``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from friends_driver import shot as take_shot
from table_driver import new_game, open_table

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
WIDTH = """() => ({width: document.documentElement.clientWidth,
                  scroll: document.documentElement.scrollWidth,
                  body: document.body.scrollWidth})"""
LATIN = ["WWWWWWWWWWWWWWWWWWWW", "Maximilian-Alexander", "Anastasia Alexandrov"]
CYRILLIC = ["ЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖ", "Анастасия-Александра", "Константин Кузнецов"]


def shot(page: Any, artifacts: Path, name: str) -> None:
    take_shot(page, artifacts, f"names-{name}")


WIDEST = """() => [...document.querySelectorAll("body *")]
  .filter((n) => n.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
  .slice(0, 6)
  .map((n) => `${n.tagName}.${n.className} ${Math.round(n.getBoundingClientRect().right)}`)"""


def fits(page: Any, where: str) -> None:
    size = page.evaluate(WIDTH)
    assert size["scroll"] <= size["width"] == 390 and size["body"] <= 390, (
        where, size, page.evaluate(WIDEST))


def phones(browser: Any, lang: str, count: int = 3) -> list[Any]:
    contexts = [browser.new_context(locale="ru-RU" if lang == "ru" else "en-GB", **PHONE)
                for _ in range(count)]
    pages = []
    for context in contexts:
        context.set_default_timeout(15_000)
        page = context.new_page()
        page.errors = []  # type: ignore[attr-defined]
        page.on("pageerror", lambda error, page=page: page.errors.append(str(error)))
        pages.append(page)
    return pages


@pytest.mark.parametrize(("lang", "names"), [("en", LATIN), ("ru", CYRILLIC)])
def test_the_longest_names_fit_a_phone(browser: Any, live_server: LiveServer, artifacts: Path,
                                       lang: str, names: list[str]) -> None:
    base = live_server.url
    pages = phones(browser, lang)
    try:
        host, second, third = pages
        made = host.request.post(f"{base}/api/friends", data={
            "name": names[0], "seats": ["friend", "friend"], "rules": "sochi", "pool": 10})
        assert made.status == 201, made.text()
        game, invite = made.json()["id"], made.json()["invite"]
        # the second friend types the longest name on the invite's page
        second.goto(f"{base}{invite}?lang={lang}")
        second.locator("#name").fill(names[1])
        fits(second, "join")
        shot(second, artifacts, f"join-{lang}")
        second.locator("#take-seat").click()
        second.wait_for_url("**/lobby/*")
        code = invite.rsplit("/", 1)[1]
        joined = third.request.post(f"{base}/api/friends/{game}/join",
                                    data={"code": code, "seat": 2, "name": names[2]})
        assert joined.status == 200, joined.text()
        host.goto(f"{base}/lobby/{game}?lang={lang}")
        host.wait_for_function("(n) => document.getElementById('seats').innerText.includes(n)",
                               arg=names[2])
        fits(host, "lobby")
        shot(host, artifacts, f"lobby-{lang}")
        assert host.request.post(f"{base}/api/friends/{game}/start", data={}).status == 200

        for seat, page in enumerate(pages):
            if "/lobby/" in page.url:  # a lobby goes to the table by itself: never two
                page.wait_for_url(f"**/table/{game}")  # navigations racing
            else:
                page.goto(f"{base}/table/{game}?lang={lang}")
            page.wait_for_function("() => window.preferansTable && window.preferansTable.state")
            page.wait_for_timeout(500)
            fits(page, f"table of seat {seat}")
            # the plate keeps the whole name as its title, and the bottom plate is its own
            assert page.locator("#seat-0 .plate .name").get_attribute("title") == names[seat]
        shot(second, artifacts, f"table-{lang}")

        second.locator("#score-chip").click()
        second.wait_for_selector("#sheet-overlay:not([hidden])")
        second.wait_for_timeout(300)
        fits(second, "sheet")
        shot(second, artifacts, f"sheet-{lang}")
        second.keyboard.press("Escape")

        second.locator("#chat-button").click()
        second.locator("#chat-text").fill("WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW")
        second.keyboard.press("Enter")
        host.wait_for_function("() => document.getElementById('chat-log')"
                               " && document.getElementById('chat-log').children.length > 0")
        fits(second, "chat")
        shot(second, artifacts, f"chat-{lang}")
        second.keyboard.press("Escape")

        second.locator("#help-button").click()
        assert names[2] in second.locator('[data-help="table.seats"]').inner_text()
        fits(second, "help")
        shot(second, artifacts, f"help-{lang}")
        for page in pages:
            assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        for page in pages:
            page.context.close()


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "You sit at the bottom, Anna on your left and Вера on your right"),
    ("ru", "Вы сидите внизу, Anna слева, Вера справа")])
def test_the_help_at_a_friends_table_names_the_real_neighbours(
        browser: Any, live_server: LiveServer, lang: str, words: str) -> None:
    """Boris sits at seat 1 between Вера (seat 0, on his right) and Anna (seat 2, on his
    left): his "?" says so, never the computer's Misha and Lena."""
    base = live_server.url
    pages = phones(browser, lang, 3)
    try:
        made = pages[0].request.post(f"{base}/api/friends", data={
            "name": "Вера", "seats": ["friend", "friend"], "rules": "sochi", "pool": 10})
        game, code = made.json()["id"], made.json()["invite"].rsplit("/", 1)[1]
        for seat, name in ((1, "Boris"), (2, "Anna")):
            joined = pages[seat].request.post(f"{base}/api/friends/{game}/join",
                                              data={"code": code, "seat": seat, "name": name})
            assert joined.status == 200, joined.text()
        assert pages[0].request.post(f"{base}/api/friends/{game}/start", data={}).status == 200
        boris = pages[1]
        boris.goto(f"{base}/table/{game}?lang={lang}")
        boris.wait_for_function("() => window.preferansTable && window.preferansTable.state")
        boris.locator("#help-button").click()
        line = boris.locator('[data-help="table.seats"]').inner_text()
        assert line.startswith(words), line
        for computer in ("Misha", "Lena", "Миша", "Лена"):
            assert computer not in line, line
    finally:
        for page in pages:
            page.context.close()


def test_the_help_at_a_table_against_the_computer_names_its_players(
        ru_page: Any, live_server: LiveServer) -> None:
    open_table(ru_page, live_server.url, new_game(ru_page, live_server.url))
    ru_page.locator("#help-button").click()
    line = ru_page.locator('[data-help="table.seats"]').inner_text()
    assert line.startswith("Вы сидите внизу, Миша слева, Лена справа"), line


def test_the_name_form_guesses_he_or_she_and_keeps_a_choice(
        browser: Any, live_server: LiveServer, artifacts: Path) -> None:
    base = live_server.url
    host, friend = phones(browser, "ru", 2)
    try:
        host.goto(f"{base}/?lang=ru")
        host.locator("#play-friends").click()
        checked = "#friends-address input[name=gender]:checked"
        for name, form in (("Вера", "f"), ("Никита", "m"), ("Anna", "f"), ("Boris", "m"),
                           ("Саша", "m"), ("Наталья", "f")):
            host.locator("#friends-name").fill(name)
            assert host.locator(checked).get_attribute("value") == form, name
        # Женя: the guess is «он»; she taps «она», and typing on keeps her choice
        host.locator("#friends-name").fill("Женя")
        assert host.locator(checked).get_attribute("value") == "m"
        host.locator("#friends-address label.choice").nth(1).click()
        host.locator("#friends-name").fill("Женя К.")
        assert host.locator(checked).get_attribute("value") == "f"
        host.select_option("#friends-seat-1", "friend")
        host.select_option("#friends-seat-2", "easy")
        shot(host, artifacts, "address-create")
        host.locator("#create-friends").click()
        host.wait_for_url("**/lobby/*")
        invite = host.locator("#invite-link").input_value()

        # a friend called Вера is «она» without touching anything
        friend.goto(invite)
        friend.locator("#name").fill("Вера")
        assert friend.locator("#join-address input[name=gender]:checked").get_attribute(
            "value") == "f"
        shot(friend, artifacts, "address-join")
        friend.locator("#take-seat").click()
        friend.wait_for_url("**/lobby/*")
        host.wait_for_function("() => !document.getElementById('start').disabled")
        host.locator("#start").click()
        host.wait_for_url("**/table/*")
        host.wait_for_function("() => window.preferansTable && window.preferansTable.state")
        st = host.evaluate("() => window.preferansTable.state")
        assert st["names"][:2] == ["Женя К.", "Вера"] and st["genders"][:2] == ["f", "f"], st
        for page in (host, friend):
            assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        host.context.close()
        friend.context.close()


@pytest.mark.parametrize(("lang", "said"), [("en", "The cards are dealt; you deal."),
                                            ("ru", "Карты сданы; сдаёте вы.")])
def test_the_replay_says_you_deal_not_you_deals(page: Any, live_server: LiveServer,
                                               lang: str, said: str) -> None:
    from test_review_pages import finished_game

    game_id = f"youDeal{lang}"
    table = finished_game(live_server, page, game_id, seed=12)
    number = next(k for k, deal in enumerate(table.game.finished_deals, 1) if deal.dealer == 0)
    page.goto(f"{live_server.url}/replay/{game_id}?lang={lang}#deal={number}")
    caption = page.locator("#replay-caption")
    caption.wait_for()
    assert caption.inner_text() == said
