"""The README's options table is the one the rules code generates."""

import importlib.util
from pathlib import Path

from preferans.rules import options_table

ROOT = Path(__file__).resolve().parent.parent


def test_readme_options_table_is_generated_from_the_code():
    spec = importlib.util.spec_from_file_location("update_readme", ROOT / "tools/update_readme.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert tool.with_table(text, options_table()) == text, (
        "README.md's options table is stale: run python tools/update_readme.py"
    )
