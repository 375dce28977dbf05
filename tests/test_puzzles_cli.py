"""``preferans puzzles generate`` and ``check`` from the command line: records written by a
short match, puzzles found and re-verified, bad input answered with one error line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from preferans.cli import app
from preferans.puzzles.generate import merge, puzzles_of_record

runner = CliRunner()


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("records")
    result = runner.invoke(app, ["match", "--players", "normal,easy,easy", "--deals", "12",
                                 "--seed", "5", "--workers", "1", "--records-dir", str(out),
                                 "--json"])
    assert result.exit_code == 0, result.output
    return out


def test_generate_then_check(records: Path, tmp_path: Path) -> None:
    out = tmp_path / "p.jsonl"
    result = runner.invoke(app, ["puzzles", "generate", str(records), "--out", str(out),
                                 "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output[result.output.index("{"):])
    assert summary["records"] == 36
    lines = out.read_text().splitlines()
    assert summary["kept"] == len(lines)
    judged = summary["candidates"]
    assert judged == summary["found_before_repeats"] + sum(summary["rejected"].values())
    assert summary["kept"] == summary["found_before_repeats"] - summary["repeats"]
    assert summary["kept"] > 0
    check = runner.invoke(app, ["puzzles", "check", str(out)])
    assert check.exit_code == 0, check.output
    assert f"{len(lines)} of {len(lines)} puzzles confirmed" in check.output


def test_workers_give_the_same_puzzles(records: Path) -> None:
    files = sorted(records.glob("*.json"))
    alone = merge([puzzles_of_record(str(f)) for f in files]).puzzles
    from preferans.puzzles.generate import generate

    pooled = generate(files, workers=2).puzzles
    assert [p["id"] for p in pooled] == [p["id"] for p in alone]


def test_check_names_a_wrong_puzzle(records: Path, tmp_path: Path) -> None:
    out = tmp_path / "p.jsonl"
    runner.invoke(app, ["puzzles", "generate", str(records), "--out", str(out),
                        "--workers", "1"])
    puzzles = [json.loads(x) for x in out.read_text().splitlines()]
    puzzles[0]["grade"] = 6 - puzzles[0]["grade"] if puzzles[0]["grade"] != 3 else 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(puzzles[:1]))
    result = runner.invoke(app, ["puzzles", "check", str(bad)])
    assert result.exit_code == 1
    assert f"{puzzles[0]['id']}: grade:" in result.output
    assert "0 of 1 puzzles confirmed" in result.output


def test_bad_input_is_one_error_line(tmp_path: Path) -> None:
    result = runner.invoke(app, ["puzzles", "generate", str(tmp_path / "none")])
    assert result.exit_code == 2
    assert result.output.startswith("error: ") and "neither" in result.output
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    result = runner.invoke(app, ["puzzles", "check", str(junk)])
    assert result.exit_code == 2 and result.output.startswith("error: cannot read")
    result = runner.invoke(app, ["puzzles", "check", str(junk.with_name("missing.json"))])
    assert result.exit_code == 2


@pytest.mark.slow
def test_ray_gives_the_puzzles_of_the_local_run(records: Path) -> None:
    ray = pytest.importorskip("ray", reason="ray is not installed: --ray is not tested")
    from preferans.puzzles.generate import generate

    files = sorted(records.glob("*.json"))[:9]
    here = generate(files, workers=1)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        there = generate(files, ray_address="local")
    finally:
        ray.shutdown()
    assert [p["id"] for p in there.puzzles] == [p["id"] for p in here.puzzles]
    assert there.stats == here.stats


def test_show_a_puzzle_and_its_solution() -> None:
    from importlib import resources


    path = resources.files("preferans") / "data" / "puzzles" / "generated.jsonl"
    first = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    result = runner.invoke(app, ["puzzles", "show", str(path)])
    assert result.exit_code == 0, result.output
    assert f"Puzzle {first['id']}" in result.output and "Goal:" in result.output
    assert "Solution" not in result.output
    result = runner.invoke(app, ["puzzles", "show", str(path), "--id", first["id"],
                                 "--solution"])
    assert "Solution:" in result.output and "Line (the solver's answers" in result.output
    result = runner.invoke(app, ["puzzles", "show", str(path), "--id", "nope"])
    assert result.exit_code == 2 and result.output.startswith("error: no puzzle nope")
