"""Four players in full: the dealer sits out, his prizes and consolation, his final right to
whist (LOOK s, then WHIST or PASS), the talon cards he owns in all-pass, and random games
under every preset to the end.

Seats A=0, B=1, C=2, D=3; D deals unless said otherwise, so A is first hand and, as
declarer, is defended by B then C.
"""

from __future__ import annotations

import random

import pytest

from preferans.actions import IllegalAction
from preferans.bids import Bid
from preferans.cards import FULL_MASK
from preferans.deal import Deal, Phase
from preferans.game import Game
from preferans.outcome import DealOutcome
from preferans.rules import PRESETS, Rules
from preferans.sheet import Sheet


def four(preset: str = "sochi", **overrides) -> Rules:
    return Rules.preset(preset, players=4, **overrides)


def to_defence(rules: Rules, seed: int, bid: str) -> Deal:
    """A deal dealt by D where A buys the talon with ``bid`` and declares it."""
    deal = Deal.shuffle(rules, 3, random.Random(seed))
    for token in (bid, "PASS", "PASS"):
        deal.apply(token)
    deal.apply(deal.legal_actions()[0])  # a discard
    deal.apply(bid)
    return deal


def test_dealer_may_whist_after_two_passes_against_eight():
    rules = four(dealer_whist=True)
    deal = to_defence(rules, 1, "8S")
    deal.apply("PASS")
    deal.apply("PASS")
    assert deal.phase is Phase.DEALER and deal.to_act == 3
    assert [str(a) for a in deal.legal_actions()] == ["LOOK 1", "LOOK 2"]
    with pytest.raises(IllegalAction, match="the dealer first looks at one defender's hand"):
        deal.apply("WHIST")
    deal.apply("LOOK 2")
    obs = deal.observation(3)
    assert obs["looked"] == {"2": deal.hand(2).to_list()}
    assert "looked" not in deal.observation(2)
    assert [str(a) for a in deal.legal_actions()] == ["PASS", "WHIST"]
    deal.apply("WHIST")
    assert deal.phase is Phase.PLAY and deal.whisters == (3,)
    assert deal.controller(1) == deal.controller(2) == 3
    assert set(deal.exposed) == {1, 2}
    while not deal.done:
        deal.apply(deal.legal_actions()[0])
    o = deal.outcome()
    assert o.kind == "contract" and o.whisters == (3,) and o.tricks[3] == 0
    assert o.defence == ("PASS", "PASS", "LOOK 2", "WHIST")
    Sheet(rules, "ABCD").record(o)  # scores without error


def test_dealer_passes_and_the_deal_stays_passed():
    rules = four(dealer_whist=True)
    deal = to_defence(rules, 2, "9H")
    for token in ("PASS", "PASS", "LOOK 1", "PASS"):
        deal.apply(token)
    assert deal.done and deal.outcome().kind == "passed"


def test_dealer_whist_after_a_half_whist_stands():
    rules = four(dealer_whist=True)
    deal = to_defence(rules, 3, "6H")
    for token in ("PASS", "HALF", "PASS"):
        deal.apply(token)
    assert deal.phase is Phase.DEALER
    deal.apply("LOOK 1")
    deal.apply("PASS")
    assert deal.outcome().kind == "halfwhist" and deal.outcome().half_whister == 2


def test_no_dealer_whist_after_two_passes_against_six_or_without_the_option():
    deal = to_defence(four(dealer_whist=True), 4, "6H")
    deal.apply("PASS")
    deal.apply("PASS")
    assert deal.done and deal.outcome().kind == "passed"
    deal = to_defence(four(), 4, "8H")
    deal.apply("PASS")
    deal.apply("PASS")
    assert deal.done


def dealer_whisted(tricks: tuple[int, int, int, int], bid: str = "8S") -> DealOutcome:
    return DealOutcome("contract", 3, 4, 0, Bid.parse(bid),
                       ("PASS", "PASS", "LOOK 1", "WHIST"), (3,), None, True, tricks)


def test_dealer_whist_scoring():
    rules = four(dealer_whist=True)
    # 8♠ 8–1–1–0 made: A pool 6; D, the whister, writes both defenders' tricks 2×6=12.
    sheet = Sheet(rules, "ABCD")
    sheet.record(dealer_whisted((8, 1, 1, 0)))
    assert sheet.to_json()["pool"] == [6, 0, 0, 0]
    assert sheet.to_json()["whists"][3] == [12, 0, 0, 0]
    # 8♠ 7–2–1–0 set by one: A mountain 6; D writes 3×6 + his 6 prize = 24; B and C, who
    # passed, 6 prize each (Sochi: the passers write theirs).
    sheet = Sheet(rules, "ABCD")
    sheet.record(dealer_whisted((7, 2, 1, 0)))
    j = sheet.to_json()
    assert j["mountain"] == [6, 0, 0, 0]
    assert [row[0] for row in j["whists"]] == [0, 6, 6, 24]
    # 9♠ 10–0–0–0: the defence missed its one trick; the dealer, whisting alone, answers
    # for it: mountain 8.
    sheet = Sheet(rules, "ABCD")
    sheet.record(dealer_whisted((10, 0, 0, 0), "9S"))
    assert sheet.to_json()["mountain"] == [0, 0, 0, 8]
    # Gentlemanly whist: the whisting dealer shares with nobody (Leningrad, 8♠ 7–2–1–0:
    # mountain 12; D 3×12 + 12 = 48; B and C 12 prize each).
    sheet = Sheet(four("leningrad", dealer_whist=True), "ABCD")
    sheet.record(dealer_whisted((7, 2, 1, 0)))
    assert [row[0] for row in sheet.to_json()["whists"]] == [0, 12, 12, 48]


def test_dealer_whist_not_accepted_without_the_option():
    with pytest.raises(ValueError, match="not a defender"):
        Sheet(four(), "ABCD").record(dealer_whisted((8, 1, 1, 0)))


def test_dealer_prize_and_consolation_kazakhstan():
    # Kazakhstan, 7♥ 6–3–1–0, B whists alone: A mountain 16; B 4×16 + 16 = 80; C (passer)
    # nothing; D, the dealer, 16 ("including the dealer of a four player game").
    sheet = Sheet(four("kazakhstan"), "ABCD")
    sheet.record(DealOutcome("contract", 3, 4, 0, Bid.parse("7H"), ("WHIST", "PASS"), (1,),
                             None, False, (6, 3, 1, 0)))
    assert [row[0] for row in sheet.to_json()["whists"]] == [0, 80, 0, 16]


def test_dealer_owns_talon_tricks_in_allpass():
    # Sochi, four players: the talon cards lead the first two tricks for the dealer and
    # the tricks they win are his.
    rules = four()
    rng = random.Random(9)
    for _ in range(20):
        deal = Deal.shuffle(rules, 3, rng)
        for token in ("PASS", "PASS", "PASS"):
            deal.apply(token)
        assert deal.current_trick == [(3, deal.talon[0])]
        while not deal.done:
            deal.apply(deal.legal_actions()[-1])
        won = sum(1 for t in deal.tricks if t.winner == 3)
        assert deal.outcome().tricks[3] == won
        assert all(s == 3 for t in deal.tricks if t.winner == 3 for s, _ in t.cards[:1])


# --- random four-player games under every preset ----------------------------------------------


HOUSE = dict(dealer_whist=True, resignation=True, talon_refusal=True)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_random_four_player_games_to_the_end(preset):
    extra = {"allpass_exchange": True, "over_greedy": True} if preset == "kazakhstan" else {}
    rules = four(preset, pool=4, **HOUSE, **extra)
    kinds: set[str] = set()
    for seed in range(3):
        rng = random.Random(seed)
        game = Game(rules, seed=seed, first_dealer=seed % 4)
        for _ in range(4000):
            if game.finished:
                break
            deal = game.deal or game.start_deal()
            game.apply(choose(deal, rng))
            if deal.done:
                check_four_player_deal(deal)
                kinds.add(deal.outcome().kind)
        assert game.finished
        balance = game.sheet.balance()
        assert sum(balance) == 0
        assert all(sum(e.balance_change) == 0 for e in game.sheet.entries)
        replayed = Game.from_record(game.to_record())
        assert replayed.sheet.to_json() == game.sheet.to_json()
    assert kinds  # something was played


def choose(deal: Deal, rng: random.Random) -> str:
    """A random legal action, biased to cheap contracts so that random games end."""
    legal = [str(a) for a in deal.legal_actions()]
    if deal.phase is Phase.CONTRACT and rng.random() < 0.9:
        return legal[0]
    if deal.phase is Phase.AUCTION and "PASS" in legal and rng.random() < 0.5:
        return "PASS"
    return rng.choice(legal)


def check_four_player_deal(deal: Deal) -> None:
    masks = [c.mask for h in deal.initial_hands for c in h] + [c.mask for c in deal.talon]
    assert len(masks) == 32 and sum(masks) == FULL_MASK
    assert len(deal.initial_hands[deal.dealer]) == 0
    o = deal.outcome()
    if o.kind in ("contract", "misere", "allpass"):
        assert sum(o.tricks) == 10 and len(deal.tricks) == 10
        cards = [c for t in deal.tricks for _, c in t.cards]
        assert len(set(cards)) == len(cards)
        if o.kind != "allpass":
            assert o.tricks[deal.dealer] == 0
    else:
        assert sum(o.tricks) == 0
