"""Classical's half-time choice in a deal: the leader's ``SECOND p t``.
"""

from __future__ import annotations

import math
from typing import Any

from ..actions import (
    Action,
    ActionKind,
)
from ..i18n.reasons import Reason
from ..phase import Phase
from ..scoring import ScoringError


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


class HalftimeSheet:
    """Classical's half-time choice on the sheet: the leader, his choice, the second half's pool."""

    def _start_halftime_sheet(self) -> None:
        """Classical (``halftime_choice``): the second half's pool and time, as chosen."""
        self.compulsory_hands = 0
        """Classical: the first half's deals plus every all-pass so far."""
        self.second_half_made = 0
        """Classical: games played successfully in the second half."""
        self.halftime: dict[str, Any] | None = None
        """Classical (``halftime_choice``): the leader's choice at the end of the first half:
        ``leader``, ``smallest_hill``, ``pool``, ``final_lap_after``, ``stakes`` (the rules'
        choice until the leader says ``SECOND p t``; then also ``chosen_by``)."""
        self.halftime_pending = False
        """Classical (``halftime_choice``): the first half is over and the next deal opens
        with the leader's choice (phase ``halftime``; see :meth:`record`)."""
        self.final_lap_after = self.rules.final_lap_after
        """Classical: second-half deals before the final lap (the leader's time limit)."""

    def _halftime_choice(self) -> None:
        """Classical (``halftime_choice``): the leader sets the second half at the end of the first.

        000: "At the end of the first half, a player with the largest points on his/her hill
        has the right to determine the stakes, size of the pool, and duration of the second
        half. The other players can advise him/her, but cannot dictate what he/she says. The
        stakes is expressed in amounts of money paid for a whist point. The pool cannot be
        larger than the smallest hill at the end of the first half. The time limit specifies
        when the final lap starts."  The leader is the largest mountain (ties: the first
        from the game's first dealer's left).  Until he chooses, the choice is the rules'
        (``halftime_pool``, ``final_lap_after``), the pool cut to the smallest mountain; he
        chooses in the next deal (phase ``halftime``, ``SECOND p t``, which :meth:`record`
        applies from that deal on: ``halftime_pending``).  The stakes stay the rules' option
        (``stakes``, money per whist point).  The sheet shows it (``classical.halftime``).
        """
        rules = self.rules
        n = len(self.players)
        first = self.first_dealer if self.first_dealer is not None else 0
        order = [(first + 1 + k) % n for k in range(n)]
        top = max(self.mountain)
        leader = next(p for p in order if self.mountain[p] == top)
        smallest = max(0, math.floor(min(self.mountain)))
        pool = smallest if not rules.halftime_pool else min(rules.halftime_pool, smallest)
        self.pool_size = pool
        self.halftime = {
            "leader": leader,
            "smallest_hill": smallest,
            "pool": pool,
            "final_lap_after": rules.final_lap_after,
            "stakes": rules.stakes,
        }

    def _check_second_half(self, second_half: tuple[int, int]) -> None:
        """A leader's choice (``SECOND p t``) that is due and allowed, else ``ScoringError``."""
        if not self.halftime_pending or self.halftime is None:
            raise ScoringError("no half-time choice is due: the leader chooses once, in the "
                               "first deal after the first half (halftime_choice)")
        pool, after = second_half
        smallest = self.halftime["smallest_hill"]
        if not isinstance(pool, int) or not 0 <= pool <= smallest:
            raise ScoringError(f"the pool cannot be larger than the smallest hill at the end of "
                               f"the first half ({smallest}), nor negative: not {pool!r}")
        if not isinstance(after, int) or after < 0:
            raise ScoringError(f"the final lap starts after 0 or more deals, not {after!r}")

    def _apply_second_half(self, second_half: tuple[int, int]) -> None:
        """The leader's choice replaces the rules' (``classical.halftime``, ``pool_size``)."""
        assert self.halftime is not None
        pool, after = second_half
        self.pool_size = pool
        self.final_lap_after = after
        self.halftime.update(pool=pool, final_lap_after=after,
                             chosen_by=self.halftime["leader"])
