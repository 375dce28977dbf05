"""The CLI: replay (table and JSON), deal, play; bad input is one error line, exit code 2."""

import copy
import json

import pytest
from typer.testing import CliRunner

from preferans.cli import app

runner = CliRunner()

HANDS = [
    ["AS", "KS", "QS", "JS", "AC", "KC", "AD", "9H", "8H", "7H"],
    ["10S", "9S", "8S", "7S", "QC", "JC", "KD", "QD", "JH", "10H"],
    ["10C", "9C", "8C", "7C", "JD", "10D", "9D", "8D", "KH", "QH"],
]
PASSED = ["6S", "PASS", "PASS", "DISCARD 7H 7D", "7H", "PASS", "PASS"]


def write(tmp_path, actions=PASSED, rules=None, **deal_changes):
    deal = {"dealer": 2, "hands": copy.deepcopy(HANDS), "talon": ["AH", "7D"], "actions": actions}
    deal.update(deal_changes)
    rec = {
        "format": "preferans-record/1",
        "rules": rules if rules is not None else {"preset": "sochi", "pool": 10},
        "players": ["Ann", "Bob", "Cat"],
        "deals": [deal],
    }
    path = tmp_path / "game.json"
    path.write_text(json.dumps(rec))
    return str(path)


def test_replay_json_prints_the_sheet(tmp_path):
    result = runner.invoke(app, ["replay", write(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    sheet = json.loads(result.stdout)
    assert sheet["format"] == "preferans-sheet/1" and sheet["pool"] == [4, 0, 0]
    assert sheet["deals"][0]["kind"] == "passed" and sheet["deals"][0]["contract"] == "7H"


def test_replay_table_is_readable(tmp_path):
    result = runner.invoke(app, ["replay", write(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "Score sheet" in result.stdout and "Ann" in result.stdout and "mountain" in result.stdout
    assert "passed" in result.stdout


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        (
            {"actions": [*PASSED[:5], "WHIST", "WHIST", "AS", "QC"]},
            "error: deal 1, action 9 (QC), seat 1 (Bob), phase play: must follow ♠",
        ),
        (
            {"actions": ["6S", "WHIST"]},
            "error: deal 1, action 2 (WHIST), seat 1 (Bob), phase auction: "
            "only a bid or PASS is allowed in the auction",
        ),
        (
            {"hands": [HANDS[0], HANDS[1], [*HANDS[2], "AH"]], "talon": ["7D", "7D"]},
            "error: deal 1: seat 2 has 11 cards, not 10",
        ),
        ({"talon": ["AH", "QH"]}, "error: deal 1: card QH is dealt twice"),
        ({"rules": {"preset": "sochi", "colour": "red"}},
         "error: rules: unknown rules option 'colour'"),
        ({"rules": "venus"}, "error: rules: unknown rules preset 'venus'"),
    ],
)
def test_bad_records_give_one_error_line_and_exit_code_2(tmp_path, kwargs, expected):
    result = runner.invoke(app, ["replay", write(tmp_path, **kwargs)])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(expected), result.stderr
    assert "Traceback" not in result.output


def test_missing_file_and_bad_json(tmp_path):
    result = runner.invoke(app, ["replay", str(tmp_path / "nope.json")])
    assert result.exit_code == 2 and result.stderr.startswith("error: cannot read")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    result = runner.invoke(app, ["replay", str(bad)])
    assert result.exit_code == 2 and "is not valid JSON" in result.stderr


def test_deal_shows_a_seeded_deal():
    a = runner.invoke(app, ["deal", "--seed", "5", "--json"])
    b = runner.invoke(app, ["deal", "--seed", "5", "--json"])
    assert a.exit_code == 0 and a.stdout == b.stdout
    obj = json.loads(a.stdout)
    assert [len(h) for h in obj["hands"]] == [10, 10, 10] and len(obj["talon"]) == 2
    table = runner.invoke(app, ["deal", "--seed", "5"])
    assert table.exit_code == 0 and "talon" in table.stdout and "♠" in table.stdout
    bad = runner.invoke(app, ["deal", "--rules", "venus"])
    assert bad.exit_code == 2 and "unknown rules preset" in bad.stderr


def test_play_in_the_terminal_accepts_moves_and_quits():
    result = runner.invoke(app, ["play", "--terminal", "--seed", "2"], input="?\nHELLO\nPASS\nq\n")
    assert result.exit_code == 0, result.output
    assert "legal:" in result.stdout and "not allowed" in result.stdout and "bye" in result.stdout


@pytest.mark.parametrize(
    ("args", "opens"),
    [(["play"], True), (["play", "--no-browser"], False), (["serve", "--no-browser"], False)],
)
def test_play_and_serve_pass_the_browser_choice(monkeypatch, args, opens):
    """`make play ARGS="--port 9000 --no-browser"` (the README's example) works: play and
    serve hand host, port, database and whether to open the browser to the server."""
    import preferans.server as server

    calls = []
    monkeypatch.setattr(server, "serve", lambda *a, **k: calls.append((a, k)))
    result = runner.invoke(app, [*args, "--port", "9000", "--db", "sqlite://"])
    assert result.exit_code == 0, result.output
    assert calls == [(("127.0.0.1", 9000, "sqlite://"), {"open_browser": opens})]


def test_serve_passes_the_bot_delay_and_workers(monkeypatch):
    import preferans.server as server

    calls = []
    monkeypatch.setattr(server, "serve", lambda *a, **k: calls.append((a, k)))
    result = runner.invoke(app, ["serve", "--no-browser", "--bot-delay", "0",
                                 "--bot-workers", "3", "--port", "9001"])
    assert result.exit_code == 0, result.output
    assert calls == [(("127.0.0.1", 9001, None),
                      {"open_browser": False, "bot_delay": 0.0, "bot_workers": 3})]


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--bot-delay", "-1"], "--bot-delay"), (["--bot-delay", "soon"], "--bot-delay"),
     (["--bot-delay", "61"], "--bot-delay"), (["--bot-workers", "65"], "--bot-workers")],
)
def test_serve_rejects_a_bad_bot_delay_or_worker_count(monkeypatch, args, message):
    import preferans.server as server

    monkeypatch.setattr(server, "serve", lambda *a, **k: pytest.fail("served"))
    result = runner.invoke(app, ["serve", "--no-browser", *args])
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


def test_serve_builds_the_app_with_the_bot_delay(monkeypatch, tmp_path):
    """Through to the application: the delay and the pool size reach ``create_app``."""
    import uvicorn

    import preferans.server.app as server_app

    made = []
    real = server_app.create_app
    monkeypatch.setattr(server_app, "create_app",
                        lambda *a, **k: made.append(k) or real(*a, **k))
    monkeypatch.setattr(uvicorn.Server, "run", lambda self: None)
    db = tmp_path / "games.db"
    result = runner.invoke(app, ["serve", "--no-browser", "--bot-delay", "0.25",
                                 "--bot-workers", "0", "--port", "9002", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert made == [{"bot_delay": 0.25, "bot_workers": 0}]


def test_serve_names_a_bad_worker_count_in_the_environment(monkeypatch):
    monkeypatch.setenv("PREFERANS_BOT_WORKERS", "many")
    result = runner.invoke(app, ["serve", "--no-browser", "--port", "9003", "--db", "sqlite://"])
    assert result.exit_code == 2
    assert "PREFERANS_BOT_WORKERS='many'" in result.output and "Traceback" not in result.output
