"""The C deal core against the Python engine, action by action: random deals through
:class:`preferans.env.vector.VectorEnv` on both backends from the same seed, the same random
legal action applied to both at every step, and at every step the legal-action masks, the
observation tensors of the seat to act, which deals ended and their scores compared.

The random actions lean towards passing and low bids (:func:`coverage_actions`), so that
all-passes, misères, sixes and sevens (half-whists) come up often; a quarter are uniform.

    .venv/bin/python tools/vector_differential.py [--deals 100000] [--envs 64] [--seed 1]
                                                  [PRESET_OR_RULES_JSON ...]

Without rules it checks every preset the core claims.  Prints, per rules: the deals played,
the actions compared, the mismatches (the first one stops that rules' run, with what
differed), how the deals ended (all-pass, misère, whisted ...) and the seconds it took.
Exits 1 on a mismatch.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from preferans.env.spec import FIRST_BID, MISERE_ID, NUM_ACTIONS, PASS_ID
from preferans.env.vector import VectorEnv
from preferans.env.vector_claim import core_parameters
from preferans.rules import PRESETS

CODE_NAMES = ("all-pass", "misère", "resigned", "whist-whist", "whist-pass open",
              "whist-pass closed", "pass-whist open", "pass-whist closed", "passed",
              "half-whist", "reopened open", "reopened closed", "half-whist, pass",
              "whist-pass-half", "Stalingrad", "checked ten")


def _weights() -> np.ndarray:
    w = np.ones(NUM_ACTIONS)
    w[FIRST_BID:MISERE_ID] = 2 * 0.6 ** np.arange(MISERE_ID - FIRST_BID)
    w[MISERE_ID] = 1.0
    w[PASS_ID] = 6.0
    return w


_WEIGHTS = _weights()


def coverage_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random legal action per row of ``mask``: weighted towards PASS, misère and the
    lowest bids in three rows of four, uniform in the fourth."""
    weights = mask * np.where(rng.random((mask.shape[0], 1)) < 0.75, _WEIGHTS, 1.0)
    cum = weights.cumsum(axis=1)
    pick = rng.random(mask.shape[0]) * cum[:, -1]
    return np.minimum((cum <= pick[:, None]).sum(axis=1), NUM_ACTIONS - 1).astype(np.int64)


@dataclass
class Report:
    rules: str
    deals: int = 0
    actions: int = 0
    mismatches: int = 0
    first: str = ""
    ends: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0


def _code(env: VectorEnv, key: int) -> str:
    table = env._batch.table  # type: ignore[union-attr]
    rest = key // 3 // (table.q * table.r * 121)
    return CODE_NAMES[rest % 16]


def compare(rules: str, deals: int, envs: int, seed: int, progress: int = 0) -> Report:
    """Play at least ``deals`` deals of ``rules`` on both backends, comparing every step
    (with ``progress``, a line on stderr every that many deals)."""
    report = Report(rules)
    start = time.perf_counter()
    fast = VectorEnv(envs, rules, seed=seed, backend="c")
    slow = VectorEnv(envs, rules, seed=seed, backend="python")
    obs_c, mask_c = fast.reset()
    obs_p, mask_p = slow.reset()
    rng = np.random.default_rng(seed)
    step = 0
    while report.deals < deals:
        problem = _differs(obs_c, mask_c, fast.player, obs_p, mask_p, slow.player)
        if problem is not None:
            report.mismatches += 1
            report.first = f"step {step}: {problem}"
            break
        actions = coverage_actions(mask_c, rng)
        obs_c, mask_c, rewards_c, done_c, _ = fast.step(actions)
        obs_p, mask_p, rewards_p, done_p, _ = slow.step(actions)
        report.actions += envs
        step += 1
        if not np.array_equal(done_c, done_p):
            report.mismatches += 1
            report.first = f"step {step}: deals ended {np.flatnonzero(done_c)} (C) vs " \
                           f"{np.flatnonzero(done_p)} (Python)"
            break
        if not np.array_equal(rewards_c, rewards_p):
            bad = np.flatnonzero((rewards_c != rewards_p).any(axis=1))
            report.mismatches += 1
            report.first = f"step {step}: scores of envs {bad}: {rewards_c[bad]} (C) vs " \
                           f"{rewards_p[bad]} (Python)"
            break
        for i in np.flatnonzero(done_c):
            report.ends[_code(fast, int(fast._batch.keys[i]))] += 1  # type: ignore[union-attr]
        before = report.deals
        report.deals += int(done_c.sum())
        if progress and report.deals // progress > before // progress:
            print(f"  {rules}: {report.deals} deals, {report.actions} actions, no mismatch, "
                  f"{time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    report.seconds = time.perf_counter() - start
    return report


def _differs(obs_c: Any, mask_c: Any, player_c: Any, obs_p: Any, mask_p: Any,
             player_p: Any) -> str | None:
    if not np.array_equal(player_c, player_p):
        bad = np.flatnonzero(player_c != player_p)
        return f"seat to act of envs {bad}: {player_c[bad]} (C) vs {player_p[bad]} (Python)"
    if not np.array_equal(mask_c, mask_p):
        i = int(np.flatnonzero((mask_c != mask_p).any(axis=1))[0])
        return (f"legal actions of env {i}: {np.flatnonzero(mask_c[i]).tolist()} (C) vs "
                f"{np.flatnonzero(mask_p[i]).tolist()} (Python)")
    if not np.array_equal(obs_c, obs_p):
        i = int(np.flatnonzero((obs_c != obs_p).any(axis=1))[0])
        at = np.flatnonzero(obs_c[i] != obs_p[i]).tolist()
        return f"observation of env {i} at offsets {at[:12]}"
    return None


def claimed_presets() -> list[str]:
    """Every preset the C core plays."""
    return [name for name, rules in PRESETS.items() if core_parameters(rules) is not None]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rules", nargs="*", help="presets or rules as JSON (default: every "
                        "preset the core claims)")
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--progress", type=int, default=0,
                        help="print a line on stderr every this many deals")
    args = parser.parse_args(argv)
    names = args.rules or claimed_presets()
    failed = False
    print(f"{'rules':<12} {'deals':>8} {'actions':>10} {'mismatches':>10} {'seconds':>8}  ends")
    for name in names:
        r = compare(name, args.deals, args.envs, args.seed, args.progress)
        ends = ", ".join(f"{k} {v}" for k, v in r.ends.most_common())
        print(f"{r.rules:<12} {r.deals:>8} {r.actions:>10} {r.mismatches:>10} "
              f"{r.seconds:>8.0f}  {ends}", flush=True)
        if r.mismatches:
            print(f"  first mismatch: {r.first}", flush=True)
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
