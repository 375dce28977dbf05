"""Run the solver benchmark: ``python benchmarks/bench_solver.py [--json] [--quick]``."""

import sys

from preferans.solver.commands import bench_solver_command

if __name__ == "__main__":
    sys.exit(bench_solver_command("--json" in sys.argv[1:], quick="--quick" in sys.argv[1:]))
