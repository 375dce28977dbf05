"""A computer player's card travels to the table from that player's cards, not from the name
plate (found by playtesting: a selector list picked the first match in the page, the plate,
so the card started over the plate and its call bubble), each card travels once (a second
card arriving does not start the first one again) and lies in the middle of the table once
it has arrived.  Played with a bot delay as a player gets it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from table_driver import new_game, open_table, phase, step

pytestmark = pytest.mark.browser

# Each travel the page starts: the card, where its drawing starts (its centre moved by the
# first keyframe) and, at that moment, the boxes of its seat's card stack and name plate.
WATCH = """
window.travels = [];
const original = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  if (this.dataset.travel === "moving") {
    const seat = this.dataset.key.split(":")[0];
    const r = this.getBoundingClientRect();
    const [dx, dy] = String(frames[0].translate).split(" ").map(parseFloat);
    const box = (sel) => {
      const n = document.querySelector(`#seat-${seat} ${sel}`);
      if (!n) return null;
      const b = n.getBoundingClientRect();
      return [b.left, b.top, b.right, b.bottom];
    };
    window.travels.push({ key: this.dataset.key, seat: Number(seat),
      from: [r.left + r.width / 2 + dx, r.top + r.height / 2 + dy],
      backs: box(".backs"), plate: box(".plate") });
  }
  return original.call(this, frames, options);
};
"""
# The cards of the trick in progress are all on the table (a gathered trick has gone) and
# none of them is still on its way.
ARRIVED = """(n) => {
  const cards = [...document.querySelectorAll('#trick .played')];
  return cards.length === n && cards.every((c) => c.dataset.travel !== 'moving');
}"""
PLACES = """() => {
  const t = document.getElementById('trick').getBoundingClientRect();
  return [...document.querySelectorAll('#trick .played')].map((c) => {
    const r = c.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    return { key: c.dataset.key,
             inside: x >= t.left && x <= t.right && y >= t.top && y <= t.bottom };
  });
}"""


@pytest.fixture(scope="module")
def slow_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("slow") / "preferans.db", bot_delay=0.3).start()
    yield server
    server.stop()


def inside(point: list[float], box: list[float] | None) -> bool:
    return box is not None and box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def test_a_computer_card_travels_once_from_its_player_cards_to_the_table(
        browser: Any, slow_server: LiveServer, artifacts: Path) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800},
                                  reduced_motion="no-preference")
    context.add_init_script(WATCH)
    try:
        page = context.new_page()
        game = new_game(page, slow_server.url, seed=3)
        st = open_table(page, slow_server.url, game)
        seen_two = False
        for _ in range(40):
            if st["deal_over"]:
                break
            if phase(st) == "play" and len(st["observation"]["trick"]) == 2:
                page.wait_for_function(ARRIVED, arg=2)
                places = page.evaluate(PLACES)
                assert len(places) == 2 and all(p["inside"] for p in places), places
                if not seen_two:
                    page.screenshot(path=str(artifacts / "playtest-trick-two-cards.png"))
                seen_two = True
            st = step(page, st)
        travels = page.evaluate("window.travels")
        computers = [t for t in travels if t["seat"] != 0]
        assert seen_two and len(computers) >= 4, travels
        for travel in computers:
            assert inside(travel["from"], travel["backs"]), travel
            assert not inside(travel["from"], travel["plate"]), travel
        keys = [t["key"] for t in travels]
        assert len(keys) == len(set(keys)), f"a card travelled twice: {keys}"
    finally:
        context.close()
