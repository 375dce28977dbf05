"""Fixtures of the web server tests: an app on a temporary SQLite file, computer players
moving at once, and helpers that play through the table's WebSocket."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient


@pytest.fixture()
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.db'}"


@pytest.fixture()
def client(db_url: str) -> Iterator[TestClient]:
    from preferans.server.app import create_app

    with TestClient(create_app(db_url, bot_delay=0)) as test_client:
        yield test_client


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


def read_until_settled(ws: Any, log: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Read state messages until the table waits for the human; return that state."""
    while True:
        message = ws.receive_json()
        if log is not None:
            log.append(message)
        assert message["type"] == "state", message
        if settled(message) and message["thinking"] is None:
            return message


def send_action(ws: Any, token: str) -> None:
    ws.send_json({"type": "action", "token": token})


def random_token(state: dict[str, Any], rng: random.Random) -> str:
    legal = state["observation"]["legal"]
    assert legal, state["observation"]
    return rng.choice(sorted(legal))
