"""Fixtures of the web server tests: an app on a temporary SQLite file, computer players
moving at once (helpers that play through the table's WebSocket: server_helpers.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import with_kept
from starlette.testclient import WebSocketTestSession


@pytest.fixture(autouse=True)
def _states_completed(monkeypatch: pytest.MonkeyPatch) -> None:
    """``ws.receive_json()`` gives a state frame completed as the page completes it (the
    sheet a frame leaves out is the one received last): the tests read whole states."""
    plain = WebSocketTestSession.receive_json

    def receive_json(self: WebSocketTestSession, mode: str = "text") -> object:
        return with_kept(self, plain(self, mode))

    monkeypatch.setattr(WebSocketTestSession, "receive_json", receive_json)


@pytest.fixture()
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.db'}"


@pytest.fixture()
def client(db_url: str) -> Iterator[TestClient]:
    from preferans.server.app import create_app

    with TestClient(create_app(db_url, bot_delay=0, bot_level="random")) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def postgres() -> Iterator[Any]:
    """A throwaway PostgreSQL server for the test module (``pg_server.TempPostgres``: its
    ``new_database(name)`` gives a URL), started when a test first asks for it; the tests
    that ask are skipped where none can run here (no PostgreSQL, no psycopg)."""
    from pg_server import running, unavailable

    if reason := unavailable():
        pytest.skip(reason)
    pytest.importorskip("psycopg", reason="the PostgreSQL tests need psycopg")
    with running() as server:
        yield server
