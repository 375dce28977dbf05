"""Three friends through Caddy over HTTPS, as docs/hosting.md sets it up: ``preferans serve
--trusted-proxy 127.0.0.1 --public-url https://localhost:PORT`` behind Caddy (``tls
internal``, started by the test).  Anna makes the table at the public address, copies the
invite (an https link at that address), Boris and Vera open it in their own browsers
(a phone among them) and take the two seats, Anna starts, and the three play a whole deal
to its summary over ``wss://``.  Screenshots in ``test-artifacts/https-*.png``.

Issue 47 also asks, in this test, for a seat moved to a second device mid-deal and for
REMATCH waiting for all three: those are the 47-seat and 47-together parts; see the TODO
below."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from friends_driver import play_deal
from friends_driver import shot as take_shot
from table_driver import state

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
    contexts = {name: tls_browser.new_context(**options) for name, options in sizes.items()}
    errors: list[str] = []
    pages = {}
    for name, context in contexts.items():
        context.set_default_timeout(20_000)
        pages[name] = context.new_page()
        pages[name].on("pageerror", lambda error, who=name: errors.append(f"{who}: {error}"))
    anna, boris, vera = pages["anna"], pages["boris"], pages["vera"]
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

        # a whole deal over wss://, each from his own seat, to its summary
        play_deal({"anna": anna, "boris": boris, "vera": vera},
                  first_card=lambda name, who: shot(who, artifacts, f"play-{name}"))
        for name, who in (("anna", anna), ("boris", boris), ("vera", vera)):
            assert state(who)["deal_over"]
            who.wait_for_selector("#sheet-overlay:not([hidden])", timeout=10_000)
            shot(who, artifacts, f"deal-over-{name}")
        kinds = {state(who)["last_entry"]["kind"] for who in (anna, boris, vera)}
        assert len(kinds) == 1
        # TODO(issue 47, "a seat moved to a second device mid-deal" and "REMATCH waiting
        # for all three"): the 47-seat and 47-together features; add their steps here
        # (Boris's seat link opened in a fourth context mid-deal; REMATCH pressed by Anna
        # alone does not start the next game until Boris and Vera press READY).
    finally:
        for context in contexts.values():
            context.close()
    assert not errors, errors
