"""When the database fails: a save that cannot commit takes the move back and says why, a
killed server loses only what was never acknowledged, a damaged saved game is listed as
damaged, and a damaged or read-only database still lets the settings page open."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import (
    human_to_act,
    new_game,
    read_until_settled,
    receive_json,
    send_action,
)
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from preferans.game import Game
from preferans.server.app import create_app
from preferans.server.store.faults import StoreError, describe_fault
from preferans.server.store.games import make_engine

HUMAN_FIRST = 2  # seed 2: seat 2 deals, so the human speaks first
BOTS_FIRST = 1  # seed 1: Misha deals, a computer player speaks first


def read_only_url(db_url: str) -> str:
    """The same SQLite file, opened read-only (a chmod would not stop root, who runs CI)."""
    return f"sqlite:///file:{db_url[len('sqlite:///'):]}?mode=ro&uri=true"


def make_read_only(client: TestClient, db_url: str) -> None:
    """From now on the running server's database refuses writes, as a read-only file does."""
    store = client.app.state.store  # type: ignore[attr-defined]
    store.engine.dispose()
    store.engine = make_engine(read_only_url(db_url))


def make_writable(client: TestClient, db_url: str) -> None:
    store = client.app.state.store  # type: ignore[attr-defined]
    store.engine.dispose()
    store.engine = make_engine(db_url)


def read_error(ws: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Messages up to the next error: (the error, the states before it)."""
    states = []
    while True:
        message = receive_json(ws)
        if message["type"] == "error":
            return message, states
        states.append(message)


def expect_save_failed(ws: Any, db_file: Path) -> dict[str, Any]:
    error, states = read_error(ws)
    assert error["code"] == "save_failed", error
    assert "read-only" in error["message"], error
    assert str(db_file) not in error["message"] and str(db_file.parent) not in str(error)
    assert "try again" in error["message"], error
    assert "database" not in error  # where it is: the operator's log, never a player's
    assert all(state["event"] is None and state["thinking"] is None for state in states)
    return error


def test_a_read_only_database_mid_game_takes_the_move_back_and_says_why(
    db_url: str, tmp_path: Path
) -> None:
    db_file = tmp_path / "games.db"
    with TestClient(create_app(db_url, bot_delay=0, bot_level="random")) as client:
        game_id = new_game(client, seed=HUMAN_FIRST)
        table = client.app.state.tables.get(game_id)  # type: ignore[attr-defined]
        store = client.app.state.store  # type: ignore[attr-defined]
        with client.websocket_connect(f"/ws/{game_id}") as ws:
            before = receive_json(ws)
            assert human_to_act(before)
            token = sorted(before["observation"]["legal"])[0]
            saved_before = store.get(game_id).record

            make_read_only(client, db_url)
            send_action(ws, token)
            error = expect_save_failed(ws, db_file)
            assert token in error["message"]  # "Your <token> was taken back"
            # rolled back: the table, the saved record and what a reload shows are as before
            assert table.game.deal.history == []
            assert store.get(game_id).record == saved_before
            with client.websocket_connect(f"/ws/{game_id}") as again:
                assert receive_json(again)["observation"] == before["observation"]
            # the settings page names the problem too
            page = client.get("/")
            assert page.status_code == 200
            assert 'id="store-problem"' in page.text and str(db_file) not in page.text

            make_writable(client, db_url)
            send_action(ws, token)  # the player tries again
            after = receive_json(ws)
            assert after["type"] == "state", after
            assert (after["event"]["seat"], after["event"]["token"]) == (0, token)
            last = read_until_settled(ws)
        assert 'id="store-problem"' not in client.get("/").text  # a save succeeded since
    # nothing acknowledged is lost: a new server shows exactly the last state sent
    with TestClient(create_app(db_url, bot_delay=0, bot_level="random"),
                    cookies=client.cookies) as client:
        with client.websocket_connect(f"/ws/{game_id}") as ws:
            restored = receive_json(ws)
        assert restored["observation"] == last["observation"]


def test_computer_players_do_not_move_unsaved_on_reconnect(db_url: str, tmp_path: Path) -> None:
    db_file = tmp_path / "games.db"
    with TestClient(create_app(db_url, bot_delay=0, bot_level="random")) as client:
        game_id = new_game(client, seed=BOTS_FIRST)
        table = client.app.state.tables.get(game_id)  # type: ignore[attr-defined]
        make_read_only(client, db_url)
        for _ in range(3):  # every reconnect tries once, and nothing advances
            with client.websocket_connect(f"/ws/{game_id}") as ws:
                first = receive_json(ws)
                assert first["thinking"] in (1, 2)
                error = expect_save_failed(ws, db_file)
                name = first["names"][first["thinking"]]
                assert f"{name}'s move was taken back" in error["message"]
            assert table.game.deal.history == []
        make_writable(client, db_url)
        with client.websocket_connect(f"/ws/{game_id}") as ws:
            receive_json(ws)
            state = read_until_settled(ws)
        assert table.game.deal.history
    cookies = client.cookies
    with TestClient(create_app(db_url, bot_delay=0, bot_level="random"),
                    cookies=cookies) as client, client.websocket_connect(f"/ws/{game_id}") as ws:
        assert receive_json(ws)["observation"] == state["observation"]


KILLED_SERVER = r"""
import json, sys, time
from pathlib import Path
from fastapi.testclient import TestClient
from sqlalchemy import update
from preferans.server.store import games as store_module
from preferans.server.app import create_app

db_url, out = sys.argv[1], Path(sys.argv[2])
real_save = store_module.GameStore.save
armed = False

def hanging_save(self, game_id, **values):
    if not armed:
        return real_save(self, game_id, **values)
    with self.engine.begin() as conn:  # the row is written, the commit never comes
        conn.execute(update(store_module.games).where(store_module.games.c.id == game_id)
                     .values(record=dict(values["record"]), status=values["status"]))
        (out / "saving").write_text("1")
        time.sleep(120)

store_module.GameStore.save = hanging_save
with TestClient(create_app(db_url, bot_delay=0, bot_level="random")) as client:
    game_id = client.post("/api/games", json={"difficulty": "easy", "rules": "sochi",
                                              "pool": 10, "seed": 2}).json()["id"]
    (out / "cookies.json").write_text(json.dumps(dict(client.cookies)))
    sheet = None
    with client.websocket_connect(f"/ws/{game_id}") as ws:

        def receive():  # a whole state, as the page keeps it (a frame may keep the sheet)
            global sheet
            state = ws.receive_json()
            if "sheet" in state.get("kept", ()):
                state["observation"]["sheet"] = sheet
            sheet = state["observation"]["sheet"]
            return state

        state = receive()
        for _ in range(6):  # the human's moves, each acknowledged once saved
            legal = state["observation"]["legal"]
            ws.send_json({"type": "action", "token": "PASS" if "PASS" in legal else legal[0]})
            state = receive()
            while state["thinking"] is not None or (
                    not state["deal_over"] and state["observation"]["to_act"] != 0):
                state = receive()
            (out / "acknowledged.json").write_text(json.dumps(
                {"game_id": game_id, "observation": state["observation"]}))
            if state["deal_over"]:
                break
        armed = True
        ws.send_json({"type": "next_deal"} if state["deal_over"] else
                     {"type": "action", "token": sorted(state["observation"]["legal"])[0]})
        time.sleep(120)
"""


def test_kill_9_during_a_save_keeps_the_last_committed_state(db_url: str, tmp_path: Path) -> None:
    script = tmp_path / "server.py"
    script.write_text(KILLED_SERVER)
    server = subprocess.Popen([sys.executable, str(script), db_url, str(tmp_path)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 90
        while not (tmp_path / "saving").exists():
            assert server.poll() is None, server.stdout.read().decode()  # type: ignore[union-attr]
            assert time.monotonic() < deadline, "the server never reached the hanging save"
            time.sleep(0.05)
        os.kill(server.pid, signal.SIGKILL)  # in the middle of the save's transaction
        server.wait(timeout=30)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        server.stdout.close()  # type: ignore[union-attr]
    acknowledged = json.loads((tmp_path / "acknowledged.json").read_text())
    game_id = acknowledged["game_id"]
    cookies = json.loads((tmp_path / "cookies.json").read_text())
    with TestClient(create_app(db_url, bot_delay=0, bot_level="random"),
                    cookies=cookies) as client:
        saved = client.app.state.store.get(game_id)  # type: ignore[attr-defined]
        Game.from_record(saved.record)  # the committed record replays
        with client.websocket_connect(f"/ws/{game_id}") as ws:
            restored = receive_json(ws)
        assert restored["observation"] == acknowledged["observation"]


# --- damaged saved games -------------------------------------------------------------------
def damage(db_url: str, game_id: str, record_sql: str) -> None:
    engine = make_engine(db_url)
    with engine.begin() as conn:
        conn.execute(text(f"UPDATE games SET record = {record_sql} WHERE id = :id"),
                     {"id": game_id})
    engine.dispose()


def test_a_damaged_saved_game_is_listed_never_continued_never_a_500(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0, bot_level="random")) as client:
        good = new_game(client, seed=HUMAN_FIRST)
        bad_moves = new_game(client, seed=HUMAN_FIRST)
        not_json = new_game(client, seed=HUMAN_FIRST)
        record = client.app.state.store.get(bad_moves).record  # type: ignore[attr-defined]
    record["deals"][0]["actions"] = ["7NT", "XYZ"]
    damage(db_url, bad_moves, "'" + json.dumps(record) + "'")
    damage(db_url, not_json, "'{\"format\": \"preferans-record/1\", \"deals\": [{'")
    with TestClient(create_app(db_url, bot_delay=0, bot_level="random"),
                    cookies=client.cookies) as client:
        page = client.get("/")
        assert page.status_code == 200
        assert 'id="damaged-games"' in page.text
        for game_id, words in ((bad_moves, "does not replay"), (not_json, "not valid JSON")):
            assert f'data-game="{game_id}"' in page.text and words in page.text
            assert f'href="/api/games/{game_id}/record"' in page.text
            assert f'href="/table/{game_id}"' not in page.text  # never CONTINUE
            raw = client.get(f"/api/games/{game_id}/record")
            assert raw.status_code == 200 and "attachment" in raw.headers["content-disposition"]
            table = client.get(f"/table/{game_id}")
            assert table.status_code == 409 and "cannot be played on" in table.text
            with client.websocket_connect(f"/ws/{game_id}") as ws:
                assert receive_json(ws)["code"] == "damaged"
        # a record that is not JSON downloads as stored, byte for byte
        assert client.get(f"/api/games/{not_json}/record").text == (
            '{"format": "preferans-record/1", "deals": [{')
        assert f'href="/table/{good}"' in page.text  # the good game is still offered
        assert client.get("/api/games/current").json()["id"] == good
        assert client.get("/stats").status_code == 200


def test_a_damaged_database_file_still_opens_the_settings_page(tmp_path: Path) -> None:
    db_file = tmp_path / "games.db"
    db_file.write_bytes(b"this is not a database " * 200)
    with TestClient(create_app(f"sqlite:///{db_file}", bot_delay=0)) as client:
        page = client.get("/")
        assert page.status_code == 200
        assert 'id="store-problem"' in page.text
        assert str(db_file) not in page.text and "is damaged" in page.text
        created = client.post("/api/games", json={"difficulty": "easy"})
        assert created.status_code == 503
        assert str(db_file) not in created.text and "database" not in created.json()
        assert client.get("/api/games/current").status_code == 503
        assert client.get("/stats").status_code == 503
    assert db_file.read_bytes() == b"this is not a database " * 200  # left as it was


def test_a_read_only_database_still_opens_the_settings_page(db_url: str, tmp_path: Path) -> None:
    db_file = tmp_path / "games.db"
    with TestClient(create_app(db_url, bot_delay=0, bot_level="random")) as client:
        game_id = new_game(client, seed=HUMAN_FIRST)
    with TestClient(create_app(read_only_url(db_url), bot_delay=0),
                    cookies=client.cookies) as client:
        page = client.get("/")
        assert page.status_code == 200
        assert 'id="store-problem"' in page.text
        assert str(db_file) not in page.text and "read-only" in page.text
        assert f'href="/table/{game_id}"' in page.text  # still readable
        created = client.post("/api/games", json={"difficulty": "easy"})
        assert created.status_code == 503
        assert "read-only" in created.json()["detail"] and str(db_file) not in created.text


@pytest.mark.parametrize(("detail", "problem"), [
    ("attempt to write a readonly database", "is read-only"),
    ("database or disk is full", "is on a full disk"),
    ("database disk image is malformed", "is damaged"),
    ("file is not a database", "is damaged"),
    ("database is locked", "is locked by another program"),
])
def test_each_database_fault_is_named(detail: str, problem: str) -> None:
    """What sqlite3 says, turned into what the status line says."""
    error = OperationalError("UPDATE games ...", {}, sqlite3.OperationalError(detail))
    assert describe_fault(error) == (problem, detail)
    assert StoreError("/data/games.db", problem, detail).message == (
        f"the database /data/games.db {problem} ({detail})")
