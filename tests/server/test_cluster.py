"""Several server processes behind one address (issue 37): two processes on one PostgreSQL
database and one Redis, each a real process (tests/server/cluster_node.py); the browsers'
sockets placed on either.  Three humans on different processes play whole deals (no frame
leaks a card to a socket that may not see it: the friends' leak test across processes);
the owner killed with SIGKILL mid-deal, the table goes on under the other process within
10 s with every acknowledged move kept once; Redis restarted mid-game, play resumes."""

from __future__ import annotations

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
from preferans.server.spectators import SPECTATOR
from preferans.server.store import GameStore

if reason := (pg_unavailable() or redis_unavailable()):
    pytest.skip(reason, allow_module_level=True)
pytest.importorskip("psycopg", reason="the cluster tests need psycopg")

pytestmark = pytest.mark.slow
LEASE = 2.0
_numbers = count(1)


@pytest.fixture(scope="module")
def postgres() -> Iterator[TempPostgres]:
    server = TempPostgres()
    try:
        server.start()
        yield server
    finally:
        server.stop()


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
    obs = state["observation"]
    legal = [str(t) for t in obs["legal"]]
    if str(obs.get("phase")).upper() == "AUCTION" and plan == "allpass" and "PASS" in legal:
        return "PASS"
    return rng.choice(legal)


class Play:
    """Three humans' sockets and a spectator's, moved by whoever is to act."""

    def __init__(self, sockets: dict[int, Socket], seed: int, plan: str,
                 read: dict[int, dict[str, Any]] | None = None) -> None:
        self.sockets = sockets
        self.rng = random.Random(seed)
        self.plan = plan
        read = read or {}
        self.states = {seat: read.get(seat) or s.read_state() for seat, s in sockets.items()}
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
            frame = sock.read_state(timeout)
            self.states[seat] = frame
            event = frame.get("event")
            if seat == SPECTATOR and event and event.get("kind") != "deal_started":
                self.acknowledged.append((event["seat"], event["token"]))
        seqs = {s["seq"] for s in self.states.values()}
        assert len(seqs) == 1, seqs  # every socket, on either process, at the same state


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


@pytest.mark.parametrize("plan", ["allpass", "random"])
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
        assert (a.status()["tables_owned"], b.status()["tables_owned"]) == (1, 0), (a.status(), b.status())
        assert b.status()["sockets_forwarded"] == 2
        while play.step():
            pass
        game = _deal_of(db, game_id)
        _same(play.acknowledged, _history(game))
        frames = [(seat, text) for seat, sock in sockets.items() for text in sock.frames]
        assert assert_no_leak(frames, game.finished_deals[0]) > 30
        hands = [set(play.first[seat]["observation"]["hand"]) for seat in (0, 1, 2)]
        assert all(len(hand) == 10 for hand in hands) and not (hands[0] & hands[1])
        assert play.first[SPECTATOR]["observation"]["hand"] == []
    finally:
        for sock in sockets.values():
            sock.close()
