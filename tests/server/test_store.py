"""The saved games (SQLAlchemy Core on SQLite), the database settings and the statistics."""

from __future__ import annotations

from pathlib import Path

import pytest

from preferans.server.store import config
from preferans.server.store.games import GameStore
from preferans.server.store.schema import FINISHED, PLAYING
from preferans.server.store.stats import contract_made, statistics, summarise

NAMES = ["You", "Misha", "Lena"]


def make(store: GameStore, game_id: str, difficulty: str = "easy") -> None:
    store.create(game_id, difficulty=difficulty, rules={"preset": "sochi", "pool": 10},
                 names=NAMES, seed=42, record={"format": "preferans-record/1", "deals": []})


def test_create_get_and_save_round_trip(tmp_path: Path) -> None:
    store = GameStore(f"sqlite:///{tmp_path / 'sub' / 'games.db'}")
    make(store, "g1")
    saved = store.get("g1")
    assert saved is not None
    assert (saved.id, saved.difficulty, saved.names, saved.seed) == ("g1", "easy", NAMES, 42)
    assert saved.rules == {"preset": "sochi", "pool": 10}
    assert saved.status == PLAYING and saved.result is None and not saved.finished

    record = {"format": "preferans-record/1", "deals": [{"dealer": 0, "actions": ["PASS"]}]}
    store.save("g1", record=record, status=FINISHED, result=[10.5, -0.5, -10],
               summary={"deals": 1})
    store.close()  # the server owns its file: another store opens it once it is closed
    again = GameStore(store.url).get("g1")  # a new connection: the data is on disk
    assert again is not None
    assert again.record == record
    assert again.finished and again.result == [10.5, -0.5, -10]
    assert again.summary == {"deals": 1}
    assert again.updated >= saved.updated
    assert (tmp_path / "sub" / "games.db").exists()


def test_unknown_game() -> None:
    store = GameStore("sqlite://")
    assert store.get("nope") is None
    with pytest.raises(KeyError, match="nope"):
        store.save("nope", record={})


def test_latest_unfinished_is_the_last_played() -> None:
    store = GameStore("sqlite://")
    assert store.latest_unfinished() is None
    make(store, "a")
    make(store, "b")
    make(store, "c")
    store.save("a", record={"deals": [1]})  # played most recently
    latest = store.latest_unfinished()
    assert latest is not None and latest.id == "a"
    store.save("a", record={}, status=FINISHED, result=[0, 0, 0])
    latest = store.latest_unfinished()
    assert latest is not None and latest.id in ("b", "c")
    store.save("b", record={}, status=FINISHED, result=[0, 0, 0])
    store.save("c", record={}, status=FINISHED, result=[0, 0, 0])
    assert store.latest_unfinished() is None


def test_summaries_feed_statistics() -> None:
    store = GameStore("sqlite://")
    make(store, "e1", "easy")
    make(store, "e2", "easy")
    make(store, "h1", "hard")
    store.save("e1", record={}, status=FINISHED, result=[30, -10, -20],
               summary={"deals": 9, "declared": 3, "made": 2, "whists_written": 40,
                        "balance": 30.0, "finished": True, "won": True})
    store.save("e2", record={}, status=FINISHED, result=[-10, 20, -10],
               summary={"deals": 7, "declared": 1, "made": 0, "whists_written": 4,
                        "balance": -10.0, "finished": True, "won": False})
    stats = statistics(store.summaries())
    easy = stats["easy"]
    assert (easy["games"], easy["finished"], easy["wins"]) == (2, 2, 1)
    assert easy["average_result"] == 10.0
    assert (easy["contracts_declared"], easy["contracts_made"]) == (4, 2)
    assert easy["contracts_made_pct"] == 50.0
    assert easy["whists_written"] == 44 and easy["deals"] == 16
    hard = stats["hard"]
    assert (hard["games"], hard["finished"], hard["average_result"]) == (1, 0, None)
    assert stats["crazy"]["games"] == 0 and stats["crazy"]["contracts_made_pct"] is None


def test_summarise_the_humans_side_of_a_sheet() -> None:
    sheet = {
        "balance": [-5, 12.333, -7.333],
        "whists": [[0, 6, 2], [12, 0, 0], [0, 0, 0]],
        "finished": True,
        "deals": [
            {"kind": "contract", "declarer": 0, "contract": "7H", "tricks": [6, 3, 1]},
            {"kind": "misere", "declarer": 0, "contract": "MISERE", "tricks": [0, 5, 5]},
            {"kind": "passed", "declarer": 0, "contract": "6S", "tricks": [0, 0, 0]},
            {"kind": "contract", "declarer": 1, "contract": "6C", "tricks": [2, 6, 2]},
            {"kind": "allpass", "declarer": None, "contract": None, "tricks": [3, 3, 4]},
        ],
    }
    summary = summarise(sheet)
    assert summary == {"deals": 5, "declared": 3, "made": 2, "whists_written": 8,
                       "balance": -5.0, "finished": True, "won": False}
    assert contract_made(sheet["deals"][0]) is False
    assert contract_made(sheet["deals"][3]) is None
    assert contract_made(sheet["deals"][3], seat=1) is True


def test_database_url_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(config.ENV_DB, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert config.data_folder() == tmp_path / "preferans"
    assert config.database_url(None) == f"sqlite:///{tmp_path / 'preferans' / 'preferans.db'}"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert config.data_folder() == tmp_path / ".local" / "share" / "preferans"
    monkeypatch.setenv(config.ENV_DB, "postgresql://me@db.example/preferans")
    assert config.database_url(None) == "postgresql://me@db.example/preferans"
    assert config.database_url("games.db").startswith("sqlite:////")
    assert config.sqlite_file("sqlite:///:memory:") is None
    assert config.sqlite_file("postgresql://x/y") is None
    assert config.sqlite_file("sqlite:////a/b.db") == Path("/a/b.db")


def test_one_server_owns_its_sqlite_file(tmp_path: Path) -> None:
    """Exclusive locking (no shared-memory index to SIGBUS on): a second store on the same
    file while the first is open says the file is locked, and opens it once it is closed."""
    url = f"sqlite:///{tmp_path / 'games.db'}"
    first = GameStore(url)
    make(first, "g1")
    second = GameStore(url)
    assert second.fault is not None and "locked by another program" in second.fault.message
    assert not (tmp_path / "games.db-shm").exists()
    first.close()
    second.close()
    third = GameStore(url)
    assert third.fault is None and third.get("g1") is not None
    third.close()
