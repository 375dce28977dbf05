"""The rating's routes through the real app: a game played to its end rates the browser
once; the ladder, the rating API and the statistics page show a browser only its own
rating, never a token hash or a holder id, and a player who did not choose to be listed
never appears."""

from __future__ import annotations

import random
import time

from fastapi.testclient import TestClient
from server_helpers import new_game, play_until

from preferans.server.security.tokens import SEAT_COOKIE, token_hash
from preferans.server.store.ratings import history, rating_of


def rated(client: TestClient, games: int) -> dict:
    """/api/rating once the browser's rating counts ``games`` games (rated off the loop after
    the game's last save): waits for that state, at most 30 s."""
    deadline = time.monotonic() + 30
    while True:
        mine = client.get("/api/rating").json()
        if mine["rating"]["games"] >= games or time.monotonic() > deadline:
            return mine
        time.sleep(0.05)


def play_a_game(client: TestClient, seed: int) -> None:
    game_id = new_game(client, seed=seed, pool=10)
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        final = play_until(ws, random.Random(seed), lambda s: s["game_over"])
    assert final["game_over"]


def test_a_finished_game_rates_its_browser_and_the_ladder_shows_only_the_listed(
        client: TestClient) -> None:
    play_a_game(client, 71)
    mine = rated(client, 1)
    token = client.cookies.get(SEAT_COOKIE)
    assert token
    holder = token_hash(token)
    store = client.app.state.store  # type: ignore[attr-defined]
    assert mine["rating"]["games"] == 1 and len(mine["history"]) == 1
    assert rating_of(store, holder).games == 1 and len(history(store, holder)) == 1
    assert set(mine["levels"]) == {"easy", "normal", "hard", "crazy"}

    secrets = (holder, token)
    own = (client.get("/api/rating").text + client.get("/ladder").text
           + client.get("/stats").text + client.get("/api/account").text)
    assert not any(s in own for s in secrets)  # not even to its owner

    # not listed: the ladder has the four levels and nobody else
    page = client.get("/ladder").text
    assert page.count('data-kind="level"') == 4 and 'data-kind="player"' not in page

    assert client.post("/api/rating/listing", json={"listed": True, "name": "Anna"}
                       ).status_code == 200
    assert "Anna" in client.get("/ladder").text

    # another browser: sees Anna on the ladder but nothing of hers
    a_cookies = dict(client.cookies)
    client.cookies.clear()
    client.cookies.set(SEAT_COOKIE, "another-browser".ljust(43, "y"))
    theirs = client.get("/api/rating").json()
    assert theirs["rating"]["games"] == 0 and theirs["history"] == [] and theirs["name"] == ""
    ladder = client.get("/ladder").text
    assert "Anna" in ladder and "that is you" not in ladder.replace("(you)", "")
    everything = (client.get("/api/rating").text + ladder + client.get("/stats").text
                  + client.get("/account").text + client.get("/api/account").text)
    assert not any(s in everything for s in secrets)
    # a browser with no rating cannot list itself (nothing is made for it)
    refused = client.post("/api/rating/listing", json={"listed": True, "name": "Eve"})
    assert refused.status_code == 409 and "Eve" not in client.get("/ladder").text

    # Anna withdraws: she is gone from everyone's ladder
    client.cookies.clear()
    for k, v in a_cookies.items():
        client.cookies.set(k, v)
    assert client.post("/api/rating/listing", json={"listed": False}).status_code == 200
    client.cookies.clear()
    assert "Anna" not in client.get("/ladder").text


def test_a_listing_name_is_checked(client: TestClient) -> None:
    play_a_game(client, 71)
    rated(client, 1)
    for name, status in (("", 422), ("x" * 30, 422), ("Misha", 422), ("Мisha", 422),
                         ("a\u0007b", 422)):
        response = client.post("/api/rating/listing", json={"listed": True, "name": name})
        assert response.status_code == status, name
        assert response.json()["message"]
    assert client.post("/api/rating/listing", json={"listed": True, "name": "Boris",
                                                    "holder": "x"}).status_code == 422
    assert client.post("/api/rating/listing", json={"listed": True, "name": "Boris"}
                       ).status_code == 200
    assert client.post("/api/rating/listing", json={"listed": True, "name": "Boris"}
                       ).status_code == 200  # his own name again
    # another listed player may not take Boris's name, nor one that only looks like it
    client.cookies.clear()
    play_a_game(client, 72)
    rated(client, 1)
    for name in ("Boris", "boris", "Вoris"):  # the last with a Cyrillic В
        refused = client.post("/api/rating/listing", json={"listed": True, "name": name})
        assert refused.status_code == 422, name
    assert client.post("/api/rating/listing", json={"listed": True, "name": "Vera"}
                       ).status_code == 200


def test_a_friends_table_is_made_rated_or_not_and_shows_its_seats_ratings(
        client: TestClient) -> None:
    from test_friends import Browser, code_of, create

    from preferans.server.store.ratings import rating_of

    anna, boris, eve = Browser(client), Browser(client), Browser(client)
    rated = create(anna, ["friend", "hard"])
    unrated = create(anna, ["friend", "easy"], rated=False)
    store = client.app.state.store  # type: ignore[attr-defined]
    assert store.get(rated["id"]).friends["rated"] is True
    assert store.get(unrated["id"]).friends["rated"] is False
    assert boris.post(f"/api/friends/{rated['id']}/join",
                      {"code": code_of(rated), "seat": 1, "name": "Boris"}).status_code == 200

    lobby = anna.get(f"/api/friends/{rated['id']}").json()
    assert lobby["rated"] is True
    hard = rating_of(store, "level:hard")
    assert [s["rating"]["shown"] if s["rating"] else None for s in lobby["seats"]] == [
        "25.0 ± 16.7", "25.0 ± 16.7", hard.shown()]
    assert 'data-rated="no"' in anna.get(f"/lobby/{unrated['id']}").text

    plates = boris.get(f"/api/rating/table/{rated['id']}")
    assert plates.status_code == 200 and plates.json()["rated"] is True
    assert plates.json()["seats"][2]["shown"] == hard.shown()
    # a browser without a seat there learns nothing; no answer names a holder
    assert eve.get(f"/api/rating/table/{rated['id']}").status_code == 403
    assert eve.get("/api/rating/table/..%2f..").status_code in (403, 404)
    texts = lobby.__repr__() + plates.text
    for browser in (anna, boris):
        token = next(iter(browser.cookies.values()))
        assert token_hash(token) not in texts and token not in texts


def test_a_game_that_ended_unrated_is_rated_at_the_next_start(db_url: str) -> None:
    """A process stopped between a game's last save and its rating: the next start rates it
    (once: a second start changes nothing)."""
    from preferans.server.app import create_app
    from preferans.server.store.games import GameStore
    from preferans.server.store.schema import FINISHED

    store = GameStore(db_url)
    record = {"format": "preferans-record/1", "deals": []}
    holder = token_hash("z" * 40)
    store.create("ended", difficulty="normal", rules={"preset": "sochi", "pool": 10,
                 "players": 3}, names=["You", "Misha", "Lena"], seed=1, record=record,
                 seats={"0": holder})
    store.save("ended", record=record, status=FINISHED, result=[10.0, -5.0, -5.0])
    store.close()
    for _ in range(2):
        with TestClient(create_app(db_url, bot_delay=0)) as client:
            client.cookies.set(SEAT_COOKIE, "z" * 40)
            mine = rated(client, 1)
            assert mine["rating"]["games"] == 1 and len(mine["history"]) == 1


def test_a_finished_game_tells_its_browser_how_it_moved_the_rating(client: TestClient) -> None:
    """``/api/rating/game/<id>``: the result's "your rating" line. A game in play is not
    rated yet (``done`` false, no seats); once over, the browser's seat with the new rating
    and the change, equal to the history's; another browser is refused; nothing names the
    holder."""
    game_id = new_game(client, seed=72, pool=10)
    playing = client.get(f"/api/rating/game/{game_id}").json()
    assert playing == {"rated": True, "done": False, "seats": {}}
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        play_until(ws, random.Random(72), lambda s: s["game_over"])
    rated(client, 1)
    answer = client.get(f"/api/rating/game/{game_id}")
    assert answer.headers["cache-control"] == "no-store"
    body = answer.json()
    assert body["rated"] and body["done"] and set(body["seats"]) == {"0"}
    seat = body["seats"]["0"]
    holder = token_hash(client.cookies.get(SEAT_COOKIE))
    (point,) = history(client.app.state.store, holder)  # type: ignore[attr-defined]
    assert seat["change"] == point["delta"] and seat["mu"] == point["mu"]
    assert seat["place"] == point["place"] and "±" in seat["shown"]
    assert holder not in answer.text

    client.cookies.clear()
    client.cookies.set(SEAT_COOKIE, "somebody-else".ljust(43, "z"))
    assert client.get(f"/api/rating/game/{game_id}").status_code == 403
    assert client.get("/api/rating/game/no-such-game").status_code == 403
    assert client.get("/api/rating/game/..%2F..%2Fetc").status_code in (403, 404)
