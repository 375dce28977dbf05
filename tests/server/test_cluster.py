"""Several server processes behind one address (issue 37): two processes on one PostgreSQL
database and one Redis, each a real process (tests/server/cluster_node.py); the browsers'
sockets placed on either.  Three humans on different processes play whole deals (no frame
leaks a card to a socket that may not see it: the friends' leak test across processes);
the owner killed with SIGKILL mid-deal, the table goes on under the other process within
10 s with every acknowledged move kept once; Redis restarted mid-game, play resumes."""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Iterator
from itertools import count
from pathlib import Path
from typing import Any

import pytest
from cluster_helpers import Browser, Node, Socket, friends_table
from pg_server import TempPostgres
from pg_server import unavailable as pg_unavailable
from redis_server import TempRedis
from redis_server import unavailable as redis_unavailable

from preferans.game import Game
from preferans.server.store.games import GameStore
from preferans.server.table.spectators import SPECTATOR

if reason := (pg_unavailable() or redis_unavailable()):
    pytest.skip(reason, allow_module_level=True)
pytest.importorskip("psycopg", reason="the cluster tests need psycopg")

pytestmark = pytest.mark.slow
LEASE = 2.0
_numbers = count(1)


@pytest.fixture()
def redis_server() -> Iterator[TempRedis]:
    server = TempRedis().start()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture()
def nodes(postgres: TempPostgres, redis_server: TempRedis, tmp_path: Path
          ) -> Iterator[tuple[Node, Node, str]]:
    db = postgres.new_database(f"preferans_cluster_{next(_numbers)}")
    GameStore(db).close()  # the tables made once, before two processes race to make them
    first = Node(db, redis_server.url, LEASE, tmp_path / "a.log")
    second = Node(db, redis_server.url, LEASE, tmp_path / "b.log")
    try:
        first.start()
        second.start()
        yield first, second, db
    finally:
        first.stop()
        second.stop()


def _pick(plan: str, rng: random.Random, state: dict[str, Any]) -> str:
    """A human's move steering the deal to ``plan`` (all pass, misère, an open defence: as
    the single-process leak test steers it), else a random legal one."""
    from test_friends import _steer

    steered = _steer(plan)(state) if plan != "random" else None
    legal = [str(t) for t in state["observation"]["legal"]]
    return next((t for t in legal if steered and t.upper() == steered), None) or rng.choice(legal)


class Play:
    """Three humans' sockets and a spectator's, moved by whoever is to act."""

    def __init__(self, sockets: dict[int, Socket], seed: int, plan: str,
                 read: dict[int, dict[str, Any]] | None = None) -> None:
        self.sockets = sockets
        self.rng = random.Random(seed)
        self.plan = plan
        read = read or {}
        self.states = {seat: read.get(seat) or s.read_state() for seat, s in sockets.items()}
        # a friend arriving is shown to those already at the table (no longer away): a
        # socket opened earlier has more frames; each is read up to the same state
        latest = max(state["seq"] for state in self.states.values())
        for seat, sock in sockets.items():
            while self.states[seat]["seq"] < latest:
                self.states[seat] = sock.read_state()
        self.first = dict(self.states)
        self.acknowledged: list[tuple[int, str]] = []
        """Every action whose state came back (seen on the spectator's socket)."""

    def step(self) -> bool:
        """One move by the human to act; False once the deal is over."""
        state = self.states[0]
        if state["deal_over"]:
            return False
        actor = state["observation"]["to_act"]
        token = _pick(self.plan, self.rng, self.states[actor])
        self.sockets[actor].send({"type": "action", "token": token})
        self.read_all()
        return True

    def read_all(self, timeout: float = 20) -> None:
        for seat, sock in self.sockets.items():
            self._note(seat, sock.read_state(timeout))
        seqs = {s["seq"] for s in self.states.values()}
        assert len(seqs) == 1, seqs  # every socket, on either process, at the same state

    def settle(self, need: tuple[int, ...] = (), quiet: float = 1.0,
               timeout: float = 30) -> None:
        """After a disturbance: every socket's frames read until none comes for ``quiet``
        seconds (the sockets of ``need`` wait for one first: a socket opened again)."""
        deadline = time.monotonic() + timeout
        for seat, sock in self.sockets.items():
            wait = max(0.1, deadline - time.monotonic()) if seat in need else quiet
            while True:
                try:
                    frame = sock.read_state(wait)
                except TimeoutError:
                    break
                self._note(seat, frame)
                wait = quiet
        seqs = {s["seq"] for s in self.states.values()}
        assert len(seqs) == 1, seqs

    def _note(self, seat: int, frame: dict[str, Any]) -> None:
        self.states[seat] = frame
        event = frame.get("event")
        if seat == SPECTATOR and event and event.get("kind") != "deal_started":
            self.acknowledged.append((event["seat"], event["token"]))


def _deal_of(db: str, game_id: str) -> Any:
    store = GameStore(db)
    try:
        saved = store.get(game_id)
    finally:
        store.close()
    assert saved is not None
    return Game.from_record(saved.record)


def _history(game: Any) -> list[tuple[int, str]]:
    deal = game.finished_deals[0] if game.finished_deals else game.deal
    return [(seat, str(action)) for seat, action in deal.history]


def _same(acknowledged: list[tuple[int, str]], history: list[tuple[int, str]]) -> None:
    """The spectator's events are the record's actions (a discard shown face down)."""
    assert len(acknowledged) == len(history), (acknowledged, history)
    for (seat, token), (saved_seat, action) in zip(acknowledged, history, strict=True):
        assert seat == saved_seat
        assert token == action or (token == "DISCARD" and action.startswith("DISCARD")), \
            (token, action)


@pytest.mark.parametrize("plan", ["allpass", "misere", "open", "random"])
def test_three_humans_on_two_processes_play_a_whole_deal_without_a_leak(
        nodes: tuple[Node, Node, str], plan: str) -> None:
    from test_friends import assert_no_leak

    a, b, db = nodes
    seed = 40 + len(plan)
    game_id, browsers, code = friends_table(a, ["friend", "friend"], ["Boris", "Vera"], seed)
    first = browsers[0].socket(a, game_id)  # the first socket: a owns the table
    read = {0: first.read_state()}
    sockets = {0: first,
               1: browsers[1].socket(b, game_id),
               2: browsers[2].socket(b, game_id),
               SPECTATOR: Browser().socket(a, game_id, watch=code)}
    try:
        play = Play(sockets, seed, plan, read)
        owned = (a.status()["tables_owned"], b.status()["tables_owned"])
        assert owned == (1, 0), owned
        assert b.status()["sockets_forwarded"] == 2
        while play.step():
            pass
        game = _deal_of(db, game_id)
        _same(play.acknowledged, _history(game))
        frames = [(seat, text) for seat, sock in sockets.items() for text in sock.frames]
        assert assert_no_leak(frames, game.finished_deals[0]) > 30
        kind = str((play.states[0].get("last_entry") or {}).get("kind"))
        expected = {"allpass": "allpass", "misere": "misere", "open": "contract"}
        assert kind == expected.get(plan, kind), kind
        if plan == "open":
            assert any(json.loads(text)["observation"].get("exposed") for _, text in frames
                       if json.loads(text).get("type") == "state")
        hands = [set(play.first[seat]["observation"]["hand"]) for seat in (0, 1, 2)]
        assert all(len(hand) == 10 for hand in hands) and not (hands[0] & hands[1])
        assert play.first[SPECTATOR]["observation"]["hand"] == []
    finally:
        for sock in sockets.values():
            sock.close()


def test_the_owner_killed_mid_deal_the_table_goes_on_under_the_other_within_10_s(
        nodes: tuple[Node, Node, str]) -> None:
    """SIGKILL to the owner in the middle of the play: the other process takes the table
    over from the store once the lease runs out; the sockets it holds get the table's state
    at once, the killed process's browser reconnects to it; every acknowledged move is in
    the record once, in order, and the deal is played to its end."""
    a, b, db = nodes
    game_id, browsers, code = friends_table(a, ["friend", "friend"], ["Boris", "Vera"], 52)
    first = browsers[0].socket(a, game_id)
    read = {0: first.read_state()}
    sockets = {0: first, 1: browsers[1].socket(b, game_id), 2: browsers[2].socket(b, game_id),
               SPECTATOR: Browser().socket(b, game_id, watch=code)}
    try:
        play = Play(sockets, 52, "allpass", read)
        for _ in range(12):  # the auction (three passes) and three tricks
            assert play.step()
        before = list(play.acknowledged)
        killed = time.monotonic()
        a.kill()
        for seat in (1, 2, SPECTATOR):  # the table goes on at b: its state comes again
            play.states[seat] = sockets[seat].read_state(timeout=10)
        took = time.monotonic() - killed
        sockets[0].reconnect(b)
        play.settle(need=(0,))
        status = b.status()
        assert status["tables_owned"] == 1 and status["takeovers"] == 1, status
        assert took < 10, took
        while play.step():
            pass
        history = _history(_deal_of(db, game_id))
        after = play.acknowledged[len(before):]
        assert len(before) + len(after) == len(history), (before, after, history)
        _same(play.acknowledged, history)
        print(f"taken over {took:.2f} s after the kill (lease {LEASE} s)")
    finally:
        for sock in sockets.values():
            sock.close()


def test_redis_restarted_mid_game_play_resumes(
        nodes: tuple[Node, Node, str], redis_server: TempRedis) -> None:
    """Redis goes away while a move is sent from a socket on the process that does not own
    the table: the move waits, both processes connect again and subscribe again, the move
    reaches the owner and every socket gets the state; the deal is played to its end."""
    a, b, db = nodes
    game_id, browsers, code = friends_table(a, ["friend", "friend"], ["Boris", "Vera"], 53)
    first = browsers[0].socket(a, game_id)
    read = {0: first.read_state()}
    sockets = {0: first, 1: browsers[1].socket(b, game_id), 2: browsers[2].socket(b, game_id),
               SPECTATOR: Browser().socket(a, game_id, watch=code)}
    try:
        play = Play(sockets, 53, "allpass", read)
        for _ in range(40):
            if play.states[0]["observation"]["to_act"] in (1, 2) and play.states[0][
                    "observation"]["phase"].upper() == "PLAY":
                break
            assert play.step()
        actor = play.states[0]["observation"]["to_act"]
        assert actor in (1, 2)
        redis_server.stop()
        time.sleep(0.5)
        token = _pick("allpass", play.rng, play.states[actor])
        sockets[actor].send({"type": "action", "token": token})  # waits on b: no bus
        time.sleep(1.0)
        redis_server.start()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if all(n.status()["bus"]["connected"] and n.status()["bus"]["reconnects"] >= 1
                   for n in (a, b)):
                break
            time.sleep(0.2)
        else:
            raise AssertionError((a.status(), b.status()))
        play.settle(need=(1, 2, SPECTATOR))
        assert (actor, token) in play.acknowledged  # the move made while Redis was away
        while play.step():
            pass
        _same(play.acknowledged, _history(_deal_of(db, game_id)))
    finally:
        for sock in sockets.values():
            sock.close()


def test_serve_workers_runs_processes_behind_one_address_and_restarts_a_dead_one(
        postgres: TempPostgres, redis_server: TempRedis, tmp_path: Path) -> None:
    """``preferans serve --workers 2 --db postgresql+psycopg://... --bus redis://...``: two
    processes answer on one port (each its own pid on /api/status), a game is played through
    it, a worker killed with SIGKILL is started again, SIGTERM stops them all."""
    import os
    import signal
    import subprocess
    import sys

    import httpx
    from redis_server import free_port

    db = postgres.new_database(f"preferans_cluster_{next(_numbers)}")
    port = free_port()
    command = [sys.executable, "-c", "from preferans.cli import main; main()", "serve",
               "--workers", "2", "--db", db, "--bus", redis_server.url, "--no-browser",
               "--port", str(port), "--bot-delay", "0", "--bot-workers", "0",
               "--lease-seconds", "2"]
    log = (tmp_path / "serve.log").open("wb")
    parent = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"

    def pids(tries: int = 60) -> set[int]:
        seen = set()
        for _ in range(tries):
            with httpx.Client() as http:  # a new connection each time
                seen.add(http.get(f"{url}/api/status", timeout=5).json()["pid"])
        return seen

    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            assert parent.poll() is None, (tmp_path / "serve.log").read_text()
            try:
                if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        workers = pids()
        while len(workers) < 2 and time.monotonic() < deadline:
            workers |= pids(10)
        assert len(workers) == 2, workers
        browser = Browser()
        node = Node(db, redis_server.url, 2.0, tmp_path / "unused.log")
        node.port = port
        made = browser.post(node, "/api/games", {"difficulty": "easy", "rules": "sochi",
                                                 "pool": 10})
        assert made.status_code == 201, made.text
        game_id = made.json()["id"]
        sock = browser.socket(node, game_id)
        state = sock.read_state()
        while state["thinking"] is not None or state["observation"]["to_act"] != 0:
            state = sock.read_state()
        sock.send({"type": "action", "token": str(state["observation"]["legal"][0])})
        assert sock.read_state()["event"]["seat"] == 0
        sock.close()
        victim = sorted(workers)[0]
        os.kill(victim, signal.SIGKILL)
        time.sleep(0.5)
        again: set[int] = set()
        while time.monotonic() < deadline + 30 and len(again - {victim}) < 2:
            with contextlib.suppress(httpx.HTTPError):
                again |= pids(10)
        assert victim not in again and len(again) == 2, (workers, again)
    finally:
        parent.send_signal(signal.SIGTERM)
        assert parent.wait(60) == 0


def test_a_friends_table_changed_through_another_process_reaches_its_owner(
        nodes: tuple[Node, Node, str]) -> None:
    """The creator makes a new invite link through the process that does not own the started
    table: the owner reads the table's friends again, so the new link lets a spectator in on
    the owner and the old one no longer does."""
    a, b, _ = nodes
    game_id, browsers, code = friends_table(a, ["friend", "friend"], ["Boris", "Vera"], 54)
    first = browsers[0].socket(a, game_id)
    try:
        first.read_state()
        made = browsers[0].post(b, f"/api/friends/{game_id}/invite", {})
        assert made.status_code == 200, made.text
        fresh = made.json()["invite"].rsplit("/", 1)[1]
        assert fresh != code
        deadline = time.monotonic() + 10
        while True:  # the owner hears of it over the bus
            watcher = Browser().socket(a, game_id, watch=fresh)
            frame = watcher.read()
            watcher.close()
            if frame.get("type") == "state" or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert frame["type"] == "state" and frame["seat"] is None, frame
        stale = Browser().socket(a, game_id, watch=code)
        assert stale.read()["code"] == "not_yours"
        stale.close()
    finally:
        first.close()


def test_the_sockets_of_a_killed_process_that_did_not_own_the_table_are_forgotten(
        nodes: tuple[Node, Node, str]) -> None:
    """A process holding two sockets of a table owned by the other dies: its mark in Redis
    runs out and the owner forgets those sockets (their seats count as away, the table may
    leave memory once empty), within a few lease times; the owner's own socket plays on."""
    a, b, _ = nodes
    game_id, browsers, _code = friends_table(a, ["friend", "friend"], ["Boris", "Vera"], 55)
    first = browsers[0].socket(a, game_id)
    first.read_state()
    others = [browsers[1].socket(b, game_id), browsers[2].socket(b, game_id)]
    try:
        for sock in others:
            sock.read_state()
        assert a.status()["remote_sockets_served"] == 2
        b.kill()
        deadline = time.monotonic() + 10 * LEASE
        while a.status()["remote_sockets_served"] and time.monotonic() < deadline:
            time.sleep(0.3)
        status = a.status()
        assert status["remote_sockets_served"] == 0, status
        assert status["remote_sockets_of_dead_processes_forgotten"] == 2, status
        assert status["tables_owned"] == 1 and status["sockets_held"] == 1
    finally:
        first.close()
        for sock in others:
            sock.close()


def test_a_seat_moved_through_another_process_demotes_its_old_socket_at_once(
        nodes: tuple[Node, Node, str]) -> None:
    """Boris's seat link opened through the process that does not own the table (issue 47):
    the owner reads the seats again, tells Boris's old socket (held by that other process)
    in his language, and sends it only the spectator's view from then on; his phone's socket
    gets the seat, on either process."""
    a, b, _ = nodes
    game_id, browsers, _ = friends_table(a, ["friend", "easy"], ["Boris"], 61)
    browsers[1].lang = "ru"
    first = browsers[0].socket(a, game_id)  # the first socket: a owns the table
    old = browsers[1].socket(b, game_id)
    sockets = [first, old]
    try:
        first.read_state()
        mine = old.read_state()
        assert mine["seat"] == 1 and mine["observation"]["hand"]
        code = mine["device"].rsplit("/", 1)[1]
        phone = Browser()
        moved = phone.post(b, f"/api/friends/{game_id}/move", {"code": code})
        assert moved.status_code == 200, moved.text
        told = old.read(timeout=10)
        while told.get("type") == "state":  # frames of moves made before the move
            assert told["seat"] == 1
            told = old.read(timeout=10)
        assert told["type"] == "seat_moved" and "Boris" in told["message"], told
        assert "другом устройстве" in told["message"]
        after = old.read_state(timeout=10)
        assert after["seat"] is None and after["observation"]["hand"] == []
        for node in (a, b):
            sockets.append(phone.socket(node, game_id))
            state = sockets[-1].read_state()
            assert state["seat"] == 1 and state["observation"]["hand"]
            assert state["device"].rsplit("/", 1)[1] != code
        stale = phone.post(a, f"/api/friends/{game_id}/move", {"code": code})
        assert stale.status_code == 404
        # the old browser, reconnecting on the owner, holds no seat any more
        again = browsers[1].socket(a, game_id)
        sockets.append(again)
        assert again.read()["code"] == "not_yours"
        frames = [json.loads(text) for text in old.frames]
        kinds = [frame.get("type") for frame in frames]
        later = [f for f in frames[kinds.index("seat_moved") + 1:] if f.get("type") == "state"]
        assert later and all(f["seat"] is None and f["observation"]["hand"] == []
                             and f["observation"]["legal"] == [] for f in later)
    finally:
        for sock in sockets:
            sock.close()
