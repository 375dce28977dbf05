"""The ratings in the store (preferans.server.store.ratings): a finished game rated once,
whoever asks and however often (two stores on one PostgreSQL database are two processes),
the computer levels from their seed, a browser's rating moved into an account's, a holder
forgotten."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from itertools import count

import pytest
from sqlalchemy import func, select

from preferans.rating.games import rate_game, rated_seats
from preferans.rating.model import Rating
from preferans.rating.seed import load_seed
from preferans.server.store.games import GameStore
from preferans.server.store.ratings import (
    forget_holder,
    history,
    ladder,
    move_holder,
    placement,
    rate_finished,
    rate_unrated,
    rating_of,
    set_listing,
)
from preferans.server.store.schema import FINISHED, rated_games, rating_history

RULES = {"preset": "sochi", "pool": 10, "players": 3}
HUMAN = {"kind": "human", "name": "x"}
_numbers = count(1)


@pytest.fixture(params=["sqlite", "postgres"])
def url(request, tmp_path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.db'}"
        return
    yield request.getfixturevalue("postgres").new_database(f"preferans_rating_{next(_numbers)}")


def finished(store: GameStore, game_id: str, *, difficulty: str = "hard",
             seats: dict[str, str] | None = None, friends=None,
             balance=(30.0, -10.0, -20.0)) -> None:
    record = {"format": "preferans-record/1", "deals": []}
    store.create(game_id, difficulty=difficulty, rules=RULES, names=["A", "B", "C"], seed=1,
                 record=record, seats=seats, friends=friends)
    store.save(game_id, record=record, status=FINISHED, result=list(balance))


def count_rows(store: GameStore, table) -> int:
    with store._connect() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar_one())


def test_a_finished_game_is_rated_once(url):
    store = GameStore(url)
    finished(store, "g1", seats={"0": "ann"})
    changes = rate_finished(store, "g1")
    assert changes is not None and {c.holder for c in changes} == {"ann", "level:hard"}
    expected = rate_game(rated_seats(difficulty="hard", players=3, seats={"0": "ann"},
                                     friends=None, record={"deals": []},
                                     balance=[30.0, -10.0, -20.0]), load_seed())
    assert rating_of(store, "ann") == next(c.after for c in expected if c.holder == "ann")
    level = rating_of(store, "level:hard")
    assert level == next(c.after for c in expected if c.holder == "level:hard")
    assert rate_finished(store, "g1") is None  # again: nothing more
    assert rate_unrated(store) == 0
    assert rating_of(store, "ann").games == 1 and rating_of(store, "level:hard") == level
    assert count_rows(store, rating_history) == 2 and count_rows(store, rated_games) == 1
    assert [h["place"] for h in history(store, "ann")] == [1]
    store.close()


def test_a_game_not_finished_or_unrated_changes_nothing(url):
    store = GameStore(url)
    store.create("p", difficulty="hard", rules=RULES, names=["A", "B", "C"], seed=1,
                 record={"deals": []}, seats={"0": "ann"})
    assert rate_finished(store, "p") is None
    finished(store, "f", difficulty="friends", seats={"0": "ann", "1": "bob"},
             friends={"seats": [HUMAN, HUMAN, {"kind": "computer", "level": "easy"}],
                      "rated": False})
    assert rate_finished(store, "f") == []
    assert rate_finished(store, "f") is None  # found unrated once, not read again
    assert rating_of(store, "ann") == Rating() and history(store, "bob") == []
    store.close()


def test_two_processes_rating_the_same_games_rate_each_once(url):
    if url.startswith("sqlite"):
        pytest.skip("a SQLite file belongs to one process (exclusive locking)")
    first, second = GameStore(url), GameStore(url)
    for k in range(6):
        finished(first, f"g{k}", seats={"0": "ann"}, balance=(10.0 * k - 20, 5.0, -5.0))
    barrier = threading.Barrier(2)
    failures: list[BaseException] = []

    def run(store: GameStore) -> None:
        barrier.wait()
        try:
            for k in range(6):
                rate_finished(store, f"g{k}")
        except BaseException as exc:  # a race lost must read as "rated before", not fail
            failures.append(exc)

    threads = [threading.Thread(target=run, args=(s,)) for s in (first, second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    assert count_rows(first, rated_games) == 6
    assert count_rows(first, rating_history) == 12
    assert rating_of(first, "ann").games == 6 and rating_of(second, "level:hard").games == (
        load_seed()["level:hard"].games + 6)
    first.close()
    second.close()


def test_a_browser_rating_moves_into_an_account(url):
    store = GameStore(url)
    for k in range(3):
        finished(store, f"b{k}", seats={"0": "browser"})
    finished(store, "a0", seats={"0": "account"}, balance=(-30.0, 10.0, 20.0))
    assert rate_unrated(store) == 4
    browser = rating_of(store, "browser")
    assert set_listing(store, "browser", True, "Anna")
    assert not set_listing(store, "stranger", True, "Eve")  # no rating: nothing made
    assert move_holder(store, "browser", "account")
    # the browser had more rated games: its rating and history are the account's now
    assert rating_of(store, "account") == browser
    assert len(history(store, "account")) == 3 and history(store, "browser") == []
    assert rating_of(store, "browser") == Rating()
    assert [e["name"] for e in ladder(store, "account") if e["you"]] == ["Anna"]
    # the other way: the account has more, the browser's is dropped
    finished(store, "n0", seats={"0": "newbrowser"})
    rate_finished(store, "n0")
    kept = rating_of(store, "account")
    assert move_holder(store, "newbrowser", "account")
    assert rating_of(store, "account") == kept and len(history(store, "account")) == 3
    assert not move_holder(store, "nobody", "account")
    store.close()


def test_forget_holder_deletes_rating_and_history_only(url):
    store = GameStore(url)
    finished(store, "g", seats={"0": "ann"})
    rate_finished(store, "g")
    level = rating_of(store, "level:hard")
    assert forget_holder(store, "ann") == 2
    assert rating_of(store, "ann") == Rating() and history(store, "ann") == []
    assert rating_of(store, "level:hard") == level and rate_finished(store, "g") is None
    assert forget_holder(store, "level:hard") == 0
    store.close()


def test_the_ladder_lists_chosen_players_and_the_levels(url):
    store = GameStore(url)
    finished(store, "g1", seats={"0": "ann"}, balance=(40.0, -20.0, -20.0))
    finished(store, "g2", seats={"0": "bob"}, balance=(-40.0, 20.0, 20.0))
    rate_finished(store, "g1")
    rate_finished(store, "g2")
    set_listing(store, "ann", True, "Anna")
    entries = ladder(store, "bob")
    names = [e["name"] for e in entries]
    assert "Anna" in names and {"easy", "normal", "hard", "crazy"} <= set(names)
    assert len(entries) == 5  # bob did not choose to be listed
    lows = [e["rating"].low for e in entries]
    assert lows == sorted(lows, reverse=True) and not any(e["you"] for e in entries)
    set_listing(store, "ann", False, "Anna")
    assert [e["name"] for e in ladder(store)] == [
        e["name"] for e in entries if e["kind"] == "level"]
    below, above = placement(store, Rating(-100.0, 1.0))
    assert below is None and above is not None
    store.close()


def test_a_game_abandoned_for_a_week_is_rated_as_it_stands(url):
    """Leaving a game one is losing does not keep it off the rating: a week untouched, with a
    deal played, it is rated with the balances an early finish settles; played on later, it
    is not rated again."""
    import sys
    from datetime import UTC, datetime, timedelta
    from pathlib import Path

    from sqlalchemy import update

    from preferans.game import Game
    from preferans.server.store.schema import games

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from test_rating import played_record

    store = GameStore(url)
    record, _ = played_record(deals=2, seed=9)
    standing = [float(b) for b in Game.from_record(record).sheet.balance()]
    for game_id, days in (("old", 8), ("recent", 2)):
        store.create(game_id, difficulty="normal", rules=RULES, names=["A", "B", "C"], seed=1,
                     record=record, seats={"0": f"ann-{game_id}"})
        with store._begin() as conn:
            conn.execute(update(games).where(games.c.id == game_id).values(
                updated=datetime.now(UTC) - timedelta(days=days)))
    assert rate_unrated(store) == 1
    changes = {c.holder: c for c in rate_game(rated_seats(
        difficulty="normal", players=3, seats={"0": "ann-old"}, friends=None, record=record,
        balance=standing), load_seed())}
    assert rating_of(store, "ann-old") == changes["ann-old"].after
    assert rating_of(store, "ann-recent") == Rating()  # a game in play is left alone
    store.save("old", record=record, status=FINISHED, result=standing)
    assert rate_finished(store, "old") is None and rating_of(store, "ann-old").games == 1
    store.close()


def test_the_movers_run_in_the_callers_transaction(url):
    """move_rating and erase_rating take the open transaction (the accounts' holder movers
    and erasers): rolled back with it, nothing moved."""
    from preferans.server.store.ratings import erase_rating, move_rating

    store = GameStore(url)
    finished(store, "g", seats={"0": "browser"})
    rate_finished(store, "g")
    before = rating_of(store, "browser")
    with pytest.raises(RuntimeError), store._begin() as conn:
        assert move_rating(conn, "browser", "account") == 2  # the rating and one history row
        raise RuntimeError("the sign-in failed after the move")
    assert rating_of(store, "browser") == before and rating_of(store, "account") == Rating()
    with store._begin() as conn:
        assert move_rating(conn, "browser", "account") == 2
    assert rating_of(store, "account") == before
    with store._begin() as conn:
        assert erase_rating(conn, "account") == 2
    assert rating_of(store, "account") == Rating() and history(store, "account") == []
    store.close()


def test_the_rating_follows_the_accounts_holder_moves(url):
    """Wired into the store's holder moves (store/holders.py): a browser signing in hands its
    rating to the account with its games; an account deleted takes its rating with it."""
    store = GameStore(url)
    finished(store, "g", seats={"0": "browser"})
    rate_finished(store, "g")
    mine = rating_of(store, "browser")
    assert store.claim_browser("browser", "account") >= 2  # the game's seat and the rating
    assert rating_of(store, "account") == mine and rating_of(store, "browser") == Rating()
    assert len(history(store, "account")) == 1
    store.erase_holder("account")
    assert rating_of(store, "account") == Rating() and history(store, "account") == []
    store.close()
