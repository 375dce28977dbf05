"""Every preset, three or four players and house rules: the settings, POST /api/games, the
table's state and a restored game."""

from __future__ import annotations

import random
import re

import pytest
from fastapi.testclient import TestClient
from server_helpers import new_game, play_until, read_until_settled

from preferans.rules import PRESETS, VARIANTS, Rules
from preferans.server.lang.house_rules import MAIN_PRESETS, editor_schema, rules_from_settings
from preferans.server.table.table import Table


def test_settings_page_offers_every_preset_players_and_the_editor(client: TestClient) -> None:
    html = client.get("/").text
    for name in PRESETS:
        assert f'name="rules" value="{name}"' in html
    # the three main rule sets first, then the others behind the disclosure
    positions = [html.index(f'value="{name}"') for name in PRESETS]
    assert positions[:3] == sorted(positions[:3]) and max(positions[:3]) < min(positions[3:])
    assert html.index("More rules…") > max(positions[:3])
    visible = re.sub(r"<script.*?</script>|<[^>]+>", " ", html, flags=re.S)
    assert not re.search(r"\b00[0-3]\b", visible), "no source-file number on the first screen"
    assert 'name="players" value="3"' in html and 'name="players" value="4"' in html
    assert "House rules…" in html and 'id="reset-rules"' in html
    schema = client.get("/api/rules").json()
    assert [p["name"] for p in schema["presets"][:3]] == list(MAIN_PRESETS)
    assert {p["name"] for p in schema["presets"]} == set(PRESETS) | set(VARIANTS)
    names = {o["name"] for o in schema["options"]}
    assert "stalingrad" in names and "players" not in names and "pool" not in names
    assert all(o["doc"] and o["control"] for o in schema["options"])


def test_editor_controls_follow_the_option_types() -> None:
    controls = {o["name"]: o for o in editor_schema()}
    assert controls["stalingrad"]["control"] == "checkbox"
    assert controls["whist"]["control"] == "select"
    assert controls["misere_outbid_by"]["control"] == "select"
    assert controls["mountain_scale"]["control"] == "number"
    assert controls["allpass_progression"]["control"] == "numbers"
    assert controls["allpass_progression"]["length"] is None
    assert controls["contract_values"]["length"] == 5
    assert controls["consolation_per_undertrick"]["control"] == "number or empty"
    assert "lists" not in controls["game_end"]["choices"]


def test_a_preset_with_house_rules_and_four_players(client: TestClient) -> None:
    body = {"rules": {"preset": "leningrad", "stalingrad": True, "whist_quota": [4, 2, 1, 1, 0]},
            "players": 4, "pool": 10, "seed": 5}
    game_id = new_game(client, **body)
    table = client.app.state.tables.get(game_id)  # type: ignore[attr-defined]
    rules = table.rules
    assert (rules.name, rules.players, rules.pool) == ("leningrad", 4, 10)
    assert rules.stalingrad and rules.whist_quota == (4, 2, 1, 1, 0)
    assert rules.whist_scale == 2  # the rest is Leningrad's
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        state = ws.receive_json()
        assert state["names"] == ["You", "Misha", "Sasha", "Lena"]
        assert len(state["colours"]) == 4 and len(set(state["colours"])) == 4
        assert state["rules"] == {"preset": "leningrad", "players": 4, "pool": 10,
                                  "stalingrad": True, "whist_quota": [4, 2, 1, 1, 0]}
        assert state["rules_title"] == "Leningrad"
        assert [(h["name"], h["value"], h["preset_value"]) for h in state["house_rules"]] == [
            ("whist_quota", [4, 2, 1, 1, 0], [4, 2, 1, 1, 1]), ("stalingrad", True, False)]
        obs = state["observation"]
        dealer = obs["dealer"]
        assert dealer == 5 % 4
        assert obs["hand_sizes"][dealer] == 0 and sorted(obs["hand_sizes"]) == [0, 10, 10, 10]
        # play the deal out; the next deal is dealt by the next seat, who sits out in turn
        final = play_until(ws, random.Random(3), lambda s: s["deal_over"])
        assert final["last_entry"] is not None
        ws.send_json({"type": "next_deal"})
        state = read_until_settled(ws)
        assert state["observation"]["dealer"] == (dealer + 1) % 4
        assert state["observation"]["hand_sizes"][(dealer + 1) % 4] == 0
    page = client.get(f"/table/{game_id}").text
    assert 'id="seat-3"' in page and "seat-top" in page
    # a restart puts the same table back
    saved = table.store.get(game_id)
    restored = Table.restore(saved, store=table.store, bot_delay=0, bot_level="random")
    assert restored.rules == rules and restored.names == table.names
    assert restored.house == table.house


def test_the_preset_pool_is_used_unless_one_is_chosen(client: TestClient) -> None:
    tables = client.app.state.tables  # type: ignore[attr-defined]
    assert tables.get(new_game(client, rules="kazakhstan", pool=None)).rules.pool == 120
    assert tables.get(new_game(client, rules="finn", pool=20)).rules.pool == 20
    assert tables.get(new_game(client, rules={"preset": "sochi", "pool": 30},
                               pool=None)).rules.pool == 30


@pytest.mark.parametrize(("rules", "players", "named"), [
    ({"preset": "sochi", "stalingrad": "yes"}, 3, "stalingrad"),
    ({"preset": "sochi", "whist": "polite"}, 3, "whist"),
    ({"preset": "sochi", "whist_quota": [4, 2, 1]}, 3, "whist_quota"),
    ({"preset": "sochi", "allpass_min_bid": [6, "x"]}, 3, "allpass_min_bid"),
    ({"preset": "sochi", "mountain_scale": -1}, 3, "mountain_scale"),
    ({"preset": "sochi", "dealerwhist": True}, 3, "dealerwhist"),
    ({"preset": "sochi", "rogue": "small"}, 3, "rogue"),
    ({"preset": "sochi", "players": 3}, 4, "players"),
    ({"preset": "two-player"}, 3, "two-player"),
    ({"preset": "vegas"}, 3, "vegas"),
    ([1, 2], 3, "rules must be a preset name or an object"),
])
def test_invalid_house_rules_get_a_422_naming_the_option(
    client: TestClient, rules: object, players: int, named: str
) -> None:
    response = client.post("/api/games", json={"difficulty": "easy", "rules": rules,
                                               "players": players, "pool": 10})
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert detail.startswith("rules: ") and named in detail, detail
    assert client.get("/api/games/current").status_code == 404


def test_two_players_need_a_two_seat_variant(client: TestClient) -> None:
    response = client.post("/api/games", json={"rules": "sochi", "players": 2})
    assert response.status_code == 422
    assert "players=2" in response.json()["detail"]


def test_rules_from_settings_matches_the_engine() -> None:
    assert rules_from_settings("sochi") == Rules.preset("sochi")
    assert rules_from_settings("peter", pool=10) == Rules.preset("piter", pool=10)
    rules = rules_from_settings({"preset": "vmk", "stalingrad": False}, players=4)
    assert rules == Rules.preset("vmk", stalingrad=False, players=4)
