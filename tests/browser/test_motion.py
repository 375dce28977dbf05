"""Motion at the table (static/motion.js): the finished trick gathers to its winner's seat, the
talon turns face up, the deal arrives in the hand; 150-350 ms each, Web Animations only, and
nothing at all under prefers-reduced-motion.  Screenshots in ``test-artifacts/``."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from table_driver import click_action, new_game, open_table, phase, step, wait_settled

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}

# Every Web Animation the page starts is logged (what moves, for how long), and the first
# gathered trick's cards are followed frame by frame with the winner's seat.
WATCH = """
window.motionLog = [];
window.gatherTrack = null;
const original = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  const run = original.call(this, frames, options);
  const o = typeof options === "number" ? { duration: options } : options || {};
  window.motionLog.push({ kind: this.dataset.motion || (this.dataset.travel ? "travel" : "other"),
                          card: this.dataset.card || "", duration: o.duration || 0,
                          delay: o.delay || 0 });
  return run;
};
document.addEventListener("DOMContentLoaded", () => {
  const trick = document.getElementById("trick");
  if (!trick) return;
  const observer = new MutationObserver(() => {
    const cards = [...trick.querySelectorAll('.played[data-motion="gather"]')];
    if (!cards.length || window.gatherTrack) return;
    // The seat the cards fly to, as motion.js marks them (the state may already be newer).
    const winner = cards[0].dataset.winner;
    const plate = document.querySelector(`#seat-${winner} .plate`)
      || document.getElementById(`seat-${winner}`);
    if (!plate) return;
    const p = plate.getBoundingClientRect();
    const found = { winner, target: [p.left + p.width / 2, p.top + p.height / 2], track: [] };
    window.gatherTrack = found;
    // The drawing along the gathering's own clock: each card's animation is sought to a
    // few points and back (a busy machine may draw no frame in between).
    const runs = cards.map((c) => c.getAnimations()[0]).filter(Boolean);
    const now = runs.map((r) => r.currentTime);
    const at = (t) => {
      runs.forEach((r) => { r.currentTime = t; });
      return cards.map((c) => {
        const r = c.getBoundingClientRect();
        return [r.left + r.width / 2, r.top + r.height / 2, c.isConnected];
      });
    };
    found.track = [0, 60, 120, 180, 240, 290].map((t) => [t, at(t)]);
    runs.forEach((r, i) => { r.currentTime = now[i]; });
    setTimeout(() => { found.done = true; }, 500);
  });
  observer.observe(trick, { subtree: true, attributes: true, attributeFilter: ["data-motion"] });
});
"""


def play_first_deal(page: Any, st: dict[str, Any]) -> dict[str, Any]:
    """Pass in the auction, whist when asked, play the lowest legal card, until the deal ends."""
    for _ in range(60):
        if st["deal_over"]:
            return st
        st = step(page, st, whist=True)
    raise AssertionError("the first deal did not end")


@pytest.fixture(scope="module")
def paced_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The computer players a little slower than the gathering (0.6 s a move), as at a real
    table: with no delay the next trick's lead can clear the table in the middle of it."""
    server = LiveServer(tmp_path_factory.mktemp("paced") / "preferans.db", bot_delay=0.6).start()
    yield server
    server.stop()


def test_the_trick_gathers_the_talon_turns_and_the_deal_arrives(
        browser: Any, paced_server: LiveServer, artifacts: Path) -> None:
    live_server = paced_server
    context = browser.new_context(viewport=DESKTOP, reduced_motion="no-preference")
    context.add_init_script(WATCH)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        game = new_game(page, live_server.url, seed=3)
        st = open_table(page, live_server.url, game)
        st = play_first_deal(page, st)
        page.wait_for_function("() => window.gatherTrack && window.gatherTrack.done",
                               timeout=10_000)
        found = page.evaluate("() => window.gatherTrack")
        tx, ty = found["target"]
        lying = found["track"]
        first, last = lying[0][1], lying[-1][1]
        assert all(c[2] for t in lying for c in t[1])
        assert len(first) >= 3, "the whole trick gathers"
        for (x0, y0, _), (x1, y1, _) in zip(first, last, strict=True):
            before, after = math.hypot(tx - x0, ty - y0), math.hypot(tx - x1, ty - y1)
            assert after < before * 0.5, (found["winner"], (x0, y0), (x1, y1), (tx, ty))
        # Every step of the way it comes closer (the drawing moves, not a jump at the end).
        middle = [t for t in lying if 60 < t[0] < 250]
        assert middle and all(
            math.hypot(tx - c[0], ty - c[1]) < math.hypot(tx - f[0], ty - f[1]) - 1
            for t in middle for c, f in zip(t[1], first, strict=True))
        # The auction was won (seed 3: a computer declares), so the talon was turned face up.
        log = page.evaluate("() => window.motionLog")
        kinds = {entry["kind"] for entry in log}
        assert {"gather", "turn"} <= kinds, kinds
        # The next deal arrives in the hand, each card sliding in.
        page.screenshot(path=str(artifacts / "motion-deal-over.png"))
        before = len(log)
        click_action(page, "NEXT DEAL")
        page.wait_for_function(
            "(n) => window.motionLog.slice(n).filter((e) => e.kind === 'deal').length >= 10",
            arg=before, timeout=10_000)
        page.wait_for_timeout(60)
        page.screenshot(path=str(artifacts / "motion-deal-arriving.png"))
        log = page.evaluate("() => window.motionLog")
        dealt = [e for e in log[before:] if e["kind"] == "deal"]
        hand = page.eval_on_selector_all("#seat-0 .hand [data-card]",
                                         "(cards) => cards.map((c) => c.dataset.card)")
        assert len(hand) == 10 and {e["card"] for e in dealt} == set(hand)
        for entry in log:
            if entry["kind"] in ("gather", "turn", "deal", "travel"):
                assert 150 <= entry["duration"] + entry["delay"] <= 350, entry
        assert not errors, errors
    finally:
        context.close()


def test_under_reduced_motion_nothing_moves(
        browser: Any, live_server: LiveServer, artifacts: Path) -> None:
    context = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    context.add_init_script(WATCH)
    try:
        page = context.new_page()
        game = new_game(page, live_server.url, seed=7)
        st = open_table(page, live_server.url, game)
        tricks_seen = 0
        for _ in range(60):
            if st["deal_over"]:
                break
            if phase(st) == "play":
                tricks_seen = max(tricks_seen, len(st["observation"].get("tricks") or []))
            st = step(page, st, whist=True)
        assert st["deal_over"] and tricks_seen >= 1
        click_action(page, "NEXT DEAL")
        wait_settled(page, st["seq"])
        page.wait_for_timeout(400)
        assert page.evaluate("() => window.motionLog") == [], "no animation is started"
        assert page.locator("[data-motion], [data-travel]").count() == 0
        assert page.locator("#seat-0 .hand [data-card]").count() == 10
        page.screenshot(path=str(artifacts / "motion-reduced.png"))
    finally:
        context.close()
