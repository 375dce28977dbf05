"""The web table's ES modules import one another without a circle.

Reads every ``import … from "./x.js"`` (and ``export … from``) line of
``src/preferans/server/static/*.js`` and checks that the graph of those imports is acyclic:
a panel (bidding, hand, help, menu, sheet) gets what it needs from ``main.js`` at start-up
or through ``channel.js``, never by importing the table back.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parent.parent / "src/preferans/server/static"

# import x from "./a.js"; import { a, b } from "./a.js"; import * as s from "./a.js";
# export { a } from "./a.js"; import "./a.js"; the braces may span several lines.
IMPORT = re.compile(
    r"""^\s*(?:import|export)\s+(?:[^;'"]*?\s+from\s+)?["'](?P<path>\.{1,2}/[^"']+\.js)["']""",
    re.MULTILINE | re.DOTALL,
)


def import_graph(folder: Path = STATIC) -> dict[str, set[str]]:
    """Each module (a path relative to ``folder``) and the local modules it imports."""
    graph: dict[str, set[str]] = {}
    for file in sorted(folder.rglob("*.js")):
        name = file.relative_to(folder).as_posix()
        targets = set()
        for match in IMPORT.finditer(file.read_text(encoding="utf-8")):
            target = (file.parent / match["path"]).resolve()
            if target.is_relative_to(folder.resolve()):
                targets.add(target.relative_to(folder.resolve()).as_posix())
        graph[name] = targets
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every elementary circle of the graph (each once, starting at its smallest name)."""
    found: list[list[str]] = []

    def walk(start: str, node: str, path: list[str]) -> None:
        for nxt in sorted(graph.get(node, ())):
            if nxt == start:
                found.append([*path, start])
            elif nxt > start and nxt not in path:
                walk(start, nxt, [*path, nxt])

    for start in sorted(graph):
        walk(start, start, [start])
    return found


def test_the_parser_sees_every_import_form(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text(
        'import { x,\n  y } from "./b.js";\nimport * as c from "./c.js";\n'
        'import "./d.js";\nexport { z } from "./sub/e.js";\n'
        '// import { no } from "./commented.js" is not an import\n'
        'const dynamic = await import("./f.js");\n',
        encoding="utf-8",
    )
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub/e.js").write_text('import { a } from "../a.js";\n', encoding="utf-8")
    graph = import_graph(tmp_path)
    assert graph == {"a.js": {"b.js", "c.js", "d.js", "sub/e.js"}, "sub/e.js": {"a.js"}}
    assert cycles(graph) == [["a.js", "sub/e.js", "a.js"]]


def test_cycles_finds_every_circle_once() -> None:
    graph = {"a": {"b", "c"}, "b": {"a", "c"}, "c": {"a"}, "d": {"d"}}
    assert cycles(graph) == [
        ["a", "b", "a"],
        ["a", "b", "c", "a"],
        ["a", "c", "a"],
        ["d", "d"],
    ]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_the_static_modules_are_read() -> None:
    graph = import_graph()
    # The entry points and what they must reach: a check that reads nothing passes vacuously.
    assert {"main.js", "replay.js", "table.js", "channel.js"} <= set(graph)
    assert {"table.js", "channel.js", "socket.js"} <= graph["main.js"]
    assert "i18n.js" in graph["table.js"]


@pytest.mark.parametrize("panel", ["bidding.js", "hand.js", "help.js", "menu.js", "sheet.js"])
def test_no_panel_imports_the_table(panel: str) -> None:
    assert "table.js" not in import_graph()[panel]


def test_the_static_modules_have_no_import_circle() -> None:
    found = cycles(import_graph())
    assert found == [], "import circles: " + "; ".join(" → ".join(c) for c in found)
