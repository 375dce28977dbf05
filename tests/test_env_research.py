"""What a researcher met (issue 50): rules given as JSON survive OpenSpiel's game string,
serialisation and pickling; observers for each ``IIGObservationType``; ISMCTS through
``evaluate_bots`` and ``duplicate()``; PettingZoo's global ``state()``; a pulya's bounded
information state."""

from __future__ import annotations

import json
import pickle
import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

import preferans.env  # noqa: E402
from preferans.env import spec, tensors  # noqa: E402
from test_env_openspiel import _load, _python_sim, advance  # noqa: E402

JSON_RULES = (
    '{"preset": "sochi", "pool": 20}',
    '{"preset": "rogue-large", "players": 3}',
    json.dumps({"preset": "leningrad", "whist_quota": [4, 2, 1, 1, 0]}),
)


# --- 2. rules as JSON serialise ----------------------------------------------------------------
@pytest.mark.parametrize("rules", JSON_RULES)
def test_a_game_with_rules_as_json_round_trips_through_its_string(rules):
    game = _load(rules=rules)
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert again.config.make_rules() == game.config.make_rules()
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    state = advance(game.new_initial_state(), random.Random(rules), 12)
    text = pyspiel.serialize_game_and_state(game, state)
    new_game, new_state = pyspiel.deserialize_game_and_state(text)
    assert str(new_game) == str(game) and str(new_state) == str(state)
    assert new_state.history() == state.history()
    copy = pickle.loads(pickle.dumps(state))
    assert str(copy) == str(state) and copy.history() == state.history()


def test_rules_with_openspiel_s_own_separators_in_a_string_value_survive():
    """A value with ``,``, ``=``, ``(`` or ``)`` would cut OpenSpiel's game string: the
    game's own string escapes them, and the rules read back are the same."""
    game = _load(rules='{"preset": "sochi", "pool": 20}')
    text = str(game)
    assert text.count("(") == 1 and text.count(")") == 1
    config = preferans.env.EnvConfig.from_params(
        {"rules": '{"preset": "sochi", "name": "house, (a=b)"}'})
    assert "," not in config.rules and "(" not in config.rules and "=" not in config.rules
    assert config.make_rules() == preferans.env.EnvConfig(rules="sochi").make_rules()


def test_equivalent_rules_give_the_same_game_string():
    a = _load(rules='{"preset": "sochi", "pool": 20}')
    b = _load(rules='{"pool": 20,   "preset": "sochi"}')
    assert str(a) == str(b)
    assert str(_load(rules="leningrad")).count("rules=leningrad") == 1


@pytest.mark.parametrize("rules", JSON_RULES[:2])
def test_random_simulation_with_serialisation_on_rules_as_json(rules):
    game = _load(rules=rules)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    _python_sim(game, random.Random(rules), games=2)


def test_a_pulya_with_rules_as_json_serialises_mid_game():
    game = _load(rules='{"preset": "rostov", "pool": 6}', pulya=6, max_deals=30)
    state = advance(game.new_initial_state(), random.Random(3), 80)
    text = pyspiel.serialize_game_and_state(game, state)
    _, new_state = pyspiel.deserialize_game_and_state(text)
    assert str(new_state) == str(state)
    assert new_state.returns() == state.returns()


# --- 3. observers per IIGObservationType ---------------------------------------------------------
def _obs_type(perfect_recall: bool, public: bool, private: str):
    kinds = {"none": pyspiel.PrivateInfoType.NONE,
             "single": pyspiel.PrivateInfoType.SINGLE_PLAYER,
             "all": pyspiel.PrivateInfoType.ALL_PLAYERS}
    return pyspiel.IIGObservationType(perfect_recall=perfect_recall, public_info=public,
                                      private_info=kinds[private])


def _states(game, count: int, seed: int = 0):
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        state = game.new_initial_state()
        advance(state, rng, rng.randint(0, 40))
        out.append(state)
    return out


def _hand_bits(state, player: int) -> set[str]:
    deal = tensors.current_deal(state.core)
    return set() if deal is None else {str(c) for c in deal.hand(player)}


@pytest.mark.parametrize("recall", [False, True])
def test_a_public_observer_shows_no_hand_and_is_the_same_for_every_seat(recall):
    from open_spiel.python.observation import make_observation

    game = _load(rules="sochi")
    observer = make_observation(game, _obs_type(recall, True, "none"))
    assert "hand" not in observer.dict and "dealt_hand" not in observer.dict
    for state in _states(game, 30):
        tensors_, strings = [], []
        for p in range(3):
            observer.set_from(state, p)
            tensors_.append(observer.tensor.copy())
            strings.append(observer.string_from(state, p))
            assert not any(part.startswith(("hand ", "dealt ", "p0", "p1", "p2"))
                           for part in strings[-1].split(" | "))
        assert all(np.array_equal(tensors_[0], t) for t in tensors_[1:])
        assert len(set(strings)) == 1


def _table(state) -> dict:
    deal = tensors.current_deal(state.core)
    return {} if deal is None else deal.observation(0)


def _exposed_cards(state) -> set[str]:
    view = _table(state)
    return {c for cards in view.get("exposed", {}).values() for c in cards}


@pytest.mark.parametrize("recall", [False, True])
def test_a_public_observer_does_not_change_when_hidden_cards_are_swapped(recall):
    """Swap two cards between two hands that no one has shown: the public tensor stays."""
    from open_spiel.python.observation import make_observation

    game = _load(rules="sochi")
    observer = make_observation(game, _obs_type(recall, True, "none"))
    rng = random.Random(11)
    checked = 0
    for _ in range(40):
        history = advance(game.new_initial_state(), rng, rng.randint(0, 30)).history()
        if len(history) < 32:
            continue
        deal = history[:32]
        a, b = 0, 10  # the first card of the first two hands dealt
        swapped = list(deal)
        swapped[a], swapped[b] = swapped[b], swapped[a]
        try:
            other = game.new_initial_state()
            for action in swapped + history[32:]:
                other.apply_action(action)
        except Exception:
            continue  # the swap made a later action illegal
        state = game.new_initial_state()
        for action in history:
            state.apply_action(action)
        cards = {spec.ACTION_NAMES[deal[a]], spec.ACTION_NAMES[deal[b]]}
        if cards & (_exposed_cards(state) | _played(state)):
            continue
        observer.set_from(state, 0)
        first = observer.tensor.copy()
        observer.set_from(other, 0)
        assert np.array_equal(first, observer.tensor)
        assert observer.string_from(state, 1) == observer.string_from(other, 1)
        checked += 1
    assert checked >= 10


def _played(state) -> set[str]:
    view = _table(state)
    out = {c for _, c in view.get("trick", ())}
    for trick in view.get("tricks", ()):
        out |= {c for _, c in trick["cards"]}
    return out | set(view.get("talon") or ())


@pytest.mark.parametrize("recall", [False, True])
def test_a_private_only_observer_shows_the_seat_s_own_cards_and_nothing_public(recall):
    from open_spiel.python.observation import make_observation

    game = _load(rules="sochi")
    observer = make_observation(game, _obs_type(recall, False, "single"))
    assert "hand" in observer.dict and "auction" not in observer.dict
    assert "phase" not in observer.dict
    for state in _states(game, 20, seed=2):
        for p in range(3):
            observer.set_from(state, p)
            held = {spec.ACTION_NAMES[i] for i in np.flatnonzero(observer.dict["hand"])}
            assert held == _hand_bits(state, p)
            text = observer.string_from(state, p)
            assert text.startswith(f"p{p}")


@pytest.mark.parametrize("recall", [False, True])
def test_a_perfect_information_observer_shows_every_hand_and_the_talon(recall):
    from open_spiel.python.observation import make_observation

    game = _load(rules="sochi")
    observer = make_observation(game, _obs_type(recall, True, "all"))
    for state in _states(game, 20, seed=3):
        deal = tensors.current_deal(state.core)
        if deal is None:
            continue
        for p in range(3):
            observer.set_from(state, p)
            for seat in range(3):
                shown = {spec.ACTION_NAMES[i] for i in
                         np.flatnonzero(observer.dict["hands"][seat])}
                assert shown == {str(c) for c in deal.hands[seat]}
            talon = {spec.ACTION_NAMES[i] for i in np.flatnonzero(observer.dict["talon_cards"])}
            assert talon == {str(c) for c in deal.talon}


def test_an_observation_nobody_can_have_is_refused_clearly():
    from open_spiel.python.observation import make_observation

    game = _load()
    with pytest.raises(ValueError, match="neither public nor private"):
        make_observation(game, _obs_type(False, False, "none"))


def test_the_default_observers_are_unchanged():
    game = _load()
    state = _states(game, 1, seed=4)[0]
    p = max(state.current_player(), 0)
    assert len(state.observation_tensor(p)) == tensors.OBSERVATION_SIZE
    assert len(state.information_state_tensor(p)) == tensors.INFORMATION_STATE_SIZE


# --- 4. ISMCTS through evaluate_bots and duplicate() ----------------------------------------
def test_ismcts_goes_through_evaluate_bots():
    from open_spiel.python.algorithms import evaluate_bots

    from preferans.env.openspiel import make_bot, make_ismcts_bot

    game = _load(seed=2, board=1)
    bots = [make_ismcts_bot(game, 0, simulations=10, seed=1),
            make_bot(game, 1, "easy"), make_bot(game, 2, "easy")]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots,
                                          np.random.RandomState(0))
    assert len(returns) == 3 and abs(sum(returns)) < 1e-9


def test_a_raw_ismcts_bot_goes_through_duplicate():
    from open_spiel.python.algorithms import ismcts, mcts

    from preferans.env.evaluate import duplicate

    def agent(game, player):
        return ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                                2.0, 8, random_state=np.random.RandomState(player))

    report = duplicate(agent, "easy", boards=1, seed=5)
    assert report["boards"] == 1 and report["deals"] == 1


# --- 4. PettingZoo state() ----------------------------------------------------------------------
def test_pettingzoo_global_state_holds_every_hand():
    env = preferans.env.pettingzoo_env(rules="sochi", views=False)
    env.reset(seed=3)
    space = env.state_space
    rng = random.Random(0)
    steps = 0
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        state = env.state()
        assert space.contains(state)
        deal = env.core.game.deal
        if deal is not None:
            at = tensors.STATE_AT["hands"]
            for seat in range(3):
                row = state[at + 32 * seat: at + 32 * seat + 32]
                assert {spec.ACTION_NAMES[i] for i in np.flatnonzero(row)} == \
                    {str(c) for c in deal.hands[seat]}
        if terminated or truncated:
            action = None
        else:
            action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        env.step(action)
        steps += 1
    assert steps > 20


# --- 4. a bounded information state in a pulya --------------------------------------------------
def test_a_pulya_s_information_state_does_not_grow_with_the_deals():
    game = _load(rules="sochi", pulya=20, max_deals=16)
    state = game.new_initial_state()
    rng = random.Random(1)
    first_deal: list[int] = []
    late: list[int] = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        p = state.current_player()
        n = len(state.core.game.finished_deals)
        size = len(state.information_state_string(p))
        (first_deal if n == 0 else late if n >= 10 else []).append(size)
        state.apply_action(rng.choice(state.legal_actions()))
    assert late, "the pulya ended before its tenth deal"
    assert max(late) < max(first_deal) + 300


def test_a_pulya_s_information_state_holds_the_sheet_as_numbers():
    game = _load(rules="sochi", pulya=10, seed=4)
    state = game.new_initial_state()
    rng = random.Random(2)
    while not state.is_terminal() and len(state.core.game.finished_deals) < 2:
        advance(state, rng, 1)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    if state.is_terminal():
        pytest.skip("the pulya ended in two deals")
    p = state.current_player()
    text = state.information_state_string(p)
    sheet = state.core.game.sheet
    assert "pool " + " ".join(str(x) for x in sheet.pool) in text
    assert "mountain " + " ".join(str(x) for x in sheet.mountain) in text
    assert "deal 3" in text
