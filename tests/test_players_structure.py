"""The computer players' package keeps its shape (issue 38): the Monte Carlo player is a thin
class over decision modules, no class or module grows into a room of its own, and no module of
``preferans.players`` imports back one that imports it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import preferans.players as players_pkg

PLAYERS = Path(players_pkg.__file__).parent
MAX_CLASS_LINES = 400
MAX_MODULE_LINES = 900
DECISION_MODULES = ("levels", "sampling", "auction", "declarer", "defence", "play",
                    "allpass", "misere", "variant_calls")


def _modules() -> dict[str, Path]:
    return {p.stem: p for p in sorted(PLAYERS.glob("*.py"))}


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of the package that ``name`` imports (anywhere in it, at the top or inside
    a function), ``__init__`` for the package itself."""
    package = ["preferans", "players"]  # every module's package, __init__'s too
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                target = base + (node.module.split(".") if node.module else [])
            else:
                target = (node.module or "").split(".")
            if target[:2] != package:
                continue
            if len(target) == 2:  # from . import x: a submodule, or a name of __init__
                for alias in node.names:
                    out.add(alias.name if alias.name in known else "__init__")
            else:
                out.add(target[2])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[:2] == package:
                    out.add(parts[2] if len(parts) > 2 else "__init__")
    out.discard(name)
    return out


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {name: _imports(name, path, known) & known for name, path in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected set of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_circles_within_players() -> None:
    graph = _graph()
    assert graph["montecarlo"] >= {"auction", "declarer", "defence", "play", "variant_calls"}
    assert graph["auction"] >= {"thinker", "allpass", "misere"}
    assert _cycles(graph) == []


def test_the_decision_modules_do_not_import_the_player() -> None:
    graph = _graph()
    for name in (*DECISION_MODULES, "thinker", "contract_value", "defence_mode"):
        assert "montecarlo" not in graph[name], name
        assert "__init__" not in graph[name], name


@pytest.mark.parametrize("name", sorted(_modules()))
def test_no_module_or_class_is_a_room_of_its_own(name: str) -> None:
    path = _modules()[name]
    lines = path.read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_MODULE_LINES, (name, lines)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ClassDef):
            assert node.end_lineno is not None
            size = node.end_lineno - node.lineno + 1
            assert size <= MAX_CLASS_LINES, (name, node.name, size)


def test_the_player_is_thin() -> None:
    tree = ast.parse((PLAYERS / "montecarlo.py").read_text(encoding="utf-8"))
    player = next(n for n in tree.body
                  if isinstance(n, ast.ClassDef) and n.name == "MonteCarloPlayer")
    methods = [n.name for n in player.body if isinstance(n, ast.FunctionDef)]
    assert methods == ["choose", "explain", "_simulator"]
    assert player.end_lineno is not None and player.end_lineno - player.lineno < 120


def test_the_public_names_still_import() -> None:
    from preferans.players import CRAZY, HARD, NORMAL, Level, MonteCarloPlayer, make_player
    from preferans.players.montecarlo import LEVELS_BY_NAME, decision_rng, talon_leads

    assert {lv.name for lv in (NORMAL, HARD, CRAZY)} <= set(LEVELS_BY_NAME)
    assert isinstance(HARD, Level) and callable(decision_rng) and callable(talon_leads)
    from preferans.rules import Rules

    assert isinstance(make_player("hard", Rules.preset("sochi")), MonteCarloPlayer)
