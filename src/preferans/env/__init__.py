"""Preferans for researchers: an OpenSpiel game, a PettingZoo environment, our players as
bots (``pip install preferans[research]``).

Importing the package registers the OpenSpiel game ``python_preferans``::

    import pyspiel
    import preferans.env
    game = pyspiel.load_game("python_preferans", {"rules": "sochi"})

    env = preferans.env.pettingzoo_env(rules="rostov", pulya=10)

The action space, the tensors' layouts and how to evaluate an agent against our levels
(:func:`preferans.env.evaluate.duplicate`) are in ``docs/research.md``; Mini Preferans
(``ranks=2``) and writing a small game's tree for tabular methods (:mod:`.efg`) too.
:mod:`.core` (the state over the engine's game) and :mod:`.spec` (the action ids) need
neither OpenSpiel nor PettingZoo.
"""

from __future__ import annotations

from typing import Any

from .core import CHANCE, TERMINAL, EnvConfig, PreferansCore
from .spec import NUM_ACTIONS

try:
    from . import openspiel as _openspiel
except ImportError as exc:  # pragma: no cover - only without the extra
    if exc.name not in ("pyspiel", "numpy"):
        raise
    _openspiel = None  # type: ignore[assignment]

SHORT_NAME = "python_preferans"


def load_game(**params: Any) -> Any:
    """``pyspiel.load_game("python_preferans", params)``."""
    if _openspiel is None:  # pragma: no cover
        raise ImportError("OpenSpiel is not installed: pip install 'preferans[research]'")
    import pyspiel

    return pyspiel.load_game(SHORT_NAME, params)


def pettingzoo_env(**params: Any) -> Any:
    """The PettingZoo AEC environment (:class:`.aec.PreferansAEC`) with these parameters
    (:class:`EnvConfig`'s, plus ``observation="observation"`` or
    ``"information_state"`` and ``render_mode``)."""
    from .aec import PreferansAEC

    return PreferansAEC(**params)


__all__ = ["CHANCE", "NUM_ACTIONS", "SHORT_NAME", "TERMINAL", "EnvConfig", "PreferansCore",
           "load_game", "pettingzoo_env"]
