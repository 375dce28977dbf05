"""The after-deal analysis (``preferans analyse``): double-dummy values and each card's cost.

Known deals: the rules guide's worked deal (checked by hand: seven top tricks and no
eighth, so no card of it costs anything), the same deal with a declarer's mistake whose
cost is argued by hand, a misère and an all-pass; invariants tie the costs to the result.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from preferans.analysis import FORMAT, analyse, render
from preferans.cli import app
from preferans.guide import worked_deal_record

RECORDS = Path(__file__).parent / "records"


def _deal(report: dict, number: int = 1) -> dict:
    return next(d for d in report["deals"] if d["deal"] == number)


def test_the_worked_deal_is_seven_tricks_and_every_card_is_a_best_card():
    # By hand: after the discard A holds ♠A10 ♣A9 ♦10 ♥AKQ107 in hearts.  The defence holds
    # ♥J8 (B) and ♥9 (C): three rounds draw them, so A's five hearts, ♠A and ♣A are seven
    # sure tricks (A leads first); ♠10, ♣9 and ♦10 lose to higher cards in suits A cannot
    # ruff profitably (his trumps all win anyway).  So 7, and the teaching sequence took 7.
    report = analyse(worked_deal_record())
    assert report["format"] == FORMAT
    deal = _deal(report)
    assert deal["kind"] == "contract" and deal["contract"] == "7H" and deal["declarer"] == 0
    assert deal["dd_value"] == 7 and deal["tricks"] == [7, 3, 0]
    assert len(deal["cards"]) == 30
    assert [c["cost"] for c in deal["cards"]] == [0] * 30
    first = deal["cards"][0]
    assert first == {"seat": 0, "card": "QH", "cost": 0, "best": first["best"]}
    # giving up ♣9 or ♦10 first costs nothing; ♠10 first does (see the next test)
    assert set(first["best"]) == {"AS", "AC", "9C", "10D", "QH", "KH", "AH"}
    assert all(c["card"] in c["best"] for c in deal["cards"])
    assert deal["hands"][0][0] == "AS" and deal["talon"] == ["AH", "9C"]


def _with_play(record: dict, cards: list[str]) -> dict:
    out = copy.deepcopy(record)
    actions = out["deals"][0]["actions"]
    out["deals"][0]["actions"] = actions[: actions.index("QH")] + cards
    return out


def test_a_declarer_who_leads_his_spade_loser_first_loses_the_ace_to_a_ruff():
    # By hand: A leads ♠10; B must play his only spade, ♠J; C wins with ♠K and leads ♠Q.
    # A must follow with ♠A, and B, now void, ruffs it with ♥8.  A keeps five hearts and
    # ♣A: six.  Any heart or ace led first keeps seven.  So ♠10 costs one trick.
    report = analyse(_with_play(worked_deal_record(), ["10S", "JS", "KS", "QS", "AS", "8H"]))
    deal = _deal(report)
    lead, *rest = deal["cards"]
    assert lead["seat"] == 0 and lead["card"] == "10S" and lead["cost"] == 1
    assert {"QH", "KH", "AH", "AS", "AC"} <= set(lead["best"]) and "10S" not in lead["best"]
    assert [c["card"] for c in rest] == ["JS", "KS", "QS", "AS", "8H"]
    assert all(c["cost"] == 0 for c in rest)  # the defence punished it exactly
    assert "10S, cost 1 trick" in render(report)


def _identity(deal: dict) -> int:
    """The declarer's tricks from the double-dummy value and the costs: every cost moves
    the value against the player who paid it."""
    declarer = deal["declarer"]
    own = sum(c["cost"] for c in deal["cards"] if c["seat"] == declarer)
    theirs = sum(c["cost"] for c in deal["cards"] if c["seat"] != declarer)
    if deal["kind"] == "misere":
        return deal["dd_value"] + own - theirs
    return deal["dd_value"] - own + theirs


def test_a_misere_deal_costs_add_up_to_the_result():
    record = json.loads((RECORDS / "guide_s10_misere_two_tricks.json").read_text())
    deal = _deal(analyse(record))
    assert deal["kind"] == "misere" and deal["declarer"] == 1
    assert deal["tricks"][1] == 2
    assert _identity(deal) == 2
    # the misère declarer's own mistake: ♠Q when ♠7 stays under everything
    queen = next(c for c in deal["cards"] if c["card"] == "QS")
    assert queen["seat"] == 1 and queen["cost"] == 1 and queen["best"] == ["7S"]


@pytest.mark.parametrize("name", ["leningrad_allpass_433", "rostov_allpass_055",
                                  "guide_s11_allpass_433_055"])
def test_an_allpass_gives_each_player_his_value_and_his_mistakes(name):
    record = json.loads((RECORDS / f"{name}.json").read_text())
    report = analyse(record)
    for deal in report["deals"]:
        if deal.get("kind") != "allpass" or not deal.get("analysed"):
            continue
        values = deal["dd_value"]
        assert isinstance(values, list) and len(values) == 3
        for seat, value in enumerate(values):
            mine = sum(c["cost"] for c in deal["cards"] if c["seat"] == seat)
            # the others' cards can only help him (the value assumes they give him the
            # most), his own mistakes cost him their price
            assert deal["tricks"][seat] <= value + mine
        assert all(c["cost"] >= 0 and c["best"] for c in deal["cards"])


def test_every_contract_of_a_bots_game_satisfies_the_identity():
    from preferans.game import Game
    from preferans.players import make_player
    from preferans.record import write_record
    from preferans.rules import Rules

    rules = Rules.preset("sochi", pool=10)
    game = Game(rules, ["A", "B", "C"], seed=5)
    bots = [make_player("normal", rules, seed=s) for s in range(3)]
    for _ in range(8):
        game.start_deal()
        while game.deal is not None:
            seat = game.deal.to_act
            game.apply(bots[seat].choose(game.observation(seat)))
    report = analyse(write_record(game))
    played = [d for d in report["deals"] if d.get("analysed") and d["kind"] != "allpass"]
    assert played, "a contract or a misère was played"
    for deal in played:
        assert _identity(deal) == deal["tricks"][deal["declarer"]]


def test_cli_analyse_prints_text_and_json(tmp_path):
    path = tmp_path / "worked.json"
    path.write_text(json.dumps(worked_deal_record()))
    runner = CliRunner()
    text = runner.invoke(app, ["analyse", str(path)])
    assert text.exit_code == 0 and "double dummy 7 tricks, took 7" in text.output
    out = runner.invoke(app, ["analyse", str(path), "--json"])
    assert out.exit_code == 0
    assert json.loads(out.output)["deals"][0]["dd_value"] == 7


def test_cli_analyse_bad_file_is_one_error_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "preferans-record/1", "deals": 3}')
    result = CliRunner().invoke(app, ["analyse", str(bad)])
    assert result.exit_code == 2
    assert result.output.startswith("error: ") and "Traceback" not in result.output


def test_module_doctest():
    import doctest

    import preferans.analysis.after_deal

    result = doctest.testmod(preferans.analysis.after_deal)
    assert result.attempted > 0 and result.failed == 0
