"""The scoring examples of the rules guide, as data the engine can score.

Each :class:`ScoringExample` holds the facts of one deal (a
:class:`~preferans.outcome.DealOutcome`), the sheet it is written on (the pools
before it, for the pool-closing example) and what the guide says the deal
writes: the change in pool, mountain and whists.  The page prints the
expected numbers; ``tests/test_guide.py`` scores every example with
:class:`preferans.sheet.Sheet` and checks that the engine agrees, so the page
cannot teach a sum the engine does not do.

>>> from preferans.guide.examples import EXAMPLES, score
>>> ex = EXAMPLES[0]
>>> ex.contract_text, ex.tricks
('7♥', (7, 2, 1))
>>> change = score(ex)
>>> change.pool == list(ex.pool) and change.whists == [list(r) for r in ex.whists]
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ..bids import MISERE, Bid
from ..outcome import DealOutcome
from ..rules import Rules

PLAYERS = ("A", "B", "C")
RULES_PRESET = "guide"

Matrix = tuple[tuple[int, int, int], tuple[int, int, int], tuple[int, int, int]]
NO_WHISTS: Matrix = ((0, 0, 0), (0, 0, 0), (0, 0, 0))


@dataclass(frozen=True)
class ScoringExample:
    """One deal the guide scores, with the change it says the sheet records.

    ``whists[i][j]`` is what player ``i`` writes on player ``j`` (records.md).
    ``pool_before`` sets the pools before the deal (the pool-closing example).
    """

    key: str
    section: str
    title: str
    outcome: DealOutcome
    explanation: str
    pool: tuple[int, int, int] = (0, 0, 0)
    mountain: tuple[int, int, int] = (0, 0, 0)
    whists: Matrix = NO_WHISTS
    pool_before: tuple[int, int, int] = (0, 0, 0)
    pool_after: tuple[int, int, int] | None = None
    tags: tuple[str, ...] = field(default=())

    @property
    def tricks(self) -> tuple[int, ...]:
        return self.outcome.tricks

    @property
    def contract_text(self) -> str:
        """The contract for people (``7♥``, ``Misère``) or ``all-pass``."""
        if self.outcome.contract is None:
            return "all-pass"
        return self.outcome.contract.symbol

    def rows(self) -> list[dict[str, object]]:
        """One row per player: pool, mountain and the whists written, for the page."""
        out: list[dict[str, object]] = []
        for i, name in enumerate(PLAYERS):
            written = [
                f"{self.whists[i][j]} on {PLAYERS[j]}" for j in range(3) if self.whists[i][j]
            ]
            out.append(
                {
                    "name": name,
                    "tricks": self.tricks[i],
                    "pool": self.pool[i],
                    "mountain": self.mountain[i],
                    "whists": ", ".join(written) or "—",
                    "whists_total": sum(self.whists[i]),
                }
            )
        return out


def _contract(declarer: int, contract: str, defence: tuple[str, ...], tricks: tuple[int, ...],
              whisters: tuple[int, ...] = (1, 2), open_defence: bool | None = None) -> DealOutcome:
    return DealOutcome(
        "contract",
        dealer=2,
        declarer=declarer,
        contract=Bid.parse(contract),
        defence=defence,  # type: ignore[arg-type]
        whisters=whisters,
        open_defence=open_defence,
        tricks=tricks,
    )


EXAMPLES: list[ScoringExample] = [
    ScoringExample(
        key="made-7",
        section="09",
        title="A makes 7♥ exactly",
        outcome=_contract(0, "7H", ("WHIST", "WHIST"), (7, 2, 1)),
        explanation=(
            "Seven tricks is what A promised, so A writes the contract's value, 4, in the "
            "pool. The defence took three tricks, one more than its quota of two, so "
            "nobody is short: B writes 2 × 4 = 8 whists on A and C writes 1 × 4 = 4."
        ),
        pool=(4, 0, 0),
        whists=((0, 0, 0), (8, 0, 0), (4, 0, 0)),
    ),
    ScoringExample(
        key="down-1",
        section="09",
        title="A goes one down in 7♥",
        outcome=_contract(0, "7H", ("WHIST", "WHIST"), (6, 3, 1)),
        explanation=(
            "Six tricks is one short. A writes 4 × 1 = 4 in the mountain and nothing in "
            "the pool. Each defender writes whists for the tricks taken plus the same "
            "consolation for the undertrick: B (3 + 1) × 4 = 16, C (1 + 1) × 4 = 8."
        ),
        mountain=(4, 0, 0),
        whists=((0, 0, 0), (16, 0, 0), (8, 0, 0)),
    ),
    ScoringExample(
        key="short-whister",
        section="09",
        title="6♣ with an overtrick, and a whister short",
        outcome=_contract(0, "6C", ("WHIST", "WHIST"), (8, 2, 0)),
        explanation=(
            "A took eight but promised six: overtricks earn nothing, so the pool gets "
            "just 2. The defence owed four tricks and took two, so it fell short. With "
            "two whisters against a six each answers for two: B took his two and writes "
            "2 × 2 = 4 whists; C took none and writes 2 × 2 = 4 in the mountain."
        ),
        pool=(2, 0, 0),
        mountain=(0, 0, 4),
        whists=((0, 0, 0), (4, 0, 0), (0, 0, 0)),
    ),
    ScoringExample(
        key="lone-whister",
        section="09",
        title="One whister against 6♠, declarer one down",
        outcome=_contract(
            0, "6S", ("WHIST", "PASS"), (5, 3, 2), whisters=(1,), open_defence=True
        ),
        explanation=(
            "B whisted alone and C passed. A took five, one short. B is credited with "
            "both defending hands' five tricks and gets the consolation too: 5 × 2 + "
            "1 × 2 = 12 whists. C, the passer, writes only the consolation, 1 × 2 = 2. "
            "A writes 2 × 1 = 2 in the mountain."
        ),
        mountain=(2, 0, 0),
        whists=((0, 0, 0), (12, 0, 0), (2, 0, 0)),
    ),
    ScoringExample(
        key="misere-made",
        section="10",
        title="A clean misère",
        outcome=DealOutcome(
            "misere", dealer=2, declarer=0, contract=MISERE, tricks=(0, 6, 4)
        ),
        explanation="A took no trick: 10 in the pool. Nobody writes whists on a misère.",
        pool=(10, 0, 0),
    ),
    ScoringExample(
        key="misere-two",
        section="10",
        title="A misère caught twice",
        outcome=DealOutcome(
            "misere", dealer=2, declarer=0, contract=MISERE, tricks=(2, 5, 3)
        ),
        explanation=(
            "A was forced to take two tricks: 10 × 2 = 20 in the mountain, nothing in "
            "the pool, and no whists or consolation for anyone."
        ),
        mountain=(20, 0, 0),
    ),
    ScoringExample(
        key="allpass-amnesty",
        section="11",
        title="All-pass 4–3–3",
        outcome=DealOutcome("allpass", dealer=2, tricks=(4, 3, 3)),
        explanation=(
            "Everyone took tricks. The common minimum, three, is forgiven, so 4–3–3 "
            "is written as 1–0–0: A writes 1 in the mountain, B and C nothing. "
            "Nobody earns a pool point: B and C did take tricks."
        ),
        mountain=(1, 0, 0),
    ),
    ScoringExample(
        key="allpass-zero",
        section="11",
        title="All-pass 0–5–5",
        outcome=DealOutcome("allpass", dealer=2, tricks=(0, 5, 5)),
        explanation=(
            "A really took no trick and earns 1 pool point. B and C write 5 each in "
            "the mountain (the minimum is zero, so there is nothing to forgive)."
        ),
        pool=(1, 0, 0),
        mountain=(0, 5, 5),
    ),
    ScoringExample(
        key="pool-help",
        section="13",
        title="Closing the pool: 19, 17, 14 and an eight worth six",
        outcome=DealOutcome(
            "passed", dealer=2, declarer=0, contract=Bid.parse("8S"),
            defence=("PASS", "PASS"), tricks=(0, 0, 0),
        ),
        explanation=(
            "A needs 1 point to close: the first of the six goes to A's own pool. The "
            "rest helps the highest unclosed pool, B's 17, which takes 3; the last 2 "
            "go to C. For each point given A writes ten whists on the player helped: 30 on "
            "B and 20 on C. The pools end at 20, 20 and 16."
        ),
        pool=(1, 3, 2),
        whists=((0, 30, 20), (0, 0, 0), (0, 0, 0)),
        pool_before=(19, 17, 14),
        pool_after=(20, 20, 16),
    ),
]


@dataclass
class Change:
    """What the engine's sheet wrote for one example (integers where integral)."""

    pool: list[Fraction]
    mountain: list[Fraction]
    whists: list[list[Fraction]]
    pool_after: list[Fraction]


def score(example: ScoringExample) -> Change:
    """Score ``example`` with the engine's sheet under the guide's rules."""
    from ..sheet import Sheet

    sheet = Sheet(Rules.preset(RULES_PRESET), PLAYERS)
    sheet.pool = [Fraction(p) for p in example.pool_before]
    entry = sheet.record(example.outcome)
    return Change(entry.pool, entry.mountain, entry.whists, list(sheet.pool))


def by_section(section: str) -> list[ScoringExample]:
    """The examples of one guide section (``"09"``, ``"10"``, ...)."""
    return [e for e in EXAMPLES if e.section == section]
