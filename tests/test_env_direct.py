"""The OpenSpiel game answers Python callers directly (``PreferansState.legal_actions``,
``observation_tensor``, ``information_state_tensor``, the strings, ``is_chance_node``): the
same values as OpenSpiel's own way through C++ (``pyspiel.State.<method>(state, ...)``,
which C++ algorithms take), on random states of the core and of the engine, a whole pulya
and a one-suit mini game included; and the extension's check (:mod:`preferans.env.extension`)."""

from __future__ import annotations

import random
import sys
import types

import numpy as np
import pyspiel
import pytest

import preferans.env  # registers the game
from preferans.env import extension
from preferans.env.deal_core import float_list

PARAMS = [
    {"rules": "sochi"},
    {"rules": "leningrad"},
    {"rules": "rostov"},
    {"rules": "sochi", "pulya": 4},
    {"rules": "sochi", "suits": 1, "ranks": 5},
]

CPP = pyspiel.State  # the bindings, through C++ and back


def states(params: dict, deals: int, seed: int):
    game = pyspiel.load_game("python_preferans", params)
    rng = random.Random(seed)
    for _ in range(deals):
        state = game.new_initial_state()
        yield state
        while not state.is_terminal():
            if CPP.is_chance_node(state):
                outcomes = CPP.legal_actions(state)
                state.apply_action(rng.choice(outcomes))
            else:
                state.apply_action(rng.choice(CPP.legal_actions(state)))
            yield state


@pytest.mark.parametrize("params", PARAMS, ids=lambda p: "-".join(map(str, p.values())))
def test_python_callers_get_what_cpp_gives(params: dict) -> None:
    seen = {"chance": 0, "decision": 0, "terminal": 0, "core": 0, "engine": 0}
    for n, state in enumerate(states(params, 6, 11)):
        seen["core" if state.on_core else "engine"] += 1
        assert state.is_chance_node() == CPP.is_chance_node(state)
        assert state.is_player_node() == CPP.is_player_node(state)
        assert state.legal_actions() == CPP.legal_actions(state)
        for seat in range(3):
            assert state.legal_actions(seat) == CPP.legal_actions(state, seat)
        if state.is_terminal():
            seen["terminal"] += 1
            continue
        if state.is_chance_node():
            seen["chance"] += 1
            with pytest.raises(pyspiel.SpielError):
                state.observation_tensor()  # a chance node has no player to observe
        else:
            seen["decision"] += 1
            assert state.observation_tensor() == CPP.observation_tensor(state)
        if n % 7:  # the information state and strings are the engine's: a sample of them
            continue
        for seat in range(3):
            assert state.observation_tensor(seat) == CPP.observation_tensor(state, seat)
            assert state.information_state_tensor(seat) == \
                CPP.information_state_tensor(state, seat)
            assert state.observation_string(seat) == CPP.observation_string(state, seat)
            assert state.information_state_string(seat) == \
                CPP.information_state_string(state, seat)
    assert seen["chance"] and seen["decision"] and seen["terminal"] == 6, seen


def test_the_core_stays_on_for_the_direct_tensors() -> None:
    """Reading the tensors directly keeps a state on the C core (a string moves it to the
    engine, as before)."""
    for state in states({"rules": "sochi"}, 2, 3):
        if state.is_chance_node():
            continue
        if not state.is_terminal():
            state.observation_tensor()
            state.legal_actions()
        state.information_state_tensor(0)
        assert state.on_core
    state.information_state_string(0)
    assert not state.on_core


def test_pseudo_players_are_refused_as_cpp_refuses_them() -> None:
    game = pyspiel.load_game("python_preferans")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    for player in (-1, 3):
        with pytest.raises(pyspiel.SpielError):
            state.observation_tensor(player)
        with pytest.raises(pyspiel.SpielError):
            state.information_state_string(player)
    with pytest.raises(pyspiel.SpielError):
        state.legal_actions(-1)


def test_float_list_shares_zero_and_one_and_keeps_the_rest() -> None:
    tensor = np.array([0.0, 1.0, 0.25, -3.5, 1.0, 0.0], np.float32)
    values = float_list(tensor)
    assert values == [0.0, 1.0, 0.25, -3.5, 1.0, 0.0]
    assert all(type(v) is float for v in values)
    with pytest.raises((ValueError, TypeError)):
        float_list(np.zeros(3, np.float64))


def test_a_stale_extension_is_named_and_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """An extension built before its source grew a name warns and is not used (the
    environment then runs on the engine), rather than failing later or silently."""
    stale = types.ModuleType("preferans.env._vector")
    stale.Deal = object  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "preferans.env._vector", stale)
    monkeypatch.setattr(preferans.env, "_vector", stale, raising=False)
    with pytest.warns(RuntimeWarning, match="older than its source.*float_list.*make build"):
        assert extension.load() is None


def test_the_built_extension_has_every_name() -> None:
    assert extension.VECTOR is not None, "the extension is not built here"
    assert extension.load() is extension.VECTOR
