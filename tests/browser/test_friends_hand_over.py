"""Handing a friend's seat to the computer is asked first (issue 47): at a table for friends
whose friend Boris is away past his grace time, Anna (the creator) picks "give Boris's seat
to the computer" from her menu; the page asks her to confirm, naming him.  Cancel: nothing
is sent and the seat stays his.  Confirm: the seat is the computer's for the rest of the
game (saved, shown on every page).  Screenshots in ``test-artifacts/hand-over-*.png``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from friends_driver import shot as take_shot

pytestmark = pytest.mark.browser

STATE = "window.preferansTable.state"
RECORD_SENT = """(() => {
  window.__sent = [];
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    window.__sent.push(String(data));
    return send.call(this, data);
  };
})();"""
"""An init script: every frame the page sends, kept in ``window.__sent``."""


def shot(page: Any, artifacts: Path, name: str) -> None:
    take_shot(page, artifacts, f"hand-over-{name}")


@pytest.fixture(scope="module")
def quick_grace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose friends are away (the stand-in plays) one second after they leave."""
    server = LiveServer(tmp_path_factory.mktemp("grace") / "preferans.db",
                        grace_seconds=1.0).start()
    yield server
    server.stop()


def test_handing_a_friends_seat_to_the_computer_asks_first(
        browser: Any, quick_grace: LiveServer, artifacts: Path) -> None:
    base = quick_grace.url
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    try:
        anna = context.new_page()
        anna.set_default_timeout(15_000)
        anna.on("pageerror", lambda error: errors.append(str(error)))
        anna.add_init_script(RECORD_SENT)
        made = anna.request.post(f"{base}/api/friends", data={
            "name": "Anna", "seats": ["friend", "easy"], "rules": "sochi", "pool": 10,
            "seed": 3})
        assert made.status == 201, made.text()
        game, code = made.json()["id"], made.json()["invite"].rsplit("/", 1)[1]
        boris = browser.new_context().request  # Boris takes his seat, then is gone
        assert boris.post(f"{base}/api/friends/{game}/join", data={
            "code": code, "seat": 1, "name": "Boris"}).status == 200
        assert anna.request.post(f"{base}/api/friends/{game}/start", data={}).status == 200
        anna.goto(f"{base}/table/{game}?lang=en")
        anna.wait_for_function(f"() => window.preferansTable && {STATE}"
                               f" && ({STATE}.stand_in || []).includes(1)")
        asked: list[str] = []

        def answer(accept: bool) -> None:
            def on_dialog(dialog: Any) -> None:
                asked.append(dialog.message)
                if accept:
                    dialog.accept()
                else:
                    dialog.dismiss()
            anna.once("dialog", on_dialog)

        # cancel: nothing sent, the seat stays Boris's
        anna.locator("#menu-button").click()
        item = anna.locator('#menu [data-menu="hand_over"][data-seat="1"]')
        assert item.inner_text() == "Give Boris's seat to the computer"
        shot(anna, artifacts, "menu")
        answer(False)
        item.click()
        assert asked == ["Give Boris's seat to the computer for the rest of the game? "
                         "This cannot be undone."]
        sent = anna.evaluate("() => window.__sent")
        assert not [s for s in sent if "hand_over" in s], sent
        assert quick_grace.store.get(game).friends["handed"] == []
        assert "1" in quick_grace.store.get(game).seats
        anna.locator("#menu-button").click()  # still offered
        assert anna.locator('#menu [data-menu="hand_over"][data-seat="1"]').count() == 1

        # confirm: the seat is the computer's for the rest of the game
        answer(True)
        anna.locator('#menu [data-menu="hand_over"][data-seat="1"]').click()
        assert len(asked) == 2
        anna.wait_for_function(f"() => ({STATE}.handed || []).includes(1)")
        assert [s for s in anna.evaluate("() => window.__sent") if "hand_over" in s]
        assert quick_grace.store.get(game).friends["handed"] == [1]
        assert "1" not in quick_grace.store.get(game).seats
        anna.locator("#menu-button").click()
        assert anna.locator('#menu [data-menu="hand_over"]').count() == 0
        shot(anna, artifacts, "handed")
    finally:
        context.close()
    assert not errors, errors
