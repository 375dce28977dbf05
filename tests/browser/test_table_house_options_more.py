"""A house option of issue 40 in a real browser: set in the settings page's house-rules editor,
then a deal played under it whose sheet shows it.

Sochi with ``settle_divisor="players_less_one"``: the mountains are shared out with each
pair's difference × 10 divided by the players less one (a mountain point costs its owner ten
whists), so the deal's balance column reads 10 × (ΣΔh − 3Δh) / 2 where Sochi reads / 3.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from table_driver import play_until, wait_settled

from preferans.game import Game
from preferans.rules import Rules
from preferans.server.table.seats import NAMES, bot_seed
from preferans.server.table.table import deal_cards, first_dealer, make_bot

pytestmark = pytest.mark.browser

RULES = Rules.preset("sochi", pool=10, settle_divisor="players_less_one")


def allpass_seed(limit: int = 300) -> int:
    """A game seed whose first deal, the human passing, is an all-pass against the Easy
    computer players (replayed exactly as the server plays)."""
    for seed in range(limit):
        game = Game(RULES, NAMES, seed=seed, first_dealer=first_dealer(seed))
        hands, talon = deal_cards(seed, 0)
        deal = game.start_deal(hands=hands, talon=talon)
        bots = {seat: make_bot("easy", RULES, bot_seed(seed, seat)) for seat in (1, 2)}
        while deal.phase.value == "auction":
            seat = deal.to_act
            game.apply("PASS" if seat == 0 else bots[seat].choose(game.observation(seat)))
        if deal.kind == "allpass":
            return seed
    raise AssertionError("no seed gives an all-pass in the first deal")


def shown(text: str) -> float:
    """A number as the sheet writes it (+15, −7.5)."""
    return float(text.strip().replace("−", "-").replace("+", "").replace(",", "."))


def test_settlement_by_the_players_less_one(
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
    page.locator('#rules label.choice:has(input[value="sochi"])').click()
    page.locator('#pool label.choice:has(input[value="10"])').click()

    # The editor lists the new options with their explanations; choose the divisor.
    page.locator("#house-rules-button").click()
    for name in ("pool_help_to", "failed_whists", "settle_no_missing_pool",
                 "half_whist_capped", "gentlemanly_odd_trick", "failed_no_mountain"):
        assert page.locator(f'.option[data-option="{name}"] .doc').inner_text()
    row = page.locator('.option[data-option="settle_divisor"]')
    assert "players less one" in row.locator(".doc").inner_text()
    assert row.get_attribute("data-changed") != "true"
    select = page.locator("#opt-settle_divisor")
    assert select.locator("option").all_inner_texts() == ["players", "players_less_one"]
    select.select_option(label="players_less_one")
    assert row.get_attribute("data-changed") == "true"
    assert "Sochi: players" in row.locator(".was").inner_text()
    row.evaluate("el => el.scrollIntoView({block: 'center'})")
    page.screenshot(path=str(artifacts / "house-option-settle-divisor.png"))
    page.locator("#play").click()
    page.wait_for_url(re.compile(r"/table/[^/]+$"))
    assert sent[-1]["rules"] == {"preset": "sochi", "settle_divisor": "players_less_one"}

    st = wait_settled(page)
    assert st["rules"]["settle_divisor"] == "players_less_one"
    # The human passes and plays the all-pass through the page.
    st = play_until(page, st, lambda s: s["deal_over"])
    entry = st["last_entry"]
    assert entry["kind"] == "allpass"
    change = entry["change"]
    # Each hill (mountain plus the pool still missing) changed by Δm − Δp; no whists.
    hills = [m - p for m, p in zip(change["mountain"], change["pool"], strict=True)]
    assert all(w == 0 for row_ in change["whists"] for w in row_)
    total = sum(hills)
    expected = [10 * (total - 3 * h) / 2 for h in hills]
    assert entry["balance_change"] == pytest.approx(expected)
    sochi = [10 * (total - 3 * h) / 3 for h in hills]
    assert any(abs(a - b) > 1e-9 for a, b in zip(expected, sochi, strict=True))
    # The sheet's change table shows that balance for every seat.
    page.locator("#sheet-overlay:not([hidden])").wait_for()
    for seat in range(3):
        cells = page.locator(f'#sheet-body table.change tbody tr[data-seat="{seat}"] td')
        assert shown(cells.last.inner_text()) == pytest.approx(expected[seat])
    page.locator("#sheet-body").screenshot(path=str(artifacts / "sheet-settle-divisor.png"))
    page.locator('[data-tab="totals"]').click()
    item = page.locator('.house-list li[data-option="settle_divisor"]')
    assert "settle divisor: players_less_one" in item.inner_text()
