"""One deal of the research game on the C core: :class:`CoreDeal`, what the OpenSpiel game
(:mod:`.openspiel`) and the PettingZoo environment (:mod:`.aec`) step when the core plays
their rules.

It answers what stepping a deal asks, as :class:`~preferans.env.core.PreferansCore` does and
with the same ids, numbers and tensors: the seat to act, the legal actions, the chance
outcomes, an action applied, the returns and rewards, the observation and information-state
tensors of a seat. Everything else (strings, the other observers' tensors, the engine's view,
records, resampling) is the Python engine's: :meth:`CoreDeal.engine` replays the history on a
:class:`~preferans.env.core.PreferansCore`, which the game then steps instead.

The core plays one deal on a fresh sheet (``pulya`` 0) under the rules
:func:`~.vector_claim.core_parameters` claims, with the full pack; :func:`fast_config`
says when a configuration qualifies. ``tests/test_env_deal_core.py`` plays the two side by
side.

>>> from preferans.env.core import EnvConfig
>>> deal = CoreDeal.start(EnvConfig(seed=3))
>>> while deal.current_player() != -4:
...     deal.apply(deal.chance_outcomes()[0][0] if deal.current_player() == -1
...                else deal.legal_actions()[-1])
>>> abs(sum(deal.returns())) < 1e-9
True
"""

from __future__ import annotations

from typing import Any, Final

from .core import CHANCE, TERMINAL, EnvConfig, PreferansCore
from .extension import VECTOR
from .vector_claim import core_parameters
from .vector_score import ScoreTable, score_table

Deal = None if VECTOR is None else VECTOR.Deal


def _tolist(tensor: Any) -> list[float]:
    return tensor.tolist()  # type: ignore[no-any-return]


float_list = _tolist if VECTOR is None else VECTOR.float_list
"""A float32 tensor as a list of floats (what OpenSpiel's tensors are in Python)."""

_ZEROS: Final = (0.0, 0.0, 0.0)
_USE_CORE = [True]


def use_core(on: bool) -> bool:
    """Whether new games and environments step the C core where it plays their rules
    (on by default); returns the previous setting. Off, every state is the Python
    engine's, as before the core (benchmarks and tests compare the two)."""
    before = _USE_CORE[0]
    _USE_CORE[0] = bool(on)
    return before


def fast_config(config: EnvConfig) -> tuple[int, ...] | None:
    """The core's rule numbers when it plays ``config`` (one deal, the full pack, rules it
    claims, the extension built, :func:`use_core` on); else ``None``."""
    if Deal is None or not _USE_CORE[0] or config.pulya or config.ranks not in (0, 8) \
            or config.suits not in (0, 4) or config.bids:
        return None
    return core_parameters(config.make_rules())


class CoreDeal:
    """One deal on the C core with its history of action ids (chance outcomes included)."""

    __slots__ = (
        "_apply",
        "_table",
        "balance",
        "chance_outcomes",
        "config",
        "current_player",
        "deal",
        "history",
        "legal_actions",
        "over",
    )

    truncated: Final = False

    def __init__(self, config: EnvConfig, deal: Any, table: ScoreTable) -> None:
        self.config = config
        self.deal = deal
        self._table = table
        self.history: list[int] = []
        self.balance: list[float] = [0.0, 0.0, 0.0]
        self.over = False
        # the core's own methods, called without a Python frame between
        self.current_player = deal.current_player
        """The seat to act; -1 (chance) while the cards are dealt, -4 once the deal is over."""
        self.legal_actions = deal.legal_actions
        """The legal action ids of the seat to act, ascending (empty at chance and at the end)."""
        self.chance_outcomes = deal.chance_outcomes
        """``(card id, probability)`` of the next card dealt."""
        self._apply = deal.apply

    @classmethod
    def start(cls, config: EnvConfig, initial: PreferansCore | None = None) -> CoreDeal:
        """A fresh deal of ``config`` (which :func:`fast_config` must accept); ``initial``,
        the engine's fresh state of the same config, gives the dealer and a seed's cards."""
        params = fast_config(config)
        if params is None:
            raise ValueError("the C core does not play this configuration")
        if initial is None:
            initial = PreferansCore(config)
        plan = None if initial._plan is None else bytes(initial._plan)
        deal = Deal(params, initial.game.dealer, plan)
        return cls(config, deal, score_table(config.make_rules(), params[16], params[17]))

    # --- stepping -----------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.over

    def apply(self, action_id: int) -> None:
        """Apply an action id (a card at a chance node); an illegal one raises ``ValueError``."""
        if self._apply(action_id):
            deal = self.deal
            self.balance = self._table.score(deal.score_key(), deal.dealer)
            self.over = True
        self.history.append(int(action_id))

    @property
    def last_rewards(self) -> list[float] | tuple[float, ...]:
        """The rewards of the last step: the deal's score once it is over (a deal's only
        reward comes with its last decision), zeros before."""
        return list(self.balance) if self.over else _ZEROS

    def returns(self) -> list[float]:
        return list(self.balance)

    def observation_tensor(self, seat: int, out: Any) -> Any:
        """``seat``'s observation tensor (:func:`.tensors.observation_tensor`) into ``out``
        (``float32[594]``)."""
        self.deal.observe(seat, out)
        return out

    def information_state_tensor(self, seat: int, out: Any) -> Any:
        """``seat``'s information-state tensor (:func:`.tensors.information_state_tensor`)
        into ``out`` (``float32[5551]``)."""
        self.deal.observe_info(seat, out)
        return out

    def phase(self) -> int:
        """The phase's index in :data:`.tensors.PHASES` (0 while dealing)."""
        return self.deal.phase()  # type: ignore[no-any-return]

    # --- copies and the engine ----------------------------------------------------------
    def clone(self) -> CoreDeal:
        other = CoreDeal(self.config, self.deal.copy(), self._table)
        other.history = list(self.history)
        other.balance = list(self.balance)
        other.over = self.over
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> CoreDeal:
        return self.clone()

    def __reduce__(self) -> tuple[Any, tuple[EnvConfig, list[int]]]:
        return (CoreDeal.replay, (self.config, list(self.history)))

    @classmethod
    def replay(cls, config: EnvConfig, history: list[int]) -> CoreDeal | PreferansCore:
        """A fresh deal of ``config`` with the actions ``history`` applied (on the Python
        engine where the core does not play it here: :func:`use_core` off)."""
        if fast_config(config) is None:
            return PreferansCore.replay(config, history)
        deal = cls.start(config)
        for action in history:
            deal.apply(action)
        return deal

    def engine(self) -> PreferansCore:
        """The same state on the Python engine (the history replayed)."""
        return PreferansCore.replay(self.config, self.history)


def core_enabled() -> bool:
    """The :func:`use_core` setting."""
    return _USE_CORE[0]


class Fresh:
    """The fresh state of one configuration, cloned for each new game: on the C core where
    it plays the configuration (and :func:`use_core` is on), else the engine's."""

    def __init__(self, config: EnvConfig) -> None:
        self.engine = PreferansCore(config)
        self.core = None if fast_config(config) is None else CoreDeal.start(config, self.engine)

    def new(self) -> CoreDeal | PreferansCore:
        if self.core is not None and _USE_CORE[0]:
            return self.core.clone()
        return self.engine.clone()


def is_core(core: object) -> bool:
    return type(core) is CoreDeal


__all__ = ["CHANCE", "TERMINAL", "CoreDeal", "Fresh", "core_enabled", "fast_config",
           "float_list", "is_core", "use_core"]
