"""The web game's routes stay as they were: every method, path and status code a route can
answer, in the app's order (tools/route_list.py; the list was taken before the server's
reshape into folders, issue 46, and is the same as the unreshaped server's of the same day,
whose creation bounds of issue 45 added the 429s).  A change that adds or changes a route updates
``route_list.json`` with ``python tools/route_list.py --json``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "tools"))

import route_list  # noqa: E402


def test_the_route_list_is_the_pinned_one():
    pinned = json.loads((HERE / "route_list.json").read_text(encoding="utf-8"))
    assert route_list.routes() == pinned


def test_the_reader_follows_helpers_and_callbacks():
    """A code written in a helper the route calls, or in a callback it hands on, counts."""
    found = {(r["path"], tuple(r["methods"])): set(r["codes"]) for r in route_list.routes()}
    assert {403, 404, 409}.issubset(found[("/api/friends/{game_id}/seat", ("POST",))])
    assert {413, 415, 429}.issubset(found[("/api/review", ("POST",))])
    assert {4403, 4404, 4429}.issubset(found[("/ws/{game_id}", ("WEBSOCKET",))])
