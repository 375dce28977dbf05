"""Before the game goes online: what a stranger sends gets a clear answer and changes nothing.

Each test replays an attack that worked on the server before (a JSON string read as a path,
an unbounded upload, a planted cookie adopted as a token, sockets and messages without
limit, another site's page acting with the player's cookie, a client choosing the deals) and
checks the answer it gets now.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from server_helpers import new_game, read_until_settled, receive_json
from starlette.websockets import WebSocketDisconnect

from preferans.guide import worked_deal_record
from preferans.server.app import create_app
from preferans.server.security.limits import SOCKETS_PER_TABLE
from preferans.server.security.tokens import SEAT_COOKIE, token_hash
from preferans.server.web import review as review_routes

JSON = {"Content-Type": "application/json"}
RU = {"Accept-Language": "ru-RU,ru;q=0.9"}
HUMAN_FIRST = 2


@pytest.fixture()
def app_client(db_url: str):
    with TestClient(create_app(db_url, bot_delay=0, bot_level="random")) as client:
        yield client


# --- 1, 2: uploads are a body, bounded ---------------------------------------------------------
def test_an_uploaded_json_string_is_never_opened_as_a_path(app_client: TestClient,
                                                             tmp_path: Path) -> None:
    secret = tmp_path / "secret-record.json"
    secret.write_text(json.dumps(worked_deal_record()))
    for body in (json.dumps(str(secret)), json.dumps("/etc/passwd"), json.dumps("/dev/stdin")):
        answer = app_client.post("/api/review", content=body, headers=JSON)
        assert answer.status_code == 422
        assert answer.json()["detail"] == ("the record does not replay: a record is a JSON "
                                           "object {...}, not a string")
    # the same answer whether the path exists or not: no oracle
    missing = app_client.post("/api/review", content=json.dumps(str(tmp_path / "none")),
                              headers=JSON)
    assert missing.json() == answer.json()


def test_an_upload_that_is_not_json_typed_is_refused(app_client: TestClient) -> None:
    """text/plain is what another site's form or a no-preflight fetch can send."""
    body = json.dumps(worked_deal_record())
    for media in ("text/plain", "application/x-www-form-urlencoded", ""):
        answer = app_client.post("/api/review", content=body, headers={"Content-Type": media})
        assert answer.status_code == 415
        assert "application/json" in answer.json()["detail"]
    ru = app_client.post("/api/review", content=body, headers={**RU, "Content-Type": "text/plain"})
    assert ru.json()["detail"].startswith("запись партии отправляется как JSON")
    assert app_client.post("/api/review", content=body, headers=JSON).status_code == 200


def test_an_oversized_upload_is_refused_while_it_arrives(app_client: TestClient) -> None:
    sent = 0

    def chunks():
        nonlocal sent
        for _ in range(1000):  # 64 MB if it were all read
            sent += 1
            yield b" " * 65536

    answer = app_client.post("/api/review", content=chunks(), headers=JSON)
    assert answer.status_code == 413
    assert answer.json()["detail"] == "the file is larger than 2,000,000 bytes"
    declared = app_client.post("/api/review", content=b"{}", headers={
        **JSON, "Content-Length": "200000000"})
    assert declared.status_code in (400, 413)


def test_a_record_of_too_many_deals_is_refused_naming_the_bound(app_client: TestClient) -> None:
    record = worked_deal_record()
    record["deals"] = record["deals"] * 2000
    answer = app_client.post("/api/review", content=json.dumps(record), headers=JSON)
    assert answer.status_code == 422
    assert answer.json()["detail"] == ("the record holds 2000 deals; at most 400 can be opened "
                                       "here")
    ru = app_client.post("/api/review", content=json.dumps(record), headers={**JSON, **RU})
    assert ru.json()["detail"] == "в записи 2000 сдач; здесь открывается не больше 400"


def test_a_review_that_runs_past_its_time_stops_with_a_message(
        app_client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(review_routes, "UPLOAD_SECONDS", 0.0)
    answer = app_client.post("/api/review", content=json.dumps(worked_deal_record()),
                             headers=JSON)
    assert answer.status_code == 422
    assert answer.json()["detail"] == ("the record took longer than 0 s to lay out; open a "
                                       "shorter one")


def test_a_client_runs_a_few_reviews_at_once_and_the_others_go_on(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """While two reviews of one client work (held in their threads), a third is refused at
    once, and another request of the server is answered at once."""
    release = threading.Event()
    started = threading.Semaphore(0)
    real = review_routes._review_upload

    def slow(body: bytes) -> dict:
        started.release()
        release.wait(30)
        return real(body)

    monkeypatch.setattr(review_routes, "_review_upload", slow)
    body = json.dumps(worked_deal_record())
    with TestClient(create_app(db_url, bot_delay=0, bot_level="random")) as client:
        answers: list[int] = []

        def upload() -> None:
            answers.append(client.post("/api/review", content=body, headers=JSON).status_code)

        threads = [threading.Thread(target=upload) for _ in range(2)]
        for thread in threads:
            thread.start()
        assert started.acquire(timeout=10) and started.acquire(timeout=10)
        third = client.post("/api/review", content=body, headers=JSON)
        assert third.status_code == 429
        assert third.json()["detail"].startswith("records are already being opened for you")
        began = time.monotonic()
        assert client.get("/api/rules").status_code == 200
        assert time.monotonic() - began < 2.0
        release.set()
        for thread in threads:
            thread.join(30)
        assert answers == [200, 200]
        assert client.post("/api/review", content=body, headers=JSON).status_code == 200


# --- 3: tokens are minted by the server ------------------------------------------------------
def test_a_planted_cookie_is_never_adopted(app_client: TestClient) -> None:
    planted = "attacker-knows-this-token-" + "x" * 38
    app_client.cookies.set(SEAT_COOKIE, planted, domain="testserver.local")
    answer = app_client.post("/api/games", json={"difficulty": "easy", "seed": 4})
    assert answer.status_code == 201
    minted = app_client.cookies.get(SEAT_COOKIE)
    assert minted and minted != planted
    saved = app_client.app.state.store.get(answer.json()["id"])  # type: ignore[attr-defined]
    assert saved.seats == {"0": token_hash(minted)}
    # the attacker, holding the planted token, sees nothing of the game
    app_client.cookies.clear()
    app_client.cookies.set(SEAT_COOKIE, planted, domain="testserver.local")
    assert app_client.get(f"/table/{answer.json()['id']}").status_code == 403
    with app_client.websocket_connect(f"/ws/{answer.json()['id']}") as ws:
        assert receive_json(ws)["code"] == "not_yours"


def test_a_minted_token_is_kept_and_an_older_servers_token_hands_its_seats_over(
        app_client: TestClient) -> None:
    first = new_game(app_client, seed=4)
    minted = app_client.cookies.get(SEAT_COOKIE)
    second = new_game(app_client, seed=5)
    assert app_client.cookies.get(SEAT_COOKIE) == minted  # one browser, one token
    store = app_client.app.state.store  # type: ignore[attr-defined]
    old = "an-older-servers-unsigned-token-" + "z" * 11
    store.write_now(store.rekey, token_hash(minted), token_hash(old))
    app_client.app.state.tables.rekey(token_hash(minted), token_hash(old))  # type: ignore
    app_client.cookies.clear()
    app_client.cookies.set(SEAT_COOKIE, old, domain="testserver.local")
    third = new_game(app_client, seed=6)
    fresh = app_client.cookies.get(SEAT_COOKIE)
    assert fresh not in (old, minted)
    for game_id in (first, second, third):
        assert store.get(game_id).seats == {"0": token_hash(fresh)}
        assert app_client.get(f"/table/{game_id}").status_code == 200


# --- 4: sockets and messages are bounded ------------------------------------------------------
def test_a_table_takes_a_few_sockets_and_refuses_more_with_a_message(
        app_client: TestClient) -> None:
    game_id = new_game(app_client, seed=HUMAN_FIRST)
    sockets = [app_client.websocket_connect(f"/ws/{game_id}") for _ in range(SOCKETS_PER_TABLE)]
    try:
        for ws in sockets:
            ws.__enter__()
            assert receive_json(ws)["type"] == "state"
        with app_client.websocket_connect(f"/ws/{game_id}", headers=RU) as extra:
            refusal = receive_json(extra)
            assert refusal["code"] == "too_many_sockets"
            assert refusal["message"].startswith("этот стол открыт в слишком многих вкладках")
            with pytest.raises(WebSocketDisconnect) as closed:
                extra.receive_json()
            assert closed.value.code == 4429
    finally:
        for ws in sockets:
            ws.__exit__(None, None, None)
    with app_client.websocket_connect(f"/ws/{game_id}") as again:  # room again once closed
        assert receive_json(again)["type"] == "state"


def test_a_message_flood_is_dropped_said_once_and_a_kept_up_one_closed(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """At a person's rate (10 a second, 20 at once): a burst over it is dropped and said
    once, the table answers again once the rate allows; a flood kept up (more than 100
    dropped in a row) closes the socket, 4429."""
    monkeypatch.delenv("PREFERANS_MESSAGE_RATE", raising=False)
    with TestClient(create_app(db_url, bot_delay=0, bot_level="random")) as client:
        game_id = new_game(client, seed=HUMAN_FIRST)
        with client.websocket_connect(f"/ws/{game_id}") as ws:
            read_until_settled(ws)
            for k in range(60):  # 20 go through, at most 40 are dropped: not closed
                ws.send_json({"type": "pause" if k % 2 == 0 else "resume"})
            replies = []
            while (reply := receive_json(ws, timeout=10)).get("code") != "too_many_messages":
                replies.append(reply)
            assert reply["message"] == "too many messages at once: wait a moment, then go on"
            assert 20 <= len(replies) < 60  # the burst went through, the rest was dropped
            time.sleep(0.5)  # the bucket refills: the table answers again
            ws.send_json({"type": "pause"})
            while (state := receive_json(ws, timeout=10)).get("type") != "state":
                pass
            assert state["paused"] is True
        with client.websocket_connect(f"/ws/{game_id}") as ws:
            read_until_settled(ws)
            for _ in range(2000):
                ws.send_json({"type": "resume"})
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    ws.receive_json()
            assert closed.value.code == 4429


# --- 5: Origin and Host ------------------------------------------------------------------------
def test_another_sites_page_can_neither_open_the_socket_nor_post(app_client: TestClient) -> None:
    game_id = new_game(app_client, seed=HUMAN_FIRST)
    evil = {"Origin": "https://evil.example"}
    with pytest.raises(WebSocketDisconnect) as refused, \
            app_client.websocket_connect(f"/ws/{game_id}", headers=evil) as ws:
        ws.receive_json()
    assert refused.value.code == 4403
    with app_client.websocket_connect(f"/ws/{game_id}",
                                      headers={"Origin": "http://testserver"}) as ws:
        assert receive_json(ws)["type"] == "state"  # the page's own origin
    posted = app_client.post("/api/games", json={"difficulty": "easy"}, headers=evil)
    assert posted.status_code == 403
    assert posted.json()["detail"].startswith("this request came from another site's page")
    review = app_client.post("/api/review", content=json.dumps(worked_deal_record()),
                             headers={**JSON, **evil, **RU})
    assert review.status_code == 403 and review.json()["detail"].startswith("запрос пришёл")
    assert app_client.get("/api/rules", headers=evil).status_code == 200  # reads are fine


def test_an_allowed_origin_may_and_an_unknown_host_is_answered_400(db_url: str) -> None:
    app = create_app(db_url, bot_delay=0, bot_level="random",
                     allowed_hosts=["localhost", "testserver"],
                     allowed_origins=["https://preferans.example.org"])
    with TestClient(app) as client:
        made = client.post("/api/games", json={"difficulty": "easy"},
                           headers={"Origin": "https://preferans.example.org"})
        assert made.status_code == 201
        rebound = client.get("/", headers={"Host": "attacker.example"})
        assert rebound.status_code == 400
        with pytest.raises(WebSocketDisconnect), client.websocket_connect(
                f"/ws/{made.json()['id']}", headers={"Host": "attacker.example"}) as ws:
            ws.receive_json()


# --- 8: the deals' seed -------------------------------------------------------------------------
def test_the_server_chooses_the_seed_unless_started_for_tests(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0, bot_level="random",
                               allow_seeds=False)) as client:
        chosen = client.post("/api/games", json={"difficulty": "easy", "seed": 4},
                             headers=RU)
        assert chosen.status_code == 422 and chosen.json()["field"] == "seed"
        assert "--allow-seeds" in chosen.json()["detail"]
        store = client.app.state.store  # type: ignore[attr-defined]
        seeds = {store.get(new_game(client)).seed for _ in range(3)}
        assert len(seeds) == 3 and all(seed.bit_length() > 96 for seed in seeds)
        game_id = new_game(client)
        with client.websocket_connect(f"/ws/{game_id}") as ws:
            first = receive_json(ws)  # a 128-bit seed deals ...
        token = client.cookies.get(SEAT_COOKIE)
        seed = store.get(game_id).seed
    with TestClient(create_app(db_url, bot_delay=0, bot_level="random")) as again:
        assert again.app.state.store.get(game_id).seed == seed  # type: ignore[attr-defined]
        again.cookies.set(SEAT_COOKIE, token)
        with again.websocket_connect(f"/ws/{game_id}") as ws:  # ... and comes back the same
            assert receive_json(ws)["observation"]["hand"] == first["observation"]["hand"]


def test_the_edge_modules_examples_hold() -> None:
    import doctest

    from preferans.server.security import guard, limits, tokens

    for module in (guard, limits, tokens):
        result = doctest.testmod(module)
        assert result.attempted and not result.failed, module.__name__
