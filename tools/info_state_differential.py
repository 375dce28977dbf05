"""The C deal core's information-state tensors against the Python engine's, action by
action: random deals through :class:`preferans.env.deal_core.CoreDeal` and
:class:`preferans.env.core.PreferansCore` side by side, the same random legal action applied
to both, and at every decision the legal actions and each of the three seats'
information-state and observation tensors compared (the vector differential,
``tools/vector_differential.py``, compares the acting seat's observation tensor), then the
returns of each deal.

The decisions lean towards passing and low bids as the vector differential's do, so that
all-passes, misères and half-whists come up often.

    .venv/bin/python tools/info_state_differential.py [--deals 10000] [--seed 1]
                                                      [PRESET_OR_RULES_JSON ...]

Without rules it checks every preset the core claims. Prints, per rules, the deals, the
decisions and tensors compared, the mismatches (the first stops that rules' run, with what
differed) and the seconds; exits 1 on a mismatch.
"""

from __future__ import annotations

import argparse
import sys
import time
import zlib
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from vector_differential import claimed_presets, coverage_actions

from preferans.env import tensors
from preferans.env.core import CHANCE, EnvConfig, PreferansCore
from preferans.env.deal_core import CoreDeal
from preferans.env.spec import NUM_ACTIONS


def compare(rules: str, deals: int, seed: int) -> tuple[int, int, int, str, float]:
    """(deals, decisions, tensors compared, the first mismatch or "", seconds)."""
    config = EnvConfig(rules=rules)
    rng = np.random.default_rng([seed, zlib.crc32(rules.encode())])  # other deals per rules
    info = np.zeros(tensors.INFORMATION_STATE_SIZE, np.float32)
    obs = np.zeros(tensors.OBSERVATION_SIZE, np.float32)
    mask = np.zeros((1, NUM_ACTIONS), np.float64)
    decisions = compared = 0
    start = time.perf_counter()
    for deal in range(deals):
        fast = CoreDeal.start(config)
        slow = PreferansCore(config)
        while True:
            player = slow.current_player()
            if fast.current_player() != player:
                return deal, decisions, compared, f"deal {deal}: seat to act", 0.0
            if slow.is_terminal():
                break
            if player == CHANCE:
                outcomes = slow.chance_outcomes()
                action = outcomes[int(rng.integers(len(outcomes)))][0]
            else:
                legal = slow.legal_actions()
                if fast.legal_actions() != legal:
                    return deal, decisions, compared, \
                        f"deal {deal}: legal actions {fast.legal_actions()} vs {legal}", 0.0
                for seat in range(3):
                    for mine, theirs, name in (
                            (fast.information_state_tensor(seat, info),
                             tensors.information_state_tensor(slow, seat), "information state"),
                            (fast.observation_tensor(seat, obs),
                             tensors.observation_tensor(slow, seat), "observation")):
                        compared += 1
                        if not np.array_equal(mine, theirs):
                            at = np.flatnonzero(mine != theirs).tolist()
                            return deal, decisions, compared, \
                                f"deal {deal}, seat {seat}: {name} at offsets {at[:12]}", 0.0
                mask[:] = 0
                mask[0, legal] = 1
                action = int(coverage_actions(mask, rng)[0])
                decisions += 1
            fast.apply(action)
            slow.apply(action)
        if fast.returns() != slow.returns():
            return deal, decisions, compared, \
                f"deal {deal}: returns {fast.returns()} vs {slow.returns()}", 0.0
    return deals, decisions, compared, "", time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rules", nargs="*", help="presets or rules as JSON (default: every "
                        "preset the core claims)")
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    failed = False
    print(f"{'rules':<12} {'deals':>7} {'decisions':>10} {'tensors':>10}  result")
    for rules in args.rules or claimed_presets():
        deals, decisions, compared, problem, seconds = compare(rules, args.deals, args.seed)
        result = f"MISMATCH {problem}" if problem else f"no mismatch, {seconds:.0f} s"
        failed |= bool(problem)
        print(f"{rules[:12]:<12} {deals:>7} {decisions:>10} {compared:>10}  {result}",
              flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
