"""The C double-dummy solver against the Python reference, and its API."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from preferans.cards import Card, CardSet
from preferans.solver import (
    Position,
    SolverError,
    misere_can_take_none,
    set_table_size_mb,
    solve,
    solve_batch,
    solve_moves,
    solve_moves_batch,
    table_size_mb,
)
from preferans.solver import reference as ref
from preferans.solver.samples import random_position

MODES = ("contract", "misere", "allpass")
EXAMPLE = {
    "format": "preferans-position/1",
    "hands": [["AS", "KS", "7H"], ["QS", "8D", "9H"], ["JS", "10D"]],
    "trick": ["8C"],
    "leader": 2,
    "trump": "H",
    "mode": "contract",
    "declarer": 0,
}


def _small_positions(seed: int, count: int) -> list[Position]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        mode = MODES[i % 3]
        roll = rng.random()  # mostly small: the reference is full minimax
        per_hand = 6 if roll < 0.02 else 5 if roll < 0.2 else rng.randint(1, 4)
        out.append(random_position(rng, per_hand, mode, trick_cards=rng.choice([0, 0, 1, 2])))
    return out


# ------------------------------------------------------------------ differential


@pytest.mark.parametrize("chunk", range(8))
def test_c_equals_reference_on_small_positions(chunk: int) -> None:
    """2,000 random positions (1-6 cards a hand, every mode, mid-trick too)."""
    for pos in _small_positions(1000 + chunk, 250):
        expected, expected_moves = ref.solve_with_moves(pos)
        assert solve(pos) == expected, pos.to_json()
        assert solve_moves(pos) == expected_moves, pos.to_json()
        assert misere_can_take_none(pos) == (expected == 0), pos.to_json()


def test_root_moves_equal_solves_of_the_positions_after_them() -> None:
    rng = random.Random(77)
    for i in range(300):
        mode = MODES[i % 3]
        pos = random_position(rng, rng.randint(1, 10), mode, trick_cards=rng.randint(0, 2))
        moves = solve_moves(pos)
        legal = ref.legal_cards(
            pos.hands[pos.to_move],
            pos.trick,
            pos.talon_leads[0] if pos.talon_leads else None,
            pos.trump,
        )
        assert set(moves) == {c for c in range(32) if legal >> c & 1}
        for card, value in moves.items():
            after = ref.play(pos, card)
            won = 0
            if len(pos.trick) == 2:  # the move completes the trick
                talon_suit = pos.talon_leads[0] if pos.talon_leads else None
                winner = (
                    pos.leader + ref.trick_winner((*pos.trick, card), talon_suit, pos.trump)
                ) % 3
                won = int(winner == pos.side)
            assert value == won + solve(after), (pos.to_json(), card)
        best = (
            max(moves.values())
            if (pos.to_move == pos.side) == (mode == "contract")
            else min(moves.values())
        )
        assert solve(pos) == best


def test_talon_led_tricks() -> None:
    rng = random.Random(5)
    for _ in range(200):
        pos = random_position(
            rng,
            rng.randint(2, 5),
            "allpass",
            talon=rng.randint(1, 2),
            trick_cards=rng.randint(0, 2),
        )
        assert solve(pos) == ref.solve(pos), pos.to_json()


def test_talon_trick_rules_by_hand() -> None:
    # talon suit spades; nobody holds spades: the trick goes to the highest card of the suit
    # of the first card played; then seat 0 (first hand) leads again, not the winner.
    pos = Position.from_json(
        {
            "format": "preferans-position/1",
            "hands": [["7C", "AD"], ["8C", "7D"], ["AC", "8D"]],
            "trick": [],
            "leader": 0,
            "trump": None,
            "mode": "allpass",
            "player": 0,
            "talon_leads": ["S"],
        }
    )
    assert solve(pos) == ref.solve(pos)
    # seat 0 leads 7C: seat 2 must not follow clubs (talon suit is spades) but AC wins anyway
    moves = solve_moves(pos)
    assert moves == ref.solve_moves(pos)


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_c_equals_reference_on_full_deals(mode: str) -> None:
    rng = random.Random({"contract": 1, "misere": 2, "allpass": 3}[mode])
    # the Python reference needs seconds (misère: tens of seconds) per full deal
    for _ in range({"contract": 4, "misere": 2, "allpass": 3}[mode]):
        pos = random_position(rng, 10, mode)
        assert solve(pos) == ref.solve_ab(pos), pos.to_json()


@pytest.mark.slow
def test_c_equals_reference_on_mid_size_deals() -> None:
    rng = random.Random(11)
    for i in range(45):
        pos = random_position(rng, rng.choice([7, 8]), MODES[i % 3], trick_cards=rng.randint(0, 2))
        assert solve(pos) == ref.solve_ab(pos), pos.to_json()


def test_reference_ab_equals_reference_minimax() -> None:
    for pos in _small_positions(4242, 100):
        assert ref.solve_ab(pos) == ref.solve(pos), pos.to_json()


# ------------------------------------------------------------------ API


def test_example_from_records() -> None:
    pos = Position.from_json(EXAMPLE)
    assert solve(pos) == 1
    assert solve_moves(pos) == {Card.parse("7H").index: 1}
    assert pos.to_move == 0


def test_json_round_trip() -> None:
    rng = random.Random(3)
    for i in range(100):
        pos = random_position(rng, rng.randint(1, 10), MODES[i % 3], trick_cards=rng.randint(0, 2))
        text = json.dumps(pos.to_json())
        assert Position.from_json(text) == pos


def test_batch_equals_single_calls() -> None:
    rng = random.Random(9)
    positions = [random_position(rng, rng.randint(4, 8), MODES[i % 3]) for i in range(300)]
    singles = [solve(p) for p in positions]
    assert solve_batch(positions, threads=2) == singles
    assert solve_batch(positions, threads=1) == singles
    moves = solve_moves_batch(positions[:100], threads=2)
    assert moves == [solve_moves(p) for p in positions[:100]]
    assert solve_batch([]) == []


def test_table_size_is_configurable() -> None:
    old = table_size_mb()
    rng = random.Random(1)
    positions = [random_position(rng, 9, MODES[i % 3]) for i in range(30)]
    expected = [solve(p) for p in positions]
    try:
        set_table_size_mb(0.02)  # a tiny table: many replacements, same answers
        assert table_size_mb() <= 0.02
        assert [solve(p) for p in positions] == expected
        assert solve_batch(positions) == expected
        with pytest.raises(SolverError):
            set_table_size_mb(-1)
    finally:
        set_table_size_mb(old)


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    per_hand=st.integers(1, 4),
    mode=st.sampled_from(MODES),
    trick=st.integers(0, 2),
)
def test_hypothesis_small_positions(seed: int, per_hand: int, mode: str, trick: int) -> None:
    pos = random_position(random.Random(seed), per_hand, mode, trick_cards=trick)
    assert solve(pos) == ref.solve(pos)


def test_empty_hands_are_worth_nothing() -> None:
    pos = Position(hands=(0, 0, 0), leader=1, trump=None, mode="contract", side=0)
    assert solve(pos) == 0
    assert solve_moves(pos) == {}


# ------------------------------------------------------------------ bad positions


def _bad(**changes):
    obj = dict(EXAMPLE)
    obj.update(changes)
    return obj


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        (
            _bad(
                hands=[["7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS", "7C", "8C", "9C"], [], []]
            ),
            "seat 0 holds 11 cards",
        ),
        (
            _bad(hands=[["AS", "KS", "7H"], ["AS", "8D", "9H"], ["JS", "10D"]]),
            "card AS is in two hands",
        ),
        (_bad(trick=[]), "hands of unequal size for a complete trick"),
        (_bad(leader=0), "wrong side to move"),
        (_bad(mode="misere"), "trump given in misère mode"),
        (_bad(trick=["8C", "9C", "10C"]), "complete"),
        (_bad(trick=["AS"]), "card AS is both on the table and in seat 0's hand"),
        (_bad(leader=5), "leader"),
        (_bad(hands=[["AS", "KS", "XX"], ["QS", "8D", "9H"], ["JS", "10D"]]), "cannot read card"),
        (_bad(format="something/2"), "unknown format"),
        (_bad(mode="chess"), "unknown mode"),
        (_bad(talon_leads=["S"]), "talon"),
    ],
)
def test_bad_positions_raise_clear_errors(obj: dict, message: str) -> None:
    with pytest.raises(SolverError, match=message):
        Position.from_json(obj)


def test_bad_positions_raise_in_solve_too() -> None:
    eleven = CardSet.parse("7S 8S 9S 10S JS QS KS AS 7C 8C 9C").mask
    with pytest.raises(SolverError, match="seat 0 holds 11 cards"):
        solve(Position(hands=(eleven, 0, 0)))
    with pytest.raises(SolverError, match="in two hands"):
        solve(Position(hands=(1, 1, 2)))
    with pytest.raises(SolverError, match="wrong side to move"):
        solve(Position(hands=(0b11, 0b1100, 0b110000), trick=(8,), leader=1))
    with pytest.raises(SolverError):
        solve_batch([Position(hands=(1, 1, 2))])
    with pytest.raises(SolverError, match="32-bit"):
        solve(Position(hands=(1 << 40, 0, 0)))
    assert issubclass(SolverError, ValueError)


def test_revoke_on_the_table_is_rejected() -> None:
    # seat 0 holds a club but the trick shows it played a heart on a club lead
    with pytest.raises(SolverError, match="while holding"):
        Position.from_json(
            _bad(
                hands=[["AS", "KC"], ["QS", "8D", "9H"], ["JS", "10D"]],
                trick=["8C", "7H"],
                leader=2,
            )
        )


# ------------------------------------------------------------------ bounds and copies


def _masters_positions(seed: int, count: int) -> list[Position]:
    """Contract endings built to test the declarer's sure tricks by masters: the declarer
    holds top cards of a few suits (and at most two small cards), the defenders the rest of
    few suits, trumps with the declarer only or no trumps at all, a defender on lead."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        per_hand = rng.randint(2, 5)
        declarer = rng.randrange(3)
        master_suits = rng.sample(range(4), rng.randint(1, 3))
        small = rng.choice([0, 0, 1, 2])
        mine: list[int] = []
        for i in range(per_hand - small):
            suit = master_suits[i % len(master_suits)]
            mine.append(suit * 8 + 7 - sum(1 for c in mine if c // 8 == suit))
        rest = [c for c in range(32) if c not in mine]
        mine += rng.sample([c for c in rest if c % 8 <= 2], small)
        trump = rng.choice([None, None, master_suits[0]])
        pool = [c for c in range(32) if c not in mine and (trump is None or c // 8 != trump)]
        rng.shuffle(pool)
        pool.sort(key=lambda c: rng.random() * (2 if c // 8 in master_suits else 1))
        if len(pool) < 2 * per_hand or len(set(mine)) != per_hand:
            continue
        hands = [0, 0, 0]
        for c in mine:
            hands[declarer] |= 1 << c
        defenders = [(declarer + 1) % 3, (declarer + 2) % 3]
        for i, c in enumerate(pool[: 2 * per_hand]):
            hands[defenders[i // per_hand]] |= 1 << c
        out.append(
            Position(
                hands, leader=rng.choice(defenders), trump=trump, mode="contract", side=declarer
            )
        )
    return out


def test_sure_tricks_by_masters_against_the_reference() -> None:
    """The masters bound (the declarer's sure tricks when the defenders lead) never claims
    more than the declarer takes: 400 endings built for it, against the Python reference."""
    for pos in _masters_positions(77, 400):
        assert solve(pos) == ref.solve_ab(pos), pos.to_json()


def test_generic_and_bmi2_copies_agree() -> None:
    """The two compiled copies of the search (see ddcore.c) give the same values: this
    process runs the copy the CPU allows, a child process the generic one."""
    import os
    import subprocess
    import sys

    from preferans.solver import core_variant

    rng = random.Random(31)
    positions = [
        random_position(rng, rng.choice([4, 6, 8, 10]), MODES[i % 3], trick_cards=rng.randint(0, 2))
        for i in range(240)
    ]
    code = (
        "import json, sys\n"
        "from preferans.solver import Position, solve, solve_moves, core_variant\n"
        "ps = [Position.from_json(o) for o in json.load(sys.stdin)]\n"
        "print(json.dumps([core_variant(), [solve(p) for p in ps],\n"
        "                  [sorted(solve_moves(p).items()) for p in ps[:80]]]))\n"
    )
    env = dict(os.environ, PREFERANS_SOLVER_GENERIC="1")
    done = subprocess.run(
        [sys.executable, "-c", code],
        input=json.dumps([p.to_json() for p in positions]),
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=300,
    )
    variant, values, moves = json.loads(done.stdout)
    assert variant == "generic"
    assert core_variant() in ("generic", "bmi2")
    assert values == [solve(p) for p in positions]
    assert moves == [[list(kv) for kv in sorted(solve_moves(p).items())] for p in positions[:80]]
