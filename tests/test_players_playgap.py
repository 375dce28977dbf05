"""The double-dummy gap of real play: measured from records (:mod:`preferans.analysis.ddgap`) and
used by a player with ``play_gap`` (:mod:`preferans.players.playgap`)."""

from __future__ import annotations

import doctest

from hypothesis import given
from hypothesis import strategies as st

import preferans.players.playgap as playgap
from preferans.analysis.after_deal import solver_position
from preferans.analysis.ddgap import GapCounts, measure, played_contracts
from preferans.bids import Bid
from preferans.cards import Card, CardSet, Suit
from preferans.deal import Phase
from preferans.game import Game
from preferans.match import board_cards
from preferans.players import make_player
from preferans.players.contract_value import declarer_value
from preferans.players.playgap import CLOSED_SHARE, real_play_table, spread
from preferans.players.view import SeatView
from preferans.rules import Rules
from preferans.solver import solve_moves

SOCHI = Rules.preset("sochi")


def test_module_doctests() -> None:
    result = doctest.testmod(playgap)
    assert result.attempted >= 3 and result.failed == 0


@given(st.integers(0, 10), st.integers(6, 10),
       st.one_of(st.booleans(), st.floats(0.0, 1.0)))
def test_a_spread_is_a_distribution_over_trick_counts(tricks: int, level: int,
                                                      closed: bool | float) -> None:
    dist = spread(tricks, level, closed)
    assert abs(sum(p for _, p in dist) - 1.0) < 1e-9
    assert all(0 <= t <= 10 and p > 0 for t, p in dist)
    assert [t for t, _ in dist] == sorted({t for t, _ in dist})


def test_real_play_favours_the_declarer_most_where_double_dummy_is_short() -> None:
    """Against a closed defence a contract one trick short double dummy is made about a
    third of the time; against an open one double dummy is nearly exact."""
    made = {closed: sum(p for t, p in spread(5, 6, closed) if t >= 6)
            for closed in (True, False)}
    assert 0.3 < made[True] < 0.45
    assert made[False] < 0.1
    mean = {k: sum(t * p for t, p in spread(6 + k, 6, True)) - (6 + k) for k in (-2, -1, 0, 1)}
    assert mean[-2] > mean[-1] > mean[0] > mean[1] > 0
    mixed = sum(p for t, p in spread(5, 6, CLOSED_SHARE) if t >= 6)
    assert made[False] < mixed < made[True]


def _dd_card(deal) -> dict[int, int]:
    """Double-dummy tricks of the declarer after each legal card."""
    return solve_moves(solver_position(deal, deal.declarer, "contract"))


def _record(slip: bool) -> tuple[dict, int]:
    """Seat 0 plays 6♠ against two whisters, every card double-dummy best except, with
    ``slip``, the defenders' first card decision that has a worse card."""
    _, hands, talon = board_cards(SOCHI, 4, 2)
    twelve = [Card.parse(str(c)) for c in (*hands[0], *talon)]
    a, b = sorted(twelve, key=lambda c: (c.rank, c.suit))[:2]  # the two lowest go
    game = Game(SOCHI, ["A", "B", "C"], first_dealer=2)
    game.start_deal(hands, talon)
    for token in ("6S", "PASS", "PASS", f"DISCARD {a} {b}", "6S", "WHIST", "WHIST"):
        game.apply(token)
    given_away = 0
    while (deal := game.deal) is not None and deal.phase is Phase.PLAY:
        values = _dd_card(deal)
        declarer = deal.hand_to_play == deal.declarer
        best = max(values.values()) if declarer else min(values.values())
        pick = best
        if slip and not declarer and not given_away and len(set(values.values())) > 1:
            pick = max(values.values())
            given_away = pick - best
        game.apply(str(Card.from_index(next(c for c, v in sorted(values.items())
                                            if v == pick))))
    return game.to_record(), given_away


def test_best_play_has_no_gap_and_a_defender_slip_is_the_declarers_gain() -> None:
    perfect, _ = _record(slip=False)
    (contract,) = played_contracts(perfect)
    assert (contract.closed, contract.whisters, contract.level) == (True, 2, 6)
    assert contract.gap == 0
    slipped, given_away = _record(slip=True)
    assert given_away >= 1
    (contract,) = played_contracts(slipped)
    assert contract.gap == given_away
    counts = measure([perfect, slipped])
    assert isinstance(counts, GapCounts) and len(counts.contracts) == 2
    table = counts.table(closed=True)
    assert sum(sum(row.values()) for row in table.values()) == 2
    assert counts.table(closed=False) == {} and counts.mean_gap(closed=False) is None
    assert counts.mean_gap(closed=True) == given_away / 2


HANDS = [
    CardSet.parse("AC KC QC 9C 8C AD 9D 8D 7D 7H"),   # seat 0, the dealer
    CardSet.parse("AS KS QS JS 10S 9S AH KH 7C 10D"),  # seat 1: a sure six in spades
    CardSet.parse("8S 7S JC 10C KD QD JD 10H QH JH"),  # seat 2
]


def test_after_the_talon_the_gap_values_a_short_contract_above_double_dummy() -> None:
    game = Game(SOCHI, first_dealer=0)
    game.start_deal(HANDS, ["9H", "8H"])
    view = SeatView.from_observation(game.observation(1))
    gap = make_player("crazy-nobudget", SOCHI, seed=3)  # Crazy names its contract so
    plain = make_player("crazy-nobudget/play_gap=0", SOCHI, seed=3)
    assert not make_player("hard-nobudget", SOCHI).level.play_gap
    assert gap.level.play_gap and not plain.level.play_gap
    six = Bid(6, Suit.SPADES)
    model = plain.model(view)
    dd = model.contract_table(1, six)
    expected = real_play_table(dd, 6, CLOSED_SHARE)

    def without_gap(tricks: int) -> float:  # the bidding's value: double dummy
        return declarer_value(plain.rules, model, view, 1, six, tricks, {})
    for tricks in range(11):
        with_gap = declarer_value(gap.rules, gap.model(view), view, 1, six, tricks, {},
                                       real_play=True)
        assert declarer_value(gap.rules, model, view, 1, six, tricks, {}) == without_gap(tricks)
        without = declarer_value(plain.rules, model, view, 1, six, tricks, {})
        if tricks <= 6:  # whisted: real play spreads the count
            assert abs(with_gap - expected[tricks]) < 1e-9 and without == dd[tricks]
        else:  # nobody whists a sure six: it is written unplayed either way
            assert with_gap == without == model.unplayed_value(1, six)
    assert expected[5] > dd[5]  # one short: sometimes made in real play
    # the whist call after 6♠ stays a legal, reproducible choice
    for token in ("6S", "PASS", "PASS"):
        game.apply(token)
    low = sorted(game.deal.hand(1), key=lambda c: (c.rank, c.suit))[:2]
    game.apply(f"DISCARD {low[0]} {low[1]}")
    game.apply("6S")
    seat = game.deal.to_act
    first = gap.choose(game.observation(seat))
    assert first in game.deal.observation(seat)["legal"]
    again = make_player("crazy-nobudget", SOCHI, seed=3)
    assert again.choose(game.observation(seat)) == first
