"""House rules and four players in a real browser: the settings page's editor, a deal
played under Stalingrad, and a four-player deal with the dealer sitting out."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from table_driver import phase, play_until, seq, state, step, wait_settled

from preferans.game import Game
from preferans.rules import Rules
from preferans.server.table.seats import NAMES, bot_seed
from preferans.server.table.table import deal_cards, first_dealer, make_bot

pytestmark = pytest.mark.browser


def stalingrad_seed(limit: int = 400) -> int:
    """A game seed where the human, bidding 6♠ at its first call and passing after, wins the
    auction at 6♠ against the Easy computer players (replayed exactly as the server plays)."""
    rules = Rules.preset("sochi", stalingrad=True, pool=10)
    for seed in range(limit):
        game = Game(rules, NAMES, seed=seed, first_dealer=first_dealer(seed))
        hands, talon = deal_cards(seed, 0)
        deal = game.start_deal(hands=hands, talon=talon)
        bots = {seat: make_bot("easy", rules, bot_seed(seed, seat)) for seat in (1, 2)}
        called = False
        while deal.phase.value == "auction":
            seat = deal.to_act
            if seat == 0:
                legal = [str(a) for a in deal.legal_actions()]
                token = "6S" if not called and "6S" in legal else "PASS"
                called = True
            else:
                token = bots[seat].choose(game.observation(seat))
            game.apply(token)
        if deal.declarer == 0 and str(deal.bid) == "6S":
            return seed
    raise AssertionError("no seed lets the human win the auction at 6♠")


def fix_seed(page: Any, seed: int, sent: list[dict[str, Any]]) -> None:
    """Let the settings page create the game as it does, with the deals chosen by ``seed``."""
    def handle(route: Any) -> None:
        body = json.loads(route.request.post_data)
        sent.append(body)
        route.continue_(post_data=json.dumps({**body, "seed": seed}))

    page.route("**/api/games", handle)


def test_house_rules_editor_and_a_deal_under_stalingrad(
    page: Any, live_server: LiveServer, artifacts: Path
) -> None:
    seed = stalingrad_seed()
    sent: list[dict[str, Any]] = []
    fix_seed(page, seed, sent)
    page.goto(live_server.url + "/")
    page.locator("label.choice", has_text="Easy").click()
    page.locator('#rules label.choice:has(input[value="sochi"])').click()
    page.locator('#pool label.choice:has(input[value="10"])').click()
    assert "lone whister" in page.locator("#preset-doc").inner_text()

    # The editor starts from Sochi: every option with its explanation, none changed.
    page.locator("#house-rules-button").click()
    assert page.locator("#house-title").inner_text().lower() == "house rules on sochi"
    row = page.locator('.option[data-option="stalingrad"]')
    assert "Both defenders must whist against 6♠" in row.locator(".doc").inner_text()
    assert page.locator('.option[data-changed="true"]').count() == 0
    assert page.locator(".option").count() > 40

    # A list option is checked as integers before anything is sent; the engine's own
    # checks come back from the server next to the editor.
    page.locator("#opt-whist_quota").fill("4, 2, one")
    problem = page.locator('.option[data-option="whist_quota"] .field-error')
    assert "whole numbers" in problem.inner_text()
    page.locator("#play").click()
    assert "not valid" in page.locator("#rules-error").inner_text()
    page.locator("#opt-whist_quota").fill("4, 2, 1, 1, 1")
    # a number outside the engine's range (the schema's minimum and maximum) is caught here
    page.locator("#opt-allpass_min_bid").fill("6, 11")
    problem = page.locator('.option[data-option="allpass_min_bid"] .field-error')
    assert "each number from 6 to 10" in problem.inner_text()
    assert page.locator("#opt-start_mountain").get_attribute("max") == "10000"
    page.locator("#opt-allpass_min_bid").fill("6, 7")
    page.locator("#opt-staying_dealer_hill").fill("5")  # an engine check across options
    page.locator("#play").click()
    expect_error = page.locator("#rules-error")
    expect_error.filter(has_text="staying_dealer_hill").wait_for()
    assert "needs dealer_stays" in expect_error.inner_text()
    page.locator("#reset-rules").click()
    assert page.locator('.option[data-changed="true"]').count() == 0

    # Stalingrad on Sochi: marked as changed, with Sochi's own value beside it.
    page.locator("#opt-stalingrad").check()
    assert row.get_attribute("data-changed") == "true"
    assert "Sochi: no" in row.locator(".was").inner_text()
    assert "stalingrad" in page.locator("#house-count").inner_text()
    page.screenshot(path=str(artifacts / "house-rules-editor.png"), full_page=True)
    page.locator("#play").click()
    page.wait_for_url(re.compile(r"/table/[^/]+$"))
    assert sent[-1]["rules"] == {"preset": "sochi", "stalingrad": True}

    st = wait_settled(page)
    assert st["rules"]["stalingrad"] is True and st["rules"]["pool"] == 10
    # Bid 6♠ at the first call, then pass: the seed makes it win the auction.
    called = False
    while phase(st) == "auction":
        token = "6S" if not called else "PASS"
        called = True
        page.locator(f'#panel [data-token="{token}"]').click()
        st = wait_settled(page, seq(st))
    assert phase(st) == "discard" and st["observation"]["bid"] == "6S"
    st = step(page, st)  # discard two
    assert phase(st) == "contract"
    page.locator('#panel [data-token="6S"]').click()
    st = wait_settled(page, seq(st))
    # Under Stalingrad both computer defenders must whist (WHIST is their only legal call).
    defence = st["observation"]["defence"]
    assert [call for _, call in defence] == ["WHIST", "WHIST"], defence
    for seat in (1, 2):
        assert page.locator(f'#seat-{seat} .bubble').inner_text() == "Whist"
    st = play_until(page, st, lambda s: s["deal_over"])
    assert st["last_entry"]["defence"] == ["WHIST", "WHIST"]
    assert st["last_entry"]["contract"] == "6S"

    # The sheet's circle shows the rules and the house rule; TOTALS lists it explained.
    page.locator("#sheet-overlay:not([hidden])").wait_for()
    circle = page.locator("svg.pulya .centre-rules")
    assert circle.get_attribute("data-house-rules") == "1"
    drawn = circle.locator("text").all_text_contents()
    assert drawn == ["10", "Sochi", "+ 1 house rule"]
    assert "stalingrad: yes" in circle.locator("title").text_content()
    page.locator("#sheet-body").screenshot(path=str(artifacts / "sheet-house-rules.png"))
    page.locator('[data-tab="totals"]').click()
    item = page.locator('.house-list li[data-option="stalingrad"]')
    assert "stalingrad: yes" in item.inner_text()
    assert "Both defenders must whist" in item.inner_text()
    assert "Sochi, pulya 10" in page.locator(".rules-block").inner_text()


def test_a_four_player_deal(page: Any, live_server: LiveServer, artifacts: Path) -> None:
    sent: list[dict[str, Any]] = []
    fix_seed(page, 1, sent)  # Misha deals the first deal
    page.goto(live_server.url + "/")
    page.locator("label.choice", has_text="Easy").click()
    page.locator('#rules label.choice:has(input[value="sochi"])').click()
    page.locator('#players label.choice:has(input[value="4"])').click()
    page.locator('#pool label.choice:has(input[value="10"])').click()
    page.locator("#play").click()
    page.wait_for_url(re.compile(r"/table/[^/]+$"))
    assert sent[-1]["players"] == 4 and sent[-1]["rules"] == "sochi"
    st = wait_settled(page)
    assert st["names"] == ["You", "Misha", "Sasha", "Lena"]
    names = [page.locator(f"#seat-{seat} .plate .name").inner_text() for seat in range(4)]
    assert names == ["You", "Misha", "Sasha", "Lena"]
    assert page.locator("#seat-2").get_attribute("class").split()[-1] == "seat-top"
    dealer = st["observation"]["dealer"]
    assert dealer == 1
    assert page.locator(f"#seat-{dealer} .sits-out").inner_text().lower() == "deals · sits out"
    assert page.locator(".sits-out").count() == 1
    if phase(st) == "auction" and not st["deal_over"]:
        assert page.locator(f"#seat-{dealer} .backs .card").count() == 0
    page.screenshot(path=str(artifacts / "table-four-players.png"))

    st = play_until(page, st, lambda s: s["deal_over"])
    assert st["deal_number"] == 1 and st["last_entry"]["dealer"] == 1
    page.locator("#sheet-overlay:not([hidden])").wait_for()
    assert page.locator("svg.pulya.four").count() == 1
    page.locator("#sheet-body").screenshot(path=str(artifacts / "sheet-four-players.png"))
    page.locator('[data-tab="totals"]').click()
    assert page.locator("table.totals tbody tr").count() == 4
    # The next deal: Sasha deals and sits out.
    page.locator('#sheet-body [data-action="NEXT DEAL"]').click()
    page.wait_for_function("() => window.preferansTable.state.deal_number === 2")
    st = state(page)
    assert st["observation"]["dealer"] == 2
    page.locator("#seat-2 .sits-out").wait_for()
