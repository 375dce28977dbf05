"""Regenerate the presets × options table in README.md from the rules code.

Run ``python tools/update_readme.py``; ``tests/test_readme.py`` fails when the README's
table and ``preferans.rules.options_table()`` disagree.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
START, END = "<!-- options-table:start -->", "<!-- options-table:end -->"


def with_table(text: str, table: str) -> str:
    """The README text with the block between the markers replaced by ``table``."""
    pattern = re.compile(re.escape(START) + r".*?" + re.escape(END), re.DOTALL)
    if not pattern.search(text):
        raise SystemExit(f"README.md has no {START} … {END} block")
    return pattern.sub(lambda _: f"{START}\n{table}\n{END}", text)


def main() -> int:
    sys.path.insert(0, str(README.parent / "src"))
    from preferans.rules import options_table

    README.write_text(with_table(README.read_text(encoding="utf-8"), options_table()), "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
