"""Cards, suits, ranks and card sets of the 32-card Preferans pack.

The layout is shared with the C solver: a card's *index* is ``suit * 8 + rank``
where suits run spades, clubs, diamonds, hearts (0..3, the bidding order) and
ranks run seven to ace (0..7).  A set of cards is a 32-bit mask with bit
``index`` set for each card, so within one suit a higher bit is a higher card.

>>> from preferans.cards import Card, CardSet
>>> Card.parse("10h")
Card.parse('10H')
>>> hand = CardSet.parse("AS KS 7H")
>>> str(hand)
'AS KS 7H'
>>> Card.parse("KS") in hand
True
>>> len(hand)
3
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import Final


class Suit(IntEnum):
    """The four suits in bidding order, lowest first (spades are 'one')."""

    SPADES = 0
    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3

    @property
    def letter(self) -> str:
        """The record letter: ``S``, ``C``, ``D`` or ``H``."""
        return "SCDH"[self]

    @property
    def symbol(self) -> str:
        """The suit symbol: ♠ ♣ ♦ ♥."""
        return "♠♣♦♥"[self]

    @property
    def mask(self) -> int:
        """The 32-bit mask of the eight cards of this suit."""
        return 0xFF << (8 * self)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit from its letter or symbol (case-insensitive)."""
        key = text.strip().upper()
        try:
            return _SUIT_BY_TEXT[key]
        except KeyError:
            raise ValueError(f"unknown suit {text!r} (use S, C, D, H or ♠ ♣ ♦ ♥)") from None

    def __str__(self) -> str:
        return self.letter


_SUIT_BY_TEXT: Final = {
    **{s.letter: s for s in Suit},
    **{s.symbol: s for s in Suit},
    "♤": Suit.SPADES,
    "♧": Suit.CLUBS,
    "♢": Suit.DIAMONDS,
    "♡": Suit.HEARTS,
}


class Rank(IntEnum):
    """The eight ranks, seven lowest, ace highest (tens rank below jacks)."""

    SEVEN = 0
    EIGHT = 1
    NINE = 2
    TEN = 3
    JACK = 4
    QUEEN = 5
    KING = 6
    ACE = 7

    @property
    def label(self) -> str:
        """The record label: ``7 8 9 10 J Q K A``."""
        return _RANK_LABELS[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read a rank: ``7``..``10``, ``T`` for ten, ``J Q K A`` (case-insensitive)."""
        key = text.strip().upper()
        try:
            return _RANK_BY_TEXT[key]
        except KeyError:
            raise ValueError(f"unknown rank {text!r} (use 7 8 9 10 J Q K A)") from None

    def __str__(self) -> str:
        return self.label


_RANK_LABELS: Final = ("7", "8", "9", "10", "J", "Q", "K", "A")
_RANK_BY_TEXT: Final = {**{label: Rank(i) for i, label in enumerate(_RANK_LABELS)}, "T": Rank.TEN}


class Card:
    """One card of the pack.  There are exactly 32 instances, one per card.

    ``Card(suit, rank)`` and ``Card.parse("QH")`` return the shared instance,
    so cards compare by identity and by value alike and sort by index
    (suit first, then rank).
    """

    __slots__ = ("_index",)
    _index: int

    def __new__(cls, suit: Suit | int, rank: Rank | int) -> Card:
        suit, rank = int(suit), int(rank)
        if not (0 <= suit < 4 and 0 <= rank < 8):
            raise ValueError(f"no such card: suit {suit}, rank {rank}")
        return DECK[suit * 8 + rank]

    @classmethod
    def _make(cls, index: int) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "_index", index)
        return card

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with this index (``suit * 8 + rank``)."""
        if not 0 <= index < 32:
            raise ValueError(f"card index {index} out of range 0..31")
        return DECK[index]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card written rank then suit: ``7S``, ``10H``, ``TH``, ``A♥``.

        >>> Card.parse("q♦")
        Card.parse('QD')
        """
        if not isinstance(text, str):
            raise ValueError(f"a card is written as text like '10H', not {text!r}")
        token = text.strip()
        if len(token) < 2:
            raise ValueError(f"cannot read card {text!r}: write rank then suit, like '10H'")
        try:
            return Card(Suit.parse(token[-1]), Rank.parse(token[:-1]))
        except ValueError as exc:
            raise ValueError(f"cannot read card {text!r}: {exc}") from None

    @property
    def index(self) -> int:
        """``suit * 8 + rank``: the bit of this card in a :class:`CardSet` mask."""
        return self._index

    @property
    def suit(self) -> Suit:
        return _SUITS[self._index >> 3]

    @property
    def rank(self) -> Rank:
        return _RANKS[self._index & 7]

    @property
    def mask(self) -> int:
        return 1 << self._index

    @property
    def symbol(self) -> str:
        """Rank and suit symbol, e.g. ``10♥``, for people."""
        return f"{self.rank.label}{self.suit.symbol}"

    def __str__(self) -> str:
        return _CARD_TEXT[self._index]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __lt__(self, other: Card) -> bool:
        return self._index < other._index

    def __hash__(self) -> int:
        return self._index

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (self._index,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self


_SUITS: Final[tuple[Suit, ...]] = tuple(Suit)
_RANKS: Final[tuple[Rank, ...]] = tuple(Rank)
_CARD_TEXT: Final[tuple[str, ...]] = tuple(
    f"{_RANK_LABELS[i & 7]}{'SCDH'[i >> 3]}" for i in range(32))
"""Each card's record token by index (``str(card)`` is a look-up: records and observations
write cards on every move)."""
DECK: Final[tuple[Card, ...]] = tuple(Card._make(i) for i in range(32))
FULL_MASK: Final = 0xFFFFFFFF
_DISPLAY: Final[tuple[tuple[tuple[Card, ...], ...], ...]] = tuple(
    tuple(tuple(DECK[8 * suit + rank] for rank in range(7, -1, -1) if byte >> rank & 1)
          for byte in range(256))
    for suit in range(4))
"""For each suit and each byte of a mask (that suit's eight cards), the cards high to low."""


class CardSet:
    """An immutable set of cards backed by a 32-bit mask.

    Iteration yields cards in index order (spades to hearts, seven to ace).
    ``str()`` writes them high to low within each suit, spades first, which is
    how players sort a hand.

    >>> CardSet.parse("7H AS 10H") | CardSet.parse("KS")
    CardSet.parse('AS KS 10H 7H')
    """

    __slots__ = ("_mask",)
    _mask: int

    def __init__(self, cards: Iterable[Card] | int = 0) -> None:
        if isinstance(cards, int):
            if not 0 <= cards <= FULL_MASK:
                raise ValueError(f"card mask {cards:#x} is not a 32-bit mask")
            mask = cards
        else:
            mask = 0
            for card in cards:
                if not isinstance(card, Card):
                    raise TypeError(f"not a card: {card!r}")
                mask |= card.mask
        object.__setattr__(self, "_mask", mask)

    @classmethod
    def parse(cls, text: str | Iterable[str], *, allow_duplicates: bool = False) -> CardSet:
        """Read cards separated by spaces or commas, or a list of card tokens.

        A card named twice is an error unless ``allow_duplicates``.
        """
        tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
        mask = 0
        for token in tokens:
            card = Card.parse(token)
            if mask & card.mask and not allow_duplicates:
                raise ValueError(f"card {card} is named twice")
            mask |= card.mask
        return cls(mask)

    @classmethod
    def full(cls) -> CardSet:
        """All 32 cards."""
        return cls(FULL_MASK)

    @property
    def mask(self) -> int:
        return self._mask

    def of_suit(self, suit: Suit) -> CardSet:
        """The cards of one suit."""
        return CardSet(self._mask & suit.mask)

    def has_suit(self, suit: Suit) -> bool:
        return bool(self._mask & suit.mask)

    def suits(self) -> list[Suit]:
        """The suits present, in bidding order."""
        mask = self._mask
        return [s for s in _SUITS if mask >> (8 * s) & 0xFF]

    def sorted_for_display(self) -> list[Card]:
        """Spades, clubs, diamonds, hearts; high to low within a suit."""
        mask = self._mask
        return [*_DISPLAY[0][mask & 0xFF], *_DISPLAY[1][mask >> 8 & 0xFF],
                *_DISPLAY[2][mask >> 16 & 0xFF], *_DISPLAY[3][mask >> 24 & 0xFF]]

    def to_list(self) -> list[str]:
        """Card tokens in display order, as records write them."""
        return [_CARD_TEXT[c._index] for c in self.sorted_for_display()]

    def __iter__(self) -> Iterator[Card]:
        mask = self._mask
        while mask:
            low = mask & -mask
            yield DECK[low.bit_length() - 1]
            mask ^= low

    def __len__(self) -> int:
        return self._mask.bit_count()

    def __bool__(self) -> bool:
        return self._mask != 0

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and bool(self._mask & card.mask)

    def __or__(self, other: CardSet | Card) -> CardSet:
        return CardSet(self._mask | other.mask)

    def __and__(self, other: CardSet | Card) -> CardSet:
        return CardSet(self._mask & other.mask)

    def __sub__(self, other: CardSet | Card) -> CardSet:
        return CardSet(self._mask & ~other.mask)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other._mask == self._mask

    def __hash__(self) -> int:
        return hash(("CardSet", self._mask))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("card sets are immutable")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (CardSet, (self._mask,))

    def __str__(self) -> str:
        return " ".join(self.to_list())

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"


def mask_indices(mask: int) -> list[int]:
    """The card indices of the bits set in ``mask``, lowest first.

    >>> mask_indices(0b1010_0000_0001)
    [0, 9, 11]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def parse_cards(tokens: Iterable[str]) -> list[Card]:
    """Read a list of card tokens keeping their order (duplicates are kept)."""
    return [Card.parse(t) for t in tokens]
