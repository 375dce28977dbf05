"""A whole game: dealer rotation, all-pass streak, the end, seeded deals."""

import random

import pytest

from preferans.game import Game, GameOver
from preferans.rules import Rules


def play_out(game: Game, seed: int, max_actions: int = 20000) -> None:
    rng = random.Random(seed)
    for _ in range(max_actions):
        if game.finished:
            return
        if game.deal is None:
            game.start_deal()
        game.apply(rng.choice(game.legal_actions()))
    raise AssertionError("the game did not end")


def test_dealer_moves_left_after_every_deal_allpass_included():
    g = Game(Rules.preset("sochi"), seed=1, first_dealer=2)
    dealers = []
    for _ in range(4):
        d = g.start_deal()
        dealers.append(d.dealer)
        for _ in range(3):
            g.apply("PASS")
        while g.deal is not None:
            g.apply(g.legal_actions()[0])
    assert dealers == [2, 0, 1, 2]
    assert [d.outcome().kind for d in g.finished_deals] == ["allpass"] * 4


def test_allpass_streak_raises_the_minimum_bid_and_a_contract_ends_it():
    g = Game(Rules.preset("sochi"), seed=2)
    g.start_deal()
    for _ in range(3):
        g.apply("PASS")
    while g.deal is not None:
        g.apply(g.legal_actions()[0])
    d = g.start_deal()
    assert d.allpass_streak == 1 and str(g.legal_actions()[0]) == "7S"
    g.apply("7S")
    g.apply("PASS")
    g.apply("PASS")
    g.apply(g.legal_actions()[0])  # discard
    g.apply("7S")
    g.apply("PASS")
    g.apply("PASS")  # passed out: the contract counts as made
    assert g.deal is None and g.sheet.allpass_streak == 0
    assert str(g.start_deal().legal_actions()[0]) == "6S"


def test_seeded_games_are_deterministic():
    a, b = Game(Rules.preset("sochi", pool=4), seed=5), Game(Rules.preset("sochi", pool=4), seed=5)
    play_out(a, 9)
    play_out(b, 9)
    assert a.to_record() == b.to_record()
    c = Game(Rules.preset("sochi", pool=4), seed=6)
    assert c.start_deal().initial_hands != a.finished_deals[0].initial_hands


def test_the_game_ends_when_every_pool_is_closed():
    g = Game(Rules.preset("sochi", pool=2), seed=3)
    play_out(g, 3)
    assert g.finished and g.sheet.finished and g.deal is None
    assert all(p >= 2 for p in g.sheet.pool)
    with pytest.raises(GameOver):
        g.start_deal()
    assert g.legal_actions() == []


def test_four_players_rotate_over_four_seats():
    g = Game(Rules.preset("sochi", players=4, pool=2), seed=4)
    d = g.start_deal()
    assert d.hands[0].mask == 0 and [len(h) for h in d.hands] == [0, 10, 10, 10]
    play_out(g, 4)
    dealers = [d.dealer for d in g.finished_deals]
    assert dealers[:4] == [0, 1, 2, 3][: len(dealers[:4])]


def test_bad_construction_and_misuse():
    with pytest.raises(ValueError, match="rules are for 3 players but 4 are named"):
        Game(Rules.preset("sochi"), ("A", "B", "C", "D"))
    g = Game(Rules.preset("sochi"))
    with pytest.raises(ValueError, match="no deal in progress"):
        g.apply("PASS")
    g.start_deal()
    with pytest.raises(ValueError, match="not finished"):
        g.start_deal()


def test_observation_adds_the_sheet():
    g = Game(Rules.preset("sochi"), seed=1)
    g.start_deal()
    obs = g.observation(1)
    assert obs["sheet"]["format"] == "preferans-sheet/1" and obs["legal"]
