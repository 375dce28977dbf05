"""CFR on a whole Mini Preferans game, its deals included: one suit of five cards (the ten to
the ace of spades, the rules' ``suits`` 1 and ``ranks`` 5), one card a hand and two in the
talon, and the game's ``bids`` parameter offering the lowest bid of the ladder only (10♠,
the one level that needs the deal's single trick), misère as the rules have it.

    python examples/cfr_mini_whole.py                     # Sochi, 200 iterations
    python examples/cfr_mini_whole.py --iterations 50 --rules leningrad --bids 2

Everything else is the preset's: the auction (pass, 10♠ or misère), the talon taken and two
cards discarded, the contract named, whist or pass, open or closed, the trick, the all-pass
(the talon leading) and the scoring, returns in whists on a fresh sheet. Chance deals all 120
orders of the five cards (a card a hand, the talon's two in order): the whole game, 69,206
nodes with Sochi. The tree is written once to OpenSpiel's EFG format
(:func:`preferans.env.efg.to_efg`), loaded as a C++ game (``pyspiel.load_efg_game``), and
OpenSpiel's C++ CFR (``pyspiel.CFRSolver``) runs on it; NashConv (``pyspiel.nash_conv``,
in whists: what the three players together would gain by best responses) is printed as it
falls.
"""

from __future__ import annotations

import argparse
import time

import pyspiel

import preferans.env  # noqa: F401  (registers python_preferans)
from preferans.env.efg import to_efg


def mini_game(rules: str = "sochi", bids: int = 1) -> object:
    """The whole one-suit game (chance deals every card)."""
    return pyspiel.load_game("python_preferans", {
        "rules": rules, "ranks": 5, "suits": 1, "bids": bids,
    })


def solve(iterations: int, report: tuple[int, ...] = (), rules: str = "sochi",
          bids: int = 1, verbose: bool = True) -> dict[str, object]:
    """CFR on the whole game: ``{"nodes", "infosets", "curve": [(iterations, NashConv)]}``
    (the uniform policy's at 0, then at each of ``report`` and at the end)."""
    started = time.process_time()
    game = mini_game(rules, bids)
    tree = to_efg(game, title="Mini Preferans, one suit")
    tabular = pyspiel.load_efg_game(tree.text)
    if verbose:
        print(f"{tree.nodes:,} nodes, {len(tree.infosets):,} information states "
              f"(written in {time.process_time() - started:.0f} s of CPU)")
        print(f"{'iterations':>10} {'NashConv':>10} {'CPU s':>7}")
    solver = pyspiel.CFRSolver(tabular)
    curve = [(0, pyspiel.nash_conv(tabular, solver.average_policy()))]
    if verbose:
        print(f"{0:>10} {curve[0][1]:>10.3f} {time.process_time() - started:>7.1f}")
    for i in range(1, iterations + 1):
        solver.evaluate_and_update_policy()
        if i in report or i == iterations:
            curve.append((i, pyspiel.nash_conv(tabular, solver.average_policy())))
            if verbose:
                print(f"{i:>10} {curve[-1][1]:>10.3f} {time.process_time() - started:>7.1f}",
                      flush=True)
    return {"nodes": tree.nodes, "infosets": len(tree.infosets), "curve": curve}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--rules", default="sochi", help="a preset name or rules as JSON")
    parser.add_argument("--bids", type=int, default=1, help="the lowest bids offered")
    args = parser.parse_args()
    steps = tuple(sorted({1, 2, 5, 10, 20, 50, 100, 200, 500, 1000} | {args.iterations}))
    solve(args.iterations, steps, args.rules, args.bids)


if __name__ == "__main__":
    main()
