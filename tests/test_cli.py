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


GOOD = json.dumps({"format": "preferans-record/1", "rules": {"preset": "sochi", "pool": 10},
                   "players": ["Ann", "Bob", "Cat"], "deals": []})
BAD_FILES = {
    # kind: (the file's bytes, what the one error line says)
    "binary": (bytes(range(256)) * 4, "is a binary file, not JSON text"),
    "png header": (b"\x89PNG\r\n\x1a\n" + b"\xff" * 32, "is not UTF-8 text (byte 0x89 at offset 0"),
    "invalid UTF-8": (b'{"format": "preferans-record/1", "players": ["\xc3\x28"]}',
                      "is not UTF-8 text (byte 0xc3 at offset 46)"),
    "latin-1": ('{"players": ["Sören"]}'.encode("latin-1"), "is not UTF-8 text"),
    "UTF-16 with BOM": (GOOD.encode("utf-16"), "is UTF-16 text (it starts with a byte-order mark)"),
    "UTF-16 LE, no BOM": (GOOD.encode("utf-16-le"), "looks like UTF-16 or UTF-32 text"),
    "UTF-16 BE, no BOM": (GOOD.encode("utf-16-be"), "looks like UTF-16 or UTF-32 text"),
    "UTF-32": (GOOD.encode("utf-32"), "is UTF-32 text"),
    "UTF-32 LE, no BOM": (GOOD.encode("utf-32-le"), "looks like UTF-16 or UTF-32 text"),
    "empty": (b"", "is not valid JSON: Expecting value at line 1, column 1"),
    "null": (b"null", "a game record is a JSON object {...}, not null"),
    "list": (b"[]", "a game record is a JSON object {...}, not a list"),
    "number": (b"42", "a game record is a JSON object {...}, not a number"),
    "string": (b'"/etc/passwd"', "a game record is a JSON object {...}, not a string"),
    "true": (b"true", "a game record is a JSON object {...}, not true"),
    "100,000 nested lists": (b"[" * 100_000 + b"]" * 100_000, "nested too deep"),
    "100 nested lists": (b'{"deals": ' + b"[" * 100 + b"]" * 100 + b"}",
                         "nested 101 levels deep (at most 64)"),
    "5,000-digit number": (b'{"deals": [{"dealer": ' + b"9" * 5000 + b"}]}",
                           "holds a number of 5000 digits (at most 100)"),
    "NaN": (b'{"deals": [{"dealer": NaN}]}', "NaN is not a JSON value"),
    "1e999": (b'{"deals": [{"dealer": 1e999}]}', "the number 1e999 is too large"),
    "option of the wrong type": (
        b'{"rules": {"preset": "sochi", "contract_values": "x"}}',
        "rules: option contract_values='x' must be a list of 5 whole numbers"),
    "option out of range": (b'{"rules": {"preset": "sochi", "start_mountain": ' + b"9" * 90
                            + b"}}", "rules: option start_mountain=(a number of 90 digits) is "
                            "out of range: 0 to 10000"),
    "stakes of 10^18": (b'{"rules": {"preset": "sochi", "stakes": 1000000000000000000}}',
                        "rules: option stakes=1000000000000000000 is out of range: 0 to 1000000"),
    "rules a list": (b'{"rules": [1, 2]}', "rules: rules must be a preset name or an object"),
    "players not a list": (b'{"players": {"a": 1}}', "players must be a list of names"),
    "deals not a list": (b'{"deals": null}', "deals must be a list, not null"),
    "deal not an object": (b'{"deals": ["x"]}', "deal 1: a deal is a JSON object, not a string"),
    "missing dealer": (b'{"deals": [{}]}', "deal 1: dealer None is not a seat (0..2)"),
    "dealer a float": (b'{"deals": [{"dealer": 1.5}]}', "deal 1: dealer 1.5 is not a seat"),
    "missing hands": (b'{"deals": [{"dealer": 0}]}', "deal 1: 3 players need 3 hands, not null"),
    "hands a string": (b'{"deals": [{"dealer": 0, "hands": "AS"}]}',
                       "deal 1: 3 players need 3 hands, not a string"),
    "a token 5,000 long": (
        json.dumps({"deals": [{"dealer": 2, "hands": HANDS, "talon": ["AH", "7D"],
                               "actions": ["LOOK " + "9" * 5000]}]}).encode(),
        "deal 1, action 1: a token of 5005 characters (at most 64)"),
    "a token not a string": (
        json.dumps({"deals": [{"dealer": 2, "hands": HANDS, "talon": ["AH", "7D"],
                               "actions": [6]}]}).encode(),
        "deal 1, action 1 (6): an action is a token string"),
    "a play token that is no card": (
        json.dumps({"deals": [{"dealer": 2, "hands": HANDS, "talon": ["AH", "7D"], "actions": [
            "6S", "PASS", "PASS", "DISCARD 7H 7D", "7H", "WHIST", "WHIST", "XX"]}]}
                   ).encode(),
        "deal 1, action 8 (XX), seat 0 (A), phase play: "),
    "a card not in the hand": (
        json.dumps({"deals": [{"dealer": 2, "hands": HANDS, "talon": ["AH", "7D"], "actions": [
            "6S", "PASS", "PASS", "DISCARD 7H 7D", "7H", "WHIST", "WHIST", "QH"]}]}
                   ).encode(),
        "deal 1, action 8 (QH), seat 0 (A), phase play: "),
    "a missing format": (b'{"deals": []}', 'the record names no "format"'),
}


@pytest.mark.parametrize("command", ["replay", "analyse"])
@pytest.mark.parametrize("kind", list(BAD_FILES))
def test_every_kind_of_bad_file_is_one_error_line_and_exit_code_2(tmp_path, kind, command):
    """`replay` and `analyse` read a record with the same reader: the same one line."""
    data, message = BAD_FILES[kind]
    if (data.startswith(b'{"') and b'"format"' not in data
            and kind != "a missing format"):  # else the missing format is named
        data = b'{"format": "preferans-record/1", ' + data[1:]
    path = tmp_path / "game.json"
    path.write_bytes(data)
    result = runner.invoke(app, [command, str(path)])
    assert result.exit_code == 2, (result.output, result.exception)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], lines
    assert "Traceback" not in result.output and len(lines[0]) < 300


def test_a_utf8_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "game.json"
    path.write_bytes(b"\xef\xbb\xbf" + GOOD.encode())
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["players"] == ["Ann", "Bob", "Cat"]


def test_a_directory_is_a_clear_error(tmp_path):
    result = runner.invoke(app, ["replay", str(tmp_path)])
    assert result.exit_code == 2 and result.stderr.startswith("error: cannot read")
def test_serve_passes_the_bot_delay_and_workers(monkeypatch):
    import preferans.server as server

    calls = []
    monkeypatch.setattr(server, "serve", lambda *a, **k: calls.append((a, k)))
    result = runner.invoke(app, ["serve", "--no-browser", "--bot-delay", "0",
                                 "--bot-workers", "3", "--port", "9001"])
    assert result.exit_code == 0, result.output
    assert calls == [(("127.0.0.1", 9001, None),
                      {"open_browser": False, "bot_delay": 0.0, "bot_workers": 3})]


def test_serve_passes_the_allowed_hosts_origins_and_seeds(monkeypatch):
    import preferans.server as server

    calls = []
    monkeypatch.setattr(server, "serve", lambda *a, **k: calls.append((a, k)))
    result = runner.invoke(app, ["serve", "--no-browser", "--allowed-host", "pref.lan",
                                 "--allowed-host", "*.example.org", "--allowed-origin",
                                 "https://pref.example.org", "--allow-seeds",
                                 "--trusted-proxy", "127.0.0.1", "--trusted-proxy", "10.0.0.0/8"])
    assert result.exit_code == 0, result.output
    assert calls[0][1] == {"open_browser": False, "allowed_hosts": [
        "pref.lan", "*.example.org"], "allowed_origins": ["https://pref.example.org"],
        "allow_seeds": True, "trusted_proxies": ["127.0.0.1", "10.0.0.0/8"]}


def test_serve_passes_the_public_url_and_the_trusted_proxy(monkeypatch):
    import preferans.server as server

    calls = []
    monkeypatch.setattr(server, "serve", lambda *a, **k: calls.append((a, k)))
    result = runner.invoke(app, ["serve", "--no-browser", "--trusted-proxy", "127.0.0.1",
                                 "--public-url", "https://pref.example.org"])
    assert result.exit_code == 0, result.output
    assert calls[0][1] == {"open_browser": False, "trusted_proxies": ["127.0.0.1"],
                           "public_url": "https://pref.example.org"}


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
    assert made == [{"bot_delay": 0.25, "bot_workers": 0, "freeze_startup": True,
                     "allowed_hosts": ["localhost", "127.0.0.1", "::1"], "allowed_origins": [],
                     "allow_seeds": None}]


def test_serve_names_a_bad_worker_count_in_the_environment(monkeypatch):
    monkeypatch.setenv("PREFERANS_BOT_WORKERS", "many")
    result = runner.invoke(app, ["serve", "--no-browser", "--port", "9003", "--db", "sqlite://"])
    assert result.exit_code == 2
    assert "PREFERANS_BOT_WORKERS='many'" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("command", ["replay", "analyse"])
def test_a_file_holding_a_path_is_not_followed(tmp_path, command):
    """A file whose JSON is a string naming another record is refused, not opened."""
    other = write(tmp_path)
    pointer = tmp_path / "pointer.json"
    pointer.write_text(json.dumps(other))
    result = runner.invoke(app, [command, str(pointer)])
    assert result.exit_code == 2
    assert result.stderr.strip().endswith("a game record is a JSON object {...}, not a string")


def test_serve_workers_need_a_bus_and_a_reachable_one():
    """Several processes without the bus would each keep their own tables: refused, as is a
    bus that does not answer (one line, no traceback)."""
    result = runner.invoke(app, ["serve", "--no-browser", "--workers", "2", "--port", "9004",
                                 "--db", "sqlite://"])
    assert result.exit_code == 2 and "--workers needs --bus" in result.output
    result = runner.invoke(app, ["serve", "--no-browser", "--workers", "2", "--port", "9004",
                                 "--bus", "redis://127.0.0.1:1/0", "--db", "sqlite://"])
    assert result.exit_code == 2 and "the bus redis://127.0.0.1:1/0 cannot be reached" in \
        result.output and "Traceback" not in result.output
