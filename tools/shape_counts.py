"""The package's shape in numbers: modules per folder, the longest modules, classes and
functions, and the lines of chosen modules that name a structural variant.

    python tools/shape_counts.py                  # the engine's figures (issue 38's note)
    python tools/shape_counts.py --top 10 src/preferans/deal.py src/preferans/sheet.py
    python tools/shape_counts.py --under server   # the server's folders alone (issue 46)

A line names a variant when it holds, in any case, one of the words of ``VARIANT_WORDS``
(the same count as ``grep -ciE 'rogue|racing|halftime|classical|dummy|blind|invite'``).
A class's length runs from its ``class`` line to its last statement (docstrings, comments
and blank lines inside included); a mixin counts as its own class.  A function's length
runs the same way from its first decorator to its last statement; a nested function counts
inside its own and on its own.
"""

from __future__ import annotations

import argparse
import ast
import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "preferans"
VARIANT_WORDS = ("rogue", "racing", "halftime", "classical", "dummy", "blind", "invite")
_VARIANT = re.compile("|".join(VARIANT_WORDS), re.IGNORECASE)
WATCHED = ("deal.py", "sheet.py", "game.py")


def variant_lines(path: Path) -> int:
    """Lines of ``path`` that name a variant (``grep -ci`` of :data:`VARIANT_WORDS`)."""
    return sum(1 for line in path.read_text(encoding="utf-8").splitlines() if _VARIANT.search(line))


def line_count(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def classes(path: Path) -> list[tuple[str, int]]:
    """``(name, lines)`` of every class in ``path`` (nested ones too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            out.append((node.name, (node.end_lineno or node.lineno) - start + 1))
    return out


def functions(path: Path) -> list[tuple[str, int]]:
    """``(name, lines)`` of every function and method in ``path`` (nested ones too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            out.append((node.name, (node.end_lineno or node.lineno) - start + 1))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=5, help="how many longest to list")
    parser.add_argument("--under", default="", help="a folder of the package (e.g. server)")
    parser.add_argument("files", nargs="*", help="modules whose variant lines to count")
    args = parser.parse_args(argv)
    modules = sorted((PACKAGE / args.under).rglob("*.py"))
    folders = Counter(str(p.parent.relative_to(PACKAGE.parent)) for p in modules)
    print(f"modules: {len(modules)}")
    for folder, n in sorted(folders.items()):
        print(f"  {folder + '/':28} {n}")
    sizes = sorted(((line_count(p), p) for p in modules), reverse=True)
    print("longest modules (lines):")
    for n, p in sizes[: args.top]:
        print(f"  {n:5}  {p.relative_to(PACKAGE.parent)}")
    found = sorted(
        ((n, f"{p.relative_to(PACKAGE.parent)}:{name}") for p in modules for name, n in classes(p)),
        reverse=True,
    )
    print("longest classes (lines):")
    for n, where in found[: args.top]:
        print(f"  {n:5}  {where}")
    files = [Path(f) for f in args.files] or [PACKAGE / w for w in WATCHED]
    longest = sorted(
        ((n, f"{p.relative_to(PACKAGE.parent)}:{name}") for p in modules
         for name, n in functions(p)),
        reverse=True,
    )
    print("longest functions (lines):")
    for n, where in longest[: args.top]:
        print(f"  {n:5}  {where}")
    if args.under:
        return
    print("lines naming a variant (" + "|".join(VARIANT_WORDS) + ", any case):")
    for p in files:
        longest = max((n for _, n in classes(p)), default=0)
        print(
            f"  {p.name:12} {variant_lines(p):4} of {line_count(p):5} lines;"
            f" longest class {longest}"
        )


if __name__ == "__main__":
    main()
