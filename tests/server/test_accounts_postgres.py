"""Accounts on PostgreSQL, across two server processes' apps sharing one database: the
account, its sessions, its challenges and its one-time codes live in the store, so a code
shown by one process works once on another, a session begun on one is known to the other,
and a challenge answered on one cannot be answered again on the other."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import count
from typing import Any

import pytest
from fastapi.testclient import TestClient
from passkey_helpers import SoftPasskey
from pg_server import TempPostgres, unavailable
from server_helpers import new_game

from preferans.server.app import create_app

if reason := unavailable():
    pytest.skip(reason, allow_module_level=True)
pytest.importorskip("psycopg", reason="the PostgreSQL tests need psycopg (pip install psycopg)")

ORIGIN = "http://localhost"
_numbers = count(1)


@pytest.fixture()
def two_apps(postgres: TempPostgres) -> Iterator[tuple[Any, Any]]:
    url = postgres.new_database(f"preferans_accounts_{next(_numbers)}")
    one, two = (create_app(url, bot_delay=0, bot_level="random", bot_workers=0)
                for _ in range(2))
    yield one, two
    for app in (one, two):
        app.state.store.close()


def test_an_account_works_across_processes_on_postgres(two_apps: tuple[Any, Any]) -> None:
    one, two = two_apps
    key, phone = SoftPasskey(ORIGIN), SoftPasskey(ORIGIN)
    a = TestClient(one, base_url=ORIGIN)
    game = new_game(a)
    begun = a.post("/api/account/register/begin",
                   json={"name": "Вера", "language": "ru", "address": "f"}).json()
    made = a.post("/api/account/register/finish",
                  json={"credential": key.create(begun["options"])})
    assert made.status_code == 201, made.text
    # the session and the seat token are known to the other process
    a_on_two = TestClient(two, base_url=ORIGIN, cookies=dict(a.cookies))
    assert a_on_two.get("/api/account").json()["name"] == "Вера"
    # a code shown by one process works once on the other
    code = a.post("/api/account/code").json()["code"]
    b = TestClient(two, base_url=ORIGIN)
    options = b.post("/api/account/device/begin", json={"code": code})
    assert options.status_code == 200, options.text
    again = TestClient(one, base_url=ORIGIN).post("/api/account/device/begin",
                                                   json={"code": code})
    assert again.status_code == 400
    added = b.post("/api/account/device/finish",
                   json={"credential": phone.create(options.json()["options"])})
    assert added.status_code == 201, added.text
    assert b.get("/api/games/current").json()["id"] == game
    # a sign-in challenge minted by one process is answered once, on either
    signin = b.post("/api/account/signin/begin").json()["options"]
    assertion = phone.get(signin)
    assert TestClient(one, base_url=ORIGIN).post(
        "/api/account/signin/finish", json={"credential": assertion}).status_code == 200
    assert b.post("/api/account/signin/finish",
                  json={"credential": assertion}).status_code == 400
    # sign out everywhere on one process ends the sessions the other knows
    assert a.post("/api/account/signout-everywhere").status_code == 200
    assert b.get("/api/account").json() == {"signed_in": False}
    # deleting on the other process takes the games with it
    c = TestClient(two, base_url=ORIGIN)
    signin = c.post("/api/account/signin/begin").json()["options"]
    assert c.post("/api/account/signin/finish",
                  json={"credential": key.get(signin)}).status_code == 200
    begun = c.post("/api/account/delete/begin").json()["options"]
    assert c.post("/api/account/delete",
                  json={"credential": key.get(begun)}).status_code == 200
    assert one.state.store.get(game) is None
