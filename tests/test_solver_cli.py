"""The solver's command functions: ``preferans solve`` and ``preferans bench solver``."""

from __future__ import annotations

import json

from preferans.solver.bench import check_targets
from preferans.solver.commands import solve_command

EXAMPLE = {
    "format": "preferans-position/1",
    "hands": [["AS", "KS", "7H"], ["QS", "8D", "9H"], ["JS", "10D"]],
    "trick": ["8C"],
    "leader": 2,
    "trump": "H",
    "mode": "contract",
    "declarer": 0,
}


def test_solve_command_json(tmp_path, capsys) -> None:
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(EXAMPLE))
    assert solve_command(str(path), True) == 0
    assert json.loads(capsys.readouterr().out) == {"value": 1, "moves": {"7H": 1}}


def test_solve_command_text(tmp_path, capsys) -> None:
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(EXAMPLE))
    assert solve_command(str(path), False) == 0
    out = capsys.readouterr().out
    assert "value: 1 trick" in out and "7H" in out


def test_solve_command_bad_input(tmp_path, capsys) -> None:
    bad = dict(EXAMPLE, hands=[["AS", "KS", "7H"], ["AS", "8D", "9H"], ["JS", "10D"]])
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    assert solve_command(str(path), True) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "card AS is in two hands" in err and "Traceback" not in err
    assert solve_command(str(tmp_path / "missing.json"), False) == 2
    (tmp_path / "junk.json").write_text("{not json")
    assert solve_command(str(tmp_path / "junk.json"), False) == 2


def test_targets_check() -> None:
    figures = {"contract_median_ms": 0.1, "batch_speedup": 1.2}
    result = check_targets(figures)
    assert result["contract_median_ms"]["met"] is True
    assert result["batch_speedup"]["met"] is False
    assert result["dds_ratio"]["met"] is None


def test_bench_quick_run_has_the_issue_keys(capsys) -> None:
    """A quick one-pass bench gives every figure the issue names, positive, and the JSON
    object on stdout; a pass count below one is refused with a message."""
    import json

    from preferans.solver.commands import bench_solver_command

    assert bench_solver_command(True, quick=True, passes=1) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["timing_passes"] == 1 and figures["quick"] is True
    for key in (
        "contract_median_ms",
        "contract_p99_ms",
        "contract_solves_per_s",
        "root_moves_ratio",
        "misere_solves_per_s",
        "allpass_solves_per_s",
        "batch_speedup",
        "contract_solves_per_s_median_pass",
    ):
        assert figures[key] > 0, key
    assert "dds_median_ms" in figures and "dds_ratio" in figures
    assert figures["contract_nodes_per_solve"] > 0
    assert set(figures["targets"]) >= {"contract_solves_per_s", "root_moves_ratio"}
    assert bench_solver_command(True, passes=0) == 2
    assert "--passes must be at least 1" in capsys.readouterr().err
