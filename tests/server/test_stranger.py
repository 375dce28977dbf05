"""What a stranger on the network could still do, each refused (issue "What a stranger can
still do"): a body of any size, a game-creation flood, a code of odd characters, a name that
only looks like another's, and a database fault that showed every player the file's path.
The slow requests, the forwarded addresses and the stopped thinking processes are tested on
a real server (``test_stranger_live.py``, ``test_thinking_stopped.py``)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import new_game, run_async
from test_friends import Browser, code_of, create, seated
from test_store_faults import make_read_only

from preferans.server.app import create_app
from preferans.server.security.bodies import BODY_MOST, UPLOAD_BODY, BodyLimit
from preferans.server.security.limits import CREATIONS_BURST


# --- 1. bodies -------------------------------------------------------------------------------
async def _call(app: Any, path: str, headers: list[tuple[bytes, bytes]],
                chunks: list[bytes]) -> tuple[int, list[dict[str, Any]], int]:
    """``app`` called with a POST to ``path``: (the status, what it sent, the chunks it read)."""
    sent: list[dict[str, Any]] = []
    read = 0

    async def receive() -> dict[str, Any]:
        nonlocal read
        if read >= len(chunks):
            await asyncio.sleep(3600)  # a client that never sends the rest
        read += 1
        return {"type": "http.request", "body": chunks[read - 1],
                "more_body": read < len(chunks)}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": path, "raw_path": path.encode(),
             "query_string": b"", "headers": [(b"host", b"testserver"), *headers],
             "scheme": "http", "server": ("testserver", 80), "client": ("1.2.3.4", 5),
             "http_version": "1.1", "asgi": {"version": "3.0"}, "root_path": ""}
    await asyncio.wait_for(app(scope, receive, send), 10)
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    return status, sent, read


def test_a_declared_body_over_the_bound_is_refused_unread() -> None:
    app = create_app("sqlite://", bot_delay=0, bot_workers=0)
    for path in ("/api/games", "/api/friends", "/api/friends/abc/join", "/api/review"):
        declared = str(300_000_000).encode()
        status, sent, read = run_async(_call(app, path, [(b"content-length", declared),
                                                         (b"content-type", b"application/json")],
                                             [b"x" * 1000]))
        assert (status, read) == (413, 0), path  # answered before a byte of it was read
        said = b"".join(m.get("body", b"") for m in sent)
        assert b"65,536" in said or b"2,000,000" in said, said  # the bound, in words


def test_a_body_without_a_length_is_cut_at_the_bound() -> None:
    app = create_app("sqlite://", bot_delay=0, bot_workers=0)
    chunk = b"x" * 16_384
    for path, most in (("/api/games", BODY_MOST), ("/api/review", UPLOAD_BODY)):
        chunks = [chunk] * (most // len(chunk) + 50)
        status, _, read = run_async(_call(app, path, [(b"transfer-encoding", b"chunked"),
                                                      (b"content-type", b"application/json")],
                                          chunks))
        assert status == 413, path
        assert read == most // len(chunk) + 1, path  # no more than the bound was taken


def test_bodies_within_the_bound_still_reach_their_routes(client: TestClient) -> None:
    assert client.post("/api/games", json={"difficulty": "easy"}).status_code == 201
    assert client.post("/api/review", content=b"[]", headers={
        "content-type": "application/json"}).status_code == 422  # read and judged
    refused = client.post("/api/games", content=b"{" + b" " * BODY_MOST + b"}",
                          headers={"content-type": "application/json", "accept-language": "ru"})
    assert refused.status_code == 413 and "слишком велик" in refused.json()["detail"]
    assert BodyLimit  # the middleware the app is built with


# --- 6. creation ------------------------------------------------------------------------------
def test_a_creation_flood_meets_429_in_the_players_language(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PREFERANS_CREATION_RATE", raising=False)
    with TestClient(create_app("sqlite://", bot_delay=0, bot_workers=0)) as client:
        made = [client.post("/api/games", json={"difficulty": "easy"}).status_code
                for _ in range(CREATIONS_BURST)]
        assert made == [201] * CREATIONS_BURST  # an honest burst goes through
        refused = client.post("/api/games", json={"difficulty": "easy"},
                              headers={"accept-language": "ru"})
        assert refused.status_code == 429
        assert refused.json()["code"] == "too_many_games"
        assert "подождите" in refused.json()["detail"]
        assert int(refused.headers["retry-after"]) >= 1
        friends = client.post("/api/friends", json={"name": "Anna", "seats": ["friend", "easy"]})
        assert friends.status_code == 429  # tables for friends count too
        assert client.get("/api/rules").status_code == 200  # nothing else is slowed


# --- 4. codes ---------------------------------------------------------------------------------
ODD_CODES = ["Аbc", "ключ", "💥" * 10, "a b", "%00", "x" * 64]


def test_codes_of_any_characters_are_not_found_never_a_500(
        client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    game_id, _ = seated(client, ["friend", "easy"], ["Boris"])
    stranger = Browser(client)
    with caplog.at_level(logging.WARNING):
        for code in ODD_CODES:
            joined = stranger.post(f"/api/friends/{game_id}/join",
                                   {"code": code, "seat": 1, "name": "Eve"})
            assert joined.status_code in (404, 409, 422), (code, joined.text)
            for page in ("join", "watch"):
                answer = stranger.get(f"/{page}/{game_id}/{code}")
                assert answer.status_code in (404, 422), (page, code, answer.status_code)
            with stranger.socket(game_id, watch=code) as ws:
                refused = ws.receive_json()
                assert refused["code"] == "not_yours"
                closed = ws.receive()
                assert closed["type"] == "websocket.close" and closed["code"] == 4403
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


def test_a_waiting_tables_join_with_an_odd_code_is_a_stale_invite(client: TestClient) -> None:
    created = create(Browser(client), ["friend", "easy"])
    joined = Browser(client).post(f"/api/friends/{created['id']}/join",
                                  {"code": code_of(created)[:-1] + "Ж", "seat": 1, "name": "X"})
    assert joined.status_code == 404 and joined.json()["code"] == "stale_invite"


# --- 7. names ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("typed", "beside"), [
    ("Аnna", "Anna"),     # a Cyrillic А
    ("ANNA", "Anna"),
    ("Anna", "Аnna"),
])
def test_a_name_that_only_looks_like_a_seated_one_is_refused(
        client: TestClient, typed: str, beside: str) -> None:
    anna = Browser(client)
    created = anna.post("/api/friends", {"name": beside, "seats": ["friend", "friend"]}).json()
    joined = Browser(client, lang="ru").post(f"/api/friends/{created['id']}/join",
                                             {"code": code_of(created), "seat": 1,
                                              "name": typed})
    assert joined.status_code == 409, joined.text
    assert joined.json()["code"] in ("name_looks_like", "name_taken")
    assert beside in joined.json()["detail"] or typed in joined.json()["detail"]
    other = Browser(client).post(f"/api/friends/{created['id']}/join",
                                 {"code": code_of(created), "seat": 2, "name": "Boris"})
    assert other.status_code == 200  # a name that does not look like one goes through


@pytest.mark.parametrize("typed", ["Мisha", "Миша", "Lеna", "Dummу"])
def test_a_name_that_looks_like_a_computer_players_is_refused(
        client: TestClient, typed: str) -> None:
    made = Browser(client).post("/api/friends", {"name": typed, "seats": ["friend", "easy"]})
    assert made.status_code == 422, made.text
    assert made.json()["code"] in ("name_looks_like", "name_taken")


# --- 8. the database's path -------------------------------------------------------------------
def test_a_save_failure_tells_players_what_failed_and_the_log_where(
        db_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from server_helpers import human_to_act, read_until_settled, receive_json, send_action

    db_file = tmp_path / "games.db"
    with TestClient(create_app(db_url, bot_delay=0, bot_level="random")) as client:
        game_id = new_game(client, seed=2)
        with client.websocket_connect(f"/ws/{game_id}") as ws:
            state = read_until_settled(ws)
            assert human_to_act(state)
            make_read_only(client, db_url)
            with caplog.at_level(logging.WARNING, logger="preferans.server"):
                send_action(ws, state["observation"]["legal"][0])
                while (message := receive_json(ws))["type"] != "error":
                    pass
        shown = str(message)
        assert message["code"] == "save_failed" and "read-only" in message["message"]
        assert str(db_file) not in shown and str(tmp_path) not in shown
        assert "attempt to write" not in shown  # the database's own words stay in the log
        created = client.post("/api/games", json={"difficulty": "easy"})
        assert created.status_code == 503 and str(tmp_path) not in created.text
        page = client.get("/")
        assert str(tmp_path) not in page.text and "read-only" in page.text
    logged = " ".join(r.getMessage() for r in caplog.records)
    assert str(db_file) in logged  # the operator's log has where
