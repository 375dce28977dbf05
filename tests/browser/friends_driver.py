"""Playing a table for friends through its pages, as its humans do: tap a card of the hand
a seat plays, take one decision, play a whole deal with every human page, a screenshot."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from table_driver import HAND_STILL, VISIBLE_POINT, click_action, click_token, phase, state


def shot(page: Any, artifacts: Path, name: str) -> None:
    """``test-artifacts/<name>.png`` once the page's motion has settled."""
    page.wait_for_timeout(400)
    page.screenshot(path=str(artifacts / f"{name}.png"))


def box_of(st: dict[str, Any], seat: int) -> str:
    """The box a seat is drawn in on this page (its own at the bottom; the dummy's, seat 2 of
    a two-player table, keeps its number)."""
    count = len(st["names"])
    return f"seat-{seat}" if seat >= count else f"seat-{(seat - st['seat'] + count) % count}"


def tap(page: Any, st: dict[str, Any], token: str, seat: int) -> None:
    """Tap ``token`` in the hand of ``seat`` on this page, once that hand stands still."""
    box = box_of(st, seat).removeprefix("seat-")
    page.wait_for_function(HAND_STILL, arg=box, timeout=5_000)
    point = page.evaluate(VISIBLE_POINT, [token, box])
    assert point is not None, f"card {token} of seat {seat} is not on the screen"
    page.mouse.click(point[0], point[1])


def take_turn(page: Any, st: dict[str, Any]) -> None:
    """One decision through the page: the lowest bid or pass, discard two, the first
    contract, whist, close, the first legal card (of the hand this seat plays)."""
    obs = st["observation"]
    legal = obs["legal"]
    now = phase(st)
    if now == "auction":
        click_token(page, "PASS" if "PASS" in legal else legal[0])
    elif now in ("discard", "exchange"):
        for token in obs["hand"][:2]:
            tap(page, st, token, st["seat"])
        click_action(page, "DISCARD")
    elif now in ("contract", "name"):
        click_token(page, legal[0])
    elif now == "defence":
        click_action(page, "WHIST" if "WHIST" in legal else "PASS")
    elif now == "defence_mode":
        click_action(page, "CLOSED" if "CLOSED" in legal else legal[0])
    elif now == "play":
        seat = obs.get("hand_to_play")
        tap(page, st, sorted(legal)[0], st["seat"] if seat is None else seat)
    else:  # pragma: no cover
        raise AssertionError(f"unexpected phase {now!r}: {legal}")


RECORD_FRAMES = """(() => {
  window.__frames = [];
  const Plain = window.WebSocket;
  window.WebSocket = function (...args) {
    const socket = new Plain(...args);
    socket.addEventListener("message", (event) => window.__frames.push(event.data));
    return socket;
  };
  window.WebSocket.prototype = Plain.prototype;
  for (const name of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) {
    window.WebSocket[name] = Plain[name];
  }
})();"""
"""An init script: every frame the page's sockets receive, kept in ``window.__frames``."""


def play_deal(players: Mapping[Any, Any], rounds: int = 300,
              first_card: Callable[[Any, Any], None] | None = None,
              until: Callable[[], bool] | None = None) -> None:
    """Play the deal to its end through ``players`` (name -> the page of a human seat): each
    page whose seat is to act (and no computer is thinking) takes its turn and waits for the
    state that carries it; ``first_card(name, page)`` runs the first time a page is to play a
    card.  ``until()`` true stops it earlier (mid-deal).  Fails when the deal has not ended
    (or ``until`` come true) after ``rounds`` rounds."""
    started: set[Any] = set()
    pages = list(players.values())
    for _ in range(rounds):
        if until is not None and until():
            return
        done = True
        for name, who in players.items():
            st = state(who)
            if st["deal_over"]:
                continue
            done = False
            obs = st["observation"]
            if obs["to_act"] == st["seat"] and obs["legal"] and st["thinking"] is None:
                if first_card is not None and phase(st) == "play" and name not in started:
                    started.add(name)
                    first_card(name, who)
                take_turn(who, st)
                who.wait_for_function("(seq) => window.preferansTable.state.seq > seq",
                                      arg=st["seq"], timeout=30_000)
        if done:
            return
        pages[0].wait_for_timeout(150)
    raise AssertionError("the deal did not end")
