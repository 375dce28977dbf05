"""The after-deal analysis and the replay viewer's routes: only deals that are over, only
this browser's game, uploads checked."""

from __future__ import annotations

import json
import random

from fastapi.testclient import TestClient
from server_helpers import modest_token, new_game, play_until

from preferans.guide import worked_deal_record

JSON = {"Content-Type": "application/json"}


def _playing(state: dict) -> bool:
    obs = state["observation"]
    return not state["deal_over"] and obs["phase"] == "play" and obs["to_act"] == 0


def test_the_analysis_holds_the_deals_that_are_over_never_the_one_in_progress(
        client: TestClient) -> None:
    game_id = new_game(client, seed=3)
    rng = random.Random(3)
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        state = play_until(ws, rng, lambda s: s["deal_over"], choose=modest_token)
        over = client.get(f"/api/games/{game_id}/analysis")
        assert over.status_code == 200
        deals = over.json()["deals"]
        assert [d["deal"] for d in deals] == [1] and over.json()["format"] == (
            "preferans-analysis/1")
        ws.send_json({"type": "next_deal"})
        # play into the second deal until the human plays a card: its hands are hidden
        state = play_until(ws, rng, lambda s: _playing(s) or s["deal_over"],
                           choose=modest_token)
        during = client.get(f"/api/games/{game_id}/analysis").json()
    assert [d["deal"] for d in during["deals"]] == [1]
    table = client.app.state.tables.open[game_id]  # type: ignore[attr-defined]
    if not state["deal_over"]:  # nothing of the deal in progress: not its hands
        now = [h.to_list() for h in table.game.deal.initial_hands]
        assert all(d["hands"] != now for d in during["deals"])
    # the replay opens once the game is over, and never for another browser
    assert client.get(f"/api/games/{game_id}/review").status_code == 403
    stranger = TestClient(client.app)
    assert stranger.get(f"/api/games/{game_id}/analysis").status_code == 403


def test_an_uploaded_record_is_reviewed_and_a_bad_one_named(client: TestClient) -> None:
    good = client.post("/api/review", content=json.dumps(worked_deal_record()),
                       headers=JSON)
    assert good.status_code == 200
    review = good.json()
    assert review["format"] == "preferans-review/1"
    deal = review["deals"][0]
    assert deal["analysis"]["dd_value"] == 7 and deal["frames"][-1]["tricks_won"] == [7, 3, 0]
    assert deal["sheet"]["deals"]
    for body, word in ((b"\xff\xfe\x00", "UTF-8"), (b"[1, 2", "JSON"),
                       (json.dumps({"format": "preferans-record/1", "deals": 3}).encode(),
                        "replay")):
        bad = client.post("/api/review", content=body, headers=JSON)
        assert bad.status_code == 422 and word in bad.json()["detail"], bad.text
