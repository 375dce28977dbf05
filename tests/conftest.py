"""Shared test settings: computer players think without a clock unless a test asks for it.

A decision budget that binds makes a decision depend on the machine's load, and this suite
runs on busy machines; tests that assert decisions (or their determinism) must not depend on
that.  Tests marked ``budgets`` keep the levels' default budgets; tests passing
``budget=`` explicitly get what they pass either way.

The web servers the tests start are test servers: they answer Starlette's test client's
host (``testserver``), let a test choose a new game's seed (``PREFERANS_ALLOW_SEEDS``),
take the messages of scripted players who answer at once (``PREFERANS_MESSAGE_RATE``) and
the many games a test makes from one address (``PREFERANS_CREATION_RATE``); the tests of
those guards pass their own settings to ``create_app``.
"""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("PREFERANS_ALLOWED_HOSTS", "testserver")
os.environ.setdefault("PREFERANS_ALLOW_SEEDS", "1")
os.environ.setdefault("PREFERANS_MESSAGE_RATE", "10000")  # scripted players answer at once
os.environ.setdefault("PREFERANS_CREATION_RATE", "100000")  # a test makes many games at once

import preferans.players.clock as clock


@pytest.fixture(autouse=True)
def _no_default_budgets(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if request.node.get_closest_marker("budgets") is None:
        monkeypatch.setattr(clock, "BUDGETS", {})
