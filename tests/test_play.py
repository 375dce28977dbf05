"""Trick rules: follow suit, trump, winners, and all-pass talon-led tricks."""

import doctest

import preferans.actions
import preferans.auction
import preferans.deal
import preferans.tricks
from preferans.cards import Card, CardSet, Suit
from preferans.tricks import playable, trick_winner


def cards(text: str) -> list[tuple[int, Card]]:
    return [(seat, Card.parse(tok)) for seat, tok in enumerate(text.split())]


def show(mask: int) -> str:
    return str(CardSet(mask))


def test_follow_suit_else_trump_else_anything():
    hand = CardSet.parse("AS 9S 7H 8D").mask
    assert show(playable(hand, Suit.SPADES, Suit.HEARTS)) == "AS 9S"
    assert show(playable(hand, Suit.CLUBS, Suit.HEARTS)) == "7H"
    assert show(playable(hand, Suit.CLUBS, None)) == "AS 9S 8D 7H"
    assert show(playable(hand, None, Suit.HEARTS)) == "AS 9S 8D 7H"


def test_highest_trump_else_highest_of_the_suit_led():
    assert trick_winner(cards("9C AC 7C"), None) == 1
    assert trick_winner(cards("9C 7H AC"), Suit.HEARTS) == 1
    assert trick_winner(cards("9C 7H 8H"), Suit.HEARTS) == 2
    assert trick_winner(cards("9C AS KD"), Suit.HEARTS) == 0  # discards never win


def test_allpass_talon_suit_decides_else_the_first_card():
    # talon card sets diamonds: the highest diamond wins, wherever it was played
    assert trick_winner(cards("AC 9D 8D"), None, Suit.DIAMONDS) == 1
    # nobody had diamonds: the suit of the first card played decides
    assert trick_winner(cards("9C AS KC"), None, Suit.DIAMONDS) == 2


def test_module_doctests():
    for module in (preferans.tricks, preferans.actions, preferans.auction, preferans.deal):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__
