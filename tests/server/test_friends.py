"""A table for friends over the protocol: creating it, the invite, the lobby, taking seats,
starting, and each human playing his own seat with his own cards (several browsers are
several cookie jars of one test client)."""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from server_helpers import receive_json

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from route_list import flat_routes

from preferans.server.table.party import INVITE_BYTES
from preferans.server.table.spectators import SPECTATOR


class Browser:
    """One browser: its own seat cookie, sent with its requests and sockets."""

    def __init__(self, client: TestClient, lang: str = "en") -> None:
        self.client = client
        self.cookies: dict[str, str] = {}
        self.lang = lang

    @contextmanager
    def _as_me(self) -> Iterator[TestClient]:
        self.client.cookies.clear()
        self.client.cookies.update(self.cookies)
        try:
            yield self.client
        finally:
            self.cookies = dict(self.client.cookies)
            self.client.cookies.clear()

    def post(self, path: str, body: Any) -> Any:
        with self._as_me() as client:
            return client.post(path, json=body, headers={"Accept-Language": self.lang})

    def get(self, path: str) -> Any:
        with self._as_me() as client:
            return client.get(path, headers={"Accept-Language": self.lang})

    def socket(self, game_id: str, watch: str | None = None) -> Any:
        with self._as_me() as client:
            query = f"?watch={watch}" if watch is not None else ""
            return client.websocket_connect(f"/ws/{game_id}{query}",
                                            headers={"Accept-Language": self.lang})


def create(anna: Browser, seats: list[str], **extra: Any) -> dict[str, Any]:
    body = {"name": "Anna", "seats": seats, "rules": "sochi", "pool": 10, **extra}
    response = anna.post("/api/friends", body)
    assert response.status_code == 201, response.text
    return response.json()


def code_of(created: dict[str, Any]) -> str:
    return created["invite"].rsplit("/", 1)[1]


def seated(client: TestClient, seats: list[str], names: list[str], seed: int = 11,
           **extra: Any) -> tuple[str, list[Browser]]:
    """A started table: Anna at seat 0, a friend at each "friend" seat (named from
    ``names``)."""
    anna = Browser(client)
    created = create(anna, seats, seed=seed, **extra)
    browsers = [anna]
    for seat, kind in enumerate(seats, start=1):
        if kind != "friend":
            continue
        friend = Browser(client)
        response = friend.post(f"/api/friends/{created['id']}/join",
                               {"code": code_of(created), "seat": seat, "name": names.pop(0)})
        assert response.status_code == 200, response.text
        browsers.append(friend)
    response = anna.post(f"/api/friends/{created['id']}/start", {})
    assert response.status_code == 200, response.text
    anna.invite = code_of(created)  # type: ignore[attr-defined]
    return created["id"], browsers


# --- the lobby ---------------------------------------------------------------------------
def test_creating_gives_an_unguessable_invite_and_the_lobby(client: TestClient) -> None:
    anna = Browser(client)
    created = create(anna, ["friend", "hard"], clock=30)
    code = code_of(created)
    assert len(code) >= 22 and INVITE_BYTES * 8 >= 128
    view = anna.get(f"/api/friends/{created['id']}").json()
    assert view["creator"] is True and view["you"] == 0 and view["clock"] == 30
    assert [s["kind"] for s in view["seats"]] == ["human", "human", "computer"]
    assert view["seats"][0]["name"] == "Anna" and view["free"] == [1]
    assert view["invite"].endswith(code)
    assert anna.get(f"/lobby/{created['id']}").status_code == 200
    # the table page of a table still gathering goes to its lobby
    page = anna.get(f"/table/{created['id']}")
    assert page.url.path == f"/lobby/{created['id']}"
    # a stranger sees neither the lobby nor its invite
    stranger = Browser(client)
    assert stranger.get(f"/api/friends/{created['id']}").status_code == 403
    assert stranger.get(f"/lobby/{created['id']}").status_code == 403
    assert stranger.get(created["invite"]).status_code == 200


def test_joining_taking_a_seat_twice_and_a_stale_invite(client: TestClient) -> None:
    anna = Browser(client)
    created = create(anna, ["friend", "friend"])
    game = created["id"]
    boris, vera, gleb = Browser(client), Browser(client), Browser(client, "ru")
    assert boris.post(f"/api/friends/{game}/join",
                      {"code": code_of(created), "seat": 1, "name": " Boris "}).json()["seat"] == 1
    # the same browser again: it keeps its seat
    assert boris.post(f"/api/friends/{game}/join",
                      {"code": code_of(created), "seat": 2, "name": "Boris"}).json()["seat"] == 1
    taken = gleb.post(f"/api/friends/{game}/join",
                      {"code": code_of(created), "seat": 1, "name": "Глеб"})
    assert taken.status_code == 409 and taken.json()["code"] == "seat_taken"
    assert "заняли" in taken.json()["message"]
    same_name = vera.post(f"/api/friends/{game}/join",
                          {"code": code_of(created), "seat": 2, "name": "boris"})
    assert same_name.status_code == 409 and same_name.json()["code"] == "name_taken"
    # a new link: the old one stops working
    fresh = anna.post(f"/api/friends/{game}/invite", {}).json()["invite"]
    assert fresh != created["invite"]
    stale = vera.post(f"/api/friends/{game}/join",
                      {"code": code_of(created), "seat": 2, "name": "Vera"})
    assert stale.status_code == 404 and stale.json()["code"] == "stale_invite"
    assert vera.get(created["invite"]).status_code == 404
    # only the creator makes links and starts, and only a full table starts
    assert boris.post(f"/api/friends/{game}/invite", {}).status_code == 403
    assert boris.post(f"/api/friends/{game}/start", {}).status_code == 403
    not_full = anna.post(f"/api/friends/{game}/start", {})
    assert not_full.status_code == 409 and not_full.json()["code"] == "not_full"
    # the creator gives the empty seat to a computer, then starts
    assert anna.post(f"/api/friends/{game}/seat", {"seat": 2, "level": "easy"}).status_code == 200
    assert anna.post(f"/api/friends/{game}/start", {}).json()["url"] == f"/table/{game}"
    late = vera.post(f"/api/friends/{game}/join",
                     {"code": code_of({"invite": fresh}), "seat": 2, "name": "Vera"})
    assert late.status_code == 409 and late.json()["code"] == "started"
    # both humans find the table in CONTINUE
    assert boris.get("/api/games/current").json()["id"] == game


@pytest.mark.parametrize("body", [
    {"name": "Anna", "seats": ["easy", "hard"]},                      # no friend
    {"name": "", "seats": ["friend", "hard"]},                        # no name
    {"name": "Misha", "seats": ["friend", "hard"]},                   # a computer's name
    {"name": "Anna", "seats": ["friend", "hard", "easy"]},            # 4 seats, 3 players
    {"name": "Anna", "seats": ["friend"]},                            # too few
    {"name": "Anna", "seats": ["friend", "hard"], "clock": 45},       # no such clock
    {"name": "Anna", "seats": ["friend", "hard"], "seed": 3, "x": 1},  # unknown field
    {"name": "A\u0007", "seats": ["friend", "hard"]},                 # a control character
])
def test_bad_settings_are_refused_in_the_players_language(client: TestClient,
                                                           body: dict[str, Any]) -> None:
    response = Browser(client, "ru").post("/api/friends", body)
    assert response.status_code == 422, response.text
    assert re.search("[а-яА-Я]", response.json()["detail"]), response.json()


def test_the_invite_code_is_checked_and_bounded(client: TestClient) -> None:
    anna = Browser(client)
    created = create(anna, ["friend", "easy"])
    other = Browser(client)
    real = code_of(created)
    wrong = real[:-1] + ("B" if real.endswith("A") else "A")
    for code in ("x", wrong, "z" * 64):
        answer = other.post(f"/api/friends/{created['id']}/join",
                            {"code": code, "seat": 1, "name": "Eve"})
        assert answer.status_code == 404, answer.text
    too_long = other.post(f"/api/friends/{created['id']}/join",
                          {"code": "z" * 65, "seat": 1, "name": "Eve"})
    assert too_long.status_code == 422


# --- at the table ------------------------------------------------------------------------
def test_each_human_gets_his_own_seat_and_cards(client: TestClient) -> None:
    game, (anna, boris) = seated(client, ["friend", "easy"], ["Boris"])
    with anna.socket(game) as wa, boris.socket(game) as wb:
        a, b = receive_json(wa), receive_json(wb)
        assert (a["seat"], b["seat"]) == (0, 1)
        assert a["names"] == b["names"] == ["Anna", "Boris", "Misha"] or a["names"][:2] == [
            "Anna", "Boris"]
        assert a["observation"]["hand"] and b["observation"]["hand"]
        assert not set(a["observation"]["hand"]) & set(b["observation"]["hand"])
    stranger = Browser(client)
    with stranger.socket(game) as ws:
        refused = receive_json(ws)
        assert refused["code"] == "not_yours"
    assert stranger.get(f"/table/{game}").status_code == 403


def _next_not_state(ws: Any, timeout: float | None = None) -> dict[str, Any]:
    """The next frame on ``ws`` that is not a state (a friend's arrival sends the sockets
    already at the table one more state, which may still be waiting there)."""
    while True:
        frame = receive_json(ws) if timeout is None else receive_json(ws, timeout=timeout)
        if frame.get("type") != "state":
            return frame


def _next_move(ws: Any) -> dict[str, Any]:
    """The next state on ``ws`` that tells a move (a friend's arrival, or his presence, sends
    the sockets at the table states without one, which may come first)."""
    while True:
        frame = receive_json(ws)
        if frame.get("type") == "state" and frame.get("event"):
            return frame


def _until_a_human_acts(ws: Any) -> dict[str, Any]:
    """The first state frame on ``ws`` in which seat 0 or 1 (the two humans) is to act."""
    while True:
        state = receive_json(ws)
        if state.get("type") == "state" and state["observation"].get("to_act") in (0, 1):
            return state


def test_a_human_acting_out_of_turn_is_told_and_nothing_changes(client: TestClient) -> None:
    game, (anna, boris) = seated(client, ["friend", "easy"], ["Boris"], seed=4)
    with anna.socket(game) as wa, boris.socket(game) as wb:
        sockets = {0: wa, 1: wb}
        # the computer may move before Boris's socket opens (Anna's gets more frames): each
        # socket is read on its own until a human is to act, where the table then waits
        states = {0: _until_a_human_acts(wa), 1: _until_a_human_acts(wb)}
        to_act = states[0]["observation"]["to_act"]
        assert states[1]["observation"]["to_act"] == to_act
        other = 1 - to_act
        legal = states[to_act]["observation"]["legal"]
        # the other human sends at the same time, first: refused, the right one applies
        sockets[other].send_json({"type": "action", "token": legal[0]})
        sockets[to_act].send_json({"type": "action", "token": legal[0]})
        error = _next_not_state(sockets[other])
        assert error["type"] == "error" and error["code"] == "not_your_turn"
        after = _next_move(sockets[to_act])
        assert after["event"]["seat"] == to_act and after["event"]["token"] == legal[0]
        seen = _next_move(sockets[other])
        assert seen["event"] == after["event"]


CARD = re.compile(r"^(?:10|[7-9JQKA])[SCDH]$")
CALLS = frozenset(("auction", "bid", "contract", "min_bid", "defence", "sheet", "last_entry",
                   "rules", "house_rules"))
"""Keys whose values are calls (``7S`` is a bid, not the seven of spades) or the sheet."""


def _cards(value: Any, skip: frozenset[str] = frozenset()) -> set[str]:
    """Every card token in a JSON value, leaving out the keys in ``skip``."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in skip:
                found |= _cards(item, skip)
    elif isinstance(value, list):
        for item in value:
            found |= _cards(item, skip)
    elif isinstance(value, str) and CARD.match(value.upper()):
        found.add(value.upper())
    return found


def frame_cards(frame: dict[str, Any]) -> set[str]:
    """The cards a state frame names (its calls left out: an auction's legal bids, the
    events of calls)."""
    obs = dict(frame["observation"])
    if str(obs.get("phase")).upper() not in ("PLAY", "DISCARD", "EXCHANGE"):
        obs.pop("legal", None)
    event = frame.get("event") or {}
    shown = {k: v for k, v in frame.items() if k not in ("observation", "event")}
    cards = _cards(obs, CALLS) | _cards(shown, CALLS)
    if event.get("kind") in ("card", "trick", "discard"):
        cards |= _cards(event.get("token"))
    return cards


def play_whole_deal(client: TestClient, seats: list[str], names: list[str], seed: int,
                    pick: Any = None, **extra: Any
                    ) -> tuple[list[tuple[int, str]], Any, dict[str, Any]]:
    """Two or three humans (random legal moves) and the computer play deal 1 to its end;
    every frame each socket received, as ``(seat, text)``, and the finished deal
    (``extra``: more settings of the table, its rules, its players)."""
    game, browsers = seated(client, seats, list(names), seed=seed, **extra)
    rng = random.Random(seed)
    frames: list[tuple[int, str]] = []
    humans = [0] + [s for s, kind in enumerate(seats, start=1) if kind == "friend"]
    opened = [b.socket(game) for b in browsers]
    sockets = {seat: cm.__enter__() for seat, cm in zip(humans, opened, strict=True)}
    # a spectator (the invite link of the started table) watches every frame too
    opened.append(Browser(client).socket(game, watch=browsers[0].invite))
    sockets[SPECTATOR] = opened[-1].__enter__()
    readers = [*humans, SPECTATOR]
    try:
        def read(seat: int) -> dict[str, Any]:
            ws = sockets[seat]

            async def receive() -> Any:
                with anyio.fail_after(10):  # a table that stopped sending fails, not hangs
                    return await ws._send_rx.receive()

            text = ws.portal.call(receive)["text"]
            frames.append((seat, text))
            return json.loads(text)

        states = {seat: read(seat) for seat in readers}
        # a computer may move before the last socket opens: a socket opened earlier has more
        # frames; each is read up to the same state, then they go in step (one frame each)
        latest = max(state["seq"] for state in states.values())
        for seat in readers:
            while states[seat]["seq"] < latest:
                states[seat] = read(seat)
        assert states[SPECTATOR]["seat"] is None
        assert states[SPECTATOR]["observation"]["hand"] == []
        for _ in range(400):
            state = states[humans[0]]
            if state["deal_over"]:
                break
            actor = state["observation"]["to_act"]
            if actor in sockets and state["thinking"] is None:
                legal = states[actor]["observation"]["legal"]
                token = (pick(states[actor]) if pick else None) or rng.choice(legal)
                sockets[actor].send_json({"type": "action", "token": token})
            states = {seat: read(seat) for seat in readers}
            assert all(s["type"] == "state" for s in states.values()), states
        assert states[humans[0]]["deal_over"]
        table = client.app.state.tables.open[game]
        return frames, table.game.finished_deals[0], states[humans[0]]
    finally:
        for cm in opened:
            cm.__exit__(None, None, None)


def assert_no_leak(frames: list[tuple[int, str]], deal: Any) -> int:
    """No frame to a seat names a card of another seat's hand (or of the talon) that it may
    see: a card played, the talon shown, a hand laid open (checked while the deal is on;
    after it, the hands are shown as the single-player table shows them)."""
    hands = [set(hand.to_list()) for hand in deal.initial_hands]
    talon = {str(card) for card in deal.talon}
    checked = 0
    assert any(seat == SPECTATOR for seat, _ in frames), "no spectator frames"
    for seat, text in frames:
        frame = json.loads(text)
        if frame.get("type") != "state" or frame["deal_over"]:
            continue
        obs = frame["observation"]
        seen = set(obs.get("hand") or [])
        for key in ("tricks", "trick", "exposed", "talon", "looked"):
            seen |= _cards(obs.get(key))
        if str(obs.get("phase")).upper() == "PLAY":
            seen |= _cards(obs.get("legal"))  # the cards of the hand it plays: its own or open
        others = set().union(*(h for s, h in enumerate(hands) if s != seat)) | talon
        leaked = (frame_cards(frame) & others) - seen
        assert not leaked, (seat, leaked, obs.get("phase"))
        checked += 1
    return checked


def test_two_humans_and_a_computer_play_a_whole_deal_without_a_leak(client: TestClient) -> None:
    frames, deal, _ = play_whole_deal(client, ["friend", "easy"], ["Boris"], seed=21)
    assert {seat for seat, _ in frames} == {0, 1, SPECTATOR}
    assert assert_no_leak(frames, deal) > 10


def _steer(plan: str) -> Any:
    """A human's choice that leads the deal to ``plan``: all pass; the first to speak says
    misère; a six played with an open defence; else a random legal move."""
    def pick(state: dict[str, Any]) -> str | None:
        obs = state["observation"]
        legal = [str(t).upper() for t in obs["legal"]]
        phase = str(obs.get("phase")).upper()
        if phase == "AUCTION":
            if plan == "allpass" or obs.get("bid"):
                return "PASS" if "PASS" in legal else None
            wanted = "MISERE" if plan == "misere" else "6S"
            return wanted if wanted in legal else ("PASS" if "PASS" in legal else None)
        if phase == "DEFENCE" and plan == "open":  # one whists, the other passes
            whisted = any(str(call).upper() == "WHIST" for _, call in obs.get("defence") or [])
            wanted = "PASS" if whisted else "WHIST"
            return wanted if wanted in legal else None
        if phase == "DEFENCE_MODE" and plan == "open":
            return "OPEN" if "OPEN" in legal else None
        return None

    return pick


@pytest.mark.parametrize("plan", ["allpass", "misere", "open", "random"])
def test_three_humans_play_whole_deals_without_a_leak(client: TestClient, plan: str) -> None:
    checked = 0
    kinds = set()
    for seed in (30, 31):
        frames, deal, last = play_whole_deal(client, ["friend", "friend"], ["Boris", "Vera"],
                                             seed=seed, pick=_steer(plan))
        checked += assert_no_leak(frames, deal)
        kinds.add(str((last.get("last_entry") or {}).get("kind")))
        if plan == "open":
            assert any(json.loads(text)["observation"].get("exposed") for _, text in frames
                       if json.loads(text).get("type") == "state")
        # a discard is seen face down by the others, face up by its owner
        for seat, text in frames:
            frame = json.loads(text)
            event = frame.get("event") or {}
            if event.get("kind") == "discard" and event.get("seat") != seat:
                assert event["token"] == "DISCARD", frame["event"]
    expected = {"allpass": {"allpass"}, "misere": {"misere"}, "open": {"contract"}}
    if plan in expected:
        assert kinds == expected[plan], kinds
    assert checked > 20


# --- the stand-in ------------------------------------------------------------------------
def _read_until(ws: Any, done: Any, limit: int = 400) -> dict[str, Any]:
    for _ in range(limit):
        message = receive_json(ws, timeout=10)
        if message.get("type") == "state" and done(message):
            return message
    raise AssertionError("the awaited state never came")


def _pass_until_the_stand_in_plays(ws: Any, state: dict[str, Any], seat: int = 1,
                                   limit: int = 300) -> dict[str, Any]:
    """Seat 0 takes its first legal action whenever it is to act, until the stand-in plays
    ``seat``; the state with that move."""
    for _ in range(limit):
        event = state.get("event") or {}
        if event.get("seat") == seat and event.get("stand_in"):
            return state
        obs = state["observation"]
        if obs["to_act"] == 0 and not state["deal_over"] and state["thinking"] is None:
            ws.send_json({"type": "action", "token": sorted(obs["legal"])[0]})
        state = _read_until(ws, lambda m: True)
    raise AssertionError(f"the stand-in never played seat {seat}")


def test_a_move_clock_that_runs_out_lets_the_stand_in_decide(client: TestClient) -> None:
    from preferans.game import Game
    from preferans.server.table.table import Table

    game, (anna, boris) = seated(client, ["friend", "easy"], ["Boris"], seed=4)
    with anna.socket(game) as wa, boris.socket(game) as wb:
        receive_json(wa)
        receive_json(wb)
        table = client.app.state.tables.open[game]
        table.standin.clock = 0.3  # the table's 30 s, shortened for the test
        wa.portal.call(table.refresh)
        timed = _read_until(wa, lambda m: m.get("clock") is not None)
        assert timed["clock"]["seat"] in (0, 1) and 0 < timed["clock"]["left"] <= 0.3
        # nobody moves: the stand-in decides for the human whose clock ran out
        decided = _read_until(wa, lambda m: (m.get("event") or {}).get("stand_in"))
        seat = decided["event"]["seat"]
        assert seat in (0, 1) and decided["stand_in_name"] == "Misha"
        assert decided["stand_in"] == []  # one decision: the seat is still the human's
        record = table.record()
        assert record["deals"][0]["stand_in"], record["deals"][0]
        assert decided["stand_in_seats"] == [seat]  # the sheet's note names the seat
        saved = client.app.state.store.get(game)
        assert saved.record["deals"][0]["stand_in"] == record["deals"][0]["stand_in"]
        Game.from_record(saved.record)  # the optional field changes nothing in a replay
        restored = Table.restore(saved, store=client.app.state.store, bot_delay=0)
        assert restored.stand_ins == table.stand_ins
        assert restored.record_encoded().value == table.record_encoded().value
        table.standin.clock = 0


def test_an_absent_human_is_played_by_the_stand_in_until_he_comes_back(
        client: TestClient) -> None:
    game, (anna, boris) = seated(client, ["friend", "easy"], ["Boris"], seed=4)
    with anna.socket(game) as wa:
        receive_json(wa)
        table = client.app.state.tables.open[game]
        table.standin.grace = 0.2  # the 30 s grace time, shortened for the test
        with boris.socket(game) as wb:
            receive_json(wb)
        # Boris's page closed: after the grace time the stand-in sits in for him
        away = _read_until(wa, lambda m: m.get("stand_in") == [1])
        assert away["stand_in_name"] == "Misha"
        # Anna passes whenever it is her turn; the stand-in plays Boris's seat
        _pass_until_the_stand_in_plays(wa, away)
        # Boris comes back: his seat is his again, the plates say so
        with boris.socket(game) as wb:
            mine = receive_json(wb)
            assert mine["seat"] == 1 and mine["stand_in"] == []
            back = _read_until(wa, lambda m: m.get("stand_in") == [])
            assert back["thinking"] != 1


def test_a_spectator_sees_the_public_table_and_cannot_act(client: TestClient) -> None:
    game, (anna, _boris) = seated(client, ["friend", "easy"], ["Boris"], seed=4)
    stranger = Browser(client, "ru")
    with stranger.socket(game) as ws:  # no code: no table
        assert receive_json(ws)["code"] == "not_yours"
    with stranger.socket(game, watch="x" * 22) as ws:  # a wrong code: no table either
        assert receive_json(ws)["code"] == "not_yours"
    with stranger.socket(game, watch=anna.invite) as ws:
        public = receive_json(ws)
        assert public["seat"] is None and public["observation"]["hand"] == []
        assert public["observation"]["legal"] == [] and public["why_not"] == {}
        assert public["observation"]["hand_sizes"] == [10, 10, 10]
        for message in ({"type": "action", "token": "PASS"}, {"type": "next_deal"},
                        {"type": "pause"}, {"type": "hint"}):
            ws.send_json(message)
            refused = receive_json(ws)
            while refused["type"] == "state":  # the computer may move meanwhile
                assert refused["observation"]["hand"] == []
                refused = receive_json(ws)
            assert refused["code"] == "spectator" and "зрители" in refused["message"]
    assert stranger.get(f"/watch/{game}/{anna.invite}").status_code == 200
    assert stranger.get(f"/watch/{game}/{'y' * 22}").status_code == 404
    join = stranger.get(f"/join/{game}/{anna.invite}")
    assert join.status_code == 200 and f"/watch/{game}/" in join.text


def test_a_hint_is_given_only_to_the_seat_to_act_from_its_own_cards(client: TestClient) -> None:
    game, (anna, boris) = seated(client, ["friend", "easy"], ["Boris"], seed=4, hints=True)
    with anna.socket(game) as wa, boris.socket(game) as wb:
        states = {0: _until_a_human_acts(wa), 1: _until_a_human_acts(wb)}
        actor = states[0]["observation"]["to_act"]
        sockets = {0: wa, 1: wb}
        other = 1 - actor
        sockets[other].send_json({"type": "hint"})
        assert _next_not_state(sockets[other])["code"] == "not_your_turn"
        sockets[actor].send_json({"type": "hint"})
        hint = _next_not_state(sockets[actor], timeout=60)
        assert hint["type"] == "hint", hint
        # any card-like token a hint names is one of the actor's options or cards (a bid
        # "7S" in the auction is an option), never one only the other seat holds
        others = set(states[other]["observation"]["hand"])
        own = {*states[actor]["observation"]["legal"], *states[actor]["observation"]["hand"]}
        assert not (_cards(hint["hint"]) & others) - own


def test_the_creator_gives_an_absent_friends_seat_to_the_computer(client: TestClient) -> None:
    game, (anna, boris, vera) = seated(client, ["friend", "friend"], ["Boris", "Vera"], seed=4)
    with anna.socket(game) as wa, vera.socket(game) as wv:
        receive_json(wa)
        receive_json(wv)
        table = client.app.state.tables.open[game]
        table.standin.grace = 0.2
        wa.send_json({"type": "hand_over", "seat": 1})  # Boris is not away
        assert _read_until_error(wa)["code"] == "not_away"
        wv.send_json({"type": "hand_over", "seat": 1})  # Vera did not make the table
        assert _read_until_error(wv)["code"] == "creator_only"
        wa.send_json({"type": "hand_over", "seat": "1"})
        assert _read_until_error(wa)["code"] == "bad_message"
        with boris.socket(game) as wb:
            receive_json(wb)
        _read_until(wa, lambda m: m.get("stand_in") == [1])
        wa.send_json({"type": "hand_over", "seat": 1})
        handed = _read_until(wa, lambda m: m.get("handed") == [1])
        assert handed["stand_in"] == [1]
        # for the rest of the game: Boris's browser holds no seat here any more
        with boris.socket(game) as wb:
            assert receive_json(wb)["code"] == "not_yours"
        assert boris.get(f"/api/friends/{game}").status_code == 403
        saved = client.app.state.store.get(game)
        assert "1" not in saved.seats and saved.friends["handed"] == [1]


def _read_until_error(ws: Any) -> dict[str, Any]:
    for _ in range(400):
        message = receive_json(ws, timeout=10)
        if message.get("type") == "error":
            return message
    raise AssertionError("no error came")


def test_no_socket_before_the_start_and_a_new_link_keeps_the_table_playing(
        client: TestClient) -> None:
    anna = Browser(client)
    created = create(anna, ["friend", "easy"], seed=4)
    with anna.socket(created["id"]) as ws:
        assert receive_json(ws)["code"] == "not_started"
    game, (anna, _boris) = seated(client, ["friend", "easy"], ["Boris"], seed=4)
    with anna.socket(game) as wa:
        receive_json(wa)
        table = client.app.state.tables.open[game]
        fresh = anna.post(f"/api/friends/{game}/invite", {}).json()["invite"]
        assert client.app.state.tables.open[game] is table  # the same table plays on
        assert table.party.invite == fresh.rsplit("/", 1)[1]
        with Browser(client).socket(game, watch=anna.invite) as old:
            assert receive_json(old)["code"] == "not_yours"  # the old link stopped


def test_the_table_chat_reaches_everyone_as_text_bounded_and_paced(client: TestClient) -> None:
    game, (anna, boris) = seated(client, ["friend", "easy"], ["Boris"], seed=4)
    with anna.socket(game) as wa, boris.socket(game) as wb, \
            Browser(client).socket(game, watch=anna.invite) as watcher:
        for ws in (wa, wb, watcher):
            receive_json(ws)
        wa.send_json({"type": "chat", "text": "  Hello <b>Boris</b>  "})
        for ws in (wa, wb, watcher):
            said = _read_until_type(ws, "chat")
            assert said == {"type": "chat", "seat": 0, "name": "Anna",
                            "text": "Hello <b>Boris</b>"}
        for bad in ("", "x" * 201, "a\u0000b", 7):
            wb.send_json({"type": "chat", "text": bad})
            assert _read_until_error(wb)["code"] == "bad_message"
        watcher.send_json({"type": "chat", "text": "hi"})
        assert _read_until_error(watcher)["code"] == "spectator"
        for _ in range(4):  # the burst goes through, the fifth waits
            wb.send_json({"type": "chat", "text": "again"})
        wb.send_json({"type": "chat", "text": "too fast"})
        assert _read_until_error(wb)["code"] == "too_many_messages"
    single = client.post("/api/games", json={"difficulty": "easy", "rules": "sochi",
                                             "pool": 10}).json()["id"]
    with client.websocket_connect(f"/ws/{single}") as ws:
        receive_json(ws)
        ws.send_json({"type": "chat", "text": "hello"})  # the one-player protocol has none
        error = _read_until_error(ws)
        assert error["code"] == "bad_message" and "hint)" in error["message"]


def _read_until_type(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(400):
        message = receive_json(ws, timeout=10)
        if message.get("type") == kind:
            return message
    raise AssertionError(f"no {kind} message came")


def test_a_pause_waits_until_every_friend_agrees(client: TestClient) -> None:
    game, (anna, boris) = seated(client, ["friend", "easy"], ["Boris"], seed=4)
    with anna.socket(game) as wa, boris.socket(game) as wb:
        receive_json(wa)
        receive_json(wb)
        wa.send_json({"type": "pause"})
        asked = _read_until(wb, lambda m: m.get("pause_asked") == [0])
        assert asked["paused"] is False
        wb.send_json({"type": "pause"})
        paused = _read_until(wa, lambda m: m["paused"])
        assert paused["pause_asked"] == [] and paused["clock"] is None
        actor = paused["observation"]["to_act"]
        if actor in (0, 1):  # nobody plays during the pause
            ws = wa if actor == 0 else wb
            state = paused if actor == 0 else _read_until(wb, lambda m: m["paused"])
            ws.send_json({"type": "action", "token": state["observation"]["legal"][0]})
            assert _read_until_error(ws)["code"] == "paused"
        wb.send_json({"type": "resume"})  # either goes on
        assert _read_until(wa, lambda m: not m["paused"])["pause_asked"] == []


def test_rematch_seats_the_same_friends_at_a_new_game(client: TestClient) -> None:
    from preferans.server.store.schema import FINISHED

    game, (anna, boris) = seated(client, ["friend", "hard"], ["Boris"], seed=4, clock=60)
    assert anna.post(f"/api/friends/{game}/rematch", {}).status_code == 409  # not over
    store = client.app.state.store
    with anna.socket(game) as wa:
        _read_until(wa, lambda m: m["thinking"] is None)  # the computer waits for a human
        store.save(game, record=store.get(game).record, status=FINISHED)  # as if it ended
        assert Browser(client).post(f"/api/friends/{game}/rematch", {}).status_code == 403
        answer = boris.post(f"/api/friends/{game}/rematch", {})
        assert answer.status_code == 200, answer.text
        assert answer.json() == {"waiting": [0]}  # REMATCH waits for every friend's READY
        url = anna.post(f"/api/friends/{game}/rematch", {}).json()["url"]
        assert boris.post(f"/api/friends/{game}/rematch", {}).json()["url"] == url  # one game
        told = _read_until(wa, lambda m: m.get("rematch") is not None)
        assert told["rematch"] == url
    new = url.rsplit("/", 1)[1]
    assert new != game
    with anna.socket(new) as wa, boris.socket(new) as wb:
        a, b = receive_json(wa), receive_json(wb)
        assert (a["seat"], b["seat"]) == (0, 1) and a["names"] == ["Anna", "Boris", "Lena"]
        assert a["game_over"] is False
    view = anna.get(f"/api/friends/{new}").json()
    assert view["started"] and view["clock"] == 60 and view["seats"][2]["level"] == "hard"
    assert view["invite"] != anna.get(f"/api/friends/{game}").json()["invite"]


def test_no_route_gives_a_seats_cards_or_acts_for_it_without_its_token(
        client: TestClient) -> None:
    """Every route of the app with a game in its path, asked by a browser that holds no seat
    (and by one that holds another seat) for a started friends' table: no hand comes back,
    nothing changes."""
    game, (anna, boris) = seated(client, ["friend", "easy"], ["Boris"], seed=4)
    with anna.socket(game) as wa:
        receive_json(wa)
    table = client.app.state.tables.open[game]
    hands = [set(hand.to_list()) for hand in table.game.deal.initial_hands]
    before = client.app.state.store.get(game).record
    stranger = Browser(client)
    paths = sorted({route.path for route in flat_routes(client.app.routes)
                    if "{game_id}" in getattr(route, "path", "")})
    assert len(paths) >= 8, paths
    for path in paths:
        url = path.replace("{game_id}", game).replace("{code}", "x" * 22)
        for who in (stranger, boris):
            for method in ("get", "post"):
                if url.startswith("/ws/"):
                    continue
                response = (who.get(url) if method == "get" else who.post(url, {}))
                text = response.text
                for seat, hand in enumerate(hands):
                    if who is boris and seat == 1:
                        continue  # his own cards he may see
                    shown = {card for card in hand if f'"{card}"' in text}
                    assert len(shown) < 3, (path, method, seat, shown, response.status_code)
    # the sockets: a stranger gets no table, Boris only his own seat
    with stranger.socket(game) as ws:
        assert receive_json(ws)["code"] == "not_yours"
    with boris.socket(game) as ws:
        mine = receive_json(ws)
        assert mine["seat"] == 1
        assert set(mine["observation"]["hand"]) == hands[1]
    # nothing was played for a human: every action since is the computer's (seat 2)
    history = table.game.deal.history if table.game.deal is not None else []
    since = history[len(before["deals"][-1]["actions"]):]
    assert all(seat == 2 for seat, _ in since), since


def test_a_table_everyone_left_waits_instead_of_playing_itself_out(client: TestClient) -> None:
    import time

    game, (anna, boris) = seated(client, ["friend", "easy"], ["Boris"], seed=4)
    with anna.socket(game) as wa:
        receive_json(wa)
        table = client.app.state.tables.open[game]
        table.standin.grace = 0.1
        with boris.socket(game) as wb:
            receive_json(wb)
        _read_until(wa, lambda m: m.get("stand_in") == [1])
    time.sleep(0.8)  # both gone longer than the grace time
    assert sorted(table.standin.away) == [0, 1]
    done = len(table.game.deal.history)
    time.sleep(0.5)
    assert len(table.game.deal.history) == done  # nobody plays for them
    assert table.bot_to_move() is None or table.bot_to_move() == 2


# --- finishing early by agreement -----------------------------------------------------------
@contextmanager
def open_sockets(game: str, browsers: list[Browser]) -> Iterator[dict[int, Any]]:
    """The table's socket of each browser in ``browsers`` (seat 0, 1, … in order), all closed
    when the block ends."""
    with ExitStack() as stack:
        yield {seat: stack.enter_context(b.socket(game)) for seat, b in enumerate(browsers)}


def in_step(sockets: dict[int, Any]) -> dict[int, dict[str, Any]]:
    """Each socket's state read up to the same one: a socket opened earlier has more frames
    (a friend's arrival is shown to those already at the table)."""
    states = {seat: receive_json(ws) for seat, ws in sockets.items()}
    latest = max(state["seq"] for state in states.values())
    for seat, ws in sockets.items():
        while states[seat]["seq"] < latest:
            states[seat] = receive_json(ws)
    return states


def _play_deal_out(sockets: dict[int, Any], states: dict[int, dict[str, Any]],
                   pick: Any) -> dict[int, dict[str, Any]]:
    """Three humans play the deal on the table to its end (``pick`` steers them)."""
    rng = random.Random(5)
    for _ in range(400):
        if states[0]["deal_over"]:
            return states
        actor = states[0]["observation"]["to_act"]
        legal = states[actor]["observation"]["legal"]
        token = pick(states[actor]) or rng.choice(legal)
        sockets[actor].send_json({"type": "action", "token": token})
        states = {seat: receive_json(ws) for seat, ws in sockets.items()}
    raise AssertionError("the deal never ended")


def _six_nobody_whists(state: dict[str, Any]) -> str | None:
    """The first to speak bids 6♠ and the others pass; nobody whists it (pool points)."""
    obs = state["observation"]
    legal = [str(t).upper() for t in obs["legal"]]
    phase = str(obs.get("phase")).upper()
    if phase == "AUCTION":
        return "PASS" if obs.get("bid") or "6S" not in legal else "6S"
    if phase == "CONTRACT":
        return "6S" if "6S" in legal else None
    if phase == "DEFENCE":
        return "PASS" if "PASS" in legal else None
    return None


@pytest.mark.parametrize("uncharged", [False, True])
def test_an_early_finish_waits_for_every_friend_and_settles_the_sheet(
        client: TestClient, uncharged: bool) -> None:
    from dataclasses import replace

    from preferans.game import Game
    from preferans.record import read_record
    from preferans.sheet import json_number, settle

    rules = {"preset": "sochi", "settle_no_missing_pool": True} if uncharged else "sochi"
    game, browsers = seated(client, ["friend", "friend"], ["Boris", "Vera"], seed=30,
                            rules=rules)
    with open_sockets(game, browsers) as sockets:
        wa, wb, wv = sockets[0], sockets[1], sockets[2]
        states = in_step(sockets)
        assert states[0]["finish_asked"] == [] and states[0]["stopped"] is None
        states = _play_deal_out(sockets, states, _six_nobody_whists)  # pool points written
        for ready in (wa, wb, wv):  # the next deal waits for every friend's READY
            ready.send_json({"type": "next_deal"})
            states = {seat: receive_json(ws) for seat, ws in sockets.items()}
        actor = states[0]["observation"]["to_act"]  # one call of deal 2, then the ask
        sockets[actor].send_json({"type": "action", "token": "PASS"})
        states = {seat: receive_json(ws) for seat, ws in sockets.items()}
        table = client.app.state.tables.open[game]
        sheet_before = table.game.sheet

        wa.send_json({"type": "finish"})  # Anna asks: the others see who asked, who is left
        asked = {seat: receive_json(ws) for seat, ws in sockets.items()}
        for state in asked.values():
            assert state["finish_asked"] == [0] and state["finish_waiting"] == [1, 2]
            assert not state["game_over"]
        wv.send_json({"type": "finish", "agree": False})  # Vera says no: the ask is withdrawn
        declined = {seat: receive_json(ws) for seat, ws in sockets.items()}
        assert all(s["finish_asked"] == [] and not s["game_over"] for s in declined.values())

        wa.send_json({"type": "finish"})
        for ws in sockets.values():
            receive_json(ws)
        wb.send_json({"type": "finish"})
        two = {seat: receive_json(ws) for seat, ws in sockets.items()}
        assert two[2]["finish_asked"] == [0, 1] and two[2]["finish_waiting"] == [2]
        assert not two[2]["game_over"] and len(table.game.deal.history) == 1
        wv.send_json({"type": "finish", "agree": "yes"})  # a bad word changes nothing
        assert _read_until_error(wv)["code"] == "bad_message"
        wv.send_json({"type": "finish"})  # the last friend agrees: the game ends here
        over = {seat: receive_json(ws) for seat, ws in sockets.items()}

    balance = sheet_before.balance()
    for state in over.values():
        assert state["game_over"] and state["deal_over"] and state["thinking"] is None
        assert state["finish_asked"] == [] and state["observation"]["legal"] == []
        assert state["stopped"] == {"deals": 1, "deal_dropped": True,
                                    "missing": "uncharged" if uncharged else "charged"}
        assert state["result"] == [json_number(x) for x in balance]  # the sheet as it stands
    # the settlement is the rules' own for an unfinished sheet, and the house option shows
    sheet = sheet_before
    charged = settle(replace(sheet.rules, settle_no_missing_pool=False), sheet.pool,
                     sheet.mountain, sheet.whists)
    assert any(p for p in sheet.pool) and not sheet.finished
    assert (balance != charged) is uncharged

    saved = client.app.state.store.get(game)
    assert saved.finished and saved.result == [json_number(x) for x in balance]
    record = saved.record
    assert record["stopped"] == {"agreed": [0, 1, 2], "deals": 1, "deal_dropped": True}
    assert len(record["deals"]) == 1  # the unscored deal in progress is not in the record
    assert "stopped" not in read_record(record)  # a plain reader ignores the mark
    assert Game.from_record(record).sheet.balance() == balance

    # nothing more is played, and the table read back from the store is still stopped
    with browsers[1].socket(game) as wb:
        state = receive_json(wb)
        assert state["game_over"] and state["stopped"]["deals"] == 1
        wb.send_json({"type": "next_deal"})
        assert _read_until_error(wb)["code"] == "illegal"
        wb.send_json({"type": "finish"})
        assert _read_until_error(wb)["code"] == "illegal"
    table = client.app.state.tables.open.pop(game)
    client.portal.call(table.stop)  # on the app's own loop (a browser test's may run here)
    with browsers[2].socket(game) as wv:
        state = receive_json(wv)
        assert state["game_over"] and state["stopped"] == over[2]["stopped"]
        assert state["result"] == over[2]["result"]
    assert browsers[0].post(f"/api/friends/{game}/rematch", {}).status_code == 200


def test_a_friend_away_does_not_hold_up_an_early_finish_and_the_single_game_has_none(
        client: TestClient) -> None:
    game, (anna, boris) = seated(client, ["friend", "easy"], ["Boris"], seed=4)
    with anna.socket(game) as wa:
        receive_json(wa)
        table = client.app.state.tables.open[game]
        table.standin.grace = 0.1
        with boris.socket(game) as wb:
            receive_json(wb)
        _read_until(wa, lambda m: m.get("stand_in") == [1])  # Boris gone: the stand-in plays
        wa.send_json({"type": "finish"})
        over = _read_until(wa, lambda m: m["game_over"])
        assert over["stopped"]["deal_dropped"] is True
    assert client.app.state.store.get(game).record["stopped"]["agreed"] == [0]
    # the one-player game has no early finish: the socket does not know the message
    response = client.post("/api/games", json={"difficulty": "easy", "rules": "sochi"})
    with client.websocket_connect(f"/ws/{response.json()['id']}") as ws:
        receive_json(ws)
        ws.send_json({"type": "finish"})
        error = _read_until_error(ws)
        assert error["code"] == "bad_message"
        assert error["message"].endswith("(expected action, next_deal, pause, resume or hint).")


def test_an_early_finish_that_cannot_be_saved_leaves_the_game_going_on(
        client: TestClient, db_url: str) -> None:
    from test_store_faults import make_read_only, make_writable, read_error

    game, (anna, boris) = seated(client, ["friend", "easy"], ["Boris"], seed=4)
    with anna.socket(game) as wa, boris.socket(game) as wb:
        receive_json(wa)
        receive_json(wb)
        table = client.app.state.tables.open[game]
        _read_until(wa, lambda m: m["thinking"] is None)
        actions = len(table.game.deal.history)
        wa.send_json({"type": "finish"})
        _read_until(wb, lambda m: m["finish_asked"] == [0])
        make_read_only(client, db_url)
        try:
            wb.send_json({"type": "finish"})
            error, _ = read_error(wb)
        finally:
            make_writable(client, db_url)
        assert error["code"] == "save_failed"
        assert "the early finish was not saved: the game goes on" in error["message"]
        back = _read_until(wa, lambda m: m["finish_asked"] == [])
        assert not back["game_over"] and back["stopped"] is None  # never shown stopped
        assert table.stopped is None and len(table.game.deal.history) == actions
        assert not client.app.state.store.get(game).finished
        wa.send_json({"type": "finish"})  # asked again once the database writes again
        wb.send_json({"type": "finish"})
        assert _read_until(wb, lambda m: m["game_over"])["stopped"]["deal_dropped"] is True
    assert client.app.state.store.get(game).finished
