"""The puzzle ratings in the store (:mod:`preferans.server.store.puzzle_ratings`), on SQLite
and PostgreSQL: a holder's first try at a puzzle rates him once; his rating moves with him
into an account (the one of more tries kept, the puzzles either tried stay tried) and goes
when the account is deleted."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import count
from pathlib import Path

import pytest

from preferans.server.store.games import GameStore
from preferans.server.store.puzzle_ratings import kept_rating, puzzle_rating, rate_try

_numbers = count(1)
IDS = [f"p{n:011x}" for n in range(1, 9)]


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GameStore]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'games.db'}"
    else:
        url = request.getfixturevalue("postgres").new_database(
            f"preferans_puzzles_{next(_numbers)}")
    games = GameStore(url)
    yield games
    games.close()


def test_the_first_try_rates_and_a_kept_rating_is_taken_only_while_there_is_none(
        store: GameStore) -> None:
    first = rate_try(store, "ann", IDS[0], grade=3, solved=True)
    assert first["counted"] and (first["solved"], first["tried"]) == (1, 1)
    assert not rate_try(store, "ann", IDS[0], grade=3, solved=False)["counted"]
    assert puzzle_rating(store, "ann")["tried"] == 1
    kept = kept_rating({"mu": 31.0, "sigma": 4.0, "solved": 7, "tried": 9})
    ignored = rate_try(store, "ann", IDS[1], grade=3, solved=False, kept=kept)
    assert ignored["tried"] == 2 and ignored["mu"] < first["mu"]
    taken = rate_try(store, "bob", IDS[1], grade=3, solved=False, kept=kept)
    assert (taken["solved"], taken["tried"]) == (7, 10) and 28 < taken["mu"] < 31
    assert kept_rating({"mu": 25, "sigma": 8, "solved": True, "tried": 1}) is None
    assert kept_rating({"mu": 25, "sigma": 8, "solved": 2, "tried": 1}) is None
    assert kept_rating([25, 8]) is None


def test_the_rating_moves_into_an_account_and_goes_with_it(store: GameStore) -> None:
    for k, solved in enumerate((True, True, False)):  # the browser: three tries
        rate_try(store, "browser", IDS[k], grade=2, solved=solved)
    rate_try(store, "account", IDS[0], grade=4, solved=False)  # the account: one
    browser = puzzle_rating(store, "browser")
    assert store.write_now(store.claim_browser, "browser", "account") > 0
    # more tries: the browser's rating is the account's now; nothing is left behind
    assert puzzle_rating(store, "account") == browser
    assert puzzle_rating(store, "browser") is None
    # the puzzles either tried stay tried: none of them rates again
    for puzzle_id in IDS[:3]:
        assert not rate_try(store, "account", puzzle_id, grade=2, solved=True)["counted"]
    # the other way round: the account has more, the browser's is dropped
    rate_try(store, "phone", IDS[5], grade=2, solved=True)
    before = puzzle_rating(store, "account")
    store.write_now(store.claim_browser, "phone", "account")
    assert puzzle_rating(store, "account") == before and puzzle_rating(store, "phone") is None
    assert not rate_try(store, "account", IDS[5], grade=2, solved=True)["counted"]
    # deleting the account takes its puzzle rating and tries with it
    assert store.write_now(store.erase_holder, "account") > 0
    assert puzzle_rating(store, "account") is None
    assert rate_try(store, "account", IDS[0], grade=2, solved=True)["tried"] == 1
