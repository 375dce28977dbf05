"""A seat on any device (issue 47): each human's own seat link, shown only to that seat;
opening it moves the seat to the new browser, the old one is told at once (in its language)
and from that frame on sees only the spectator's view (the leak test over every frame,
extended to the moved seat); the creator's new link for a friend who lost his; a used or
replaced link answers clearly; it all works after a restart."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from test_friends import Browser, assert_no_leak, create, seated
from test_friends_more import app_on

from preferans.server.security.limits import CREATIONS_BURST
from preferans.server.table.spectators import SPECTATOR

CODE = re.compile(r"/seat/[^/]+/([A-Za-z0-9_-]{22})$")


def seat_code(link: str | None) -> str:
    assert link, "no seat link"
    match = CODE.search(link)
    assert match, link
    return match.group(1)


def codes_of(client: TestClient, game: str) -> list[str]:
    return list(client.app.state.store.get(game).friends["links"])


def raw_read(ws: Any, seconds: float = 10) -> str:
    """The next frame as sent (the sheet it leaves out not filled in)."""
    async def receive() -> Any:
        with anyio.fail_after(seconds):
            return await ws._send_rx.receive()

    return ws.portal.call(receive)["text"]


# --- shown only to its seat ---------------------------------------------------------------
def test_each_seat_sees_only_its_own_seat_link(client: TestClient) -> None:
    anna = Browser(client)
    created = create(anna, ["friend", "friend"], seed=5)
    game = created["id"]
    friends = []
    for seat, name in ((1, "Boris"), (2, "Vera")):
        friend = Browser(client)
        assert friend.post(f"/api/friends/{game}/join",
                           {"code": created["invite"].rsplit("/", 1)[1], "seat": seat,
                            "name": name}).status_code == 200
        friends.append(friend)
    browsers = [anna, *friends]
    codes = codes_of(client, game)
    assert len(set(codes)) == 3 and all(len(code) == 22 for code in codes)  # 128 bits each
    for seat, browser in enumerate(browsers):  # the lobby: its own link, no other's
        view = browser.get(f"/api/friends/{game}").json()
        assert seat_code(view["device"]) == codes[seat]
        text = json.dumps(view) + browser.get(f"/lobby/{game}").text
        assert codes[seat] in json.dumps(view)
        assert not [c for s, c in enumerate(codes) if s != seat and c in text]
    assert anna.post(f"/api/friends/{game}/start", {}).status_code == 200
    spectator = Browser(client)
    watch = client.app.state.store.get(game).friends["watch"]
    opened = [b.socket(game) for b in browsers] + [spectator.socket(game, watch=watch)]
    sockets = [cm.__enter__() for cm in opened]
    try:
        for seat, ws in enumerate(sockets):
            text = raw_read(ws)
            frame = json.loads(text)
            if seat < 3:
                assert seat_code(frame["device"]) == codes[seat]
                assert frame["humans"] == [0, 1, 2]
            else:
                assert frame["seat"] is None and frame.get("device") is None
            assert not [c for s, c in enumerate(codes) if s != seat and c in text]
    finally:
        for cm in opened:
            cm.__exit__(None, None, None)
    # the table page and the menu's own call give nobody else's link either
    for seat, browser in enumerate(browsers):
        page = browser.get(f"/table/{game}").text
        assert not [c for c in codes if c in page]
        mine = browser.post(f"/api/friends/{game}/device", {})
        assert mine.status_code == 200 and seat_code(mine.json()["device"]) == codes[seat]
    assert spectator.post(f"/api/friends/{game}/device", {}).status_code == 403


# --- moving a seat mid-deal: the old browser told and shown the public view --------------
def _move(client: TestClient, game: str, code: str, lang: str = "en") -> tuple[Browser, Any]:
    phone = Browser(client, lang)
    page = phone.get(f"/seat/{game}/{code}")
    assert page.status_code == 200, page.text
    answer = phone.post(f"/api/friends/{game}/move", {"code": code})
    return phone, answer


def test_a_seat_moved_mid_deal_tells_the_old_browser_and_never_shows_it_the_seats_cards(
        client: TestClient) -> None:
    game, browsers = seated(client, ["friend", "friend"], ["Boris", "Vera"], seed=30)
    browsers[1].lang = "ru"  # Boris reads Russian: he is told in Russian
    code = codes_of(client, game)[1]
    rng = random.Random(30)
    frames: list[tuple[int, str]] = []
    watch = client.app.state.store.get(game).friends["watch"]
    opened = {0: browsers[0].socket(game), 1: browsers[1].socket(game),
              2: browsers[2].socket(game), SPECTATOR: Browser(client).socket(game, watch=watch)}
    sockets = {key: cm.__enter__() for key, cm in opened.items()}
    shown_as = {0: 0, 1: 1, 2: 2, SPECTATOR: SPECTATOR}  # what each socket may see
    old_after: list[dict[str, Any]] = []
    try:
        def read(key: Any) -> dict[str, Any]:
            text = raw_read(sockets[key])
            frames.append((shown_as[key], text))
            frame = json.loads(text)
            if key == "old" and frame.get("type") == "state":
                old_after.append(frame)
            return frame

        states = {key: read(key) for key in sockets}
        latest = max(state["seq"] for state in states.values())
        for key in sockets:
            while states[key]["seq"] < latest:
                states[key] = read(key)
        moved = False
        tricks_seen = 0
        for _ in range(400):
            state = states[0]
            if state["deal_over"]:
                break
            obs = state["observation"]
            tricks_seen = len(obs.get("tricks") or [])
            if not moved and (tricks_seen >= 2 or (str(obs.get("phase")).upper() == "PLAY"
                                                   and obs.get("trick"))):
                # Boris opens his seat link on his phone in the middle of the play
                phone, answer = _move(client, game, code)
                assert answer.status_code == 200, answer.text
                assert answer.json() == {"seat": 1, "url": f"/table/{game}"}
                sockets["old"] = sockets.pop(1)
                shown_as["old"] = SPECTATOR
                told = json.loads(raw_read(sockets["old"]))
                assert told["type"] == "seat_moved", told
                assert "Boris" in told["message"] and re.search("[а-я]", told["message"])
                assert told["watch"] == watch
                states = {key: read(key) for key in sockets}  # everyone: the table again
                assert states["old"]["seat"] is None and states["old"]["observation"]["hand"] == []
                assert states["old"].get("device") is None
                opened["phone"] = phone.socket(game)
                sockets[1] = opened["phone"].__enter__()
                states[1] = read(1)
                assert states[1]["seat"] == 1 and len(states[1]["observation"]["hand"]) > 0
                assert seat_code(states[1]["device"]) != code  # a fresh link replaced it
                # the old browser may not act for the seat any more
                sockets["old"].send_json({"type": "action", "token": "PASS"})
                while (refused := read("old"))["type"] != "error":
                    states["old"] = refused  # the phone's arrival, shown to every socket
                assert refused["code"] == "spectator", refused
                # every socket read up to the same state (the arrival is one more frame)
                latest = max(state["seq"] for state in states.values())
                for key in sockets:
                    while states[key]["seq"] < latest:
                        states[key] = read(key)
                moved = True
                continue
            actor = obs["to_act"]
            if actor in sockets and state["thinking"] is None:
                legal = states[actor]["observation"]["legal"]
                sockets[actor].send_json({"type": "action", "token": rng.choice(legal)})
            states = {key: read(key) for key in sockets}
        assert moved and states[0]["deal_over"]
        deal = client.app.state.tables.open[game].game.finished_deals[0]
        assert len(old_after) > 3 and all(f["seat"] is None for f in old_after)
        assert all(f["observation"]["hand"] == [] for f in old_after)
        assert assert_no_leak(frames, deal) > 20
        # the old browser's cookie holds no seat: a new socket of it is refused, its watch
        # code lets it watch
        with browsers[1].socket(game) as ws:
            assert ws.receive_json()["code"] == "not_yours"
        with browsers[1].socket(game, watch=watch) as ws:
            assert ws.receive_json()["seat"] is None
        assert browsers[1].get(f"/api/friends/{game}").status_code == 403
    finally:
        for cm in opened.values():
            cm.__exit__(None, None, None)


def test_a_used_or_replaced_seat_link_answers_clearly_and_bad_codes_are_unknown(
        client: TestClient) -> None:
    game, browsers = seated(client, ["friend", "easy"], ["Boris"], seed=12)
    code = codes_of(client, game)[1]
    phone, answer = _move(client, game, code)
    assert answer.status_code == 200, answer.text
    fresh = codes_of(client, game)[1]
    assert fresh != code
    assert seat_code(phone.get(f"/api/friends/{game}").json()["device"]) == fresh
    for lang, words in (("en", "no longer works"), ("ru", "больше не действует")):
        other = Browser(client, lang)
        page = other.get(f"/seat/{game}/{code}")
        assert page.status_code == 404 and words in page.text
        again = other.post(f"/api/friends/{game}/move", {"code": code})
        assert again.status_code == 404 and words in again.json()["message"]
    # opened again where it already is: nothing moves
    same = phone.post(f"/api/friends/{game}/move", {"code": fresh})
    assert same.status_code == 200 and codes_of(client, game)[1] == fresh
    assert phone.get(f"/seat/{game}/{fresh}").status_code == 200  # no cookie jar redirect
    # a browser holding another seat here may not take a second one
    two = browsers[0].post(f"/api/friends/{game}/move", {"code": fresh})
    assert two.status_code == 409 and two.json()["code"] == "seat_link_two_seats"
    # codes of any characters, too long, not a string; an unknown game
    stranger = Browser(client)
    for bad in ("Аbc" + fresh[3:], fresh[:-1] + "\u00e9", "🂡" * 10, fresh + "x", "' OR 1=1 --"):
        assert stranger.post(f"/api/friends/{game}/move", {"code": bad}).status_code == 404
        assert stranger.get(f"/seat/{game}/{bad}").status_code == 404
    for bad in ("", "x" * 65, 7, None, ["a"]):
        assert stranger.post(f"/api/friends/{game}/move", {"code": bad}).status_code == 422
    assert stranger.get(f"/seat/{game}/{'x' * 500}").status_code == 404
    assert stranger.post("/api/friends/nosuchgame/move", {"code": fresh}).status_code == 404
    assert stranger.get(f"/seat/nosuchgame/{fresh}").status_code == 404
    assert codes_of(client, game)[1] == fresh  # nothing of it changed the seat


def test_the_creator_issues_a_new_seat_link_for_a_friend_who_lost_his(
        client: TestClient) -> None:
    game, (anna, boris) = seated(client, ["friend", "easy"], ["Boris"], seed=13)
    old = codes_of(client, game)[1]
    assert boris.post(f"/api/friends/{game}/seat_link", {"seat": 1}).status_code == 403
    assert anna.post(f"/api/friends/{game}/seat_link", {"seat": 2}).status_code == 422
    assert anna.post(f"/api/friends/{game}/seat_link", {"seat": 9}).status_code == 422
    made = anna.post(f"/api/friends/{game}/seat_link", {"seat": 1})
    assert made.status_code == 200, made.text
    new = seat_code(made.json()["device"])
    assert new != old and codes_of(client, game)[1] == new
    assert Browser(client).get(f"/seat/{game}/{old}").status_code == 404
    phone, answer = _move(client, game, new)
    assert answer.status_code == 200 and answer.json()["seat"] == 1
    assert phone.get(f"/api/friends/{game}").json()["you"] == 1
    assert boris.get(f"/api/friends/{game}").status_code == 403  # the lost one watches


def test_a_seat_link_moves_a_seat_in_the_lobby_and_after_a_restart(db_url: str) -> None:
    with app_on(db_url) as client:
        anna = Browser(client)
        created = create(anna, ["friend", "easy"], seed=14)
        game = created["id"]
        boris = Browser(client)
        assert boris.post(f"/api/friends/{game}/join",
                          {"code": created["invite"].rsplit("/", 1)[1], "seat": 1,
                           "name": "Boris"}).status_code == 200
        # in the lobby: the seat moves, the lobby answers the new browser
        lobby_code = codes_of(client, game)[1]
        tablet, answer = _move(client, game, lobby_code)
        assert answer.json() == {"seat": 1, "url": f"/lobby/{game}"}
        assert tablet.get(f"/api/friends/{game}").json()["you"] == 1
        assert boris.get(f"/api/friends/{game}").status_code == 403
        assert anna.post(f"/api/friends/{game}/start", {}).status_code == 200
        code = codes_of(client, game)[1]
        cookies = anna.cookies, tablet.cookies
    with app_on(db_url) as client:  # the server restarted: the link is in the store
        anna, tablet = Browser(client), Browser(client)
        anna.cookies, tablet.cookies = cookies
        with tablet.socket(game) as old:
            assert old.receive_json()["seat"] == 1
            phone, answer = _move(client, game, code)
            assert answer.status_code == 200, answer.text
            told = old.receive_json()
            assert told["type"] == "seat_moved" and "Boris" in told["message"]
            assert old.receive_json()["seat"] is None
        with phone.socket(game) as ws:
            state = ws.receive_json()
            assert state["seat"] == 1 and state["observation"]["hand"]
        with tablet.socket(game) as ws:
            assert ws.receive_json()["code"] == "not_yours"
        stale = Browser(client).post(f"/api/friends/{game}/move", {"code": code})
        assert stale.status_code == 404 and stale.json()["code"] == "stale_seat_link"
    with app_on(db_url) as client:  # and after another restart, the new one still works
        fresh = codes_of(client, game)[1]
        assert fresh != code
        laptop, answer = _move(client, game, fresh)
        assert answer.status_code == 200 and answer.json()["seat"] == 1
        assert laptop.get(f"/api/friends/{game}").json()["you"] == 1


def test_opening_seat_links_is_bounded_like_the_other_creations(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PREFERANS_CREATION_RATE", raising=False)  # the real bounds
    with app_on(db_url) as client:
        anna = Browser(client)
        game = create(anna, ["friend", "easy"], seed=15)["id"]
        stranger = Browser(client, "ru")
        answers = [stranger.post(f"/api/friends/{game}/move", {"code": "x" * 22}).status_code
                   for _ in range(CREATIONS_BURST - 1)]  # the table was the first
        assert answers == [404] * (CREATIONS_BURST - 1)  # an unknown link, not slowed
        limited = stranger.post(f"/api/friends/{game}/move", {"code": "x" * 22})
        assert limited.status_code == 429 and limited.json()["code"] == "too_many_games"
        assert "подождите" in limited.json()["message"]
        assert int(limited.headers["retry-after"]) >= 1


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_seat_page_asks_before_it_takes_the_seat(client: TestClient, lang: str) -> None:
    game, _ = seated(client, ["friend", "easy"], ["Boris"], seed=16)
    code = codes_of(client, game)[1]
    page = Browser(client, lang).get(f"/seat/{game}/{code}")
    assert page.status_code == 200
    words = {"en": "Take Boris's seat here? The other device will become a spectator.",
             "ru": "Занять здесь место игрока Boris? Другое устройство станет зрителем."}
    assert words[lang].replace("'", "&#39;") in page.text
    assert codes_of(client, game)[1] == code  # looking at the page moves nothing


def test_a_socket_of_a_seat_moved_through_another_process_is_let_in_at_once(
        client: TestClient) -> None:
    """The store holds the move before the table's owner has heard of it (another process
    made it: the bus message is on its way): the new browser's socket is let in, and the
    old browser is told and demoted then and there."""
    from preferans.server.security.tokens import SEAT_COOKIE, token_hash
    from preferans.server.table.party import Party

    game, (_, boris) = seated(client, ["friend", "easy"], ["Boris"], seed=17)
    phone = Browser(client)
    assert phone.post(f"/api/friends/{game}/move", {"code": "x" * 22}).status_code == 404
    phone_hash = token_hash(phone.cookies[SEAT_COOKIE])  # a token minted for it all the same
    store = client.app.state.store

    def elsewhere(seats: dict[str, str], friends: dict[str, Any]) -> None:
        seats["1"] = phone_hash
        party = Party.from_json(friends).relinked(1)
        friends.clear()
        friends.update(party.to_json())

    with boris.socket(game) as old:
        assert old.receive_json()["seat"] == 1
        store.write_now(store.change_friends, game, elsewhere)  # the table not told
        with phone.socket(game) as ws:
            told = old.receive_json()
            assert told["type"] == "seat_moved", told
            assert old.receive_json()["seat"] is None
            state = ws.receive_json()
            while state.get("type") != "state":
                state = ws.receive_json()
            assert state["seat"] == 1 and state["observation"]["hand"]
