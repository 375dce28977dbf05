"""The double-dummy gap of real play, measured on match records (:mod:`preferans.analysis.ddgap`).

Prints, for contracts played against a closed and against an open defence, the declarer's
tricks taken minus double dummy at the first lead, counted by the double-dummy count
against the level: the form of ``CLOSED_COUNTS`` and ``OPEN_COUNTS`` in
:mod:`preferans.players.playgap`, which were measured this way.

    .venv/bin/python benchmarks/bench_playgap.py runs/p10-base
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path

from preferans.analysis.attribution import record_files
from preferans.analysis.ddgap import measure


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", help="a records directory (preferans match --records-dir)")
    parser.add_argument("--files", type=int, default=None, help="at most this many records")
    args = parser.parse_args()
    files = record_files(Path(args.records))[: args.files]
    start = time.perf_counter()
    counts = measure(json.loads(p.read_text()) for p in files)
    print(f"{len(files)} records, {len(counts.contracts)} contracts played "
          f"({time.perf_counter() - start:.0f} s)")
    for closed in (True, False):
        kind = "closed" if closed else "open"
        n = sum(1 for c in counts.contracts if c.closed == closed)
        mean = counts.mean_gap(closed)
        print(f"{kind}: {n} contracts, tricks taken − double dummy "
              f"{'—' if mean is None else f'{mean:+.3f}'}")
        by_player = Counter(c.declarer for c in counts.contracts if c.closed == closed)
        for name in sorted(by_player):
            gaps = [c.gap for c in counts.contracts if c.closed == closed
                    and c.declarer == name]
            print(f"  declarer {name}: {len(gaps)}, {sum(gaps) / len(gaps):+.3f}")
        print(f"{kind.upper()}_COUNTS = {counts.table(closed)}")


if __name__ == "__main__":
    main()
