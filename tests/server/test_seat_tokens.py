"""Seat tokens: a game answers only the browser that started it (its cookie), a game saved
before seat tokens goes to the first browser that opens it, and idle tables leave memory."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from server_helpers import new_game, read_until_settled, receive_json, send_action
from sqlalchemy import text
from starlette.websockets import WebSocketDisconnect

from preferans.server.app import create_app
from preferans.server.security.tokens import SEAT_COOKIE
from preferans.server.store.games import GameStore, make_engine

HUMAN_FIRST = 2


@contextmanager
def other_browser(client: TestClient, token: str | None = None) -> Iterator[TestClient]:
    """The same server seen from another browser: its own cookie (or none) for a while."""
    kept = dict(client.cookies)
    client.cookies.clear()
    if token is not None:
        client.cookies.set(SEAT_COOKIE, token)
    try:
        yield client
    finally:
        client.cookies.clear()
        for name, value in kept.items():
            client.cookies.set(name, value)


def refused_socket(client: TestClient, game_id: str) -> dict[str, object]:
    """Open the table's socket: the one message must be the refusal, then the close 4403."""
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        message = receive_json(ws)
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == 4403
    return message


def test_creating_a_game_sets_an_http_only_strict_cookie_and_saves_only_its_hash(
    client: TestClient, db_url: str
) -> None:
    response = client.post("/api/games", json={"difficulty": "easy", "seed": HUMAN_FIRST})
    assert response.status_code == 201
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{SEAT_COOKIE}=")
    for part in ("HttpOnly", "SameSite=strict", "Path=/"):
        assert part.lower() in cookie.lower(), cookie
    token = client.cookies[SEAT_COOKIE]
    assert len(token) >= 40
    saved = client.app.state.store.get(response.json()["id"])  # type: ignore[attr-defined]
    assert saved.seats == {"0": hashlib.sha256(token.encode()).hexdigest()}
    db_file = Path(db_url[len("sqlite:///"):])
    stored = b"".join(p.read_bytes() for p in db_file.parent.glob("games.db*"))
    assert token.encode() not in stored  # the token itself is never written
    # the browser's next game keeps its token
    second = client.post("/api/games", json={"difficulty": "easy"})
    assert client.cookies[SEAT_COOKIE] == token
    assert client.app.state.store.get(second.json()["id"]).seats == saved.seats  # type: ignore[attr-defined]


@pytest.mark.parametrize("stranger", [None, "another-browser-token-" + "x" * 30])
def test_another_browser_can_neither_find_read_nor_play_the_game(
    client: TestClient, stranger: str | None
) -> None:
    game_id = new_game(client, seed=HUMAN_FIRST)
    with client.websocket_connect(f"/ws/{game_id}") as ws:  # the owner plays a move
        state = receive_json(ws)
        send_action(ws, sorted(state["observation"]["legal"])[0])
        mine = read_until_settled(ws)
    table = client.app.state.tables.get(game_id)  # type: ignore[attr-defined]
    history = list(table.game.deal.history)
    with other_browser(client, stranger):
        assert client.get("/api/games/current").status_code == 404
        assert game_id not in client.get("/").text
        page = client.get(f"/table/{game_id}")
        assert page.status_code == 403 and "belongs to another browser" in page.text
        assert "/static/table.js" not in page.text  # not the table page
        record = client.get(f"/api/games/{game_id}/record")
        assert record.status_code == 403 and "another browser" in record.json()["detail"]
        refusal = refused_socket(client, game_id)
        assert refusal["type"] == "error" and refusal["code"] == "not_yours"
        assert "observation" not in refusal
    assert table.game.deal.history == history  # nothing was played for the stranger
    assert client.get("/api/games/current").json()["id"] == game_id  # the owner still can
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        assert receive_json(ws)["observation"] == mine["observation"]


def test_a_game_saved_before_seat_tokens_goes_to_the_first_browser(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0, bot_level="random")) as client:
        game_id = new_game(client, seed=HUMAN_FIRST)
    engine = make_engine(db_url)
    with engine.begin() as conn:  # an older database: no seats column at all
        conn.execute(text("ALTER TABLE games DROP COLUMN seats"))
    engine.dispose()
    older = GameStore(db_url)
    assert older.get(game_id).seats is None  # the column comes back, empty
    older.close()  # the server owns its file
    with TestClient(create_app(db_url, bot_delay=0, bot_level="random")) as first:
        assert first.get("/api/games/current").json()["id"] == game_id  # free: offered
        with first.websocket_connect(f"/ws/{game_id}") as ws:  # no token yet: not here
            assert receive_json(ws)["code"] == "not_yours"
        page = first.get(f"/table/{game_id}")  # opening the table claims it
        assert page.status_code == 200 and SEAT_COOKIE in page.headers["set-cookie"]
        with first.websocket_connect(f"/ws/{game_id}") as ws:
            assert receive_json(ws)["type"] == "state"
        with other_browser(first, "late-browser-token-" + "y" * 30):
            assert first.get(f"/table/{game_id}").status_code == 403
            assert first.get("/api/games/current").status_code == 404


def test_idle_tables_leave_memory_and_come_back_from_the_store(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0, bot_level="random",
                               idle_seconds=0.2)) as client:
        tables = client.app.state.tables  # type: ignore[attr-defined]
        games = [new_game(client, seed=HUMAN_FIRST + 3 * k) for k in range(4)]
        seen = {}
        for game_id in games:
            with client.websocket_connect(f"/ws/{game_id}") as ws:
                seen[game_id] = read_until_settled(ws)
        with client.websocket_connect(f"/ws/{games[0]}") as held:  # a socket keeps it open
            receive_json(held)
            deadline = time.monotonic() + 20
            while set(tables.open) != {games[0]}:
                assert time.monotonic() < deadline, f"still open: {sorted(tables.open)}"
                time.sleep(0.05)
        for game_id in games[1:]:
            with client.websocket_connect(f"/ws/{game_id}") as ws:
                assert receive_json(ws)["observation"] == seen[game_id]["observation"]
            assert game_id in tables.open
