"""The research examples run (shortened: a few deals, a few CFR iterations)."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _run(script: str, *args: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", [script, *args])
    runpy.run_path(str(EXAMPLES / script), run_name="__main__")


def test_random_against_hard(monkeypatch, capsys):
    _run("random_vs_hard.py", "--deals", "3", "--level", "hard/worlds=16", "--workers", "1",
         monkeypatch=monkeypatch)
    out = capsys.readouterr().out
    assert "whists a deal, 95% interval [" in out


@pytest.mark.slow
def test_cfr_on_the_allpass_endgame(monkeypatch, capsys):
    _run("cfr_allpass_endgame.py", "--iterations", "2", "--sims", "2",
         monkeypatch=monkeypatch)
    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if "NashConv" in line]
    uniform = float(lines[0].split(": ")[1].split()[0])
    last = float(lines[-1].split("NashConv ")[1].split()[0])
    assert last < uniform
