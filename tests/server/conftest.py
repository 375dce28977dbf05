"""Fixtures of the web server tests: an app on a temporary SQLite file, computer players
moving at once (helpers that play through the table's WebSocket: server_helpers.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient


@pytest.fixture()
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.db'}"


@pytest.fixture()
def client(db_url: str) -> Iterator[TestClient]:
    from preferans.server.app import create_app

    with TestClient(create_app(db_url, bot_delay=0, bot_level="random")) as test_client:
        yield test_client
