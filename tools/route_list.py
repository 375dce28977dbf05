"""The web game's routes: method, path, and the status codes each can answer.

    python tools/route_list.py            # one line a route, in the app's order
    python tools/route_list.py --json     # the same as JSON (tests/server/route_list.json)

A route's codes are the union of three readings: the code its decorator declares, the
responses of its operation in the OpenAPI schema (422 where FastAPI checks a body or a
parameter), and the codes written in its function's source and in every function of the
server package it names bare (calls, or hands on as a callback; a class: its ``__init__``),
followed by name (``status_code=N`` and ``code=N`` keywords, an
``HTTPException(N)``, and 3- or 4-digit numbers passed to a call: a page, a JSON answer, a
socket's close or refusal).  Reading by name over-reads rather than misses: a call named
like another function of the package reads that one's codes too, the same before and after
a reshape that keeps the names; a method called on an object (``tables.get``) is not
followed.  A WebSocket's codes are its close codes (4xxx) and the
frames' HTTP-like codes it writes.
"""

from __future__ import annotations

import argparse
import ast
import inspect
import json
import sys
import textwrap
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SERVER = ROOT / "src" / "preferans" / "server"


def _functions() -> dict[str, list[ast.AST]]:
    """Every function of the server package (nested ones too), by name."""
    found: dict[str, list[ast.AST]] = {}
    for path in sorted(SERVER.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.setdefault(node.name, []).append(node)
            elif isinstance(node, ast.ClassDef):  # a call of the class runs its __init__
                found.setdefault(node.name, []).extend(
                    n for n in node.body
                    if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    return found


def _is_code(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and (
        100 <= value <= 599 or 1000 <= value <= 4999)


def _codes_here(node: ast.AST) -> tuple[set[int], set[str]]:
    """The codes written in one function (the functions and lambdas nested in it
    included) and the bare names it uses (a call, or a function handed on)."""
    codes: set[int] = set()
    names: set[str] = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            names.add(n.id)
        if isinstance(n, ast.Call):
            for kw in n.keywords:
                if kw.arg in ("status_code", "code", "status") and isinstance(
                        kw.value, ast.Constant) and _is_code(kw.value.value):
                    codes.add(kw.value.value)
            for arg in n.args:
                if isinstance(arg, ast.Constant) and _is_code(arg.value):
                    codes.add(arg.value)
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = n.args
            named = [*args.posonlyargs, *args.args]
            pairs = [*zip(named[len(named) - len(args.defaults):], args.defaults, strict=True),
                     *zip(args.kwonlyargs, args.kw_defaults, strict=True)]
            for a, d in pairs:
                if a.arg in ("status_code", "status") and isinstance(d, ast.Constant) \
                        and _is_code(d.value):
                    codes.add(d.value)
    return codes, names


def source_codes(endpoint: Any, functions: dict[str, list[ast.AST]]) -> set[int]:
    """The codes of ``endpoint`` and of the package's functions it calls, by name."""
    try:
        source = textwrap.dedent(inspect.getsource(endpoint))
    except (OSError, TypeError):
        return set()
    start = ast.parse(source).body[0]
    seen: set[int] = set()
    codes: set[int] = set()
    todo = [start]
    while todo:
        node = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        here, calls = _codes_here(node)
        codes |= here
        for name in calls:
            todo.extend(functions.get(name, ()))
    return codes


def flat_routes(routes: Any) -> list[Any]:
    """The routes in matching order, an included router's own routes in its place (FastAPI
    0.165 keeps an included router whole in ``app.routes``; older ones copy its routes)."""
    out = []
    for route in routes:
        inner = getattr(route, "original_router", None)
        out.extend(flat_routes(inner.routes) if inner is not None else [route])
    return out


def routes(app: Any = None) -> list[dict[str, Any]]:
    """Every route of the app (the one :func:`create_app` builds, by default) in its order."""
    if app is None:
        from preferans.server.app import create_app

        app = create_app("sqlite://", bot_delay=0, bot_workers=0)
    functions = _functions()
    schema = app.openapi()
    out = []
    for route in flat_routes(app.routes):
        methods = sorted(getattr(route, "methods", None) or [])
        path = getattr(route, "path", "")
        kind = type(route).__name__
        endpoint = getattr(route, "endpoint", None)
        codes = source_codes(endpoint, functions) if endpoint is not None else set()
        declared = getattr(route, "status_code", None)
        if declared:
            codes.add(int(declared))
        operations = schema.get("paths", {}).get(path, {})
        for method in methods:
            for code in operations.get(method.lower(), {}).get("responses", {}):
                if code.isdigit():
                    codes.add(int(code))
        out.append({"kind": kind, "methods": methods or ["WEBSOCKET"] * (
            kind == "APIWebSocketRoute"), "path": path,
            "name": getattr(route, "name", None), "codes": sorted(codes)})
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    found = routes()
    if args.json:
        json.dump(found, sys.stdout, indent=1)
        print()
        return
    for r in found:
        print(f"{','.join(r['methods']) or '-':12} {r['path']:40} {r['kind']:20} "
              f"{' '.join(map(str, r['codes']))}")


if __name__ == "__main__":
    main()
