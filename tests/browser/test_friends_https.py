"""Three friends through Caddy over HTTPS, as docs/hosting.md sets it up: ``preferans serve
--trusted-proxy 127.0.0.1 --public-url https://localhost:PORT`` behind Caddy (``tls
internal``, started by the test).  Anna makes the table at the public address, copies the
invite (an https link at that address), Boris and Vera open it in their own browsers
(a phone among them) and take the two seats, Anna starts, and the three play a whole deal
to its summary over ``wss://``.  Mid-deal Boris opens his personal seat link (copied from
his phone's menu) on a second device: the phone is told at once, watches, and from that
message on not one frame it receives carries his cards; Boris plays on from the second
device.  The next deal waits for all three READYs, the three agree to finish, and REMATCH
pressed by Anna takes nobody anywhere until Boris and Vera have pressed it too; then every
page goes to the new game.  Screenshots in ``test-artifacts/https-*.png``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from friends_driver import RECORD_FRAMES, play_deal
from friends_driver import shot as take_shot
from table_driver import phase, state

from caddy_front import CADDY, HostedGame

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(CADDY is None, reason="needs Debian's caddy "
                                 "(apt-get install caddy; .ci/run installs it)")]


def shot(page: Any, artifacts: Path, name: str) -> None:
    take_shot(page, artifacts, f"https-{name}")


@pytest.fixture(scope="module")
def hosted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HostedGame]:
    game = HostedGame(tmp_path_factory.mktemp("https")).start()
    yield game
    game.stop()


@pytest.fixture(scope="module")
def tls_browser(browser: Any) -> Iterator[Any]:
    """Chromium that accepts Caddy's local certificate authority (trusted nowhere else),
    launched by the session's Playwright (a second one in the same process may not start)."""
    chromium = browser.browser_type.launch(
        executable_path=str(CHROMIUM), headless=True,
        args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
              "--ignore-certificate-errors"])
    yield chromium
    chromium.close()


def test_three_friends_play_a_deal_through_caddy_over_https(
        tls_browser: Any, hosted: HostedGame, artifacts: Path) -> None:
    base = hosted.url
    sizes = {"anna": {"viewport": {"width": 1280, "height": 800}},
             "boris": {"viewport": {"width": 390, "height": 844}, "is_mobile": True,
                       "has_touch": True},
             "vera": {"viewport": {"width": 1280, "height": 800}}}
    sizes["boris-desk"] = {"viewport": {"width": 1280, "height": 800}}  # his second device
    contexts = {name: tls_browser.new_context(**options) for name, options in sizes.items()}
    contexts["boris"].add_init_script(RECORD_FRAMES)  # every frame the phone receives
    errors: list[str] = []
    pages = {}
    for name, context in contexts.items():
        context.set_default_timeout(20_000)
        pages[name] = context.new_page()
        pages[name].on("pageerror", lambda error, who=name: errors.append(f"{who}: {error}"))
    anna, boris, vera, desk = (pages[name] for name in ("anna", "boris", "vera", "boris-desk"))
    try:
        # Anna makes the table at the public address
        anna.goto(base + "/?lang=en")
        anna.locator("#play-friends").click()
        anna.locator("#friends-name").fill("Anna")
        anna.select_option("#friends-seat-1", "friend")
        anna.select_option("#friends-seat-2", "friend")
        anna.locator("#create-friends").click()
        anna.wait_for_url("**/lobby/*")
        invite = anna.locator("#invite-link").input_value()
        assert invite.startswith(f"{base}/join/"), invite
        assert anna.evaluate("() => location.protocol") == "https:"
        shot(anna, artifacts, "lobby-host")

        # Boris (a phone) and Vera open the https invite and take the two seats
        for who, name in ((boris, "Boris"), (vera, "Vera")):
            who.goto(invite + "?lang=en")
            assert "Anna" in who.locator("main").inner_text()
            who.locator("#name").fill(name)
            who.locator("#take-seat").click()
            who.wait_for_url("**/lobby/*")
        shot(boris, artifacts, "lobby-phone")
        anna.wait_for_function("() => !document.getElementById('start').disabled")
        seats = anna.locator("#seats").inner_text()
        assert "Boris" in seats and "Vera" in seats
        anna.locator("#start").click()
        for who in (anna, boris, vera):
            who.wait_for_url("**/table/*", timeout=20_000)
            who.wait_for_function("() => window.preferansTable && window.preferansTable.state")
            assert who.url.startswith(f"{base}/table/")
        assert [state(who)["seat"] for who in (anna, boris, vera)] == [0, 1, 2]
        assert boris.locator("#seat-0 .plate .name").inner_text() == "Boris"
        hands = [set(state(who)["observation"]["hand"]) for who in (anna, boris, vera)]
        assert all(not a & b for i, a in enumerate(hands) for b in hands[i + 1:])
        # the creator's watch-only link, copied from the table, is at the public address too
        watch = anna.evaluate("() => window.preferansTable.state.watch")
        assert watch and watch.startswith("/watch/")
        shown = anna.evaluate("(path) => import('/static/links.js').then("
                              "(m) => m.absolute(path))", watch)
        assert shown == base + watch

        # the deal over wss://, each from his own seat, until a few cards are on the table
        game = anna.url.rsplit("/", 1)[1].split("?")[0]
        players = {"anna": anna, "boris": boris, "vera": vera}

        def cards_played() -> bool:
            st = state(anna)
            return phase(st) == "play" and len(st["observation"].get("tricks") or []) >= 1

        play_deal(players, first_card=lambda name, who: shot(who, artifacts, f"play-{name}"),
                  until=cards_played)
        before = state(boris)
        assert before["seat"] == 1 and before["observation"]["hand"]
        assert not before["deal_over"]

        # Boris copies his seat link on the phone and opens it on his desktop, mid-deal
        boris.locator("#menu-button").click()
        boris.locator('#menu [data-menu="device_copy"]').click()
        link = base + before["device"]
        assert link.startswith(f"{base}/seat/{game}/")
        boris.wait_for_function(  # the copy's message (after the clipboard's answer)
            "(link) => document.getElementById('status').textContent.includes(link)", arg=link)
        assert state(anna)["device"] != before["device"]  # each seat its own link
        shot(boris, artifacts, "seat-link-copied-phone")
        desk.goto(link + "?lang=en")
        assert desk.locator("#seat-question").inner_text() == (
            "Take Boris's seat here? The other device will become a spectator.")
        boris.evaluate("() => { window.__mark = window.__frames.length; }")
        desk.locator("#take-here").click()
        desk.wait_for_url(f"**/table/{game}")
        desk.wait_for_function("() => window.preferansTable && window.preferansTable.state"
                               " && window.preferansTable.state.seat === 1")
        assert desk.url.startswith(f"{base}/table/")
        assert state(desk)["observation"]["hand"]  # his cards, now on the second device
        # the phone was told at once and only watches
        boris.wait_for_function("() => window.preferansTable.state.seat === null")
        boris.wait_for_function("""() => document.getElementById('status').textContent
            .includes("Boris's seat was opened on another device")""")
        assert f"/watch/{game}/" in boris.url
        assert state(boris)["observation"]["hand"] == []
        shot(boris, artifacts, "old-phone-watches")
        shot(desk, artifacts, "second-device-seated")

        # the deal to its summary, Boris from his second device
        players = {"anna": anna, "boris": desk, "vera": vera}
        play_deal(players)
        for name, who in players.items():
            assert state(who)["deal_over"]
            who.wait_for_selector("#sheet-overlay:not([hidden]) .ready-block")
            shot(who, artifacts, f"deal-over-{name}")
        kinds = {state(who)["last_entry"]["kind"] for who in players.values()}
        assert len(kinds) == 1
        boris.wait_for_function("() => window.preferansTable.state.deal_over")
        frames = [json.loads(text) for text in boris.evaluate(
            "() => window.__frames.slice(window.__mark)")]
        types = [frame.get("type") for frame in frames]
        assert "seat_moved" in types, types
        after = [f for f in frames[types.index("seat_moved") + 1:] if f.get("type") == "state"]
        assert len(after) > 5
        mine = {str(card).upper() for card in before["observation"]["hand"]}
        for frame in after:  # no frame after the move carries a card of his hand
            assert frame["seat"] is None and frame["observation"]["hand"] == []
            assert frame.get("device") is None
            if not frame["deal_over"]:
                obs = frame["observation"]
                public = set(json.dumps([obs.get("tricks"), obs.get("trick")]).upper()
                             .split('"'))
                named = set(json.dumps(obs).upper().split('"'))
                assert obs["legal"] == [] and not ((mine & named) - public)
        shot(boris, artifacts, "old-phone-deal-over")

        # the next deal waits for all three READYs
        ready_now = "() => (window.preferansTable.state.ready || []).join()"
        anna.locator('#sheet-body [data-action="NEXT DEAL"]').click()
        for who in players.values():
            who.wait_for_function(f"() => ({ready_now})() === '0'")
        assert state(vera)["deal_over"] and state(vera)["deal_number"] == 1
        desk.locator('#sheet-body [data-action="NEXT DEAL"]').click()
        vera.wait_for_function(f"() => ({ready_now})() === '0,1'")
        assert state(vera)["deal_over"]
        vera.locator('#sheet-body [data-action="NEXT DEAL"]').click()
        for who in players.values():
            who.wait_for_function("() => window.preferansTable.state.deal_number === 2"
                                  " && !window.preferansTable.state.deal_over")

        # the three agree to finish; REMATCH waits for every friend's READY
        for who in players.values():
            who.locator("#sheet-overlay").wait_for(state="hidden")
            who.locator("#menu-button").click()
            who.locator('#menu [data-menu="finish"]').click()
            who.keyboard.press("Escape")
        for who in players.values():
            who.wait_for_function("() => window.preferansTable.state.game_over")
        anna.locator('#sheet-body [data-action="REMATCH"]').click()
        for who in players.values():
            who.wait_for_function(f"() => ({ready_now})() === '0'")
        assert anna.locator('#sheet-body [data-action="REMATCH"]').is_disabled()
        assert "waiting for Boris, Vera" in anna.locator(".ready-line").inner_text()
        assert desk.url == f"{base}/table/{game}" and vera.url == f"{base}/table/{game}"
        shot(anna, artifacts, "rematch-waiting-anna")
        shot(desk, artifacts, "rematch-waiting-boris")
        desk.locator('#sheet-body [data-action="REMATCH"]').click()
        vera.wait_for_function(f"() => ({ready_now})() === '0,1'")
        assert vera.url == f"{base}/table/{game}"  # still nobody sent anywhere
        vera.locator('#sheet-body [data-action="REMATCH"]').click()
        for who in players.values():  # every friend's page goes to the new game, over https
            who.wait_for_url(lambda url: "/table/" in url and game not in url)
            who.wait_for_function("() => window.preferansTable && window.preferansTable.state"
                                  " && !window.preferansTable.state.game_over")
            assert who.url.startswith(f"{base}/table/")
        new_games = {state(who)["game_id"] for who in players.values()}
        assert len(new_games) == 1 and game not in new_games
        assert [state(who)["seat"] for who in players.values()] == [0, 1, 2]
        shot(desk, artifacts, "rematch-started-boris")
    finally:
        for context in contexts.values():
            context.close()
    assert not errors, errors
