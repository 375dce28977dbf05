"""Hints, the after-deal analysis and the replay viewer in the browser (issue 18).

- HINT during the bidding and during the play: the button shows only in a game started with
  hints on, the box names what Hard would do with its figures, the hinted card is raised;
- the sheet's ANALYSIS tab after a deal: all hands, the double-dummy value, the costly cards
  and the human's calls beside Crazy's;
- the replay viewer on a finished game of this browser (built in Python as the server plays
  and saved into the live server's database, the browser's own seat token as its holder):
  forward and back by the buttons and the arrow keys, the deals by ↑ ↓, the sheet and the
  moves, the record to download; and a record file opened on /replay.

Screenshots (desktop 1280×800 and phone 390×844) go to ``test-artifacts/review-*.png``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from table_driver import new_game, open_table, phase, play_until, step, wait_settled
from test_variant_decisions import easy_players

from preferans.server.lang.house_rules import rules_from_settings
from preferans.server.security.tokens import SEAT_COOKIE, token_hash
from preferans.server.store.schema import FINISHED
from preferans.server.table.table import Table, deal_hands

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def hint_box(page: Any) -> dict[str, Any]:
    """Press HINT and wait for the box's answer; the hint the page holds."""
    page.locator("#hint-button").click()
    page.locator("#hint-box .hint-would").wait_for(timeout=30_000)
    return page.evaluate("() => window.preferansTable.ui.hint.hint")


def test_hint_during_the_bidding_and_the_play(page: Any, live_server: LiveServer,
                                              artifacts: Path) -> None:
    plain = new_game(page, live_server.url, seed=5)
    open_table(page, live_server.url, plain)
    assert page.locator("#hint-button").is_hidden()  # hints are off by default

    game = new_game(page, live_server.url, seed=5, hints=True)
    st = open_table(page, live_server.url, game)
    assert phase(st) == "auction"
    button = page.locator("#hint-button")
    assert button.is_visible() and button.inner_text() == "HINT"
    hint = hint_box(page)
    assert hint["kind"] == "bid" and hint["choice"] in st["observation"]["legal"]
    would = page.locator("#hint-box .hint-would").inner_text()
    assert would.startswith("Hard would say")
    rows = page.locator("#hint-box table.hint-options tbody tr")
    assert rows.count() == len(hint["options"]) >= 2
    assert "whists" in rows.first.inner_text()
    assert page.locator("#hint-box tr.chosen").get_attribute("data-token") == hint["choice"]
    assert "imagined deal" in page.locator("#hint-box .hint-worlds").inner_text()
    page.screenshot(path=str(artifacts / "review-hint-bidding.png"))
    page.keyboard.press("Escape")
    assert page.locator("#hint-box").is_hidden()

    # on to the play: the human passes (or whists) and plays when his turn comes
    st = play_until(page, st, lambda s: not s["deal_over"] and phase(s) == "play")
    hint = hint_box(page)
    assert hint["kind"] == "card" and hint["choice"] in st["observation"]["legal"]
    assert page.locator("#hint-box .hint-would").inner_text().startswith("Hard would play")
    raised = page.locator(".hand .card.hinted")
    assert raised.count() == 1 and raised.get_attribute("data-card") == hint["choice"]
    tricks = page.locator("#hint-box table.hint-options tbody tr td").first.inner_text()
    assert re.fullmatch(r"\d+(\.\d)?", tricks), tricks
    page.screenshot(path=str(artifacts / "review-hint-play.png"))
    # the hint is for this position only: after the card it is gone
    step(page, st)
    assert page.locator("#hint-box").is_hidden()


def test_hint_on_a_phone(browser: Any, live_server: LiveServer, artifacts: Path) -> None:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        game = new_game(page, live_server.url, seed=5, hints=True)
        open_table(page, live_server.url, game)
        hint_box(page)
        box = page.locator("#hint-box").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1
        page.screenshot(path=str(artifacts / "review-hint-phone.png"))
    finally:
        context.close()


def test_the_analysis_tab_after_a_deal(page: Any, live_server: LiveServer,
                                       artifacts: Path) -> None:
    game = new_game(page, live_server.url, seed=21)
    st = open_table(page, live_server.url, game)
    assert page.locator('[data-tab="analysis"]').count() == 0  # nothing during the deal
    st = play_until(page, st, lambda s: s["deal_over"], whist=True)
    page.locator("#sheet-overlay").wait_for(state="visible")
    page.locator('[data-tab="analysis"]').click()
    page.locator(".analysis .analysis-value").wait_for()
    value = page.locator(".analysis .analysis-value").inner_text()
    kind = st["last_entry"]["kind"]
    if kind in ("contract", "misere"):
        assert "with best play from the opening lead" in value
    elif kind == "allpass":
        assert value.startswith("All-pass")
    hands = page.locator(".analysis .analysis-hand[data-seat]")
    assert hands.count() == 3
    assert page.locator(".analysis .analysis-hand[data-seat] img.card").count() == 30
    page.locator(".analysis-calls li, .analysis-calls p:not(.analysis-wait)").first.wait_for(
        timeout=60_000)
    calls = page.locator(".analysis-calls li")
    if calls.count():
        assert re.search(r"Crazy (agrees|would say)", calls.first.inner_text())
    page.screenshot(path=str(artifacts / "review-analysis.png"))


def finished_game(live_server: LiveServer, page: Any, game_id: str, seed: int) -> Table:
    """A whole pulya-10 game played by Easy players, as the server deals it, saved finished
    into the live server's database for this browser (its seat cookie's holder)."""
    new_game(page, live_server.url, seed=1)  # gives the browser its seat cookie
    cookie = next(c for c in page.context.cookies() if c["name"] == SEAT_COOKIE)
    store = live_server.store
    rules = rules_from_settings("sochi", players=None, pool=10)
    table = Table.new(game_id, difficulty="easy", rules=rules, seed=seed, store=store,
                      bot_delay=0, seats={"0": token_hash(cookie["value"])})
    game = table.game
    for _ in range(20_000):
        if game.finished:
            break
        if table.deal_over():
            hands, talon = deal_hands(seed, table.deal_number(), 3, game.dealer)
            game.start_deal(hands=hands, talon=talon)
        seat = int(game.deal.to_act)
        game.apply(easy_players(table)[seat].choose(game.observation(seat)))
    assert game.finished
    store.save(game_id, record=table.record(), status=FINISHED,
               result=list(table.sheet_json()["balance"]), summary=table.summary())
    return table


def place(page: Any) -> dict[str, int]:
    return page.evaluate("() => window.preferansReplay.place")


def test_the_replay_viewer_steps_through_a_finished_game(
        page: Any, live_server: LiveServer, artifacts: Path) -> None:
    table = finished_game(live_server, page, "replayGame1", seed=12)
    deals = len(table.game.finished_deals)
    page.goto(f"{live_server.url}/replay")
    link = page.locator('#replay-games [data-game="replayGame1"] a')
    link.wait_for()
    link.click()
    page.wait_for_url(re.compile("/replay/replayGame1"))
    page.locator(".replay-table").wait_for()
    assert place(page)["deal"] == 1 and place(page)["step"] == 0
    assert page.locator("#replay-deal option").count() == deals
    # every hand face up: 10 cards each as dealt
    assert page.locator(".rseat img.card").count() == 30
    # deal 1 is dealt by "You": the verb is yours ("you deal", never "You deals")
    assert page.locator("#replay-caption").inner_text() == "The cards are dealt; you deal."
    # forward by the button and the keyboard, back by both
    page.locator('[data-go="forward"]').click()
    assert place(page)["step"] == 1
    first = page.locator("#replay-caption").inner_text()
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    assert place(page)["step"] == 6
    page.keyboard.press("ArrowLeft")
    assert place(page)["step"] == 5
    page.locator('[data-go="back"]').click()
    assert place(page)["step"] == 4
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    assert page.locator("#replay-caption").inner_text() == first
    # to the end of the deal: the tricks add up, the sheet after it is there
    page.keyboard.press("End")
    end = place(page)
    assert end["step"] == end["steps"] > 0
    page.locator('[data-tab="sheet"]').click()
    assert page.locator(".replay-side svg.pulya").count() == 1
    assert page.locator(".replay-side .sheet-after").inner_text() == "The sheet after deal 1"
    page.locator('[data-tab="moves"]').click()
    assert page.locator(".replay-moves li").count() == end["steps"]
    page.locator(".replay-moves li").nth(2).locator("button").click()
    assert place(page)["step"] == 3
    # the deals by the arrow keys
    page.keyboard.press("ArrowDown")
    assert place(page) == {"deal": 2, "step": 0, "steps": place(page)["steps"]}
    page.keyboard.press("ArrowUp")
    assert place(page)["deal"] == 1
    # a deal that was played: its analysis, and a costly card jumps to its step
    played = next(i for i, d in enumerate(table.game.finished_deals) if d.tricks)
    page.locator("#replay-deal").select_option(str(played))
    page.locator('[data-tab="analysis"]').click()
    page.locator(".analysis .analysis-value").wait_for()
    assert "opening lead" in page.locator(".analysis .analysis-value").inner_text() or (
        "All-pass" in page.locator(".analysis .analysis-value").inner_text())
    jumps = page.locator(".analysis-costs .jump")
    if jumps.count():
        jumps.first.click()
        assert page.locator(".analysis-costs li.current").count() == 1
    for _ in range(14):
        page.keyboard.press("ArrowRight")
    page.screenshot(path=str(artifacts / "review-replay.png"))
    # the record to download is the game's
    with page.expect_download() as download:
        page.locator("#replay-download").click()
    record = json.loads(Path(download.value.path()).read_text())
    assert len(record["deals"]) == deals
    # the address keeps the place: a reload comes back to it
    kept = place(page)
    page.reload()
    page.locator(".replay-table").wait_for()
    assert place(page) == kept


def test_the_replay_viewer_on_a_phone_and_from_a_file(
        browser: Any, live_server: LiveServer, artifacts: Path, tmp_path: Path) -> None:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        table = finished_game(live_server, page, "replayGame2", seed=14)
        page.goto(f"{live_server.url}/replay/replayGame2#deal=2&step=12")
        page.locator(".replay-table").wait_for()
        assert place(page)["deal"] == 2 and place(page)["step"] == 12
        page.locator('[data-go="forward"]').tap()
        assert place(page)["step"] == 13
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"] + 1, "nothing sticks out sideways"
        page.screenshot(path=str(artifacts / "review-replay-phone.png"), full_page=True)
        # any record file, opened on the start page
        path = tmp_path / "game.json"
        path.write_text(json.dumps(table.record()))
        page.goto(f"{live_server.url}/replay")
        page.set_input_files("#replay-file", str(path))
        page.locator(".replay-table").wait_for()
        assert page.locator("#replay-deal option").count() == len(table.game.finished_deals)
        bad = tmp_path / "bad.json"
        bad.write_text('{"format": "preferans-record/1", "deals": 3}')
        page.goto(f"{live_server.url}/replay")
        page.set_input_files("#replay-file", str(bad))
        status = page.locator('#replay-status[data-kind="error"]')
        status.wait_for()
        assert "cannot be replayed" in status.inner_text()
    finally:
        context.close()


def test_a_finished_game_links_to_its_replay(page: Any, live_server: LiveServer) -> None:
    finished_game(live_server, page, "replayGame3", seed=16)
    page.goto(f"{live_server.url}/table/replayGame3")
    page.locator('[data-action="REPLAY"]').wait_for()
    assert page.locator('[data-action="REPLAY"]').get_attribute("href") == "/replay/replayGame3"
    page.goto(f"{live_server.url}/stats")
    assert page.locator("#replays-link").get_attribute("href") == "/replay"
    # another browser gets no replay of it
    other = page.context.browser.new_context()
    try:
        stranger = other.new_page()
        answer = stranger.goto(f"{live_server.url}/replay/replayGame3")
        assert answer.status == 403
    finally:
        other.close()


def test_the_settings_hints_checkbox_starts_a_game_with_hint(
        page: Any, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/")
    box = page.locator("#hints-on")
    assert not box.is_checked()  # off by default
    page.locator("label:has(#hints-on)").click()
    assert box.is_checked()
    page.locator("#play").click()
    page.wait_for_url(re.compile("/table/"))
    st = wait_settled(page)
    assert st["hints"] is True and page.locator("#hint-button").is_visible()
    page.keyboard.press("h")  # the key asks too
    page.locator("#hint-box .hint-would").wait_for(timeout=30_000)
    assert page.locator("#hint-box tr.chosen").count() == 1
    # the choice is remembered for the next game
    page.goto(live_server.url + "/")
    assert page.locator("#hints-on").is_checked()
