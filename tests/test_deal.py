"""One deal as a state machine: phases, turns, legality, exposure, observations, outcomes."""

import json
import random

import pytest

from preferans.actions import Action, ActionKind, IllegalAction
from preferans.cards import Card, CardSet
from preferans.deal import Deal, Phase
from preferans.game import Game
from preferans.rules import Rules

# Seat 0 (A) is first hand with dealer 2.
HANDS = [
    "AS KS QS JS AC KC AD 9H 8H 7H",
    "10S 9S 8S 7S QC JC KD QD JH 10H",
    "10C 9C 8C 7C JD 10D 9D 8D KH QH",
]
TALON = ["AH", "7D"]


def make(rules: Rules | None = None, dealer: int = 2, streak: int = 0) -> Deal:
    return Deal(
        rules or Rules.preset("sochi"),
        dealer,
        [CardSet.parse(h) for h in HANDS],
        [Card.parse(c) for c in TALON],
        allpass_streak=streak,
    )


def run(deal: Deal, tokens: str) -> Deal:
    for token in tokens.split(","):
        deal.apply(token.strip())
    return deal


def legal(deal: Deal) -> list[str]:
    return [str(a) for a in deal.legal_actions()]


def to_contract(contract: str = "7H", rules: Rules | None = None) -> Deal:
    return run(make(rules), f"6S, PASS, PASS, DISCARD 7H 7D, {contract}")


def test_auction_talon_discard_contract_flow():
    d = make()
    assert d.phase is Phase.AUCTION and d.to_act == 0 and d.first_hand == 0
    run(d, "6S, PASS, PASS")
    assert d.phase is Phase.DISCARD and d.declarer == 0 and str(d.bid) == "6S"
    assert len(d.hand(0)) == 12 and d.talon_shown
    assert len(d.legal_actions()) == 66
    with pytest.raises(IllegalAction, match="does not hold 10C"):
        d.apply("DISCARD 10C 7H")
    run(d, "DISCARD 7H 7D")
    assert d.phase is Phase.CONTRACT and len(d.hand(0)) == 10
    assert str(d.discard) == "7D 7H"
    assert legal(d)[0] == "6S" and legal(d)[-1] == "10NT" and "MISERE" not in legal(d)
    d.apply("7H")
    assert d.phase is Phase.DEFENCE and d.to_act == 1 and str(d.contract) == "7H"
    assert d.contract is not None and d.trump is not None and d.trump.letter == "H"


def test_contract_below_bid_and_misere_switch_are_illegal():
    d = run(make(), "7S, PASS, PASS, DISCARD 7H 7D")
    with pytest.raises(IllegalAction, match="below the winning bid 7S"):
        d.apply("6NT")
    with pytest.raises(IllegalAction, match="misère cannot be declared"):
        d.apply("MISERE")
    m = run(make(), "MISERE, PASS, PASS, DISCARD 7H 7D")
    assert legal(m) == ["MISERE"]
    with pytest.raises(IllegalAction, match="contract is MISERE"):
        m.apply("9S")


def test_illegal_card_message_names_seat_phase_and_reason():
    d = run(to_contract("7H"), "WHIST, WHIST, AS")
    with pytest.raises(IllegalAction) as info:
        d.apply("QC")
    err = info.value
    assert str(err) == "seat 1 (B) cannot play QC in play: must follow ♠"
    assert err.seat == 1 and err.phase is Phase.PLAY and err.reason == "must follow ♠"
    d.apply("7S")
    with pytest.raises(IllegalAction, match=r"must trump with ♥ \(void in ♠\)"):
        d.apply("10C")
    with pytest.raises(IllegalAction, match="AH is not in your hand"):
        d.apply("AH")
    d.apply("QH")
    assert d.tricks[0].winner == 2 and d.to_act == 2  # the trump wins; winner leads


def test_call_out_of_turn_and_unknown_tokens():
    d = make()
    with pytest.raises(IllegalAction, match="it is seat 0's turn"):
        d.apply("6S", seat=1)
    with pytest.raises(IllegalAction, match="unknown action 'HELLO'"):
        d.apply("HELLO")
    with pytest.raises(IllegalAction, match="only a bid or PASS"):
        d.apply("WHIST")
    assert d.history == []


def test_first_hand_always_leads_and_tokens_read_by_phase():
    d = run(make(), "PASS, 6S, PASS, DISCARD 7S 7D, 6S, WHIST, PASS, CLOSED")
    assert d.declarer == 1 and d.phase is Phase.PLAY
    assert d.to_act == 0 and d.hand_to_play == 0  # A, first hand, leads though B declared
    assert len(legal(d)) == 10
    b = run(make(), "7S, PASS, PASS, DISCARD AC KC, 7S, WHIST, WHIST, 7H")
    assert b.history[-1][1].kind is ActionKind.PLAY  # "7H" is the seven of hearts here


def test_two_passes_end_the_deal_as_passed():
    d = run(to_contract(), "PASS, PASS")
    assert d.done and d.to_act is None and d.legal_actions() == []
    o = d.outcome()
    assert o.kind == "passed" and o.declarer == 0 and str(o.contract) == "7H"
    assert o.defence == ("PASS", "PASS") and o.tricks == (0, 0, 0)


def test_half_whist_reopened_and_standing():
    d = run(to_contract(), "PASS")
    assert legal(d) == ["WHIST", "PASS", "HALF"]
    d.apply("HALF")
    assert d.phase is Phase.DEFENCE and d.to_act == 1 and legal(d) == ["WHIST", "PASS"]
    stood = d.copy()
    stood.apply("PASS")
    o = stood.outcome()
    assert o.kind == "halfwhist" and o.half_whister == 2 and o.defence == ("PASS", "HALF", "PASS")
    d.apply("WHIST")  # the reopening whist: seat 1 defends alone
    assert d.phase is Phase.DEFENCE_MODE and d.to_act == 1 and legal(d) == ["OPEN", "CLOSED"]
    d.apply("OPEN")
    assert d.whisters == (1,) and d.half_whister == 2 and d.open_defence is True


def test_half_whist_without_reopen_and_not_at_eight():
    d = run(to_contract(rules=Rules.preset("sochi", half_whist_reopen=False)), "PASS, HALF")
    assert d.done and d.outcome().kind == "halfwhist"
    e = run(to_contract("8H"), "PASS")
    assert legal(e) == ["WHIST", "PASS"]
    with pytest.raises(IllegalAction, match="half-whist is not allowed"):
        e.apply("HALF")


def test_stalingrad_forces_both_whists_on_six_spades():
    d = to_contract("6S", Rules.preset("sochi", stalingrad=True))
    assert legal(d) == ["WHIST"]
    run(d, "WHIST")
    assert legal(d) == ["WHIST"]
    d.apply("WHIST")
    assert d.phase is Phase.PLAY and d.whisters == (1, 2) and d.forced


def test_whist_pass_half_whist_option():
    plain = run(to_contract("6H"), "WHIST, PASS")
    assert legal(plain) == ["OPEN", "CLOSED"]
    rules = Rules.preset("sochi", whist_pass_half_whist=True)
    d = run(to_contract("6H", rules), "WHIST, PASS")
    assert legal(d) == ["OPEN", "CLOSED", "HALF"]
    d.apply("HALF")
    o = d.outcome()
    assert o.kind == "halfwhist" and o.half_whister == 1 and o.defence == ("WHIST", "PASS", "HALF")


def test_open_defence_whister_plays_the_passers_hand_seen_by_all():
    d = run(to_contract(), "PASS, WHIST")
    assert d.to_act == 2 and d.phase is Phase.DEFENCE_MODE
    d.apply("OPEN")
    # both defending hands go down before the opening lead: the passer's and the whister's
    assert d.exposed == (1, 2)
    for seat in range(3):
        assert d.observation(seat)["exposed"] == {
            "1": d.hand(1).to_list(), "2": d.hand(2).to_list()}
    d.apply("AS")
    assert d.hand_to_play == 1 and d.to_act == 2  # the whister plays the passer's hand
    obs = d.observation(2)
    assert set(obs["legal"]) == {"10S", "9S", "8S", "7S"}
    assert d.observation(1)["legal"] == []
    with pytest.raises(IllegalAction, match="it is seat 2's turn"):
        d.apply("7S", seat=1)
    with pytest.raises(IllegalAction, match="must follow ♠ in B's hand"):
        d.apply("QC")
    d.apply("7S", seat=2)
    assert d.history[-1] == (2, Action.parse("7S").as_kind(ActionKind.PLAY))


def test_open_after_declarers_opening_card_when_the_rules_say_so():
    rules = Rules.preset("sochi", open_before_lead=False)
    d = run(to_contract(rules=rules), "PASS, WHIST, OPEN")
    assert d.exposed == ()  # declarer A is first hand: after his opening card
    d.apply("AS")
    assert d.exposed == (1, 2)
    # not first hand: down at once
    e = run(make(rules), "PASS, 6S, PASS, DISCARD 7S 7D, 6S, WHIST, PASS, OPEN")
    assert e.exposed == (0, 2)


def test_closed_defence_exposes_nothing():
    d = run(to_contract(), "PASS, WHIST, CLOSED, AS, 7S")
    assert d.exposed == () and d.open_defence is False
    assert d.observation(0)["exposed"] == {}


def test_misere_hands_go_down_after_declarers_first_card():
    d = run(make(), "MISERE, PASS, PASS, DISCARD AS AC")
    assert d.phase is Phase.CONTRACT
    d.apply("MISERE")
    assert d.phase is Phase.PLAY and d.kind == "misere" and d.defence == []
    assert d.exposed == () and d.to_act == 0
    d.apply("7H")
    assert d.exposed == (1, 2)
    assert d.to_act == 1 and d.hand_to_play == 1  # each defender plays his own hand
    d2 = run(make(Rules.preset("sochi", misere_exposure="before_lead")), "MISERE, PASS, PASS")
    run(d2, "DISCARD AS AC, MISERE")
    assert d2.exposed == (1, 2)


def test_misere_by_a_defender_on_lead_exposes_after_the_lead_in_sochi():
    # 003 (Sochi): "After the first card both defenders lay their cards face up", whoever
    # leads; 000 and 001 put them down before a defender's lead (sochi-000, the guide)
    d = run(make(), "PASS, MISERE, PASS, DISCARD 10S 9S, MISERE")
    assert d.exposed == () and d.to_act == 0
    d.apply("7H")
    assert d.exposed == (0, 2)
    e = run(make(Rules.preset("sochi-000")), "PASS, MISERE, PASS, DISCARD 10S 9S, MISERE")
    assert e.exposed == (0, 2) and e.to_act == 0


def test_checked_ten_has_no_defence_and_all_hands_open():
    d = to_contract("10NT", Rules.preset("sochi", tens_whisted=False))
    assert d.phase is Phase.PLAY and d.exposed == (0, 1, 2) and d.defence == []


def test_allpass_three_players_talon_sets_the_suits_of_tricks_one_and_two():
    d = run(make(), "PASS, PASS, PASS")
    assert d.phase is Phase.PLAY and d.kind == "allpass" and d.trump is None
    assert d.talon_lead is not None and d.talon_lead.letter == "H"
    obs = d.observation(1)
    assert obs["talon"] == ["AH"] and obs["talon_lead"] == "H"
    assert legal(d) == ["7H", "8H", "9H"]  # first hand must play the talon suit
    run(d, "9H")
    assert set(legal(d)) == {"10H", "JH"}
    run(d, "10H, QH")
    t = d.tricks[0]
    assert t.winner == 2 and t.talon_card == Card.parse("AH") and len(t.cards) == 3
    # trick 2: talon 7D; first hand plays first again though C won trick 1
    assert d.hand_to_play == 0 and d.talon_lead is not None and d.talon_lead.letter == "D"
    assert d.observation(2)["talon"] == ["AH", "7D"]
    run(d, "AD, QD, 8D")
    assert d.tricks[1].winner == 0
    # trick 3: first hand leads any card
    assert d.hand_to_play == 0 and d.talon_lead is None and len(legal(d)) == 8


def test_allpass_first_hand_void_plays_anything_the_others_still_follow_the_talon():
    hands = [
        "AS KS QS JS 10S 9S 8S 7S AC KC",
        "QC JC 10C 9C 8C 7C AD KD QD 9H",
        "10D 9D 8D 7D AH KH QH JH 10H JD",
    ]
    d = Deal(Rules.preset("sochi"), 2, [CardSet.parse(h) for h in hands], ["8H", "7H"])
    run(d, "PASS, PASS, PASS")
    assert legal(d) == [str(c) for c in CardSet.parse(hands[0])]  # void in hearts: any card
    run(d, "7S")
    assert legal(d) == ["9H"]  # the talon suit, not the first card's
    run(d, "9H")
    run(d, "10H")
    assert d.tricks[0].winner == 2


def test_allpass_closed_talon_first_hand_leads_normally():
    d = run(make(Rules.preset("rostov")), "PASS, PASS, PASS")
    assert d.talon_lead is None and d.observation(0)["talon"] is None and len(legal(d)) == 10
    while not d.done:
        d.apply(d.legal_actions()[0])
    assert d.observation(0)["talon"] is None and sum(d.outcome().tricks) == 10


def four_player_deal(rules: Rules) -> Deal:
    hands = [
        "AS KS QS JS AC KC AD 9H 8H 7H",
        "10S 9S 8S 7S QC JC KD QD JH 10H",
        "10C 9C 8C 7C JD 10D 9D 8D KH QH",
        "",
    ]
    return Deal(rules, 3, [CardSet.parse(h) for h in hands], ["AH", "7D"])


def test_four_players_dealer_sits_out_and_owns_the_talon_in_allpass():
    d = four_player_deal(Rules.preset("sochi", players=4))
    assert d.first_hand == 0 and d.seats == (0, 1, 2)
    run(d, "PASS, PASS, PASS")
    assert d.current_trick == [(3, Card.parse("AH"))] and d.hand_to_play == 0
    run(d, "7H, JH, QH")
    assert d.tricks[0].winner == 3 and d.tricks[0].leader == 3  # the talon ace wins
    assert d.current_trick == [(3, Card.parse("7D"))]
    run(d, "AD, QD, 8D")
    assert d.tricks[1].winner == 0 and d.hand_to_play == 0
    while not d.done:
        d.apply(d.legal_actions()[-1])
    o = d.outcome()
    assert o.tricks[3] == 1 and sum(o.tricks) == 10 and o.players == 4


def test_four_players_defenders_skip_the_dealer():
    d = four_player_deal(Rules.preset("sochi", players=4))
    run(d, "PASS, PASS, 6S, DISCARD 7D AH, 6S")
    assert d.declarer == 2 and d.defenders == (0, 1) and d.to_act == 0


def test_observation_shows_only_what_the_seat_may_see():
    d = make()
    obs = d.observation(1)
    assert obs["hand"] == d.hand(1).to_list() and obs["talon"] is None
    assert obs["legal"] == [] and d.observation(0)["legal"][0] == "6S"
    text = json.dumps(obs)
    for card in [*HANDS[0].split(), *HANDS[2].split(), *TALON]:
        assert f'"{card}"' not in text
    run(d, "6S, PASS, PASS, DISCARD 7H 7D")
    assert d.observation(0)["discard"] == ["7D", "7H"]
    for seat in (1, 2):
        o = d.observation(seat)
        assert o["discard"] is None and o["talon"] == ["AH", "7D"]
        assert o["hand_sizes"] == [10, 10, 10] and o["bid"] == "6S"
        assert '"7D"' not in json.dumps({k: v for k, v in o.items() if k != "talon"})
    keys = {
        "seat", "players", "dealer", "first_hand", "phase", "to_act", "hand_to_play", "hand",
        "hand_sizes", "auction", "bid", "min_bid", "declarer", "contract", "talon", "discard",
        "defence", "open_defence", "exposed", "trick", "tricks", "tricks_won", "talon_lead",
        "legal", "allpass_streak", "kind",
    }
    assert set(d.observation(0)) == keys


def test_minimum_bid_after_allpasses():
    d = make(streak=1)
    assert legal(d)[0] == "7S" and d.observation(0)["min_bid"] == 7
    with pytest.raises(IllegalAction, match="lowest bid now is 7"):
        d.apply("6NT")


@pytest.mark.parametrize(
    ("hands", "talon", "message"),
    [
        ([*HANDS[:2], HANDS[2] + " AH"], ["7D", "7C"], "seat 2 has 11 cards, not 10"),
        (HANDS, ["AH", "7H"], "card 7H is dealt twice"),
        (HANDS[:2], TALON, "3 players need 3 hands, not 2"),
        (HANDS, ["AH"], "the talon holds 2 cards, not 1"),
    ],
)
def test_bad_deals_are_rejected_with_a_reason(hands, talon, message):
    with pytest.raises(ValueError, match=message):
        Deal(Rules.preset("sochi"), 2, [h.split() for h in hands], talon)


def test_copy_is_independent_and_outcome_needs_the_end():
    d = run(make(), "6S, PASS, PASS")
    c = d.copy()
    c.apply("DISCARD 7H 7D")
    assert d.phase is Phase.DISCARD and len(d.hand(0)) == 12 and len(d.history) == 3
    with pytest.raises(ValueError, match="not over"):
        d.outcome()


def test_full_contract_deal_outcome():
    d = run(to_contract("7H"), "WHIST, WHIST")
    rng = random.Random(3)
    while not d.done:
        d.apply(rng.choice(d.legal_actions()))
    o = d.outcome()
    assert o.kind == "contract" and o.whisters == (1, 2) and o.open_defence is None
    assert sum(o.tricks) == 10 and o.tricks == tuple(d.tricks_won)
    assert len({c for t in d.tricks for _, c in t.cards}) == 30


def test_observations_written_as_the_deal_grows_match_a_fresh_writing():
    """The observation keeps the auction and the tricks as JSON while the deal goes on; a
    copied deal that goes another way writes its own, and a finished deal keeps none."""
    rng = random.Random(3)
    for _ in range(40):
        deal = make(Rules.preset(rng.choice(["sochi", "leningrad", "rostov"])))
        branch = None
        while not deal.done:
            seen = deal.observation(deal.to_act or 0)
            assert seen["auction"] == [[s, str(a)] for s, a in deal.auction.calls]
            assert seen["tricks"] == [t.to_json() for t in deal.tricks]
            if branch is None and rng.random() < 0.1:
                branch = deal.copy()
            deal.apply(rng.choice(deal.legal_actions()))
            if branch is not None and not branch.done:
                branch.apply(rng.choice(branch.legal_actions()))
                again = branch.observation(0)
                assert again["auction"] == [[s, str(a)] for s, a in branch.auction.calls]
                assert again["tricks"] == [t.to_json() for t in branch.tricks]
        final = deal.observation(0)
        assert final["tricks"] == [t.to_json() for t in deal.tricks]
        deal.compact()
        assert deal.observation(0) == final
    game = Game(Rules.preset("sochi"), seed=4)
    game.start_deal()
    while not game.finished_deals:
        game.apply(rng.choice(game.legal_actions()))
    finished = game.finished_deals[0]
    assert finished._auction_json == (0, []) and finished._tricks_json == (0, [])
