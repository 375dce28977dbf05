"""What a deal's result is worth to one seat, in whists, under the rules and the sheet.

:class:`ScoreModel` answers "if the deal ended like this, how much would my
settlement balance change?"  It scores the outcome with the project's own sheet
(:class:`preferans.sheet.Sheet`: pool closing with help and overflow, all-pass
stakes, the early-stop settlement) started from the sheet the seat sees, so the
Crazy player plays for the score: a pool point is worth more before the pool is
closed than after, a whist shortage costs what the rules say it costs.

Without a sheet (the Hard player), the model scores from an empty sheet: the
plain value of the contract under the rules.

>>> from preferans.rules import Rules
>>> model = ScoreModel(Rules.preset("sochi"), seat=0, dealer=2)
>>> from preferans.bids import Bid
>>> table = model.contract_table(declarer=0, contract=Bid.parse("7H"), whisters=(1, 2))
>>> round(table[7], 2), round(table[6], 2)
(14.67, -50.67)
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from ..bids import Bid
from ..outcome import DealOutcome
from ..rules import Rules
from ..sheet import Sheet, settle


def _frac(x: Any) -> Fraction:
    if isinstance(x, Fraction):
        return x
    if isinstance(x, float):
        return Fraction(x).limit_denominator(1000)
    return Fraction(x)


class TrickTable(Sequence[float]):
    """Values for trick counts 0..10, each scored the first time it is read.

    A decision usually meets only a few trick counts, and scoring one runs the sheet.

    >>> table = TrickTable(lambda t: 2.0 * t)
    >>> table[3], len(table), list(table)[:3]
    (6.0, 11, [0.0, 2.0, 4.0])
    """

    def __init__(self, score: Callable[[int], float]) -> None:
        self._score = score
        self._values: list[float | None] = [None] * 11

    def __len__(self) -> int:
        return 11

    def __getitem__(self, tricks: int) -> float:  # type: ignore[override]
        v = self._values[tricks]
        if v is None:
            v = self._values[tricks] = self._score(tricks)
        return v


class ScoreModel:
    """The balance change of ``seat`` for deal outcomes, memoised."""

    def __init__(
        self,
        rules: Rules,
        seat: int,
        *,
        dealer: int = 0,
        sheet: Mapping[str, Any] | None = None,
        allpass_streak: int = 0,
        racing_pools: bool = True,
    ) -> None:
        self.rules = rules
        self.racing_pools = racing_pools
        """Racing: value pool points as an ordinary pulya's settlement would (the default, so
        that a game made is worth more than its bonus chances); ``False``: the Racing
        balance itself, where pools count only through the bonuses they win."""
        self.seat = seat
        self.dealer = dealer
        self.n = rules.players
        self.allpass_streak = allpass_streak
        self._pool = [Fraction(0)] * self.n
        self._mountain = [Fraction(0)] * self.n
        self._whists = [[Fraction(0)] * self.n for _ in range(self.n)]
        if sheet:
            try:
                self._pool = [_frac(x) for x in sheet["pool"]]
                self._mountain = [_frac(x) for x in sheet["mountain"]]
                self._whists = [[_frac(x) for x in row] for row in sheet["whists"]]
            except (KeyError, TypeError, ValueError):
                pass
        self.pool_size = rules.pool
        """Classical's second half: the pool chosen at half-time (the sheet's ``pool_size``)."""
        if sheet and sheet.get("pool_size") is not None:
            with contextlib.suppress(TypeError, ValueError):
                self.pool_size = int(sheet["pool_size"])
        self.bombs: list[list[int]] = []
        if sheet and sheet.get("bombs"):
            try:
                self.bombs = [[int(d) for d in b] for b in sheet["bombs"]]
            except (TypeError, ValueError):
                self.bombs = []
        self._racing: tuple[int, list[Fraction], list[Fraction]] | None = None
        if sheet and rules.racing_rounds and isinstance(sheet.get("racing"), Mapping):
            self._racing = _racing_state(rules, sheet["racing"], self.n)
        self._cache: dict[DealOutcome, list[float]] = {}
        self._tables: dict[tuple[Any, ...], Any] = {}

    def changes(self, outcome: DealOutcome) -> list[float]:
        """Every seat's balance change for this outcome.

        The structural variants' sheet state is set to fit the outcome: Racing's
        compulsory all-pass is lifted (and its pools are valued as an ordinary pulya's,
        so a pool point keeps its worth between the bonuses), Classical's half is the
        one the outcome belongs to (a named Rogue game: the first), a Rogue game's item
        is on its declarer's list, and the declarer's bombs (``bombs`` on the sheet) apply.
        """
        hit = self._cache.get(outcome)
        if hit is not None:
            return hit
        sheet = Sheet(self.rules, tuple(str(i) for i in range(self.n)))
        sheet.pool = list(self._pool)
        sheet.mountain = list(self._mountain)
        sheet.whists = [list(r) for r in self._whists]
        sheet.allpass_streak = self.allpass_streak
        sheet.pool_size = self.pool_size
        sheet.forced_allpass = False
        if self.rules.classical_halves:
            sheet.stage = "first half" if outcome.rogue_item is not None else "second half"
        if outcome.rogue_item is not None and outcome.declarer is not None:
            sheet.rogue_lists[outcome.declarer] = [outcome.rogue_item]
        if self.bombs:
            sheet.bombs = [list(b) for b in self.bombs]
        if self._racing is not None:
            sheet.round = self._racing[0]
            sheet._round_base = (list(self._racing[1]), list(self._racing[2]))
            sheet._round_filled = self.round_filled()
        try:
            if self.rules.racing_rounds and self.racing_pools:
                before = settle(self.rules, sheet.pool, sheet.mountain, sheet.whists)
                sheet.record(outcome)
                after = settle(self.rules, sheet.pool, sheet.mountain, sheet.whists)
                result = [float(a - b) for a, b in zip(after, before, strict=True)]
            else:
                entry = sheet.record(outcome)
                result = [float(x) for x in entry.balance_change]
        except ValueError:
            result = [0.0] * self.n
        self._cache[outcome] = result
        return result

    def mountain_of(self, seat: int) -> Fraction:
        """A seat's mountain on the sheet the model started from."""
        return self._mountain[seat]

    def round_filled(self) -> bool:
        """Racing: somebody has already filled this round's pool (its race is decided)."""
        if self._racing is None:
            return False
        base = self._racing[1]
        return any(p - b >= self.rules.pool for p, b in zip(self._pool, base, strict=True))

    def value(self, outcome: DealOutcome) -> float:
        """This seat's balance change for the outcome."""
        return self.changes(outcome)[self.seat]

    # --- tables over trick counts ----------------------------------------------------------------
    def defenders(self, declarer: int) -> tuple[int, ...]:
        return DealOutcome("contract", self.dealer, self.n, declarer).defenders()

    def contract_outcome(
        self,
        declarer: int,
        contract: Bid,
        tricks: int,
        *,
        whisters: Sequence[int] = (),
        defence: Sequence[str] = (),
        half_whister: int | None = None,
        open_defence: bool | None = None,
        split: float = 0.5,
        alone: bool = False,
        rogue_item: str | None = None,
        forced: bool = False,
    ) -> DealOutcome:
        """The outcome of a played contract where declarer takes ``tricks``.

        Two players: the other player defends (with the dummy, or ``alone``).  A Rogue game
        carries its list item (``rogue_item``) and the forced defence (``forced``).
        """
        defs = self.defenders(declarer)
        counts = [0] * self.n
        counts[declarer] = tricks
        rest = 10 - tricks
        if contract.misere:
            a = rest // 2
            if len(defs) == 1:
                counts[defs[0]] = rest
            else:
                counts[defs[0]], counts[defs[1]] = rest - a, a
            return DealOutcome(
                "misere", self.dealer, self.n, declarer, contract, tricks=tuple(counts),
                rogue_item=rogue_item,
            )
        if len(defs) == 1:
            counts[defs[0]] = rest
            if not whisters:
                whisters = defs
        else:
            first = round(rest * split)
            counts[defs[0]], counts[defs[1]] = first, rest - first
        if not defence:
            defence = tuple("WHIST" if d in whisters else "PASS" for d in defs)
        if alone or rogue_item is not None or forced:
            return DealOutcome(
                "contract", self.dealer, self.n, declarer, contract,
                defence=tuple(defence),  # type: ignore[arg-type]
                whisters=tuple(whisters),
                open_defence=(not alone) if len(whisters) == 1 else None,
                tricks=tuple(counts), alone=alone, rogue_item=rogue_item, forced=forced,
            )
        return DealOutcome(
            "contract",
            self.dealer,
            self.n,
            declarer,
            contract,
            defence=tuple(defence),  # type: ignore[arg-type]
            whisters=tuple(whisters),
            half_whister=half_whister,
            open_defence=open_defence if len(whisters) == 1 else None,
            tricks=tuple(counts),
        )

    def contract_table(
        self,
        declarer: int,
        contract: Bid,
        *,
        whisters: Sequence[int] = (),
        defence: Sequence[str] = (),
        half_whister: int | None = None,
        split: float = 0.5,
        alone: bool = False,
        rogue_item: str | None = None,
        forced: bool = False,
    ) -> TrickTable:
        """This seat's value for each trick count 0..10 of the declarer (memoised, lazy)."""
        if not contract.misere and not whisters:
            whisters = self.defenders(declarer)
        key = ("contract", declarer, contract, tuple(whisters), tuple(defence), half_whister,
               split, alone, rogue_item, forced)
        hit = self._tables.get(key)
        if hit is not None:
            return hit
        whisters = tuple(whisters)

        def score(t: int) -> float:
            return self.value(
                self.contract_outcome(
                    declarer,
                    contract,
                    t,
                    whisters=whisters,
                    defence=defence,
                    half_whister=half_whister,
                    open_defence=True if len(whisters) == 1 else None,
                    split=split,
                    alone=alone,
                    rogue_item=rogue_item,
                    forced=forced,
                )
            )

        table = TrickTable(score)
        self._tables[key] = table
        return table

    def unplayed_value(
        self, declarer: int, contract: Bid, half_whister: int | None = None
    ) -> float:
        """This seat's value when nobody whists (or a half-whist stands)."""
        defs = self.defenders(declarer)
        if len(defs) == 1:  # two players: only the other player's call is written
            kind = "passed" if half_whister is None else "halfwhist"
            outcome = DealOutcome(
                kind, self.dealer, self.n, declarer, contract,
                defence=("PASS",) if half_whister is None else ("HALF",),
                half_whister=half_whister, tricks=(0,) * self.n,
            )
        elif half_whister is not None:
            outcome = DealOutcome(
                "halfwhist", self.dealer, self.n, declarer, contract,
                defence=("PASS", "HALF") if half_whister == defs[1] else ("HALF",),
                half_whister=half_whister, tricks=(0,) * self.n,
            )
        else:
            outcome = DealOutcome(
                "passed", self.dealer, self.n, declarer, contract,
                defence=("PASS", "PASS"), tricks=(0,) * self.n,
            )
        return self.value(outcome)

    def play_table(
        self,
        declarer: int,
        contract: Bid,
        taken: Sequence[int],
        *,
        whisters: Sequence[int] = (),
        open_defence: bool | None = None,
    ) -> TrickTable:
        """This seat's value mid-play for each number of tricks (0..10) declarer takes from
        now on, the tricks already taken (``taken``, per seat) counted where they lie.

        The defenders' later tricks are split evenly; an odd one goes to either defender with
        equal chance (the value is the mean of the two).  :meth:`contract_table` splits the
        whole deal's defence tricks by rounding instead, which gives a whister's table
        false steps: under a responsible whist a shortage written to the partner can look
        like a gain, so a trick handed to declarer could look worth having.

        >>> from preferans.rules import Rules
        >>> model = ScoreModel(Rules.preset("sochi"), seat=1, dealer=2)
        >>> table = model.play_table(0, Bid.parse("6S"), (0, 0, 0), whisters=(1, 2))
        >>> [round(table[t], 2) for t in range(5, 11)]
        [13.67, -2.67, -7.0, -11.33, -15.67, -20.0]
        """
        counts0 = [int(x) for x in taken] + [0] * max(0, self.n - len(taken))
        defs = self.defenders(declarer)
        whisters = tuple(whisters) or defs
        key = ("play", declarer, contract, tuple(counts0), whisters, open_defence)
        hit = self._tables.get(key)
        if hit is not None:
            return hit
        left = 10 - sum(counts0)

        def score(v: int) -> float:
            v = max(0, min(left, v))
            rest = left - v
            values = []
            for first in sorted({rest // 2, rest - rest // 2}):
                counts = list(counts0)
                counts[declarer] += v
                if len(defs) == 1:
                    counts[defs[0]] += rest
                else:
                    counts[defs[0]] += first
                    counts[defs[1]] += rest - first
                outcome = self.contract_outcome(
                    declarer, contract, counts[declarer], whisters=whisters,
                    open_defence=True if open_defence is None else open_defence)
                values.append(self.value(replace(outcome, tricks=tuple(counts))))
            return sum(values) / len(values)

        table = TrickTable(score)
        self._tables[key] = table
        return table

    def allpass_table(self) -> list[float]:
        """This seat's value for each of its own all-pass trick counts 0..10.

        The other tricks are split evenly between the other players.
        """
        hit = self._tables.get(("allpass",))
        if hit is not None:
            return hit
        out: list[float] = []
        others = [s for s in range(self.n) if s != self.seat]
        if self.n == 4:
            others = [s for s in others if s != self.dealer]
        for t in range(11):
            counts = [0] * self.n
            counts[self.seat] = t
            rest = 10 - t
            for i, s in enumerate(others):
                counts[s] = rest // len(others) + (1 if i < rest % len(others) else 0)
            outcome = DealOutcome("allpass", self.dealer, self.n, tricks=tuple(counts))
            out.append(self.value(outcome))
        self._tables[("allpass",)] = out
        return out


def _racing_state(rules: Rules, racing: Mapping[str, Any], n: int
                  ) -> tuple[int, list[Fraction], list[Fraction]] | None:
    """Racing: the round in progress and its base (the pools and mountains of the rounds
    already over, added up), from the sheet's ``racing`` key."""
    try:
        pool = [Fraction(0)] * n
        mountain = [Fraction(rules.start_mountain)] * n
        for r in racing.get("rounds") or []:
            pool = [a + _frac(b) for a, b in zip(pool, r["pool"], strict=True)]
            mountain = [a + _frac(b) for a, b in zip(mountain, r["mountain"], strict=True)]
        return int(racing.get("round") or 1), pool, mountain
    except (KeyError, TypeError, ValueError):
        return None


_MODELS: dict[tuple[Any, ...], ScoreModel] = {}


def _sheet_key(sheet: Mapping[str, Any] | None) -> tuple[Any, ...] | None:
    if not sheet:
        return None
    try:
        return (
            tuple(str(x) for x in sheet["pool"]),
            tuple(str(x) for x in sheet["mountain"]),
            tuple(tuple(str(x) for x in row) for row in sheet["whists"]),
        )
    except (KeyError, TypeError):
        return None


def cached_model(
    rules: Rules,
    seat: int,
    *,
    dealer: int = 0,
    sheet: Mapping[str, Any] | None = None,
    allpass_streak: int = 0,
) -> ScoreModel:
    """A :class:`ScoreModel`, shared between decisions that see the same sheet.

    Scoring an outcome runs the real sheet (about a millisecond), so the tables a player
    reads hundreds of times per decision are kept for as long as the sheet does not change.

    >>> from preferans.rules import Rules
    >>> a = cached_model(Rules.preset("sochi"), 0, dealer=2)
    >>> a is cached_model(Rules.preset("sochi"), 0, dealer=2)
    True
    """
    key = (rules, seat, dealer, _sheet_key(sheet), allpass_streak)
    model = _MODELS.get(key)
    if model is None:
        if len(_MODELS) > 256:
            _MODELS.clear()
        model = _MODELS[key] = ScoreModel(
            rules, seat, dealer=dealer, sheet=sheet, allpass_streak=allpass_streak
        )
    return model
