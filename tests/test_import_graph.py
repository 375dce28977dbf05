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


SERVER_FOLDERS = ("web", "cluster", "table", "security", "lang", "store")
"""The server's folders from the top down (docs/architecture.md draws them)."""


def test_the_servers_folders_import_only_downward():
    """A folder of the server imports only from the folders below it, and none imports the
    process's own modules (app, serve, workers) above them; imports made only for type
    annotations count too (a part talks back to its owner through a protocol instead)."""
    prefix = "preferans.server."

    def folder(module: str) -> str | None:
        if not module.startswith(prefix):
            return None
        head = module[len(prefix):].split(".")[0]
        return head if head in SERVER_FOLDERS else "(process)"

    upward = []
    for module, targets in import_graph.graph(typing=True).items():
        here = folder(module)
        if here is None or here == "(process)":
            continue
        for target in targets:
            there = folder(target)
            if there is None or there == here:
                continue
            if there == "(process)" or SERVER_FOLDERS.index(there) < SERVER_FOLDERS.index(here):
                upward.append(f"{module} -> {target}")
    assert upward == []
    folders = {p.name for p in (Path(__file__).resolve().parents[1] / "src/preferans/server")
               .iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert folders == set(SERVER_FOLDERS)
