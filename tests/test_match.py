"""Duplicate matches: every player holds every hand; records replay to the same results."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from preferans.cli import app
from preferans.match import board_cards, board_gains, play_board, run_match
from preferans.match.pulya import (
    GamePlay,
    game_deal_cards,
    game_gains,
    mean_interval,
    play_game,
    ratio_interval,
    run_pulya_match,
)
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


# --- whole-pulya matches -----------------------------------------------------------------

def test_pulya_rotations_play_the_same_deal_sequence_from_rotated_seats() -> None:
    rules = Rules.preset("sochi", pool=1)
    lineup = ["easy", "random", "random"]
    plays = [play_game(lineup, rules, seed=5, game=1, rotation=r) for r in range(3)]
    assert len({p.deal_count for p in plays}) > 1  # the rotations' games differ in length
    for r, play in enumerate(plays):
        assert play.lineup == [lineup[(s + r) % 3] for s in range(3)]
        deals = play.record["deals"]
        assert deals[0]["dealer"] == 1  # game 1: the first dealer is seat 1 in every rotation
        for k, deal in enumerate(deals):
            # deal k is the seeded sequence's deal k, whichever rotation plays it (also the
            # deals a longer game plays after the others have ended)
            assert deal["dealer"] == (1 + k) % 3
            _, hands, talon = game_deal_cards(rules, 5, 1, k, deal["dealer"])
            assert [sorted(h) for h in deal["hands"]] == [sorted(h) for h in hands]
            assert sorted(deal["talon"]) == sorted(talon)
    shared = min(p.deal_count for p in plays)
    for k in range(shared):
        hands = {tuple(tuple(h) for h in p.record["deals"][k]["hands"]) for p in plays}
        assert len(hands) == 1  # the same seat gets the same cards in every rotation
    assert {p.lineup.index("easy") for p in plays} == {0, 1, 2}


def test_pulya_deal_cards_follow_the_dealer() -> None:
    rules = Rules.preset("sochi")
    _, from0, talon0 = game_deal_cards(rules, 2, 0, 4, dealer=0)
    _, from1, talon1 = game_deal_cards(rules, 2, 0, 4, dealer=1)
    assert talon0 == talon1
    assert from1 == [from0[2], from0[0], from0[1]]  # first hand's cards move with the dealer
    four = Rules.preset("sochi", players=4)
    _, hands, _ = game_deal_cards(four, 2, 0, 4, dealer=3)
    assert hands[3] == [] and all(len(h) == 10 for h in hands[:3])


def test_intervals_on_worked_numbers() -> None:
    # mean 3, deviations -2 -1 0 3: s² = 14/3; t(3) = 3.182; half = 3.182 · √(14/3) / 2
    mean, lo, hi = mean_interval([1.0, 2.0, 3.0, 6.0])
    assert mean == 3.0
    assert hi - mean == pytest.approx(3.182 * (14 / 3) ** 0.5 / 2)
    assert mean - lo == pytest.approx(hi - mean)
    # gains 10, 20, 30 over 10, 10, 20 deals: R = 60 / 40 = 1.5; mean deals 40/3;
    # z = (10 − 15, 20 − 15, 30 − 30) / (40/3) = (−0.375, 0.375, 0); s = 0.375; t(2) = 4.303
    ratio, lo, hi = ratio_interval([10.0, 20.0, 30.0], [10.0, 10.0, 20.0])
    assert ratio == 1.5
    assert hi - ratio == pytest.approx(4.303 * 0.375 / 3 ** 0.5)
    assert ratio_interval([5.0], [10.0])[1:] == (float("-inf"), float("inf"))


def test_game_gains_pair_the_rotations() -> None:
    def play(rotation: int, lineup: list[str], balance: list[float]) -> GamePlay:
        return GamePlay(0, rotation, lineup, balance, True)

    # seat 0 is worth +30 to whoever holds it; easy does 10 better than random there
    plays = [
        play(0, ["easy", "random", "random"], [40.0, -20.0, -20.0]),
        play(1, ["random", "random", "easy"], [30.0, -25.0, -5.0]),
        play(2, ["random", "easy", "random"], [30.0, -10.0, -20.0]),
    ]
    gains = game_gains(plays)
    # seat 0: 40 − 30 = 10; seat 1: −10 − (−22.5) = 12.5; seat 2: −5 − (−20) = 15
    assert gains["easy"] == pytest.approx((10 + 12.5 + 15) / 3)
    # random: seat 0: 30 − 40 = −10, seat 1: −22.5 + 10 = −12.5, seat 2: −20 + 5 = −15
    assert gains["random"] == pytest.approx(-gains["easy"])


def test_pulya_records_replay_to_the_reported_settlement(tmp_path) -> None:
    rules = Rules.preset("sochi", pool=1)
    summary = run_pulya_match(["easy", "random", "random"], rules, games=2, seed=7, workers=1,
                              records_dir=tmp_path)
    files = sorted(tmp_path.glob("game-*.json"))
    assert [f.name for f in files] == [f"game-000{g}-rot{r}.json" for g in (1, 2)
                                       for r in range(3)]
    by_game: dict[int, list[GamePlay]] = {}
    deals = 0
    for f in files:
        obj = json.loads(f.read_text())
        assert obj["format"] == "preferans-record/1" and obj["match"]["pulya"] == 1
        game = replay(read_record(obj))
        assert game.finished
        meta = obj["match"]
        balance = [float(x) for x in game.sheet.balance()]
        by_game.setdefault(meta["game"], []).append(
            GamePlay(meta["game"], meta["rotation"], meta["lineup"], balance, True))
        deals += len(game.finished_deals)
        result = CliRunner().invoke(app, ["replay", str(f), "--json"])
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["balance"] == pytest.approx(balance, abs=1e-3)
    easy = summary["players"]["easy"]
    gains = [game_gains(plays)["easy"] for _, plays in sorted(by_game.items())]
    assert easy["games"] == 2
    assert easy["whists_per_game"] == pytest.approx(sum(gains) / 2, abs=1e-3)
    # per deal: the games' gains over their mean deal counts
    assert easy["whists_per_deal"] == pytest.approx(sum(gains) / (deals / 3), abs=1e-3)
    assert summary["deals_per_game"] == pytest.approx(deals / 6, abs=0.01)
    assert json.loads((tmp_path / "summary.json").read_text())["players"]["easy"] == easy


def test_pulya_match_command(tmp_path) -> None:
    result = CliRunner().invoke(
        app, ["match", "--players", "easy,random,random", "--pulya", "1", "--games", "1",
              "--workers", "1", "--json", "--records-dir", str(tmp_path / "recs")]
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout[result.stdout.index("{"):])
    assert summary["games"] == 1 and summary["pulya"] == 1
    assert len(list((tmp_path / "recs").glob("game-0001-rot*.json"))) == 3
    bad = CliRunner().invoke(app, ["match", "--games", "3"])
    assert bad.exit_code == 2 and "--games needs --pulya" in bad.output
    bad = CliRunner().invoke(app, ["match", "--pulya", "10", "--deals", "3"])
    assert bad.exit_code == 2 and "with --pulya give --games" in bad.output


def test_board_records_directory(tmp_path) -> None:
    summary = run_match(["easy", "random", "random"], Rules.preset("sochi"), boards=2, seed=1,
                        workers=1, records_dir=tmp_path)
    files = sorted(tmp_path.glob("board-*.json"))
    assert len(files) == 6 and summary["boards"] == 2
    obj = json.loads(files[4].read_text())
    assert obj["match"]["board"] == 1 and obj["match"]["rotation"] == 1
    assert obj["match"]["lineup"] == ["random", "random", "easy"]
    replay(read_record(obj))
    assert json.loads((tmp_path / "summary.json").read_text())["players"] == summary["players"]


# --- Ray --------------------------------------------------------------------------------

def _ray():
    return pytest.importorskip(
        "ray", reason="ray is not installed (pip install 'preferans[ray]'): the Ray runs "
        "of preferans match are not tested")


def test_ray_gives_the_results_of_the_local_run(tmp_path) -> None:
    ray = _ray()
    rules = Rules.preset("sochi")
    lineup = ["easy", "random", "random"]
    here = run_match(lineup, rules, boards=3, seed=9, workers=1, records_dir=tmp_path / "a")
    pulya_rules = Rules.preset("sochi", pool=1)
    here_games = run_pulya_match(lineup, pulya_rules, games=2, seed=9, workers=1,
                                 records_dir=tmp_path / "c")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        there = run_match(lineup, rules, boards=3, seed=9, workers=1, ray_address="local",
                          records_dir=tmp_path / "b")
        there_games = run_pulya_match(lineup, pulya_rules, games=2, seed=9, workers=1,
                                      ray_address="local", records_dir=tmp_path / "d")
    finally:
        ray.shutdown()
    for a, b in ((here, there), (here_games, there_games)):
        for name in a["players"]:
            pa, pb = a["players"][name], b["players"][name]
            for key in pa:
                if not key.startswith("decision"):  # decision times differ, nothing else
                    assert pa[key] == pb[key], (name, key)
    for x, y in (("a", "b"), ("c", "d")):
        left = sorted((tmp_path / x).glob("*-rot*.json"))
        right = sorted((tmp_path / y).glob("*-rot*.json"))
        assert [f.name for f in left] == [f.name for f in right]
        for f, g in zip(left, right, strict=True):
            assert json.loads(f.read_text()) == json.loads(g.read_text())


def test_ray_missing_or_unreachable_is_a_clear_error(monkeypatch) -> None:
    import builtins

    real_import = builtins.__import__

    def no_ray(name, *args, **kwargs):
        if name == "ray":
            raise ImportError("no ray here")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    result = CliRunner().invoke(app, ["match", "--players", "easy,random,random", "--deals",
                                      "1", "--ray", "ray://nowhere:10001"])
    assert result.exit_code == 2
    assert "--ray needs the ray package" in result.output


def test_match_module_doctests() -> None:
    import doctest

    import preferans.match.jobs
    import preferans.match.pulya

    for module in (preferans.match.pulya, preferans.match.jobs):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__
