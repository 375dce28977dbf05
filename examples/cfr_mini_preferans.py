"""CFR on Mini Preferans: the same rules with a pack of eight cards (king and ace of each
suit, two cards a hand, two tricks a deal; the rules' ``ranks`` option).

    python examples/cfr_mini_preferans.py                       # after "9S PASS PASS"
    python examples/cfr_mini_preferans.py --after ""            # the whole deal (minutes)
    python examples/cfr_mini_preferans.py --iterations 100 --seed 4 --after "PASS 9S"

The game is ``python_preferans`` with ``ranks=2`` and ``seed`` fixed (one deal: each chance
node has one outcome), under Sochi with ``jump_bids`` off (each bid the next step of the
ladder: 9♠ 9♣ … 10NT, misère). From the position after ``--after`` (calls by name; empty:
the first call of the deal) every decision is the players': the auction, the discard, the
contract, whist or pass, open or closed, the two tricks. The tree is written out once to
OpenSpiel's EFG format (:mod:`preferans.env.efg`), then OpenSpiel's CFR
(``open_spiel.python.algorithms.cfr``) runs on it and NashConv
(``exploitability.nash_conv``, in whists: the sum of what each player would gain by a best
response) is printed as it falls.

Sizes (seed 1): after ``9S PASS PASS`` 7,180 nodes and 4,190 information states; the whole
deal more than 200,000 nodes (minutes to write, seconds an iteration). With every deal dealt
by chance (5,040 deals of eight cards) the game has some 10^9 nodes: out of reach of
tabular CFR (use sampling methods there).
"""

from __future__ import annotations

import argparse
import json
import time

import pyspiel
from open_spiel.python.algorithms import cfr, exploitability

import preferans.env  # noqa: F401  (registers python_preferans)
from preferans.env.efg import to_efg


def position(seed: int, after: list[str], rules: str = "sochi") -> tuple[object, object]:
    """The mini game of board ``seed`` and its state after the calls ``after``."""
    game = pyspiel.load_game("python_preferans", {
        "ranks": 2, "seed": seed,
        "rules": json.dumps({"preset": rules, "jump_bids": False}),
    })
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    for name in after:
        legal = {state.action_to_string(state.current_player(), a): a
                 for a in state.legal_actions()}
        if name not in legal:
            raise SystemExit(f"{name} is not legal now: {sorted(legal)}")
        state.apply_action(legal[name])
    return game, state


def solve(seed: int, after: list[str], iterations: int, report: tuple[int, ...] = (),
          rules: str = "sochi", verbose: bool = True) -> list[tuple[int, float]]:
    """CFR from that position: ``[(iterations, NashConv)]`` at 0 and at each of ``report``."""
    game, state = position(seed, after, rules)
    started = time.process_time()
    tree = to_efg(game, state, title="Mini Preferans")
    tabular = pyspiel.load_efg_game(tree.text)
    if verbose:
        print(f"{state}\n{tree.nodes:,} nodes, {len(tree.infosets):,} information states "
              f"(written in {time.process_time() - started:.1f} s of CPU)")
    solver = cfr.CFRSolver(tabular)
    out = [(0, exploitability.nash_conv(tabular, solver.average_policy()))]
    if verbose:
        print(f"{'iterations':>10} {'NashConv':>10} {'CPU s':>7}")
        print(f"{0:>10} {out[0][1]:>10.3f} {time.process_time() - started:>7.1f}")
    for i in range(1, iterations + 1):
        solver.evaluate_and_update_policy()
        if i in report or i == iterations:
            out.append((i, exploitability.nash_conv(tabular, solver.average_policy())))
            if verbose:
                print(f"{i:>10} {out[-1][1]:>10.3f} {time.process_time() - started:>7.1f}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1, help="which deal (board) of the seed")
    parser.add_argument("--after", default="9S PASS PASS",
                        help="calls before the solved position ('' for the whole deal)")
    parser.add_argument("--rules", default="sochi")
    args = parser.parse_args()
    steps = tuple(sorted({1, 2, 5, 10, 20, 50, 100, 200, 500} | {args.iterations}))
    solve(args.seed, args.after.split(), args.iterations, steps, args.rules)


if __name__ == "__main__":
    main()
