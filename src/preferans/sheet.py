"""The pulya sheet (пуля): pools, mountains, whists, closing the pool and settlement.

A :class:`Sheet` records one deal at a time (:meth:`Sheet.record`), scoring it with
:func:`preferans.scoring.score_deal` and then closing the pool: awards go to the
scorer's own pool up to ``rules.pool``; the rest helps the highest unclosed pool
(ties: the next player clockwise from the scorer), the scorer writing
``pool_help_whists`` whists per point on the player helped; points left when no pool
can take them are taken off the scorer's mountain (``pool_overflow``).  The game is
over when every pool is closed (:attr:`Sheet.finished`; ``game_end`` may end it at the
first closed pool or when the pools' total reaches pool × players).

Finn's options are the sheet's too: every mountain starts at ``start_mountain``; a made
contract also comes off declarer's mountain (``made_off_mountain``); the first player to
close his pool, and the first to empty his mountain, write a bonus on every other player
(``first_pool_bonus``, ``clear_mountain_bonus``); a trickless all-pass player's points go to
his own pool, then off his own mountain, else are lost (``allpass_zero_full="hill"``).  VMK's
soloist who answered HILL (``pool_overflow_choice``) writes what his pool cannot take off his
own mountain before it helps any other pool.  House options (issue 40) change the help:
``pool_help_to`` (only the highest open pool, or the one furthest from closing first) and
``pool_help_closed_before`` (a pool closed on this very deal helps nobody yet); and the
settlement: ``settle_divisor`` and ``settle_no_missing_pool`` (:func:`settle`).

>>> from preferans.bids import Bid
>>> from preferans.outcome import DealOutcome
>>> from preferans.rules import Rules
>>> sheet = Sheet(Rules.preset("sochi"), ("A", "B", "C"))
>>> entry = sheet.record(DealOutcome("contract", dealer=2, declarer=0,
...     contract=Bid.parse("7H"), defence=("WHIST", "PASS"), whisters=(1,), tricks=(7, 3, 0)))
>>> entry.summary
'A made 7♥ (+4 pool); B wrote 12 whists on A'
>>> [int(p) for p in sheet.pool], [int(w) for w in sheet.whists[1]]
([4, 0, 0], [12, 0, 0])
>>> [round(float(x), 3) for x in sheet.balance()]
[14.667, -1.333, -13.333]

Numbers are :class:`~fractions.Fraction` (whists may be halved); :meth:`Sheet.to_json`
writes integers where integral, else floats rounded to three places
(``"preferans-sheet/1"``, see ``shared/spec/records.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .bids import Bid
from .i18n.notes import Note, note_json
from .outcome import DealOutcome
from .outcome import partners as _partners
from .points import json_number
from .points import show_points as _show
from .rules import Rules
from .scoring import ScoringError, name_notes, next_allpass_streak, score_deal
from .sheet_pools import PoolClosing
from .variants import SheetVariants

__all__ = ["ScoringError", "Sheet", "SheetEntry", "json_number", "settle"]

SHEET_FORMAT = "preferans-sheet/1"


def settle(
    rules: Rules,
    pool: Sequence[Fraction | int],
    mountain: Sequence[Fraction | int],
    whists: Sequence[Sequence[Fraction | int]],
    size: int | None = None,
) -> list[Fraction]:
    """Each player's result in whists if everyone stopped now (records.md).

    Pool points still missing are added to the mountain (doubled when
    ``pool_doubled_at_settlement``), the mountain is shared out at ten whists a point
    (``10 × (average mountain − own mountain)``), then whists written minus whists
    written against.  The results sum to zero.  With ``pool_overflow="kept"`` (Piter) points
    beyond the pool come off the mountain the same way (doubled when the missing ones are), and
    so do the zero-trick all-pass points kept beyond it (``allpass_zero_full="keep"``).
    ``size`` is the pool size when it is not ``rules.pool`` (Classical's second half).

    House options: with ``settle_no_missing_pool`` the missing pool points are not charged
    (points kept beyond the pool still come off); with ``settle_divisor="players_less_one"``
    the mountains are shared out at ``10 × (total − n × own) / (n − 1)``, each pair's
    difference × 10 divided by the players less one (the usual divides by ``n``: the
    average).

    >>> from preferans.rules import Rules
    >>> [round(float(x), 3) for x in settle(Rules.preset("sochi"), [4, 0, 0], [0, 0, 0],
    ...                                      [[0, 0, 0], [12, 0, 0], [0, 0, 0]])]
    [14.667, -1.333, -13.333]
    """
    n = len(pool)
    size = rules.pool if size is None else size
    factor = 2 if rules.pool_doubled_at_settlement else 1
    kept = rules.pool_overflow == "kept" or rules.allpass_zero_full == "keep"
    uncharged = rules.settle_no_missing_pool
    d = n - 1 if rules.settle_divisor == "players_less_one" and n > 1 else n
    if type(size) is int and all(
            type(x) is int for part in (pool, mountain, *whists) for x in part):
        # whole numbers (nearly every sheet): in integers, one fraction per player at the end
        def charge(p: int) -> int:
            missing = size - p if kept else max(0, size - p)
            return min(0, missing) if uncharged else missing

        hills = [mountain[i] + factor * charge(pool[i]) for i in range(n)]
        total = sum(hills)
        return [Fraction(10 * (total - n * hills[i])
                         + d * (sum(whists[i]) - sum(whists[j][i] for j in range(n))), d)
                for i in range(n)]
    floor = None if kept else Fraction(0)
    hill = []
    for i in range(n):
        missing = size - Fraction(pool[i])
        if floor is not None:
            missing = max(floor, missing)
        if uncharged:
            missing = min(Fraction(0), missing)
        hill.append(Fraction(mountain[i]) + factor * missing)
    total_hill = sum(hill, Fraction(0))
    result = []
    for i in range(n):
        written = sum((Fraction(w) for w in whists[i]), Fraction(0))
        against = sum((Fraction(whists[j][i]) for j in range(n)), Fraction(0))
        result.append(10 * (total_hill - n * hill[i]) / d + written - against)
    return result


@dataclass
class SheetEntry:
    """One deal on the sheet: its outcome and what it changed.

    ``pool``, ``mountain`` and ``whists`` are the per-player changes after pool closing
    (``mountain`` may be negative where an overflow was taken off it);
    ``balance_change`` is the change in each player's :meth:`Sheet.balance`;
    ``stake`` the all-pass multiplier (1 for other deals); ``allpass_streak`` the
    all-passes in a row after this deal; ``summary`` a line for people.
    """

    outcome: DealOutcome
    pool: list[Fraction]
    mountain: list[Fraction]
    whists: list[list[Fraction]]
    balance_change: list[Fraction]
    stake: int = 1
    allpass_streak: int = 0
    short: tuple[int, ...] = ()
    summary: str = ""
    notes: list[str] = field(default_factory=list)
    irregularity: dict[str, Any] | None = None
    """A revoke in all-pass (:meth:`Sheet.irregularity`): ``seat``, ``kind``, ``dealer``."""

    def to_json(self, notes: bool = False) -> dict[str, Any]:
        """The records.md deal entry, plus ``stake``, ``summary`` and ``balance_change``;
        with ``notes``, also ``notes``: the summary's phrases as data
        (:func:`preferans.i18n.notes.note_json`), for an edge that writes it in another language."""
        o = self.outcome
        allpass = o.kind == "allpass"
        return {
            "dealer": o.dealer,
            "kind": o.kind,
            "declarer": None if allpass else o.declarer,
            "contract": None if allpass or o.contract is None else str(o.contract),
            "defence": [] if allpass else list(o.defence),
            "tricks": list(o.tricks),
            "change": {
                "pool": [json_number(x) for x in self.pool],
                "mountain": [json_number(x) for x in self.mountain],
                "whists": [[json_number(x) for x in row] for row in self.whists],
            },
            "stake": self.stake,
            **({"invited": True, "dealer_shared": o.dealer_shared} if o.invited else {}),
            "summary": self.summary,
            **({"notes": [note_json(n) for n in self.notes]} if notes else {}),
            "balance_change": [json_number(x) for x in self.balance_change],
            **({"irregularity": dict(self.irregularity)} if self.irregularity else {}),
        }


class Sheet(PoolClosing, SheetVariants):
    """The score sheet of one game.

    ``pool[i]``, ``mountain[i]`` and ``whists[i][j]`` (what ``i`` wrote on ``j``) are
    running totals; :attr:`entries` keeps every deal's change.
    """

    def __init__(self, rules: Rules, players: Sequence[str] = ("A", "B", "C")) -> None:
        if len(players) != rules.players:
            raise ValueError(
                f"the rules are for {rules.players} players, but {len(players)} are named"
            )
        self.rules = rules
        self.players = tuple(players)
        n = len(players)
        self.pool: list[Fraction] = [Fraction(0)] * n
        self.mountain: list[Fraction] = [Fraction(rules.start_mountain)] * n
        self.whists: list[list[Fraction]] = [[Fraction(0)] * n for _ in range(n)]
        self.allpass_streak = 0
        self.entries: list[SheetEntry] = []
        self.irregularities: list[dict[str, Any]] = []
        """Irregularities scored outside a deal (:meth:`irregularity`), as JSON, in order."""
        self.bonuses: dict[str, int] = {}
        """Bonuses already written: ``first_pool`` / ``clear_mountain`` → the seat."""
        self._new_bonuses: dict[str, int] = {}
        self.pool_size: int = rules.pool
        """The pool every player must fill: ``rules.pool``, or in the second half of a game
        of halves the one its leader set (:meth:`record`'s ``second_half``)."""
        self._start_variants()

    # --- state ---------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        """The game is over: every pool is closed (or as ``rules.game_end`` says)."""
        size = self.pool_size
        end = self.rules.game_end
        if end == "first_pool":
            return any(p >= size for p in self.pool)
        if end == "total":
            return sum(self.pool) >= size * len(self.pool)
        ended = self._variant_end(end)
        if ended is not None:
            return ended
        if end == "pools_and_hills":
            return all(p >= size for p in self.pool) and all(m <= 0 for m in self.mountain)
        return all(p >= size for p in self.pool)

    @property
    def min_bid_level(self) -> int:
        """The lowest level the next auction may open at (after the all-pass streak)."""
        return self.rules.min_bid_level(self.allpass_streak)

    def balance(self) -> list[Fraction]:
        """Each player's result in whists if everyone stopped now (see :func:`settle`), the
        pools as the variants count them (:meth:`_settled_pools`)."""
        pools, size = self._settled_pools()
        return settle(self.rules, pools, self.mountain, self.whists, size)

    # --- recording -----------------------------------------------------------------------
    def record(
        self, outcome: DealOutcome, second_half: tuple[int, int] | None = None
    ) -> SheetEntry:
        """Score one deal, close pools, update the all-pass streak; return the entry.

        ``second_half``: in a game of halves (``halftime_choice``), the leader's ``SECOND p t``
        said in this deal, the first after the first half (``halftime_pending``): pool ``p``
        and the final lap after ``t`` deals hold from this deal on.  Without it the rules'
        choice stays.  The variants are asked at their points: :meth:`_check_deal`,
        :meth:`_allpass_stake`, :meth:`_variant_score`, :meth:`_after_pools`,
        :meth:`_after_streak` and :meth:`_after_record`.  Raises
        :class:`~preferans.scoring.ScoringError` (a ``ValueError``) for an outcome that does
        not fit the rules, or a choice not due or not allowed; the sheet is then unchanged.
        """
        self._check_deal(outcome, second_half)
        stake = self._allpass_stake(outcome)
        score = score_deal(self.rules, outcome, self.allpass_streak, stake)
        variant_notes = self._variant_score(outcome, score, second_half)
        before = self.balance()
        self._new_bonuses: dict[str, int] = {}
        n = len(self.players)
        pool = list(self.pool)
        mountain = [m + d for m, d in zip(self.mountain, score.mountain, strict=True)]
        partners = _partners(outcome)
        game_point = sum((score.pool[p] for p in partners), Fraction(0))
        notes_off = self._off_own_mountain(outcome, score, mountain)
        if outcome.kind == "allpass" and self.rules.allpass_zero_full == "hill":
            notes_off += self._zero_trick_hill(score, pool, mountain)
        elif outcome.kind == "allpass" and self.rules.allpass_zero_full == "keep":
            notes_off += self._zero_trick_keep(score, pool)
        whists = [[w + d for w, d in zip(r, dr, strict=True)] for r, dr in zip(
            self.whists, score.whists, strict=True)]
        notes = list(score.notes) + variant_notes + notes_off
        first = (outcome.dealer + 1) % n
        skip: tuple[int, ...] = ()
        if self.rules.pool_help_skip_defence:  # not the whisters' nor a sitting dealer's
            skip = (*outcome.whisters, *((outcome.dealer,) if n == 4 else ()))
        hill_first = self.rules.pool_overflow_choice and outcome.declarer in outcome.off_hill
        for k in range(n):
            seat = (first + k) % n
            if score.pool[seat]:
                notes += self._close(
                    seat, score.pool[seat], score, pool, mountain, whists, skip=skip,
                    hill_first=hill_first and seat == outcome.declarer,
                )
        for seat in partners if self.rules.made_off_mountain else ():
            if score.pool[seat]:
                notes += self._off_mountain(seat, score.pool[seat], mountain, whists)
        notes += self._after_pools(outcome, Fraction(game_point), mountain)
        notes += self._bonuses(first, pool, mountain, whists)
        streak = next_allpass_streak(self.rules, outcome, self.allpass_streak)
        notes += self._after_streak(outcome, streak, pool, mountain, whists)
        change_pool = [a - b for a, b in zip(pool, self.pool, strict=True)]
        change_mountain = [a - b for a, b in zip(mountain, self.mountain, strict=True)]
        change_whists = [
            [a - b for a, b in zip(r, r0, strict=True)]
            for r, r0 in zip(whists, self.whists, strict=True)
        ]
        self.pool, self.mountain, self.whists = pool, mountain, whists
        self.bonuses.update(self._new_bonuses)
        self._after_record(outcome)
        self.allpass_streak = streak
        entry = SheetEntry(
            outcome=outcome,
            pool=change_pool,
            mountain=change_mountain,
            whists=change_whists,
            balance_change=[a - b for a, b in zip(self.balance(), before, strict=True)],
            stake=score.stake,
            allpass_streak=self.allpass_streak,
            short=score.short,
            summary=name_notes(notes, self.players),
            notes=notes,
        )
        self.entries.append(entry)
        return entry

    IRREGULARITIES = ("misdeal", "no_discard", "revoke", "advice")
    """The irregularities :meth:`irregularity` scores (000's list)."""

    def irregularity(
        self, seat: int, kind: str, *, contract: str | Bid | None = None,
        dealer: int | None = None,
    ) -> dict[str, Any]:
        """Score an irregularity at a real table (000's penalties); return the sheet's entry.

        000: "If the dealer mis-deals, he/she writes one point on his/her hill and deals
        again" (``misdeal``, ``seat`` the dealer: 1 on his mountain).  "If the soloist forgets
        to discard two cards after taking the widow, he/she writes three undertricks and the
        hand is not considered as played" (``no_discard``).  "If a player fails to follow the
        suit led or play a trump when he/she can, he/she writes three undertricks on the hill
        and the hand is not considered as played" (``revoke``).  Three undertricks are three
        times the ``contract``'s game value times ``mountain_scale`` on the offender's
        mountain, as for a resigned game (``contract`` is required for these two).  "If a
        partner gives an advise to the other, he/she writes one point on his/her hill"
        (``advice``).  Such a hand is not played: no deal is counted (the Rogue lists, the
        second half's deals, the all-pass streak and the staying dealer are unchanged), so
        the entry goes to :attr:`irregularities`, not :attr:`entries`.  Who deals next is the
        table's business: the misdealer deals again; after ``no_discard`` and ``revoke`` the
        deal was dealt properly, so the deal passes on as usual.

        "If this happens in all-pass, the offending player is assumed to have taken ten
        tricks and the all-pass is considered to be played": ``revoke`` without ``contract``
        but with ``dealer`` records that all-pass (10 tricks for ``seat``) through
        :meth:`record`, and returns that deal's JSON with the ``irregularity`` added.
        ``dealer``, when given, is kept in the entry (records write it back).

        Raises :class:`ScoringError` (a ``ValueError``) for a bad seat, kind or contract.
        """
        n = len(self.players)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ScoringError(f"irregularity: seat {seat!r} is not a seat (0..{n - 1})")
        if kind not in self.IRREGULARITIES:
            raise ScoringError(f"irregularity: unknown kind {kind!r} "
                               f"(one of {', '.join(self.IRREGULARITIES)})")
        if self.finished:
            raise ScoringError("irregularity: the game is already over")
        bid: Bid | None = None
        if contract is not None:
            if kind not in ("no_discard", "revoke"):
                raise ScoringError(f"irregularity: a {kind} names no contract")
            try:
                bid = contract if isinstance(contract, Bid) else Bid.parse(str(contract))
            except ValueError as exc:
                raise ScoringError(f"irregularity: contract {contract!r}: {exc}") from None
        if dealer is not None and (
                isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n):
            raise ScoringError(f"irregularity: dealer {dealer!r} is not a seat (0..{n - 1})")
        info: dict[str, Any] = {"seat": seat, "kind": kind}
        if dealer is not None:
            info["dealer"] = dealer
        if kind == "revoke" and bid is None:
            if dealer is None:
                raise ScoringError("irregularity: a revoke names the contract, or the dealer "
                                   "of an all-pass")
            if self.stage == "first half":
                raise ScoringError("irregularity: Classical's first half plays no all-pass "
                                   "(every deal is a game of the Rogue list)")
            if n == 4 and seat == dealer:
                raise ScoringError("irregularity: the dealer sits out and cannot revoke")
            tricks = tuple(10 if s == seat else 0 for s in range(n))
            entry = self.record(DealOutcome("allpass", dealer=dealer, players=n, tricks=tricks))
            entry.notes.append(Note("allpass_revoke", seat=seat))
            entry.summary = name_notes(entry.notes, self.players)
            entry.irregularity = info
            return entry.to_json()
        if kind in ("no_discard", "revoke"):
            if bid is None:
                raise ScoringError(f"irregularity: a {kind} names the contract (three "
                                   "undertricks of its game)")
            cost = Fraction(self.rules.contract_value(bid) * 3 * self.rules.mountain_scale)
            note = Note("irr_no_discard" if kind == "no_discard" else "irr_revoke", seat=seat,
                        contract=bid.symbol, cost=_show(cost))
            info["contract"] = str(bid)
        else:
            cost = Fraction(1)
            note = Note("irr_misdeal" if kind == "misdeal" else "irr_advice", seat=seat)
        before = self.balance()
        change = [Fraction(0)] * n
        change[seat] = cost
        self.mountain = [m + c for m, c in zip(self.mountain, change, strict=True)]
        out = {
            **info,
            "after_deal": len(self.entries),
            "mountain": [json_number(x) for x in change],
            "note": name_notes([note], self.players),
            "balance_change": [json_number(a - b) for a, b in zip(
                self.balance(), before, strict=True)],
        }
        self.irregularities.append(out)
        return out

    # --- JSON ----------------------------------------------------------------------------
    def to_json(self, notes: bool = False) -> dict[str, Any]:
        """The sheet as ``preferans-sheet/1`` (records.md), with a few extra keys (with
        ``notes``, each deal's ``notes`` too: :meth:`SheetEntry.to_json`)."""
        return {
            "format": SHEET_FORMAT,
            "players": list(self.players),
            "pool": [json_number(x) for x in self.pool],
            "mountain": [json_number(x) for x in self.mountain],
            "whists": [[json_number(x) for x in row] for row in self.whists],
            "balance": [json_number(x) for x in self.balance()],
            "finished": self.finished,
            "allpass_streak": self.allpass_streak,
            **({"bonuses": dict(self.bonuses)} if self.bonuses else {}),
            **self._variant_json(),
            **({"pool_size": self.pool_size} if self.pool_size != self.rules.pool else {}),
            **({"money": [json_number(x * self.rules.stakes) for x in self.balance()]}
               if self.rules.stakes else {}),
            "deals": [e.to_json(notes) for e in self.entries],
            **({"irregularities": [dict(x) for x in self.irregularities]}
               if self.irregularities else {}),
        }

    def __repr__(self) -> str:
        pools = ", ".join(_show(p) for p in self.pool)
        deals = len(self.entries)
        return f"<Sheet {self.rules.name} pool {self.pool_size}: [{pools}], {deals} deals>"
