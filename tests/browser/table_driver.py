"""Playing the web table the way a person does: reading the screen, clicking, typing.

The driver reads the state the table was drawn from (``window.preferansTable.state``, the
last message the server sent) only to decide what to do and to wait for the computer
players; every action goes through the page's own buttons and cards.
"""

from __future__ import annotations

from typing import Any

SETTLED = """(seq) => {
  const table = window.preferansTable;
  const s = table && table.state;
  if (!s || s.seq <= seq) return false;
  if (s.game_over || s.deal_over) return true;
  const o = s.observation || {};
  // After a misère discard the page sends the only contract itself: not a turn to take.
  const legal = o.legal || [];
  const contract = String(o.phase).toLowerCase() === "contract";
  if (contract && legal.length === 1 && legal[0] === "MISERE") return false;
  return o.to_act === 0 && (o.legal || []).length > 0 && s.thinking === null;
}"""


def state(page: Any) -> dict[str, Any]:
    """The last state message the table received."""
    return page.evaluate("() => window.preferansTable.state")


def wait_settled(page: Any, after: int = -1, timeout: float = 30_000) -> dict[str, Any]:
    """Wait until the table waits for the human (its turn, or the deal or game over)."""
    page.wait_for_function(SETTLED, arg=after, timeout=timeout)
    return state(page)


def open_table(page: Any, base_url: str, game_id: str) -> dict[str, Any]:
    page.goto(f"{base_url}/table/{game_id}")
    return wait_settled(page)


def new_game(page: Any, base_url: str, **settings: Any) -> str:
    """Create a game through the API (as the settings page does) and return its id."""
    body = {"difficulty": "easy", "rules": "sochi", "pool": 10, **settings}
    response = page.request.post(f"{base_url}/api/games", data=body)
    assert response.status == 201, response.text()
    return response.json()["id"]


def phase(st: dict[str, Any]) -> str:
    return str(st["observation"]["phase"]).lower().replace(" ", "_")


VISIBLE_POINT = """([token, seat]) => {
  const card = document.querySelector(`#seat-${seat} .hand [data-card="${token}"]`);
  if (!card) return null;
  const r = card.getBoundingClientRect();
  for (let y = r.top + 12; y < r.bottom - 4; y += 8) {
    for (let x = r.left + 4; x < r.right - 2; x += 3) {
      const hit = document.elementFromPoint(x, y);
      if (hit && hit.closest("[data-card]") === card) return [x, y];
    }
  }
  return null;
}"""


HAND_STILL = """(seat) => !document.getAnimations().some((a) => a.playState === "running"
  && a.effect && a.effect.target && a.effect.target.closest
  && a.effect.target.closest(`#seat-${seat} .hand`))"""


def click_card(page: Any, token: str, seat: int = 0) -> None:
    """Tap a card where it shows (cards overlap in a fan and in a column).  The hand's
    motions end first (the deal arriving, ``motion.js``, at most 0.35 s; a card lifting), as
    a person waits for the cards to land: the driver can answer faster than they arrive."""
    page.wait_for_function(HAND_STILL, arg=seat, timeout=5_000)
    point = page.evaluate(VISIBLE_POINT, [token, seat])
    assert point is not None, f"card {token} of seat {seat} is not visible on the screen"
    page.mouse.click(point[0], point[1])


def click_token(page: Any, token: str) -> None:
    page.locator(f'#panel [data-token="{token}"]').click()


def click_action(page: Any, name: str) -> None:
    page.locator(f'[data-action="{name}"]').click()


def seq(st: dict[str, Any]) -> int:
    return int(st.get("seq", 0))


def discard_two(page: Any, st: dict[str, Any]) -> list[str]:
    """Choose two cards in the twelve and press DISCARD; returns the two."""
    hand = st["observation"]["hand"]
    assert len(hand) == 12, hand
    chosen = [hand[0], hand[1]]
    for token in chosen:
        click_card(page, token)
    click_action(page, "DISCARD")
    return chosen


def play_any_card(page: Any, st: dict[str, Any]) -> str:
    """Tap the first playable card of the hand the human plays from now."""
    obs = st["observation"]
    seat = obs.get("hand_to_play") or 0
    token = sorted(obs["legal"])[0]
    click_card(page, token, seat)
    return token


def take_turn(page: Any, st: dict[str, Any], *, bid: bool = False, whist: bool = True) -> None:
    """One sensible human decision through the UI: passing in the auction unless ``bid``,
    whisting when allowed if ``whist``, else passing (the whister then plays)."""
    if st["deal_over"]:
        click_action(page, "NEXT DEAL")
        return
    legal = st["observation"]["legal"]
    now = phase(st)
    if now == "auction":
        obs = st["observation"]
        bids = [t for t in legal if t not in ("PASS", "MISERE")]
        # With ``bid``: bid the lowest bid once, on a hand that can make a six.
        first_call = all(seat != 0 for seat, _ in obs["auction"])
        good = strength(obs["hand"]) >= 14
        click_token(page, bids[0] if bid and bids and first_call and good else "PASS")
    elif now == "discard":
        discard_two(page, st)
    elif now == "contract":
        click_token(page, legal[0])
    elif now == "defence":
        click_action(page, "WHIST" if whist and "WHIST" in legal else
                     "PASS" if "PASS" in legal else legal[0])
    elif now == "defence_mode":
        click_action(page, "CLOSED")
    elif now == "exchange":
        discard_two(page, st)
    elif now == "dealer_whist":
        looks = [t for t in legal if t.startswith("LOOK")]
        click_action(page, looks[0] if looks else "PASS")
    elif now == "play":
        play_any_card(page, st)
    else:  # pragma: no cover - a phase the table does not know
        raise AssertionError(f"unexpected phase {now!r} with legal {legal}")


def step(page: Any, st: dict[str, Any], **options: Any) -> dict[str, Any]:
    """Take one turn and wait for the next time the table waits for the human."""
    take_turn(page, st, **options)
    return wait_settled(page, seq(st))


def play_until(page: Any, st: dict[str, Any], done: Any, limit: int = 400,
               **options: Any) -> dict[str, Any]:
    """Take turns until ``done(state)`` holds (checked before each turn)."""
    for _ in range(limit):
        if done(st):
            return st
        if st["game_over"]:
            break
        st = step(page, st, **options)
    raise AssertionError(f"the situation did not arise within {limit} turns")


def strength(cards: Any) -> int:
    """A rough hand strength: honours (A 4, K 3, Q 2, J 1) plus 2 a card beyond four in a suit."""
    tokens = [str(card) for card in cards]
    points = sum({"A": 4, "K": 3, "Q": 2, "J": 1}.get(t[:-1], 0) for t in tokens)
    for suit in "SCDH":
        points += 2 * max(0, sum(t.endswith(suit) for t in tokens) - 4)
    return points


def seed_where(wanted: Any, deals: int = 1, limit: int = 5000) -> int:
    """The first game seed whose first ``deals`` deals all satisfy ``wanted(strengths)``.

    The server deals a seeded game's cards with :func:`preferans.server.table.table.deal_cards`,
    so a test can choose the kind of hands it needs (computer players still decide freely).
    """
    from preferans.server.table.table import deal_cards

    for seed in range(limit):
        if all(wanted([strength(h) for h in deal_cards(seed, n)[0]]) for n in range(deals)):
            return seed
    raise AssertionError("no seed gives such hands")
