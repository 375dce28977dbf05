"""The web game's pages and JSON API."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient
from server_helpers import new_game


def test_settings_page_offers_every_choice_and_continue_only_when_saved(
    client: TestClient,
) -> None:
    page = client.get("/")
    assert page.status_code == 200
    html = page.text
    for value in ("easy", "normal", "hard", "crazy", "sochi", "leningrad", "rostov"):
        assert f'value="{value}"' in html
    for pool in (10, 20, 30):
        assert f'name="pool" value="{pool}"' in html
    assert ">PLAY<" in html
    assert 'href="/stats"' in html and 'href="/guide?lang=en"' in html
    assert "CONTINUE" not in html

    game_id = new_game(client)
    html = client.get("/").text
    assert "CONTINUE" in html
    assert f'href="/table/{game_id}"' in html


def test_new_game_and_current_game(client: TestClient) -> None:
    assert client.get("/api/games/current").status_code == 404
    response = client.post("/api/games", json={"difficulty": "hard", "rules": "rostov",
                                               "pool": 30})
    assert response.status_code == 201
    body = response.json()
    assert re.fullmatch(r"[A-Za-z0-9_-]+", body["id"])
    assert body["url"] == f"/table/{body['id']}"
    current = client.get("/api/games/current").json()
    assert current["id"] == body["id"]
    assert current["difficulty"] == "hard"
    assert current["rules"]["preset"] == "rostov" and current["rules"]["pool"] == 30


def test_new_game_rejects_bad_settings_with_a_clear_message(client: TestClient) -> None:
    cases = [
        ({"difficulty": "godlike", "rules": "sochi", "pool": 10}, "difficulty"),
        ({"difficulty": "easy", "rules": "vegas", "pool": 10}, "rules"),
        ({"difficulty": "easy", "rules": "sochi", "pool": 15}, "pool"),
        ({"difficulty": "easy", "rules": "sochi", "pool": 10, "cheat": True}, "cheat"),
    ]
    for body, field in cases:
        response = client.post("/api/games", json=body)
        assert response.status_code == 422, body
        assert response.json()["detail"].startswith(field), response.json()
    response = client.post("/api/games", content=b"{not json",
                           headers={"content-type": "application/json"})
    assert response.status_code == 422
    assert "JSON" in response.json()["detail"]
    assert client.get("/api/games/current").status_code == 404  # nothing was created


def test_the_same_seed_deals_the_same_cards(client: TestClient) -> None:
    tables = client.app.state.tables  # type: ignore[attr-defined]
    first = tables.get(new_game(client, seed=1234))
    second = tables.get(new_game(client, seed=1234))
    assert first.game.deal.initial_hands == second.game.deal.initial_hands
    assert first.game.deal.talon == second.game.deal.talon
    assert first.game.deal.dealer == second.game.deal.dealer


def test_table_page_and_unknown_game_page(client: TestClient) -> None:
    game_id = new_game(client)
    page = client.get(f"/table/{game_id}")
    assert page.status_code in (200, 503)  # 503 only while the table template is missing
    missing = client.get("/table/no-such-game")
    assert missing.status_code == 404
    assert "no game" in missing.text.lower()
    assert client.get("/nowhere").status_code == 404
    assert client.get("/api/nowhere").json() == {"detail": "There is nothing at this address."}


def test_statistics_page_and_json(client: TestClient) -> None:
    new_game(client, difficulty="crazy")
    stats = client.get("/api/stats").json()
    assert stats["difficulties"] == ["easy", "normal", "hard", "crazy"]
    assert stats["stats"]["crazy"]["games"] == 1
    assert stats["stats"]["crazy"]["finished"] == 0
    assert stats["stats"]["easy"]["games"] == 0
    page = client.get("/stats")
    assert page.status_code == 200
    for heading in ("Games", "Finished", "Wins", "Average result", "Contracts made",
                    "Whists written"):
        assert heading in page.text
    assert 'data-difficulty="crazy"' in page.text


def test_guide_page(client: TestClient) -> None:
    page = client.get("/guide")
    assert page.status_code == 200
    assert "guide" in page.text.lower()


def test_record_is_private_until_the_game_is_over(client: TestClient) -> None:
    game_id = new_game(client)
    response = client.get(f"/api/games/{game_id}/record")
    assert response.status_code == 403
    assert client.get("/api/games/unknown/record").status_code == 404


def test_serve_explains_a_taken_port_and_a_bad_database() -> None:
    import socket

    from typer.testing import CliRunner

    from preferans.cli import app

    runner = CliRunner()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = runner.invoke(app, ["serve", "--no-browser", "--port", str(port)])
    assert result.exit_code == 2
    assert f"cannot listen on 127.0.0.1:{port}" in result.output
    assert "Traceback" not in result.output

    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    result = runner.invoke(
        app, ["serve", "--no-browser", "--port", str(port), "--db", "nosuchdb://nowhere/x"]
    )
    assert result.exit_code == 2
    assert "cannot open the database nosuchdb://nowhere/x" in result.output
