"""An open defence seen from the declarer's seat: both defenders' hands stand face up.

The game is built in Python by Easy players (as in ``test_variant_decisions``) up to a deal
the human declares and a lone whister opens (seed 2, deal 11 under Sochi, pool 10), saved
into the live server and opened in the page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from table_driver import click_card, open_table, phase, seq, wait_settled
from test_variant_decisions import save_built_game

pytestmark = pytest.mark.browser


def test_the_declarer_sees_both_defending_hands_face_up(
        page: Any, live_server: LiveServer, artifacts: Path) -> None:
    def open_against_you(table: Any, seat: int, legal: list[str]) -> bool:
        obs = table.game.observation(0)
        return (str(obs.get("phase")).lower() == "play" and obs.get("declarer") == 0
                and len(obs.get("exposed") or {}) == 2 and seat != 0)

    save_built_game(live_server, "open-defence", "sochi", 2, open_against_you, pool=10,
                    max_deals=12)
    st = open_table(page, live_server.url, "open-defence")
    assert phase(st) == "play" and st["observation"]["declarer"] == 0
    exposed = st["observation"]["exposed"]
    assert sorted(exposed) == ["1", "2"]
    for seat in (1, 2):
        column = page.locator(f"#seat-{seat} .hand.column")
        assert column.is_visible()
        shown = column.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
        assert sorted(shown) == sorted(exposed[str(seat)])
        assert page.locator(f"#seat-{seat} .backs").count() == 0
    page.screenshot(path=str(artifacts / "open-defence-declarer.png"))
    token = sorted(st["observation"]["legal"])[0]
    click_card(page, token, st["observation"].get("hand_to_play") or 0)
    st = wait_settled(page, seq(st))
    assert token not in st["observation"]["hand"]
