"""The package's Python import graph and its circles.

Every ``import`` the interpreter can run counts: at the top of a module and inside a
function (a local import still ties the two modules together); an import under
``if TYPE_CHECKING:`` does not (it never runs), unless ``--typing`` is given.  A circle is a
strongly connected component of more than one module (or a module that imports itself).

    python tools/import_graph.py                      # every circle, with its arrows
    python tools/import_graph.py --exclude preferans.server
    python tools/import_graph.py --edges              # every arrow, one a line

The exit status is the number of circles (0: none), capped at 100.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "preferans"


def module_names(root: Path = ROOT, package: str = PACKAGE) -> dict[str, Path]:
    """``dotted name -> file`` for every module of the package (``__init__`` as the package)."""
    out: dict[str, Path] = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    for path in sorted((root / package).rglob("*.so")):  # compiled extensions: leaves
        parts = list(path.relative_to(root).parts)
        parts[-1] = parts[-1].split(".")[0]
        out.setdefault(".".join(parts), path)
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, typing: bool) -> list[ast.Import | ast.ImportFrom]:
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test) and not typing:
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The longest known module that ``name`` is or lies in."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def graph(
    modules: dict[str, Path] | None = None, *, typing: bool = False
) -> dict[str, set[str]]:
    """``module -> modules it imports`` within the package."""
    modules = module_names() if modules is None else modules
    edges: dict[str, set[str]] = {m: set() for m in modules}
    for mod, path in modules.items():
        is_pkg = path.name == "__init__.py"
        if path.suffix != ".py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in _imports(tree, typing):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                if node.level:
                    base = mod.split(".") if is_pkg else mod.split(".")[:-1]
                    base = base[: len(base) - (node.level - 1)]
                    stem = ".".join([*base, node.module] if node.module else base)
                else:
                    stem = node.module or ""
                for alias in node.names:
                    full = f"{stem}.{alias.name}"
                    targets.append(full if full in modules else stem)
            for target in targets:
                hit = _resolve(target, modules)
                if hit is not None and (hit != mod or target == mod):
                    edges[mod].add(hit)  # a module importing itself is a circle too
    return edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def strong(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp: list[str] = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in edges.get(v, ()):
                found.append(sorted(comp))

    sys.setrecursionlimit(max(10_000, sys.getrecursionlimit()))
    for v in sorted(edges):
        if v not in index:
            strong(v)
    return sorted(found)


def package_circles(exclude: tuple[str, ...] = (), *, typing: bool = False) -> list[list[str]]:
    """The package's circles, leaving out modules under any prefix in ``exclude``."""
    modules = {
        m: p
        for m, p in module_names().items()
        if not any(m == x or m.startswith(x + ".") for x in exclude)
    }
    return circles(graph(modules, typing=typing))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exclude", action="append", default=[],
                        help="leave out a module or subpackage (dotted, repeatable)")
    parser.add_argument("--typing", action="store_true",
                        help="count imports under `if TYPE_CHECKING:` too")
    parser.add_argument("--edges", action="store_true", help="print every arrow")
    args = parser.parse_args(argv)
    modules = {
        m: p
        for m, p in module_names().items()
        if not any(m == x or m.startswith(x + ".") for x in args.exclude)
    }
    edges = graph(modules, typing=args.typing)
    if args.edges:
        for m in sorted(edges):
            for t in sorted(edges[m]):
                print(f"{m} -> {t}")
    found = circles(edges)
    n_edges = sum(len(t) for t in edges.values())
    print(f"{len(modules)} modules, {n_edges} import arrows, {len(found)} circles")
    for comp in found:
        members = set(comp)
        print(f"circle of {len(comp)}: " + " ".join(comp))
        for m in comp:
            for t in sorted(edges[m] & members):
                print(f"    {m} -> {t}")
    return min(len(found), 100)


if __name__ == "__main__":
    raise SystemExit(main())
