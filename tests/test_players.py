"""Computer players: legal decisions, sound play in clear positions, no peeking."""

from __future__ import annotations

import random

import pytest

from preferans.cards import CardSet
from preferans.deal import Deal, Phase
from preferans.game import Game
from preferans.players import LEVELS, make_player
from preferans.players.sampling import Sampler, World
from preferans.rules import Rules


def play_deal(game: Game, bots: list, hands=None, talon=None) -> Deal:
    game.start_deal(hands, talon)
    decisions = 0
    while game.deal is not None:
        deal = game.deal
        seat = deal.to_act
        obs = game.observation(seat)
        token = bots[seat].choose(obs)
        assert token in obs["legal"], f"{token} not legal for seat {seat} in {obs['phase']}"
        deal.apply(token)  # raises IllegalAction if the engine disagrees
        decisions += 1
        if deal.phase is Phase.DONE:
            game.sheet.record(deal.outcome())
            game.finished_deals.append(deal)
            game.deal = None
            game.dealer = (game.dealer + 1) % 3
    return game.finished_deals[-1]


@pytest.mark.parametrize("preset", ["sochi", "leningrad", "rostov", "guide"])
def test_easy_and_random_only_take_legal_actions(preset: str) -> None:
    rules = Rules.preset(preset)
    game = Game(rules, seed=11)
    bots = [make_player(lv, rules, seed=i) for i, lv in enumerate(["easy", "random", "easy"])]
    for _ in range(25):
        play_deal(game, bots)


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_monte_carlo_players_take_legal_actions(level: str) -> None:
    rules = Rules.preset("sochi")
    game = Game(rules, seed=5)
    bots = [make_player(lv, rules, seed=i) for i, lv in enumerate([level, "easy", level])]
    for _ in range(2 if level == "hard" else 4):
        play_deal(game, bots)


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_four_player_tables_get_legal_actions(level: str) -> None:
    rules = Rules.preset("sochi", players=4)
    game = Game(rules, seed=3)
    bots = [make_player(level, rules, seed=i) for i in range(4)]
    for _ in range(6 if level == "easy" else 2):
        game.start_deal()
        while game.deal is not None:
            seat = game.deal.to_act
            obs = game.observation(seat)
            token = bots[seat].choose(obs)
            assert token in obs["legal"]
            game.apply(token)


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("preset", ["sochi", "rostov"])
def test_many_decisions_are_legal(level: str, preset: str) -> None:
    rules = Rules.preset(preset)
    game = Game(rules, seed=21)
    bots = [make_player(level, rules, seed=i) for i in range(3)]
    deals = {"easy": 60, "normal": 12, "hard": 3, "crazy": 1}[level]
    for number in range(deals):
        if game.finished:  # Easy's games are over within 60 deals now that it bids
            game = Game(rules, seed=21 + number)
        play_deal(game, bots)


COLD_TEN = CardSet.parse("AS KS QS JS 10S 9S 8S 7S AH AD")
REST = [c for c in CardSet.full() if c not in COLD_TEN]


def _cold_ten_deal():
    rng = random.Random(4)
    rest = list(REST)
    rng.shuffle(rest)
    talon = rest[:2]
    return [COLD_TEN, CardSet(rest[2:12]), CardSet(rest[12:22])], talon


def test_hard_declarer_with_a_cold_ten_bids_and_makes_it() -> None:
    rules = Rules.preset("sochi")
    hands, talon = _cold_ten_deal()
    game = Game(rules, first_dealer=2)
    bots = [make_player("hard", rules, seed=1), make_player("easy", rules, seed=2),
            make_player("easy", rules, seed=3)]
    deal = play_deal(game, bots, hands, talon)
    outcome = deal.outcome()
    assert outcome.declarer == 0
    assert outcome.contract is not None and outcome.contract.level == 10
    assert outcome.kind == "passed" or outcome.tricks[0] == 10


def _cold_ten_defence() -> Deal:
    rules = Rules.preset("sochi")
    hands, talon = _cold_ten_deal()
    deal = Deal(rules, 2, hands, talon)
    for token in ("10S", "PASS", "PASS"):
        deal.apply(token)
    discard = [c for c in CardSet(deal.hands[0].mask) if c in CardSet(talon)]
    deal.apply("DISCARD " + " ".join(str(c) for c in discard))
    deal.apply("10S")
    assert deal.phase is Phase.DEFENCE
    return deal


@pytest.mark.parametrize("level", ["normal", "hard", "crazy"])
def test_no_whist_where_the_defence_cannot_take_a_trick(level: str, monkeypatch) -> None:
    """Against a cold ten, a defender whose imagined deals all show it never whists."""
    deal = _cold_ten_defence()
    truth = [h.mask for h in deal.hands]

    def only_the_truth(self, n, **kwargs):
        return [World(list(truth), 0)]

    monkeypatch.setattr(Sampler, "sample", only_the_truth)
    rules = Rules.preset("sochi")
    while deal.phase is Phase.DEFENCE:
        seat = deal.to_act
        token = make_player(level, rules, seed=seat).choose(deal.observation(seat))
        assert token != "WHIST", f"seat {seat} whisted against a cold ten"
        deal.apply(token)


def test_easy_never_whists_without_a_high_card() -> None:
    rules = Rules.preset("sochi")
    deal = Deal(rules, 2, [CardSet.parse("AS KS QS JS 10S 9S AH KH AD KD"),
                           CardSet.parse("7C 8C 9C 7D 8D 9D 7H 8H 9H 8S"),
                           CardSet.parse("AC KC QC JC 10C QD JD 10D QH JH")],
                CardSet.parse("7S 10H"))
    for token in ("6S", "PASS", "PASS", "DISCARD 7S 10H", "8S"):
        deal.apply(token)
    for seed in range(30):
        assert make_player("easy", rules, seed=seed).choose(deal.observation(1)) != "WHIST"


def test_hard_defenders_take_their_sure_tricks() -> None:
    rules = Rules.preset("sochi")
    declarer = CardSet.parse("AS KS QS JS 10S KH QH KD QD KC")
    first = CardSet.parse("AH 7H AD 7D AC 7C 9S 8S 8H 8D")
    talon = CardSet.parse("9H 9D")
    second = CardSet([c for c in CardSet.full() if c not in declarer | first | talon])
    deal = Deal(rules, 2, [declarer, first, second], list(talon))
    for token in ("6S", "PASS", "PASS", "DISCARD 9H 9D", "6S", "WHIST", "WHIST"):
        deal.apply(token)
    bots = [make_player("hard", rules, seed=s) for s in range(3)]
    while deal.phase is not Phase.DONE:
        seat = deal.to_act
        deal.apply(bots[seat].choose(deal.observation(seat)))
    tricks = deal.outcome().tricks
    assert tricks[1] + tricks[2] >= 3  # the three aces


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_decisions_do_not_depend_on_the_hidden_cards(level: str) -> None:
    """Shuffle the cards seat 0 cannot see between the others: same observation, same choice."""
    rules = Rules.preset("sochi")
    rng = random.Random(9)
    for trial in range(4):
        cards = list(CardSet.full())
        rng.shuffle(cards)
        mine = CardSet(cards[:10])
        others = cards[10:]
        decisions = []
        for variant in range(2):
            hidden = list(others)
            random.Random(trial * 10 + variant).shuffle(hidden)
            deal = Deal(rules, 2, [mine, CardSet(hidden[:10]), CardSet(hidden[10:20])],
                        hidden[20:])
            obs = deal.observation(0)
            decisions.append((obs, make_player(level, rules, seed=7).choose(obs)))
        assert decisions[0][0] == decisions[1][0]
        assert decisions[0][1] == decisions[1][1]


def test_players_are_deterministic_given_seed_and_observation() -> None:
    rules = Rules.preset("sochi")
    deal = Deal.shuffle(rules, 0, random.Random(3))
    obs = deal.observation(deal.to_act)
    for level in ("easy", "normal"):
        a = make_player(level, rules, seed=5).choose(obs)
        b = make_player(level, rules, seed=5).choose(obs)
        assert a == b


def test_unknown_level_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown player level 'grandmaster'"):
        make_player("grandmaster", Rules.preset("sochi"))


def _deal_at_defence_mode(rules: Rules) -> Deal:
    """The first seeded deal where Normal players reach a lone whister's OPEN/CLOSED choice."""
    for seed in range(200):
        deal = Deal.shuffle(rules, seed % 3, random.Random(seed))
        bots = [make_player("normal", rules, seed=s) for s in range(3)]
        while deal.phase not in (Phase.DONE, Phase.DEFENCE_MODE):
            deal.apply(bots[deal.to_act].choose(deal.observation(deal.to_act)))
        if deal.phase is Phase.DEFENCE_MODE:
            return deal
    raise AssertionError("no lone whister in 200 deals")


def test_a_rebuilt_deal_is_the_real_one_when_the_world_is_the_truth() -> None:
    from preferans.players.defence_mode import rebuild_deal
    from preferans.players.view import SeatView

    rules = Rules.preset("sochi")
    deal = _deal_at_defence_mode(rules)
    seat = deal.to_act
    view = SeatView.from_observation(deal.observation(seat))
    truth = World([h.mask for h in deal.hands], sum(c.mask for c in deal.discard))
    rebuilt = rebuild_deal(view, rules, truth)
    assert rebuilt.observation(seat) == deal.observation(seat)
    assert [h.mask for h in rebuilt.hands] == truth.hands


@pytest.mark.parametrize("level", ["hard", "crazy"])
def test_lone_whister_chooses_open_or_closed_by_simulation(level: str) -> None:
    rules = Rules.preset("sochi")
    deal = _deal_at_defence_mode(rules)
    obs = deal.observation(deal.to_act)
    token = make_player(level, rules, seed=4).choose(obs)
    assert token in ("OPEN", "CLOSED")
    assert token == make_player(level, rules, seed=4).choose(obs)  # deterministic
    deal.apply(token)
    assert deal.phase is Phase.PLAY


@pytest.mark.budgets  # the players doctest shows the default budgets
def test_module_doctests() -> None:
    import doctest
    import importlib

    for name in ("players", "players.clock", "players.utility", "players.view", "players.sampling",
                 "players.evaluation", "players.easy", "players.montecarlo", "players.declarer",
                 "players.allpass", "match"):
        module = importlib.import_module(f"preferans.{name}")
        failed, _ = doctest.testmod(module)
        assert failed == 0, name
