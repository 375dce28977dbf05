"""Our players as agents of the environment: Easy, Normal, Hard and Crazy (and ``random``).

Each decides from the seat's observation alone (:meth:`PreferansCore.view`: the engine's
observation of that seat, as :func:`preferans.players.make_player`'s players read it at the
web table and in matches) and answers with an action id. A discard is two steps: the
player names both cards at the first; the second step plays the card it kept.

- :class:`LevelAgent`: the player behind both, ``act(view, legal) -> action id``.
- :class:`~preferans.env.openspiel.PreferansBot`: a ``pyspiel.Bot``
  (:func:`~preferans.env.openspiel.make_bot`).
- :class:`PreferansPolicy`: a PettingZoo policy, ``policy(observation, info) -> action``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..actions import Action, ActionKind
from ..cards import Card
from ..players import make_player
from ..rules import Rules
from . import spec
from .core import EnvConfig

_KIND_BY_PHASE = {"play": ActionKind.PLAY, "contract": ActionKind.CONTRACT}


def token_to_ids(token: str, view: dict[str, Any]) -> tuple[int, int | None]:
    """The action id(s) of a player's token in the phase of ``view``: a discard gives its
    two steps, anything else one id (and ``None``)."""
    action = Action.parse(token)
    phase = view.get("phase")
    kind = _KIND_BY_PHASE.get(phase)  # type: ignore[arg-type]
    if kind is not None:
        action = action.as_kind(kind)
    elif action.kind is ActionKind.CONTRACT:
        action = action.as_kind(ActionKind.BID)
    if action.kind is ActionKind.DISCARD:
        lo, hi = spec.discard_steps(action)
        return lo, hi
    if action.kind is ActionKind.SECOND:
        legal = [Action.parse(t) for t in view.get("legal", [])]
        return spec.FIRST_SECOND + legal.index(action), None
    return spec.action_id(action), None


class LevelAgent:
    """One of our levels playing one seat (``level``: ``easy``, ``normal``, ``hard``,
    ``crazy``, ``random``, or any name :func:`preferans.players.make_player` reads).

    ``budget``: seconds per decision; ``None`` (the default) plays without a clock, so
    that a run is the same on any machine; ``"level"`` uses the level's own clock.
    """

    def __init__(self, level: str, rules: Rules | str | EnvConfig = "sochi", seed: int = 0,
                 budget: float | str | None = None) -> None:
        if isinstance(rules, EnvConfig):
            rules = rules.make_rules()
        elif isinstance(rules, str):
            rules = Rules.preset(rules)
        if (rules.ranks != 8 or rules.suits != 4) and level != "random":
            raise ValueError(f"our {level} player plays the full pack, not Mini Preferans's "
                             f"{rules.ranks} ranks (use 'random' or your own agent)")
        self.level = level
        self.rules = rules
        self.player = make_player(level, rules, seed, budget=budget)
        self._kept: tuple[int, int] | None = None
        """(first card, second card) of the discard being made."""

    def reset(self) -> None:
        self._kept = None

    def act(self, view: dict[str, Any], legal: list[int] | None = None) -> int:
        """The action id for the seat whose ``view`` this is (``legal``: the legal ids, to
        check the answer against)."""
        pending = view.get("pending_discard")
        if pending is not None:
            first = Card.parse(pending).index
            if self._kept is not None and self._kept[0] == first:
                second = self._kept[1]
            else:  # asked mid-discard without having started it: choose again
                lo, hi = token_to_ids(self.player.choose(_without_pending(view)), view)
                second = hi if lo == first else lo if hi == first else -1
            self._kept = None
            if legal is not None and second not in legal:
                second = min(legal)
            return second  # type: ignore[return-value]
        lo, hi = token_to_ids(self.player.choose(view), view)
        if hi is not None:
            self._kept = (lo, hi)
        if legal is not None and lo not in legal:
            raise ValueError(f"{self.level} chose {spec.ACTION_NAMES[lo]}, not legal here")
        return lo


def _without_pending(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "pending_discard"}


class PreferansPolicy:
    """A PettingZoo policy playing one of our levels: ``policy(observation, info)`` returns
    the action, reading only the seat's view (and the mask in
    ``observation["action_mask"]``): ``info["view"]`` where the environment gives it
    (``views=True``), else ``env.view(agent)`` of the ``env`` it was made for
    (``env.policy(level)`` passes it).

    One policy object per seat (it remembers the second card of its discard).
    """

    def __init__(self, level: str, rules: Rules | str | EnvConfig = "sochi", seed: int = 0,
                 budget: float | str | None = None, env: Any = None) -> None:
        self.agent = LevelAgent(level, rules, seed, budget)
        self.env = env

    def __call__(self, observation: dict[str, np.ndarray], info: dict[str, Any]) -> int:
        mask = observation["action_mask"]
        legal = [int(i) for i in np.flatnonzero(mask)]
        view = info.get("view")
        if view is None:
            if self.env is None:
                raise ValueError("no view in info: make the environment with views=True, or "
                                 "the policy with env.policy(level) (or env=...)")
            view = self.env.view(self.env.agent_selection)
        return self.agent.act(view, legal)
