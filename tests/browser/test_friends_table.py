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
from table_driver import click_action, click_token, phase, state

pytestmark = pytest.mark.browser

CARD_POINT = """([token, box]) => {
  const card = document.querySelector(`#${box} .hand [data-card="${token}"]`);
  if (!card) return null;
  const r = card.getBoundingClientRect();
  for (let y = r.top + 12; y < r.bottom - 4; y += 8) {
    for (let x = r.left + 4; x < r.right - 2; x += 3) {
      const hit = document.elementFromPoint(x, y);
      if (hit && hit.closest("[data-card]") === card) return [x, y];
    }
  }
  return null;
}"""

STILL = """() => !document.getAnimations().some((a) => a.playState === "running"
  && a.effect && a.effect.target && a.effect.target.closest && a.effect.target.closest(".hand"))"""


def box_of(st: dict[str, Any], seat: int) -> str:
    """The id of the box a seat is drawn in on this page (its own at the bottom: seat-0)."""
    count = len(st["names"])
    return f"seat-{(seat - st['seat'] + count) % count}"


def tap(page: Any, st: dict[str, Any], token: str, seat: int) -> None:
    page.wait_for_function(STILL, timeout=5_000)
    point = page.evaluate(CARD_POINT, [token, box_of(st, seat)])
    assert point is not None, f"card {token} of seat {seat} is not on the screen"
    page.mouse.click(point[0], point[1])


def take_turn(page: Any, st: dict[str, Any]) -> None:
    """One decision through the page: pass in the auction, whist, play the first card."""
    obs = st["observation"]
    legal = obs["legal"]
    now = phase(st)
    if now == "auction":
        click_token(page, "PASS")
    elif now in ("discard", "exchange"):
        for token in obs["hand"][:2]:
            tap(page, st, token, st["seat"])
        click_action(page, "DISCARD")
    elif now == "contract":
        click_token(page, legal[0])
    elif now == "defence":
        click_action(page, "WHIST" if "WHIST" in legal else "PASS")
    elif now == "defence_mode":
        click_action(page, "CLOSED")
    elif now == "play":
        seat = obs.get("hand_to_play")
        tap(page, st, sorted(legal)[0], st["seat"] if seat is None else seat)
    else:  # pragma: no cover
        raise AssertionError(f"unexpected phase {now!r}: {legal}")


def shot(page: Any, artifacts: Path, name: str) -> None:
    page.wait_for_timeout(400)
    page.screenshot(path=str(artifacts / f"friends-{name}.png"))


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

        players = {"host": page, "phone": boris}
        shots = set()
        for _ in range(200):
            done = True
            for name, who in players.items():
                st = state(who)
                if st["deal_over"]:
                    continue
                done = False
                obs = st["observation"]
                if obs["to_act"] == st["seat"] and obs["legal"] and st["thinking"] is None:
                    if phase(st) == "play" and name not in shots:
                        shots.add(name)
                        shot(who, artifacts, f"play-{name}")
                    take_turn(who, st)
                    who.wait_for_function("(seq) => window.preferansTable.state.seq > seq",
                                          arg=st["seq"], timeout=30_000)
            if done:
                break
            page.wait_for_timeout(150)
        else:
            raise AssertionError("the deal did not end")
        assert state(page)["deal_over"] and state(boris)["deal_over"]
        page.wait_for_selector("#sheet-overlay:not([hidden])", timeout=5_000)
        shot(page, artifacts, "deal-over-host")
        shot(boris, artifacts, "deal-over-phone")
        # the same sheet, each from his own seat
        assert state(page)["last_entry"]["kind"] == state(boris)["last_entry"]["kind"]
    finally:
        phone.close()
    assert not errors, errors
