"""Cards, card sets and bids: parsing, formatting, the 32-bit layout."""

import itertools

import pytest

from preferans.bids import MISERE, Bid
from preferans.cards import DECK, Card, CardSet, Rank, Suit


def test_deck_has_32_distinct_cards_with_shared_layout():
    assert len(DECK) == 32
    assert len({c.index for c in DECK}) == 32
    assert Card.parse("7S").index == 0
    assert Card.parse("AS").index == 7
    assert Card.parse("7C").index == 8
    assert Card.parse("AH").index == 31
    assert CardSet(DECK).mask == 0xFFFFFFFF


@pytest.mark.parametrize(
    "text,canonical", [("10h", "10H"), ("TH", "10H"), ("a♥", "AH"), ("q♦", "QD"), ("7s", "7S")]
)
def test_parse_is_case_insensitive_and_accepts_symbols(text, canonical):
    assert str(Card.parse(text)) == canonical


@pytest.mark.parametrize("bad", ["", "1H", "11S", "AX", "H", "10"])
def test_bad_cards_are_clear_errors(bad):
    with pytest.raises(ValueError, match="card"):
        Card.parse(bad)


def test_cardset_operations_and_display_order():
    hand = CardSet.parse("7H AS 10H KS 8D")
    assert str(hand) == "AS KS 8D 10H 7H"
    assert len(hand) == 5
    assert Card(Suit.SPADES, Rank.KING) in hand
    assert hand.of_suit(Suit.HEARTS) == CardSet.parse("10H 7H")
    assert (hand - CardSet.parse("AS")).to_list() == ["KS", "8D", "10H", "7H"]
    assert hand.suits() == [Suit.SPADES, Suit.DIAMONDS, Suit.HEARTS]
    with pytest.raises(ValueError, match="named twice"):
        CardSet.parse("AS AS")


def test_bid_ladder_order_and_tokens():
    ladder = Bid.ladder()
    assert len(ladder) == 25
    assert [str(b) for b in ladder[:6]] == ["6S", "6C", "6D", "6H", "6NT", "7S"]
    assert str(ladder[-1]) == "10NT"
    assert all(a < b for a, b in itertools.pairwise(ladder))
    assert Bid.parse("misère") is MISERE
    assert Bid.parse("8NT").ladder_key() < MISERE.ladder_key() < Bid.parse("9S").ladder_key()
    assert Bid.parse("9NT").ladder_key(10) < MISERE.ladder_key(10) < Bid.parse("10S").ladder_key(10)
    with pytest.raises(ValueError):
        Bid.parse("5S")
