"""CFR on a small sub-game of Preferans: the last two tricks of an all-pass.

    python examples/cfr_allpass_endgame.py [--iterations 40] [--rules sochi]

The sub-game: everyone passed; the first eight tricks are played (each all in one suit, so
they are legal whatever the rest of the hands); the six cards left (AS AC KD AD KH AH) are
dealt by chance, two to each hand, and the three players play the last two tricks, each
knowing its own two cards and everything played. It is an OpenSpiel game of its own
(``python_preferans_allpass_endgame``), a thin layer over the environment's state
(:class:`preferans.env.core.PreferansCore`, which keeps the engine's game): its chance
deals the six cards (one chance node, 90 outcomes), the rest (legal actions, tensors,
information states, the returns in whists) is the environment's. OpenSpiel's CFR
(``open_spiel.python.algorithms.cfr``) runs on it, and its NashConv
(``exploitability.nash_conv``) falls from the uniform policy's.
"""

from __future__ import annotations

import argparse
import time
from itertools import combinations
from typing import Any

import pyspiel
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import cfr, exploitability

import preferans.env  # noqa: F401
from preferans.cards import Card
from preferans.env import spec
from preferans.env.core import CHANCE, EnvConfig, PreferansCore, chance_sequence, dealing_seats
from preferans.env.openspiel import Observer

PREFIX = [("8S", "9S", "10S"), ("8C", "9C", "10C"), ("JS", "QS", "KS"), ("JC", "QC", "KC"),
          ("7D", "8D", "9D"), ("10D", "JD", "QD"), ("7H", "8H", "9H"), ("10H", "JH", "QH")]
"""The eight tricks played, one suit each; seat ``s`` plays ``PREFIX[t][(s + t) % 3]``."""
TALON = ["7S", "7C"]
LEFT = ["AS", "AC", "KD", "AD", "KH", "AH"]
DEALER = 0
DEALS = [(a, b, c) for a in combinations(LEFT, 2) for b in combinations(
    [x for x in LEFT if x not in a], 2) for c in [tuple(x for x in LEFT if x not in a + b)]]
"""The 90 ways to deal the six cards, two to each hand from the dealer's left: one chance
node with 90 outcomes."""

GAME_TYPE = pyspiel.GameType(
    short_name="python_preferans_allpass_endgame",
    long_name="Python Preferans: the last two tricks of an all-pass",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=3,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"rules": "sochi"},
)


class EndgameGame(pyspiel.Game):
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {"rules": "sochi", **(params or {})}
        self.config = EnvConfig(rules=params["rules"], dealer=DEALER)
        info = pyspiel.GameInfo(num_distinct_actions=spec.NUM_ACTIONS,
                                max_chance_outcomes=len(DEALS), num_players=3,
                                min_utility=-10_000.0, max_utility=10_000.0, utility_sum=0.0,
                                max_game_length=7)
        super().__init__(GAME_TYPE, info, params)
        self.initial = PreferansCore(self.config)  # the table before the cards are dealt

    def new_initial_state(self) -> EndgameState:
        return EndgameState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer(bool(iig_obs_type is not None and iig_obs_type.perfect_recall))


_CORES: dict[tuple[str, tuple[int, ...]], PreferansCore] = {}
"""The environment's states met so far, by rules and path: the tree is walked on every CFR
iteration, and a state met before is cloned (a transposition table) rather than played
again (the engine scores the deal at its last card, which is most of a walk's time)."""


class EndgameState(pyspiel.State):
    def __init__(self, game: EndgameGame) -> None:
        super().__init__(game)
        self.rules = game.config.rules
        self.dealt: int | None = None
        self.path: tuple[int, ...] = ()
        self.core = game.initial.clone()

    def _start(self) -> None:
        """The six cards are dealt: the deal, three passes and the eight tricks."""
        hands: list[list[str]] = [[] for _ in range(3)]
        for k, seat in enumerate(dealing_seats(DEALER)):
            hands[seat] = list(DEALS[self.dealt][k])  # type: ignore[index]
            hands[seat] += [PREFIX[t][(seat + t) % 3] for t in range(len(PREFIX))]
        core = self.core
        for card in chance_sequence(DEALER, hands, TALON):
            core.apply(card)
        for _ in range(3):
            core.apply(spec.PASS_ID)
        deal = core.game.deal
        while len(deal.tricks) < len(PREFIX):
            seat = core.current_player()
            t = len(deal.tricks)
            core.apply(Card.parse(PREFIX[t][(seat + t) % 3]).index)

    def current_player(self) -> int:
        if self.dealt is None:
            return pyspiel.PlayerId.CHANCE
        return self.core.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self.core.legal_actions() if player == self.current_player() else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(k, 1.0 / len(DEALS)) for k in range(len(DEALS))]

    def _apply_action(self, action: int) -> None:
        self.path = (*self.path, int(action))
        known = _CORES.get((self.rules, self.path))
        if self.current_player() == CHANCE:
            self.dealt = int(action)
            if known is None:
                self._start()
        elif known is None:
            self.core.apply(action)
        if known is not None:
            self.core = known.clone()
        else:
            _CORES[self.rules, self.path] = self.core.clone()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            return "deal " + " / ".join(" ".join(hand) for hand in DEALS[action])
        return spec.ACTION_NAMES[action]

    def is_terminal(self) -> bool:
        return self.core.over

    def returns(self) -> list[float]:
        return self.core.returns()

    def __str__(self) -> str:
        deal = self.core.game.deal or (self.core.game.finished_deals or [None])[-1]
        return f"deal {self.dealt} | " + ("" if deal is None else " ".join(deal.tokens()[3 + 24:]))


pyspiel.register_game(GAME_TYPE, EndgameGame)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=40)
    parser.add_argument("--rules", default="sochi")
    parser.add_argument("--sims", type=int, default=20,
                        help="OpenSpiel's random simulation checks of the sub-game first")
    args = parser.parse_args()

    start = time.perf_counter()
    game = pyspiel.load_game("python_preferans_allpass_endgame", {"rules": args.rules})
    if args.sims:
        pyspiel.random_sim_test(game, num_sims=args.sims, serialize=False, verbose=False)
    uniform = policy_lib.UniformRandomPolicy(game)
    print(f"NashConv of the uniform policy: {exploitability.nash_conv(game, uniform):.2f} "
          "whists")
    solver = cfr.CFRSolver(game)
    for it in range(1, args.iterations + 1):
        solver.evaluate_and_update_policy()
        if it in (5, 10) or it % 20 == 0 or it == args.iterations:
            conv = exploitability.nash_conv(game, solver.average_policy())
            print(f"CFR iteration {it:3d}: NashConv {conv:.3f} whists "
                  f"({time.perf_counter() - start:.0f} s)", flush=True)
    average = solver.average_policy()
    print(f"{len(average.state_lookup)} information states; "
          f"{time.perf_counter() - start:.0f} s in all")


if __name__ == "__main__":
    main()
