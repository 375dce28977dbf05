"""How lone whisters chose OPEN or CLOSED in a match's records, and how those deals went.

    .venv/bin/python tools/defence_rates.py RECORDS.jsonl [--json]

Reads the JSON lines that ``preferans match --records`` writes and, for every deal where a
lone whister chose ``OPEN`` or ``CLOSED``, counts the choice by the whister's level, with
the declarer's mean tricks and how often the contract was made.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from preferans.game import Game
from preferans.record import replay


def rates(lines: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """``{level: {"OPEN": {...}, "CLOSED": {...}}}`` over every lone whist of the records."""
    table: dict[str, dict[str, dict[str, float]]] = defaultdict(
        lambda: {m: {"deals": 0, "declarer_tricks": 0, "made": 0} for m in ("OPEN", "CLOSED")}
    )
    for line in lines:
        lineup = line["lineup"]
        game: Game = replay(line["record"])
        for deal in game.finished_deals:
            if len(deal.whisters) != 1 or deal.contract is None or deal.contract.misere:
                continue
            modes = [t for t in deal.tokens() if t in ("OPEN", "CLOSED")]
            if not modes or deal.declarer is None:
                continue
            level = lineup[deal.whisters[0]]
            row = table[level][modes[-1]]
            tricks = deal.tricks_won[deal.declarer]
            row["deals"] += 1
            row["declarer_tricks"] += tricks
            row["made"] += tricks >= deal.contract.level
    out: dict[str, dict[str, Any]] = {}
    for level, modes in sorted(table.items()):
        total = sum(m["deals"] for m in modes.values())
        out[level] = {"lone_whists": total}
        for mode, row in modes.items():
            n = row["deals"]
            out[level][mode] = {
                "deals": n,
                "share": round(n / total, 3) if total else 0.0,
                "declarer_tricks": round(row["declarer_tricks"] / n, 2) if n else None,
                "made": round(row["made"] / n, 3) if n else None,
            }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", type=Path)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    lines = [json.loads(x) for x in args.records.read_text(encoding="utf-8").splitlines() if x]
    result = rates(lines)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"{'level':8} {'lone':>5} {'OPEN':>12} {'CLOSED':>12}  declarer tricks / made (O, C)")
    for level, row in result.items():
        o, c = row["OPEN"], row["CLOSED"]
        print(f"{level:8} {row['lone_whists']:5} {o['deals']:5} ({o['share']:.0%}) "
              f"{c['deals']:5} ({c['share']:.0%})  {o['declarer_tricks']} / {o['made']}, "
              f"{c['declarer_tricks']} / {c['made']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
