"""The puzzle page's routes: a puzzle as the page sees it (never the solution), the cards
played with the solver answering, the solution on request, hostile input refused."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from preferans.puzzles.shipped import generated
from preferans.puzzles.themes import THEMES
from preferans.server.security.tokens import SEAT_COOKIE


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


def test_the_first_try_at_each_puzzle_rates_the_browser_and_the_server_keeps_it(
        client: TestClient) -> None:
    """The server keeps the rating with the browser's holder: the first try at a puzzle
    rates, another at the same puzzle does not; a harder puzzle solved counts more; the
    rating a browser kept itself before is taken once, while it has none here."""
    easy = [p for p in generated() if p["grade"] == 1][:2]
    hard = next(p for p in generated() if p["grade"] == 5)
    assert client.get("/api/puzzles/rating").json() == {"rating": None}
    won = client.post(f"/api/puzzles/{easy[0]['id']}/rate", json={"solved": True}).json()
    assert won["counted"] and won["tried"] == 1 and won["solved"] == 1 and won["mu"] > 25
    again = client.post(f"/api/puzzles/{easy[0]['id']}/rate", json={"solved": False}).json()
    assert not again["counted"] and again["tried"] == 1 and again["mu"] == won["mu"]
    lost = client.post(f"/api/puzzles/{easy[1]['id']}/rate", json={"solved": False}).json()
    assert lost["counted"] and lost["tried"] == 2 and lost["solved"] == 1
    assert lost["mu"] < won["mu"]
    mine = client.get("/api/puzzles/rating").json()["rating"]
    assert mine == {k: lost[k] for k in ("mu", "sigma", "shown", "solved", "tried")}
    # a kept rating is ignored once the server has one
    ignored = client.post(f"/api/puzzles/{hard['id']}/rate", json={
        "solved": True, "kept": {"mu": 60.0, "sigma": 2.0, "solved": 90, "tried": 90}}).json()
    assert ignored["tried"] == 3 and ignored["mu"] < 40
    # a new browser hands its own kept rating over with its first try
    client.cookies.clear()
    kept = {"mu": 30.0, "sigma": 5.0, "solved": 4, "tried": 6}
    taken = client.post(f"/api/puzzles/{hard['id']}/rate",
                        json={"solved": True, "kept": kept}).json()
    assert taken["tried"] == 7 and taken["solved"] == 5 and taken["mu"] > 30
    assert client.cookies.get(SEAT_COOKIE)  # the server minted the browser its holder
    for body in ({"solved": True, "kept": {"mu": 25, "sigma": 0, "solved": 0, "tried": 0}},
                 {"solved": True, "kept": {"mu": 1e9, "sigma": 8, "solved": 0, "tried": 0}},
                 {"solved": True, "kept": {"mu": 25, "sigma": 8, "solved": 3, "tried": 1}},
                 {"solved": True, "kept": {"mu": "x", "sigma": 8, "solved": 0, "tried": 0}},
                 {"solved": True, "x": 1}, {"mu": 25.0, "sigma": 8.0, "solved": True},
                 {"solved": "yes please"}):
        assert client.post(f"/api/puzzles/{easy[0]['id']}/rate", json=body).status_code == 422
    assert client.post("/api/puzzles/p000000000000/rate", json={"solved": True}
                       ).status_code == 404
