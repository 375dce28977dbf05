"""Shared test settings: computer players think without a clock unless a test asks for it.

A decision budget that binds makes a decision depend on the machine's load, and this suite
runs on busy machines; tests that assert decisions (or their determinism) must not depend on
that.  Tests marked ``budgets`` keep the levels' default budgets; tests passing
``budget=`` explicitly get what they pass either way.
"""

from __future__ import annotations

import pytest

import preferans.players.clock as clock


@pytest.fixture(autouse=True)
def _no_default_budgets(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if request.node.get_closest_marker("budgets") is None:
        monkeypatch.setattr(clock, "BUDGETS", {})
