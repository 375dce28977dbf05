"""A seat moved to another device mid-deal, in two real browser contexts for one seat
(issue 47): Boris plays on his desktop, copies "Open my seat on another device" from the
table's menu, opens it on his phone (Russian), confirms "take Boris's seat here?", and plays
on there; the desktop is told at once and only watches: from the message on, not one frame
it receives carries his cards.  Anna, the creator, makes a new seat link for him from her
menu, and the used one no longer works.  Screenshots in ``test-artifacts/seat-move-*.png``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from friends_driver import RECORD_FRAMES, play_deal, take_turn
from friends_driver import shot as take_shot
from table_driver import state

pytestmark = pytest.mark.browser


def shot(page: Any, artifacts: Path, name: str) -> None:
    take_shot(page, artifacts, f"seat-move-{name}")


def open_menu_item(page: Any, item: str) -> None:
    page.locator("#menu-button").click()
    page.locator(f'#menu [data-menu="{item}"]').click()


def test_a_seat_moves_to_a_second_device_mid_deal_and_the_first_only_watches(
        browser: Any, live_server: LiveServer, artifacts: Path) -> None:
    base = live_server.url
    desk_anna = browser.new_context(viewport={"width": 1280, "height": 800})
    desk_boris = browser.new_context(viewport={"width": 1280, "height": 800})
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                has_touch=True, locale="ru-RU",
                                extra_http_headers={"Accept-Language": "ru-RU,ru;q=0.9"})
    errors: list[str] = []
    try:
        anna, boris, boris_phone = desk_anna.new_page(), desk_boris.new_page(), phone.new_page()
        for who in (anna, boris, boris_phone):
            who.context.set_default_timeout(15_000)
            who.on("pageerror", lambda error: errors.append(str(error)))
        boris.add_init_script(RECORD_FRAMES)
        made = anna.request.post(f"{base}/api/friends", data={
            "name": "Anna", "seats": ["friend", "easy"], "rules": "sochi", "pool": 10,
            "seed": 33})
        assert made.status == 201, made.text()
        game, code = made.json()["id"], made.json()["invite"].rsplit("/", 1)[1]
        joined = boris.request.post(f"{base}/api/friends/{game}/join",
                                    data={"code": code, "seat": 1, "name": "Boris"})
        assert joined.status == 200, joined.text()
        # the lobby shows each his own seat link
        anna.goto(f"{base}/lobby/{game}?lang=en")
        boris.goto(f"{base}/lobby/{game}?lang=en")
        own = [who.locator("#device-link").input_value() for who in (anna, boris)]
        assert all("/seat/" in link for link in own) and own[0] != own[1]
        shot(boris, artifacts, "lobby")
        anna.locator("#start").click()
        for who in (anna, boris):
            who.wait_for_url("**/table/*", timeout=10_000)
            who.wait_for_function("() => window.preferansTable && window.preferansTable.state")
        # a few decisions of the deal, then Boris takes his seat to his phone
        for _ in range(12):
            st = state(boris)
            if st["seat"] == st["observation"]["to_act"] and st["observation"]["legal"]:
                take_turn(boris, st)
                boris.wait_for_function("(seq) => window.preferansTable.state.seq > seq",
                                        arg=st["seq"], timeout=30_000)
                break
            st = state(anna)
            if st["seat"] == st["observation"]["to_act"] and st["observation"]["legal"]:
                take_turn(anna, st)
                anna.wait_for_function("(seq) => window.preferansTable.state.seq > seq",
                                       arg=st["seq"], timeout=30_000)
            anna.wait_for_timeout(200)
        before = state(boris)
        assert before["seat"] == 1 and before["observation"]["hand"] and not before["deal_over"]
        assert state(anna)["device"] != before["device"]  # each page its own link
        open_menu_item(boris, "device_copy")
        link = base + before["device"]
        boris.wait_for_function(  # the copy is written to the status line once it is done
            "(link) => document.getElementById('status').textContent.includes(link)", arg=link)
        shot(boris, artifacts, "menu-copied")
        anna.locator("#menu-button").click()
        assert anna.locator('#menu [data-menu="seat_link_new"]').count() == 1
        assert boris.locator('#menu [data-menu="seat_link_new"]').count() == 0
        anna.locator("#menu-button").click()

        boris_phone.goto(link)
        question = boris_phone.locator("#seat-question").inner_text()
        assert question == "Занять здесь место игрока Boris? Другое устройство станет зрителем."
        shot(boris_phone, artifacts, "confirm-phone")
        boris.evaluate("() => { window.__mark = window.__frames.length; }")
        boris_phone.locator("#take-here").click()
        boris_phone.wait_for_url(f"**/table/{game}")
        boris_phone.wait_for_function(
            "() => window.preferansTable && window.preferansTable.state")
        assert state(boris_phone)["seat"] == 1 and state(boris_phone)["observation"]["hand"]
        # the desktop was told at once, and watches
        boris.wait_for_function("() => window.preferansTable.state.seat === null")
        status = boris.locator("#status").inner_text()
        assert "Boris's seat was opened on another device" in status, status
        assert f"/watch/{game}/" in boris.url
        assert state(boris)["observation"]["hand"] == []
        shot(boris, artifacts, "old-desktop-told")
        shot(boris_phone, artifacts, "phone-seated")

        play_deal({"host": anna, "phone": boris_phone})
        boris.wait_for_function("() => window.preferansTable.state.deal_over")
        frames = [json.loads(text) for text in boris.evaluate(
            "() => window.__frames.slice(window.__mark)")]
        kinds = [frame.get("type") for frame in frames]
        assert "seat_moved" in kinds, kinds
        after = frames[kinds.index("seat_moved") + 1:]
        states = [frame for frame in frames if frame.get("type") == "state"]
        assert len([f for f in after if f.get("type") == "state"]) > 5
        mine = {str(card).upper() for card in before["observation"]["hand"]}
        for frame in after:
            if frame.get("type") != "state":
                continue
            assert frame["seat"] is None and frame["observation"]["hand"] == []
            assert frame.get("device") is None
            if not frame["deal_over"]:  # no card of his hand but the ones played
                obs = frame["observation"]
                public = set(json.dumps([obs.get("tricks"), obs.get("trick")]).upper().split('"'))
                named = set(json.dumps(obs).upper().split('"'))
                assert obs["legal"] == [] and not ((mine & named) - public)
        assert states[-1]["deal_over"]
        shot(boris, artifacts, "old-desktop-deal-over")
        shot(boris_phone, artifacts, "phone-deal-over")

        # Anna makes Boris a new link (he lost it): the used one and the old new one stop
        open_menu_item(anna, "seat_link_new")
        anna.wait_for_function("""() => document.getElementById('status').textContent
            .includes('New seat link for Boris')""")
        renewed = anna.locator("#status").inner_text()
        assert "/seat/" in renewed and "no longer works" in renewed
        shot(anna, artifacts, "creator-new-link")
        stale = desk_boris.new_page()
        stale.goto(link + "?lang=en")
        assert "This seat link no longer works" in stale.locator("main").inner_text()
        shot(stale, artifacts, "stale-link")
    finally:
        for context in (desk_anna, desk_boris, phone):
            context.close()
    assert not errors, errors


def test_a_seat_moved_in_the_lobby_and_the_creators_new_link_for_a_friend(
        browser: Any, live_server: LiveServer, artifacts: Path) -> None:
    """Before the start: Boris opens his seat link on a second browser, his first lobby says
    the seat went to another device; Anna makes him a new link from her lobby."""
    base = live_server.url
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(3)]
    errors: list[str] = []
    try:
        anna, boris, tablet = (context.new_page() for context in contexts)
        for who in (anna, boris, tablet):
            who.context.set_default_timeout(15_000)
            who.on("pageerror", lambda error: errors.append(str(error)))
        made = anna.request.post(f"{base}/api/friends", data={
            "name": "Anna", "seats": ["friend", "easy"], "rules": "sochi", "pool": 10})
        assert made.status == 201, made.text()
        game, code = made.json()["id"], made.json()["invite"].rsplit("/", 1)[1]
        assert boris.request.post(f"{base}/api/friends/{game}/join", data={
            "code": code, "seat": 1, "name": "Boris"}).status == 200
        anna.goto(f"{base}/lobby/{game}?lang=en")
        boris.goto(f"{base}/lobby/{game}?lang=en")
        link = boris.locator("#device-link").input_value()
        tablet.goto(link + "?lang=en")
        assert tablet.locator("#seat-question").inner_text() == (
            "Take Boris's seat here? The other device will become a spectator.")
        tablet.locator("#take-here").click()
        tablet.wait_for_url(f"**/lobby/{game}")
        tablet.wait_for_function("() => document.getElementById('device-link').value !== ''")
        shown = tablet.locator("#device-link").input_value()
        assert shown != link
        boris.wait_for_function("""() => document.getElementById('error').textContent
            .includes('opened on another device')""")
        assert boris.locator("#device-link").input_value() == ""
        shot(boris, artifacts, "lobby-old-told")
        # Anna gives Boris a new link (he lost it): the one the tablet showed stops working
        anna.locator('[data-relink="1"]').click()
        anna.wait_for_selector('[data-relinked="1"]')
        fresh = anna.locator('[data-relinked="1"]').input_value()
        assert "/seat/" in fresh and fresh != link
        # (scrolled in the page itself: the lobby redraws its seats as it asks every 1.5 s)
        scroll_to = "() => document.querySelector('[data-relinked=\"1\"]').scrollIntoView()"
        anna.evaluate(scroll_to)
        shot(anna, artifacts, "lobby-creator-new-link")
        anna.set_viewport_size({"width": 390, "height": 844})  # the creator on a phone
        anna.wait_for_selector('[data-relinked="1"]')
        anna.evaluate(scroll_to)
        assert anna.evaluate("() => document.documentElement.scrollWidth") <= 390
        shot(anna, artifacts, "lobby-creator-new-link-phone")
        tablet.reload()
        assert tablet.locator("#device-link").input_value() == fresh != shown
        boris.goto(shown + "?lang=en")
        assert "This seat link no longer works" in boris.locator("main").inner_text()
    finally:
        for context in contexts:
            context.close()
    assert not errors, errors
