"""Differential: the environment's returns are ``preferans replay``'s balance of the same game
(its record, written to a file and scored by the command line), and ``preferans match``'s
result for the same board and players."""

from __future__ import annotations

import json
import pickle
import random

import pytest
from typer.testing import CliRunner

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

import preferans.env  # noqa: E402,F401
from preferans.cli import app  # noqa: E402
from preferans.env.openspiel import make_bot  # noqa: E402
from preferans.match import play_board  # noqa: E402
from preferans.record import read_record, replay  # noqa: E402
from preferans.rules import Rules  # noqa: E402

runner = CliRunner()


def _replay_balance(record: dict, tmp_path, name: str) -> list[float]:
    """``preferans replay FILE --json``'s balance (the sheet JSON writes numbers to three
    decimals), checked against the exact balance of :func:`preferans.record.replay`, which
    is what the command scores; the exact one is returned."""
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    printed = [float(x) for x in json.loads(result.stdout)["balance"]]
    exact = [float(x) for x in replay(read_record(json.loads(path.read_text()))).sheet.balance()]
    assert printed == pytest.approx(exact, abs=5e-4)
    return exact


def _play_randomly(game, rng: random.Random):
    """Random play that also goes through clones, pickles and OpenSpiel serialisation."""
    state = game.new_initial_state()
    while not state.is_terminal():
        roll = rng.random()
        if roll < 0.02:
            state = state.clone()
        elif roll < 0.03:
            state = pickle.loads(pickle.dumps(state))
        elif roll < 0.035:
            _, state = pyspiel.deserialize_game_and_state(
                pyspiel.serialize_game_and_state(game, state))
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("preset", ["sochi", "leningrad", "rostov", "piter", "vmk",
                                    "kazakhstan", "finn", "moscow"])
def test_one_deal_returns_equal_the_replayed_balance(preset, tmp_path):
    game = pyspiel.load_game("python_preferans", {"rules": preset})
    rng = random.Random(preset)
    for k in range(12):
        state = _play_randomly(game, rng)
        assert state.returns() == pytest.approx(
            _replay_balance(state.to_record(), tmp_path, f"{preset}{k}"), abs=0)


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["sochi", "leningrad", "rostov"])
def test_pulya_returns_equal_the_replayed_balance(preset, tmp_path):
    game = pyspiel.load_game("python_preferans", {"rules": preset, "pulya": 10})
    rng = random.Random(preset)
    for k in range(3):
        state = _play_randomly(game, rng)
        assert state.core.game.finished
        record = state.to_record()
        assert len(record["deals"]) == len(state.core.game.finished_deals)
        assert state.returns() == pytest.approx(
            _replay_balance(record, tmp_path, f"{preset}{k}"), abs=0)


def test_a_truncated_pulya_returns_the_early_stop_balance(tmp_path):
    game = pyspiel.load_game("python_preferans", {"rules": "sochi", "pulya": 30,
                                                  "max_deals": 2})
    state = _play_randomly(game, random.Random(2))
    assert state.core.truncated and len(state.core.game.finished_deals) == 2
    assert state.returns() == pytest.approx(
        _replay_balance(state.to_record(), tmp_path, "short"), abs=0)


def test_bots_on_a_seeded_board_play_as_preferans_match_does():
    """The seed policy deals ``preferans match``'s board; our players, fed the seat's view
    through the environment, make the same game as the match (same record, same result)."""
    rules = Rules.preset("sochi")
    seed, board = 9, 2
    result = play_board(["easy", "easy", "easy"], rules, seed, board)
    record = result.records[0]["record"]
    game = pyspiel.load_game("python_preferans", {"rules": "sochi", "seed": seed,
                                                  "board": board})
    bots = [make_bot(game, p, "easy") for p in range(3)]
    for p, bot in enumerate(bots):  # the match's seeds for rotation 0
        from preferans.players import make_player

        bot.agent.player = make_player("easy", rules, seed=seed * 7919 + board * 31 + p)
    state = game.new_initial_state()
    # Easy draws its carelessness from a digest of the observation, the seats' names too:
    # name the seats as the match does
    state.core.game.players = tuple(record["players"])
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(bots[state.current_player()].step(state))
    assert state.to_record()["deals"][0]["actions"] == record["deals"][0]["actions"]
    assert state.returns() == pytest.approx([r.result for r in result.plays[0]])
