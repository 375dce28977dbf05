"""An agent against one of our levels on duplicate deals.

Board ``b`` of a seed is the deal ``preferans match --seed SEED`` plays as its board ``b``
(the environment's seed policy). On each board the agent plays each of the three seats in
turn against two copies of the level, and the level plays the same cards in all three seats:
the agent's **gain** on a board is, seat by seat, its result minus the level's result in that
seat, averaged over the seats. The luck of the cards cancels; what is left is the
difference of play. With ``pulya=N`` a board is a whole game (``preferans match --pulya``'s
game ``b``).

>>> import pyspiel, preferans.env
>>> from preferans.env.openspiel import make_bot
>>> report = duplicate(lambda game, p: make_bot(game, p, "random", seed=p), "easy",
...                    boards=2, seed=3)
>>> sorted(report)
['agent_per_deal', 'boards', 'ci95', 'deals', 'gain_per_deal', 'level', 'level_per_deal']
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable
from typing import Any

import pyspiel

from .openspiel import make_bot, restartable

BotFactory = Callable[[Any, int], Any]
"""``factory(game, player_id)`` returns a bot: anything with ``step(state) -> action``
(a ``pyspiel.Bot``, :class:`~preferans.env.openspiel.PreferansBot`, your agent). A
``pyspiel.Bot`` that leaves ``restart_at`` unimplemented (OpenSpiel's ISMCTS) plays
through :func:`~preferans.env.openspiel.restartable`."""


def play(game: Any, bots: list[Any]) -> tuple[list[float], int]:
    """One game to its end (a seeded game: its chance nodes have one outcome each); the
    returns and the number of deals."""
    state = game.new_initial_state()
    bots = [restartable(bot, p) if isinstance(bot, pyspiel.Bot) else bot
            for p, bot in enumerate(bots)]
    for bot in bots:
        if hasattr(bot, "restart_at"):
            bot.restart_at(state)
    while not state.is_terminal():
        if state.is_chance_node():
            (outcome, _), *more = state.chance_outcomes()
            if more:
                raise ValueError("duplicate deals need a seeded game (seed >= 0)")
            state.apply_action(outcome)
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state.returns(), len(state.core.game.finished_deals)


def duplicate(agent: BotFactory, level: str = "hard", *, boards: int = 100, seed: int = 1,
              rules: str = "sochi", pulya: int = 0, budget: float | str | None = None,
              progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """The agent against ``level`` on ``boards`` duplicate boards (see the module docstring):
    its mean gain per deal with a 95% interval, its and the level's mean result per deal."""
    gains: list[float] = []
    deals: list[int] = []
    mine: list[float] = []
    theirs: list[float] = []
    for board in range(boards):
        game = pyspiel.load_game("python_preferans", {"rules": rules, "pulya": pulya,
                                                      "seed": seed, "board": board})

        def level_bot(p: int, game: Any = game, board: int = board) -> Any:
            return make_bot(game, p, level, seed=seed * 1000 + board, budget=budget)

        base, n = play(game, [level_bot(p) for p in range(3)])
        gain = 0.0
        for seat in range(3):
            bots = [level_bot(p) for p in range(3)]
            bots[seat] = agent(game, seat)
            result, _ = play(game, bots)
            gain += (result[seat] - base[seat]) / 3
            mine.append(result[seat] / n)
            theirs.append(base[seat] / n)
        gains.append(gain / n)
        deals.append(n)
        if progress is not None:
            progress(board + 1)
    mean = statistics.fmean(gains)
    half = 1.96 * statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else math.inf
    return {
        "level": level,
        "boards": boards,
        "deals": sum(deals),
        "gain_per_deal": mean,
        "ci95": [mean - half, mean + half],
        "agent_per_deal": statistics.fmean(mine),
        "level_per_deal": statistics.fmean(theirs),
    }
