"""The rating as a player sees it: the statistics page's rating and its history plot (inline
SVG drawn by rating.js), the choice to be listed, the ladder with the four computer levels
and "you are rated between ...", on a desktop and a 390 px phone, in both languages.
Screenshots ``rating-*.png``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer

from preferans.server.security.tokens import SEAT_COOKIE, token_hash
from preferans.server.store.ratings import rate_finished
from preferans.server.store.schema import FINISHED

pytestmark = pytest.mark.browser

BALANCES = [(40.0, -10.0, -30.0), (-20.0, 25.0, -5.0), (15.0, 5.0, -20.0)]


def rated_games(server: LiveServer, token: str, prefix: str) -> None:
    """Three finished games against Hard for the browser holding ``token``, rated."""
    store = server.store
    for k, balance in enumerate(BALANCES):
        game_id = f"{prefix}{k}"
        record = {"format": "preferans-record/1", "deals": []}
        store.create(game_id, difficulty="hard", names=["You", "Misha", "Lena"], seed=k,
                     rules={"preset": "sochi", "pool": 10, "players": 3}, record=record,
                     seats={"0": token_hash(token)})
        store.save(game_id, record=record, status=FINISHED, result=list(balance))
        assert rate_finished(store, game_id)


NO_OVERFLOW = "() => document.documentElement.scrollWidth <= window.innerWidth + 1"


@pytest.mark.parametrize("lang, width", [("en", 1280), ("ru", 390)])
def test_the_rating_plot_and_the_ladder(browser: Any, live_server: LiveServer,
                                        artifacts: Path, lang: str, width: int) -> None:
    token = f"rating-browser-{lang}-".ljust(40, "x")
    rated_games(live_server, token, f"rated{lang}")
    context = browser.new_context(viewport={"width": width, "height": 900},
                                  locale="ru-RU" if lang == "ru" else "en-US")
    errors: list[str] = []
    try:
        context.add_cookies([{"name": SEAT_COOKIE, "value": token, "url": live_server.url}])
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{live_server.url}/stats?lang={lang}")
        page.locator('#rating[data-ready="yes"]').wait_for()
        assert page.locator("#rating-plot svg circle.point").count() == 3
        assert page.locator("#rating-plot svg polygon.band").count() == 1
        assert page.locator("#rating-plot svg line.level").count() == 4
        now = page.locator("#rating-now").inner_text()
        assert ("3 rated games" if lang == "en" else "3 рейтинговых игр") in now, now
        assert "±" in now
        place = page.locator("#rating-place").inner_text()
        assert ("rated" if lang == "en" else "рейтинг") in place, place
        assert page.evaluate(NO_OVERFLOW)
        page.locator("#rating").screenshot(path=str(artifacts / f"rating-stats-{lang}-{width}.png"))

        # not listed yet: the ladder has the four levels, and not this player
        page.goto(f"{live_server.url}/ladder?lang={lang}")
        assert page.locator('#ladder tr[data-kind="level"]').count() == 4
        players = page.locator('#ladder tr[data-kind="player"]').count()
        assert page.locator("#ladder tr.you").count() == 0
        assert f"Anna{lang}" not in page.locator("#ladder").inner_text()

        page.goto(f"{live_server.url}/stats?lang={lang}")
        page.locator('#rating[data-ready="yes"]').wait_for()
        page.locator("#rating-list").check()
        page.locator("#rating-name").fill(f"Anna{lang}")
        page.locator("#rating-listing button[type=submit]").click()
        page.locator('#rating-listing-status[data-ok="yes"]').wait_for()
        assert f"Anna{lang}" in page.locator("#rating-listing-status").inner_text()

        page.goto(f"{live_server.url}/ladder?lang={lang}")
        mine = page.locator("#ladder tr.you")
        assert mine.count() == 1 and f"Anna{lang}" in mine.inner_text()
        assert page.locator('#ladder tr[data-kind="level"]').count() == 4
        assert page.locator('#ladder tr[data-kind="player"]').count() == players + 1
        you = page.locator("#ladder-you").inner_text()
        assert ("You are rated" if lang == "en" else "Ваш рейтинг") in you, you
        lows = page.evaluate("""() => [...document.querySelectorAll('#ladder tbody tr')]
          .map((tr) => tr.querySelector('td.rating').textContent)""")
        assert len(lows) >= 5 and all("±" in x for x in lows)
        assert page.evaluate(NO_OVERFLOW)
        page.screenshot(path=str(artifacts / f"rating-ladder-{lang}-{width}.png"),
                        full_page=True)
        assert token not in page.content() and token_hash(token) not in page.content()
    finally:
        context.close()
    assert not errors, errors


@pytest.mark.parametrize("lang, width", [("en", 1280), ("ru", 390)])
def test_the_lobby_and_the_plates_show_the_seats_ratings(
        browser: Any, live_server: LiveServer, artifacts: Path, lang: str, width: int) -> None:
    base = live_server.url
    contexts = [browser.new_context(viewport={"width": width, "height": 844 if width < 500
                                              else 800}) for _ in range(2)]
    errors: list[str] = []
    try:
        anna, boris = (context.new_page() for context in contexts)
        for page in (anna, boris):
            page.on("pageerror", lambda error: errors.append(str(error)))
        made = anna.request.post(f"{base}/api/friends", data={
            "name": "Anna", "seats": ["friend", "hard"], "rules": "sochi", "pool": 10,
            "seed": 4, "rated": True})
        assert made.status == 201, made.text()
        game, code = made.json()["id"], made.json()["invite"].rsplit("/", 1)[1]
        assert boris.request.post(f"{base}/api/friends/{game}/join",
                                  data={"code": code, "seat": 1, "name": "Boris"}).status == 200
        anna.goto(f"{base}/lobby/{game}?lang={lang}")
        anna.locator('#seats li[data-seat="2"] .rating').wait_for()
        assert anna.locator("#seats .rating").count() == 3
        assert anna.locator("#rated").get_attribute("data-rated") == "yes"
        hard = anna.locator('#seats li[data-seat="2"] .rating').inner_text()
        assert "±" in hard
        assert anna.evaluate(NO_OVERFLOW)
        anna.screenshot(path=str(artifacts / f"rating-lobby-{lang}-{width}.png"), full_page=True)

        assert anna.request.post(f"{base}/api/friends/{game}/start", data={}).status == 200
        for who in (anna, boris):
            who.goto(f"{base}/table/{game}?lang={lang}")
            who.wait_for_function("() => window.preferansTable && window.preferansTable.state")
            who.locator("#seat-0 .plate .rating").wait_for()
            assert who.locator(".plate .rating").count() == 3
        title = boris.locator(".plate .rating").first.get_attribute("title")
        assert title and "±" in title
        boris.wait_for_timeout(300)  # the deal's cards settle for the picture only
        boris.screenshot(path=str(artifacts / f"rating-plates-{lang}-{width}.png"))
    finally:
        for context in contexts:
            context.close()
    assert not errors, errors


@pytest.mark.parametrize("lang, width", [("en", 1280), ("ru", 390)])
def test_the_result_says_how_the_game_moved_the_rating(
        browser: Any, live_server: LiveServer, artifacts: Path, lang: str, width: int) -> None:
    """A whole game against Easy, over: its result shows "Your rating: μ ± 2σ (change)" once
    the game is rated. The page is open before the rating is written (as at a real game's
    end, where it is written moments after the last save): the line comes when it is."""
    from test_review_pages import finished_game

    context = browser.new_context(viewport={"width": width, "height": 844 if width < 500
                                            else 800}, locale="ru-RU" if lang == "ru" else "en-US")
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        game_id = f"ratedEnd{lang}"
        finished_game(live_server, page, game_id, seed=5)
        page.goto(f"{live_server.url}/table/{game_id}?lang={lang}")
        page.locator("#sheet-overlay .result .headline").wait_for()
        assert page.locator(".rating-change").count() == 0  # not rated yet
        store = live_server.store
        changes = rate_finished(store, game_id)
        assert changes
        line = page.locator("#sheet-overlay .rating-change")
        line.wait_for(timeout=15_000)
        text = line.inner_text()
        holder = token_hash(next(c for c in context.cookies() if c["name"] == SEAT_COOKIE)["value"])
        (mine,) = [c for c in changes if c.holder == holder]
        delta = mine.after.mu - mine.before.mu
        assert text.startswith("Your rating:" if lang == "en" else "Ваш рейтинг:"), text
        assert "±" in text and ("+" if delta > 0 else "−") in text.split("(")[-1], text
        assert float(line.get_attribute("data-change")) == pytest.approx(delta, abs=1e-3)
        assert page.evaluate(NO_OVERFLOW)
        page.screenshot(path=str(artifacts / f"rating-result-{lang}-{width}.png"))
    finally:
        context.close()
    assert not errors, errors
