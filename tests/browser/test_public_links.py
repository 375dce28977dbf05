"""The links a page shows follow ``--public-url`` whatever address the browser used (the host
opens the lobby at http://127.0.0.1:PORT, his friends need https://pref.example.org/…), and
without it they show the address the browser used, as before."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_helpers import LiveServer

pytestmark = pytest.mark.browser

PUBLIC = "https://pref.example.org"


@pytest.fixture(scope="module")
def public_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("public") / "preferans.db",
                        public_url=PUBLIC).start()
    yield server
    server.stop()


def _lobby(page: Any, base: str) -> tuple[str, str]:
    made = page.request.post(f"{base}/api/friends", data={
        "name": "Anna", "seats": ["friend", "easy"], "rules": "sochi", "pool": 10})
    assert made.status == 201, made.text()
    game = made.json()["id"]
    page.goto(f"{base}/lobby/{game}?lang=en")
    return game, page.locator("#invite-link").input_value()


def test_the_host_at_127_0_0_1_is_shown_the_public_links(
        page: Any, public_server: LiveServer) -> None:
    base = public_server.url
    game, invite = _lobby(page, base)
    assert invite.startswith(f"{PUBLIC}/join/{game}/"), invite
    assert page.locator("#watch-link").input_value().startswith(f"{PUBLIC}/watch/{game}/")
    # what a page's script makes of a path the server sent (the table's watch link, a
    # seat's link): the public address, not the one in the address bar
    made = page.evaluate("(path) => import('/static/links.js').then((m) => m.absolute(path))",
                         f"/watch/{game}/abc")
    assert made == f"{PUBLIC}/watch/{game}/abc"


def test_without_a_public_url_the_links_show_the_browsers_address(
        page: Any, live_server: LiveServer) -> None:
    base = live_server.url
    game, invite = _lobby(page, base)
    assert invite.startswith(f"{base}/join/{game}/"), invite
    made = page.evaluate("(path) => import('/static/links.js').then((m) => m.absolute(path))",
                         "/watch/g/c")
    assert made == f"{base}/watch/g/c"
