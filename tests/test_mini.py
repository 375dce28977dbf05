"""Mini Preferans: the rules' ``ranks`` option (a short pack, the same rules), in the engine
and in the research environment; the full pack stays as it was."""

from __future__ import annotations

import json
import random

import pytest

from preferans.cards import DECK, CardSet
from preferans.deal import Deal
from preferans.game import Game
from preferans.rules import Rules, RulesError


def test_the_pack_of_each_size():
    full, five, two = (Rules.preset("sochi", ranks=r) for r in (8, 5, 2))
    assert Rules.preset("sochi").ranks == 8
    assert (full.tricks, five.tricks, two.tricks) == (10, 6, 2)
    assert (full.missing_tricks, five.missing_tricks, two.missing_tricks) == (0, 4, 8)
    assert (full.lowest_level, five.lowest_level, two.lowest_level) == (6, 6, 9)
    assert CardSet(two.pack_mask).to_list() == ["AS", "KS", "AC", "KC", "AD", "KD", "AH", "KH"]
    assert len(CardSet(five.pack_mask)) == 20 and full.pack_mask == 0xFFFFFFFF


def test_the_pack_of_one_suit():
    """``suits`` 1 with five ranks: the ten to the ace of spades, one card a hand, one trick a
    deal (the tenth level the lowest that needs it), the talon still two cards."""
    one = Rules.preset("sochi", ranks=5, suits=1)
    assert Rules.preset("sochi").suits == 4
    assert (one.tricks, one.missing_tricks, one.lowest_level) == (1, 9, 10)
    assert CardSet(one.pack_mask).to_list() == ["AS", "KS", "QS", "JS", "10S"]
    with pytest.raises(RulesError, match="suits=1 needs ranks=5"):
        Rules.preset("sochi", ranks=2, suits=1)
    with pytest.raises(RulesError, match="ranks"):
        Rules.preset("sochi", ranks=5, suits=1, players=4)
    with pytest.raises(RulesError):
        Rules.preset("sochi", ranks=5, suits=2)


def test_a_short_pack_is_for_three_players_of_the_plain_game():
    for bad in ({"players": 4}, {"players": 2}):
        with pytest.raises(RulesError, match="ranks=2"):
            Rules.preset("sochi", ranks=2, **bad)
    with pytest.raises(RulesError):
        Rules.preset("sochi", ranks=3)
    with pytest.raises(RulesError, match="ranks"):
        Rules.preset("racing-22", ranks=2)


def test_the_full_pack_deals_as_before():
    """``Deal.shuffle`` with the full pack draws the same cards from the same generator."""
    rules = Rules.preset("sochi")
    for seed in range(20):
        deal = Deal.shuffle(rules, seed % 3, random.Random(seed))
        cards = list(DECK)
        random.Random(seed).shuffle(cards)
        assert [h.mask for h in deal.hands] == [CardSet(cards[k:k + 10]).mask
                                                for k in (0, 10, 20)]
        assert list(deal.talon) == cards[30:32]


@pytest.mark.parametrize(("ranks", "suits"), [(2, 4), (5, 4), (5, 1)])
def test_a_short_pack_deals_plays_and_scores_whole_deals(ranks, suits):
    rules = Rules.preset("sochi", ranks=ranks, suits=suits)
    rng = random.Random(ranks + suits)
    kinds = set()
    for number in range(80):
        game = Game(rules, first_dealer=number % 3, seed=number)
        while not game.finished_deals:
            if game.deal is None:
                deal = Deal.shuffle(rules, game.dealer, rng)
                game.start_deal([h.to_list() for h in deal.hands], [str(c) for c in deal.talon])
            legal = game.deal.legal_actions()
            if game.deal.phase.value == "auction":  # some all-passes, some misères
                wanted = {0: "PASS", 1: "MISERE"}.get(number % 4)
                legal = [a for a in legal if str(a) in (wanted, "PASS")] if wanted else legal
            game.apply(rng.choice(legal))
        done = game.finished_deals[-1]
        assert all(len(h) == rules.tricks for h in done.initial_hands)
        assert not (sum(h.mask for h in done.initial_hands) & ~rules.pack_mask)
        outcome = done.outcome()
        kinds.add(outcome.kind)
        if outcome.kind == "contract":
            assert sum(outcome.tricks) == 10
            assert outcome.tricks[outcome.declarer] >= rules.missing_tricks
        elif outcome.kind in ("misere", "allpass"):
            assert sum(outcome.tricks) == rules.tricks
        assert sum(game.sheet.balance()) == 0
        again = Game.from_record(game.to_record())
        assert again.sheet.balance() == game.sheet.balance()
    assert {"contract", "allpass", "misere"} <= kinds


def test_a_mini_contract_counts_the_declarer_the_ranks_left_out():
    """9♠ with two cards a hand needs one trick of the two; the lone whister owes one trick
    (the quota of a nine): taking none, he pays for the missing trick as in the full game."""
    rules = Rules.preset("sochi", ranks=2)
    game = Game(rules, first_dealer=2)
    game.start_deal([["AS", "AC"], ["KS", "AD"], ["KC", "AH"]], ["KD", "KH"])
    assert [str(a) for a in game.deal.legal_actions()][:2] == ["MISERE", "9S"]
    for token in ("9S", "PASS", "PASS", "DISCARD KD KH", "9S", "WHIST", "PASS", "CLOSED",
                  "AS", "KS", "KC", "AC", "AD", "AH"):
        game.apply(token)
    outcome = game.finished_deals[-1].outcome()
    assert outcome.tricks == (10, 0, 0)
    assert game.sheet.pool == [8, 0, 0]
    assert game.sheet.mountain == [0, 8, 0]


def test_a_card_outside_the_pack_is_refused():
    rules = Rules.preset("sochi", ranks=2)
    with pytest.raises(ValueError, match="not in the pack"):
        Deal(rules, 0, [["AS", "AC"], ["KS", "AD"], ["KC", "7H"]], ["KD", "KH"])
    with pytest.raises(ValueError, match="not 2"):
        Deal(rules, 0, [["AS", "AC", "AH"], ["KS", "AD"], ["KC"]], ["KD", "KH"])


def test_the_web_table_does_not_offer_a_short_pack():
    from preferans.server.lang.house_rules import editor_schema, rules_from_settings

    assert not {"ranks", "suits"} & {e["name"] for e in editor_schema()}
    with pytest.raises(RulesError, match="research"):
        rules_from_settings({"preset": "sochi", "ranks": 2})
    with pytest.raises(RulesError, match="research"):
        rules_from_settings({"preset": "sochi", "ranks": 5, "suits": 1})


# --- the research environment ----------------------------------------------------------------
pyspiel = pytest.importorskip("pyspiel")


@pytest.mark.parametrize("ranks", [2, 5])
def test_openspiel_random_simulation_of_mini_preferans(ranks):
    import preferans.env  # noqa: F401

    game = pyspiel.load_game("python_preferans", {"ranks": ranks})
    assert game.new_initial_state().chance_outcomes()[0][1] == pytest.approx(1 / (4 * ranks))
    pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False)
    same = pyspiel.load_game("python_preferans",
                             {"rules": json.dumps({"preset": "leningrad", "ranks": ranks})})
    pyspiel.random_sim_test(same, num_sims=10, serialize=True, verbose=False)
    pulya = pyspiel.load_game("python_preferans", {"ranks": ranks, "pulya": 10, "max_deals": 40})
    pyspiel.random_sim_test(pulya, num_sims=1, serialize=True, verbose=False)


def test_fewer_bids_as_a_game_parameter():
    """``bids`` N offers the lowest N bids of the ladder, in the auction and as the
    contract named; misère and the rest of the rules stay."""
    import preferans.env  # noqa: F401
    from preferans.env import spec

    def names(state):
        return [state.action_to_string(state.current_player(), a)
                for a in state.legal_actions()]

    game = pyspiel.load_game("python_preferans", {"ranks": 5, "suits": 1, "bids": 1,
                                                  "seed": 3})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert names(state) == ["10S", "MISERE", "PASS"]
    with pytest.raises(ValueError, match="not offered"):
        state.apply_action(spec.ACTION_NAMES.index("10C", spec.FIRST_BID))  # the bid
    state.apply_action(spec.ACTION_NAMES.index("10S", spec.FIRST_BID))
    while "10S" not in names(state) or state.core.game.deal.phase.value != "contract":
        state.apply_action(state.legal_actions()[0])  # the others pass, the discard
    assert names(state) == ["10S"]  # the contract named: the one bid offered
    full = pyspiel.load_game("python_preferans", {"bids": 2})
    state = full.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert names(state) == ["6S", "6C", "MISERE", "PASS"]
    assert not state.on_core  # fewer bids: the Python engine plays it
    with pytest.raises(ValueError, match="bids"):
        pyspiel.load_game("python_preferans", {"bids": 26})


def test_our_levels_refuse_a_short_pack_clearly():
    import preferans.env  # noqa: F401
    from preferans.env.openspiel import make_bot

    game = pyspiel.load_game("python_preferans", {"ranks": 2})
    make_bot(game, 0, "random")
    with pytest.raises(ValueError, match="full pack"):
        make_bot(game, 0, "easy")


def _example(name: str = "cfr_mini_preferans.py"):
    import runpy
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "examples" / name
    return runpy.run_path(str(path))


def test_cfr_on_mini_preferans_drives_nashconv_down():
    """The tiny configuration: Mini Preferans, one seeded deal, from the position after
    ``9S PASS PASS`` (the discard, the contract, the defence and both tricks: 7,180 nodes).
    OpenSpiel's CFR takes NashConv from the uniform policy's to a small part of it."""
    figures = _example()["solve"](1, ["9S", "PASS", "PASS"], 15, (5, 10), verbose=False)
    values = [v for _, v in figures]
    assert values[0] > 50  # whists: the uniform policy is far from an equilibrium
    assert values == sorted(values, reverse=True)
    assert values[-1] < 0.2 * values[0]


@pytest.mark.slow
def test_cfr_solves_the_whole_one_suit_game_with_its_deals():
    """The whole game of one suit with one bid offered (every one of the 120 deals a chance
    outcome: 69,206 nodes) is small enough for tabular CFR: NashConv falls from the uniform
    policy's as the iterations go (``examples/cfr_mini_whole.py``; its 200 iterations are
    in docs/research.md)."""
    result = _example("cfr_mini_whole.py")["solve"](12, (4, 8), verbose=False)
    assert result["nodes"] == 69206
    values = [v for _, v in result["curve"]]
    assert values[0] > 50  # whists: the uniform policy
    assert values[1] < 0.75 * values[0] and values[-1] < 0.3 * values[0]
    assert values[1:] == sorted(values[1:], reverse=True)


def test_the_exported_tree_is_the_game():
    """The EFG tree has the game's information states, actions and returns: a policy that
    always takes the first legal action gets the same returns in both."""
    from preferans.env.efg import to_efg

    game, state = _example()["position"](1, ["9S", "PASS", "PASS"])
    tree = to_efg(game, state)
    efg = pyspiel.load_efg_game(tree.text)
    assert len(tree.infosets) == 4190 and tree.nodes == 7180
    ours, theirs = state.clone(), efg.new_initial_state()
    while not ours.is_terminal():
        player = ours.current_player()
        names = [ours.action_to_string(player, a) for a in ours.legal_actions()]
        assert [theirs.action_to_string(player, a) for a in theirs.legal_actions()] == names
        ours.apply_action(ours.legal_actions()[-1])
        theirs.apply_action(theirs.legal_actions()[-1])
    assert theirs.is_terminal() and theirs.returns() == pytest.approx(ours.returns())
    with pytest.raises(ValueError, match="more than 100 nodes"):
        to_efg(game, state, max_nodes=100)


def test_pettingzoo_plays_mini_preferans():
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    import preferans.env

    api_test(preferans.env.pettingzoo_env(ranks=2, views=False), num_cycles=200)
    env = preferans.env.pettingzoo_env(ranks=5, pulya=6, max_deals=30)
    env.reset(seed=4)
    rng = random.Random(4)
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        mask = obs["action_mask"]
        env.step(None if terminated or truncated else
                 rng.choice([i for i, m in enumerate(mask) if m]))
    assert env.core.over and len(env.core.game.finished_deals) >= 1
