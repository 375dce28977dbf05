"""House options of issue 14 in a real browser: set in the settings page's house-rules editor,
then a deal played under each whose sheet shows it.

Rostov with four players and ``allpass_dealer_zero``: 000's Rostov, "One who does not take
any tricks writes one point in the pool unless he/she is the dealer of a four player game who
scores nothing. Some allow the dealer to write one point in the pool."  And Sochi with
``half_whist_played``: the human's half-whist stands and is played out.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from table_driver import phase, play_until, seq, wait_settled

from preferans.bids import Bid
from preferans.game import Game
from preferans.rules import Rules
from preferans.server.table.seats import NAMES, NAMES_FOUR, bot_seed
from preferans.server.table.table import deal_cards, deal_hands, first_dealer, make_bot

pytestmark = pytest.mark.browser

RULES = Rules.preset("rostov", players=4, pool=10, allpass_dealer_zero=True)


def allpass_seed(limit: int = 200) -> int:
    """A game seed whose first deal, the human passing, is an all-pass against the Easy
    computer players, with a computer player dealing (replayed exactly as the server plays)."""
    for seed in range(limit):
        dealer = first_dealer(seed, 4)
        if dealer == 0:
            continue
        game = Game(RULES, NAMES_FOUR, seed=seed, first_dealer=dealer)
        hands, talon = deal_hands(seed, 0, 4, dealer)
        deal = game.start_deal(hands=hands, talon=talon)
        bots = {seat: make_bot("easy", RULES, bot_seed(seed, seat)) for seat in (1, 2, 3)}
        while deal.phase.value == "auction":
            seat = deal.to_act
            game.apply("PASS" if seat == 0 else bots[seat].choose(game.observation(seat)))
        if deal.kind == "allpass":
            return seed
    raise AssertionError("no seed gives an all-pass in the first deal")


def test_the_sitting_dealer_writes_the_zero_trick_point(
    page: Any, live_server: LiveServer, artifacts: Path
) -> None:
    seed = allpass_seed()
    sent: list[dict[str, Any]] = []

    def handle(route: Any) -> None:
        body = json.loads(route.request.post_data)
        sent.append(body)
        route.continue_(post_data=json.dumps({**body, "seed": seed}))

    page.route("**/api/games", handle)
    page.goto(live_server.url + "/")
    page.locator("label.choice", has_text="Easy").click()
    page.locator('#rules label.choice:has(input[value="rostov"])').click()
    page.locator('#players label.choice:has(input[value="4"])').click()
    page.locator('#pool label.choice:has(input[value="10"])').click()

    # The editor lists the house option with its explanation; set it.
    page.locator("#house-rules-button").click()
    row = page.locator('.option[data-option="allpass_dealer_zero"]')
    assert "sitting dealer" in row.locator(".doc").inner_text()
    assert row.get_attribute("data-changed") != "true"
    page.locator("#opt-allpass_dealer_zero").check()
    assert row.get_attribute("data-changed") == "true"
    assert "Rostov: no" in row.locator(".was").inner_text()
    page.screenshot(path=str(artifacts / "house-option-editor.png"), full_page=True)
    page.locator("#play").click()
    page.wait_for_url(re.compile(r"/table/[^/]+$"))
    assert sent[-1]["rules"] == {"preset": "rostov", "allpass_dealer_zero": True}
    assert sent[-1]["players"] == 4

    st = wait_settled(page)
    assert st["rules"]["allpass_dealer_zero"] is True
    dealer = st["observation"]["dealer"]
    assert dealer != 0
    # The human passes and plays the all-pass through the page.
    st = play_until(page, st, lambda s: s["deal_over"])
    entry = st["last_entry"]
    assert entry["kind"] == "allpass"
    tricks = entry["tricks"]
    assert tricks[dealer] == 0
    # The dealer took no trick (he held no cards) and writes his zero-trick point; so does
    # every other player without a trick; nobody else's pool changes.
    expected = [1 if seat == dealer or tricks[seat] == 0 else 0 for seat in range(4)]
    assert entry["change"]["pool"] == expected
    name = st["names"][dealer]
    page.locator("#sheet-overlay:not([hidden])").wait_for()
    summary = page.locator("#sheet-body .entry .summary").inner_text()
    assert f"{name} dealt and sat out (+1 pool)" in summary
    cell = page.locator(f'#sheet-body table.change tbody tr[data-seat="{dealer}"] td').first
    assert cell.inner_text().strip() in ("+1", "1")
    page.locator("#sheet-body").screenshot(path=str(artifacts / "sheet-house-option.png"))
    page.locator('[data-tab="totals"]').click()
    item = page.locator('.house-list li[data-option="allpass_dealer_zero"]')
    assert "allpass dealer zero: yes" in item.inner_text()


HALF_RULES = Rules.preset("sochi", pool=10, half_whist_played=True)


def half_whist_seed(limit: int = 400) -> int:
    """A game seed where the human, passing in the auction and half-whisting when he may, has
    his half-whist stand against the Easy computer players (the first defender passing again),
    so that it is played out (replayed exactly as the server plays)."""
    for seed in range(limit):
        game = Game(HALF_RULES, NAMES, seed=seed, first_dealer=first_dealer(seed))
        hands, talon = deal_cards(seed, 0)
        deal = game.start_deal(hands=hands, talon=talon)
        bots = {seat: make_bot("easy", HALF_RULES, bot_seed(seed, seat)) for seat in (1, 2)}
        while not deal.done and deal.phase.value in ("auction", "discard", "contract",
                                                     "defence"):
            seat = deal.to_act
            if seat == 0:
                if deal.phase.value not in ("auction", "defence"):
                    break
                legal = [str(a) for a in deal.legal_actions()]
                game.apply("HALF" if "HALF" in legal else "PASS")
            else:
                game.apply(bots[seat].choose(game.observation(seat)))
        if deal.phase.value == "defence mode" and deal.to_act == 0:
            return seed
    raise AssertionError("no seed lets the human's half-whist stand")


def test_a_half_whist_played_out(page: Any, live_server: LiveServer, artifacts: Path) -> None:
    seed = half_whist_seed()
    sent: list[dict[str, Any]] = []

    def handle(route: Any) -> None:
        body = json.loads(route.request.post_data)
        sent.append(body)
        route.continue_(post_data=json.dumps({**body, "seed": seed}))

    page.route("**/api/games", handle)
    page.goto(live_server.url + "/")
    page.locator("label.choice", has_text="Easy").click()
    page.locator('#rules label.choice:has(input[value="sochi"])').click()
    page.locator('#pool label.choice:has(input[value="10"])').click()
    page.locator("#house-rules-button").click()
    page.locator("#opt-half_whist_played").check()
    page.locator("#play").click()
    page.wait_for_url(re.compile(r"/table/[^/]+$"))
    assert sent[-1]["rules"] == {"preset": "sochi", "half_whist_played": True}

    st = wait_settled(page)
    while phase(st) in ("auction", "defence"):
        token = "HALF" if "HALF" in st["observation"]["legal"] else "PASS"
        page.locator(f'#panel [data-token="{token}"]').click()
        st = wait_settled(page, seq(st))
    # The half-whist stood: instead of ending unplayed, the half-whister chooses how to play.
    assert phase(st) == "defence_mode" and sorted(st["observation"]["legal"]) == [
        "CLOSED", "OPEN"]
    assert "Your half-whist is played out" in page.locator("#status").inner_text()
    page.screenshot(path=str(artifacts / "half-whist-played.png"))
    page.locator('#panel [data-token="CLOSED"]').click()
    st = wait_settled(page, seq(st))
    assert phase(st) == "play"
    st = play_until(page, st, lambda s: s["deal_over"])
    entry = st["last_entry"]
    assert entry["kind"] == "contract" and entry["defence"] == ["PASS", "HALF", "PASS"]
    declarer, level = entry["declarer"], Bid.parse(entry["contract"]).level
    value = HALF_RULES.contract_value(level)
    quota = HALF_RULES.half_whist_tricks[level - 6]
    tricks = entry["tricks"]
    defence = 10 - tricks[declarer]
    under = max(0, level - tricks[declarer])
    # The human, the lone whister, writes the defence's tricks (greedy) and his consolation
    # and answers for half the quota.
    assert entry["change"]["whists"][0][declarer] == value * (defence + under)
    assert entry["change"]["mountain"][0] == value * max(0, quota - defence)
    page.locator("#sheet-overlay:not([hidden])").wait_for()
    summary = page.locator("#sheet-body .entry .summary").inner_text()
    assert f"You played the half-whist out (quota {quota})" in summary
