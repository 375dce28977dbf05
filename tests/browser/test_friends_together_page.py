"""Three friends played together in real browsers (issue 47): Anna and Vera on desktops,
Boris on a phone in Russian.  The next deal waits for every friend's READY (who is ready
shown on every page; Boris's SEE THE TABLE closes only his own summary), a pause asked for is
shown to the friend whose turn it is, REMATCH waits for all three and takes every page to
the new game, and a friend who closes his page is marked away on the others' plates at once,
with the seconds left of his grace.  Screenshots ``test-artifacts/together-*.png``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from friends_driver import play_deal
from friends_driver import shot as take_shot
from table_driver import state

pytestmark = pytest.mark.browser

STATE = "window.preferansTable.state"


def shot(page: Any, artifacts: Path, name: str) -> None:
    take_shot(page, artifacts, f"together-{name}")


def test_three_friends_wait_for_each_other_between_deals_and_before_the_rematch(
        browser: Any, live_server: LiveServer, artifacts: Path) -> None:
    base = live_server.url
    desktop = {"viewport": {"width": 1280, "height": 800}}
    phone = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
             "locale": "ru-RU", "extra_http_headers": {"Accept-Language": "ru-RU,ru;q=0.9"}}
    contexts = [browser.new_context(**desktop), browser.new_context(**phone),
                browser.new_context(**desktop)]
    errors: list[str] = []
    try:
        pages = [context.new_page() for context in contexts]
        for who in pages:
            who.set_default_timeout(15_000)
            who.on("pageerror", lambda error: errors.append(str(error)))
        made = pages[0].request.post(f"{base}/api/friends", data={
            "name": "Anna", "seats": ["friend", "friend"], "rules": "sochi", "pool": 10,
            "seed": 9})
        assert made.status == 201, made.text()
        game, code = made.json()["id"], made.json()["invite"].rsplit("/", 1)[1]
        for seat, name in ((1, "Борис"), (2, "Vera")):
            joined = pages[seat].request.post(f"{base}/api/friends/{game}/join",
                                              data={"code": code, "seat": seat, "name": name})
            assert joined.status == 200, joined.text()
        assert pages[0].request.post(f"{base}/api/friends/{game}/start", data={}).status == 200
        for who in pages:
            who.goto(f"{base}/table/{game}")
            who.wait_for_function(f"() => window.preferansTable && {STATE}")
        anna, boris, vera = pages
        play_deal(dict(enumerate(pages)))
        for who in pages:
            who.wait_for_selector("#sheet-overlay:not([hidden]) .ready-block")

        # Anna is ready; Boris and Vera are still reading: nothing is dealt
        anna.locator('#sheet-body [data-action="NEXT DEAL"]').click()
        for who in pages:
            who.wait_for_function(f"() => ({STATE}.ready || []).join() === '0'")
        done = anna.locator('#sheet-body [data-action="NEXT DEAL"]')
        assert done.is_disabled() and done.inner_text() == "READY ✓"
        assert "waiting for Борис, Vera" in anna.locator(".ready-line").inner_text()
        marks = boris.locator(".ready-list li")
        assert marks.nth(0).get_attribute("data-ready") == "true"
        assert marks.nth(0).inner_text().replace("\n", " ") == "✓ Anna: готово"
        assert "Вы: ещё смотрите итоги" in marks.nth(1).inner_text()
        assert boris.locator('#sheet-body [data-action="NEXT DEAL"]').inner_text() == "ГОТОВО"
        shot(anna, artifacts, "ready-waiting-desktop")
        shot(boris, artifacts, "ready-reading-phone")
        assert state(vera)["deal_over"] and state(vera)["deal_number"] == 1

        # Boris looks at the table: his summary closes, nobody else's
        boris.locator('#sheet-body [data-action="CLOSE"]').click()
        assert boris.locator("#sheet-overlay").is_hidden()
        assert anna.locator("#sheet-overlay").is_visible()
        assert vera.locator("#sheet-overlay").is_visible()
        boris.locator('#panel [data-action="NEXT DEAL"]').click()  # his READY from the table
        vera.wait_for_function(f"() => ({STATE}.ready || []).join() === '0,1'")
        assert vera.locator("#sheet-overlay").is_visible()
        vera.locator('#sheet-body [data-action="NEXT DEAL"]').click()  # the last READY
        for who in pages:
            who.wait_for_function(f"() => {STATE}.deal_number === 2 && !{STATE}.deal_over")
            who.wait_for_selector("#sheet-overlay", state="hidden")

        # a pause asked for is shown to the friend whose turn it is
        first = state(anna)["observation"]["to_act"]
        asker = 1 if first != 1 else 0
        pages[asker].locator("#menu-button").click()
        pages[asker].locator('#menu [data-menu="pause"]').click()
        actor = pages[first]
        actor.wait_for_function(f"() => ({STATE}.pause_asked || []).length === 1")
        status = actor.locator("#status").inner_text()
        asked_by = "Борис" if asker == 1 else "Anna"
        assert f"{asked_by} asked for a pause" in status, status
        shot(actor, artifacts, "pause-asked-to-the-player-to-act")

        # all three agree to finish: REMATCH waits for every friend's READY
        for who in pages:
            who.locator("#menu-button").click()
            who.locator('#menu [data-menu="finish"]').click()
            who.keyboard.press("Escape")
        for who in pages:
            who.wait_for_function(f"() => {STATE}.game_over")
        anna.locator('#sheet-body [data-action="REMATCH"]').click()
        for who in pages:
            who.wait_for_function(f"() => ({STATE}.ready || []).join() === '0'")
        assert anna.locator('#sheet-body [data-action="REMATCH"]').is_disabled()
        assert "Новая партия начнётся" in boris.locator(".ready-line").inner_text()
        assert f"/table/{game}" in vera.url  # nobody was sent anywhere yet
        shot(anna, artifacts, "rematch-waiting-desktop")
        shot(boris, artifacts, "rematch-waiting-phone")
        boris.locator('#sheet-body [data-action="REMATCH"]').click()
        vera.wait_for_function(f"() => ({STATE}.ready || []).join() === '0,1'")
        vera.locator('#sheet-body [data-action="REMATCH"]').click()
        for who in pages:  # every page goes to the new game
            who.wait_for_url(lambda url: "/table/" in url and game not in url)
            who.wait_for_function(f"() => window.preferansTable && {STATE}"
                                  f" && !{STATE}.game_over")
        assert {state(who)["game_id"] for who in pages} != {game}

        # Vera closes her page: Anna's and Boris's plates mark her away at once
        vera.close()
        anna.wait_for_selector('#seat-2 .away-mark', timeout=3_000)
        left = int(anna.locator("#seat-2 .away-mark").get_attribute("data-left"))
        assert 25 <= left <= 30, left
        boris.wait_for_selector('#seat-1 .away-mark', timeout=3_000)
        assert "нет за столом" in boris.locator("#seat-1 .away-mark").inner_text()
        shot(anna, artifacts, "away-desktop")
        shot(boris, artifacts, "away-phone")
    finally:
        for context in contexts:
            context.close()
    assert not errors, errors
