"""Refusals as message codes: the engine's reasons are a code and parameters, and their
English rendering is the text the records, the CLI and the tests have always read."""

from __future__ import annotations

import json

import pytest

from preferans.actions import Action, IllegalAction
from preferans.auction import Auction
from preferans.cards import Card, CardSet, Suit
from preferans.deal import Deal, Phase
from preferans.i18n.reasons import ENGLISH, Alternatives, Hand, Reason, params_json
from preferans.rules import Rules


def _guide_deal() -> Deal:
    from preferans.guide import worked_deal_record

    data = worked_deal_record()["deals"][0]
    return Deal(
        Rules.preset("guide"),
        data["dealer"],
        [CardSet.parse(h) for h in data["hands"]],
        [Card.parse(c) for c in data["talon"]],
    )


def _to_first_trick(deal: Deal) -> None:
    from preferans.guide import worked_deal_record

    actions = worked_deal_record()["deals"][0]["actions"]
    for token in actions[:14]:  # the auction, discard, contract, defence and one card
        deal.apply(token)


def test_a_card_refused_carries_its_code_and_the_old_english_text():
    deal = _guide_deal()
    _to_first_trick(deal)
    assert deal.phase is Phase.PLAY
    seat = deal.to_act
    hand = deal.hands[seat]
    legal = {str(a) for a in deal.legal_actions()}
    wrong = next(c for c in hand if str(c) not in legal)
    with pytest.raises(IllegalAction) as info:
        deal.apply(str(wrong))
    err = info.value
    assert err.code in ("must_follow", "must_trump")
    assert err.reason == str(err.why) == ENGLISH[err.code].format(
        **{k: (v.symbol if isinstance(v, Suit) else str(v)) for k, v in err.params.items()}
    )
    assert err.reason.startswith("must ")
    assert str(err).endswith(f"in play: {err.reason}")
    assert deal.refusal(str(wrong)) == err.why
    assert deal.why_illegal(str(wrong)) == err.reason


def test_auction_refusals_are_codes_with_engine_values():
    a = Auction(Rules.preset("guide"), seats=(0, 1, 2))
    a.call(0, "6S")
    why = a.refusal(1, Action.parse("6S"))
    assert why is not None and why.code == "elder_holds" and str(why.params["high"]) == "6S"
    assert str(why) == "only an elder hand may hold 6S; you must go higher"
    turn = a.refusal(2, Action.parse("6C"))
    assert turn == Reason("not_your_call", {"seat": 1})
    assert a.why_illegal(2, Action.parse("6C")) == "it is seat 1's turn to call"


def test_unreadable_tokens_keep_the_parsers_message():
    deal = _guide_deal()
    why = deal.refusal("XYZ")
    assert why is not None and why.code == "unreadable" and why.params["token"] == "XYZ"
    with pytest.raises(IllegalAction) as info:
        deal.apply("XYZ")
    assert info.value.code == "unreadable" and info.value.reason == str(why)


def test_out_of_turn_has_its_code():
    deal = _guide_deal()
    with pytest.raises(IllegalAction) as info:
        deal.apply("6S", seat=2)
    assert info.value.code == "not_your_turn" and info.value.params == {"seat": 0}
    assert info.value.reason == "it is seat 0's turn"


def test_a_plain_string_reason_is_kept_as_other():
    err = IllegalAction(1, "play", "QH", "because", "B")
    assert err.code == "other" and err.reason == "because"
    assert str(err) == "seat 1 (B) cannot say QH in play: because"


def test_unknown_codes_are_refused():
    with pytest.raises(ValueError, match="unknown reason code"):
        Reason("no_such_code")


def test_params_travel_as_json_tokens():
    params = {
        "card": Card.parse("10H"),
        "suit": Suit.DIAMONDS,
        "shown": (Action.parse("WHIST"), Action.parse("PASS")),
        "cards": (Card.parse("7C"), Card.parse("8D")),
        "looks": Alternatives((Action.parse("LOOK 1"), Action.parse("LOOK 2"))),
        "hand": Hand(2, "Lena"),
        "level": 7,
    }
    out = params_json(params)
    assert json.loads(json.dumps(out)) == {
        "card": "10H", "suit": "D", "shown": ["WHIST", "PASS"], "cards": ["7C", "8D"],
        "looks": ["LOOK 1", "LOOK 2"], "hand": {"seat": 2, "name": "Lena", "dummy": False},
        "level": 7,
    }
    assert str(Reason("dealer_look_first", {"looks": params["looks"]})) == (
        "the dealer first looks at one defender's hand (LOOK 1 or LOOK 2)"
    )
    assert str(Reason("declarer_not_held", {"cards": params["cards"]})) == (
        "the declarer does not hold 7C 8D"
    )
    assert str(Reason("card_not_held_in", {"card": params["card"], "hand": Hand(3, dummy=True)})) \
        == "10H is not in Dummy's hand"
