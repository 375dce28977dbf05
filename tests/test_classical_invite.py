"""Classical 1971, four players: the soloist's invitation of the dealer (``dealer_share``).

000 (Classical, "Soloist's declaration"): "The soloist can invite the dealer to share profit
or losses equally in high risk hands like misere."  000 (the general text): "Some allow the
soloist to invite the dealer in high risk games like misere when four play. If dealer accepts
the invitation, he/she shares profit or losses equally with the soloist."

Seats A=0, B=1, C=2, D=3; D deals, so A is the soloist and D the sitting dealer.  Game value
10 for a ten and for misère; the pool is 20; a mountain point is worth ten whists at
settlement.  Sheets are worked by hand in the comments: pool / mountain (hill) per seat,
whists as "X→Y n" (X writes n on Y), balances as 10 × (average hill − own hill) + whists
written − whists against, a hill counting the points still missing from its pool.
"""

from __future__ import annotations

import inspect
import random
from fractions import Fraction

import pytest

from preferans import rules as rules_module
from preferans.actions import Action, ActionKind, IllegalAction
from preferans.bids import Bid
from preferans.cards import Card
from preferans.deal import Deal, Phase
from preferans.game import Game
from preferans.outcome import DealOutcome
from preferans.players import RandomPlayer
from preferans.record import RecordError, replay
from preferans.rules import Rules, RulesError
from preferans.scoring import ScoringError
from preferans.sheet import Sheet

SHARE = Rules.preset("classical-1971", players=4, dealer_share=True)
PLAIN = Rules.preset("classical-1971", players=4)


def second_half(rules: Rules = SHARE, mountain=(0, 0, 0, 0)) -> Sheet:
    """A four-player sheet in the second half, the compulsory hands far ahead."""
    sheet = Sheet(rules, "ABCD")
    sheet.rogue_lists = [[] for _ in range(4)]
    sheet.stage = "second half"
    sheet.compulsory_hands = 32
    sheet.mountain = [Fraction(m) for m in mountain]
    return sheet


def misere(taken: int, *, shared: bool, invited: bool | None = None,
           talon=("7S", "8D")) -> DealOutcome:
    """A's misère, D dealing; A takes ``taken`` tricks, B and C the rest."""
    rest = 10 - taken
    return DealOutcome("misere", 3, 4, 0, Bid.parse("MISERE"), (), (), None, None,
                       (taken, rest - rest // 2, rest // 2, 0),
                       talon=tuple(Card.parse(c) for c in talon),
                       invited=shared if invited is None else invited, dealer_shared=shared)


def ten(taken: int, *, shared: bool) -> DealOutcome:
    """A's unwhisted 10♠ (Classical checks a ten, as a misère), D dealing."""
    rest = 10 - taken
    return DealOutcome("contract", 3, 4, 0, Bid.parse("10S"), (), (), None, None,
                       (taken, rest, 0, 0), talon=(Card.parse("7S"), Card.parse("8D")),
                       invited=shared, dealer_shared=shared)


def to_invite(rules: Rules = SHARE, seed: int = 5, contract: str = "MISERE") -> Deal:
    """A second-half style deal (no blind bidding), D dealing: A buys the talon with
    ``contract`` (or 10♠ declared after a 6♠), B and C pass, A discards and names it."""
    deal = Deal.shuffle(rules, 3, random.Random(seed))
    bid = "MISERE" if contract == "MISERE" else "6S"
    for token in (bid, "PASS", "PASS"):
        deal.apply(token)
    deal.apply(deal.legal_actions()[0])  # a discard
    deal.apply(contract)
    return deal


def tokens(deal: Deal) -> list[str]:
    return [str(a) for a in deal.legal_actions()]


def play_out(deal: Deal) -> None:
    while not deal.done:
        deal.apply(deal.legal_actions()[0])


# --- the sentence, the option, the phase -----------------------------------------------------


def test_the_rules_quote_the_classical_invitation():
    # 000's sentence (the rules texts are not part of the repository, so not read here)
    sentence = ("The soloist can invite the dealer to share profit or losses equally in high "
                "risk hands like misere.")
    source = " ".join(inspect.getsource(rules_module).split())
    assert sentence[:-1] in source  # quoted where the option is described
    # off by default, and in the preset (three players by default); on for four
    assert not Rules.preset("sochi").dealer_share
    assert not Rules.preset("classical-1971").dealer_share
    assert Rules.from_json(SHARE.to_json()) == SHARE
    assert SHARE.to_json()["dealer_share"] is True


def test_three_players_cannot_share_with_a_dealer():
    with pytest.raises(RulesError, match=r"dealer_share needs four players .* not 3"):
        Rules.preset("classical-1971", dealer_share=True)
    with pytest.raises(RulesError, match=r"dealer_share needs four players .* not 2"):
        Rules.preset("two-player", dealer_share=True)
    with pytest.raises(RulesError, match="must be true or false"):
        Rules.preset("classical-1971", players=4, dealer_share="yes")


def test_misere_and_tens_are_the_high_risk_hands():
    # "high risk hands like misere": misère and every ten-trick game (the games without
    # whisters), not the whisted games from six to nine
    offered = {b: SHARE.invitation_offered(Bid.parse(b))
               for b in ("MISERE", "10S", "10NT", "9NT", "8H", "6S")}
    assert offered == {"MISERE": True, "10S": True, "10NT": True, "9NT": False, "8H": False,
                       "6S": False}
    assert not PLAIN.invitation_offered(Bid.parse("MISERE"))


def test_the_soloist_answers_alone_or_invite_then_the_dealer_decline_or_accept():
    deal = to_invite()
    assert deal.phase is Phase.INVITE and deal.to_act == 0 and deal.kind == "misere"
    assert tokens(deal) == ["ALONE", "INVITE"]  # ALONE first: the default
    obs = deal.observation(0)
    assert obs["phase"] == "invite" and obs["legal"] == ["ALONE", "INVITE"]
    assert obs["invitation"] == {"invited": False, "dealer_shared": False}
    assert deal.observation(3)["legal"] == [] and deal.observation(3)["phase"] == "invite"
    assert deal.exposed == ()  # the defenders' hands are shown only once the game goes on
    deal.apply("INVITE", 0)
    assert deal.phase is Phase.INVITE and deal.to_act == 3
    assert tokens(deal) == ["DECLINE", "ACCEPT"]  # DECLINE first: no risk not weighed
    assert deal.observation(3)["invitation"] == {"invited": True, "dealer_shared": False}
    assert deal.observation(1)["invitation"]["invited"] is True  # everyone hears it
    deal.apply("ACCEPT", 3)
    assert deal.phase is Phase.PLAY and deal.dealer_shared and deal.to_act == 0
    assert deal.observation(2)["invitation"] == {"invited": True, "dealer_shared": True}
    play_out(deal)
    out = deal.outcome()
    assert out.invited and out.dealer_shared and out.kind == "misere"
    assert deal.tokens()[4:7] == ["MISERE", "INVITE", "ACCEPT"]


def test_alone_and_a_declined_invitation_play_the_game_as_named():
    deal = to_invite()
    deal.apply("ALONE")
    assert deal.phase is Phase.PLAY and not deal.invited
    play_out(deal)
    assert not deal.outcome().invited and not deal.outcome().dealer_shared
    declined = to_invite()
    declined.apply("INVITE")
    declined.apply("DECLINE")
    assert declined.phase is Phase.PLAY
    play_out(declined)
    assert declined.outcome().invited and not declined.outcome().dealer_shared
    ten_deal = to_invite(contract="10S")
    assert ten_deal.phase is Phase.INVITE and tokens(ten_deal) == ["ALONE", "INVITE"]
    nine = to_invite(contract="9S")
    assert nine.phase is Phase.DEFENCE  # a whisted game: no invitation


def test_wrong_tokens_in_the_invitation_say_seat_phase_and_reason():
    deal = to_invite()
    with pytest.raises(IllegalAction) as exc:
        deal.apply("ACCEPT")
    text = str(exc.value)
    assert text.startswith("seat 0 (A) cannot say ACCEPT in invite:")
    assert "plays ALONE or may INVITE the dealer" in text
    with pytest.raises(IllegalAction, match=r"seat 3 \(D\) cannot say INVITE in invite: "
                                            r"it is seat 0's turn"):
        deal.apply("INVITE", 3)
    deal.apply("INVITE")
    assert deal.why_illegal("ALONE") == ("the soloist invited the dealer to share his game "
                                         "half and half: the dealer says DECLINE or ACCEPT")
    with pytest.raises(IllegalAction, match=r"seat 0 \(A\) cannot say ACCEPT in invite: "
                                            r"it is seat 3's turn"):
        deal.apply("ACCEPT", 0)
    assert Action.parse("invite").kind is ActionKind.INVITE
    assert str(Action.parse(" accept ")) == "ACCEPT" and str(Action.parse("Decline")) == "DECLINE"
    # the tokens mean nothing outside the invitation
    other = Deal.shuffle(SHARE, 3, random.Random(1))
    with pytest.raises(IllegalAction, match=r"seat 0 \(A\) cannot say INVITE in auction"):
        other.apply("INVITE")


def test_option_off_the_phase_never_appears():
    deal = to_invite(PLAIN)
    assert deal.phase is Phase.PLAY and "invitation" not in deal.observation(0)
    assert deal.why_illegal("INVITE") is not None
    rng = random.Random(3)
    for seed in range(40):
        d = Deal.shuffle(PLAIN, seed % 4, random.Random(seed))
        while not d.done:
            assert d.phase is not Phase.INVITE
            d.apply(rng.choice(d.legal_actions()))
        assert not d.outcome().invited
    # an outcome that claims an invitation where the rules have none is refused
    with pytest.raises(ScoringError, match="only the soloist of a misère or a ten"):
        second_half(PLAIN).record(misere(0, shared=True))
    with pytest.raises(ScoringError, match="only the soloist of a misère or a ten"):
        second_half().record(DealOutcome("contract", 3, 4, 0, Bid.parse("9S"), ("WHIST", "PASS"),
                                         (1,), None, False, (9, 1, 0, 0), dealer_shared=True,
                                         invited=True))
    with pytest.raises(ScoringError, match="only when the soloist invited him"):
        second_half().record(misere(0, shared=True, invited=False))


# --- the sheet, by hand ------------------------------------------------------------------------


def test_shared_misere_made_splits_the_pool_and_the_half_off_the_hill():
    # A's misère made (value 10), D shared: 5 each.  Classical writes half of a made game
    # off the hill, half in the pool: A (hill 20) 2.5 off, 2.5 pool; D (hill 2) 2.5 off as
    # far as it goes, 2 off, 3 pool.  Pools 2.5 / 0 / 0 / 3, hills 17.5 / 0 / 0 / 0.
    # Balance: hills with the missing pool 35, 20, 20, 17 (average 23):
    # A 10 × (23 − 35) = −120, B 30, C 30, D 60; before: 40, 20, 20, 22 (average 25.5):
    # −145, 55, 55, 35.  Changes +25, −25, −25, +25: A and D alike, summing to zero.
    sheet = second_half(mountain=(20, 0, 0, 2))
    before = sheet.balance()
    entry = sheet.record(misere(0, shared=True))
    assert sheet.pool == [Fraction(5, 2), 0, 0, 3]
    assert sheet.mountain == [Fraction(35, 2), 0, 0, 0]
    assert all(w == 0 for row in sheet.whists for w in row)
    assert sheet.balance() == [-120, 30, 30, 60] and sum(sheet.balance()) == 0
    assert [a - b for a, b in zip(sheet.balance(), before, strict=True)] == [25, -25, -25, 25]
    assert entry.balance_change == [25, -25, -25, 25]
    assert "D shared A's game half and half" in entry.summary
    assert "D wrote 2 off the mountain" in entry.summary
    js = entry.to_json()
    assert js["invited"] is True and js["dealer_shared"] is True
    # alone, A would have had +75 and D −25: the pair's +50 is the same, split equally
    alone = second_half(mountain=(20, 0, 0, 2))
    assert alone.record(misere(0, shared=False)).balance_change == [75, -25, -25, -25]


def test_shared_misere_failed_splits_the_hill_and_the_talon_prize_cancels():
    # A's misère fails with 2 tricks: 10 × 2 = 20 on the hill; the talon A♠ K♠ (ace and king
    # of one suit, two tricks) makes D write 2 × 10 = 20 whists on A.  Shared: hills 10 and
    # 10; D's prize on his partner cancels.  Hills with the missing pool 30, 20, 20, 30
    # (average 25): A −50, B +50, C +50, D −50.
    # Alone: A's hill 40 (average 25): A −150 − 20 = −170, B 50, C 50, D 50 + 20 = 70; the
    # pair's −100 is the same, shared equally.
    sheet = second_half()
    entry = sheet.record(misere(2, shared=True, talon=("AS", "KS")))
    assert sheet.mountain == [10, 0, 0, 10] and sheet.pool == [0, 0, 0, 0]
    assert all(w == 0 for row in sheet.whists for w in row)
    assert sheet.balance() == [-50, 50, 50, -50]
    assert entry.whists[3][0] == 0 and entry.outcome.dealer_shared
    alone = second_half()
    entry = alone.record(misere(2, shared=False, talon=("AS", "KS")))
    assert alone.whists[3][0] == 20 and alone.mountain == [20, 0, 0, 0]
    assert alone.balance() == [-170, 50, 50, 70] and "declined" not in entry.summary


def test_shared_ten_failed_splits_the_undertrick_prizes():
    # A's 10♠ (checked, no whist) fails by 2: 20 on A's hill; B, C and the sitting dealer D
    # each write 20 whists on A.  Shared: hills 10 and 10; B and C write 10 on A and 10 on D;
    # D's 20 on his partner cancels.  Hills 30, 20, 20, 30 (average 25):
    # A −50 − 20 = −70, B 50 + 20 = 70, C 70, D −70.  Sum zero.
    sheet = second_half()
    entry = sheet.record(ten(8, shared=True))
    assert sheet.mountain == [10, 0, 0, 10]
    assert sheet.whists == [[0, 0, 0, 0], [10, 0, 0, 10], [10, 0, 0, 10], [0, 0, 0, 0]]
    assert sheet.balance() == [-70, 70, 70, -70]
    assert entry.balance_change == [-70, 70, 70, -70]
    # made: 10 to share, 5 each, half of that off an empty hill is nothing: pools 5 and 5
    made = second_half()
    made.record(ten(10, shared=True))
    assert made.pool == [5, 0, 0, 5] and made.mountain == [0, 0, 0, 0]


def test_a_declined_invitation_scores_as_the_game_alone():
    shared_not = second_half()
    entry = shared_not.record(misere(2, shared=False, invited=True, talon=("AS", "KS")))
    alone = second_half()
    alone.record(misere(2, shared=False, talon=("AS", "KS")))
    assert shared_not.to_json()["balance"] == alone.to_json()["balance"] == [-170, 50, 50, 70]
    assert shared_not.mountain == alone.mountain and shared_not.whists == alone.whists
    assert "D declined A's invitation" in entry.summary
    assert entry.to_json()["invited"] is True and entry.to_json()["dealer_shared"] is False
    assert "invited" not in alone.entries[0].to_json()


def test_a_shared_game_beyond_the_second_half_limit_splits_its_half_game_point():
    # second_half_limit: a successful second-half game beyond the compulsory hands writes
    # half its game point on the soloist's hill; shared, the game point is the pair's 10
    # (5 each), its half 5 goes 2.5 on each hill.  The made misère's own half-off-the-hill
    # comes first: the hills are empty, so each pool takes 5.
    sheet = second_half()
    sheet.compulsory_hands = 0
    entry = sheet.record(misere(0, shared=True))
    assert sheet.pool == [5, 0, 0, 5]
    assert sheet.mountain == [Fraction(5, 2), 0, 0, Fraction(5, 2)]
    assert "(+5 mountain, shared with D)" in entry.summary


# --- whole games ---------------------------------------------------------------------------------


def test_first_half_misere_shared_through_the_game_and_its_record():
    # the first half's compulsory misère is a high-risk hand too
    game = Game(SHARE, seed=4)
    deal = game.start_deal()
    soloist, dealer = deal.to_act, deal.dealer
    assert deal.phase is Phase.NAME and "MISERE" in tokens(deal)
    game.apply("MISERE")
    game.apply(deal.legal_actions()[0])  # the discard; the misère is named in full
    assert deal.phase is Phase.INVITE and deal.to_act == soloist
    game.apply("INVITE")
    assert deal.to_act == dealer
    game.apply("ACCEPT")
    while game.deal is not None:
        game.apply(deal.legal_actions()[0])
    entry = game.sheet.entries[-1]
    assert entry.outcome.dealer_shared and entry.outcome.rogue_item == "MISERE"
    assert game.sheet.rogue_lists[soloist].count("MISERE") == 0
    assert game.sheet.rogue_lists[dealer].count("MISERE") == 1  # his own list is untouched
    assert entry.pool[soloist] == entry.pool[dealer]
    assert entry.mountain[soloist] == entry.mountain[dealer]
    assert entry.pool[soloist] + entry.mountain[soloist] != 0
    assert sum(game.sheet.balance()) == 0
    record = game.to_record()
    assert record["deals"][0]["actions"][2:4] == ["INVITE", "ACCEPT"]
    again = replay(record)
    assert again.sheet.to_json() == game.sheet.to_json()
    # the same record without the option does not replay, and says why
    record["rules"] = PLAIN.to_json()
    with pytest.raises(RecordError, match=r"deal 1, action 3 \(INVITE\), seat \d \(\w\), "
                                          r"phase play: a card must be played"):
        replay(record)


def _play_games(rules: Rules, chooser: str, seeds: range) -> dict[str, int]:
    seen = {"offered": 0, "invited": 0, "shared": 0}
    for seed in seeds:
        rng = random.Random(seed)
        game = Game(rules, seed=seed, first_dealer=seed % 4)
        bots = [RandomPlayer(seed * 10 + s) for s in range(4)]
        for _ in range(30000):
            if game.finished:
                break
            deal = game.deal or game.start_deal()
            seat = deal.to_act
            obs = deal.observation(seat)
            legal_now, x = obs["legal"], rng.random()
            if deal.phase is Phase.INVITE and not deal.invited:
                seen["offered"] += 1
            if chooser == "first" or (deal.phase is Phase.CONTRACT and x < 0.9):
                token = legal_now[0]
            elif deal.phase is Phase.AUCTION and len(legal_now) > 1 and x < 0.5:
                token = legal_now[0]  # modest bids, so that games end
            elif deal.phase is Phase.AUCTION and x < 0.8 and "PASS" in legal_now:
                token = "PASS"
            else:
                token = bots[seat].choose(obs)
            game.apply(token, seat)
            if deal.done:
                seen["invited"] += deal.invited
                seen["shared"] += deal.dealer_shared
        assert game.finished and game.sheet.stage == "second half"
        assert sum(game.sheet.balance()) == 0
        for entry in game.sheet.entries:
            assert sum(entry.balance_change) == 0
        assert Game.from_record(game.to_record()).sheet.to_json() == game.sheet.to_json()
    return seen


def test_random_four_player_classical_games_with_the_invitation_to_the_end():
    rules = SHARE.replace(pool=6, final_lap_after=8)
    seen = _play_games(rules, "random", range(3))
    assert seen["offered"] and seen["invited"] and seen["shared"]
    assert seen["shared"] <= seen["invited"] <= seen["offered"]


def test_first_legal_players_never_invite_and_still_finish():
    rules = SHARE.replace(pool=6, final_lap_after=8)
    seen = _play_games(rules, "first", range(2))
    assert seen["offered"] and seen["invited"] == 0 and seen["shared"] == 0
