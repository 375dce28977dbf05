"""A walk through every page of the web game, through the real server, at desktop and phone
sizes (issue 46: the server's reshape must leave every page as it was).

The pages: the settings page, a game's table, the statistics, the rules guide, the replay
viewer's start page and a finished game in it, a table for friends' lobby, its invite page
(another browser), a spectator's table (the watch link), the server's status page, the
account page (signed out), the "nothing here" page and another browser's table (refused).
Each answers with its status, draws its own mark, raises no JavaScript error, and leaves a
screenshot
``test-artifacts/walk-<page>-<desktop|phone>.png``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from table_driver import new_game, wait_settled
from test_review_pages import finished_game

pytestmark = pytest.mark.browser

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(scope="module")
def walk_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("walk") / "preferans.db",
                        bot_level="random").start()
    yield server
    server.stop()


def friends_table(creator: Any, guest: Any, url: str) -> tuple[str, str, str]:
    """A table for two friends and a computer: its id, its invite's path, and (once the
    guest took his seat and the creator started it) its watch link."""
    made = creator.request.post(f"{url}/api/friends",
                                data={"name": "Anna", "seats": ["friend", "easy"]})
    assert made.status == 201, made.text()
    game, invite = made.json()["id"], made.json()["invite"]
    code = invite.rsplit("/", 1)[-1]
    return game, invite, code


def start(creator: Any, guest: Any, url: str, game: str, code: str) -> str:
    joined = guest.request.post(f"{url}/api/friends/{game}/join",
                                data={"code": code, "seat": 1, "name": "Boris"})
    assert joined.status == 200, joined.text()
    started = creator.request.post(f"{url}/api/friends/{game}/start", data={})
    assert started.status == 200, started.text()
    watch = creator.request.get(f"{url}/api/friends/{game}").json()["watch"]
    assert watch and watch.startswith(f"/watch/{game}/")
    return str(watch)


WIDER_THAN_THE_SCREEN = """() => [...document.querySelectorAll('body *')]
  .filter((e) => e.getBoundingClientRect().right > innerWidth + 1
                 && getComputedStyle(e).position !== 'fixed' && e.closest('[hidden]') === null)
  .filter((e) => !e.closest('.hand, .cards, .trick, pre, table'))
  .map((e) => `${e.tagName}#${e.id}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)
  .concat(document.documentElement.scrollWidth > innerWidth
          ? [`the page is ${document.documentElement.scrollWidth} px wide`] : [])"""
"""Elements that reach past a phone's screen (the cards of a hand and tables may scroll in
their own box), and the page itself if it is wider than the screen."""


@pytest.mark.parametrize("size", list(SIZES))
def test_every_page_at_both_sizes(browser: Any, walk_server: LiveServer, artifacts: Path,
                                  size: str) -> None:
    url = walk_server.url
    # the phone walks in Russian, whose words are the longer
    language = {"locale": "ru-RU", "extra_http_headers": {"Accept-Language": "ru"}} \
        if size == "phone" else {}
    contexts = [browser.new_context(viewport=SIZES[size], **language) for _ in range(3)]
    errors: list[str] = []
    me, guest, stranger = (context.new_page() for context in contexts)
    for tab in (me, guest, stranger):
        tab.on("pageerror", lambda error: errors.append(str(error)))

    def visit(tab: Any, name: str, path: str, status: int, mark: str) -> None:
        response = tab.goto(url + path)
        assert response is not None and response.status == status, (name, path)
        tab.locator(mark).first.wait_for(state="attached")
        tab.screenshot(path=str(artifacts / f"walk-{name}-{size}.png"))
        if size == "phone":  # nothing pushes a phone's page sideways
            wide = tab.evaluate(WIDER_THAN_THE_SCREEN)
            assert not wide, (name, wide)

    try:
        game = new_game(me, url, seed=3)
        finished = f"walk{size}"
        finished_game(walk_server, me, finished, seed=12)
        lobby_game, invite, code = friends_table(me, guest, url)

        visit(me, "settings", "/", 200, "form, #play")
        visit(me, "table", f"/table/{game}", 200, "#table, .table")
        wait_settled(me)
        me.screenshot(path=str(artifacts / f"walk-table-{size}.png"))
        visit(me, "stats", "/stats", 200, "canvas, svg, table")
        visit(me, "guide", "/guide", 200, "h1")
        visit(me, "replay-start", "/replay", 200, "#replay-games")
        visit(me, "replay", f"/replay/{finished}", 200, ".replay-table")
        visit(me, "lobby", f"/lobby/{lobby_game}", 200, "h1, .lobby")
        visit(guest, "join", invite, 200, "form, input")
        watch = start(me, guest, url, lobby_game, code)
        # the lobby sees the start and goes to the table by itself: wait for it, so that it
        # never races the next visit
        me.wait_for_url(f"**/table/{lobby_game}")
        visit(stranger, "watch", watch, 200, "#table, .table")
        visit(me, "status", "/status", 200, "table")
        visit(me, "account", "/account", 200, "#register-form")
        visit(me, "ladder", "/ladder", 200, "h1")
        visit(me, "puzzles", "/puzzles", 200, "h1")
        visit(me, "notfound", "/no/such/page", 404, "h1")
        visit(stranger, "not-yours", f"/table/{game}", 403, "h1")
    finally:
        for context in contexts:
            context.close()
    assert not errors, f"JavaScript errors on the pages: {errors}"
