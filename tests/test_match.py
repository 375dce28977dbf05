"""Duplicate matches: every player holds every hand; records replay to the same results."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from preferans.cli import app
from preferans.match import board_cards, board_gains, play_board, run_match
from preferans.record import read_record, replay
from preferans.rules import Rules


def test_each_rotation_deals_the_same_cards_to_the_seats() -> None:
    rules = Rules.preset("sochi")
    result = play_board(["easy", "random", "random"], rules, seed=3, board=1)
    dealer, hands, talon = board_cards(rules, 3, 1)
    assert len(result.plays) == 3 and len(result.records) == 3
    holders = set()
    for rec in result.records:
        deal = rec["record"]["deals"][0]
        assert deal["dealer"] == dealer
        assert [sorted(h) for h in deal["hands"]] == [sorted(h) for h in hands]
        assert sorted(deal["talon"]) == sorted(talon)
        holders.add(tuple(rec["lineup"]).index("easy"))
    assert holders == {0, 1, 2}  # easy held every seat's cards once


def test_records_replay_to_the_reported_results() -> None:
    rules = Rules.preset("rostov")
    result = play_board(["easy", "random", "easy"], rules, seed=8, board=0)
    for rec, play in zip(result.records, result.plays, strict=True):
        game = replay(read_record(rec["record"]))
        balance = [float(x) for x in game.sheet.balance()]
        assert balance == pytest.approx([sr.result for sr in play])


def test_gains_of_two_players_balance_out() -> None:
    rules = Rules.preset("sochi")
    result = play_board(["easy", "random", "random"], rules, seed=2, board=4)
    gains = board_gains(result)
    # one easy against two randoms: easy's gain is the randoms' loss, seat by seat
    assert gains["easy"] == pytest.approx(-gains["random"])


def test_run_match_summary_and_records(tmp_path) -> None:
    out = tmp_path / "games.jsonl"
    summary = run_match(["easy", "random", "random"], Rules.preset("sochi"), boards=3, seed=1,
                        workers=1, records=out)
    lines = out.read_text().splitlines()
    assert len(lines) == 9
    assert json.loads(lines[0])["record"]["format"] == "preferans-record/1"
    easy = summary["players"]["easy"]
    assert easy["boards"] == 3
    lo, hi = easy["ci95"]
    assert lo <= easy["whists_per_deal"] <= hi
    assert easy["decisions"] > 0 and easy["decision_p95_ms"] >= easy["decision_p50_ms"]


def test_match_needs_two_different_players() -> None:
    with pytest.raises(ValueError, match="two different players"):
        run_match(["easy", "easy", "easy"], Rules.preset("sochi"), boards=1)


def test_match_command_prints_json() -> None:
    result = CliRunner().invoke(
        app, ["match", "--players", "easy,random,random", "--deals", "2", "--workers", "1",
              "--json"]
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout[result.stdout.index("{"):])
    assert set(summary["players"]) == {"easy", "random"}


def test_match_command_rejects_unknown_level() -> None:
    result = CliRunner().invoke(app, ["match", "--players", "easy,wizard,random", "--deals", "1"])
    assert result.exit_code == 2
    assert "unknown player level 'wizard'" in result.output


def test_a_time_limit_stops_starting_boards() -> None:
    summary = run_match(["easy", "random", "random"], Rules.preset("sochi"), boards=50, seed=4,
                        workers=1, time_limit=0)
    assert summary["boards"] == 1


@pytest.mark.budgets
@pytest.mark.parametrize("budgets", [False, True])
def test_budgets_are_off_in_a_match_unless_asked_and_a_name_keeps_its_own(
        budgets: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    import preferans.players as players
    from preferans.players import clock

    made: dict[str, set] = {}
    real = players.make_player

    def spy(name, *args, **kwargs):
        bot = real(name, *args, **kwargs)
        made.setdefault(name, set()).add(getattr(bot, "budget", "-"))
        return bot

    monkeypatch.setattr(players, "make_player", spy)
    play_board(["normal-budget=0.9", "normal", "easy"], Rules.preset("sochi"), 2, 0,
               budgets=budgets)
    assert made["normal-budget=0.9"] == {0.9}
    assert made["normal"] == ({clock.BUDGETS["normal"]} if budgets else {None})


def test_match_command_rejects_a_bad_budget_in_a_name() -> None:
    result = CliRunner().invoke(
        app, ["match", "--players", "easy,normal-budget=fast,random", "--deals", "1"])
    assert result.exit_code == 2
    assert "budget must be a number of seconds" in result.output
