"""The solver's transposition tables, move order and MTD start change speed, never values.

Tables persist between solves (keys in relative ranks do not depend on the deal), so these
tests solve streams of positions with warm tables, tiny tables (constant replacement) and
cold tables, and along whole deals, against each other and against the Python reference.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from preferans.solver import (
    Position,
    reset_stats,
    set_table_size_mb,
    solve,
    solve_batch,
    solve_moves,
    table_size_mb,
)
from preferans.solver import reference as ref
from preferans.solver.samples import random_position

MODES = ("contract", "misere", "allpass")


@pytest.fixture
def tiny_table():
    old = table_size_mb()
    set_table_size_mb(0.01)  # 64 buckets: entries are replaced all the time
    try:
        yield
    finally:
        set_table_size_mb(old)


def _deals(seed: int, count: int, per_hand: int = 10) -> list[Position]:
    rng = random.Random(seed)
    return [
        random_position(rng, per_hand, MODES[i % 3], trick_cards=rng.choice([0, 0, 1, 2]))
        for i in range(count)
    ]


def _cold(pos: Position) -> int:
    reset_stats(clear_tables=True)
    return solve(pos)


def test_warm_tables_equal_cold_tables_on_full_deals() -> None:
    deals = _deals(31, 45)
    reset_stats(clear_tables=True)
    warm = [solve(p) for p in deals]  # one table shared by the whole stream
    assert warm == [_cold(p) for p in deals]
    # and the same stream again: now most entries come from earlier deals
    assert [solve(p) for p in reversed(deals)] == warm[::-1]


def test_tiny_table_equals_default_table(tiny_table) -> None:
    deals = _deals(32, 30, per_hand=8)
    values = [solve(p) for p in deals]
    assert solve_batch(deals, threads=2) == values
    set_table_size_mb(1)
    reset_stats(clear_tables=True)
    assert [solve(p) for p in deals] == values


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    per_hand=st.integers(4, 6),
    mode=st.sampled_from(MODES),
    trick=st.integers(0, 2),
)
def test_fuzz_tiny_table_against_reference(seed: int, per_hand: int, mode: str, trick: int) -> None:
    old = table_size_mb()
    set_table_size_mb(0.01)
    try:
        pos = random_position(random.Random(seed), per_hand, mode, trick_cards=trick)
        assert solve(pos) == ref.solve_ab(pos), pos.to_json()
    finally:
        set_table_size_mb(old)


@pytest.mark.parametrize("mode", MODES)
def test_values_along_whole_deals(mode: str) -> None:
    """Play deals out, half best moves and half random ones: at every position the value of
    the card played (from solve_moves) is the tricks it won plus the value after it, and
    from six cards a hand down the C values equal the reference."""
    rng = random.Random({"contract": 41, "misere": 42, "allpass": 43}[mode])
    for _ in range(3):
        pos = random_position(rng, 10, mode)
        while pos.hands[pos.to_move]:
            moves = solve_moves(pos)
            value = solve(pos)
            maximises = (pos.to_move == pos.side) == (mode == "contract")
            assert value == (max if maximises else min)(moves.values()), pos.to_json()
            if max(bin(h).count("1") for h in pos.hands) <= 6:
                assert value == ref.solve_ab(pos), pos.to_json()
            card = (
                rng.choice(sorted(moves))
                if rng.random() < 0.5
                else next(c for c in sorted(moves) if moves[c] == value)
            )
            won = 0
            if len(pos.trick) == 2:
                talon_suit = pos.talon_leads[0] if pos.talon_leads else None
                winner = (
                    pos.leader + ref.trick_winner((*pos.trick, card), talon_suit, pos.trump)
                ) % 3
                won = int(winner == pos.side)
            after = ref.play(pos, card)
            assert moves[card] == won + solve(after), (pos.to_json(), card)
            pos = after
