"""When the misère's defending hands go face up (``misere_exposure``): what each seat sees
before and after the opening lead, for every reading of the texts and either leader.

003: "After the first card both defenders lay their cards face up and play together"
(``after_lead``, whoever leads); 000 and 001 §10: "If a defender leads, the hands are exposed
immediately" (``after_declarer_lead``); ``before_lead``: down before any card.
"""

from __future__ import annotations

import inspect
import json
import re

import pytest

import preferans.rules as rules_module
from preferans.cards import Card, CardSet
from preferans.deal import DUMMY, Deal, Phase
from preferans.game import Game
from preferans.record import read_record, replay
from preferans.rules import PRESETS, VARIANTS, Rules, RulesError

# Seat 0 (A) is first hand with dealer 2 (C).
HANDS = [
    "AS KS QS JS AC KC AD 9H 8H 7H",
    "10S 9S 8S 7S QC JC KD QD JH 10H",
    "10C 9C 8C 7C JD 10D 9D 8D KH QH",
]
TALON = ["AH", "7D"]
READINGS = ("after_lead", "after_declarer_lead", "before_lead")
# The declarer on lead: A (first hand) calls misère.  A defender on lead: B calls it, A leads.
TO_PLAY = {
    "declarer": ("MISERE, PASS, PASS, DISCARD AS AC, MISERE", 0, (1, 2)),
    "defender": ("PASS, MISERE, PASS, DISCARD 10S 9S, MISERE", 1, (0, 2)),
}


def misere(exposure: str, leader: str) -> tuple[Deal, int, tuple[int, ...]]:
    tokens, declarer, defenders = TO_PLAY[leader]
    deal = Deal(Rules.preset("sochi", misere_exposure=exposure), 2,
                [CardSet.parse(h) for h in HANDS], [Card.parse(c) for c in TALON])
    for token in tokens.split(", "):
        deal.apply(token)
    assert deal.phase is Phase.PLAY and deal.kind == "misere" and deal.declarer == declarer
    assert tuple(sorted(deal.defenders)) == defenders and deal.to_act == 0
    return deal, declarer, defenders


def seen_cards(obs: dict) -> set[str]:
    """Every card an observation shows: own hand, exposed hands, the trick, the legal cards,
    the talon and the own discard."""
    cards = set(obs["hand"]) | {c for t in obs["trick"] for c in t[1:]}
    cards |= {c for hand in obs["exposed"].values() for c in hand}
    cards |= set(obs["talon"] or ()) | set(obs["discard"] or ())
    cards |= {t for t in obs["legal"] if t[-1] in "SCDH" and t != "MISERE"}
    return cards


def check_sight(deal: Deal, down: tuple[int, ...]) -> None:
    """Every seat sees exactly its own hand and the hands ``down``, nothing of the others."""
    for seat in range(3):
        obs = json.loads(json.dumps(deal.observation(seat)))
        assert obs["exposed"] == {str(s): deal.hand(s).to_list() for s in down}
        assert obs["hand"] == deal.hand(seat).to_list()
        seen = seen_cards(obs)
        for other in range(3):
            hidden = set(deal.hand(other).to_list()) - set(obs["talon"] or ())
            if other == seat or other in down:
                assert hidden <= seen
            else:
                assert not hidden & seen, (seat, other, hidden & seen)


def down_before_lead(exposure: str, leader: str, defenders: tuple[int, ...]
                     ) -> tuple[int, ...]:
    if exposure == "before_lead":
        return defenders
    if exposure == "after_declarer_lead" and leader == "defender":
        return defenders
    return ()


@pytest.mark.parametrize("leader", ["declarer", "defender"])
@pytest.mark.parametrize("exposure", READINGS)
def test_each_seat_sees_the_defenders_hands_when_the_reading_says(exposure, leader):
    deal, _declarer, defenders = misere(exposure, leader)
    before = down_before_lead(exposure, leader, defenders)
    assert deal.exposed == before
    check_sight(deal, before)
    lead = deal.legal_actions()[0]
    deal.apply(lead)
    # after the opening card both defending hands are down, whatever the reading
    assert deal.exposed == defenders and len(deal.observation(1)["trick"]) == 1
    check_sight(deal, defenders)
    while not deal.done:  # and stay down, each defender playing his own hand
        seat = deal.to_act
        assert seat == deal.hand_to_play
        deal.apply(deal.legal_actions()[0])
        if not deal.done:
            check_sight(deal, defenders)


def test_the_defender_on_lead_chooses_from_his_own_cards_alone_under_003():
    deal, _, _ = misere("after_lead", "defender")
    obs = deal.observation(0)
    assert obs["to_act"] == 0 and obs["exposed"] == {}
    assert set(obs["legal"]) == set(obs["hand"])  # his own ten cards, the partner's unseen
    deal.apply("7H")
    assert set(deal.observation(0)["exposed"]) == {"0", "2"}


def test_the_games_own_presets_follow_003_and_the_others_000_or_001():
    for name, rules in {**PRESETS, **VARIANTS}.items():
        expected = "after_lead" if name in ("sochi", "leningrad", "rostov") else (
            "after_declarer_lead")
        assert rules.misere_exposure == expected, name


def test_each_preset_docstring_says_which_text_its_misere_follows():
    source = inspect.getsource(rules_module)
    for name, text in [("SOCHI", "003"), ("LENINGRAD", "003"), ("ROSTOV", "003"),
                       ("GUIDE", "001"), ("SOCHI_000", "000"), ("PITER", "000"),
                       ("PITER_HARD", "000"), ("MOSCOW", "000"), ("KAZAKHSTAN", "000"),
                       ("FINN", "000"), ("VMK", "000"), ("CODE1996", "000"),
                       ("TWO_PLAYER", "000"), ("RACING_22", "000"),
                       ("CLASSICAL_1971", "000")]:
        start = source.index(f"\n{name}: Final")
        opening = source.index('"""', start)
        doc = source[opening:source.index('"""', opening + 3)]
        where = [m.start() for m in re.finditer(r"[Mm]is[eè]re(?!_)", doc)][-1]
        assert text in doc[where - 60:where + 400], name


def test_the_old_flag_still_loads_and_means_what_it_meant():
    old_false = Rules.from_json({"preset": "sochi", "misere_open_before_lead": False})
    old_true = Rules.from_json({"preset": "sochi", "misere_open_before_lead": True})
    assert old_false == Rules.preset("sochi", misere_exposure="after_declarer_lead")
    assert old_true == Rules.preset("sochi", misere_exposure="before_lead")
    assert Rules.preset("piter", misere_open_before_lead=False) == PRESETS["piter"]
    # today's name wins where a hand-edited object gives both; the old is never written
    both = Rules.from_json({"preset": "sochi", "misere_open_before_lead": True,
                            "misere_exposure": "after_lead"})
    assert both == PRESETS["sochi"] and "misere_open_before_lead" not in old_true.to_json()
    assert old_true.to_json() == {"preset": "sochi", "misere_exposure": "before_lead"}
    with pytest.raises(RulesError, match="misere_open_before_lead") as caught:
        Rules.from_json({"preset": "sochi", "misere_open_before_lead": "yes"})
    assert caught.value.code == "opt_bool"
    with pytest.raises(RulesError) as caught:
        Rules.preset("sochi", misere_exposure="at_once")
    assert caught.value.code == "opt_not_allowed"


def test_a_record_naming_the_old_flag_replays_with_its_meaning():
    game = Game(Rules.preset("sochi", misere_exposure="after_declarer_lead"), ["A", "B", "C"],
                first_dealer=2)
    game.start_deal(HANDS_LISTS, TALON)
    for token in TO_PLAY["defender"][0].split(", "):
        game.apply(token)
    assert game.deal is not None and game.deal.exposed == (0, 2)
    while game.deal is not None:
        game.apply(str(game.deal.legal_actions()[0]))
    record = game.to_record()
    record["rules"] = {"preset": "sochi", "misere_open_before_lead": False}  # as written before
    read = read_record(json.dumps(record))
    assert read["rules"] == {"preset": "sochi", "misere_exposure": "after_declarer_lead"}
    seen: list[tuple[int, ...]] = []

    def before(_number: int, deal: Deal, _token: str) -> None:
        if deal.phase is Phase.PLAY and not deal.tricks and not deal.current_trick:
            seen.append(deal.exposed)

    again = replay(json.loads(json.dumps(record)), before_action=before)
    assert seen == [(0, 2)]  # down before A's opening lead, as the old flag meant
    assert again.sheet.balance() == game.sheet.balance()


HANDS_LISTS = [h.split() for h in HANDS]


def test_the_two_player_dummy_on_lead_goes_down_at_once_whatever_the_reading():
    # the dummy (first hand) is a misère defender played by the other player, who must see
    # the cards he leads from
    hands = [
        ["AC", "KC", "QC", "JC", "10C", "9C", "8C", "7C", "QH", "JH"],
        ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "AH", "KH"],
        ["AD", "KD", "QD", "JD", "10D", "9D", "8D", "7D", "10H", "9H"],
    ]
    for exposure in READINGS:
        rules = Rules.preset("two-player", misere_exposure=exposure)
        deal = Deal(rules, 0, hands, ["8H", "7H"], names=("A", "B"))
        deal.apply("MISERE")
        deal.apply("PASS")
        discard = next(str(a) for a in deal.legal_actions())
        deal.apply(discard)
        deal.apply("MISERE")
        assert deal.kind == "misere" and deal.hand_to_play == DUMMY
        assert set(deal.exposed) == {0, 2}, exposure


@pytest.mark.parametrize("exposure", READINGS)
def test_four_players_the_sitting_dealer_sees_what_the_others_see(exposure):
    rules = Rules.preset("sochi", players=4, misere_exposure=exposure)
    deal = Deal(rules, 3, [CardSet.parse(h) for h in HANDS] + [CardSet()],
                [Card.parse(c) for c in TALON])
    for token in TO_PLAY["defender"][0].split(", "):
        deal.apply(token)  # B declares, A (first hand, a defender) leads
    before = (0, 2) if exposure != "after_lead" else ()
    for seat in range(4):
        assert set(deal.observation(seat)["exposed"]) == {str(s) for s in before}
    deal.apply("7H")
    for seat in range(4):
        exposed = deal.observation(seat)["exposed"]
        assert exposed == {str(s): deal.hand(s).to_list() for s in (0, 2)}
