"""Exact double-dummy values for Preferans positions.

The search runs in C (``_solver``); this module is its Python face.

>>> from preferans.solver import Position, solve, solve_moves
>>> pos = Position.from_json({"format": "preferans-position/1",
...     "hands": [["AS", "KS", "7H"], ["QS", "8D", "9H"], ["JS", "10D"]],
...     "trick": ["8C"], "leader": 2, "trump": "H", "mode": "contract", "declarer": 0})
>>> solve(pos)
1
>>> {str(Card.from_index(c)): v for c, v in solve_moves(pos).items()}
{'7H': 1}

Values count the tricks of the declarer (contract, misère) or of the chosen
all-pass player, from the current trick on, with best play by all: the
declarer maximises in a contract, the declarer minimises in misère, the
all-pass player minimises against the other two (paranoid).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from preferans.cards import Card
from preferans.solver import _solver
from preferans.solver.position import FORMAT, MODES, Position, SolverError

__all__ = [
    "FORMAT",
    "MODES",
    "Card",
    "Position",
    "SolverError",
    "core_variant",
    "misere_can_take_none",
    "nodes",
    "reset_stats",
    "set_table_size_mb",
    "solve",
    "solve_batch",
    "solve_moves",
    "solve_moves_batch",
    "table_size_mb",
]


def solve(pos: Position) -> int:
    """Tricks the side (declarer or all-pass player) takes from here, current trick included."""
    return _solver.solve(*pos.args())


def solve_moves(pos: Position) -> dict[int, int]:
    """For every legal card (index) of the seat to move, the value after playing it."""
    return _solver.solve_moves(*pos.args())


def misere_can_take_none(pos: Position) -> bool:
    """True when the side can be sure to take no trick from here (a single fast test)."""
    return _solver.takes_none(*pos.args())


def _arg_list(positions: Iterable[Position]) -> list[tuple]:
    out = []
    for i, pos in enumerate(positions):
        if not isinstance(pos, Position):
            raise SolverError(f"position {i}: not a Position but {type(pos).__name__}")
        out.append(pos.args())
    return out


def solve_batch(positions: Sequence[Position] | Iterable[Position], threads: int = 2) -> list[int]:
    """:func:`solve` for many positions in one C call, without the GIL, on ``threads`` threads
    (0: one per CPU).  Each thread has its own transposition table."""
    return _solver.solve_batch(_arg_list(positions), threads, False)


def solve_moves_batch(
    positions: Sequence[Position] | Iterable[Position], threads: int = 2
) -> list[dict[int, int]]:
    """:func:`solve_moves` for many positions in one C call (see :func:`solve_batch`)."""
    return _solver.solve_batch(_arg_list(positions), threads, True)


def set_table_size_mb(mb: float) -> None:
    """Size of each transposition table (one per solving thread); default 0.5 MB."""
    _solver.set_table_size_mb(mb)


def table_size_mb() -> float:
    """The current size of each transposition table in MB."""
    return _solver.table_size_mb()


def core_variant() -> str:
    """Which copy of the C search this machine runs: ``"bmi2"`` (CPUs with BMI1, BMI2 and
    LZCNT) or ``"generic"``; set the environment variable ``PREFERANS_SOLVER_GENERIC=1``
    before the import to force the generic one.  Both give the same values."""
    return _solver.core_variant()


def nodes() -> int:
    """Search nodes visited by the single-call solver since :func:`reset_stats`."""
    return _solver.nodes()


def reset_stats(clear_tables: bool = False) -> None:
    """Reset the node counter; optionally empty the transposition tables."""
    _solver.reset(clear_tables)
