"""Regenerate the presets × options table in docs/conventions.md from the rules code.

Run ``python tools/update_readme.py``; ``tests/test_readme.py`` fails when the table in
``docs/conventions.md`` and ``preferans.rules.options_table()`` disagree.  (The table lived
in the README until the README became a newcomer's page; the tool kept its name.)
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONVENTIONS = ROOT / "docs" / "conventions.md"
START, END = "<!-- options-table:start -->", "<!-- options-table:end -->"


def with_table(text: str, table: str) -> str:
    """The text with the block between the markers replaced by ``table``."""
    pattern = re.compile(re.escape(START) + r".*?" + re.escape(END), re.DOTALL)
    if not pattern.search(text):
        raise SystemExit(f"{CONVENTIONS.name} has no {START} … {END} block")
    return pattern.sub(lambda _: f"{START}\n{table}\n{END}", text)


def main() -> int:
    sys.path.insert(0, str(ROOT / "src"))
    from preferans.rules import options_table

    text = CONVENTIONS.read_text(encoding="utf-8")
    CONVENTIONS.write_text(with_table(text, options_table()), "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
