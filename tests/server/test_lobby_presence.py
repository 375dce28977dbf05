"""Who is in a friends' lobby (issue 47: the lobby no longer says "joined" after a friend
leaves): a page that says it left is away at once with the whole grace time to count down,
a page that stops asking is away from its last visit, and a visit makes him here again."""

from __future__ import annotations

from fastapi.testclient import TestClient
from test_friends import Browser, code_of, create

from preferans.server.table.presence import GAMES_MOST, STALE, LobbyPresence


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_left_stale_and_back() -> None:
    clock = Clock()
    lobbies = LobbyPresence(grace=30, clock=clock)
    assert lobbies.away("g", [1, 2]) == []  # first asked: everyone counts as here
    lobbies.here("g", 1)
    lobbies.left("g", 2)
    assert lobbies.away("g", [1, 2]) == [{"seat": 2, "left": 30, "grace": 30, "closed": True}]
    clock.now += 4.2
    assert lobbies.away("g", [1, 2]) == [{"seat": 2, "left": 26, "grace": 30, "closed": True}]
    clock.now += STALE  # seat 1's page stopped asking 10.2 s ago
    assert lobbies.away("g", [1, 2]) == [
        {"seat": 1, "left": 20, "grace": 30, "closed": False},
        {"seat": 2, "left": 20, "grace": 30, "closed": True}]
    clock.now += 60
    assert [a["left"] for a in lobbies.away("g", [1, 2])] == [0, 0]  # past the grace
    lobbies.here("g", 2)
    assert [a["seat"] for a in lobbies.away("g", [1, 2])] == [1]


def test_the_lobbies_remembered_are_bounded() -> None:
    lobbies = LobbyPresence()
    for n in range(GAMES_MOST + 10):
        lobbies.left(f"g{n}", 1)
    assert len(lobbies._games) == GAMES_MOST and "g0" not in lobbies._games


def test_the_lobby_shows_a_friend_away_once_his_page_has_gone(client: TestClient) -> None:
    anna = Browser(client)
    created = create(anna, ["friend", "easy"], seed=4)
    game = created["id"]
    boris = Browser(client)
    assert boris.post(f"/api/friends/{game}/join", {
        "code": code_of(created), "seat": 1, "name": "Boris"}).status_code == 200
    assert anna.get(f"/api/friends/{game}").json()["away"] == []
    assert Browser(client).post(f"/api/friends/{game}/left", {}).status_code == 403
    assert boris.post(f"/api/friends/{game}/left", {}).json() == {"left": [1]}
    away = anna.get(f"/api/friends/{game}").json()["away"]
    assert [a["seat"] for a in away] == [1] and 29 <= away[0]["left"] <= 30
    assert away[0]["closed"]
    assert boris.get(f"/api/friends/{game}").json()["away"] == []  # never himself
    assert anna.get(f"/api/friends/{game}").json()["away"] == []  # he is back
