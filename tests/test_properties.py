"""Property tests over random legal games of three and four players played to the end."""

import json
import random
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from preferans.actions import Action, ActionKind
from preferans.cards import FULL_MASK, Card
from preferans.deal import Deal, Phase
from preferans.game import Game
from preferans.record import read_record, replay, write_record
from preferans.rules import Rules

SETTINGS = settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def rules_strategy(players: int):
    return st.builds(
        lambda preset, stalingrad, reopen, wph, tens, before, mbefore: Rules.preset(
            preset,
            players=players,
            pool=2,
            stalingrad=stalingrad,
            half_whist_reopen=reopen,
            whist_pass_half_whist=wph,
            tens_whisted=tens,
            open_before_lead=before,
            misere_exposure=mbefore,
        ),
        st.sampled_from(["sochi", "leningrad", "rostov", "guide"]),
        st.booleans(), st.booleans(), st.booleans(), st.booleans(), st.booleans(),
        st.sampled_from(["after_lead", "after_declarer_lead", "before_lead"]),
    )


def an_illegal_action(deal: Deal, rng: random.Random) -> Action | None:
    """Some action that is not legal now (a card not playable, a bid out of place...)."""
    legal = {str(a) for a in deal.legal_actions()}
    pool = [Action.parse(t) for t in ("PASS", "WHIST", "HALF", "OPEN", "CLOSED", "6S", "MISERE")]
    pool += [Action(ActionKind.PLAY, cards=(Card.from_index(rng.randrange(32)),))]
    candidates = [a for a in pool if str(deal.interpret(a)) not in legal]
    return rng.choice(candidates) if candidates else None


def check_deal(deal: Deal) -> None:
    played = deal.kind in ("contract", "misere", "allpass")
    masks = [c.mask for h in deal.initial_hands for c in h] + [c.mask for c in deal.talon]
    assert len(masks) == 32 and sum(masks) == FULL_MASK  # 32 distinct cards
    o = deal.outcome()
    if played:
        assert len(deal.tricks) == 10 and sum(o.tricks) == 10
        cards = [c for t in deal.tricks for _, c in t.cards]
        assert len(set(cards)) == len(cards)
    else:
        assert deal.tricks == [] and sum(o.tricks) == 0


def play_game(rules: Rules, seed: int) -> Game:
    rng = random.Random(seed)
    game = Game(rules, seed=seed, first_dealer=seed % rules.players)
    for _ in range(5000):
        if game.finished:
            break
        if game.deal is None:
            game.start_deal()
        deal = game.deal
        assert deal is not None
        if rng.random() < 0.1:
            bad = an_illegal_action(deal, rng)
            if bad is not None:
                before = deal.tokens()
                assert deal.why_illegal(bad) is not None
                try:
                    game.apply(bad)
                except ValueError:
                    pass
                else:
                    raise AssertionError(f"illegal {bad} accepted in {deal.phase}")
                assert deal.tokens() == before
        actor = deal.to_act
        obs = deal.observation(actor)
        json.dumps(obs)
        legal = deal.legal_actions()
        assert obs["legal"] == [str(a) for a in legal] and legal
        # bias the auction towards passing so that contracts are modest and all-passes occur
        if deal.phase is Phase.AUCTION and rng.random() < 0.5:
            action = legal[-1]
        else:
            action = rng.choice(legal)
        game.apply(str(action) if rng.random() < 0.5 else action)
        if game.deal is None:
            check_deal(game.finished_deals[-1])
    assert game.finished, "game did not finish"
    return game


def check_game(game: Game) -> None:
    balance = game.sheet.balance()
    assert sum(balance, Fraction(0)) == 0
    rec = json.loads(json.dumps(write_record(game)))
    again = replay(read_record(rec))
    assert again.sheet.to_json() == game.sheet.to_json()
    assert write_record(again) == rec


@SETTINGS
@given(rules=rules_strategy(3), seed=st.integers(0, 10**6))
def test_random_three_player_games(rules, seed):
    check_game(play_game(rules, seed))


@SETTINGS
@given(rules=rules_strategy(4), seed=st.integers(0, 10**6))
def test_random_four_player_games(rules, seed):
    check_game(play_game(rules, seed))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([3, 4]))
def test_observations_never_show_hidden_cards(seed, players):
    rng = random.Random(seed)
    deal = Deal.shuffle(Rules.preset("sochi", players=players), seed % players, rng)
    while not deal.done:
        for seat in range(players):
            obs = deal.observation(seat)
            visible = set(obs["hand"])
            for cards in obs["exposed"].values():
                visible |= set(cards)
            for seat_other in range(players):
                if seat_other == seat or str(seat_other) in obs["exposed"]:
                    continue
                if deal.controller(seat_other) == seat:
                    continue
                hidden = {str(c) for c in deal.hand(seat_other)}
                assert not hidden & visible
                if deal.phase is Phase.PLAY:
                    assert not hidden & set(obs["legal"])
        deal.apply(rng.choice(deal.legal_actions()))
