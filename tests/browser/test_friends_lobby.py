"""The lobby of a table for friends, as its friends see it (issue 47): a friend whose lobby
page closes is shown away on the others' lobbies from the first second, with the seconds
left of the grace time counted down (no longer "joined"), and "joined" again when he is back;
a seated friend changes how the Russian sentences speak of him («он» / «она») in the lobby,
and at the table from its menu, and every page follows at once.  Screenshots in
``test-artifacts/lobby-*.png``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from friends_driver import shot as take_shot
from table_driver import state

pytestmark = pytest.mark.browser

STATE = "window.preferansTable.state"


def shot(page: Any, artifacts: Path, name: str) -> None:
    take_shot(page, artifacts, f"lobby-{name}")


def _table(page: Any, base: str, seats: list[str]) -> tuple[str, str]:
    made = page.request.post(f"{base}/api/friends", data={
        "name": "Anna", "seats": seats, "rules": "sochi", "pool": 10, "seed": 5})
    assert made.status == 201, made.text()
    return made.json()["id"], made.json()["invite"].rsplit("/", 1)[1]


def test_a_friend_who_leaves_the_lobby_is_shown_away_with_his_grace_counted_down(
        browser: Any, live_server: LiveServer, artifacts: Path) -> None:
    base = live_server.url
    desk = browser.new_context(viewport={"width": 1280, "height": 800})
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                has_touch=True, locale="ru-RU",
                                extra_http_headers={"Accept-Language": "ru-RU,ru;q=0.9"})
    boris_context = browser.new_context(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    try:
        anna = desk.new_page()
        anna_phone = phone.new_page()  # Anna's lobby open on her phone too (Russian)
        boris = boris_context.new_page()
        for who in (anna, anna_phone, boris):
            who.set_default_timeout(15_000)
            who.on("pageerror", lambda error: errors.append(str(error)))
        game, code = _table(anna, base, ["friend", "easy"])
        anna_phone.context.add_cookies(desk.cookies())
        boris.goto(f"{base}/join/{game}/{code}?lang=en")
        boris.locator("#name").fill("Boris")
        boris.locator("#take-seat").click()
        boris.wait_for_url("**/lobby/*")
        anna.goto(f"{base}/lobby/{game}?lang=en")
        anna_phone.goto(f"{base}/lobby/{game}?lang=ru")
        state_of_boris = anna.locator('#seats li[data-seat="1"] .state')
        assert state_of_boris.inner_text() == "joined"
        state_of_boris.scroll_into_view_if_needed()
        shot(anna, artifacts, "joined")

        boris.close()  # Boris leaves: away at once, the grace counted down
        anna.wait_for_selector('#seats [data-away="1"]', timeout=10_000)
        left = int(state_of_boris.get_attribute("data-left"))
        assert 0 < left <= 30, left
        # his page said it closed (not a visit missed): away from that second
        away = anna.evaluate(f"async () => (await (await fetch('/api/friends/{game}')).json())"
                             ".away")
        assert [(a["seat"], a["closed"]) for a in away] == [(1, True)], away
        assert state_of_boris.inner_text() == f"away · {left} s"
        anna.wait_for_function("""(first) => Number(document.querySelector(
            '#seats [data-away="1"]').dataset.left) < first""", arg=left)
        anna_phone.wait_for_selector('#seats [data-away="1"]', timeout=10_000)
        assert anna_phone.locator('#seats [data-away="1"]').inner_text().startswith(
            "нет на месте · ")
        assert anna_phone.evaluate("() => document.documentElement.scrollWidth") <= 390
        anna_phone.locator('#seats [data-away="1"]').scroll_into_view_if_needed()
        shot(anna, artifacts, "away-desktop")
        shot(anna_phone, artifacts, "away-phone-ru")

        back = boris_context.new_page()  # he comes back: "joined" again
        back.on("pageerror", lambda error: errors.append(str(error)))
        back.goto(f"{base}/lobby/{game}?lang=en")
        anna.wait_for_selector('#seats [data-away="1"]', state="detached", timeout=10_000)
        assert state_of_boris.inner_text() == "joined"
    finally:
        for context in (desk, phone, boris_context):
            context.close()
    assert not errors, errors


def test_a_seated_friend_changes_his_form_of_address_in_the_lobby_and_at_the_table(
        browser: Any, live_server: LiveServer, artifacts: Path) -> None:
    base = live_server.url
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800},
                                    locale="ru-RU", extra_http_headers={
                                        "Accept-Language": "ru-RU,ru;q=0.9"})
                for _ in range(2)]
    errors: list[str] = []
    try:
        anna, vera = (context.new_page() for context in contexts)
        for who in (anna, vera):
            who.set_default_timeout(15_000)
            who.on("pageerror", lambda error: errors.append(str(error)))
        game, code = _table(anna, base, ["friend", "easy"])
        joined = vera.request.post(f"{base}/api/friends/{game}/join", data={
            "code": code, "seat": 1, "name": "Женя", "gender": "m"})  # «он»: her name's guess
        assert joined.status == 200, joined.text()
        vera.goto(f"{base}/lobby/{game}?lang=ru")
        mine = vera.locator('#seats [data-address="1"]')
        assert mine.input_value() == "m"
        anna.goto(f"{base}/lobby/{game}?lang=ru")
        assert anna.locator('[data-address="1"]').count() == 0  # only her own seat
        assert anna.locator('[data-address="0"]').count() == 1
        mine.select_option("f")  # she changes it in the lobby
        vera.wait_for_function("""async (url) => (await (await fetch(url)).json())
            .seats[1].gender === 'f'""", arg=f"/api/friends/{game}")
        vera.reload()
        assert vera.locator('#seats [data-address="1"]').input_value() == "f"
        vera.set_viewport_size({"width": 390, "height": 844})  # on a phone too
        vera.locator('#seats [data-address="1"]').scroll_into_view_if_needed()
        assert vera.evaluate("() => document.documentElement.scrollWidth") <= 390
        shot(vera, artifacts, "address-chosen")
        vera.set_viewport_size({"width": 1280, "height": 800})

        # at the table she changes it back and forth from the menu: every page follows
        assert anna.request.post(f"{base}/api/friends/{game}/start", data={}).status == 200
        for who in (anna, vera):  # each lobby sees the start and goes to the table itself
            who.wait_for_url(f"**/table/{game}")
            who.wait_for_function(f"() => window.preferansTable && {STATE}")
        assert state(anna)["genders"][1] == "f"
        vera.locator("#menu-button").click()
        item = vera.locator('#menu [data-menu="address"]')
        assert item.inner_text() == "Обо мне говорить «он»"
        shot(vera, artifacts, "address-menu")
        item.click()
        for who in (anna, vera):
            who.wait_for_function(f"() => {STATE}.genders[1] === 'm'")
        vera.locator("#menu-button").click()
        assert vera.locator('#menu [data-menu="address"]').inner_text() == \
            "Обо мне говорить «она»"
        anna.locator("#menu-button").click()  # Anna's menu has her own, not Vera's
        assert anna.locator('#menu [data-menu="address"]').get_attribute("data-gender") == "m"
    finally:
        for context in contexts:
            context.close()
    assert not errors, errors
