"""Whole games of the structural variants through the table's WebSocket, and the guard that
makes a failing computer player fall back to a random legal move.

The human (seat 0) plays any legal action the server offers (:func:`modest_token`), the
computer players are the random baseline (``bot_level="random"``, see conftest.py).  Every
wait for the server is bounded (:func:`server_helpers.receive_json`), so a table whose
computer players stopped fails the test instead of hanging it.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import modest_token, new_game, receive_json, run_async, settled

from preferans.game import Game
from preferans.rules import Rules
from preferans.server.app import create_app
from preferans.server.store.games import GameStore
from preferans.server.table.seats import DUMMY_NAME
from preferans.server.table.table import Table


def play_game(
    client: TestClient, preset: str, seed: int, max_deals: int | None = None
) -> tuple[str, list[dict[str, Any]], Counter[str]]:
    """Play a game of ``preset`` through the WebSocket until it ends (or ``max_deals`` deals
    have ended); return its id, every message received and how often the human saw each
    phase."""
    rng = random.Random(seed)
    game_id = new_game(client, rules=preset, pool=10, seed=seed)
    log: list[dict[str, Any]] = []
    phases: Counter[str] = Counter()
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        state = receive_json(ws)
        log.append(state)
        for _ in range(20000):
            assert state["type"] == "state", state
            if state["game_over"]:
                break
            if settled(state) and state["thinking"] is None:
                if state["deal_over"]:
                    if max_deals is not None and state["deal_number"] >= max_deals:
                        break
                    ws.send_json({"type": "next_deal"})
                else:
                    phases[state["observation"]["phase"]] += 1
                    ws.send_json({"type": "action", "token": modest_token(state, rng)})
            state = receive_json(ws)
            log.append(state)
        else:
            raise AssertionError("the game did not end in 20000 messages")
    return game_id, log, phases


def check_two_seats(log: list[dict[str, Any]]) -> None:
    """Every state of a two-player table: two names, the dummy at seat 2, three hands."""
    for state in log:
        assert state["names"] == ["You", "Misha"]
        assert state["dummy"] == 2 and state["dummy_name"] == DUMMY_NAME
        assert len(state["colours"]) == 3
        obs = state["observation"]
        assert obs["players"] == ["You", "Misha"]  # the dummy is never named in the view
        assert len(obs["hand_sizes"]) == 3
        assert obs["to_act"] in (0, 1, None)  # the dummy never decides


def check_finished(client: TestClient, game_id: str, log: list[dict[str, Any]],
                   players: int) -> Game:
    """The game ended: a zero-sum result, its record replays to the same sheet."""
    last = log[-1]
    assert last["game_over"] and last["deal_over"]
    result = last["result"]
    assert len(result) == players and abs(sum(result)) < 1e-6
    response = client.get(f"/api/games/{game_id}/record")
    assert response.status_code == 200
    game = Game.from_record(response.json())
    assert game.finished
    assert len(game.finished_deals) == last["deal_number"]
    assert game.sheet.to_json()["balance"] == result
    ended = [m for m in log if m["event"] and m["event"]["kind"] == "deal_scored"]
    assert len(ended) == last["deal_number"]
    return game


def test_a_whole_two_player_game(client: TestClient) -> None:
    game_id, log, phases = play_game(client, "two-player", seed=1)
    check_two_seats(log)
    game = check_finished(client, game_id, log, players=2)
    assert game.rules.name == "two-player" and len(game.finished_deals) >= 3
    assert phases["auction"] and phases["play"]
    # the dummy's hand was opened and played by the human at least once
    played_dummy = [m for m in log if m["observation"]["to_act"] == 0
                    and m["observation"].get("hand_to_play") == 2]
    assert played_dummy, "the human never played the dummy's cards"


def test_the_human_sees_why_a_dummy_card_cannot_be_played(client: TestClient) -> None:
    """The state's why_not names the dummy's hand (this raised IndexError in the engine's
    message, a two-player deal having only two names), and an illegal dummy card gets a
    clear error."""
    rng = random.Random(4)
    for seed in range(1, 12):
        game_id = new_game(client, rules="two-player", pool=10, seed=seed)
        with client.websocket_connect(f"/ws/{game_id}") as ws:
            state = receive_json(ws)
            for _ in range(3000):
                obs = state["observation"]
                if settled(state) and state["thinking"] is None:
                    if state["game_over"]:
                        break
                    dummy_cards = set((obs.get("exposed") or {}).get("2", []))
                    blocked = sorted(set(state["why_not"]) & dummy_cards)
                    if obs.get("hand_to_play") == 2 and blocked:
                        assert all(f"in {DUMMY_NAME}'s hand" in state["why_not"][c]
                                   for c in blocked), state["why_not"]
                        ws.send_json({"type": "action", "token": blocked[0]})
                        error = receive_json(ws)
                        assert error["type"] == "error" and error["code"] == "illegal"
                        assert f"in {DUMMY_NAME}'s hand" in error["message"]
                        return
                    if state["deal_over"]:
                        ws.send_json({"type": "next_deal"})
                    else:
                        ws.send_json({"type": "action", "token": modest_token(state, rng)})
                state = receive_json(ws)
    pytest.fail("no seed let the human try an unplayable card of the dummy")


def test_a_whole_rogue_game(client: TestClient) -> None:
    game_id, log, phases = play_game(client, "rogue-small", seed=2)
    check_two_seats(log)
    game = check_finished(client, game_id, log, players=2)
    assert game.sheet.to_json()["rogue_lists"] == [[], []]  # both lists played out
    assert phases["name"], "the human never named a Rogue game"
    named = [m["event"] for m in log if m["event"] and m["event"]["kind"] == "contract"
             and m["event"]["seat"] == 0]
    assert named


@pytest.mark.parametrize(("preset", "phase"), [("racing-22", "write"),
                                               ("classical-1971", "name")])
def test_three_seat_variants_deal_after_deal(client: TestClient, preset: str,
                                             phase: str) -> None:
    """Racing and Classical 1971: 25 deals each (random players never close a Racing game:
    they bid tens and fail them), with the variant's own phase reached by the human."""
    game_id, log, phases = play_game(client, preset, seed=1, max_deals=25)
    assert log[-1]["deal_number"] == 25 and log[-1]["deal_over"]
    assert all(m["names"] == ["You", "Misha", "Lena"] and m["dummy"] is None for m in log)
    assert phases[phase], (preset, phases)
    table = client.app.state.tables.get(game_id)  # type: ignore[attr-defined]
    assert len(table.game.sheet.entries) == 25


@pytest.mark.parametrize("preset", ["two-player", "rogue-small"])
def test_a_two_seat_game_restored_after_a_restart(db_url: str, preset: str) -> None:
    """Saved in the middle of the play of a deal after the first, the game comes back as it was."""
    rng = random.Random(6)
    with TestClient(create_app(db_url, bot_delay=0, bot_level="random")) as client:
        game_id = new_game(client, rules=preset, pool=10, seed=11)
        with client.websocket_connect(f"/ws/{game_id}") as ws:
            state = receive_json(ws)
            for _ in range(2000):
                assert state["type"] == "state", state
                obs = state["observation"]
                if (settled(state) and state["thinking"] is None and not state["deal_over"]
                        and state["deal_number"] >= 2 and obs["phase"] == "play"
                        and obs["tricks"]):
                    break
                if settled(state) and state["thinking"] is None:
                    if state["deal_over"]:
                        ws.send_json({"type": "next_deal"})
                    else:
                        ws.send_json({"type": "action", "token": modest_token(state, rng)})
                state = receive_json(ws)
            else:
                raise AssertionError("no later deal's play was reached")
        before = state
    with TestClient(create_app(db_url, bot_delay=0, bot_level="random"),
                    cookies=client.cookies) as client:  # the same browser
        assert client.get(f"/table/{game_id}").status_code == 200
        with client.websocket_connect(f"/ws/{game_id}") as ws:
            restored = receive_json(ws)
            assert restored["observation"] == before["observation"]
            assert restored["why_not"] == before["why_not"]
            assert restored["names"] == ["You", "Misha"] and restored["dummy"] == 2
            ws.send_json({"type": "action", "token": modest_token(restored, rng)})
            after = receive_json(ws)
            assert after["type"] == "state" and after["event"]["seat"] == 0


# --- the random fallback of a failing computer player (ce70565) ------------------------------
class Broken:
    """A computer player that always fails."""

    def __init__(self) -> None:
        self.calls = 0

    def choose(self, observation: dict[str, Any]) -> str:
        self.calls += 1
        raise RuntimeError("this player does not know the variant")


class Illegal:
    """A computer player that always answers with something illegal."""

    def __init__(self) -> None:
        self.calls = 0

    def choose(self, observation: dict[str, Any]) -> str:
        self.calls += 1
        return "RESIGN" if observation["phase"] != "play" else "7S 7S"


def make_table(tmp_path: Path, preset: str, seed: int) -> Table:
    store = GameStore(f"sqlite:///{tmp_path / 'games.db'}")
    rules = Rules.preset(preset)
    return Table.new("fallback", difficulty="easy", rules=rules, seed=seed, store=store,
                     bot_delay=0, bot_level="random")


async def drive_a_deal(table: Table, rng: random.Random, seconds: float) -> None:
    """Play the human's moves and let the computer players move until the deal ends, all
    within ``seconds`` (asyncio.wait_for: the test cannot hang)."""

    async def run() -> None:
        while not table.deal_over():
            table._ensure_driver()
            if table._driver is not None:
                await table._driver
            if table.deal_over():
                break
            assert table.seat_to_act() == 0, "the computer players stopped before the human"
            legal = sorted(str(a) for a in table.game.legal_actions())
            await table._human_action(rng.choice(legal))

    await asyncio.wait_for(run(), seconds)


@pytest.mark.parametrize("player", [Broken, Illegal])
@pytest.mark.parametrize("preset", ["sochi", "two-player", "rogue-small"])
def test_a_failing_computer_player_falls_back_to_a_random_legal_move(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, player: type, preset: str
) -> None:
    table = make_table(tmp_path, preset, seed=5)
    broken = {seat: player() for seat in table.bots}
    table.bots.update(broken)  # type: ignore[arg-type]
    events: list[dict[str, Any]] = []
    table.listeners.append(lambda payload: events.append(payload["event"] or {}))
    with caplog.at_level(logging.WARNING, logger="preferans.server"):
        run_async(drive_a_deal(table, random.Random(1), seconds=30))
    assert table.deal_over() and len(table.game.finished_deals) == 1
    assert sum(p.calls for p in broken.values()) > 0
    bot_moves = [e for e in events if e.get("seat") in broken]
    assert bot_moves, "the computer players made no move"
    fallbacks = [r for r in caplog.records if "playing a random legal action" in r.message]
    assert fallbacks
    # logged once per seat and phase, not at every move
    assert len(fallbacks) == len(table._fallbacks_logged)
    assert len(fallbacks) < sum(p.calls for p in broken.values())
    # the deal is saved and replays
    saved = table.store.get(table.id)
    assert saved is not None
    assert len(Game.from_record(saved.record).finished_deals) == 1

