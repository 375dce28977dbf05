"""The solver's command functions: ``preferans solve`` and ``preferans bench solver``."""

from __future__ import annotations

import json

import pytest

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


def _position(**changes) -> bytes:
    return json.dumps(dict(EXAMPLE, **changes)).encode()


BAD_POSITIONS = {
    # kind: (the file's bytes, what the one error line says)
    "binary": (bytes(range(256)) * 4, "is a binary file, not JSON text"),
    "invalid UTF-8": (b'{"hands": "\xff"}', "is not UTF-8 text (byte 0xff at offset 11)"),
    "UTF-16 with BOM": (json.dumps(EXAMPLE).encode("utf-16"), "is UTF-16 text"),
    "UTF-16, no BOM": (json.dumps(EXAMPLE).encode("utf-16-le"), "looks like UTF-16 or UTF-32 text"),
    "null": (b"null", "a position is a JSON object {...}, not null"),
    "list": (b"[]", "a position is a JSON object {...}, not a list"),
    "number": (b"3", "a position is a JSON object {...}, not a number"),
    "string": (b'"pos.json"', "a position is a JSON object {...}, not a string"),
    "100,000 nested lists": (b"[" * 100_000 + b"]" * 100_000, "nested too deep"),
    "5,000-digit number": (b'{"leader": ' + b"1" * 5000 + b"}", "a number of 5000 digits"),
    "missing hands": (json.dumps({"leader": 0}).encode(), "'hands' must be a list of three"),
    "hands of the wrong type": (_position(hands="AS"), "'hands' must be a list of three"),
    "a hand of numbers out of range": (_position(hands=[[99], [1], [2]]), "bad position"),
    "leader huge": (_position(leader=10**40), "'leader' must be seat 0, 1 or 2"),
    "leader a float": (_position(leader=1.0), "'leader' must be seat 0, 1 or 2"),
    "missing declarer": (_position(declarer=None), "'declarer' must be seat 0, 1 or 2"),
    "trump a list": (_position(trump=["H"]), "trump: not a suit"),
    "mode a number": (_position(mode=1), "unknown mode 1"),
    "trick a string": (_position(trick="8C"), "'trick' must be a list of cards"),
    "talon_leads an object": (_position(mode="allpass", trump=None, player=0,
                                        talon_leads={"a": 1}),
                              "'talon_leads' must be a list of suits"),
}


@pytest.mark.parametrize("kind", list(BAD_POSITIONS))
def test_every_kind_of_bad_position_file_is_one_error_line_and_exit_code_2(
    tmp_path, capsys, kind
) -> None:
    data, message = BAD_POSITIONS[kind]
    path = tmp_path / "pos.json"
    path.write_bytes(data)
    assert solve_command(str(path), False) == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], lines
    assert captured.out == "" and len(lines[0]) < 300


def test_the_solve_command_line_answers_bad_files_with_exit_code_2(tmp_path) -> None:
    """Through the real command line: one error line on stderr, exit code 2."""
    from typer.testing import CliRunner

    from preferans.cli import app

    path = tmp_path / "pos.json"
    path.write_bytes(b"\xff\xfe\x00\x00")
    result = CliRunner().invoke(app, ["solve", str(path)])
    assert result.exit_code == 2 and result.stderr.startswith("error: ")
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.output
