"""The Rogue («разбойник»): each soloist's compulsory list of games (000, "Rogue").

000: "There are no bidding and the second hand is always the soloist. ... The soloist has
to name all the games from his/her own list of games, one game at a time and each game only
once. The list of "small rogue" is 10 games of 6 spades, 6 clubs, 6 diamonds, 6 hearts, 6 no
trump, any 7 trick once, any 8 trick once, any 9 trick once, any 10 trick once and misere
once. The "large rogue" is 14 games of 6 spades, 6 clubs, 6 diamonds, 6 hearts, 6 no trump,
7 spades, 7 clubs, 7 diamonds, 7 hearts, 7 no trump, any 8 trick once, any 9 trick once, any
10 trick once, and misere once. The "extra large rogue" is 30 games of 6 to 10 trick games
in 5 trumps and misere five times."

"The soloist must name number of tricks and a trump before turning the widow up if it is a
six-trick game in "small rogue", a six- or seven-trick game in "large rogue", or all the
trick games in "extra large rogue". Misere must be named before the turning of the widow as
usual. For the other trick games he/she names number of tricks before seeing the widow and a
trump after that."

A list item is written as the game is named before the talon: a whole contract (``6S``,
``7NT``), ``MISERE``, or a number of tricks alone (``8``: "any 8 trick", its trump named
after the discard).  The soloist names an item with its bid token, ``MISERE``, or
``TRICKS n`` for a number of tricks alone.

:class:`RogueDeal` is the Rogue's part of a deal (who names, what is named, who defends);
:class:`RogueSheet` its part of the sheet (the lists still to play, each deal checked).

>>> rogue_list("small")
('6S', '6C', '6D', '6H', '6NT', '7', '8', '9', '10', 'MISERE')
>>> len(rogue_list("large")), len(rogue_list("xl"))
(14, 30)
>>> [str(a) for a in naming_actions(["6S", "8", "MISERE", "MISERE"])]
['6S', 'TRICKS 8', 'MISERE']
>>> item_of(naming_actions(["8"])[0])
'8'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from ..actions import (
    OPEN,
    PASS,
    WHIST,
    Action,
    ActionKind,
)
from ..bids import MISERE, Bid
from ..cards import Suit
from ..outcome import DealOutcome
from ..phase import Phase
from ..scoring import ScoringError

_SIXES: Final = ("6S", "6C", "6D", "6H", "6NT")
_SEVENS: Final = ("7S", "7C", "7D", "7H", "7NT")

ROGUE_LISTS: Final[dict[str, tuple[str, ...]]] = {
    "small": (*_SIXES, "7", "8", "9", "10", "MISERE"),
    "large": (*_SIXES, *_SEVENS, "8", "9", "10", "MISERE"),
    "xl": (*(str(b) for b in Bid.ladder()), *("MISERE",) * 5),
    "classical": ("6", "7", "8", "9", "10", "MISERE"),
}
"""Each list of 000, in the order the text gives it; ``classical`` is the first half of the
1971 Classical game: "six trick once, seven trick once, eight trick once, nine trick once,
ten trick once, and misere once. Number of tricks is said before the widow is revealed, and a
trump suit after discard." """


def rogue_list(kind: str) -> tuple[str, ...]:
    """The games of one list: ``small`` (10), ``large`` (14) or ``xl`` (30)."""
    try:
        return ROGUE_LISTS[kind]
    except KeyError:
        known = ", ".join(ROGUE_LISTS)
        raise ValueError(f"unknown rogue list {kind!r} (known: {known})") from None


def naming_actions(items: Iterable[str]) -> list[Action]:
    """The soloist's legal names for the items left on his list (each distinct item once)."""
    out: list[Action] = []
    for item in items:
        act = _action(item)
        if act not in out:
            out.append(act)
    return out


def _action(item: str) -> Action:
    if item.isdigit():
        return Action(ActionKind.TRICKS, level=int(item))
    if item == "MISERE":
        return Action(ActionKind.BID, bid=MISERE)
    return Action(ActionKind.BID, bid=Bid.parse(item))


def item_of(action: Action) -> str:
    """The list item a naming action plays (``TRICKS 8`` → ``"8"``, ``6S`` → ``"6S"``)."""
    if action.kind is ActionKind.TRICKS:
        return str(action.level)
    return str(action.bid)


def item_fits(item: str, contract: Bid) -> bool:
    """Whether a played contract is the game a list item names.

    >>> item_fits("8", Bid.parse("8H")), item_fits("6S", Bid.parse("6C"))
    (True, False)
    """
    if item.isdigit():
        return not contract.misere and contract.level == int(item)
    return item == str(contract)


class RogueDeal:
    """The Rogue in a deal: who names (the designated soloist), what is named, who defends."""

    __slots__ = ()

    def _start_rogue(self, lists: Sequence[Sequence[str]] | None) -> None:
        """Rogue: no auction; the designated soloist names a game of his list.

        000: "There are no bidding and the second hand is always the soloist. When three or
        four players play, the designated soloist is either the eldest or the second hand."
        """
        second = self.dummy is not None or self.rules.rogue_soloist == "second"
        soloist = self.seats[1] if second else self.seats[0]
        if lists is None:
            items: tuple[str, ...] = rogue_list(self.rules.rogue)
        else:
            if len(lists) != self.players:
                raise ValueError(f"rogue lists: {self.players} players need {self.players} lists")
            items = tuple(lists[soloist])
        if not items:
            raise ValueError(f"seat {soloist} has played every game of the rogue list")
        self._soloist = soloist
        self._rogue_items = items
        self.auction.to_act = None
        self.phase = Phase.NAME

    def _named_in_full(self) -> bool:
        """Whether the soloist named the whole contract before the talon (``6S``, not ``8``)."""
        return self.rogue_item is not None and not self.rogue_item.isdigit()

    def _apply_name(self, act: Action) -> None:
        """Rogue: the game is named, the talon turned and taken.

        000: "Number of tricks is said before the widow is revealed, and a trump suit after
        discard" (for the games the list leaves open).
        """
        self.rogue_item = item_of(act)
        self.declarer = self._soloist
        self.bid = Bid(act.level, Suit.SPADES) if act.kind is ActionKind.TRICKS else act.bid
        self._hands[self.declarer] |= self.talon[0].mask | self.talon[1].mask  # type: ignore[index]
        self.phase = Phase.DISCARD

    def _rogue_defence(self) -> None:
        """Rogue: the defence is forced and open, without calls.

        000: "The opponent must whist with dummy and open hands in a two player game. When
        three or four play some say both partners must whist and some say the first partner
        whists and the second passes. The hands of the partners are open in both cases."
        """
        first, second = self.defenders
        if self.dummy is not None:
            whister = self._partner_of_dummy()
            self.defence.append((whister, WHIST))
            self.whisters = (whister,)
            self._apply_mode(OPEN)
            return
        self.forced = True
        if self.rules.rogue_defence == "both":
            self.defence += [(first, WHIST), (second, WHIST)]
            self.whisters = (first, second)
            self.open_defence = True
            self._expose((1 << first) | (1 << second), at_once=self.rules.open_before_lead)
            self._start_play()
            return
        self.defence += [(first, WHIST), (second, PASS)]
        self.whisters = (first,)
        self._apply_mode(OPEN)


class RogueSheet:
    """The Rogue on the sheet: each player's list of games still to play."""

    def _start_rogue_sheet(self) -> None:
        """Rogue: the games each player has still to play (``rules.rogue``)."""
        self.rogue_lists: list[list[str]] = []
        if self.rules.rogue != "none":
            self.rogue_lists = [list(rogue_list(self.rules.rogue)) for _ in self.players]

    def _check_rogue(self, outcome: DealOutcome) -> None:
        """Rogue: the deal must play a game still on its declarer's list."""
        item = outcome.rogue_item
        if self.rules.rogue == "none" or self.stage not in (None, "first half"):
            if item is not None:
                raise ScoringError("a rogue game where no rogue lists are played")
            return
        if outcome.declarer is None or item is None or outcome.contract is None:
            raise ScoringError("every rogue deal plays a game of its soloist's list")
        if item not in self.rogue_lists[outcome.declarer]:
            raise ScoringError(f"{item} is no longer on seat {outcome.declarer}'s rogue list")
        if not item_fits(item, outcome.contract):
            raise ScoringError(f"rogue game {item} was named but {outcome.contract} was played")
