"""The saved games on PostgreSQL (the store takes any SQLAlchemy URL; SQLite is the default).

A throwaway cluster is started for the module (pg_server.py: Unix socket only, deleted
afterwards), one database per test.  The module is skipped, with the reason, only where
PostgreSQL's server binaries or the psycopg driver are missing; CI installs both
(``.ci/run``: the Debian ``postgresql`` package; ``psycopg[binary]`` is a dev dependency).
"""

from __future__ import annotations

import random
from itertools import count

import pytest
from fastapi.testclient import TestClient
from pg_server import TempPostgres, unavailable
from server_helpers import new_game, play_until, receive_json, settled

from preferans.server.app import create_app
from preferans.server.store.games import GameStore
from preferans.server.store.schema import FINISHED, PLAYING
from preferans.server.store.stats import statistics

if reason := unavailable():
    pytest.skip(reason, allow_module_level=True)
pytest.importorskip("psycopg", reason="the PostgreSQL tests need psycopg (pip install psycopg)")

NAMES = ["You", "Misha", "Lena"]
_numbers = count(1)


@pytest.fixture()
def pg_url(postgres: TempPostgres) -> str:
    return postgres.new_database(f"preferans_test_{next(_numbers)}")


def test_the_store_round_trip_on_postgres(pg_url: str) -> None:
    """Create, read, save, the latest unfinished game, summaries and statistics: the same
    answers as on SQLite (tests/server/test_store.py), through a new connection too."""
    store = GameStore(pg_url)
    assert store.get("g1") is None and store.latest_unfinished() is None
    record = {"format": "preferans-record/1", "deals": []}
    for game_id, level in (("g1", "easy"), ("g2", "easy"), ("g3", "hard")):
        store.create(game_id, difficulty=level, rules={"preset": "sochi", "pool": 10},
                     names=NAMES, seed=42, record=record)
    saved = store.get("g1")
    assert saved is not None
    assert (saved.id, saved.difficulty, saved.names, saved.seed) == ("g1", "easy", NAMES, 42)
    assert saved.rules == {"preset": "sochi", "pool": 10} and saved.status == PLAYING

    played = {"format": "preferans-record/1", "deals": [{"dealer": 0, "actions": ["PASS"]}]}
    store.save("g2", record=played)  # the most recently played
    latest = store.latest_unfinished()
    assert latest is not None and latest.id == "g2" and latest.record == played
    store.save("g1", record=played, status=FINISHED, result=[10.5, -0.5, -10],
               summary={"deals": 9, "declared": 3, "made": 2, "whists_written": 40,
                        "balance": 10.5, "finished": True, "won": True})
    with pytest.raises(KeyError, match="nope"):
        store.save("nope", record={})

    again = GameStore(pg_url).get("g1")  # a second engine: the data is in the server
    assert again is not None and again.finished
    assert again.record == played and again.result == [10.5, -0.5, -10]
    assert again.updated >= saved.updated
    stats = statistics(GameStore(pg_url).summaries())
    assert (stats["easy"]["games"], stats["easy"]["finished"], stats["easy"]["wins"]) == (2, 1, 1)
    assert stats["easy"]["average_result"] == 10.5
    assert stats["hard"]["games"] == 1 and stats["hard"]["finished"] == 0
    store.close()


def test_a_web_game_saved_in_postgres_comes_back_after_a_restart(pg_url: str) -> None:
    """The web game on a PostgreSQL URL: a game created through the API and played over the
    WebSocket into its second deal is saved there; a new app on the same URL restores it
    exactly, offers it as the game to continue, and plays on."""
    rng = random.Random(3)
    with TestClient(create_app(pg_url, bot_delay=0, bot_level="random")) as client:
        game_id = new_game(client, rules="sochi", pool=10, seed=21)
        with client.websocket_connect(f"/ws/{game_id}") as ws:
            before = play_until(
                ws, rng,
                lambda s: s["deal_number"] >= 2 and not s["deal_over"]
                and s["observation"]["phase"] == "play",
            )
        assert client.get("/api/games/current").json()["id"] == game_id
    with TestClient(create_app(pg_url, bot_delay=0, bot_level="random"),
                    cookies=client.cookies) as client:  # the same browser
        assert client.get("/api/games/current").json()["id"] == game_id
        assert client.get(f"/table/{game_id}").status_code == 200
        with client.websocket_connect(f"/ws/{game_id}") as ws:
            restored = receive_json(ws)
            assert restored["type"] == "state" and settled(restored)
            assert restored["observation"] == before["observation"]
            assert restored["deal_number"] == before["deal_number"]
            sheet = restored["observation"]["sheet"]
            assert len(sheet["deals"]) >= 1
            legal = restored["observation"]["legal"]
            ws.send_json({"type": "action", "token": sorted(legal)[0]})
            after = receive_json(ws)
            assert after["type"] == "state" and after["event"]["seat"] == 0
        stats = client.get("/api/stats").json()["stats"]  # from the PostgreSQL summaries
        assert stats["easy"]["games"] == 1 and stats["easy"]["finished"] == 0
        assert stats["easy"]["deals"] >= 1
        assert sum(v["games"] for v in stats.values()) == 1
