"""Preferans as an OpenSpiel game written in Python: ``python_preferans``.

Importing this module (``import preferans.env`` does) registers the game with
``pyspiel.register_game``; then::

    import pyspiel, preferans.env
    game = pyspiel.load_game("python_preferans", {"rules": "leningrad", "pulya": 10})

Parameters are those of :class:`~preferans.env.core.EnvConfig`. The state is a thin layer
over :class:`~preferans.env.core.PreferansCore`, which keeps the engine's game.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from . import spec, tensors
from .core import (
    CHANCE,
    MAX_STEPS_PER_DEAL,
    EnvConfig,
    PreferansCore,
    utility_bound,
)
from .deal_core import CoreDeal, Fresh, core_enabled, float_list

SHORT_NAME = "python_preferans"

_DEFAULTS = EnvConfig().params()

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Preferans",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.REWARDS,
    max_num_players=3,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


class PreferansGame(pyspiel.Game):
    """The game: a deal or a whole pulya under one preset (see :class:`EnvConfig`)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**_DEFAULTS, **(params or {})}
        self.config = EnvConfig.from_params(merged)
        bound = utility_bound(self.config)
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.NUM_ACTIONS,
            max_chance_outcomes=32,
            num_players=3,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=self.config.deals * MAX_STEPS_PER_DEAL,
        )
        super().__init__(GAME_TYPE, info, self.config.params())
        self._fresh = Fresh(self.config)
        self._initial = self._fresh.engine
        self._observers: tuple[Observer, Observer] | None = None

    def observers(self) -> tuple[Observer, Observer]:
        """The default observation's and the information state's observers (OpenSpiel's
        ``default_observer`` and ``info_state_observer``), made once: what a state's
        ``observation_tensor``, ``information_state_tensor`` and strings read."""
        observers = self._observers
        if observers is None:
            observers = self._observers = (self.make_py_observer(), Observer(
                tensors.Layout(True, True, "single")))
        return observers

    def new_initial_state(self) -> PreferansState:
        fresh = self._fresh
        if fresh.core is not None and core_enabled():
            # the fresh deal itself, copied when the state first moves (OpenSpiel makes a
            # new state before every tensor it writes, to learn the tensor's shape)
            state = PreferansState(self, fresh.core)
            state._shared = True
            return state
        return PreferansState(self, fresh.engine.clone())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        """The observer of ``iig_obs_type`` (:class:`Observer`); ``None`` is the default
        observation (public and the player's own, no recall)."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type is None:
            return Observer(tensors.Layout(False, True, "single"))
        private = _PRIVATE[iig_obs_type.private_info]
        return Observer(tensors.Layout(bool(iig_obs_type.perfect_recall),
                                       bool(iig_obs_type.public_info), private))


class PreferansState(pyspiel.State):
    """One state of the game; ``state.core`` is the environment's state, ``state.core.game``
    the engine's :class:`~preferans.game.Game`.

    Where the C core plays the game's rules (one deal, the full pack: :mod:`.deal_core`)
    the state steps a :class:`~.deal_core.CoreDeal`: the player to act, the legal actions,
    the chance outcomes, the returns, the observation tensor and the information-state
    tensor come from C. The first call that needs more (``state.core``, a string, another
    observer, the view, the record, a resample) replays the history on the Python engine,
    which the state then steps from there on."""

    def __init__(self, game: PreferansGame,
                 core: PreferansCore | CoreDeal | None = None) -> None:
        super().__init__(game)
        self._c = core if core is not None else game._fresh.new()
        self._shared = False
        """``_c`` is the game's fresh deal, shared until an action is applied."""

    @property
    def core(self) -> PreferansCore:
        """The state on the Python engine (replayed from the C core the first time)."""
        c = self._c
        if type(c) is CoreDeal:
            c = self._c = c.engine()
            self._shared = False
        return c  # type: ignore[return-value]

    @property
    def on_core(self) -> bool:
        """Whether the state steps the C core (not yet the Python engine)."""
        return type(self._c) is CoreDeal

    # --- the OpenSpiel API --------------------------------------------------------------
    def current_player(self) -> int:
        return self._c.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        c = self._c
        if player != c.current_player():
            return []
        return c.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._c.chance_outcomes()

    # --- the same answers to Python callers, without the way through C++ ------------------
    # pyspiel's bindings of these call C++, which calls back into Python (and, for a tensor
    # or a string, makes a fresh state to learn its shape and copies the observer's pieces
    # one by one). A Python caller gets the same values here directly; C++ callers
    # (algorithms written in C++) keep OpenSpiel's way. tests/test_env_direct.py compares
    # the two on random states of every kind.
    def is_chance_node(self) -> bool:
        return self._c.current_player() == CHANCE

    def is_player_node(self) -> bool:
        return self._c.current_player() >= 0

    def legal_actions(self, player: int | None = None) -> list[int]:
        c = self._c
        current = c.current_player()
        if c.over:
            return []
        if current == CHANCE:
            return [action for action, _ in c.chance_outcomes()]
        if player is None or player == current:
            return c.legal_actions()
        if player < 0:
            raise pyspiel.SpielError(f"legal actions asked for pseudo-player {player}")
        return []

    def observation_tensor(self, player: int | None = None) -> list[float]:
        return self._tensor(self.get_game().observers()[0], player)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        return self._tensor(self.get_game().observers()[1], player)

    def observation_string(self, player: int | None = None) -> str:
        observer = self.get_game().observers()[0]
        return observer.string_from(self, self._seat(player))

    def information_state_string(self, player: int | None = None) -> str:
        observer = self.get_game().observers()[1]
        return observer.string_from(self, self._seat(player))

    def _tensor(self, observer: Observer, player: int | None) -> list[float]:
        observer.set_from(self, self._seat(player))
        return float_list(observer.tensor)

    def _seat(self, player: int | None) -> int:
        if player is None:
            player = self._c.current_player()
        if not 0 <= player < 3:
            raise pyspiel.SpielError(f"a seat 0, 1 or 2 is needed, not player {player}")
        return player

    def _apply_action(self, action: int) -> None:
        if self._shared:
            self._c = self._c.clone()
            self._shared = False
        self._c.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            return f"deal {spec.ACTION_NAMES[action]}"
        c = self._c
        if type(c) is CoreDeal:
            if action < 32 and c.phase() == _DISCARD_PHASE:
                return f"discard {spec.ACTION_NAMES[action]}"
            return spec.ACTION_NAMES[action]
        return spec_name(c, action)  # type: ignore[arg-type]

    def is_terminal(self) -> bool:
        return self._c.over

    def returns(self) -> list[float]:
        return self._c.returns()

    def rewards(self) -> list[float]:
        return list(self._c.last_rewards)

    def __str__(self) -> str:
        text = self.core.facts.get("str")
        if text is None:
            text = self.core.facts["str"] = self._text()
        return text

    def _text(self) -> str:
        core = self.core
        deal = core.game.deal
        head = f"deals {len(core.game.finished_deals)} balance {core.balance}"
        if deal is None:
            return f"{head} dealt {len(core.dealt)}"
        hands = " / ".join(str(h) for h in deal.hands)
        pending = "" if core.pending is None else f" discarding {spec.ACTION_NAMES[core.pending]}"
        return (f"{head} | {deal.phase.value} to act {deal.to_act} | {hands} | talon "
                f"{' '.join(map(str, deal.talon))} | {' '.join(deal.tokens())}{pending}")

    # --- beyond the API --------------------------------------------------------------------
    def view(self, player: int) -> dict[str, Any]:
        """What ``player`` may see, as the engine's players read it (:meth:`PreferansCore.view`)."""
        return self.core.view(player)

    def to_record(self) -> dict[str, Any]:
        """The game so far as a ``preferans-record/1`` (``preferans replay`` scores it)."""
        return self.core.to_record()

    def __deepcopy__(self, memo: dict[int, Any]) -> PreferansState:
        # clone() of a Python state deep-copies it: a copy of the core, not of the game.
        return PreferansState(self.get_game(), self._c.clone())


def spec_name(core: PreferansCore, action: int) -> str:
    """An action's name in the state's phase (``discard QH`` for a discard step)."""
    deal = core.game.deal
    if deal is not None and action < 32 and deal.phase.value in ("discard", "exchange"):
        return f"discard {spec.ACTION_NAMES[action]}"
    if deal is not None and action >= spec.FIRST_SECOND:
        legal = deal.legal_actions()
        k = action - spec.FIRST_SECOND
        if deal.phase.value == "halftime" and k < len(legal):
            return str(legal[k])
    return spec.ACTION_NAMES[action]


_DISCARD_PHASE = tensors.PHASES.index("discard")

_PRIVATE = {pyspiel.PrivateInfoType.NONE: "none",
            pyspiel.PrivateInfoType.SINGLE_PLAYER: "single",
            pyspiel.PrivateInfoType.ALL_PLAYERS: "all"}


class Observer:
    """The PyObserver of the game for one kind of information (:class:`.tensors.Layout`):
    ``tensor`` and ``dict`` (the pieces, reshaped views of the tensor) from
    ``set_from(state, player)``; ``string_from(state, player)``.

    - public and private single (OpenSpiel's default observation and information state):
      the seat's tensors (:data:`.tensors.OBSERVATION_PIECES`,
      :data:`.tensors.INFORMATION_STATE_PIECES`);
    - public only: their pieces every seat sees, seats absolute, the same for each player
      (no hand, no own discard);
    - private only: the seat, its cards as dealt and held, its own discard;
    - private of all players (perfect information): the public pieces plus every hand, the
      talon as dealt and the discards (:func:`.tensors.hidden_pieces`).
    """

    def __init__(self, layout: tensors.Layout | bool) -> None:
        if not isinstance(layout, tensors.Layout):  # perfect recall or not: the default kind
            layout = tensors.Layout(bool(layout), True, "single")
        self.layout = layout
        self.perfect_recall = layout.recall
        self.tensor = np.zeros(layout.size, np.float32)
        self._core_tensor = layout.default
        """The tensor is the default observation or information state, which the C core
        writes too."""
        self._dealing: dict[tuple[int, int], np.ndarray] = {}
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, shape in layout.pieces:
            n = int(np.prod(shape))
            self.dict[name] = self.tensor[at: at + n].reshape(shape)
            at += n

    def set_from(self, state: PreferansState, player: int) -> None:
        c = getattr(state, "_c", None)  # a state of another game may hold a core only
        if self._core_tensor and type(c) is CoreDeal:
            if c.current_player() != CHANCE:
                if self.perfect_recall:
                    c.information_state_tensor(player, self.tensor)
                else:
                    c.observation_tensor(player, self.tensor)
                return
            # while the cards are dealt a seat sees only who deals (OpenSpiel's own
            # observation calls read a fresh state first): the engine's tensor, kept
            key = (player, c.deal.dealer)
            kept = self._dealing.get(key)
            if kept is None:
                kept = self._dealing[key] = self.layout.tensor(
                    c.engine(), player, np.zeros(self.layout.size, np.float32))
            self.tensor[:] = kept
            return
        self.layout.tensor(state.core, player, self.tensor)

    def string_from(self, state: PreferansState, player: int) -> str:
        return self.layout.string(state.core, player)


pyspiel.register_game(GAME_TYPE, PreferansGame)


class PreferansBot(pyspiel.Bot):
    """One of our levels as an OpenSpiel bot for ``player_id`` (see
    :class:`~preferans.env.bots.LevelAgent`): ``step(state)`` reads only
    ``state.view(player_id)``, the seat's own observation."""

    def __init__(self, game: PreferansGame, player_id: int, level: str = "hard",
                 seed: int = 0, budget: float | str | None = None) -> None:
        from .bots import LevelAgent

        pyspiel.Bot.__init__(self)
        self._player_id = player_id
        self.agent = LevelAgent(level, game.config, seed + 7919 * player_id, budget)

    def player_id(self) -> int:
        return self._player_id

    def provides_policy(self) -> bool:
        return False

    def restart_at(self, state: PreferansState) -> None:
        self.agent.reset()

    def inform_action(self, state: PreferansState, player_id: int, action: int) -> None:
        pass

    def step(self, state: PreferansState) -> int:
        legal = state.legal_actions(self._player_id)
        return self.agent.act(state.view(self._player_id), legal)


def make_bot(game: PreferansGame, player_id: int, level: str = "hard", seed: int = 0,
             budget: float | str | None = None) -> PreferansBot:
    """Our ``level`` (easy, normal, hard, crazy, random) as a ``pyspiel.Bot``."""
    return PreferansBot(game, player_id, level, seed, budget)


class Restartable(pyspiel.Bot):
    """A bot that keeps nothing from one decision to the next (OpenSpiel's
    ``ismcts.ISMCTSBot``, which searches afresh at each step) made whole for
    ``evaluate_bots`` and :func:`~preferans.env.evaluate.duplicate`: ``restart_at`` (which
    such a bot leaves unimplemented) resets it, ``inform_action`` does nothing, ``step``
    and the policy calls go to the bot."""

    def __init__(self, bot: Any, player_id: int) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = bot
        self._player_id = player_id

    def player_id(self) -> int:
        return self._player_id

    def provides_policy(self) -> bool:
        return hasattr(self.bot, "step_with_policy")

    def restart_at(self, state: Any) -> None:
        reset = getattr(self.bot, "reset", None)
        if reset is not None:
            reset()

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        pass

    def step(self, state: Any) -> int:
        return int(self.bot.step(state))

    def step_with_policy(self, state: Any) -> tuple[list[tuple[int, float]], int]:
        policy, action = self.bot.step_with_policy(state)
        return policy, int(action)


def restartable(bot: Any, player_id: int) -> Any:
    """``bot`` as it is if it implements ``restart_at``, else in :class:`Restartable`."""
    if _implements_restart(bot):
        return bot
    return Restartable(bot, player_id)


def _implements_restart(bot: Any) -> bool:
    method = getattr(type(bot), "restart_at", None)
    return method is not None and method is not pyspiel.Bot.restart_at


def make_ismcts_bot(game: PreferansGame, player_id: int, simulations: int = 100,
                    seed: int = 0, uct_c: float = 2.0, rollouts: int = 1) -> Restartable:
    """OpenSpiel's information-set MCTS (``ismcts.ISMCTSBot``, worlds drawn by
    ``resample_from_infostate``, random rollouts) as a bot for ``player_id`` that goes
    through ``evaluate_bots`` and :func:`~preferans.env.evaluate.duplicate`."""
    from open_spiel.python.algorithms import ismcts, mcts

    rng = np.random.RandomState(seed + 7919 * player_id)
    search = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(rollouts, rng), uct_c,
                              simulations, random_state=rng)
    return Restartable(search, player_id)


def _resample_from_infostate(self: PreferansState, player_id: int,
                             probability_sampler: Any) -> PreferansState:
    """A state drawn from ``player_id``'s information state (:mod:`.resample`): what
    ``ismcts.ISMCTSBot`` searches over."""
    from .resample import resample

    try:
        seed = int(probability_sampler() * 2**31)
    except TypeError:
        seed = len(self.core.history)
    import random

    return PreferansState(self.get_game(), resample(self.core, player_id, random.Random(seed)))


PreferansState.resample_from_infostate = _resample_from_infostate  # type: ignore[method-assign]
