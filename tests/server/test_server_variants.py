"""The structural variants at the web table: two players and a dummy, the Rogue.

Games are created through ``POST /api/games`` (the variant fixes the seats), played through
the WebSocket.  Whole games of the variants and the random fallback of a failing computer
player: test_variant_games.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import new_game

from preferans.server.lang.house_rules import editor_schema, preset_choices, rules_from_settings
from preferans.server.table.seats import DUMMY_NAME


def table_of(client: TestClient, game_id: str) -> Any:
    return client.app.state.tables.get(game_id)  # type: ignore[attr-defined]


@pytest.mark.parametrize("preset", ["two-player", "rogue-small"])
def test_post_a_two_seat_variant(client: TestClient, preset: str) -> None:
    game_id = new_game(client, rules=preset, pool=10)
    table = table_of(client, game_id)
    assert table.rules.name == preset and table.rules.players == 2
    assert table.names == ["You", "Misha"]
    assert sorted(table.bots) == [1]  # the dummy never decides
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        state = ws.receive_json()
    assert state["names"] == ["You", "Misha"]
    assert state["dummy"] == 2 and state["dummy_name"] == DUMMY_NAME
    assert len(state["colours"]) == 3
    assert len(state["observation"]["hand_sizes"]) == 3


def test_variants_fix_their_seats() -> None:
    assert rules_from_settings("racing-22").players == 3
    assert rules_from_settings("two-player", players=2).players == 2
    with pytest.raises(ValueError, match="two-player variant seats 2 players"):
        rules_from_settings("two-player", players=3)
    with pytest.raises(ValueError, match="players=2: the sochi rules seat three or four"):
        rules_from_settings("sochi", players=2)
    # the dummy's options in a two-seat variant, not in a convention
    assert rules_from_settings({"preset": "two-player", "dummy_lone_whist": False}
                               ).dummy_lone_whist is False
    with pytest.raises(ValueError, match="dummy_lone_whist is not offered here"):
        rules_from_settings({"preset": "sochi", "dummy_lone_whist": False})


def test_settings_offer_the_variants_with_their_docs(client: TestClient) -> None:
    variants = [p for p in preset_choices() if p["group"] == "variants"]
    assert [p["name"] for p in variants] == ["two-player", "rogue-small", "rogue-large",
                                             "rogue-xl", "racing-22", "racing-17",
                                             "classical-1971"]
    assert {p["name"]: p["players"] for p in variants}["classical-1971"] == 3
    assert all(p["doc"] for p in variants)
    lone = next(e for e in editor_schema() if e["name"] == "dummy_lone_whist")
    assert "two-player" in lone["only_for"] and "sochi" not in lone["only_for"]
    assert lone["presets"]["two-player"] is True
    page = client.get("/").text
    assert "Other kinds of game" in page and 'value="rogue-small"' in page
