"""Trick rules: which cards a hand may play and who wins a trick.

Pure functions on 32-bit card masks (see :mod:`preferans.cards`), shared by
the deal state machine and anyone who needs the rules without a whole deal.

- Follow the suit led; if void, trump when holding a trump; else any card.
  There is no duty to win (no overtaking, no overtrumping duty).
- The highest trump wins, else the highest card of the suit led.
- All-pass tricks set by a talon card (three players): everybody must play the
  talon card's suit if able, else any card; the trick goes to the highest card
  of that suit, or, if nobody played it, to the highest card of the suit of
  the first card played.  The talon card itself does not compete.

>>> from preferans.cards import CardSet, Card, Suit
>>> hand = CardSet.parse("AS 7H 8D")
>>> str(CardSet(playable(hand.mask, Suit.CLUBS, Suit.HEARTS)))
'7H'
>>> trick_winner([(0, Card.parse("9C")), (1, Card.parse("7H")), (2, Card.parse("AC"))], Suit.HEARTS)
1
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, Suit


def playable(hand: int, led: Suit | None, trump: Suit | None) -> int:
    """The mask of cards in ``hand`` that may be played to a trick led in ``led``.

    ``led`` is ``None`` when the hand leads (any card).
    """
    if led is None:
        return hand
    follow = hand & led.mask
    if follow:
        return follow
    if trump is not None:
        ruff = hand & trump.mask
        if ruff:
            return ruff
    return hand


def trick_winner(
    cards: list[tuple[int, Card]] | tuple[tuple[int, Card], ...],
    trump: Suit | None,
    led: Suit | None = None,
) -> int:
    """The seat that wins a trick of ``(seat, card)`` in play order.

    ``led`` overrides the suit led (an all-pass talon card's suit); if nobody
    played that suit, the suit of the first card played decides.
    """
    if trump is not None:
        ruffs = [(c.index, s) for s, c in cards if c.suit == trump]
        if ruffs:
            return max(ruffs)[1]
    suit = cards[0][1].suit if led is None else led
    follows = [(c.index, s) for s, c in cards if c.suit == suit]
    if not follows:
        suit = cards[0][1].suit
        follows = [(c.index, s) for s, c in cards if c.suit == suit]
    return max(follows)[1]


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick: who led, the cards in play order, who won.

    ``cards`` holds ``(seat, card)`` pairs.  In a four-player all-pass the
    dealer's talon card leads the first two tricks as the dealer's card.
    ``talon_card`` is the three-player all-pass talon card that set the suit
    of this trick without competing (else ``None``).
    """

    leader: int
    cards: tuple[tuple[int, Card], ...]
    winner: int
    talon_card: Card | None = None

    def to_json(self) -> dict[str, object]:
        """``{"leader", "cards": [[seat, card], ...], "winner"}`` (plus ``"talon"`` if set)."""
        out: dict[str, object] = {
            "leader": self.leader,
            "cards": [[s, str(c)] for s, c in self.cards],
            "winner": self.winner,
        }
        if self.talon_card is not None:
            out["talon"] = str(self.talon_card)
        return out
