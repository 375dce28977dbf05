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

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from ..bids import Bid
from ..outcome import DealOutcome
from ..rules import Rules
from ..sheet import Sheet


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
    ) -> None:
        self.rules = rules
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
        self._cache: dict[DealOutcome, list[float]] = {}
        self._tables: dict[tuple[Any, ...], Any] = {}

    def changes(self, outcome: DealOutcome) -> list[float]:
        """Every seat's balance change for this outcome."""
        hit = self._cache.get(outcome)
        if hit is not None:
            return hit
        sheet = Sheet(self.rules, tuple(str(i) for i in range(self.n)))
        sheet.pool = list(self._pool)
        sheet.mountain = list(self._mountain)
        sheet.whists = [list(r) for r in self._whists]
        sheet.allpass_streak = self.allpass_streak
        try:
            entry = sheet.record(outcome)
            result = [float(x) for x in entry.balance_change]
        except ValueError:
            result = [0.0] * self.n
        self._cache[outcome] = result
        return result

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
    ) -> DealOutcome:
        """The outcome of a played contract where declarer takes ``tricks``."""
        defs = self.defenders(declarer)
        counts = [0] * self.n
        counts[declarer] = tricks
        rest = 10 - tricks
        if contract.misere:
            a = rest // 2
            counts[defs[0]], counts[defs[1]] = rest - a, a
            return DealOutcome(
                "misere", self.dealer, self.n, declarer, contract, tricks=tuple(counts)
            )
        first = round(rest * split)
        counts[defs[0]], counts[defs[1]] = first, rest - first
        if not defence:
            defence = tuple("WHIST" if d in whisters else "PASS" for d in defs)
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
    ) -> TrickTable:
        """This seat's value for each trick count 0..10 of the declarer (memoised, lazy)."""
        if not contract.misere and not whisters:
            whisters = self.defenders(declarer)
        key = ("contract", declarer, contract, tuple(whisters), tuple(defence), half_whister,
               split)
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
        if half_whister is not None:
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
