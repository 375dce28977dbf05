"""The table's socket speaks the page's language (issue 35): a browser whose page is Russian
while its socket's handshake says ``Accept-Language: en`` (headless Chromium sends en-US on
the handshake whatever the page asked for) still gets Russian state frames: the rules' name
in the pulya sheet's circle is «Сочинка», not "Sochi".  The page names its language in the
socket's address."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from table_driver import new_game, open_table

pytestmark = pytest.mark.browser

ENGLISH = "en-US,en;q=0.9"
RUSSIAN = "ru-RU,ru;q=0.9"


def test_a_russian_page_s_socket_speaks_russian_whatever_its_handshake_says(
        browser: Any, live_server: LiveServer, artifacts: Path) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US",
                                  extra_http_headers={"Accept-Language": ENGLISH})
    try:
        page = context.new_page()
        # The page's own request asks for Russian; the socket's handshake is not routed and
        # keeps the context's English header (no cookie either: no ?lang= was followed).
        page.route(re.compile(r"/table/[^/?]+$"), lambda route: route.continue_(
            headers={**route.request.headers, "accept-language": RUSSIAN}))
        sockets: list[str] = []
        page.on("websocket", lambda ws: sockets.append(ws.url))
        game = new_game(page, live_server.url, seed=7)
        st = open_table(page, live_server.url, game)
        assert page.evaluate("() => document.documentElement.lang") == "ru"
        assert "lang" not in {c["name"] for c in context.cookies()}
        assert sockets and sockets[0].endswith(f"/ws/{game}?lang=ru"), sockets
        assert st["rules_title"] == "Сочинка", st["rules_title"]
        assert re.search(r"[А-Яа-яЁё]{4,}", st["rules_doc"]), st["rules_doc"]
        page.locator("#score-chip").click()
        circle = page.locator("#sheet-overlay svg.pulya text.circle-rules")
        circle.wait_for()
        assert circle.text_content() == "Сочинка"
        page.screenshot(path=str(artifacts / "socket-language-ru-sheet.png"))
    finally:
        context.close()
