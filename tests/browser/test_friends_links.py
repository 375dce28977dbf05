"""A two-player table for friends in three real browsers, and its watch-only link: Anna
(a desktop, English) makes a two-player table on the settings page, Boris (a phone, Russian)
opens the invite link and sits down, Anna starts; Vera (a third browser) opens the watch-only
link Anna copies from the table's menu and sees the public table only; the two humans play a
whole deal with the dummy; Anna makes a new watch link and Vera's page says the old one no
longer works; Boris's statistics list the table from his own seat.  Screenshots in
``test-artifacts/friends-link-*.png``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from friends_driver import play_deal
from friends_driver import shot as take_shot
from table_driver import state

pytestmark = pytest.mark.browser


def shot(page: Any, artifacts: Path, name: str) -> None:
    take_shot(page, artifacts, f"friends-link-{name}")


def open_menu_item(page: Any, item: str) -> None:
    page.locator("#menu-button").click()
    page.locator(f'#menu [data-menu="{item}"]').click()


def test_a_two_player_table_for_friends_and_its_watch_only_link(
        page: Any, browser: Any, live_server: LiveServer, artifacts: Path) -> None:
    base = live_server.url
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # Anna chooses the two-player game and PLAY WITH FRIENDS: one other seat, a friend
    page.goto(base + "/?lang=en")
    page.locator("#more-rules-summary").click()  # the other rule sets, behind "More rules…"
    page.locator('label.preset-row:has(input[value="two-player"])').click()
    page.locator("#play-friends").click()
    page.locator("#friends-name").fill("Anna")
    assert page.locator("#friends-seat-1").is_visible()
    assert not page.locator("#friends-seat-2").is_visible()
    assert not page.locator("#friends-seat-3").is_visible()
    shot(page, artifacts, "settings-two-player")
    page.locator("#create-friends").click()
    page.wait_for_url("**/lobby/*")
    invite = page.locator("#invite-link").input_value()
    watch = page.locator("#watch-link").input_value()
    assert "/join/" in invite and "/watch/" in watch
    assert watch.rsplit("/", 1)[1] != invite.rsplit("/", 1)[1]
    shot(page, artifacts, "lobby-host")

    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                has_touch=True, locale="ru-RU",
                                extra_http_headers={"Accept-Language": "ru-RU,ru;q=0.9"})
    desk = browser.new_context(viewport={"width": 1280, "height": 800})
    for context in (phone, desk):
        context.set_default_timeout(15_000)
    try:
        boris = phone.new_page()
        boris.on("pageerror", lambda error: errors.append(str(error)))
        vera = desk.new_page()
        vera.on("pageerror", lambda error: errors.append(str(error)))
        # before the start the watch link says so, and takes no seat
        vera.goto(watch + "?lang=en")
        assert "has not started yet" in vera.locator("main").inner_text()
        boris.goto(invite)
        boris.locator("#name").fill("Борис")
        boris.locator("#take-seat").click()
        boris.wait_for_url("**/lobby/*")
        shot(boris, artifacts, "lobby-guest-phone")
        page.wait_for_function("() => !document.getElementById('start').disabled")
        page.locator("#start").click()
        page.wait_for_url("**/table/*")
        boris.wait_for_url("**/table/*", timeout=10_000)
        for who in (page, boris):
            who.wait_for_function("() => window.preferansTable && window.preferansTable.state")
        mine, his = state(page), state(boris)
        assert (mine["seat"], his["seat"]) == (0, 1) and mine["dummy"] == 2
        assert mine["names"] == ["Anna", "Борис"]
        assert page.locator("#seat-0 .plate .name").inner_text() == "Anna"
        assert boris.locator("#seat-0 .plate .name").inner_text() == "Борис"
        assert boris.locator("#seat-1 .plate .name").inner_text() == "Anna"
        # only the creator's page has the watch link, in its menu
        assert mine["watch"] and his["watch"] is None
        open_menu_item(page, "watch_copy")
        code = mine["watch"].rsplit("/", 1)[1]
        page.wait_for_function(  # the copy is written to the status line once it is done
            "(code) => document.getElementById('status').textContent.includes(code)", arg=code)
        status = page.locator("#status").inner_text()
        assert code in status, status
        boris.locator("#menu-button").click()
        assert boris.locator('#menu [data-menu="watch_copy"]').count() == 0
        boris.locator("#menu-button").click()

        # Vera watches: the public table, no hand of her own, no seat
        vera.goto(base + mine["watch"] + "?lang=en")
        vera.wait_for_function("() => window.preferansTable && window.preferansTable.state")
        public = state(vera)
        assert public["seat"] is None and public["observation"]["hand"] == []
        assert public["watch"] is None
        assert invite.rsplit("/", 1)[1] not in vera.content()
        shot(vera, artifacts, "watcher")

        play_deal({"host": page, "phone": boris},
                  first_card=lambda name, who: shot(who, artifacts, f"play-{name}"))
        vera.wait_for_function("() => window.preferansTable.state.deal_over")
        assert state(vera)["seat"] is None
        # the spectator deals nothing on; the finished deal's analysis is open to him
        vera.wait_for_selector("#sheet-overlay:not([hidden])")
        assert vera.locator('[data-action="NEXT DEAL"]').count() == 0
        assert "players deal the next one" in vera.locator("#status").inner_text()
        vera.locator('#sheet-overlay [data-tab="analysis"]').click()
        vera.wait_for_function("""() => {
            const box = document.querySelector('[data-analysis="table"]');
            return box && !box.querySelector('.analysis-wait'); }""", timeout=30_000)
        assert vera.locator(".analysis-failed").count() == 0
        shot(vera, artifacts, "analysis-watcher")
        vera.locator('#sheet-overlay [data-tab="pulya"]').click()
        shot(page, artifacts, "deal-over-host")
        shot(boris, artifacts, "deal-over-phone")
        shot(vera, artifacts, "deal-over-watcher")

        # Anna makes a new watch link: Vera's page says the old one stopped working
        open_menu_item(page, "watch_new")
        page.wait_for_function("(old) => window.preferansTable.state.watch !== old",
                               arg=mine["watch"])
        assert "old one no longer works" in page.locator("#status").inner_text()
        vera.wait_for_selector("#connection:not([hidden])")
        assert "new watch link" in vera.locator("#connection").inner_text()
        vera.wait_for_function("""() => document.getElementById('status').textContent
            .includes('no longer connected')""")
        shot(vera, artifacts, "watch-changed")
        vera.goto(base + mine["watch"] + "?lang=en")
        assert "no longer works" in vera.locator("main").inner_text()

        # Boris's statistics (Russian, on his phone) list the table from his own seat
        boris.goto(base + "/stats")
        listed = boris.locator("#friends-tables li")
        assert listed.count() == 1
        assert "Anna" in listed.inner_text() and "Борис" not in listed.inner_text()
        assert boris.locator("#friends-tables-title").text_content() == "Ваши столы с друзьями"
        boris.locator("#friends-tables").scroll_into_view_if_needed()
        shot(boris, artifacts, "stats-phone")
        vera.goto(base + "/stats?lang=en")
        assert vera.locator("#friends-tables").count() == 0
    finally:
        phone.close()
        desk.close()
    assert not errors, errors


def test_a_four_player_table_for_friends_seen_from_each_humans_seat(
        browser: Any, live_server: LiveServer, artifacts: Path) -> None:
    """Anna (a desktop) and Boris (a phone) sit opposite each other at a four-player table
    with two computers: each page draws its own seat at the bottom, the other human at the
    top, and the computers left and right as seen from there; they play a whole deal."""
    base = live_server.url
    desk = browser.new_context(viewport={"width": 1280, "height": 800})
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                has_touch=True)
    errors: list[str] = []
    try:
        anna, boris = desk.new_page(), phone.new_page()
        for who in (anna, boris):
            who.context.set_default_timeout(15_000)
            who.on("pageerror", lambda error: errors.append(str(error)))
        made = anna.request.post(f"{base}/api/friends", data={
            "name": "Anna", "seats": ["easy", "friend", "hard"], "rules": "sochi",
            "players": 4, "pool": 10, "seed": 8})
        assert made.status == 201, made.text()
        game, code = made.json()["id"], made.json()["invite"].rsplit("/", 1)[1]
        joined = boris.request.post(f"{base}/api/friends/{game}/join",
                                    data={"code": code, "seat": 2, "name": "Boris"})
        assert joined.status == 200, joined.text()
        assert anna.request.post(f"{base}/api/friends/{game}/start", data={}).status == 200
        for who in (anna, boris):
            who.goto(f"{base}/table/{game}?lang=en")
            who.wait_for_function("() => window.preferansTable && window.preferansTable.state")
        assert (state(anna)["seat"], state(boris)["seat"]) == (0, 2)
        plates = """() => [0, 1, 2, 3].map((k) => {
            const plate = document.querySelector(`#seat-${k} .plate .name`);
            return plate ? plate.textContent : null; })"""
        # bottom, left, top, right, each from the page's own seat
        assert anna.evaluate(plates) == ["Anna", "Misha", "Boris", "Lena"]
        assert boris.evaluate(plates) == ["Boris", "Lena", "Anna", "Misha"]
        shot(anna, artifacts, "four-host")
        shot(boris, artifacts, "four-phone")
        play_deal({"host": anna, "phone": boris})
        assert state(anna)["last_entry"]["kind"] == state(boris)["last_entry"]["kind"]
        shot(anna, artifacts, "four-deal-over-host")
        shot(boris, artifacts, "four-deal-over-phone")
    finally:
        desk.close()
        phone.close()
    assert not errors, errors
