"""Why the rules refuse an action, as data: a message code and its parameters.

The engine says *why* an action is refused with a :class:`Reason` (``code`` plus
``params``: cards, suits, bids, actions, seats), never with a sentence in some language.
The edge that shows it renders it in the reader's language
(:func:`preferans.i18n.render_reason`); ``str(reason)`` is the English rendering, the
text the records, the CLI and the tests have always read.

>>> from preferans.cards import Suit
>>> reason = Reason("must_follow", {"suit": Suit.SPADES})
>>> str(reason)
'must follow ♠'
>>> reason.code, reason.params["suit"].symbol
('must_follow', '♠')

:data:`ENGLISH` holds every code's English template (``str.format`` fields named after the
parameters); the gettext catalogues under ``locale/`` hold the same codes in every
language (``msgctxt "reason"``, ``msgid`` the code).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..cards import Card, Suit

if TYPE_CHECKING:  # a type only: the actions module imports this one (IllegalAction)
    from ..actions import Action

__all__ = ["ENGLISH", "Alternatives", "Hand", "Reason", "english_value", "params_json"]


@dataclass(frozen=True)
class Hand:
    """The hand a card is played from when a player plays another seat's hand
    (the lone whister playing the passer's, the whister playing the dummy's)."""

    seat: int
    name: str = ""
    dummy: bool = False

    def __str__(self) -> str:
        return self.name or ("Dummy" if self.dummy else f"seat {self.seat}")


@dataclass(frozen=True)
class Alternatives:
    """Actions offered as a choice between them, said ``LOOK 1 or LOOK 2``."""

    actions: tuple[Action, ...]

    def __str__(self) -> str:
        return " or ".join(str(a) for a in self.actions)


@dataclass(frozen=True)
class Reason:
    """A refusal: ``code`` (a key of :data:`ENGLISH`) and the ``params`` its text names.

    Parameter values are engine values: :class:`~preferans.cards.Card`,
    :class:`~preferans.cards.Suit`, :class:`~preferans.bids.Bid`,
    :class:`~preferans.actions.Action`, tuples of cards or of actions,
    :class:`Alternatives`, :class:`Hand`, ints and (for ``unreadable``) strings.
    """

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.code not in ENGLISH:
            raise ValueError(f"unknown reason code {self.code!r}")

    def __str__(self) -> str:
        return ENGLISH[self.code].format_map(
            {k: english_value(v) for k, v in self.params.items()}
        )


def english_value(value: Any) -> str:
    """A parameter as the English text writes it: tokens (``QH``, ``6NT``, ``WHIST``),
    suit signs, cards separated by spaces, actions by commas."""
    if isinstance(value, Suit):
        return value.symbol
    if isinstance(value, tuple):
        if value and all(isinstance(v, Card) for v in value):
            return " ".join(str(v) for v in value)
        return ", ".join(str(v) for v in value)
    return str(value)  # Card, Bid, Action, Hand, Alternatives: their tokens


def params_json(params: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters as JSON for a client that renders the reason itself: cards, bids and
    actions as their record tokens (``QH``, ``6NT``, ``WHIST``), a suit as its letter, a
    tuple or :class:`Alternatives` as a list of tokens, a :class:`Hand` as
    ``{"seat", "name", "dummy"}``.

    >>> from preferans.cards import Card
    >>> params_json({"card": Card.parse("QH"), "suit": Suit.SPADES, "level": 7})
    {'card': 'QH', 'suit': 'S', 'level': 7}
    """
    return {k: _json_value(v) for k, v in params.items()}


def _json_value(value: Any) -> Any:
    if isinstance(value, Suit):  # an IntEnum: before the plain ints
        return value.letter
    if isinstance(value, bool | int | str) or value is None:
        return value
    if isinstance(value, Hand):
        return {"seat": value.seat, "name": value.name, "dummy": value.dummy}
    if isinstance(value, Alternatives):
        return [str(a) for a in value.actions]
    if isinstance(value, tuple | list):
        return [_json_value(v) for v in value]
    return str(value)


ENGLISH: dict[str, str] = {
    # --- reading the token -----------------------------------------------------------------
    "unreadable": "{detail}",
    "other": "{detail}",
    # --- turn and phase --------------------------------------------------------------------
    "deal_over": "the deal is over",
    "not_your_turn": "it is seat {seat}'s turn",
    "illegal": "illegal",
    # --- the auction -----------------------------------------------------------------------
    "auction_over": "the auction is over",
    "not_your_call": "it is seat {seat}'s turn to call",
    "compulsory_allpass": "this deal is a compulsory all-pass: everyone passes",
    "hand_bids_off": "hand bids are not allowed by these rules",
    "hand_bid_over_misere_only": "a hand bid only answers a misère",
    "hand_fight_calls": "over {high} the calls are {shown}",
    "bid_or_pass": "only a bid or PASS is allowed in the auction",
    "misere_first_call": "misère may only be a player's first call",
    "misere_below_bid": "misère is below the current bid {high}",
    "misere_called": "misère has already been called",
    "misere_caller_passes": "a player who called misère can only pass",
    "lowest_bid": "the lowest bid now is {level}♠",
    "first_bid": "the first bid must be {bid} (no jumps)",
    "over_misere_from": "over misère the bidding goes on from {bid}",
    "elder_holds": "only an elder hand may hold {high}; you must go higher",
    "below_bid": "{bid} is below the current bid {high}",
    "next_step_only": "without jump bids the only bid is the next step above {high}",
    # --- blind bidding (Classical) ---------------------------------------------------------
    "blind_off": "blind calls are not allowed by these rules",
    "already_seen": "you have already looked at your cards",
    "look_or_blind": "look at your cards first (SEE), or call blind",
    "seen_no_blind": "you have looked at your cards: no blind calls",
    "blind_pass_first": "a blind pass is only possible before any bid",
    "no_blind_after_seeing": "no blind bids after a seeing bid",
    "blind_pass_lowest": "after a blind pass the lowest bid is {level}♠",
    "blind_pass_lowest_blind": "after a blind pass the lowest bid is blind {level}♠",
    "seeing_over_blind": (
        "a seeing bid over the blind {high} needs more tricks in an equal or higher suit"
    ),
    "not_allowed_now": "not allowed now",
    # --- Rogue, Racing, Classical ----------------------------------------------------------
    "rogue_name": "the soloist names a game left on his rogue list ({shown})",
    "pool_or_hill": "the points go to the pool or off the mountain: say POOL or HILL",
    "halftime_first": (
        "the first half is over: the leader (seat {leader}, the largest hill) first sets the "
        "second half, SECOND p t: pool p, final lap after t deals ({shown})"
    ),
    "halftime_pool_too_big": (
        "the pool cannot be larger than the smallest hill at the end of the first half "
        "({smallest}); choose {shown}"
    ),
    "halftime_choose": "choose the second half among {shown}",
    "invite_answer": (
        "the soloist invited the dealer to share his game half and half: the dealer says "
        "DECLINE or ACCEPT"
    ),
    "invite_or_alone": (
        "the soloist of a misère or a ten plays ALONE or may INVITE the dealer to share his "
        "profit or losses equally"
    ),
    # --- talon, discard, contract ----------------------------------------------------------
    "resign_off": "resignation is not allowed by these rules",
    "misere_no_resign": "a misère cannot be resigned",
    "refuse_off": "refusing the talon is not allowed by these rules",
    "exchange_discard": "before the all-pass each player discards two cards (DISCARD c1 c2)",
    "exchange_not_held": "the player does not hold {cards}",
    "discard_first": "the declarer must discard two cards first (DISCARD c1 c2)",
    "declarer_not_held": "the declarer does not hold {cards}",
    "name_contract": "the declarer must name the contract ({bid} or higher)",
    "contract_misere": "after a misère auction the contract is MISERE",
    "misere_after_ordinary": "misère cannot be declared after an ordinary auction",
    "rogue_trump": "the rogue game named is {level} tricks: name its trump",
    "contract_below_bid": "the contract cannot be below the winning bid {bid}",
    # --- the defence -----------------------------------------------------------------------
    "dealer_look_first": "the dealer first looks at one defender's hand ({looks})",
    "dealer_whist_or_pass": "the dealer says WHIST or PASS",
    "half_whist_not_here": "half-whist is not allowed here (choose {shown})",
    "defender_says": "a defender says {shown}",
    "lone_whister_chooses": "the lone whister chooses {shown}",
    # --- the play --------------------------------------------------------------------------
    "card_expected": "a card must be played",
    "card_not_held": "{card} is not in your hand",
    "card_not_held_in": "{card} is not in {hand}'s hand",
    "talon_suit": "must play {suit}, the talon card's suit",
    "talon_suit_in": "must play {suit}, the talon card's suit in {hand}'s hand",
    "must_follow": "must follow {suit}",
    "must_follow_in": "must follow {suit} in {hand}'s hand",
    "must_trump": "must trump with {trump} (void in {led})",
    "must_trump_in": "must trump with {trump} in {hand}'s hand (void in {led})",
}
"""Every reason code and its English text, with ``{param}`` fields."""
