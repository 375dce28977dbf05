"""The C binding itself (``preferans.solver._solver``) driven with arbitrary nested input:
lists, tuples, ints of any size, strings, None, and sequences that mutate the caller's
lists while they are iterated.  Each call returns or raises TypeError, ValueError (the
SolverError among them) or OverflowError; it never crashes.  ``make asan-test`` runs this
module under AddressSanitizer, which turns a read of freed memory into a failure."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from preferans.solver import _solver

ALLOWED = (TypeError, ValueError, OverflowError)
SINGLE = (_solver.solve, _solver.validate, _solver.solve_moves, _solver.takes_none)


class Emptying:
    """A sequence whose iteration empties a list it was given (the batch, or the position
    holding it), then yields its items: a list read in place would be freed under us."""

    def __init__(self, victim: list, items: list) -> None:
        self.victim, self.items = victim, items

    def __iter__(self):
        self.victim.clear()
        self.victim.extend([None] * 3)  # the old item array is freed, a new one allocated
        self.victim.clear()
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i: int):
        self.victim.clear()
        return self.items[i]


class Growing:
    """A sequence whose iteration appends to a list (reallocating its item array)."""

    def __init__(self, victim: list, items: list) -> None:
        self.victim, self.items = victim, items

    def __iter__(self):
        self.victim.extend([(0, 0, 0, (), 0, None, 0, 0, ())] * 1000)
        return iter(self.items)


SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-40, max_value=40)
    | st.integers()
    | st.integers(min_value=-(2**200), max_value=2**200)
    | st.sampled_from([2**31, 2**32 - 1, 2**32, 2**63 - 1, 2**63, -(2**63), 2**64, -1])
    | st.text(max_size=6)
    | st.floats()
    | st.binary(max_size=4)
)
NESTED = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.lists(inner, max_size=5).map(tuple),
    max_leaves=15,
)


@st.composite
def plausible(draw) -> tuple:
    """Nine arguments close to a real position (small hands, so solving stays quick), with
    now and then one argument replaced by anything at all."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    size = draw(st.integers(0, 4))
    cards = rng.sample(range(32), 3 * size + 2)
    hands = [sum(1 << c for c in cards[i * size:(i + 1) * size]) for i in range(3)]
    ntrick = draw(st.integers(0, 2))
    leader = draw(st.integers(0, 2))
    trick = []
    for k in range(ntrick):  # the trick's cards leave their players' hands
        seat = (leader + k) % 3
        if hands[seat]:
            low = hands[seat] & -hands[seat]
            hands[seat] ^= low
            trick.append(low.bit_length() - 1)
    mode = draw(st.integers(0, 2))
    trump = None if mode else draw(st.sampled_from([None, 0, 1, 2, 3, -1, 4]))
    talon = draw(st.lists(st.integers(0, 3), max_size=2)) if mode == 2 else []
    args = [hands[0], hands[1], hands[2], trick, leader, trump, mode, draw(st.integers(0, 2)),
            talon]
    if draw(st.booleans()):
        args[3] = tuple(args[3])
    if draw(st.booleans()):
        args[draw(st.integers(0, 8))] = draw(NESTED)
    return tuple(args)


POSITION = plausible() | st.lists(NESTED, min_size=9, max_size=9).map(tuple) | NESTED
FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _call(fn, *args):
    try:
        return fn(*args)
    except ALLOWED:
        return None


@FUZZ
@given(st.lists(NESTED, max_size=11) | plausible().map(list))
def test_single_calls_take_anything(args):
    for fn in SINGLE:
        _call(fn, *args)


@FUZZ
@given(st.lists(POSITION, max_size=6), st.integers(-3, 4) | st.integers(), st.booleans())
def test_solve_batch_takes_anything(batch, threads, moves):
    _call(_solver.solve_batch, batch, threads, moves)
    _call(_solver.solve_batch, tuple(batch), threads, moves)
    _call(_solver.solve_batch, iter(batch))


@FUZZ
@given(st.lists(plausible(), min_size=1, max_size=5), st.data())
def test_self_mutating_sequences_cannot_free_what_is_read(batch, data):
    """Each place a sequence is read: the batch, a position, its trick and its talon; the
    mutation empties (or grows) the caller's batch list or the position list holding it."""
    batch = [list(p) for p in batch]
    k = data.draw(st.integers(0, len(batch) - 1))
    where = data.draw(st.sampled_from(["position", "trick", "talon"]))
    kind = data.draw(st.sampled_from([Emptying, Growing]))
    victim = data.draw(st.sampled_from(["batch", "position"]))
    target = batch if victim == "batch" else batch[k]
    if where == "position":
        batch[k] = kind(target if victim == "batch" else [], list(batch[k]))
    else:
        index = 3 if where == "trick" else 8
        inner = batch[k][index]
        items = list(inner) if isinstance(inner, list | tuple) else []
        batch[k][index] = kind(target, items)
    threads = data.draw(st.integers(1, 3))
    _call(_solver.solve_batch, batch, threads, data.draw(st.booleans()))
    position = batch[k] if k < len(batch) and isinstance(batch[k], list) else None
    if position is not None and len(position) == 9:
        for fn in SINGLE:
            _call(fn, *position)


def test_a_list_emptied_by_its_own_item_is_read_safely():
    """The attack of the issue, by hand: the batch's only item is a list whose trick, when
    iterated, empties that very list (the old binding read its freed item array)."""
    position: list = [0b111, 0b111 << 3, 0b111 << 6, None, 0, None, 0, 0, ()]
    position[3] = Emptying(position, [])
    for moves in (False, True):
        result = _call(_solver.solve_batch, [position], 1, moves)
        assert result is None or len(result) == 1
    batch: list = []
    batch.append([0b1, 0b10, 0b100, Emptying(batch, []), 0, None, 0, 0, ()])
    assert _call(_solver.solve_batch, batch, 2, False) in (None, [0], [1])


@pytest.mark.parametrize("fn", SINGLE)
def test_wrong_argument_counts_are_type_errors(fn):
    for args in ((), (0,) * 8, (0,) * 10):
        with pytest.raises(TypeError, match="expected 9 arguments"):
            fn(*args)


def test_management_calls_refuse_bad_values():
    for bad in ("x", None, [1], float("nan"), -1.0, 1e300):
        with pytest.raises(ALLOWED):
            _solver.set_table_size_mb(bad)
    with pytest.raises(TypeError):
        _solver.reset("a", "b")
    with pytest.raises(TypeError):
        _solver.solve_batch()
    with pytest.raises(TypeError, match="positions must be a sequence"):
        _solver.solve_batch(5)
