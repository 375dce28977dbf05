"""A table for friends in real browsers: Anna makes it on the settings page (a friend on her
left, an Easy computer on her right), Boris opens the invite link in another browser (a
phone), types his name and takes the seat, Anna starts, and the two humans and the computer
play a whole deal, each seeing the table from his own seat.  Screenshots in
``test-artifacts/friends-*.png``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from friends_driver import play_deal, take_turn
from friends_driver import shot as take_shot
from table_driver import state

pytestmark = pytest.mark.browser


def shot(page: Any, artifacts: Path, name: str) -> None:
    take_shot(page, artifacts, f"friends-{name}")

def test_two_friends_and_a_computer_play_a_deal_from_the_invite_link(
        page: Any, browser: Any, live_server: LiveServer, artifacts: Path) -> None:
    base = live_server.url
    # Anna makes the table on the settings page
    page.goto(base + "/?lang=en")
    page.locator("#play-friends").click()
    page.locator("#friends-name").fill("Anna")
    page.select_option("#friends-seat-1", "friend")
    page.select_option("#friends-seat-2", "easy")
    shot(page, artifacts, "settings")
    page.locator("#create-friends").click()
    page.wait_for_url("**/lobby/*")
    invite = page.locator("#invite-link").input_value()
    assert "/join/" in invite and len(invite.rsplit("/", 1)[1]) >= 22
    assert page.locator("#start").is_disabled()
    shot(page, artifacts, "lobby-host")

    # Boris opens the link on his phone, types his name and sits down
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                has_touch=True)
    phone.set_default_timeout(15_000)
    errors: list[str] = []
    try:
        boris = phone.new_page()
        boris.on("pageerror", lambda error: errors.append(str(error)))
        boris.goto(invite)
        assert "Anna" in boris.locator("main").inner_text()
        boris.locator("#name").fill("Boris")
        shot(boris, artifacts, "join-phone")
        boris.locator("#take-seat").click()
        boris.wait_for_url("**/lobby/*")
        assert "Anna" in boris.locator("#waiting").inner_text()
        shot(boris, artifacts, "lobby-guest-phone")

        # Anna sees him join and starts; both pages go to the table
        page.wait_for_function("() => !document.getElementById('start').disabled")
        assert "Boris" in page.locator("#seats").inner_text()
        shot(page, artifacts, "lobby-full")
        page.locator("#start").click()
        page.wait_for_url("**/table/*")
        boris.wait_for_url("**/table/*", timeout=10_000)
        page.wait_for_function("() => window.preferansTable && window.preferansTable.state")
        boris.wait_for_function("() => window.preferansTable && window.preferansTable.state")
        mine, his = state(page), state(boris)
        assert (mine["seat"], his["seat"]) == (0, 1)
        assert page.locator("#seat-0 .plate .name").inner_text() == "Anna"
        assert boris.locator("#seat-0 .plate .name").inner_text() == "Boris"
        # each sees the other on the side he sits: Boris on Anna's left, Anna on Boris's right
        assert page.locator("#seat-1 .plate .name").inner_text() == "Boris"
        assert boris.locator("#seat-2 .plate .name").inner_text() == "Anna"
        assert not set(mine["observation"]["hand"]) & set(his["observation"]["hand"])

        # on the phone the Chat chip shows its whole word inside the screen
        chip = boris.evaluate("""() => { const c = document.getElementById('chat-button');
            const r = c.getBoundingClientRect();
            return {fits: c.scrollWidth <= c.clientWidth + 1, left: r.left, right: r.right,
                    width: window.innerWidth}; }""")
        assert chip["fits"] and chip["left"] >= 0 and chip["right"] <= chip["width"], chip

        play_deal({"host": page, "phone": boris},
                  first_card=lambda name, who: shot(who, artifacts, f"play-{name}"))
        assert state(page)["deal_over"] and state(boris)["deal_over"]
        page.wait_for_selector("#sheet-overlay:not([hidden])", timeout=5_000)
        shot(page, artifacts, "deal-over-host")
        shot(boris, artifacts, "deal-over-phone")
        # the same sheet, each from his own seat
        assert state(page)["last_entry"]["kind"] == state(boris)["last_entry"]["kind"]
    finally:
        phone.close()
    assert not errors, errors


# --- the stand-in ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def quick_grace_server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A server whose friends' seats wait 1.5 s (not 30) for a human who left."""
    server = LiveServer(tmp_path_factory.mktemp("friends") / "preferans.db",
                        grace_seconds=1.5).start()
    yield server
    server.stop()


def seated_pages(browser: Any, base: str, clock: int = 0) -> tuple[Any, Any, Any, Any, str]:
    """Anna's and Boris's contexts and pages at a started table (Anna 0, Boris 1, Easy 2)."""
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(2)]
    for context in contexts:
        context.set_default_timeout(15_000)
    anna, boris = (context.new_page() for context in contexts)
    made = anna.request.post(f"{base}/api/friends", data={
        "name": "Anna", "seats": ["friend", "easy"], "rules": "sochi", "pool": 10,
        "clock": clock, "seed": 4})
    assert made.status == 201, made.text()
    game, code = made.json()["id"], made.json()["invite"].rsplit("/", 1)[1]
    joined = boris.request.post(f"{base}/api/friends/{game}/join",
                                data={"code": code, "seat": 1, "name": "Boris"})
    assert joined.status == 200, joined.text()
    assert anna.request.post(f"{base}/api/friends/{game}/start", data={}).status == 200
    anna.invite = made.json()["invite"]
    for who in (anna, boris):
        who.goto(f"{base}/table/{game}?lang=en")
        who.wait_for_function("() => window.preferansTable && window.preferansTable.state")
    return contexts[0], contexts[1], anna, boris, game


def test_a_friend_who_closes_his_page_is_played_by_the_stand_in_and_comes_back(
        browser: Any, quick_grace_server: LiveServer, artifacts: Path) -> None:
    base = quick_grace_server.url
    anna_context, boris_context, anna, boris, game = seated_pages(browser, base)
    try:
        boris.close()  # mid-deal: his page is gone
        anna.wait_for_function("""() => (window.preferansTable.state.stand_in || []).includes(1)""",
                               timeout=10_000)
        assert anna.locator("#seat-1 .plate .name").inner_text() == "Misha (computer for Boris)"
        # Anna plays her turns; the stand-in plays Boris's
        for _ in range(60):
            st = state(anna)
            event = st.get("event") or {}
            if event.get("seat") == 1 and event.get("stand_in"):
                break
            obs = st["observation"]
            if obs["to_act"] == 0 and not st["deal_over"] and st["thinking"] is None:
                take_turn(anna, st)
            anna.wait_for_function("(seq) => window.preferansTable.state.seq > seq",
                                   arg=st["seq"], timeout=15_000)
        else:
            raise AssertionError("the stand-in never played Boris's seat")
        shot(anna, artifacts, "stand-in-host")
        # Boris opens the table again: his seat is his, the plates say his name
        boris = boris_context.new_page()
        boris.goto(f"{base}/table/{game}?lang=en")
        boris.wait_for_function("() => window.preferansTable && window.preferansTable.state")
        assert state(boris)["seat"] == 1 and state(boris)["stand_in"] == []
        anna.wait_for_function("""() => !(window.preferansTable.state.stand_in || []).length""")
        assert anna.locator("#seat-1 .plate .name").inner_text() == "Boris"
        assert boris.locator("#seat-0 .plate .name").inner_text() == "Boris"
        shot(boris, artifacts, "stand-in-back")
    finally:
        anna_context.close()
        boris_context.close()


def test_a_move_clock_of_30_s_runs_out_and_the_stand_in_decides(
        browser: Any, live_server: LiveServer, artifacts: Path) -> None:
    anna_context, boris_context, anna, boris, _ = seated_pages(browser, live_server.url,
                                                               clock=30)
    try:
        anna.wait_for_function("() => window.preferansTable.state.clock", timeout=10_000)
        timed = state(anna)["clock"]["seat"]
        assert timed in (0, 1)
        page = anna if timed == 0 else boris
        clock = page.locator("#seat-0 .plate .move-clock")
        assert 25 <= int(clock.get_attribute("data-left")) <= 30
        assert clock.inner_text().startswith("0:")
        shot(page, artifacts, "clock-running")
        page.wait_for_function(
            f"""() => {{ const e = window.preferansTable.state.event;
                     return e && e.stand_in && e.seat === {timed}; }}""", timeout=40_000)
        shot(page, artifacts, "clock-ran-out")
        assert "computer decided" in page.locator("#status").inner_text()
    finally:
        anna_context.close()
        boris_context.close()


def test_a_full_tables_link_opens_the_spectator_view(
        browser: Any, live_server: LiveServer, artifacts: Path) -> None:
    base = live_server.url
    anna_context, boris_context, anna, _boris, _game = seated_pages(browser, base)
    watcher = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    errors: list[str] = []
    try:
        vera = watcher.new_page()
        vera.on("pageerror", lambda error: errors.append(str(error)))
        vera.goto(base + anna.invite + "?lang=en")
        assert "you can watch it" in vera.locator("#full").inner_text()
        vera.locator("#watch").click()
        vera.wait_for_url("**/watch/**")
        vera.wait_for_function("() => window.preferansTable && window.preferansTable.state")
        seen = state(vera)
        assert seen["seat"] is None and seen["observation"]["hand"] == []
        assert vera.locator(".hand [data-card]").count() == 0  # not one card face up
        assert vera.locator("#seat-0 .plate .name").inner_text() == "Anna"
        assert vera.locator("#status").inner_text().startswith("Watching.")
        # Anna passes: the spectator sees the call at once
        st = state(anna)
        if st["observation"]["to_act"] == 0 and st["thinking"] is None:
            take_turn(anna, st)
            vera.wait_for_function("(seq) => window.preferansTable.state.seq > seq",
                                   arg=seen["seq"])
        shot(vera, artifacts, "spectator-phone")
        assert vera.locator(".hand [data-card]").count() == 0
    finally:
        watcher.close()
        anna_context.close()
        boris_context.close()
    assert not errors, errors


def test_three_friends_one_in_russian_play_a_deal_to_the_sheet(
        browser: Any, live_server: LiveServer, artifacts: Path) -> None:
    base = live_server.url
    langs = ["en", "ru", "en"]
    contexts = [browser.new_context(
        viewport={"width": 1280, "height": 800}, locale="ru-RU" if lang == "ru" else "en-US",
        extra_http_headers={"Accept-Language": "ru-RU,ru;q=0.9" if lang == "ru" else "en"})
        for lang in langs]
    try:
        pages = [context.new_page() for context in contexts]
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
            who.wait_for_function("() => window.preferansTable && window.preferansTable.state")
        assert pages[1].locator("html").get_attribute("lang") == "ru"
        assert pages[1].locator("#seat-0 .plate .name").inner_text() == "Борис"
        play_deal(dict(enumerate(pages)))
        for who in pages:
            who.wait_for_selector("#sheet-overlay:not([hidden])", timeout=5_000)
        assert "Раздача 1" in pages[1].locator("#sheet-title").inner_text()
        assert "Deal 1" in pages[0].locator("#sheet-title").inner_text()
        shot(pages[1], artifacts, "three-humans-ru-sheet")
        shot(pages[2], artifacts, "three-humans-en-sheet")
        # Boris writes in the chat: the others read it as text, at once
        pages[1].locator("#chat-button").click()
        pages[1].locator("#chat-text").fill("Ещё <b>одну</b>?")
        pages[1].locator(".chat-send").click()
        pages[0].wait_for_function(
            "() => /1/.test(document.getElementById('chat-button').textContent)")
        pages[0].locator("#chat-button").click()
        line = pages[0].locator("#chat-log li").last
        assert line.inner_text() == "Борис: Ещё <b>одну</b>?"
        assert pages[0].locator("#chat-log b b").count() == 0  # no markup made of it
        assert pages[1].locator("#chat-log li").last.inner_text() == "Вы: Ещё <b>одну</b>?"
        shot(pages[0], artifacts, "chat")
    finally:
        for context in contexts:
            context.close()


def test_three_friends_finish_early_when_all_agree_and_see_the_settlement(
        browser: Any, live_server: LiveServer, artifacts: Path) -> None:
    """Anna asks to finish early from the menu; Boris (in Russian) sees who asked and who is
    still to agree; when Boris and Vera agree too, every page shows the settlement."""
    base = live_server.url
    langs = ["en", "ru", "en"]
    contexts = [browser.new_context(
        viewport={"width": 1280, "height": 800}, locale="ru-RU" if lang == "ru" else "en-US",
        extra_http_headers={"Accept-Language": "ru-RU,ru;q=0.9" if lang == "ru" else "en"})
        for lang in langs]
    errors: list[str] = []
    try:
        pages = [context.new_page() for context in contexts]
        for who in pages:
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
            who.wait_for_function("() => window.preferansTable && window.preferansTable.state")
        play_deal(dict(enumerate(pages)))  # a whole deal, so the sheet has something to settle
        for who in pages:
            who.wait_for_selector("#sheet-overlay:not([hidden])", timeout=5_000)
        for who in pages:  # the next deal waits for every friend's READY
            who.locator('[data-action="NEXT DEAL"]').click()
        for who in pages:
            who.wait_for_function("() => window.preferansTable.state.deal_number === 2"
                                  " && !window.preferansTable.state.deal_over")
            if who.locator("#sheet-overlay:not([hidden])").count():
                who.locator('[data-action="CLOSE"]').click()

        def menu_item(who: Any, item: str) -> Any:
            who.locator("#menu-button").click()
            return who.locator(f'#menu [data-menu="{item}"]')

        asked = menu_item(pages[0], "finish")
        assert asked.inner_text() == "Finish early"
        asked.click()
        pages[1].wait_for_function(
            "() => (window.preferansTable.state.finish_asked || []).length === 1")
        status = pages[1].locator("#status").inner_text()
        assert status.startswith("Anna предлагает закончить игру (согласиться — «Закончить "
                                  "досрочно» в меню). Ещё не согласились: Вы, Vera."), status
        pages[0].wait_for_function(  # the asker's page hears it from the server too
            "() => (window.preferansTable.state.finish_asked || []).length === 1")
        mine = pages[0].locator("#status").inner_text()
        assert mine.startswith("You asked to finish the game now. Still to agree: Борис, "
                               "Vera."), mine
        item = menu_item(pages[1], "finish")
        assert item.inner_text() == "Согласиться закончить"
        assert pages[1].locator('#menu [data-menu="finish_no"]').inner_text() == "Играть дальше"
        shot(pages[1], artifacts, "finish-asked-ru")
        item.click()
        pages[2].wait_for_function(
            "() => (window.preferansTable.state.finish_asked || []).length === 2")
        assert "Still to agree: you." in pages[2].locator("#status").inner_text()
        assert state(pages[2])["game_over"] is False
        menu_item(pages[2], "finish").click()
        for who in pages:
            who.wait_for_function("() => window.preferansTable.state.game_over")
            who.wait_for_selector("#sheet-overlay:not([hidden]) .stopped-note")
        settled = state(pages[0])
        assert settled["stopped"]["deals"] == 1 and settled["stopped"]["deal_dropped"]
        assert pages[0].locator("#sheet-title").inner_text() == "Finished early by agreement"
        note = pages[0].locator(".stopped-note").inner_text()
        assert "deals played: 1" in note and "not scored" in note and "mountain" in note
        assert pages[1].locator("#sheet-title").inner_text() == "Закончено досрочно по согласию"
        assert "сыграно раздач: 1" in pages[1].locator(".stopped-note").inner_text()
        final = pages[0].locator(".result .final li b").all_inner_texts()
        assert len(final) == 3
        assert pages[0].locator('#menu [data-menu="finish"]').count() == 0
        shot(pages[0], artifacts, "finish-result")
        shot(pages[1], artifacts, "finish-result-ru")
    finally:
        for context in contexts:
            context.close()
    assert not errors, errors
