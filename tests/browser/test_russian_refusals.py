"""A house rule the engine refuses, in a Russian-speaking browser (issue 17): the settings
page's editor shows the server's refusal in Russian, naming the options by their Russian
titles.  Screenshot: ``test-artifacts/ru-house-rules-refused.png``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer

from preferans.server.lang.house_rules import option_title

pytestmark = pytest.mark.browser


def test_a_refused_house_rule_in_russian(ru_page: Any, live_server: LiveServer,
                                         artifacts: Path) -> None:
    page = ru_page
    page.goto(live_server.url + "/")
    page.locator('#rules label.choice:has(input[value="sochi"])').click()
    page.locator("#house-rules-button").click()
    page.locator("#opt-staying_dealer_hill").fill("5")  # needs dealer_stays: the engine says so
    page.locator("#play").click()
    refusal = page.locator("#rules-error")
    hill, stays = option_title("staying_dealer_hill", "ru"), option_title("dealer_stays", "ru")
    refusal.filter(has_text=hill).wait_for()
    text = refusal.inner_text()
    assert f"«{hill}» требует «{stays}»:" in text, text
    assert not re.search(r"\b(needs|option|staying_dealer_hill|rules)\b", text), text
    refusal.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "ru-house-rules-refused.png"))
    assert page.url.rstrip("/") == live_server.url.rstrip("/")  # no game was started
