"""The puzzle page's routes: a puzzle as the page sees it (never the solution), the cards
played with the solver answering, the solution on request, hostile input refused."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from preferans.puzzles.shipped import generated
from preferans.puzzles.themes import THEMES


def player_cards(puzzle: dict) -> list[str]:
    return [s["card"] for s in puzzle["line"] if s["player"] and not s.get("forced")]


def test_the_page_in_both_languages(client: TestClient) -> None:
    for lang, word in (("en", 'lang="en"'), ("ru", 'lang="ru"')):
        page = client.get(f"/puzzles?lang={lang}")
        assert page.status_code == 200 and word in page.text
        assert '<script type="module" src="/static/puzzles.js">' in page.text


def test_the_page_offers_every_theme() -> None:
    template = (Path(__file__).parents[2] / "src/preferans/server/templates/puzzles.html")
    offered = re.findall(r'<option value="([a-z-]+)" data-t="puzzles\.theme\.',
                         template.read_text())
    assert offered == list(THEMES)


def test_a_puzzle_is_shown_without_its_solution(client: TestClient) -> None:
    puzzle = generated()[0]
    shown = client.get(f"/api/puzzles/{puzzle['id']}").json()
    assert shown["position"] == puzzle["position"] and shown["goal"] == puzzle["goal"]
    assert not {"solution", "line", "alternatives", "obvious", "deal"} & set(shown)
    picked = client.get("/api/puzzles/random", params={"theme": "all-pass", "grade": 2}).json()
    assert "all-pass" in picked["themes"] and picked["grade"] == 2
    assert client.get("/api/puzzles/random", params={"theme": "nothing"}).status_code == 404


def test_the_solution_line_solves_and_a_wrong_card_costs(client: TestClient) -> None:
    for puzzle in generated()[:20]:
        url = f"/api/puzzles/{puzzle['id']}/play"
        start = client.post(url, json={"cards": []}).json()
        assert start["status"] == "continue" and start["to_play"] == puzzle["to_play"]
        assert set(puzzle["solution"]) <= set(start["legal"])
        done = client.post(url, json={"cards": player_cards(puzzle)}).json()
        assert done["status"] == "solved", puzzle["id"]
        wrong = puzzle["alternatives"][0]
        answer = client.post(url, json={"cards": [wrong["cards"][0]]}).json()
        assert answer["status"] == "wrong" and answer["cost"] == wrong["cost"]
        shown = client.get(f"/api/puzzles/{puzzle['id']}/solution").json()
        assert shown["solution"] == puzzle["solution"]


def test_hostile_input_is_refused(client: TestClient) -> None:
    puzzle = generated()[0]
    url = f"/api/puzzles/{puzzle['id']}/play"
    assert client.get("/api/puzzles/..%2F..%2Fetc").status_code == 404
    assert client.get("/api/puzzles/p000000000zz").status_code == 404
    assert client.post("/api/puzzles/nope/play", json={"cards": []}).status_code == 404
    for body in ({"cards": ["ZZ"]}, {"cards": ["7S" * 3]}, {"cards": ["AS"] * 11},
                 {"cards": "AS"}, {"cards": [], "extra": 1}):
        refused = client.post(url, json=body)
        assert refused.status_code == 422, body
    not_legal = next(c for hand in puzzle["position"]["hands"] for c in hand
                     if c not in client.post(url, json={"cards": []}).json()["legal"])
    refused = client.post(url, json={"cards": [not_legal]})
    assert refused.status_code == 422 and refused.json()["code"] == "puzzles.error.card"


def test_the_puzzle_of_the_day_is_the_same_all_day(client: TestClient) -> None:
    import datetime

    from preferans.server.web.puzzles import daily_puzzle

    first = client.get("/api/puzzles/daily").json()
    assert client.get("/api/puzzles/daily").json()["id"] == first["id"]
    assert first["grade"] >= 3 and "solution" not in first
    assert first["daily"] == datetime.datetime.now(datetime.UTC).date().isoformat()
    days = {daily_puzzle(datetime.date(2026, 12, d))["id"] for d in range(1, 29)}
    assert len(days) > 20  # a different puzzle most days


def test_a_client_solves_two_moves_at_once_at_most(client: TestClient) -> None:
    from preferans.server.web import puzzles as puzzle_routes

    puzzle = generated()[0]
    url = f"/api/puzzles/{puzzle['id']}/play"
    host = "testclient"  # the TestClient's address
    assert puzzle_routes._solving.take(host) and puzzle_routes._solving.take(host)
    try:
        busy = client.post(url, json={"cards": []})
        assert busy.status_code == 429 and busy.json()["code"] == "puzzles.error.busy"
    finally:
        puzzle_routes._solving.give(host)
        puzzle_routes._solving.give(host)
    assert client.post(url, json={"cards": []}).status_code == 200


def test_the_browsers_rating_after_a_try(client: TestClient) -> None:
    easy = next(p for p in generated() if p["grade"] == 1)
    hard = next(p for p in generated() if p["grade"] == 5)
    start = {"mu": 25.0, "sigma": 25 / 3}
    won_easy = client.post(f"/api/puzzles/{easy['id']}/rate", json={**start, "solved": True}).json()
    won_hard = client.post(f"/api/puzzles/{hard['id']}/rate", json={**start, "solved": True}).json()
    lost = client.post(f"/api/puzzles/{easy['id']}/rate", json={**start, "solved": False}).json()
    assert won_hard["mu"] > won_easy["mu"] > start["mu"] > lost["mu"]
    assert won_easy["sigma"] < start["sigma"] and won_easy["shown"] >= 0
    for body in ({"mu": 25, "sigma": 0, "solved": True}, {"mu": 1e9, "sigma": 8, "solved": True},
                 {"mu": "x", "sigma": 8, "solved": True}, {**start, "solved": True, "x": 1}):
        assert client.post(f"/api/puzzles/{easy['id']}/rate", json=body).status_code == 422
