"""N deals at once, as numpy arrays: :class:`VectorEnv`, for reinforcement learning.

Each of the ``num_envs`` environments plays one deal after another (the cards and the dealer
from a seeded generator); every step takes one action id per environment (the fixed ids of
:mod:`.spec`) and returns

- ``obs``: ``float32[num_envs, 594]``, the observation tensor (:data:`.tensors.OBSERVATION_PIECES`)
  of the seat to act now;
- ``mask``: ``bool[num_envs, 118]``, its legal actions;
- ``rewards``: ``float64[num_envs, 3]``, each seat's score in whists when the deal ended at this
  step (the returns of :class:`~preferans.env.core.PreferansCore` for one deal), else zeros;
- ``done``: ``bool[num_envs]``, the deal ended at this step: the environment has already dealt the
  next one (``obs`` and ``mask`` are the new deal's);
- ``info``: ``{"player": int64[num_envs]}``, the seat (0..2) whose observation ``obs`` is.

The whole batch is stepped in C (``vector_c/``, one call a step) for every rules the core plays
(:mod:`.vector_claim`: the presets and their house options, three players); other rules step
the Python engine, one :class:`~preferans.env.core.PreferansCore` per environment, with the
same API, the same cards and the same random actions for the same seed
(``backend="python"`` asks for it).  ``tests/test_env_vector.py`` plays both side by side.

>>> env = VectorEnv(4, rules="sochi", seed=1)
>>> obs, mask = env.reset()
>>> obs.shape, mask.shape, env.backend
((4, 594), (4, 118), 'c')
>>> total = 0.0
>>> for _ in range(200):
...     obs, mask, rewards, done, info = env.step(env.random_actions())
...     total += abs(rewards.sum(axis=1)).max()
>>> bool(total < 1e-9)   # each deal's scores add up to zero
True
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from ..rules import Rules
from . import spec, tensors
from .core import TERMINAL, EnvConfig, PreferansCore
from .extension import VECTOR as _vector
from .vector_claim import core_parameters, refusal
from .vector_deals import PICK_SALT, DealRng, seed_of
from .vector_score import ScoreTable, score_table

OBSERVATION_SIZE = tensors.OBSERVATION_SIZE
NUM_ACTIONS = spec.NUM_ACTIONS
BACKENDS = ("auto", "c", "python")


def _rules_text(rules: str | Rules | dict[str, Any]) -> str:
    if isinstance(rules, Rules):
        return json.dumps(rules.to_json(), sort_keys=True)
    if isinstance(rules, dict):
        return json.dumps(rules, sort_keys=True)
    return rules


class VectorEnv:
    """``num_envs`` deals under ``rules`` (a preset name, a rules object as JSON or a dict,
    or a :class:`~preferans.rules.Rules`), seeded by ``seed``; ``backend``: ``"auto"`` (the
    C core when it plays the rules), ``"c"`` (an error if it does not) or ``"python"``."""

    def __init__(self, num_envs: int, rules: str | Rules | dict[str, Any] = "sochi",
                 seed: int = 0, backend: str = "auto") -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        if backend not in BACKENDS:
            raise ValueError(f"backend must be one of {BACKENDS}, not {backend!r}")
        self.num_envs = num_envs
        self.config = EnvConfig(rules=_rules_text(rules))
        self.config.check()
        self.rules = self.config.make_rules()
        self.seed = seed
        params = core_parameters(self.rules)
        if backend == "c" and params is None:
            raise ValueError(f"the C core does not play these rules: {refusal(self.rules)}")
        if backend == "c" and _vector is None:
            raise ValueError("the C core is not built (make build)")
        if backend == "auto":
            backend = "c" if params is not None and _vector is not None else "python"
        self.backend = backend
        self._batch: _CBatch | _PythonBatch
        if backend == "c":
            assert params is not None
            self._batch = _CBatch(num_envs, params, self.rules, seed)
        else:
            self._batch = _PythonBatch(num_envs, self.config, seed)
        self.player = np.zeros(num_envs, np.int64)
        self.mask: np.ndarray | None = None

    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def observation_size(self) -> int:
        return OBSERVATION_SIZE

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Deal afresh in every environment (re-seeded with ``seed`` when given)."""
        if seed is not None:
            self.seed = seed
        obs, mask, self.player = self._batch.reset(seed)
        self.mask = mask
        return obs, mask

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, np.ndarray]]:
        """Apply one action id per environment; an illegal one raises ``ValueError`` (and
        nothing is applied)."""
        if self.mask is None:
            raise ValueError("call reset() first")
        acts = np.ascontiguousarray(actions, dtype=np.int64).reshape(-1)
        if acts.shape[0] != self.num_envs:
            raise ValueError(f"{acts.shape[0]} actions for {self.num_envs} environments")
        obs, mask, rewards, done, self.player = self._batch.step(acts)
        self.mask = mask
        return obs, mask, rewards, done, {"player": self.player}

    def random_actions(self) -> np.ndarray:
        """A uniformly random legal action per environment (``int64[num_envs]``), from the
        environments' own seeded generator (the same on both backends)."""
        if self.mask is None:
            raise ValueError("call reset() first")
        return self._batch.random_actions()

    def view(self, env: int, seat: int) -> dict[str, Any]:
        """What ``seat`` of environment ``env`` may see now, as the engine's players read it
        (:meth:`PreferansCore.view`), so that our players (:class:`~preferans.env.bots.LevelAgent`)
        can play seats: the Python backend only (the C core keeps no engine state)."""
        if not isinstance(self._batch, _PythonBatch):
            raise ValueError("view() needs backend='python': the C core keeps no engine state")
        if self.mask is None:
            raise ValueError("call reset() first")
        return self._batch.cores[env].view(seat)


class _CBatch:
    """The batch in C: the arrays are filled by ``preferans.env._vector.Batch``."""

    def __init__(self, n: int, params: tuple[int, ...], rules: Rules, seed: int) -> None:
        self.n = n
        self.core = _vector.Batch(n, params, seed)
        self.table: ScoreTable = score_table(rules, params[16], params[17])
        self.keys = np.full(n, -1, np.int64)

    def _arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return (np.empty((self.n, OBSERVATION_SIZE), np.float32),
                np.empty((self.n, NUM_ACTIONS), np.bool_), np.empty(self.n, np.int64))

    def reset(self, seed: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        obs, mask, player = self._arrays()
        self.core.reset(obs, mask, player, seed)
        return obs, mask, player

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                 np.ndarray, np.ndarray]:
        obs, mask, player = self._arrays()
        rewards = np.empty((self.n, 3))
        done = np.empty(self.n, np.bool_)
        missing = self.core.step(actions, obs, mask, rewards, done, player, self.keys,
                                 self.table.values)
        if missing:
            for i in np.flatnonzero(done & np.isnan(rewards).any(axis=1)):
                key, dealer = divmod(int(self.keys[i]), 3)
                rewards[i] = self.table.score(key, dealer)
        return obs, mask, rewards, done, player

    def random_actions(self) -> np.ndarray:
        out = np.empty(self.n, np.int64)
        self.core.random_actions(out)
        return out


class _PythonBatch:
    """The batch on the Python engine: one :class:`PreferansCore` per environment."""

    def __init__(self, n: int, config: EnvConfig, seed: int) -> None:
        self.n = n
        self.config = config
        self._seed(seed)
        self.cores: list[PreferansCore] = []

    def _seed(self, seed: int) -> None:
        self.rngs = [DealRng(seed_of(seed, i)) for i in range(self.n)]
        self.picks = [DealRng(seed_of(seed ^ PICK_SALT, i)) for i in range(self.n)]

    def _deal(self, i: int) -> PreferansCore:
        dealer, cards = self.rngs[i].shuffle()
        core = PreferansCore(EnvConfig(rules=self.config.rules, dealer=dealer))
        for card in cards:
            core.apply(card)
        return core

    def _emit(self, i: int, obs: np.ndarray, mask: np.ndarray, player: np.ndarray) -> None:
        core = self.cores[i]
        seat = core.current_player()
        tensors.observation_tensor(core, seat, obs[i])
        mask[i] = False
        mask[i, core.legal_actions()] = True
        player[i] = seat

    def _arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return (np.zeros((self.n, OBSERVATION_SIZE), np.float32),
                np.zeros((self.n, NUM_ACTIONS), np.bool_), np.zeros(self.n, np.int64))

    def reset(self, seed: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if seed is not None:
            self._seed(seed)
        self.cores = [self._deal(i) for i in range(self.n)]
        obs, mask, player = self._arrays()
        for i in range(self.n):
            self._emit(i, obs, mask, player)
        return obs, mask, player

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                 np.ndarray, np.ndarray]:
        for i, action in enumerate(actions):
            if int(action) not in self.cores[i].legal_actions():
                raise ValueError(f"action {int(action)} of env {i} is not legal now")
        obs, mask, player = self._arrays()
        rewards = np.zeros((self.n, 3))
        done = np.zeros(self.n, np.bool_)
        for i, action in enumerate(actions):
            core = self.cores[i]
            core.apply(int(action))
            if core.current_player() == TERMINAL:
                rewards[i] = core.returns()
                done[i] = True
                self.cores[i] = self._deal(i)
            self._emit(i, obs, mask, player)
        return obs, mask, rewards, done, player

    def random_actions(self) -> np.ndarray:
        return np.array([self.picks[i].pick(core.legal_actions())
                         for i, core in enumerate(self.cores)], np.int64)
