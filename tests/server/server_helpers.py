"""Helpers of the web server tests: create games, read the table's states, pick actions."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import anyio
from fastapi.testclient import TestClient

RECEIVE_TIMEOUT = 30.0
"""Seconds a test waits for the server's next message before it fails (instead of hanging
when the computer players stopped)."""


def new_game(client: TestClient, **settings: Any) -> str:
    """Create a game through the API and return its id."""
    body = {"difficulty": "easy", "rules": "sochi", "pool": 10, **settings}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()["id"]


def human_to_act(state: dict[str, Any]) -> bool:
    obs = state["observation"]
    return not state["deal_over"] and obs["to_act"] == 0


def settled(state: dict[str, Any]) -> bool:
    """The table waits for the human: its turn, or a finished deal or game."""
    return state["type"] == "state" and (human_to_act(state) or state["deal_over"])


def receive_json(ws: Any, timeout: float = RECEIVE_TIMEOUT) -> dict[str, Any]:
    """The next message of a test WebSocket, or an AssertionError after ``timeout`` seconds
    (``ws.receive_json()`` would wait for ever if the table stopped sending)."""

    async def receive() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    try:
        message = ws.portal.call(receive)
    except TimeoutError:
        raise AssertionError(f"no message from the server within {timeout} s") from None
    assert message["type"] == "websocket.send", message
    return with_kept(ws, json.loads(message["text"]))


def with_kept(ws: Any, msg: dict[str, Any]) -> dict[str, Any]:
    """A state frame completed as the page completes it: a frame that leaves the sheet out
    (``"kept": ["sheet"]``) gets the sheet this socket received last."""
    if msg.get("type") != "state":
        return msg
    observation = msg.get("observation") or {}
    if "sheet" in (msg.get("kept") or ()):
        assert "sheet" not in observation, msg
        assert hasattr(ws, "last_sheet"), "a frame kept a sheet this socket never received"
        observation["sheet"] = ws.last_sheet
    elif "sheet" in observation:
        ws.last_sheet = observation["sheet"]
    return msg


def read_until_settled(ws: Any, log: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Read state messages until the table waits for the human; return that state."""
    while True:
        message = receive_json(ws)
        if log is not None:
            log.append(message)
        assert message["type"] == "state", message
        if settled(message) and message["thinking"] is None:
            return message


def send_action(ws: Any, token: str) -> None:
    ws.send_json({"type": "action", "token": token})


def random_token(state: dict[str, Any], rng: random.Random) -> str:
    """Any legal action of the human, uniformly."""
    legal = state["observation"]["legal"]
    assert legal, state["observation"]
    return rng.choice(sorted(legal))


def modest_token(state: dict[str, Any], rng: random.Random) -> str:
    """A random legal action that keeps games short: in the auction mostly PASS or one of
    the lowest bids, the lowest contract; otherwise any legal action.  (Uniformly random
    bidding declares ten-trick contracts that fail, and no pool ever closes.)"""
    obs = state["observation"]
    legal = list(obs["legal"])
    assert legal, obs
    if obs["phase"] == "auction":
        bids = [t for t in legal if t != "PASS"]
        if "PASS" in legal and (not bids or rng.random() < 0.6):
            return "PASS"
        return rng.choice(bids[:3])
    if obs["phase"] == "contract":
        return legal[0]
    return rng.choice(sorted(legal))


def play_until(ws: Any, rng: random.Random, stop: Any, log: list[dict[str, Any]] | None = None,
               limit: int = 5000, choose: Any = None) -> dict[str, Any]:
    """Play the human's side with random legal actions (``choose``, by default
    :func:`modest_token`) and NEXT DEAL until ``stop(state)`` holds for a state where the
    table waits for the human; return that state."""
    choose = choose or modest_token
    state = read_until_settled(ws, log)
    for _ in range(limit):
        if stop(state):
            return state
        if state["game_over"]:
            raise AssertionError("the game ended before the condition was met")
        if state["deal_over"]:
            ws.send_json({"type": "next_deal"})
        else:
            send_action(ws, choose(state, rng))
        state = read_until_settled(ws, log)
    raise AssertionError("the condition was never met")


T = TypeVar("T")


def run_async(coro: Coroutine[Any, Any, T]) -> T:
    """asyncio.run in a thread of its own: in a test process where a browser test ran
    first, Playwright's sync API keeps an event loop running in the main thread."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()
