"""Two variant decisions reached in play and taken through the page: a real blind auction
(Classical 1971, ``blind_bids``, second half) and VMK's POOL or HILL (``pool_overflow_choice``).

Clicking through the whole first half (or a pool of deals) would be too slow, so each test
builds its game in Python the way the server does (:meth:`Table.new` with the game's seed,
each later deal dealt by :func:`deal_hands`, as NEXT DEAL does), lets Easy computer players
decide every seat's moves through the engine, saves it into the live server's database as
the table saves after each action (record, status, summary), and opens ``/table/{id}``: the
server restores it from its record, as after a restart.  No token is injected anywhere.

Screenshots go to ``test-artifacts/`` (decision-*.png).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from table_driver import click_action, click_card, click_token, open_table, phase, seq, wait_settled
from test_variants_table import play_one_deal

from preferans.game import Game
from preferans.players import Player, make_player
from preferans.server.lang.house_rules import rules_from_settings
from preferans.server.store.schema import PLAYING
from preferans.server.store.stats import summarise
from preferans.server.table.seats import bot_seed
from preferans.server.table.table import Table, deal_hands

pytestmark = pytest.mark.browser

Stop = Callable[[Table, int, list[str]], bool]


def easy_players(table: Table) -> dict[int, Player]:
    """Easy players for every seat, made as the server makes its computer players (a table
    restored at a deal's start has fresh ones with these seeds, and Easy's choice depends on
    the observation alone): seat 0 plays as the human will through the page."""
    return {seat: make_player("easy", table.rules, bot_seed(table.seed, seat))
            for seat in range(len(table.names))}


def advance(table: Table, stop: Stop, max_deals: int) -> None:
    """Play the table's game with Easy players on every seat, through the engine, until
    ``stop(table, seat_to_act, legal_tokens)`` holds before a decision."""
    game = table.game
    players = easy_players(table)
    for _ in range(20_000):
        if table.deal_over():
            assert not game.finished, "the game ended before the situation arose"
            assert table.deal_number() < max_deals, f"not reached within {max_deals} deals"
            hands, talon = deal_hands(table.seed, table.deal_number(), table.rules.players,
                                      game.dealer)
            game.start_deal(hands=hands, talon=talon)
            players = easy_players(table)  # as a restore would make them at this deal
        seat = int(game.deal.to_act)
        legal = [str(action) for action in game.legal_actions()]
        if stop(table, seat, legal):
            return
        token = players[seat].choose(game.observation(seat))
        assert token in legal, (token, legal)
        game.apply(token)
    raise AssertionError("the game did not reach the situation in 20000 actions")


def save_built_game(live_server: LiveServer, game_id: str, preset: str, seed: int, stop: Stop,
                    *, pool: int | None = None, max_deals: int = 80) -> Table:
    """Create a game as ``POST /api/games`` does, play it on with Easy players until ``stop``,
    and save it into the live server's database as the table saves after every action."""
    store = live_server.store
    rules = rules_from_settings(preset, players=None, pool=pool)
    table = Table.new(game_id, difficulty="easy", rules=rules, seed=seed, store=store,
                      bot_delay=0)
    advance(table, stop, max_deals)
    store.save(game_id, record=table.record(), status=PLAYING,
               summary=summarise(table.sheet_json()))
    saved = store.get(game_id)
    assert saved is not None and Game.from_record(saved.record).deal is not None
    return table


def no_error(page: Any) -> None:
    status = page.locator('#status[data-kind="error"]')
    assert status.count() == 0, status.inner_text()


# Found once, offline: seeds 0 to 3 all gave the human a blind decision at the first deal
# of the second half (deal 25: 18 Rogue deals, two all-pass laps of half-time); seed 0 kept.
# Since Easy bids by rough feel (issue 35) a computer player before the human bids seeing on
# deals 25 and 26, which takes the blind bids away: the human's first blind decision is the
# third deal of the second half.
BLIND_SEED = 0
BLIND_DEAL = 27


def test_a_real_blind_auction(page: Any, live_server: LiveServer, artifacts: Path) -> None:
    """Classical 1971 with its ``blind_bids``: the first half (the Rogue) and half-time are
    played by Easy players in Python, the game saved where the human, in the second half,
    first has a blind decision; the page offers SEE, BLIND PASS and the blind grid with the
    cards face down (no seeing grid before SEE), all on the screen, a blind bid is
    accepted, the deal is played to its end through the page and the sheet writes the blind
    game (doubled)."""

    def blind_turn(table: Table, seat: int, legal: list[str]) -> bool:
        return seat == 0 and any(token.startswith("BLIND ") for token in legal)

    table = save_built_game(live_server, "blind-auction", "classical-1971", BLIND_SEED,
                            blind_turn, max_deals=40)
    assert table.rules.blind_bids and table.game.sheet.stage == "second half"
    assert table.deal_number() == BLIND_DEAL
    st = open_table(page, live_server.url, "blind-auction")
    obs = st["observation"]
    assert st["deal_number"] == BLIND_DEAL and phase(st) == "auction" and obs["to_act"] == 0
    assert obs["hand_hidden"] and obs["hand"] == []
    assert "SEE" in obs["legal"] and "BLIND 6S" in obs["legal"]
    assert not any(token[0].isdigit() for token in obs["legal"])  # no seeing bid before SEE
    assert page.locator("#status").inner_text().startswith("Your cards are face down")
    # the human's ten cards lie face down
    assert page.locator("#seat-0 .card.back").count() == 10
    assert page.locator("#seat-0 [data-card]").count() == 0
    panel = page.locator("#panel")
    blind = panel.locator(".blind-cells")
    blind.wait_for(state="visible")
    blind_bids = [token for token in obs["legal"] if token.startswith("BLIND ") and
                  token != "BLIND PASS"]
    assert blind.locator("button.lit").count() == len(blind_bids) == 25
    assert blind.locator("button:enabled").count() == len(blind_bids)
    # the seeing grid, useless until SEE, is left out: SEE and BLIND PASS come first, the
    # blind grid under them, and the whole choice fits on the screen without scrolling
    assert panel.locator(".bid-grid > .grid-cells:not(.blind-cells)").count() == 0
    assert panel.locator('button[data-token="PASS"]').count() == 0
    for token in ("SEE", "BLIND PASS"):
        assert panel.locator(f'button[data-token="{token}"]').is_enabled(), token
    assert page.evaluate("document.activeElement.dataset.token") == "SEE"
    box = panel.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 800
    fits = "(p => p.scrollHeight <= p.clientHeight)(document.querySelector('#panel'))"
    assert page.evaluate(fits)
    for token in ("SEE", "BLIND PASS", "BLIND 10NT"):
        button = panel.locator(f'button[data-token="{token}"]').bounding_box()
        assert button is not None and button["y"] + button["height"] <= box["y"] + box["height"]
    page.screenshot(path=str(artifacts / "decision-blind-grid.png"))

    blind.locator('button[data-token="BLIND 6S"]').click()
    st = wait_settled(page, seq(st))
    no_error(page)
    obs = st["observation"]
    calls = obs["auction"]
    assert [0, "BLIND 6S"] in calls and all(t == "PASS" for s, t in calls if s != 0), calls
    # Misha and Lena pass seeing: the blind six wins, the talon is the human's
    assert phase(st) == "discard" and obs["declarer"] == 0 and len(obs["hand"]) == 12

    seen: dict[str, int] = {}
    st = play_one_deal(page, st, artifacts, "blind", seen)
    assert seen.get("play"), seen
    entry = st["last_entry"]
    assert entry is not None and entry["kind"] in ("contract", "misere")
    assert entry["declarer"] == 0, entry
    assert "bid blind: doubled" in entry["summary"], entry["summary"]
    assert len(st["observation"]["sheet"]["deals"]) == BLIND_DEAL
    page.locator("#sheet-overlay").wait_for(state="visible")
    shown = page.locator("#sheet-overlay .entry .summary").last.inner_text()
    assert "bid blind: doubled" in shown, shown
    no_error(page)
    page.screenshot(path=str(artifacts / "decision-blind-sheet.png"))


# Found offline, by playing VMK games (pool 10) of seeds 0..11 with Easy players on every
# seat (advance() with the stop "seat 0 is offered HILL"): seed 9 is the quickest where the
# human, soloist, makes a game that overflows his nearly full pool, on deal 11 (seed 11 on
# deal 8, but with his pool already full; seeds 2 and 1 on deals 16 and 23).  Easy's games
# changed twice: the open defence (both hands face up) took seed 2's deal 45 away, and Easy
# bidding by rough feel (issue 35, its games far shorter) seed 9's deal 6.
WRITE_SEED = 9
WRITE_DEAL = 11


def play_to_write(game: Game, seed: int) -> None:
    """Play the current deal with Easy players (the server's seeds) until the human is asked
    POOL or HILL; fails if the deal ends first."""
    deal = game.deal
    assert deal is not None
    players = {seat: make_player("easy", game.rules, bot_seed(seed, seat))
               for seat in range(len(game.players))}
    while game.deal is deal and deal.to_act is not None:
        seat = int(deal.to_act)
        legal = [str(action) for action in game.legal_actions()]
        if seat == 0 and "HILL" in legal:
            return
        game.apply(players[seat].choose(game.observation(seat)))
    raise AssertionError("the deal ended without asking the human POOL or HILL")


def human_turn(page: Any, st: dict[str, Any], token: str) -> None:
    """Take the human's decision ``token`` through the page's own controls."""
    now = phase(st)
    if now == "play":
        click_card(page, token, st["observation"].get("hand_to_play") or 0)
    elif token.startswith("DISCARD "):
        for card in token.split()[1:]:
            click_card(page, card)
        click_action(page, "DISCARD")
    else:  # a bid, the contract, a whist: the panel's button of that token
        click_token(page, token)


def test_pool_or_hill_reached_in_play(page: Any, live_server: LiveServer,
                                      artifacts: Path) -> None:
    """VMK (``pool_overflow_choice``), pool 10: the first deals played by Easy players in
    Python, the game saved at the start of deal WRITE_DEAL, in which the human declares and
    makes a game his nearly full pool cannot take.  The human plays the deal through the
    page (each decision Easy's, the server's computer players the same Easy players), is
    asked POOL or HILL with a button for each, chooses HILL, and the sheet writes the
    surplus off his mountain: the entry is the engine's for HILL, not the one for POOL."""

    def deal_start(table: Table, seat: int, legal: list[str]) -> bool:
        return table.deal_number() == WRITE_DEAL

    table = save_built_game(live_server, "pool-or-hill", "vmk", WRITE_SEED, deal_start,
                            pool=10, max_deals=WRITE_DEAL + 1)
    assert table.rules.pool_overflow_choice and table.rules.pool == 10
    record = table.record()
    expected: dict[str, dict[str, Any]] = {}
    for choice in ("POOL", "HILL"):  # what each answer writes, by the engine alone
        game = Game.from_record(record)
        play_to_write(game, WRITE_SEED)
        game.apply(choice)
        expected[choice] = game.sheet.to_json()["deals"][-1]
    assert expected["HILL"]["change"] != expected["POOL"]["change"]
    assert expected["HILL"]["declarer"] == 0

    st = open_table(page, live_server.url, "pool-or-hill")
    assert st["deal_number"] == WRITE_DEAL
    before = st["observation"]["sheet"]
    assert 0 < before["pool"][0] < 10 and before["mountain"][0] > 0  # nearly full, a mountain
    human = make_player("easy", table.rules, bot_seed(WRITE_SEED, 0))
    seen: dict[str, int] = {}
    for _ in range(60):
        assert not st["deal_over"], "the deal ended without asking POOL or HILL"
        no_error(page)
        now = phase(st)
        if now == "write":
            break
        seen[now] = seen.get(now, 0) + 1
        human_turn(page, st, human.choose(st["observation"]))
        st = wait_settled(page, seq(st))
    else:
        raise AssertionError("POOL or HILL was not asked within 60 decisions")
    obs = st["observation"]
    assert obs["declarer"] == 0 and sorted(obs["legal"]) == ["HILL", "POOL"]
    assert seen.get("auction") and seen.get("discard") and seen.get("play"), seen
    assert page.locator("#status").inner_text() == "Where do your points go: POOL or HILL?"
    panel = page.locator("#panel")
    for token in ("POOL", "HILL"):
        button = panel.locator(f'button[data-token="{token}"]')
        assert button.count() == 1 and button.is_visible() and button.is_enabled(), token
    assert panel.locator('button[data-token="HILL"]').inner_text() == "HILL (off your mountain)"
    # what is at stake, from the deal's preview: the points, the pool's room, the surplus
    stake = obs["write"]
    assert stake["surplus"] > 0 and stake["mountain"] > 0
    assert stake["room"] + stake["surplus"] == stake["points"]
    help_text = panel.locator(".write-help").inner_text()
    assert f"earns {stake['points']} points" in help_text, help_text
    assert f"room for {stake['room']}" in help_text
    assert f"({stake['mountain']} on it now)" in help_text
    page.screenshot(path=str(artifacts / "decision-pool-or-hill.png"))

    panel.locator('button[data-token="HILL"]').click()
    st = wait_settled(page, seq(st))
    no_error(page)
    assert st["deal_over"] and st["deal_number"] == WRITE_DEAL
    entry = st["last_entry"]
    assert entry["change"] == expected["HILL"]["change"], (entry, expected["HILL"])
    assert entry["summary"] == expected["HILL"]["summary"]
    sheet = st["observation"]["sheet"]
    assert sheet["deals"][-1] == entry and len(sheet["deals"]) == WRITE_DEAL
    assert sheet["mountain"][0] < before["mountain"][0]  # written off his own mountain
    page.locator("#sheet-overlay").wait_for(state="visible")
    shown = page.locator("#sheet-overlay .entry .summary").last.inner_text()
    assert shown == entry["summary"], shown
    page.screenshot(path=str(artifacts / "decision-pool-or-hill-sheet.png"))
