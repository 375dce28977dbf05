"""OpenSpiel's random simulations of whole pulya-10 games of each preset family, and of
every other 3-player preset (the action space covers each)."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

import preferans.env  # noqa: E402,F401  (registers the game)
from preferans.rules import PRESETS, VARIANTS, Rules  # noqa: E402
from test_env_openspiel import FAMILIES, _load, _python_sim  # noqa: E402


@pytest.mark.slow
@pytest.mark.parametrize("preset", FAMILIES)
def test_openspiel_random_simulations_of_whole_pulya_10_games(preset):
    game = _load(rules=preset, pulya=10)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    results = _python_sim(game, random.Random(preset), games=1)
    assert any(r != 0 for r in results[0])


def _other_presets() -> list[str]:
    """Every 3-player preset but the three families, Rogue with three players too."""
    return [*(p for p in (*PRESETS, *VARIANTS)
              if Rules.preset(p).players == 3 and p not in FAMILIES),
            '{"preset": "rogue-large", "players": 3}']


STRUCTURAL = ("vmk", "racing-22", "classical-1971", '{"preset": "rogue-large", "players": 3}')
"""Presets whose game, not only its deals, has its own structure (rounds, halves, lists,
the overflow choice): played as whole games too."""


@pytest.mark.slow
@pytest.mark.parametrize("preset", _other_presets())
def test_every_three_player_preset_maps_onto_the_action_space(preset):
    """Every action any 3-player preset offers has an id (blind and hand bids, Rogue's
    TRICKS, Classical's half-time offers, POOL / HILL, RESIGN, REFUSE ...)."""
    pyspiel.random_sim_test(_load(rules=preset), num_sims=4, serialize=False, verbose=False)
    if preset in STRUCTURAL:
        pyspiel.random_sim_test(_load(rules=preset, pulya=6, max_deals=20), num_sims=1,
                                serialize=False, verbose=False)
