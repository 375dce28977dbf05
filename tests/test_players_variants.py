"""The computer players' decisions in the structural variants (issue 8): the Rogue's naming,
the two-player defence with the dummy, Classical's blind and hand bids, POOL or HILL — each in
a position where the right choice is clear — and legal, modelled play in random games of every
variant by Easy, Normal and Hard.
"""

from __future__ import annotations

from collections import Counter

import pytest

import preferans.players.montecarlo as montecarlo
from preferans.deal import DUMMY, Deal, Phase
from preferans.game import Game
from preferans.players import make_player
from preferans.players.variants import write_choice
from preferans.players.view import SeatView
from preferans.rules import Rules
from preferans.sheet import Sheet

LEVELS = ("easy", "normal", "hard")
SMALL = Rules.preset("rogue-small")
TWO = Rules.preset("two-player")
RACING = Rules.preset("racing-22")
CLASSICAL = Rules.preset("classical-1971")


def choose(level: str, rules: Rules, obs: dict) -> str:
    token = make_player(level, rules, seed=3).choose(obs)
    assert token in obs["legal"], (level, token, obs["legal"])
    return token


# --- the Rogue ------------------------------------------------------------------------------------
# A deals: the dummy (seat 2) is first hand and B (seat 1), the second hand, is the soloist.
COLD_TEN = ["AS", "KS", "QS", "JS", "10S", "9S", "AH", "KH", "AD", "AC"]
CLEAN_MISERE = ["7S", "8S", "7C", "9C", "7D", "8D", "7H", "8H", "9H", "JH"]
WEAK = ["QS", "JS", "8S", "QC", "10C", "9C", "QD", "JD", "10H", "9H"]


def rogue_deal(soloist_hand: list[str], rules: Rules = SMALL) -> Deal:
    rest = [c for c in _deck() if c not in soloist_hand]
    hands = [rest[0:10], soloist_hand, rest[10:20]]
    return Deal(rules, 0, hands, rest[20:22])


def _deck() -> list[str]:
    ranks = ["7", "8", "9", "10", "J", "Q", "K", "A"]
    return [r + s for s in "SCDH" for r in ranks]


@pytest.mark.parametrize("level", LEVELS)
def test_a_cold_ten_names_the_ten(level: str) -> None:
    deal = rogue_deal(COLD_TEN)
    assert deal.phase is Phase.NAME and deal.to_act == 1
    assert choose(level, SMALL, deal.observation(1)) == "TRICKS 10"


@pytest.mark.parametrize("level", LEVELS)
def test_a_clean_misere_hand_names_misere(level: str) -> None:
    deal = rogue_deal(CLEAN_MISERE)
    assert choose(level, SMALL, deal.observation(1)) == "MISERE"


@pytest.mark.parametrize("level", LEVELS)
def test_a_weak_hand_does_not_name_a_high_game(level: str) -> None:
    deal = rogue_deal(WEAK)
    token = choose(level, SMALL, deal.observation(1))
    assert token not in ("TRICKS 8", "TRICKS 9", "TRICKS 10"), token


@pytest.mark.parametrize("level", LEVELS)
def test_the_trump_after_any_eight_is_the_long_suit(level: str) -> None:
    # eight hearts to the ace-king: "any 8" is played in hearts
    hand = ["AH", "KH", "QH", "JH", "10H", "9H", "8H", "7H", "AS", "7C"]
    deal = rogue_deal(hand)
    deal.apply("TRICKS 8")
    bot = make_player(level, SMALL, seed=3)
    deal.apply(bot.choose(deal.observation(1)))  # the discard
    assert deal.phase is Phase.CONTRACT
    assert bot.choose(deal.observation(1)) == "8H"


# --- two players: the defence with the dummy -----------------------------------------------------
# A deals; the dummy (2) is first hand; B (1) bids first.  B declares, A defends with the dummy.
def two_player_defence(defender: list[str], contract: str = "6S") -> Deal:
    declarer = ["KS", "QS", "JS", "10S", "9S", "8S", "KC", "QC", "KD", "QD"]
    rest = [c for c in _deck() if c not in defender and c not in declarer]
    deal = Deal(TWO, 0, [defender, declarer, rest[:10]], rest[10:12], names=("A", "B"))
    deal.apply(contract)
    deal.apply("PASS")
    deal.apply("DISCARD " + " ".join(rest[10:12]))
    deal.apply(contract)
    assert deal.phase is Phase.DEFENCE and deal.to_act == 0
    return deal


@pytest.mark.parametrize("level", LEVELS)
def test_four_aces_whist_against_a_six_and_then_defend(level: str) -> None:
    aces = ["AS", "AC", "AD", "AH", "KH", "QH", "7C", "8C", "7D", "8D"]
    deal = two_player_defence(aces)
    token = choose(level, TWO, deal.observation(0))
    assert token == "WHIST"
    deal.apply(token)
    assert deal.phase is Phase.DEFENCE_MODE
    mode = choose(level, TWO, deal.observation(0))
    assert mode in ("OPEN", "ALONE")


@pytest.mark.parametrize("level", LEVELS)
def test_a_hand_without_tricks_never_defends_alone(level: str) -> None:
    weak = ["7C", "8C", "9C", "7D", "8D", "9D", "7H", "8H", "9H", "10C"]
    deal = two_player_defence(weak)
    token = choose(level, TWO, deal.observation(0))
    if token == "WHIST":  # only with the dummy's cards, opened
        deal.apply(token)
        assert choose(level, TWO, deal.observation(0)) == "OPEN"


@pytest.mark.parametrize("level", LEVELS)
def test_alone_when_the_lone_hand_owes_little_and_holds_it(level: str) -> None:
    # four aces and the king of trumps: alone he owes two tricks against a six and takes
    # them on his own cards; the dummy's average hand adds nothing he needs
    aces = ["AS", "AC", "AD", "AH", "KH", "QH", "JH", "7C", "7D", "10H"]
    deal = two_player_defence(aces)
    deal.apply("WHIST")
    mode = choose(level, TWO, deal.observation(0))
    assert mode in ("OPEN", "ALONE")
    obs = deal.observation(0)
    view = SeatView.from_observation(obs)
    assert view.players == 3 and view.dummy == DUMMY
    assert view.defenders() == [0, DUMMY]  # B declares: A, then the dummy, in table order


# --- Classical: blind bids, hand bids, the blind winner's misère --------------------------------
def blind_obs(final_lap: bool, balance: list[int]) -> dict:
    return {
        "seat": 0, "players": ["A", "B", "C"], "dealer": 2, "first_hand": 0,
        "phase": "auction", "to_act": 0, "hand": [], "hand_hidden": True,
        "hand_sizes": [10, 10, 10], "auction": [], "legal": [
            "SEE", "BLIND 6S", "BLIND 6C", "BLIND 7S", "BLIND PASS"],
        "blind": {"seen": [], "blind_passed": [], "blind_high": False},
        "sheet": {"pool": [0, 0, 0], "mountain": [0, 0, 0],
                  "whists": [[0, 0, 0]] * 3, "balance": balance,
                  "classical": {"stage": "second half", "final_lap": final_lap}},
    }


@pytest.mark.parametrize("level", LEVELS)
def test_a_bidder_looks_at_his_cards_unless_far_behind_in_the_final_lap(level: str) -> None:
    assert choose(level, CLASSICAL, blind_obs(False, [-400, 200, 200])) == "SEE"
    assert choose(level, CLASSICAL, blind_obs(True, [0, 10, -10])) == "SEE"
    assert choose(level, CLASSICAL, blind_obs(True, [-400, 200, 200])) == "BLIND 6S"


def hand_bid_deal(hand: list[str]) -> Deal:
    # second half (no Rogue lists); A deals: B (first hand) calls misère, C passes, and A
    # may answer "9S HAND"
    misere = ["7S", "8S", "7C", "8C", "7D", "8D", "9D", "7H", "8H", "9H"]
    rest = [c for c in _deck() if c not in hand and c not in misere]
    deal = Deal(CLASSICAL, 0, [hand, misere, rest[:10]], rest[10:12])
    assert deal.phase is Phase.AUCTION
    return deal


def _to_hand_bid(deal: Deal) -> dict | None:
    for _ in range(4):
        seat = deal.to_act
        legal = [str(a) for a in deal.legal_actions()]
        if seat == 0 and any(t.endswith("HAND") for t in legal):
            return deal.observation(0)
        deal.apply("MISERE" if seat == 1 and "MISERE" in legal else "PASS")
    return None


@pytest.mark.parametrize("level", LEVELS)
def test_nine_in_hand_over_a_misere_only_with_a_hand_that_makes_it(level: str) -> None:
    strong = hand_bid_deal(["AS", "KS", "QS", "JS", "10S", "9S", "AH", "KH", "AC", "AD"])
    obs = _to_hand_bid(strong)
    if obs is None:
        pytest.skip("the auction did not reach a hand bid")
    assert choose(level, CLASSICAL, obs) == "9S HAND"
    weak = hand_bid_deal(["QS", "JS", "10S", "QC", "JC", "10C", "QD", "JD", "QH", "JH"])
    obs = _to_hand_bid(weak)
    assert obs is not None
    assert not choose(level, CLASSICAL, obs).endswith("HAND")


# --- POOL or HILL ---------------------------------------------------------------------------------
def write_obs(pool: list[int], mountain: list[int]) -> dict:
    sheet = Sheet(RACING, ("A", "B", "C"))
    sheet.pool = list(pool)
    sheet.mountain = list(mountain)
    return {
        "seat": 0, "players": ["A", "B", "C"], "dealer": 2, "first_hand": 0, "phase": "write",
        "to_act": 0, "hand": [], "hand_sizes": [10, 10, 10],
        "auction": [[0, "7S"], [1, "PASS"], [2, "PASS"]], "bid": "7S", "declarer": 0,
        "contract": "7S", "defence": [[1, "PASS"], [2, "PASS"]], "kind": "passed",
        "legal": ["POOL", "HILL"], "sheet": sheet.to_json(),
    }


@pytest.mark.parametrize("level", LEVELS)
def test_pool_when_it_wins_the_race_hill_once_the_race_is_decided(level: str) -> None:
    # somebody already filled the round's pool: the points are better off the mountain
    assert choose(level, RACING, write_obs([0, 22, 0], [10, 0, 0])) == "HILL"
    # nothing on the mountain to write off: the pool
    assert choose(level, RACING, write_obs([0, 22, 0], [0, 0, 0])) == "POOL"
    # these points fill the round's pool first: the bonus now
    assert choose(level, RACING, write_obs([20, 0, 0], [10, 0, 0])) == "POOL"


def test_write_choice_reads_the_view() -> None:
    view = SeatView.from_observation(write_obs([0, 22, 0], [10, 0, 0]))
    assert write_choice(view, RACING) == "HILL"


# --- random games: legal, modelled, and the dummy never decides ----------------------------------
GAMES = [
    ("two-player", "easy", 6), ("two-player", "normal", 3), ("two-player", "hard", 2),
    ("rogue-small", "easy", 6), ("rogue-small", "normal", 3), ("rogue-small", "hard", 2),
    ("rogue-large", "normal", 2), ("rogue-xl", "easy", 4),
    ("racing-22", "easy", 6), ("racing-22", "normal", 3), ("racing-17", "hard", 2),
    ("classical-1971", "easy", 10), ("classical-1971", "normal", 4),
    ("classical-1971", "hard", 2), ("rogue-small", "crazy", 1), ("racing-22", "crazy", 1),
]


@pytest.mark.parametrize(("preset", "level", "deals"), GAMES,
                         ids=[f"{p}-{lv}" for p, lv, _ in GAMES])
def test_random_games_are_legal_and_modelled(preset: str, level: str, deals: int,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    rules = Rules.preset(preset)
    fallbacks: Counter = Counter()
    original = montecarlo._fallback

    def counting(view, legal):
        fallbacks[view.phase] += 1
        return original(view, legal)

    monkeypatch.setattr(montecarlo, "_fallback", counting)
    bots = [make_player(level, rules, seed=11 + i) for i in range(rules.players)]
    game = Game(rules, seed=deals * 7 + len(preset))
    phases: Counter = Counter()
    for _ in range(deals):
        if game.finished:
            break
        game.start_deal()
        while game.deal is not None:
            seat = game.deal.to_act
            assert seat is not None and seat < rules.players  # never the dummy
            obs = game.observation(seat)
            token = bots[seat].choose(obs)
            assert token in obs["legal"], (preset, level, obs["phase"], token, obs["legal"])
            assert token != "REFUSE"  # weakly worse than discarding the talon's two cards
            game.apply(token)
            phases[obs["phase"]] += 1
    assert phases
    assert not fallbacks, dict(fallbacks)


# --- the score model in the variants -----------------------------------------------------------
@pytest.mark.parametrize("preset", ["two-player", "racing-22", "classical-1971"])
def test_the_score_model_values_a_contract_in_every_variant(preset: str) -> None:
    # a compulsory all-pass (Racing), the first half (Classical) or two players once made
    # every value zero
    from preferans.bids import Bid
    from preferans.players.utility import ScoreModel

    rules = Rules.preset(preset)
    model = ScoreModel(rules, 0, dealer=rules.players - 1)
    table = model.contract_table(0, Bid.parse("7H"))
    assert table[7] > 0 > table[6]
    assert model.unplayed_value(0, Bid.parse("7H")) > 0


def test_the_score_model_values_a_rogue_game_with_its_item() -> None:
    from preferans.bids import Bid
    from preferans.players.utility import ScoreModel
    from preferans.players.variants import rogue_table

    model = ScoreModel(SMALL, 1, dealer=0)
    table = rogue_table(SMALL, model, 1, Bid.parse("8H"), "8")
    assert table[8] > 0 > table[7]
    misere = rogue_table(SMALL, model, 1, Bid.parse("MISERE"), "MISERE")
    assert misere[0] > 0 > misere[1]


# --- Classical with four players: the soloist's invitation of the dealer ---------------------
def invitation_deal(soloist_hand: list[str]) -> Deal:
    rules = Rules.preset("classical-1971", players=4, dealer_share=True)
    rest = [c for c in _deck() if c not in soloist_hand]
    # D (seat 3) deals and sits out; A (seat 0), the first hand, is the first half's soloist
    hands = [soloist_hand, rest[0:10], rest[10:20], []]
    deal = Deal(rules, 3, hands, rest[20:22], rogue_lists=[["MISERE"]] * 4)
    deal.apply("MISERE")
    deal.apply("DISCARD " + " ".join(rest[20:22]))
    assert deal.phase is Phase.INVITE and deal.to_act == 0
    return deal


@pytest.mark.parametrize("level", LEVELS)
def test_a_clean_misere_plays_alone_a_hopeless_one_invites_and_the_dealer_declines(
        level: str) -> None:
    rules = Rules.preset("classical-1971", players=4, dealer_share=True)
    assert choose(level, rules, invitation_deal(CLEAN_MISERE).observation(0)) == "ALONE"
    deal = invitation_deal(["AS", "KS", "AC", "KC", "AD", "KD", "AH", "KH", "QH", "QS"])
    token = choose(level, rules, deal.observation(0))
    assert token == "INVITE"
    deal.apply(token)
    assert deal.to_act == 3
    assert choose(level, rules, deal.observation(3)) == "DECLINE"


def test_the_two_hand_search_is_exact_on_small_hands() -> None:
    # brute force over every order of play agrees with the search
    import random

    from preferans.players.twohand import two_hand_tricks

    def brute(a: int, b: int, a_leads: bool, trump: int | None, maximize: bool = True) -> int:
        a_best, b_best = (max, min) if maximize else (min, max)
        if not a:
            return 0
        lead, foll = (a, b) if a_leads else (b, a)
        results = []
        for i in [k for k in range(32) if lead >> k & 1]:
            suit = i >> 3
            same = foll & (0xFF << 8 * suit)
            trumps = foll & (0xFF << 8 * trump) if trump is not None else 0
            options = same or trumps or foll
            replies = []
            for j in [k for k in range(32) if options >> k & 1]:
                if j >> 3 == suit:
                    leader_wins = i > j
                else:
                    leader_wins = not (trump is not None and j >> 3 == trump)
                won = leader_wins == a_leads
                na, nb = (a & ~(1 << i), b & ~(1 << j)) if a_leads else (a & ~(1 << j),
                                                                           b & ~(1 << i))
                replies.append(won + brute(na, nb, won, trump, maximize))
            results.append(b_best(replies) if a_leads else a_best(replies))
        return a_best(results) if a_leads else b_best(results)

    rng = random.Random(5)
    for k in range(12):
        cards = rng.sample(range(32), 10)
        a = sum(1 << c for c in cards[:5])
        b = sum(1 << c for c in cards[5:])
        trump = rng.choice([0, 1, 2, 3, None])
        assert two_hand_tricks(a, b, k % 2 == 0, trump, guess=k % 4) == brute(
            a, b, k % 2 == 0, trump)
        assert two_hand_tricks(a, b, k % 2 == 0, trump, guess=k % 3, maximize=False) == brute(
            a, b, k % 2 == 0, trump, maximize=False)
    with pytest.raises(ValueError, match="two hands"):
        two_hand_tricks(1, 3, True, None)


def test_the_score_model_takes_classicals_second_half_pool_from_the_sheet() -> None:
    # the half-time leader's pool (sheet key pool_size) is the size the model's sheet fills
    from preferans.bids import Bid
    from preferans.players.utility import ScoreModel

    rules = Rules.preset("classical-1971")
    sheet = {"pool": [3, 0, 0], "mountain": [6, 8, 10], "whists": [[0] * 3] * 3,
             "pool_size": 4}
    model = ScoreModel(rules, 0, dealer=2, sheet=sheet)
    assert model.pool_size == 4
    assert ScoreModel(rules, 0, dealer=2, sheet={**sheet, "pool_size": "x"}).pool_size == 20
    table = model.contract_table(0, Bid.parse("7H"), whisters=(1,))
    assert table[7] > 0 > table[6]
