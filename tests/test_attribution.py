"""Attribution: decisions scored by double-dummy replay of match records."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from preferans.analysis.attribution import AttributionError, attribute_record
from preferans.bids import Bid
from preferans.cards import Card
from preferans.cli import app
from preferans.deal import Phase
from preferans.game import Game
from preferans.match import board_cards, run_match
from preferans.outcome import DealOutcome
from preferans.rules import Rules
from preferans.sheet import Sheet
from preferans.solver import Position, solve_moves

SOCHI = Rules.preset("sochi")


def _card_values(deal) -> dict[int, int]:
    """Double-dummy tricks of the declarer after each legal card (contract, seat 0)."""
    trick = deal.current_trick
    leader = trick[0][0] if trick else deal.hand_to_play
    pos = Position(hands=tuple(deal.hand(s).mask for s in range(3)),
                   trick=tuple(c.index for _, c in trick), leader=leader,
                   trump=deal.trump, mode="contract", side=deal.declarer)
    return solve_moves(pos)


def _played_contract(hands, talon, contract: str, slip_at: int | None,
                     discard: str | None = None) -> tuple[dict, int]:
    """Seat 0 declares ``contract`` against two whisters (discarding ``discard``, else its two
    lowest cards); every card double-dummy best but the card decision ``slip_at`` (counting
    those with a worse card), which takes the worst card."""
    game = Game(SOCHI, ["A", "B", "C"], first_dealer=2)
    game.start_deal(hands, talon)
    for token in ("6S", "PASS", "PASS"):
        game.apply(token)
    if discard is None:
        low = sorted(game.deal.hand(0), key=lambda c: (c.rank, c.suit))[:2]
        discard = f"DISCARD {low[0]} {low[1]}"
    for token in (discard, contract, "WHIST", "WHIST"):
        game.apply(token)
    lost = 0
    choices = 0
    while game.deal is not None and game.deal.phase is Phase.PLAY:
        deal = game.deal
        values = _card_values(deal)
        maximise = deal.hand_to_play == deal.declarer
        best = max(values.values()) if maximise else min(values.values())
        worst = min(values.values()) if maximise else max(values.values())
        pick = best
        if best != worst:
            if choices == slip_at:
                pick, lost = worst, abs(best - worst)
            choices += 1
        card = next(c for c, v in sorted(values.items()) if v == pick)
        game.apply(str(Card.from_index(card)))
    return game.to_record(), lost


def test_best_card_play_costs_nothing_and_a_slip_costs_its_tricks() -> None:
    _, hands, talon = board_cards(SOCHI, 4, 2)
    perfect, _ = _played_contract(hands, talon, "6S", slip_at=None)
    result = attribute_record(perfect, "perfect")
    plays = [d for d in result.decisions if d.kind.startswith("play")]
    assert plays and all(d.cost == 0 for d in plays)
    assert {d.kind for d in plays} <= {"play: declarer", "play: whister"}
    slipped, lost = _played_contract(hands, talon, "6S", slip_at=1)
    assert lost >= 1
    costs = [d.cost for d in attribute_record(slipped, "slip").decisions
             if d.kind.startswith("play")]
    assert sum(costs) == lost and sorted(costs)[-1] == lost  # one decision, all of it


def test_a_cold_ten_named_as_a_six_costs_the_difference_on_the_sheet() -> None:
    top = ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "AH", "KH"]
    rest = [str(c) for c in (Card.from_index(i) for i in range(32))
            if str(c) not in top and str(c) not in ("7C", "7D")]
    hands = [top, rest[:10], rest[10:20]]
    record, _ = _played_contract(hands, ["7C", "7D"], "6S", slip_at=None,
                                 discard="DISCARD 7C 7D")
    by_kind = {d.kind: d for d in attribute_record(record, "cold").decisions}
    assert by_kind["discard"].cost == 0  # seat 0 discards the talon's 7C 7D: ten tricks kept

    def balance(contract: str) -> float:
        sheet = Sheet(SOCHI, ("A", "B", "C"))
        outcome = DealOutcome("contract", 2, 3, 0, Bid.parse(contract),
                              defence=("WHIST", "WHIST"), whisters=(1, 2), tricks=(10, 0, 0))
        return float(sheet.record(outcome).balance_change[0])

    contract = by_kind["contract"]
    assert contract.token == "6S" and Bid.parse(contract.best).level == 10
    assert contract.cost == pytest.approx(balance("10S") - balance("6S"))
    assert contract.cost > 0


def test_attribute_command_on_match_records(tmp_path) -> None:
    run_match(["easy", "random", "random"], SOCHI, boards=1, seed=3, workers=1,
              records_dir=tmp_path)
    result = CliRunner().invoke(app, ["attribute", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["records"] == 3 and set(out["players"]) == {"easy", "random"}
    assert out["players"]["easy"]["deals"] == 3 and out["players"]["random"]["deals"] == 6
    for p in out["players"].values():
        assert all(t["cost"] >= 0 and t["costly"] <= t["decisions"]
                   for t in p["types"].values())
    assert out["compare"]["players"] == ["easy", "random"]
    table = CliRunner().invoke(app, ["attribute", str(tmp_path)])
    assert table.exit_code == 0 and "discard" in table.stdout
    bad = CliRunner().invoke(app, ["attribute", str(tmp_path), "--players", "easy,crazy"])
    assert bad.exit_code == 2 and "no crazy in the records" in bad.output


def test_attribution_refuses_what_it_cannot_score(tmp_path) -> None:
    four = {"format": "preferans-record/1", "rules": {"preset": "sochi", "players": 4},
            "players": ["A", "B", "C", "D"], "deals": []}
    with pytest.raises(AttributionError, match="three-player rules"):
        attribute_record(four, "four")
    result = CliRunner().invoke(app, ["attribute", str(tmp_path)])
    assert result.exit_code == 2 and "holds no record files" in result.output


def test_an_all_pass_is_valued_at_real_plays_share_of_the_paranoid_count() -> None:
    """The solver's all-pass (the other two against the hand) overcounts: a call that ends
    in an all-pass is valued at ALLPASS_REAL of the double-dummy tricks, read between the
    whole counts, the rest shared evenly."""
    from preferans.analysis.attribution import DealAnalyser
    from preferans.players.allpass import ALLPASS_REAL
    from preferans.solver import solve

    checked = 0
    for board in range(4):
        _, hands, talon = board_cards(SOCHI, 11, board)
        game = Game(SOCHI, ["A", "B", "C"], first_dealer=2)
        game.start_deal(hands, talon)
        game.apply("PASS")
        game.apply("PASS")  # seat 2, the dealer, to speak: its PASS makes the all-pass
        deal = game.deal
        analyser = DealAnalyser(SOCHI, deal, game.sheet.to_json(), game.sheet.allpass_streak)
        passed = deal.copy()
        passed.apply("PASS")
        assert passed.kind == "allpass"
        dd = solve(analyser._position(passed, "allpass", 2))
        real = ALLPASS_REAL * dd

        def balance(own: int, talon: list[str] = talon) -> float:
            rest = 10 - own
            tricks = (rest - rest // 2, rest // 2, own)
            sheet = Sheet(SOCHI, ("A", "B", "C"))
            outcome = DealOutcome("allpass", 2, tricks=tricks, talon=tuple(
                Card.parse(c) for c in talon))
            return float(sheet.record(outcome).balance_change[2])

        lo = int(real)
        expected = balance(lo) * (1 - (real - lo)) + balance(lo + 1) * (real - lo)
        value = analyser.call_values(deal, [], "PASS")["PASS"]
        assert value == pytest.approx(expected)
        if dd >= 2:
            assert value > balance(dd)  # fewer tricks than the paranoid count: less lost
            checked += 1
    assert checked
