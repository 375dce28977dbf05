"""Classical's half-time choice in a deal: the leader's ``SECOND p t``.
"""

from __future__ import annotations

from ..actions import (
    Action,
    ActionKind,
)
from ..phase import Phase
from ..reasons import Reason


class HalftimeDeal:
    """The leader's choice of the second half, offered and checked."""

    __slots__ = ()

    def _start_halftime(self, halftime: tuple[int, int] | None) -> None:
        """The deal opens with the leader's choice when ``halftime`` is ``(leader, smallest
        hill)``; its nominal opening (auction or naming) follows the choice."""
        rules = self.rules
        n = self.players
        self.halftime: tuple[int, int] | None = None
        self.second_half: tuple[int, int] | None = None
        self._after_halftime = self.phase
        if halftime is not None:
            leader, smallest = halftime
            if not rules.halftime_choice:
                raise ValueError("a half-time choice needs rules.halftime_choice")
            if not isinstance(leader, int) or not 0 <= leader < n:
                raise ValueError(f"the half-time leader {leader!r} is not a seat (0..{n - 1})")
            if not isinstance(smallest, int) or smallest < 0:
                raise ValueError(f"the smallest hill {smallest!r} must be a whole number >= 0")
            self.halftime = (leader, smallest)
            self.phase = Phase.HALFTIME

    def _apply_halftime(self, act: Action) -> None:
        """``SECOND p t``: the choice is made; the deal goes on as it would have opened."""
        self.second_half = (act.level, act.after)  # type: ignore[assignment]
        self.phase = self._after_halftime

    def _halftime_default(self) -> tuple[int, int]:
        """The rules' own choice: ``halftime_pool`` (0: the largest allowed) cut to the
        smallest hill, and ``final_lap_after`` — what the game played before the choice was
        made at the table (``legal[0]``)."""
        smallest = self.halftime[1]  # type: ignore[index]
        want = self.rules.halftime_pool
        return (min(want, smallest) if want else smallest), self.rules.final_lap_after

    def _halftime_legal(self) -> list[Action]:
        """``SECOND p t`` offers (at most 12), the rules' choice first.

        000: "At the end of the first half, a player with the largest points on his/her
        hill has the right to determine the stakes, size of the pool, and duration of the
        second half. ... The pool cannot be larger than the smallest hill at the end of the
        first half. The time limit specifies when the final lap starts."  Pools: the rules'
        choice, then the smallest hill and about three quarters, a half and a quarter of it
        (at least 1), four at most; times: the rules' ``final_lap_after``, then half and
        double it (or, when it is 0, no limit, 4 and 8 laps).  The stakes are not chosen here:
        they stay the rules' option ``stakes`` (money per whist point).
        """
        smallest = self.halftime[1]  # type: ignore[index]
        pool0, time0 = self._halftime_default()
        pools = [pool0]
        for p in (smallest, smallest * 3 // 4, smallest // 2, smallest // 4):
            if p >= 1 and p not in pools and len(pools) < 4:
                pools.append(p)
        n = self.players
        extra = (max(1, time0 // 2), time0 * 2) if time0 else (4 * n, 8 * n)
        times = [time0]
        for t in extra:
            if t not in times:
                times.append(t)
        return [Action(ActionKind.SECOND, level=p, after=t) for p in pools for t in times]

    def _halftime_refusal(self, act: Action) -> Reason:
        leader, smallest = self.halftime  # type: ignore[misc]
        shown = tuple(self._halftime_legal())
        if act.kind is not ActionKind.SECOND:
            return Reason("halftime_first", {"leader": leader, "shown": shown})
        if act.level is not None and act.level > smallest:
            return Reason("halftime_pool_too_big", {"smallest": smallest, "shown": shown})
        return Reason("halftime_choose", {"shown": shown})
