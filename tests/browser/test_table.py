"""The web table in a real browser: every screen of the game, driven as a player drives it.

Each test starts from the settings page or a game created through the API, plays through
the page's own grid, buttons and cards against the computer players (Easy, no delay),
and checks what the page shows.  Screenshots of the table, the bidding grid and the
sheet are kept in ``test-artifacts/``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from table_driver import (
    VISIBLE_POINT,
    click_action,
    click_card,
    click_token,
    new_game,
    open_table,
    phase,
    play_until,
    seed_where,
    seq,
    state,
    step,
    wait_settled,
)

pytestmark = pytest.mark.browser


def my_turn_in(name: str) -> Any:
    return lambda st: not st["deal_over"] and phase(st) == name


def call_text(token: str) -> str:
    """A bid as the table writes it: ``7H`` -> ``7♥``."""
    if token.endswith("NT") or token == "MISERE":
        return "Misère" if token == "MISERE" else token
    return token[:-1] + {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}[token[-1]]


def lit_tokens(page: Any) -> list[str]:
    return page.locator("#panel .bid.lit").evaluate_all("els => els.map(e => e.dataset.token)")


def hand(page: Any, seat: int = 0) -> list[str]:
    return page.locator(f"#seat-{seat} .hand [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )


def test_start_a_game_from_the_settings(page: Any, live_server: LiveServer,
                                        artifacts: Path) -> None:
    page.goto(live_server.url + "/")
    page.locator("label.choice", has_text="Easy").click()
    page.locator('#rules label.choice:has(input[value="sochi"])').click()
    page.locator('#pool label.choice:has(input[value="10"])').click()
    page.locator("#play").click()
    page.wait_for_url(re.compile(r"/table/[^/]+$"))
    st = wait_settled(page)
    assert st["difficulty"] == "easy" and st["rules"]["pool"] == 10
    # The table: you at the bottom with ten cards, Misha left, Lena right, the dealer marked.
    assert len(hand(page)) == 10
    assert page.locator("#seat-1 .plate .name").inner_text() == "Misha"
    assert page.locator("#seat-2 .plate .name").inner_text() == "Lena"
    assert page.locator("#seat-1 .backs .card").count() == 10
    dealer = st["observation"]["dealer"]
    assert page.locator(f"#seat-{dealer} .dealer").inner_text() == "D"
    assert page.locator(".dealer").count() == 1
    # The talon lies face down during the bidding, and the grid shows only legal bids lit.
    assert page.locator("#talon img.back").count() == 2
    assert sorted(lit_tokens(page)) == sorted(st["observation"]["legal"])
    assert page.locator("#panel .bid:not(.lit)").evaluate_all(
        "els => els.every(e => e.disabled)"
    )
    assert page.locator("#status").inner_text().startswith("Your bid")
    assert page.locator("#score-chip").inner_text().count("0") >= 3
    page.screenshot(path=str(artifacts / "table-bidding-grid.png"))
    page.locator("#panel").screenshot(path=str(artifacts / "bidding-grid.png"))


def test_bid_win_discard_and_declare(page: Any, live_server: LiveServer) -> None:
    game = new_game(page, live_server.url, seed=seed_where(lambda s: s[0] >= 24))
    st = open_table(page, live_server.url, game)
    # Bid through the grid (the lowest lit bid each time, the first one from the keyboard)
    # until a deal gives us the contract.
    first = True
    for _ in range(300):
        if not st["deal_over"] and phase(st) == "discard":
            break
        if not st["deal_over"] and phase(st) == "auction":
            bids = [t for t in st["observation"]["legal"] if t not in ("PASS", "MISERE")]
            if first:
                focused = page.evaluate("() => document.activeElement.dataset.token")
                assert focused == bids[0], "the grid opens with the keyboard focus on a lit bid"
                page.keyboard.press("Enter")
                first = False
                st = wait_settled(page, seq(st))
                continue
            if bids:
                click_token(page, bids[0])
                st = wait_settled(page, seq(st))
                continue
        st = step(page, st)
    assert phase(st) == "discard", "never won an auction"
    won = st["observation"]["bid"]
    # The talon is turned up for everyone and joins the hand: twelve cards.
    talon = st["observation"]["talon"]
    assert len(talon) == 2
    assert sorted(page.locator("#talon [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)")) == sorted(talon)
    cards = hand(page)
    assert len(cards) == 12 and set(talon) <= set(cards)
    discard = page.locator('[data-action="DISCARD"]')
    assert discard.is_disabled()
    # Tap two, change your mind about one, choose another.
    click_card(page, cards[0])
    click_card(page, cards[1])
    assert page.locator('#seat-0 [aria-pressed="true"]').count() == 2
    assert discard.is_enabled()
    click_card(page, cards[1])
    assert page.locator('#seat-0 [aria-pressed="true"]').count() == 1
    assert discard.is_disabled()
    click_card(page, cards[2])
    discard.click()
    st = wait_settled(page, seq(st))
    assert phase(st) == "contract"
    assert st["observation"]["discard"] is not None
    assert sorted(st["observation"]["discard"]) == sorted([cards[0], cards[2]])
    assert len(hand(page)) == 10
    # The grid again: the bid or higher.
    lit = lit_tokens(page)
    assert won in lit and sorted(lit) == sorted(st["observation"]["legal"])
    click_token(page, won)
    st = wait_settled(page, seq(st))
    assert st["observation"]["contract"] == won and st["observation"]["declarer"] == 0
    chip = page.locator("#contract-chip").inner_text()
    assert "You" in chip
    assert page.locator("#seat-0 .bubble").inner_text() == call_text(won)
    st = play_until(page, st, lambda s: s["deal_over"])
    assert st["last_entry"]["declarer"] == 0


def test_whist_and_pass(page: Any, live_server: LiveServer) -> None:
    # Hands where a computer player is strong and we are weak: they declare, we defend.
    seed = seed_where(lambda s: max(s[1], s[2]) >= 20 and s[0] <= 12, deals=3)
    game = new_game(page, live_server.url, seed=seed)
    st = open_table(page, live_server.url, game)
    said: list[str] = []
    for _ in range(600):
        if len(said) == 2:
            break
        if not st["deal_over"] and phase(st) == "defence":
            legal = st["observation"]["legal"]
            want = "PASS" if said else "WHIST"
            if want in legal:
                buttons = page.locator("#panel [data-action]").evaluate_all(
                    "els => els.map(e => e.dataset.action)")
                assert sorted(buttons) == sorted(legal)
                click_action(page, want)
                st = wait_settled(page, seq(st))
                said.append(want)
                # Our call stays in the bubble by our name for the rest of the deal.
                expected = "Whist" if want == "WHIST" else "Pass"
                if not st["deal_over"]:
                    assert page.locator("#seat-0 .bubble").inner_text() == expected
                continue
        st = step(page, st)
    assert said == ["WHIST", "PASS"]


def test_play_cards_by_click_keyboard_and_drag(page: Any, live_server: LiveServer,
                                               artifacts: Path) -> None:
    game = new_game(page, live_server.url, seed=21)
    st = open_table(page, live_server.url, game)
    ways = ["click", "keyboard", "drag"]
    for _ in range(600):
        if not ways:
            break
        obs = st["observation"]
        if st["deal_over"] or phase(st) != "play" or (obs.get("hand_to_play") or 0) != 0:
            st = step(page, st)
            continue
        legal = sorted(obs["legal"])
        # Playable cards are lifted, the others are not.
        lifted = page.locator("#seat-0 .card.playable").evaluate_all(
            "els => els.map(e => e.dataset.card)")
        assert sorted(lifted) == legal
        way = ways.pop(0)
        if way == "click":
            page.screenshot(path=str(artifacts / "table-play.png"))
            token = legal[0]
            click_card(page, token)
        elif way == "keyboard":
            page.locator('#seat-0 .hand [tabindex="0"]').focus()
            cards = hand(page)
            at = cards.index(page.evaluate("() => document.activeElement.dataset.card"))
            token = next(c for c in cards[at:] + cards[:at] if c in legal)
            for _ in range(len(cards)):
                current = page.evaluate("() => document.activeElement.dataset.card")
                if current == token:
                    break
                page.keyboard.press("ArrowRight" if cards.index(token) > cards.index(current)
                                    else "ArrowLeft")
            focus_ring = page.evaluate(
                "() => getComputedStyle(document.activeElement).boxShadow")
            assert focus_ring != "none", "the focused card shows a focus ring"
            page.keyboard.press("Enter")
        else:
            token = legal[-1]
            x, y = page.evaluate(VISIBLE_POINT, [token, 0])
            target = page.locator("#trick").bounding_box()
            page.mouse.move(x, y)
            page.mouse.down()
            page.mouse.move(x + 10, y - 40, steps=4)
            page.mouse.move(target["x"] + target["width"] / 2,
                            target["y"] + target["height"] / 2, steps=6)
            page.mouse.up()
        st = wait_settled(page, seq(st))
        assert token not in st["observation"]["hand"], f"{token} was not played by {way}"
        assert token not in hand(page)
        assert [0, token] in st["observation"]["trick"] or any(
            [0, token] in t["cards"] for t in st["observation"]["tricks"]
        )
    assert not ways, f"never got to play by {ways}"


def test_an_illegal_card_is_refused_with_its_reason(page: Any, live_server: LiveServer) -> None:
    game = new_game(page, live_server.url, seed=33)
    st = open_table(page, live_server.url, game)
    st = play_until(page, st, lambda s: not s["deal_over"] and phase(s) == "play"
                    and (s["observation"].get("hand_to_play") or 0) == 0
                    and bool(s["why_not"]))
    token, reason = sorted(st["why_not"].items())[0]
    before = hand(page)
    click_card(page, token)
    status = page.locator("#status")
    assert reason in status.inner_text()
    assert page.locator(f'#seat-0 [data-card="{token}"].shake').count() == 1
    assert status.get_attribute("data-kind") == "why"
    page.wait_for_timeout(200)
    assert hand(page) == before and state(page)["seq"] == st["seq"], "nothing was sent"
    # The game goes on: a legal card is accepted.
    st = step(page, st)


def test_finish_a_deal_read_the_sheet_and_switch_tabs(page: Any, live_server: LiveServer,
                                                      artifacts: Path) -> None:
    game = new_game(page, live_server.url, seed=44)
    st = open_table(page, live_server.url, game)
    st = play_until(page, st, lambda s: s["deal_over"], bid=True)
    overlay = page.locator("#sheet-overlay")
    overlay.wait_for(state="visible")
    entry = st["last_entry"]
    summary = page.locator("#sheet-body .summary").inner_text()
    if entry.get("summary"):
        assert summary == entry["summary"]
    rows = page.locator("table.change tbody tr")
    assert rows.count() == 3
    assert rows.nth(0).locator("th").inner_text() == "You"
    # PULYA: the classic drawing with the pool length in the circle.
    assert page.locator('[data-tab="pulya"]').get_attribute("aria-selected") == "true"
    assert page.locator("svg.pulya").is_visible()
    assert page.locator("svg.pulya text.circle-pool").inner_html() == "10"
    page.screenshot(path=str(artifacts / "sheet-pulya.png"))
    # TOTALS: a plain table whose balances are the sheet's.
    page.locator('[data-tab="totals"]').click()
    assert page.locator("svg.pulya").count() == 0
    totals = page.locator("table.totals tbody tr")
    assert totals.count() == 3
    sheet = st.get("sheet") or st["observation"]["sheet"]
    for seat in range(3):
        shown = totals.nth(seat).locator("td.balance").inner_text()
        value = float(shown.replace("−", "-").replace("+", ""))
        assert value == pytest.approx(sheet["balance"][seat], abs=0.051)
    page.screenshot(path=str(artifacts / "sheet-totals.png"))
    page.locator('[data-tab="pulya"]').click()
    assert page.locator("svg.pulya").is_visible()
    # SEE THE TABLE closes the sheet; the table then offers the sheet and NEXT DEAL.
    click_action(page, "CLOSE")
    overlay.wait_for(state="hidden")
    click_action(page, "SHEET")
    overlay.wait_for(state="visible")
    click_action(page, "CLOSE")
    click_action(page, "NEXT DEAL")
    st = wait_settled(page, seq(st))
    assert not st["deal_over"]
    overlay.wait_for(state="hidden")
    # The sheet opens from the score chip at any time, and closes again.
    page.locator("#score-chip").click()
    overlay.wait_for(state="visible")
    click_action(page, "CLOSE")
    overlay.wait_for(state="hidden")


def test_reload_mid_deal_and_continue(page: Any, live_server: LiveServer) -> None:
    game = new_game(page, live_server.url, seed=55)
    st = open_table(page, live_server.url, game)
    st = play_until(page, st, lambda s: not s["deal_over"] and phase(s) == "play"
                    and len(s["observation"]["tricks"]) >= 2)
    before = st["observation"]
    cards = hand(page)
    page.reload()
    st = wait_settled(page)
    after = st["observation"]
    for key in ("hand", "trick", "tricks", "tricks_won", "phase", "contract", "declarer",
                "legal", "auction", "defence"):
        assert after[key] == before[key], key
    assert hand(page) == cards
    step(page, st)



def test_menu_pause_sound_and_guide(page: Any, live_server: LiveServer) -> None:
    game = new_game(page, live_server.url, seed=77)
    st = open_table(page, live_server.url, game)
    page.locator("#menu-button").click()
    menu = page.locator("#menu")
    assert menu.is_visible()
    sound = menu.locator('[data-menu="sound"]')
    assert sound.inner_text() == "Sound: on"
    sound.click()
    assert page.evaluate("() => localStorage.getItem('preferans.sound')") == "off"
    page.locator("#menu-button").click()
    assert sound.inner_text() == "Sound: off"
    menu.locator('[data-menu="pause"]').click()
    page.wait_for_function("() => window.preferansTable.state.paused === true")
    assert "Paused" in page.locator("#status").inner_text()
    page.locator("#menu-button").click()
    assert menu.locator('[data-menu="pause"]').inner_text() == "Resume"
    menu.locator('[data-menu="pause"]').click()
    page.wait_for_function("() => window.preferansTable.state.paused === false")
    # the guide in the page's language, told the table's rules (its opening line compares)
    guide = menu.locator('a[href="/guide?lang=en&preset=sochi&pool=10"]')
    assert guide.get_attribute("target") == "_blank"
    page.reload()
    wait_settled(page)
    page.locator("#menu-button").click()
    assert sound.inner_text() == "Sound: off", "the sound setting is remembered"
    page.locator("#menu-button").click()
    assert st["game_id"] == game


def test_phone_portrait_layout(browser: Any, live_server: LiveServer, artifacts: Path) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    try:
        tab = context.new_page()
        game = new_game(tab, live_server.url, seed=88)
        st = open_table(tab, live_server.url, game)
        assert phase(st) == "auction"
        for selector in ("#panel", "#seat-0 .hand", "#seat-1 .plate", "#seat-2 .plate"):
            box = tab.locator(selector).bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390 + 0.5, selector
            assert box["y"] + box["height"] <= 844 + 0.5, selector
        tab.screenshot(path=str(artifacts / "phone-table-grid.png"))
    finally:
        context.close()


def test_whist_alone_open_and_play_for_the_open_hand(page: Any, live_server: LiveServer) -> None:
    seed = seed_where(lambda s: max(s[1], s[2]) >= 20 and 10 <= s[0] <= 14, deals=2)
    game = new_game(page, live_server.url, seed=seed)
    st = open_table(page, live_server.url, game)
    st = play_until(page, st, my_turn_in("defence_mode"), limit=1500)
    buttons = page.locator("#panel [data-action]").evaluate_all(
        "els => els.map(e => e.dataset.action)")
    assert sorted(buttons) == ["CLOSED", "OPEN"]
    click_action(page, "OPEN")
    st = wait_settled(page, seq(st))

    def playing_partner(s: dict[str, Any]) -> bool:
        return (not s["deal_over"] and phase(s) == "play"
                and (s["observation"].get("hand_to_play") or 0) != 0)

    st = play_until(page, st, playing_partner)
    partner = st["observation"]["hand_to_play"]
    column = page.locator(f"#seat-{partner} .hand.column")
    assert column.is_visible()
    shown = column.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    assert sorted(shown) == sorted(st["observation"]["exposed"][str(partner)])
    lifted = column.locator(".card.playable").evaluate_all(
        "els => els.map(e => e.dataset.card)")
    assert sorted(lifted) == sorted(st["observation"]["legal"])
    assert "hand" in page.locator("#status").inner_text()
    token = sorted(st["observation"]["legal"])[0]
    click_card(page, token, partner)
    st = wait_settled(page, seq(st))
    exposed = st["observation"]["exposed"].get(str(partner), [])
    assert token not in exposed
