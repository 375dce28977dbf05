"""Actions: one decision of one seat, and the error for an illegal one.

An :class:`Action` is a small frozen value; ``str(action)`` is its record token
(shared/spec/records.md) and :meth:`Action.parse` reads one back.

>>> from preferans.actions import Action, ActionKind
>>> Action.parse("6s")
Action.parse('6S')
>>> Action.parse("discard 7c 8d").cards
(Card.parse('7C'), Card.parse('8D'))
>>> str(Action.parse("qh")), Action.parse("QH").kind.name
('QH', 'PLAY')

Tokens depend on context: a bid token read on its own is a ``BID`` (``7S`` is
also the seven of spades) and ``PASS`` is a ``PASS``;
:meth:`preferans.deal.Deal.apply` reads a bid token as the ``CONTRACT`` after
the discard and as a card in the play (see :meth:`Action.as_kind`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from .bids import MISERE, Bid
from .cards import Card
from .i18n.reasons import Reason


class ActionKind(Enum):
    """What kind of decision an action is."""

    BID = "bid"
    """An auction call naming a bid (misère included)."""
    PASS = "pass"
    """A pass in the auction, or a defender's pass (no whist)."""
    DISCARD = "discard"
    """The declarer's two discarded cards."""
    CONTRACT = "contract"
    """The declarer's final contract, named after the discard."""
    WHIST = "whist"
    HALF = "half"
    """Half-whist (полвиста)."""
    OPEN = "open"
    """A lone whister plays both defending hands face up (в светлую)."""
    CLOSED = "closed"
    """A lone whister defends with the hands concealed (в тёмную)."""
    PLAY = "play"
    """One card played to a trick."""
    RESIGN = "resign"
    """Declarer gives up after seeing the talon: three undertricks (``rules.resignation``)."""
    REFUSE = "refuse"
    """Declarer leaves the turned talon on the table and plays his own ten cards."""
    LOOK = "look"
    """A four-player dealer looks at one defender's hand before whisting (``LOOK s``)."""
    ALONE = "alone"
    """Two players: the whister defends a 6 or 7 alone, the dummy's hand unused (``ALONE``).
    Four players (``rules.dealer_share``): the soloist plays his misère or ten alone, without
    inviting the dealer."""
    SEE = "see"
    """Classical blind bidding: the player looks at his cards (``SEE``); until then he may
    only bid or pass blind (``BLIND 6S``, ``BLIND PASS``)."""
    POOL = "pool"
    """Racing: the points of an unwhisted game made, or of a trickless all-pass, go to the
    pool (``POOL``) ..."""
    HILL = "hill"
    """... or come off one's own mountain (``HILL``) (``rules.write_off_choice``)."""
    TRICKS = "tricks"
    """Rogue: the soloist names a number of tricks before the talon, the trump after
    (``TRICKS n``)."""
    INVITE = "invite"
    """Four players (``rules.dealer_share``): the soloist of a misère or a ten invites the
    sitting dealer to share his profit or losses equally (``INVITE``); ``ALONE`` declines to."""
    ACCEPT = "accept"
    """The invited dealer shares the soloist's game half and half (``ACCEPT``) ..."""
    DECLINE = "decline"
    """... or leaves the soloist to play it alone (``DECLINE``)."""
    SECOND = "second"
    """Classical (``rules.halftime_choice``): at the end of the first half the leader (the
    largest mountain) sets the second half: ``SECOND p t``, a pool of ``p`` (at most the
    smallest mountain) and the final lap after ``t`` second-half deals (0: no time limit).
    The stakes stay the rules' option (``stakes``, money per whist point)."""


_WORDS = {
    "PASS": ActionKind.PASS,
    "WHIST": ActionKind.WHIST,
    "HALF": ActionKind.HALF,
    "OPEN": ActionKind.OPEN,
    "CLOSED": ActionKind.CLOSED,
    "RESIGN": ActionKind.RESIGN,
    "REFUSE": ActionKind.REFUSE,
    "ALONE": ActionKind.ALONE,
    "SEE": ActionKind.SEE,
    "POOL": ActionKind.POOL,
    "HILL": ActionKind.HILL,
    "INVITE": ActionKind.INVITE,
    "ACCEPT": ActionKind.ACCEPT,
    "DECLINE": ActionKind.DECLINE,
}


@dataclass(frozen=True, slots=True)
class Action:
    """One decision: a kind, plus the bid or the cards it names."""

    kind: ActionKind
    bid: Bid | None = None
    cards: tuple[Card, ...] = ()
    seat: int | None = None
    """The seat a ``LOOK`` names."""
    level: int | None = None
    """The number of tricks a ``TRICKS`` names; the pool a ``SECOND`` names."""
    blind: bool = False
    """A blind call (``BLIND 6S``, ``BLIND PASS``): made without looking at one's cards."""
    hand: bool = False
    """A hand bid, to play without the talon (``9S HAND``, ``10S HAND``, ``MISERE HAND``)."""
    after: int | None = None
    """The second-half deals before the final lap a ``SECOND`` names (0: no time limit)."""

    # --- construction --------------------------------------------------------------------
    @classmethod
    def parse(cls, token: str | Action) -> Action:
        """Read a record token (case-insensitive); an :class:`Action` is returned as is.

        >>> Action.parse("MISERE").bid
        Bid.parse('MISERE')
        >>> Action.parse("10nt")
        Action.parse('10NT')
        """
        if isinstance(token, Action):
            return token
        known = _PARSED.get(token) if isinstance(token, str) else None
        if known is not None:
            return known
        action = cls._read(token)
        if len(_PARSED) < _PARSED_KEPT:
            _PARSED[token] = action
        return action

    @classmethod
    def _read(cls, token: str) -> Action:
        if not isinstance(token, str):
            raise ValueError(f"an action is written as a token like '6S' or 'QH', not {token!r}")
        text = " ".join(token.replace(",", " ").split()).upper()
        if not text:
            raise ValueError("empty action token")
        if text in _WORDS:
            return cls(_WORDS[text])
        if text.endswith(" HAND"):
            inner = cls.parse(text[:-5])
            if inner.kind is not ActionKind.BID or inner.blind:
                raise ValueError(f"cannot read {token!r}: write '9S HAND' or 'MISERE HAND'")
            return cls(ActionKind.BID, bid=inner.bid, hand=True)
        if text.startswith("BLIND "):
            inner = cls.parse(text[6:])
            if inner.kind not in (ActionKind.BID, ActionKind.PASS) or (
                inner.bid is not None and inner.bid.misere
            ):
                raise ValueError(f"cannot read {token!r}: write 'BLIND 7S' or 'BLIND PASS'")
            return cls(inner.kind, bid=inner.bid, blind=True)
        if text.startswith("LOOK"):
            parts = text.split()[1:]
            if len(parts) != 1 or not (parts[0].isascii() and parts[0].isdigit()):
                raise ValueError(f"cannot read {token!r}: write 'LOOK s' with a seat number")
            return cls(ActionKind.LOOK, seat=int(parts[0]))
        if text.startswith("TRICKS"):
            parts = text.split()[1:]
            if len(parts) != 1 or parts[0] not in ("6", "7", "8", "9", "10"):
                raise ValueError(f"cannot read {token!r}: write 'TRICKS n' with n from 6 to 10")
            return cls(ActionKind.TRICKS, level=int(parts[0]))
        if text.startswith("SECOND"):
            parts = text.split()[1:]
            if len(parts) != 2 or not all(
                p.isascii() and p.isdigit() and len(p) <= 4 for p in parts
            ):
                raise ValueError(
                    f"cannot read {token!r}: write 'SECOND p t' (the second half's pool p and "
                    "the final lap after t deals, two whole numbers)"
                )
            return cls(ActionKind.SECOND, level=int(parts[0]), after=int(parts[1]))
        if text.startswith("DISCARD"):
            parts = text.split()[1:]
            if len(parts) != 2:
                raise ValueError(f"cannot read {token!r}: write 'DISCARD c1 c2' with two cards")
            cards = tuple(Card.parse(p) for p in parts)
            if cards[0] is cards[1]:
                raise ValueError(f"cannot read {token!r}: the same card twice")
            return cls(ActionKind.DISCARD, cards=tuple(sorted(cards)))
        if text in ("MISERE", "MISÈRE", "MIZER"):
            return cls(ActionKind.BID, bid=MISERE)
        try:
            return cls(ActionKind.BID, bid=Bid.parse(text))
        except ValueError:
            pass
        try:
            return cls(ActionKind.PLAY, cards=(Card.parse(text),))
        except ValueError:
            pass
        raise ValueError(
            f"unknown action {token!r} (expected a bid like 6S or MISERE, PASS, "
            "DISCARD c1 c2, WHIST, HALF, OPEN, CLOSED, ALONE, RESIGN, REFUSE, LOOK s, TRICKS n, "
            "BLIND 6S, SEE, 9S HAND, POOL, HILL, INVITE, ACCEPT, DECLINE, SECOND p t or a card "
            "like QH)"
        )

    @classmethod
    def make_bid(cls, bid: Bid) -> Action:
        """An auction call."""
        return cls(ActionKind.BID, bid=bid)

    @classmethod
    def make_contract(cls, bid: Bid) -> Action:
        """The declarer's final contract."""
        return cls(ActionKind.CONTRACT, bid=bid)

    @classmethod
    def make_discard(cls, first: Card, second: Card) -> Action:
        """Discard two cards (order does not matter)."""
        return cls(ActionKind.DISCARD, cards=tuple(sorted((first, second))))

    @classmethod
    def make_play(cls, card: Card) -> Action:
        """Play one card."""
        return cls(ActionKind.PLAY, cards=(card,))

    # --- reading -------------------------------------------------------------------------
    @property
    def card(self) -> Card:
        """The card of a ``PLAY`` action."""
        if self.kind is not ActionKind.PLAY:
            raise ValueError(f"{self} plays no card")
        return self.cards[0]

    def as_kind(self, kind: ActionKind) -> Action:
        """The same token read as another kind, where it can be (else ``self``).

        ``7S`` is both a bid and a card: a bid token is a ``CONTRACT`` after the
        discard and a card in the play.

        >>> Action.parse("7S").as_kind(ActionKind.PLAY).kind.name
        'PLAY'
        >>> Action.parse("7S").as_kind(ActionKind.CONTRACT).kind.name
        'CONTRACT'
        """
        if kind is self.kind:
            return self
        if kind in (ActionKind.BID, ActionKind.CONTRACT):
            if self.kind in (ActionKind.BID, ActionKind.CONTRACT):
                bid_call = kind is ActionKind.BID
                return Action(kind, bid=self.bid, blind=self.blind and bid_call,
                              hand=self.hand and bid_call)
        elif kind is ActionKind.PLAY and self.kind is ActionKind.BID and not (
            self.blind or self.hand
        ):
            bid = self.bid
            if bid is not None and bid.level >= 7 and bid.trump is not None:
                return PLAY_ACTIONS[Card(bid.trump, bid.level - 7).index]
        return self

    def __str__(self) -> str:
        if self.hand:
            return f"{self.bid} HAND"
        if self.blind:
            return "BLIND " + str(Action(self.kind, bid=self.bid))
        kind = self.kind
        if kind is ActionKind.PLAY:
            return str(self.cards[0])
        if kind is ActionKind.BID or kind is ActionKind.CONTRACT:
            return str(self.bid)
        if kind is ActionKind.DISCARD:
            return "DISCARD " + " ".join(str(c) for c in self.cards)
        if kind is ActionKind.LOOK:
            return f"LOOK {self.seat}"
        if kind is ActionKind.TRICKS:
            return f"TRICKS {self.level}"
        if kind is ActionKind.SECOND:
            return f"SECOND {self.level} {self.after}"
        return kind._name_  # ``.name`` goes through enum's slow descriptor (PASS, WHIST...)

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"


_PARSED: dict[str, Action] = {}
"""Tokens read already (an action is immutable): the server and the players read the same
few hundred tokens over and over."""
_PARSED_KEPT = 4096
"""At most this many tokens are kept (any text may be sent as a token)."""

# Shared instances of the word actions, to keep the hot paths allocation-free.
PASS = Action(ActionKind.PASS)
WHIST = Action(ActionKind.WHIST)
HALF = Action(ActionKind.HALF)
OPEN = Action(ActionKind.OPEN)
CLOSED = Action(ActionKind.CLOSED)
RESIGN = Action(ActionKind.RESIGN)
REFUSE = Action(ActionKind.REFUSE)
ALONE = Action(ActionKind.ALONE)
SEE = Action(ActionKind.SEE)
POOL = Action(ActionKind.POOL)
HILL = Action(ActionKind.HILL)
INVITE = Action(ActionKind.INVITE)
ACCEPT = Action(ActionKind.ACCEPT)
DECLINE = Action(ActionKind.DECLINE)
BLIND_PASS = Action(ActionKind.PASS, blind=True)
PLAY_ACTIONS: tuple[Action, ...] = tuple(
    Action(ActionKind.PLAY, cards=(Card.from_index(i),)) for i in range(32)
)
"""``PLAY_ACTIONS[card.index]`` is the action playing that card."""


class IllegalAction(ValueError):
    """An action the rules do not allow now.

    ``str()`` reads like ``seat 1 (B) cannot play QH in play: must follow ♠``; ``reason``
    is the English reason (``must follow ♠``), ``why`` the
    :class:`~preferans.i18n.reasons.Reason` it renders, ``code`` and ``params`` its message code
    and parameters, for an edge that shows the reason in another language.
    """

    def __init__(
        self, seat: int | None, phase: Any, action: Action | str, reason: Any, name: str = ""
    ) -> None:
        self.seat = seat
        self.phase = phase
        self.action = action
        self.why = reason if isinstance(reason, Reason) else Reason(
            "other", {"detail": str(reason)}
        )
        self.reason = str(self.why)
        self.code = self.why.code
        self.params = self.why.params
        self.name = name
        super().__init__(self._message())

    def _message(self) -> str:
        phase = getattr(self.phase, "label", None) or str(self.phase)
        who = "nobody" if self.seat is None else f"seat {self.seat}"
        if self.name:
            who += f" ({self.name})"
        kind = getattr(self.action, "kind", None)
        verb = "play" if kind is ActionKind.PLAY else "say"
        return f"{who} cannot {verb} {self.action} in {phase}: {self.reason}"
