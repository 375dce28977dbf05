"""Preferans as a PettingZoo AEC environment with action masks.

>>> from preferans.env import pettingzoo_env
>>> env = pettingzoo_env(rules="sochi", seed=5)
>>> env.reset(seed=1)
>>> env.agent_selection in env.possible_agents
True
>>> obs, reward, terminated, truncated, info = env.last()
>>> int(obs["action_mask"].sum()) > 0
True

Agents ``player_0`` … ``player_2`` are the seats. Chance (the deal) is resolved inside the
environment: with ``seed=-1`` the cards come from ``reset(seed=...)``'s generator, with a
seed of the game's own (:class:`~preferans.env.core.EnvConfig`) they are that match's.
Each observation is ``{"observation": tensor, "action_mask": int8 mask}``, the tensor the
observation tensor (``observation="observation"``, the default) or the information-state
tensor (``observation="information_state"``) of :mod:`preferans.env.tensors`. A seat's view
(the engine's observation, which our players read) is ``env.view(agent)``; with
``views=True`` the agent to act also finds it in ``infos[agent]["view"]`` at every step.

An episode of one deal whose rules the C core plays (:mod:`.deal_core`) steps the core: the
tensors, masks and rewards are the engine's, several times faster. A view (and ``env.core``,
``state()``, ``render()``, ``to_record()``) replays the episode on the Python engine, which
then steps it; ``views=True`` therefore steps the engine throughout.

Rewards are whists: the change of each seat's balance when a deal is scored, so an
episode's rewards add up to its result. A pulya stopped by ``max_deals`` ends in
truncation rather than termination.
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from . import spec, tensors
from .core import CHANCE, PLAYERS, EnvConfig, PreferansCore
from .deal_core import CoreDeal, Fresh

AGENTS = tuple(f"player_{i}" for i in range(PLAYERS))


def _box(pieces: tuple[tuple[str, tuple[int, ...]], ...], size: int) -> gymnasium.spaces.Box:
    low = np.zeros(size, np.float32)
    high = np.ones(size, np.float32)
    at = 0
    for name, shape in pieces:
        n = int(np.prod(shape))
        if name == "sheet":
            low[at: at + n] = -np.inf
            high[at: at + n] = np.inf
        at += n
    return gymnasium.spaces.Box(low, high, dtype=np.float32)


class PreferansAEC(AECEnv):
    """The AEC environment (build it with :func:`preferans.env.pettingzoo_env`)."""

    metadata: ClassVar[dict[str, Any]] = {"name": "preferans_v0", "render_modes": ["human", "ansi"],
                "is_parallelizable": False}

    def __init__(self, observation: str = "observation", views: bool = False,
                 render_mode: str | None = None, **params: Any) -> None:
        super().__init__()
        if observation not in ("observation", "information_state"):
            raise ValueError("observation is 'observation' or 'information_state'")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode {render_mode!r}: one of {self.metadata['render_modes']}")
        self.config = EnvConfig.from_params(params)
        self.observation_kind = observation
        self.views = views
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        if observation == "observation":
            obs_box = _box(tensors.OBSERVATION_PIECES, tensors.OBSERVATION_SIZE)
            self._tensor = tensors.observation_tensor
        else:
            obs_box = _box(tensors.INFORMATION_STATE_PIECES, tensors.INFORMATION_STATE_SIZE)
            self._tensor = tensors.information_state_tensor
        space = gymnasium.spaces.Dict({
            "observation": obs_box,
            "action_mask": gymnasium.spaces.Box(0, 1, (spec.NUM_ACTIONS,), np.int8),
        })
        self.observation_spaces = dict.fromkeys(AGENTS, space)
        self.action_spaces = {a: gymnasium.spaces.Discrete(spec.NUM_ACTIONS) for a in AGENTS}
        self.state_space = _box(tensors.STATE_PIECES, tensors.STATE_SIZE)
        self._rng = np.random.default_rng()
        self._fresh = Fresh(self.config)
        self._initial = self._fresh.engine
        self._on_core = not views
        """Episodes step the C core where it plays the rules (:mod:`.deal_core`), unless
        every step asks for a view (the views are the engine's)."""
        self._c: PreferansCore | CoreDeal = self._initial.clone()

    @property
    def core(self) -> PreferansCore:
        """The episode's state on the Python engine (replayed from the C core the first
        time it is asked for; the episode then steps the engine)."""
        c = self._c
        if type(c) is CoreDeal:
            c = self._c = c.engine()
        return c  # type: ignore[return-value]

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    # --- the AEC API ---------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self._c = self._fresh.new() if self._on_core else self._initial.clone()
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self._deal_chance()
        self._select()

    def _deal_chance(self) -> None:
        core = self._c
        while core.current_player() == CHANCE:
            outcomes = core.chance_outcomes()
            if len(outcomes) == 1:
                core.apply(outcomes[0][0])
            else:
                core.apply(outcomes[int(self._rng.integers(len(outcomes)))][0])

    def _select(self) -> None:
        player = self._c.current_player()
        if player >= 0:
            self.agent_selection = AGENTS[player]
            if self.views:
                self.infos[self.agent_selection] = {"view": self.core.view(player)}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = AGENTS.index(agent)
        mask = np.zeros(spec.NUM_ACTIONS, np.int8)
        c = self._c
        if c.current_player() == seat:
            mask[c.legal_actions()] = 1
        if type(c) is CoreDeal:
            if self.observation_kind == "observation":
                tensor = c.observation_tensor(seat, np.empty(tensors.OBSERVATION_SIZE,
                                                             np.float32))
            else:
                tensor = c.information_state_tensor(seat, np.empty(
                    tensors.INFORMATION_STATE_SIZE, np.float32))
        else:
            tensor = self._tensor(c, seat)
        return {"observation": tensor, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        if self.views:
            self.infos[agent] = {}
        core = self._c
        core.apply(int(action))
        self._deal_chance()
        rewards = core.last_rewards
        self.rewards = {a: float(rewards[i]) for i, a in enumerate(AGENTS)}
        if core.over:
            done = dict.fromkeys(AGENTS, True)
            if core.truncated:
                self.truncations = done
            else:
                self.terminations = done
        else:
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def state(self) -> np.ndarray:
        """The global state (:data:`~preferans.env.tensors.STATE_PIECES`): what every seat
        sees, seats absolute, and every hand, the talon as dealt and the discards; for a
        centralised critic, never for an agent's policy."""
        return tensors.state_tensor(self.core)

    def render(self) -> str | None:
        text = self._text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _text(self) -> str:
        player = self.core.current_player()
        seat = player if player >= 0 else 0
        return tensors.observation_string(self.core, seat)

    def close(self) -> None:
        pass

    # --- beyond the API ------------------------------------------------------------------
    def view(self, agent: str) -> dict[str, Any]:
        """``agent``'s view now: what its seat may see, as our players read it
        (:meth:`~preferans.env.core.PreferansCore.view`); the episode moves onto the engine."""
        return self.core.view(AGENTS.index(agent))

    def to_record(self) -> dict[str, Any]:
        """The game so far as a ``preferans-record/1`` (``preferans replay`` scores it)."""
        return self.core.to_record()

    def policy(self, level: str, seed: int = 0, budget: float | str | None = None) -> Any:
        """One of our levels as a policy for this environment's rules
        (:class:`~preferans.env.bots.PreferansPolicy`)."""
        from .bots import PreferansPolicy

        return PreferansPolicy(level, self.config, seed, budget, env=self)
