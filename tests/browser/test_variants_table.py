"""The structural variants at the web table, played through the page: a deal of the
two-player game (the dummy drawn as the third hand, face down until opened), a Rogue deal
(the soloist names a game of his list), and the rule that every legal action the server
sends gets a button, even one the page has no control for.

Screenshots go to ``test-artifacts/`` (variant-*.png).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from table_driver import (
    click_token,
    discard_two,
    new_game,
    open_table,
    phase,
    play_any_card,
    seq,
    wait_settled,
)

pytestmark = pytest.mark.browser


def variant_turn(page: Any, st: dict[str, Any], seen: dict[str, int]) -> None:
    """One decision through the page's own controls, whatever the variant's phase."""
    obs = st["observation"]
    legal = obs["legal"]
    now = phase(st)
    seen[now] = seen.get(now, 0) + 1
    if now == "auction":
        click_token(page, "PASS" if "PASS" in legal else legal[0])
    elif now == "discard":
        discard_two(page, st)
    elif now in ("contract", "name"):
        click_token(page, legal[0])
    elif now == "defence":
        click_token(page, "WHIST" if "WHIST" in legal else legal[0])
    elif now == "defence_mode":
        for token in legal:  # two players: OPEN (with the dummy) and ALONE, both offered
            assert page.locator(f'#panel [data-token="{token}"]').count() == 1, token
        click_token(page, "OPEN" if "OPEN" in legal else legal[0])
    elif now == "play":
        play_any_card(page, st)
    else:  # any other decision: the panel's button for the first legal token
        click_token(page, legal[0])


def play_one_deal(page: Any, st: dict[str, Any], artifacts: Path, name: str,
                  seen: dict[str, int]) -> dict[str, Any]:
    """Play until the first deal ends; a screenshot the first time each phase is the
    human's."""
    for _ in range(200):
        if st["deal_over"]:
            return st
        assert page.locator('#status[data-kind="error"]').count() == 0, (
            page.locator("#status").inner_text())
        now = phase(st)
        if now not in seen:
            page.screenshot(path=str(artifacts / f"variant-{name}-{now}.png"))
        variant_turn(page, st, seen)
        st = wait_settled(page, seq(st))
    raise AssertionError("the deal did not end within 200 turns")


def check_deal_scored(page: Any, st: dict[str, Any], players: int) -> None:
    """The deal's end: the sheet opens with its entry, the score chip shows the balance, no
    error on the status line."""
    assert st["deal_over"] and st["last_entry"] is not None
    sheet = st["observation"]["sheet"]
    assert len(sheet["deals"]) == 1
    page.locator("#sheet-overlay").wait_for(state="visible")
    assert page.locator("#sheet-overlay .entry .summary").inner_text().strip()
    assert page.locator("#sheet-overlay svg.pulya").count() == 1
    chips = page.locator("#score-chip .score")
    assert chips.count() == players
    for seat, value in enumerate(sheet["balance"]):
        text = chips.nth(seat).inner_text().replace("−", "-")
        shown = float(text.split()[-1])
        assert abs(shown - round(value, 1)) < 0.06, (text, value)
    page.locator('#sheet-overlay [data-tab="totals"]').click()
    assert page.locator("#sheet-overlay table.totals tbody tr").count() == players
    assert page.locator('#status[data-kind="error"]').count() == 0


def test_a_two_player_deal_with_the_dummy(page: Any, live_server: LiveServer,
                                          artifacts: Path) -> None:
    # seed 3: Misha declares, the human whists, chooses OPEN and plays the dummy's hand
    game = new_game(page, live_server.url, rules="two-player", seed=3)
    st = open_table(page, live_server.url, game)
    assert st["names"] == ["You", "Misha"] and st["dummy"] == 2
    # the dummy sits on the right: labelled, its ten cards face down
    dummy = page.locator("#seat-2")
    assert dummy.get_attribute("aria-label") == "Dummy, on your right"
    assert dummy.locator(".plate .name").inner_text() == "Dummy"
    if "2" not in st["observation"]["exposed"]:
        assert dummy.locator(".backs .card.back").count() == st["observation"]["hand_sizes"][2]
    assert page.locator("#seat-1 .plate .name").inner_text() == "Misha"
    assert page.locator(".plate").count() == 3
    seen: dict[str, int] = {}
    opened = played_dummy = False
    for _ in range(200):
        if st["deal_over"]:
            break
        if "2" in st["observation"]["exposed"]:  # opened: face up in its seat
            opened = True
            cards = dummy.locator(".hand [data-card]")
            assert cards.count() == len(st["observation"]["exposed"]["2"])
        if phase(st) == "play" and st["observation"].get("hand_to_play") == 2:
            assert "Dummy's hand" in page.locator("#status").inner_text()
            assert dummy.locator(".hand.active .card.playable").count() >= 1
            played_dummy = True
            page.screenshot(path=str(artifacts / "variant-two-player-dummy-turn.png"))
        st = play_one_step(page, st, artifacts, seen)
    check_deal_scored(page, st, players=2)
    assert seen, "the human never decided anything"
    page.screenshot(path=str(artifacts / "variant-two-player-sheet.png"))
    assert seen.get("defence_mode"), seen  # OPEN or ALONE was the human's choice
    assert opened, f"the dummy was not opened in this deal (phases {seen})"
    assert played_dummy, "the human never played a card of the dummy's hand"


def play_one_step(page: Any, st: dict[str, Any], artifacts: Path,
                  seen: dict[str, int]) -> dict[str, Any]:
    now = phase(st)
    if now not in seen:
        page.screenshot(path=str(artifacts / f"variant-two-player-{now}.png"))
    assert page.locator('#status[data-kind="error"]').count() == 0
    variant_turn(page, st, seen)
    return wait_settled(page, seq(st))


def test_a_rogue_deal(page: Any, live_server: LiveServer, artifacts: Path) -> None:
    # seed 9: Misha deals first, so the human (second hand) is the soloist
    game = new_game(page, live_server.url, rules="rogue-small", seed=9)
    st = open_table(page, live_server.url, game)
    assert st["names"] == ["You", "Misha"] and st["dummy"] == 2
    assert phase(st) == "name" and st["observation"]["soloist"] == 0
    panel = page.locator("#panel")  # the naming panel: every game left on the list
    for token in st["observation"]["legal"]:
        assert panel.locator(f'[data-token="{token}"]').count() == 1, token
    assert "Left on your list" in panel.inner_text()
    assert page.locator("#status").inner_text() == "Name a game from your Rogue list."
    seen: dict[str, int] = {}
    st = play_one_deal(page, st, artifacts, "rogue", seen)
    assert seen.get("name") == 1 and seen.get("discard") == 1, seen
    assert st["last_entry"]["declarer"] == 0
    check_deal_scored(page, st, players=2)
    entry = st["last_entry"]
    assert entry["kind"] in ("contract", "misere")
    page.screenshot(path=str(artifacts / "variant-rogue-sheet.png"))


# A variant's tokens the page has no dedicated control for, added to the human's legal
# actions as they come from the server (the page must still offer every one).
EXTRA = ["SEE", "BLIND PASS", "BLIND 6S", "9S HAND", "MISERE HAND", "TRICKS 8", "POOL",
         "HILL", "ALONE", "SECOND 12 0", "FROBNICATE 3"]

def test_every_legal_action_gets_a_button(page: Any, live_server: LiveServer,
                                          artifacts: Path) -> None:
    """The page is given legal tokens it has no control for: each shows as a labelled button
    in the panel, and pressing one sends it (the server answers: not allowed now)."""
    injected = {"done": False}

    def handler(ws: Any) -> None:
        server = ws.connect_to_server()

        def from_server(message: str | bytes) -> None:
            if isinstance(message, str) and not injected["done"]:
                data = json.loads(message)
                obs = data.get("observation") or {}
                if (data.get("type") == "state" and obs.get("to_act") == 0
                        and obs.get("phase") == "auction" and not data.get("deal_over")):
                    obs["legal"] = list(obs["legal"]) + EXTRA
                    injected["done"] = True
                    message = json.dumps(data)
            ws.send(message)

        server.on_message(from_server)

    page.route_web_socket("**/ws/*", handler)
    game = new_game(page, live_server.url, rules="sochi", seed=3)
    page.goto(f"{live_server.url}/table/{game}")
    page.wait_for_function("""() => {
      const s = window.preferansTable.state;
      return s && (s.observation.legal || []).includes("FROBNICATE 3");
    }""")
    panel = page.locator("#panel")
    for token in EXTRA:
        button = panel.locator(f'button[data-token="{token}"]')
        assert button.count() == 1, token
        assert button.is_enabled() and button.inner_text().strip(), token
    # blind bids have their own grid under the seeing one
    assert panel.locator(".blind-cells button.lit").count() == 1
    box = panel.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 800  # on screen
    assert panel.locator('.extra-calls [data-token="SEE"]').inner_text().startswith("SEE")
    assert panel.locator('[data-token="TRICKS 8"]').inner_text() == "ANY 8"
    assert panel.locator('[data-token="SECOND 12 0"]').inner_text() == "Pool 12, no time limit"
    page.screenshot(path=str(artifacts / "variant-extra-buttons.png"))
    panel.locator('button[data-token="FROBNICATE 3"]').click()
    status = page.locator('#status[data-kind="error"]')
    status.wait_for()
    assert "FROBNICATE" in status.inner_text()


def test_the_editor_shows_a_variants_own_options_only_there(
    page: Any, live_server: LiveServer, artifacts: Path
) -> None:
    """Options with ``only_for`` (the dummy's, the Rogue's) are hidden under the other
    presets, shown under theirs, and a game started there carries the change."""
    sent: list[dict[str, Any]] = []

    def handle(route: Any) -> None:
        sent.append(json.loads(route.request.post_data))
        route.continue_()

    page.route("**/api/games", handle)
    page.goto(live_server.url + "/")
    page.locator('#rules label.choice:has(input[value="sochi"])').click()
    page.locator("#house-rules-button").click()
    lone = page.locator('.option[data-option="dummy_lone_whist"]')
    assert page.locator('.option[data-option="stalingrad"]').count() == 1
    assert lone.count() == 0
    assert page.locator('.option[data-option="rogue_soloist"]').count() == 0
    page.locator("#more-rules-summary").click()  # the other rule sets, behind "More rules…"
    page.locator('label.preset-row:has(input[value="two-player"])').click()
    assert "house rules on two players" in page.locator("#house-title").inner_text().lower()
    assert lone.count() == 1
    assert page.locator('.option[data-option="rogue_soloist"]').count() == 0
    page.locator("#opt-dummy_lone_whist").uncheck()
    assert lone.get_attribute("data-changed") == "true"
    page.screenshot(path=str(artifacts / "variant-house-rules.png"), full_page=True)
    page.locator("#play").click()
    page.wait_for_url(re.compile(r"/table/[^/]+$"))
    assert sent[-1]["rules"] == {"preset": "two-player", "dummy_lone_whist": False}
    assert sent[-1]["players"] == 2
    st = wait_settled(page)
    assert st["rules"]["dummy_lone_whist"] is False and st["dummy"] == 2
    # back on the settings page, Sochi again: the dummy's option and its change are gone
    page.goto(live_server.url + "/")
    page.locator('#rules label.choice:has(input[value="sochi"])').click()
    page.locator("#house-rules-button").click()
    assert lone.count() == 0
    assert "dummy_lone_whist" not in page.locator("#house-count").inner_text()


@pytest.mark.parametrize("preset", ["racing-22", "classical-1971"])
def test_three_seat_variants_play_deals_in_the_page(
    page: Any, live_server: LiveServer, artifacts: Path, preset: str
) -> None:
    """Three deals of Racing and of Classical 1971 (its first half deals the Rogue with three
    players) through the page's controls, the sheet after each, no error anywhere."""
    game = new_game(page, live_server.url, rules=preset, seed=5)
    st = open_table(page, live_server.url, game)
    assert st["names"] == ["You", "Misha", "Lena"] and st["dummy"] is None
    seen: dict[str, int] = {}
    for number in (1, 2, 3):
        for _ in range(200):
            if st["deal_over"]:
                break
            assert page.locator('#status[data-kind="error"]').count() == 0, (
                page.locator("#status").inner_text())
            variant_turn(page, st, seen)
            st = wait_settled(page, seq(st))
        assert st["deal_over"] and st["deal_number"] == number
        page.locator("#sheet-overlay").wait_for(state="visible")
        assert len(st["observation"]["sheet"]["deals"]) == number
        assert page.locator("#sheet-overlay .entry .summary").inner_text().strip()
        if st["game_over"]:
            break
        page.screenshot(path=str(artifacts / f"variant-{preset}-deal-{number}.png"))
        page.locator('#sheet-overlay [data-action="NEXT DEAL"]').click()
        st = wait_settled(page, seq(st))
    assert seen.get("play"), seen
    if preset == "classical-1971":  # the first half's Rogue: each is soloist in turn
        assert seen.get("name"), seen
