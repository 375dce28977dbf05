"""The README and the docs tell the truth the code can check.

The presets × options table in docs/conventions.md is the one the rules code generates; the
README's library example runs as written; every link and picture of the README and of
docs/*.md points at a file (and a heading) that exists; the README stays a newcomer's page.
"""

from __future__ import annotations

import doctest
import importlib.util
import re
from pathlib import Path

import pytest

from preferans.rules import PRESETS, options_table

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))

LINK = re.compile(r"\]\(([^)\s]+)\)|<img [^>]*src=\"([^\"]+)\"")


def _tool():
    spec = importlib.util.spec_from_file_location("update_readme", ROOT / "tools/update_readme.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


def test_options_table_is_generated_from_the_code():
    tool = _tool()
    assert tool.CONVENTIONS == ROOT / "docs" / "conventions.md"
    text = tool.CONVENTIONS.read_text(encoding="utf-8")
    assert tool.with_table(text, options_table()) == text, (
        "docs/conventions.md's options table is stale: run python tools/update_readme.py"
    )


def test_the_readme_links_to_the_options_table_instead_of_copying_it():
    text = README.read_text(encoding="utf-8")
    assert "options-table:start" not in text
    assert "](docs/conventions.md)" in text


def test_the_readme_library_example_runs():
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.DOTALL)
    assert len(blocks) == 1 and blocks[0].count(">>> ") >= 8
    parser = doctest.DocTestParser()
    test = parser.get_doctest(blocks[0], {}, "README.md", str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    result = runner.run(test)
    assert result.attempted >= 8
    assert result.failed == 0, "the README's library example no longer runs as written"


def test_the_readme_counts_the_presets_right():
    assert f"| Conventions | {len(PRESETS)} presets (" in README.read_text(encoding="utf-8")


def test_the_readme_is_a_page_for_a_newcomer():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 150
    headings = [line for line in lines if line.startswith("## ")]
    assert headings == ["## Two commands", "## Play with friends over the internet",
                        "## What works", "## The library", "## Command line", "## Read more"]


def test_the_readme_says_how_to_play_with_friends_over_the_internet():
    text = README.read_text(encoding="utf-8")
    section = text.split("## Play with friends over the internet", 1)[1].split("\n## ", 1)[0]
    assert "[docs/hosting.md](docs/hosting.md)" in section
    assert "--public-url" in section and "--trusted-proxy 127.0.0.1" in section


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return {_slug(line.lstrip("#")) for line in lines if re.match(r"#{1,6} ", line)}


@pytest.mark.parametrize("page", [README, *DOCS], ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_link_and_picture_points_at_something_there(page: Path):
    text = page.read_text(encoding="utf-8")
    targets = [a or b for a, b in LINK.findall(text)]
    for target in targets:
        if re.match(r"[a-z]+:", target):  # http:, https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        where = (page.parent / path).resolve() if path else page
        assert where.exists(), f"{page.name}: {target} does not exist"
        if anchor and where.suffix == ".md":
            assert anchor in _anchors(where), f"{page.name}: no heading #{anchor} in {path}"


PATH = re.compile(r"`([^`\s<>*]+/[^`\s<>*]*\.(?:md|py|js|html|css|json|toml|c|h|service))`")
"""A file named in backquotes: `docs/hosting.md`, `server/security/guard.py`."""


@pytest.mark.parametrize("page", [README, *DOCS], ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_file_a_page_names_is_in_the_repository(page: Path):
    """A file named in the text (not only linked) is one a clone holds: from the
    repository's root, the package's or the server's folder (module paths) or the page's
    own folder.  (The README once named shared/spec/records.md, which only the developers'
    brief has.)"""
    named = [m for m in PATH.findall(page.read_text(encoding="utf-8"))
             if not m.startswith(("/", "~", ".venv/")) and not re.search(r"\b[A-Z]{3,}/", m)]
    roots = (ROOT, ROOT / "src" / "preferans", ROOT / "src" / "preferans" / "server",
             page.parent)
    missing = [m for m in named if not any((root / m).exists() for root in roots)]
    assert not missing, f"{page.name} names files a clone does not have: {missing}"


def test_the_records_spec_is_the_projects_own_copy_word_for_word():
    copy = (ROOT / "docs" / "records.md").read_text(encoding="utf-8")
    note, _, body = copy.partition("\n\n# ")
    assert "shared/spec/records.md" in note and "word for word" in note
    for original in (ROOT / "shared" / "spec" / "records.md",
                     ROOT.parent / "shared" / "spec" / "records.md"):
        if original.exists():
            assert "# " + body == original.read_text(encoding="utf-8")
            break
    else:
        assert body.startswith("Game records and score sheets: the exchange format")


def test_the_screenshots_are_real_small_pictures():
    for name, (width, height) in {"table-desktop.png": (1280, 800),
                                  "table-phone.png": (390, 844)}.items():
        data = (ROOT / "docs" / "images" / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        size = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        assert size == (width, height), name
        assert len(data) < 400_000, f"{name} is {len(data)} bytes"
