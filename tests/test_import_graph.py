"""The package imports without circles (tools/import_graph.py), the server included, and the
new small modules keep their examples."""

from __future__ import annotations

import doctest
import importlib
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))

import import_graph


def test_no_import_circles():
    assert import_graph.package_circles() == []


def test_the_tool_finds_a_circle():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert import_graph.circles(edges) == [["a", "b", "c"], ["e"]]


def test_the_tool_reads_local_imports_and_skips_type_checking(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("def f():\n    from .b import g\n")
    (pkg / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import f\n"
    )
    modules = import_graph.module_names(tmp_path, "pkg")
    assert import_graph.graph(modules) == {"pkg": set(), "pkg.a": {"pkg.b"}, "pkg.b": set()}
    assert import_graph.graph(modules, typing=True)["pkg.b"] == {"pkg.a"}


@pytest.mark.parametrize("name", [
    "preferans.points",
    "preferans.variants.seating",
    "preferans.variants.rogue",
    "preferans.variants.racing",
    "preferans.solver.trickmath",
    "preferans.guide.worked",
    "preferans.record",
    "preferans.game",
    "preferans.server.table.seats",
    "preferans.server.security.tokens",
])
def test_module_doctests(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0, name


def test_the_architecture_page_names_every_module_and_folder():
    """docs/architecture.md's module table names every module at the package's root and
    every folder under it."""
    root = Path(__file__).resolve().parents[1]
    page = (root / "docs" / "architecture.md").read_text(encoding="utf-8")
    table = page[page.index("## The modules"):page.index("## Where a new thing goes")]
    package = root / "src" / "preferans"
    names = [f"`{p.name}`" for p in package.glob("*.py")]
    names += [f"`{p.name}/`" for p in package.iterdir()
              if p.is_dir() and not p.name.startswith(("_", "."))]
    missing = sorted(n for n in names if n not in table)
    assert len(names) > 30 and missing == [], missing
