"""The sheet's deal summaries in the socket's language (issue 17): a Russian socket's state
carries each finished deal's summary written in Russian from its notes (``summary_lang``
``ru``), the English one the engine's summary, which says "your pool" and "whists on you"
(issue 35) as the English catalogue's notes do."""

from __future__ import annotations

import json
import random
import re

from fastapi.testclient import TestClient
from server_helpers import new_game, play_until

from preferans.bids import Bid
from preferans.i18n import COOKIE_NAME, render_notes
from preferans.outcome import DealOutcome
from preferans.server.app import create_app

RU = {"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"}
CYRILLIC = re.compile(r"[А-Яа-яЁё]{3,}")


def test_a_played_deal_s_summary_in_russian(client: TestClient) -> None:
    game = new_game(client, seed=2, pool=30)
    rng = random.Random(3)
    with client.websocket_connect(f"/ws/{game}", headers=RU) as ws:
        ru = play_until(ws, rng, lambda s: s["deal_over"])
    client.cookies.set(COOKIE_NAME, "en")
    with client.websocket_connect(f"/ws/{game}") as ws:
        en = play_until(ws, rng, lambda s: s["deal_over"])
    entry, english = ru["last_entry"], en["last_entry"]
    assert entry["summary_lang"] == "ru" and "summary_lang" not in english
    assert english["summary"] == render_notes(english["notes"], en["names"], "en")
    assert entry["notes"] == english["notes"] and entry["notes"]
    assert entry["summary"] == render_notes(entry["notes"], ru["names"], "ru")
    assert CYRILLIC.search(entry["summary"]) and not CYRILLIC.search(english["summary"])
    assert ru["observation"]["sheet"]["deals"][-1]["summary"] == entry["summary"]
    assert en["observation"]["sheet"]["deals"][-1]["summary"] == english["summary"]


def test_a_failed_contract_with_whists_in_russian(db_url: str) -> None:
    """You fail 7♠ by six with Misha and Lena whisting: the Russian frame says so in
    players' words, the English frame is the engine's summary ("whists on you")."""
    with TestClient(create_app(db_url, bot_delay=0, bot_level="random")) as client:
        game = new_game(client, seed=5, pool=30)
        table = client.app.state.tables.get(game)  # type: ignore[attr-defined]
        outcome = DealOutcome("contract", 2, 3, 0, Bid.parse("7S"), ("WHIST", "WHIST"),
                              (1, 2), None, None, (1, 5, 4))
        entry = table.game.sheet.record(outcome)
        assert "You failed 7♠ by 6" in entry.summary and "Misha wrote" in entry.summary
        assert "whists on you" in entry.summary and "on You" not in entry.summary
        payload = table.state(None)
        payload["last_entry"] = table.sheet_json()["deals"][-1]
        english = json.loads(table.encode_state(payload))
        russian = json.loads(table.encode_state(payload, "ru"))
    assert english["last_entry"]["summary"] == entry.summary
    said = russian["last_entry"]["summary"]
    assert russian["last_entry"]["summary_lang"] == "ru"
    assert said.startswith("Вы не сыграли 7♠: недобор — 6 взяток (+"), said
    assert "Миша записал" in said and "Лена записала" in said and "на вас" in said, said
    assert not re.search(r"[A-Za-z]{3,}", said), said
    assert russian["observation"]["sheet"]["deals"][-1]["summary"] == said
    assert english["observation"]["sheet"]["deals"][-1]["summary"] == entry.summary
