"""Who is in a friends' lobby (issue 47: the lobby no longer says "joined" after a friend
leaves): a page that says it left is away at once with the whole grace time to count down,
a page that stops asking is away from its last visit, and a visit makes him here again; kept
with the party in the store, so another process or a restarted server reads the same."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient
from test_friends import Browser, code_of, create
from test_friends_more import app_on

from preferans.server.table import presence
from preferans.server.table.party import Party


def test_left_stale_and_back() -> None:
    marks = presence.here({}, 1, 100.0)
    assert marks is not None
    assert presence.away(marks, [1, 2], 100.0, 30) == []  # seat 2 never noted: here
    marks = presence.gone(marks, 2, 100.0)
    assert presence.away(marks, [1, 2], 100.0, 30) == [
        {"seat": 2, "left": 30, "grace": 30, "closed": True}]
    assert presence.away(marks, [1, 2], 104.2, 30) == [
        {"seat": 2, "left": 26, "grace": 30, "closed": True}]
    assert presence.here(marks, 1, 101.0) is None  # noted a moment ago: nothing to write
    # seat 1's page stopped asking 10.2 s ago
    assert presence.away(marks, [1, 2], 110.2, 30) == [
        {"seat": 1, "left": 20, "grace": 30, "closed": False},
        {"seat": 2, "left": 20, "grace": 30, "closed": True}]
    assert [a["left"] for a in presence.away(marks, [1, 2], 170.0, 30)] == [0, 0]
    back = presence.here(marks, 2, 171.0)  # he is back
    assert back is not None
    assert [a["seat"] for a in presence.away(back, [1, 2], 171.0, 30)] == [1]


def test_the_marks_round_trip_and_bad_ones_are_left_out() -> None:
    party = Party.new(["friend", "easy"], creator="Anna").with_lobby({1: (5.0, True)})
    again = Party.from_json(party.to_json())
    assert again.lobby_marks() == {1: (5.0, True)}
    data = party.to_json()
    data["lobby"] = [[1, "x", True], [9, 1.0, False], "junk", [0, 2, False]]
    assert Party.from_json(data).lobby_marks() == {0: (2.0, False)}


def test_the_lobby_shows_a_friend_away_once_his_page_has_gone(client: TestClient) -> None:
    anna = Browser(client)
    created = create(anna, ["friend", "easy"], seed=4)
    game = created["id"]
    boris = Browser(client)
    assert boris.post(f"/api/friends/{game}/join", {
        "code": code_of(created), "seat": 1, "name": "Boris"}).status_code == 200
    assert boris.get(f"/api/friends/{game}").json()["away"] == []  # his lobby: noted here
    assert anna.get(f"/api/friends/{game}").json()["away"] == []
    assert Browser(client).post(f"/api/friends/{game}/left", {}).status_code == 403
    assert boris.post(f"/api/friends/{game}/left", {}).json() == {"left": [1]}
    away = anna.get(f"/api/friends/{game}").json()["away"]
    assert [a["seat"] for a in away] == [1] and 29 <= away[0]["left"] <= 30
    assert away[0]["closed"]
    assert boris.get(f"/api/friends/{game}").json()["away"] == []  # never himself
    assert anna.get(f"/api/friends/{game}").json()["away"] == []  # he is back


def test_a_friend_away_is_still_away_after_a_restart(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'games.db'}"
    with app_on(db) as first:
        anna = Browser(first)
        created = create(anna, ["friend", "easy"], seed=4)
        game = created["id"]
        boris = Browser(first)
        assert boris.post(f"/api/friends/{game}/join", {
            "code": code_of(created), "seat": 1, "name": "Boris"}).status_code == 200
        assert boris.post(f"/api/friends/{game}/left", {}).status_code == 200
    with app_on(db) as second:  # another process, or the server restarted
        anna.client = second
        away = anna.get(f"/api/friends/{game}").json()["away"]
        assert [(a["seat"], a["closed"]) for a in away] == [(1, True)]
