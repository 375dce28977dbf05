"""Repeatable instruction counts for the C solver core (load-independent figures).

``python benchmarks/bench_solver_instr.py [--contract N] [--misere N] [--allpass N] [--time R]``

Takes the first positions of each set of ``preferans bench solver`` (same seed, same
generator: full ten-card deals), compiles ``bench_solver_driver.c`` with the core
(``src/preferans/solver/ddcore.c``, the extension's flags) and runs it under
``valgrind --tool=callgrind``, counting only the instructions inside the solver calls.
Prints instructions and nodes per solve for: contract value solves, every root move of
the same contract positions, exact misère and exact all-pass.  ``--time R`` instead runs
the driver natively, each set R times, and prints CPU ms per solve (noisy under load).
``--table-kb`` sets the table size (default 512 KB, the module's default).  The driver runs
the copy of the search the CPU allows (see ddcore.c); ``PREFERANS_SOLVER_GENERIC=1`` counts
the generic copy.
"""

from __future__ import annotations

import argparse
import glob
import os
import random
import re
import subprocess
import sys
import tempfile

from preferans.solver.bench import SEED
from preferans.solver.samples import random_position

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORE = os.path.join(ROOT, "src", "preferans", "solver")
DRIVER = os.path.join(ROOT, "benchmarks", "bench_solver_driver.c")
# XFLAGS: extra compiler flags to try (for example XFLAGS="-mbmi2")
FLAGS = [
    *["-std=c11", "-O3", "-Wall", "-Wextra", "-fno-strict-aliasing", "-mpopcnt", "-g"],
    *os.environ.get("XFLAGS", "").split(),
]
MODE_NUMBER = {"contract": 0, "misere": 1, "allpass": 2}


def bench_sets(n_contract: int, n_misere: int, n_allpass: int) -> dict[str, list]:
    """The first positions of each set of the solver bench (same seed and draw order)."""
    rng = random.Random(SEED)
    contract = []
    for trump in (0, 1, 2, 3, None):
        contract += [random_position(rng, 10, "contract", trump=trump) for _ in range(200)]
    rng.shuffle(contract)
    misere = [random_position(rng, 10, "misere") for _ in range(300)]
    allpass = [random_position(rng, 10, "allpass") for _ in range(300)]
    return {
        "contract": contract[:n_contract],
        "moves": contract[:n_contract],
        "misere": misere[:n_misere],
        "allpass": allpass[:n_allpass],
    }


def _line(label: str, pos) -> str:
    trump = 4 if pos.trump is None else pos.trump
    talon = " ".join(str(t) for t in pos.talon_leads)
    return (
        f"{label} {MODE_NUMBER[pos.mode]} {pos.hands[0]} {pos.hands[1]} {pos.hands[2]} "
        f"{pos.leader} {trump} {pos.side} {len(pos.talon_leads)} {talon}".rstrip()
    )


def build(tmp: str) -> str:
    exe = os.path.join(tmp, "driver")
    core = [os.path.join(CORE, "ddcore.c"), os.path.join(CORE, "ddcore_bmi2.c")]
    cmd = ["gcc", *FLAGS, f"-I{CORE}", DRIVER, *core, "-o", exe]
    subprocess.run(cmd, check=True)
    return exe


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--contract", type=int, default=200)
    ap.add_argument("--misere", type=int, default=50)
    ap.add_argument("--allpass", type=int, default=50)
    ap.add_argument("--time", type=int, default=0, help="run natively R times, print CPU ms")
    ap.add_argument("--table-kb", type=int, default=512, help="table size (module default 512)")
    args = ap.parse_args(argv)
    sets = bench_sets(args.contract, args.misere, args.allpass)
    with tempfile.TemporaryDirectory() as tmp:
        exe = build(tmp)
        if args.time:
            path = os.path.join(tmp, "all.txt")
            with open(path, "w") as fh:
                for label, positions in sets.items():
                    fh.writelines(_line(label, p) + "\n" for p in positions)
            out = subprocess.run(
                [exe, path, str(args.time), str(args.table_kb)], check=True, capture_output=True
            )
            sys.stdout.write(out.stdout.decode())
            return 0
        print(f"{'set':<10}{'solves':>7}{'instr/solve':>14}{'nodes/solve':>13}{'instr/node':>12}")
        for label, positions in sets.items():
            if not positions:
                continue
            path = os.path.join(tmp, f"{label}.txt")
            with open(path, "w") as fh:
                fh.writelines(_line(label, p) + "\n" for p in positions)
            outfile = os.path.join(tmp, f"cg.{label}")
            res = subprocess.run(
                [
                    "valgrind",
                    "--tool=callgrind",
                    f"--callgrind-out-file={outfile}",
                    "--toggle-collect=dd_solve",
                    "--toggle-collect=dd_solve_moves",
                    exe,
                    path,
                    "1",
                    str(args.table_kb),
                ],
                check=True,
                capture_output=True,
            )
            text = res.stdout.decode()
            nodes = float(re.search(r"([\d.]+) nodes/solve", text).group(1))
            total = 0
            for name in glob.glob(outfile + "*"):
                with open(name) as fh:
                    m = re.search(r"^(?:summary|totals): (\d+)", fh.read(), re.M)
                    total += int(m.group(1)) if m else 0
            n = len(positions)
            print(
                f"{label:<10}{n:>7}{total / n:>14,.0f}{nodes:>13,.0f}"
                f"{(total / n) / max(nodes, 1):>12.0f}   {text.split('checksum')[1].split()[0]}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
