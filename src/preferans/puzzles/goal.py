"""What a puzzle's player must achieve: the result that matters under the rules.

A card "loses a trick that matters" when, against best play, it changes what the deal writes
in a way the rules care about, not merely an overtrick nobody scores.  The goal is a bound on
the solver's value (the counted seat's tricks from the position on, :mod:`preferans.solver`):

- a contract, the declarer to play: **make** it (``value >= level - tricks taken``);
- a contract, a defender to play: **defeat** it (``value <= level - taken - 1``), or, where it
  cannot be defeated and the rules make a whister pay for a shortage (``shortage`` other
  than ``none``, a whisted contract), take the **quota** the defence owes
  (``Rules.quota(level)``);
- a misère, the declarer: take **no trick** (``clean``); a defender: **catch** it (one trick);
- an all-pass: every trick is written (in the mountain or as whists, ``allpass_scoring``), so
  the goal is to take no more than the **fewest** tricks best play allows.

>>> g = Goal("make", "at_least", 3, counted=0)
>>> g.meets(3), g.meets(2)
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

from ..rules import Rules

GOALS: Final = ("make", "defeat", "quota", "clean", "catch", "fewest")
"""The goal codes, each with its sentence in :data:`GOAL_TEXT` (and in the ui catalogue)."""

GOAL_TEXT: Final = {
    "make": "make the contract: take {need} more tricks",
    "defeat": "defeat the contract: hold the declarer to {limit} more tricks",
    "quota": "take the defence's quota: hold the declarer to {limit} more tricks",
    "clean": "play the misère clean: take no trick",
    "catch": "catch the misère: give the declarer a trick",
    "fewest": "take no more than {limit} more tricks",
}


@dataclass(frozen=True, slots=True)
class Goal:
    """A bound on the solver's value for the counted seat (a position seat, 0..2)."""

    code: str
    direction: Literal["at_least", "at_most"]
    bound: int
    counted: int

    def meets(self, value: int) -> bool:
        """Whether a solver value achieves the goal."""
        return value >= self.bound if self.direction == "at_least" else value <= self.bound

    def text(self) -> str:
        """The goal in English words (the page takes the catalogue's words)."""
        return GOAL_TEXT[self.code].format(need=self.bound, limit=self.bound)

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "direction": self.direction, "bound": self.bound,
                "counted": self.counted, "text": self.text()}

    @classmethod
    def from_json(cls, obj: Any) -> Goal:
        if not isinstance(obj, dict):
            raise ValueError("'goal' must be an object")
        code, direction = obj.get("code"), obj.get("direction")
        bound, counted = obj.get("bound"), obj.get("counted")
        if code not in GOALS:
            raise ValueError(f"unknown goal {code!r} (known: {', '.join(GOALS)})")
        if direction not in ("at_least", "at_most"):
            raise ValueError(f"goal direction {direction!r}: at_least or at_most")
        for name, x in (("bound", bound), ("counted", counted)):
            if not isinstance(x, int) or isinstance(x, bool) or not 0 <= x <= 10:
                raise ValueError(f"goal {name} {x!r}: a whole number 0..10")
        if counted > 2:
            raise ValueError(f"goal counted seat {counted}: a position seat 0..2")
        return cls(code, direction, bound, counted)


@dataclass(frozen=True, slots=True)
class Situation:
    """The facts of a deal in play that decide what matters (table facts, solver seats)."""

    kind: str                 # "contract", "misere" or "allpass"
    level: int                # the contract's level (0 for misère and all-pass)
    declarer: int | None      # position seat of the declarer (None in an all-pass)
    mover: int                # position seat to play
    taken: tuple[int, int, int]  # tricks each position seat has taken so far
    tricks_left: int          # tricks still to play, the current one included
    whisted: bool = True      # a contract the defence whisted (a quota is owed)

    def wants_more(self) -> bool:
        """Whether the side to play wants the counted seat's tricks up (the declarer of a
        contract, the catchers of a misère) or down (everyone else)."""
        if self.kind == "allpass" or self.declarer is None:
            return False
        if self.kind == "misere":
            return self.mover != self.declarer
        return self.mover == self.declarer

    def player_side(self) -> frozenset[int]:
        """The position seats whose cards the puzzle's player plays."""
        if self.kind == "allpass" or self.declarer is None:
            return frozenset({self.mover})
        if self.mover == self.declarer:
            return frozenset({self.declarer})
        return frozenset(s for s in range(3) if s != self.declarer)


def goal_for(sit: Situation, rules: Rules, best: int) -> Goal | None:
    """The goal that matters for the side to play, given ``best``, the solver's value with
    best play by that side; ``None`` when nothing that matters is still open (the contract
    already made or beyond reach, the misère already caught...)."""
    left = sit.tricks_left
    if sit.kind == "allpass":
        return Goal("fewest", "at_most", best, sit.mover)
    decl = sit.declarer
    assert decl is not None
    if sit.kind == "misere":
        if sit.taken[decl]:
            return None  # caught already: the puzzle would be about how many more
        if sit.mover == decl:
            return Goal("clean", "at_most", 0, decl) if best == 0 else None
        return Goal("catch", "at_least", 1, decl) if best >= 1 else None
    need = sit.level - sit.taken[decl]
    if need <= 0 or need > left:
        return None  # made already, or failed already
    if sit.mover == decl:
        return Goal("make", "at_least", need, decl) if best >= need else None
    if best <= need - 1:
        return Goal("defeat", "at_most", need - 1, decl)
    if not sit.whisted or rules.shortage == "none":
        return None
    owed = rules.quota(sit.level) - sum(t for s, t in enumerate(sit.taken) if s != decl)
    if owed <= 0:
        return None
    limit = left - owed
    return Goal("quota", "at_most", limit, decl) if limit >= 0 and best <= limit else None
