"""Closing the pool: where a deal's pool points go (own pool, another's, a mountain) and
the bonuses for the first closed pool and the first emptied mountain (a part of
:class:`preferans.sheet.Sheet`).

Awards go to the scorer's own pool up to the pool size; the rest helps the highest unclosed
pool (ties: the next player clockwise from the scorer), the scorer writing
``pool_help_whists`` whists per point on the player helped; points left when no pool can
take them are taken off the scorer's mountain (``pool_overflow``).
"""

from __future__ import annotations

from fractions import Fraction

from .i18n.notes import Note
from .outcome import DealOutcome
from .outcome import partners as _partners
from .points import show_points as _show
from .scoring import DealScore


class PoolClosing:
    """The sheet's pool closing and bonuses (the running totals are the sheet's)."""

    def _off_own_mountain(
        self, outcome: DealOutcome, score: DealScore, mountain: list[Fraction]
    ) -> list[str]:
        """Classical: pool points that are written off one's own mountain instead.

        000: "The soloist writes a half of the game point in his/her pool and writes the same
        off from his/her hill if he/she played the hand successfully."  "In all-pass, ...
        who did not take any [trick writes] one point off from his/her hill ... A player can
        write points from all-pass only in his own hill, therefore points that could have
        been written off disappear when his/her hill is empty."  A dealer who shares the
        soloist's game (``dealer_share``) writes his half the same way.
        """
        rules = self.rules
        notes: list[str] = []
        racing_off = outcome.off_hill if rules.write_off_choice else ()
        for seat in racing_off:  # Racing: POOL or HILL, chosen at the end of the deal
            off = min(score.pool[seat], max(Fraction(0), mountain[seat]))
            if off:
                score.pool[seat] -= off
                mountain[seat] -= off
                notes.append(Note("off_mountain", seat=seat, points=_show(off)))
        if outcome.kind == "allpass" and rules.allpass_zero_off_mountain:
            for seat, points in enumerate(score.pool):
                if points:
                    off = min(points, max(Fraction(0), mountain[seat]))
                    score.pool[seat] = Fraction(0)
                    mountain[seat] -= off
                    notes.append(Note("off_mountain", seat=seat, points=_show(off)))
        elif rules.made_half_off_mountain:
            for seat in _partners(outcome):
                if not score.pool[seat]:
                    continue
                off = min(score.pool[seat] / 2, max(Fraction(0), mountain[seat]))
                if off:
                    score.pool[seat] -= off
                    mountain[seat] -= off
                    notes.append(Note("off_mountain", seat=seat, points=_show(off)))
        return notes

    def _zero_trick_hill(
        self, score: DealScore, pool: list[Fraction], mountain: list[Fraction]
    ) -> list[str]:
        """Finn (``allpass_zero_full="hill"``): a trickless all-pass player's pool points.

        000: "One who does not take any tricks writes two points in the pool if it is not
        full, in which case he/she writes two points off from the hill. The points are
        forfeited if the pool is full and the hill is empty."  What his own pool can take
        goes there, the rest off his own mountain, and what that cannot take is lost; none
        of it goes to another player's pool or mountain.
        """
        notes: list[str] = []
        for seat, points in enumerate(score.pool):
            if not points:
                continue
            score.pool[seat] = Fraction(0)
            own = min(points, max(Fraction(0), self.pool_size - pool[seat]))
            pool[seat] += own
            rest = points - own
            off = min(rest, max(Fraction(0), mountain[seat]))
            mountain[seat] -= off
            if off:
                notes.append(Note("zero_full", seat=seat, points=_show(off)))
            if rest - off:
                notes.append(Note("zero_forfeit", seat=seat, points=_show(rest - off)))
        return notes

    def _zero_trick_keep(self, score: DealScore, pool: list[Fraction]) -> list[str]:
        """House option (``allpass_zero_full="keep"``): a trickless all-pass player's pool
        points stay in his own pool, beyond its length if need be: they help no other pool
        (no help whists) and overflow nowhere; at settlement what lies beyond the length
        comes off his mountain (:func:`settle`), as Piter's kept points do."""
        notes: list[str] = []
        for seat, points in enumerate(score.pool):
            if not points:
                continue
            score.pool[seat] = Fraction(0)
            beyond = min(points, max(Fraction(0), pool[seat] + points - self.pool_size))
            pool[seat] += points
            if beyond:
                notes.append(Note("kept_beyond", seat=seat, points=_show(beyond)))
        return notes

    def _close(
        self,
        scorer: int,
        points: Fraction,
        score: DealScore,
        pool: list[Fraction],
        mountain: list[Fraction],
        whists: list[list[Fraction]],
        skip: tuple[int, ...] = (),
        hill_first: bool = False,
    ) -> list[str]:
        """Put ``points`` into ``scorer``'s pool, help others, then overflow; return notes.

        ``hill_first`` (VMK's soloist chose HILL, ``pool_overflow_choice``): what his pool
        cannot take comes off his own mountain before it helps anyone.
        """
        rules = self.rules
        n = len(pool)
        notes: list[str] = []
        size = self.pool_size
        own = min(points, max(Fraction(0), size - pool[scorer]))
        pool[scorer] += own
        points -= own
        if hill_first and points > 0:
            off = min(points, max(Fraction(0), mountain[scorer]))
            if off:
                mountain[scorer] -= off
                points -= off
                notes.append(Note("hill_first", seat=scorer, points=_show(off)))
        helps = rules.pool_help
        if helps and points > 0 and rules.pool_help_closed_before \
                and self.pool[scorer] < size:
            # house option: a pool closed on this deal helps nobody yet
            helps = False
            notes.append(Note("closing_no_help", seat=scorer, points=_show(points)))
        while points > 0 and helps:
            candidates = [
                p
                for p in range(n)
                if p != scorer
                and p not in skip
                and pool[p] < size
                and (rules.pool_help_whister_short or p not in score.short)
            ]
            if not candidates:
                break
            if rules.pool_help_to == "lowest":  # house option: furthest from closing first
                recipient = min(candidates, key=lambda p: (pool[p], (p - scorer) % n))
            else:
                recipient = max(candidates, key=lambda p: (pool[p], -((p - scorer) % n)))
            given = min(points, size - pool[recipient])
            pool[recipient] += given
            points -= given
            help_whists = given * rules.pool_help_whists
            whists[scorer][recipient] += help_whists
            if help_whists:
                notes.append(Note("closed_pool", seat=scorer, points=_show(given),
                                  other=recipient, amount=_show(help_whists)))
            else:
                notes.append(Note("closed_pool_free", seat=scorer, points=_show(given),
                                  other=recipient))
            if rules.pool_help_to == "highest_only":  # house option: one pool only
                break
        if points > 0 and rules.pool_overflow == "kept":
            pool[scorer] += points
            notes.append(Note("kept_beyond", seat=scorer, points=_show(points)))
        elif points > 0 and rules.pool_overflow == "hills":
            notes += self._off_mountain(scorer, points, mountain, whists)
        elif points > 0:
            notes.append(self._overflow(scorer, points, mountain))
        return notes

    def _off_mountain(
        self,
        scorer: int,
        points: Fraction,
        mountain: list[Fraction],
        whists: list[list[Fraction]],
    ) -> list[str]:
        """Finn: take a made contract's value off the scorer's mountain, then others'."""
        n = len(mountain)
        own = min(points, max(Fraction(0), mountain[scorer]))
        mountain[scorer] -= own
        points -= own
        notes: list[str] = [Note("took_off", seat=scorer, points=_show(own))] if own else []
        while points > 0:
            others = [p for p in range(n) if p != scorer and mountain[p] > 0]
            if not others:
                notes.append(Note("took_off_lost", points=_show(points)))
                break
            recipient = min(others, key=lambda p: (mountain[p], (p - scorer) % n))
            taken = min(points, mountain[recipient])
            mountain[recipient] -= taken
            points -= taken
            help_whists = taken * self.rules.pool_help_whists
            whists[scorer][recipient] += help_whists
            notes.append(Note("took_off_other", seat=scorer, points=_show(taken),
                              other=recipient, amount=_show(help_whists)))
        return notes

    def _bonuses(
        self,
        first: int,
        pool: list[Fraction],
        mountain: list[Fraction],
        whists: list[list[Fraction]],
    ) -> list[str]:
        """Finn's bonuses for the first closed pool and the first emptied mountain."""
        rules = self.rules
        n = len(pool)
        order = [(first + k) % n for k in range(n)]
        notes: list[str] = []
        clear = rules.clear_mountain_bonus[0 if n == 3 else 1]
        checks = (
            ("first_pool", rules.first_pool_bonus, lambda p: pool[p] >= self.pool_size),
            ("clear_mountain", clear, lambda p: self.mountain[p] > 0 >= mountain[p]),
        )
        for key, bonus, reached in checks:
            if not bonus or key in self.bonuses:
                continue
            winner = next((p for p in order if reached(p)), None)
            if winner is None:
                continue
            for other in range(n):
                if other != winner:
                    whists[winner][other] += bonus
            notes.append(Note(f"bonus_{key}", seat=winner, bonus=bonus))
            self._new_bonuses[key] = winner
        return notes

    def _overflow(self, scorer: int, points: Fraction, mountain: list[Fraction]) -> str:
        mode = self.rules.pool_overflow
        if mode == "lost":
            return Note("overflow_lost", points=_show(points))
        off = min(points, mountain[scorer])
        mountain[scorer] -= off
        rest = points - off
        code = "took_off" if off else "overflow_none"
        if rest and mode == "mountain_then_opponents":
            for p in range(len(mountain)):
                if p != scorer:
                    mountain[p] += rest
            code = "overflow_off_put" if off else "overflow_none_put"
        elif rest:
            code = "overflow_off_lost" if off else "overflow_none_lost"
        if code == "took_off":
            return Note(code, seat=scorer, points=_show(off))
        if code.startswith("overflow_none"):
            return Note(code, seat=scorer, rest=_show(rest))
        return Note(code, seat=scorer, points=_show(off), rest=_show(rest))
