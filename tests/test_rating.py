"""The rating (preferans.rating) on hand-made games, checked against OpenSkill's own numbers
computed here with the openskill package directly; the stand-in and two-seats rules."""

from __future__ import annotations

import random

import pytest
from openskill.models import PlackettLuce

from preferans.game import Game
from preferans.rating.games import rate_game, rated_seats, stand_in_shares
from preferans.rating.model import Rating, combine, ranks, rate_seats
from preferans.rating.seed import pairings, ratings_from_plays
from preferans.rules import Rules


def openskill_after(priors, ranks_):
    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in priors]
    return [(t[0].mu, t[0].sigma) for t in model.rate(teams, ranks=ranks_)]


@pytest.mark.parametrize("priors, balances, expected_ranks", [
    ([(25, 25 / 3)] * 3, [40.0, -10.0, -30.0], [1, 2, 3]),
    ([(30, 4), (20, 6), (25, 2)], [-12.5, 7.5, 5.0], [3, 1, 2]),
    ([(25, 8), (28, 3), (22, 5)], [10.0, 10.0, -20.0], [1, 1, 3]),  # a tie
    ([(25, 8), (28, 3), (22, 5), (31, 1.5)], [0.0, 30.0, -10.0, -20.0], [2, 1, 3, 4]),
])
def test_a_game_moves_ratings_as_openskill_does(priors, balances, expected_ranks):
    assert ranks(balances) == expected_ranks
    after = rate_seats([Rating(mu, s, 4) for mu, s in priors], balances)
    for mine, theirs in zip(after, openskill_after(priors, expected_ranks), strict=True):
        assert mine.mu == pytest.approx(theirs[0], abs=1e-12)
        assert mine.sigma == pytest.approx(theirs[1], abs=1e-12)
        assert mine.games == 5


def test_a_sequence_of_games_is_openskill_game_by_game():
    rng = random.Random(5)
    model = PlackettLuce()
    theirs = {name: model.rating() for name in "abcd"}
    plays = []
    for _ in range(30):
        lineup = rng.sample("abcd", 3)
        balance = [rng.choice([-20.0, 0.0, 10.0, 30.0]) for _ in lineup]
        plays.append({"lineup": lineup, "balance": balance})
        new = model.rate([[theirs[n]] for n in lineup], ranks=ranks(balance))
        for n, team in zip(lineup, new, strict=True):
            theirs[n] = team[0]
    mine = ratings_from_plays(plays)
    for name in "abcd":
        assert mine[name].mu == pytest.approx(theirs[name].mu, abs=1e-9)
        assert mine[name].sigma == pytest.approx(theirs[name].sigma, abs=1e-9)


def test_shown_as_mean_and_two_sigmas():
    r = Rating(27.43, 3.06, 7)
    assert r.shown() == "27.4 ± 6.1"
    assert r.low == pytest.approx(27.43 - 6.12)
    assert r.to_json()["high"] == pytest.approx(33.55)


def test_a_level_in_two_seats_is_one_holder_updated_once():
    seats = rated_seats(difficulty="normal", players=3, seats={"0": "me"}, friends=None,
                        record={"deals": []}, balance=[30.0, -10.0, -20.0])
    level = Rating(26.0, 2.0, 50)
    changes = {c.holder: c for c in rate_game(seats, {"level:normal": level})}
    assert set(changes) == {"me", "level:normal"}
    each = rate_seats([Rating(), level, level], [30.0, -10.0, -20.0])
    assert changes["me"].after == each[0]
    hard = changes["level:normal"].after
    assert hard.games == 51
    assert hard.mu == pytest.approx(26.0 + (each[1].mu - 26.0) + (each[2].mu - 26.0))
    assert hard.sigma < min(each[1].sigma, each[2].sigma)  # two seats' evidence
    assert combine(level, [each[1]]) == each[1]


def friends(seats, rated=True, stand_in="hard"):
    return {"seats": seats, "rated": rated, "stand_in": stand_in}


HUMAN = {"kind": "human", "name": "x"}


def played_record(stand_in_seat=None, share=1.0, deals=2, seed=3):
    """A real record of ``deals`` deals played by random moves; the stand-in made ``share``
    of ``stand_in_seat``'s decisions (marked in each deal as the table marks them)."""
    rules = Rules.preset("sochi")
    game = Game(rules, ["A", "B", "C"])
    rng = random.Random(seed)
    from preferans.match.pulya import game_deal_cards
    for k in range(deals):
        _, hands, talon = game_deal_cards(rules, seed, 0, k, game.dealer)
        game.start_deal(hands, talon)
        while game.deal is not None:
            game.apply(str(rng.choice(game.legal_actions())))
    record = game.to_record()
    total = 0
    for number, deal in enumerate(game.finished_deals):
        mine = [i for i, (s, _a) in enumerate(deal.history) if s == stand_in_seat]
        total += len(mine)
        record["deals"][number]["stand_in"] = mine[:round(len(mine) * share)]
    return record, total


def test_the_stand_in_share_is_read_from_the_record():
    record, total = played_record(stand_in_seat=1, share=0.5)
    shares = stand_in_shares(record)
    assert shares[1][1] == total and total > 0
    assert shares[1][0] == sum(len(d["stand_in"]) for d in record["deals"])
    assert shares[0][0] == 0 and shares[2][0] == 0


@pytest.mark.parametrize("share, counts", [(0.3, True), (0.5, True), (1.0, False)])
def test_a_seat_played_mostly_by_the_stand_in_does_not_count_for_its_human(share, counts):
    record, _ = played_record(stand_in_seat=1, share=share)
    by_stand_in, all_ = stand_in_shares(record)[1]
    seats = rated_seats(difficulty="friends", players=3, seats={"0": "ann", "1": "bob"},
                        friends=friends([HUMAN, HUMAN, {"kind": "computer", "level": "easy"}]),
                        record=record, balance=[5.0, 10.0, -15.0])
    bob = seats[1]
    assert bob.counts is (by_stand_in / all_ <= 0.5) is counts
    if not counts:
        assert bob.holder == "level:hard" and bob.why == "stand_in"  # the stand-in's level
        holders = {c.holder for c in rate_game(seats, {})}
        assert holders == {"ann", "level:easy"}  # neither bob nor the stand-in's level


def test_one_holder_in_two_seats_is_unrated_for_him_only():
    seats = rated_seats(difficulty="friends", players=3,
                        seats={"0": "ann", "1": "ann", "2": "cid"},
                        friends=friends([HUMAN, HUMAN, HUMAN]), record={"deals": []},
                        balance=[20.0, 10.0, -30.0])
    assert [(s.holder, s.counts, s.why) for s in seats] == [
        ("ann", False, "two_seats"), ("ann", False, "two_seats"), ("cid", True, "")]
    changes = rate_game(seats, {})
    assert [c.holder for c in changes] == ["cid"]
    # cid is rated against both of ann's seats as they stood
    assert changes[0].after == rate_seats([Rating()] * 3, [20.0, 10.0, -30.0])[2]


def test_unrated_tables_and_games():
    common = {"seats": {"0": "ann", "1": "bob"}, "record": {"deals": []}}
    two = [HUMAN, HUMAN, {"kind": "computer", "level": "easy"}]
    assert rated_seats(difficulty="friends", players=3, friends=friends(two, rated=False),
                       balance=[1.0, 2.0, -3.0], **common) == []
    assert rated_seats(difficulty="friends", players=3, friends={"seats": two},
                       balance=[1.0, 2.0, -3.0], **common) == []  # made before the choice
    assert rated_seats(difficulty="easy", players=2, friends=None, balance=[1.0, -1.0],
                       **common) == []
    assert rated_seats(difficulty="hard", players=3, friends=None, seats=None,
                       record={"deals": []}, balance=[1.0, 2.0, -3.0]) != []  # the level


def test_pairings_count_whole_games():
    assert pairings([["easy", "normal", "hard"], ["normal", "hard", "crazy"]]) == {
        "easy/normal": 1, "easy/hard": 1, "normal/hard": 2, "normal/crazy": 1,
        "hard/crazy": 1}


def test_a_new_player_path_is_openskill_against_the_seeded_levels():
    from preferans.rating.seed import new_player_path

    seeds = {"level:easy": Rating(18.0, 1.5), "level:hard": Rating(30.0, 1.2),
             "level:crazy": Rating(31.0, 1.3)}
    plays = [{"lineup": ["easy", "hard", "crazy"], "balance": [b, -b / 2, -b / 2]}
             for b in (20.0, -10.0, 5.0, -40.0)]
    plays.insert(1, {"lineup": ["normal", "hard", "crazy"], "balance": [1.0, 2.0, -3.0]})
    path = new_player_path(plays, "easy", seeds, games=3)
    model = PlackettLuce()
    me = model.rating()
    expected = []
    for play in [p for p in plays if "easy" in p["lineup"]][:3]:
        teams = [[me], [model.rating(mu=30.0, sigma=1.2)], [model.rating(mu=31.0, sigma=1.3)]]
        me = model.rate(teams, ranks=ranks(play["balance"]))[0][0]
        expected.append((me.mu, me.sigma))
    assert [x for r in path for x in (r.mu, r.sigma)] == pytest.approx(
        [x for pair in expected for x in pair])
    assert [r.games for r in path] == [1, 2, 3]


def test_seed_data_counts_pairings_and_rates_the_plays_in_order():
    from preferans.rating.seed import LEVELS, seed_data

    plays = [{"game": g, "lineup": lineup, "balance": balance, "deals": 12, "finished": True,
              "cpu_s": 1.0}
             for g in range(2)
             for lineup, balance in ((["easy", "normal", "hard"], [-30.0, 10.0, 20.0]),
                                     (["normal", "hard", "crazy"], [0.0, -10.0, 10.0]))]
    data = seed_data(plays, pool=10, seed=0, workers=1, wall_s=2.0)
    assert data["duplicate_games_per_lineup"] == 2 and data["whole_games"] == 4
    assert data["games_per_pairing"]["normal/hard"] == 4
    assert "easy/crazy" not in data["games_per_pairing"]  # they never sat together
    expected = ratings_from_plays(plays)
    for level in LEVELS:
        assert data["ratings"][level]["mu"] == round(expected[level].mu, 3)
    assert data["ratings"]["easy"]["mu"] < data["ratings"]["hard"]["mu"]


def test_the_seed_command_refuses_bad_numbers():
    from typer.testing import CliRunner

    from preferans.cli import app

    result = CliRunner().invoke(app, ["rating", "seed", "--games", "0"])
    assert result.exit_code == 2 and "at least 1" in result.output


def test_a_deleted_accounts_seat_updates_nobody():
    seats = rated_seats(difficulty="friends", players=3, seats={"0": "gone", "1": "bob"},
                        friends=friends([HUMAN, HUMAN, {"kind": "computer", "level": "easy"}]),
                        record={"deals": []}, balance=[5.0, 10.0, -15.0])
    assert (seats[0].counts, seats[0].why) == (False, "unclaimed")
    assert {c.holder for c in rate_game(seats, {})} == {"bob", "level:easy"}


def test_a_resumed_seed_keeps_the_earlier_games_and_plays_only_the_missing_ones():
    from preferans.rating.seed import play_seed_games, seed_data

    plays = [{"game": 0, "lineup": lineup, "balance": balance, "deals": 12, "finished": True,
              "cpu_s": 1.0}
             for lineup, balance in ((["easy", "normal", "hard"], [-30.0, 10.0, 20.0]),
                                     (["normal", "hard", "crazy"], [0.0, -10.0, 10.0]))]
    earlier = seed_data(plays, pool=10, seed=0, workers=1, wall_s=2.0)
    again = play_seed_games(1, pool=10, seed=0, workers=1, earlier=earlier)  # nothing to play
    assert again["plays"] == earlier["plays"] and again["ratings"] == earlier["ratings"]
    assert again["wall_seconds"] >= 2.0
    with pytest.raises(ValueError, match="pool 10 with seed 0, not pool 20"):
        play_seed_games(2, pool=20, seed=0, workers=1, earlier=earlier)


def test_the_seed_figures_count_head_to_head_in_the_same_games():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
    from rating_seed_figures import head_to_head

    plays = [{"lineup": ["easy", "normal", "hard"], "balance": [-30.0, 10.0, 20.0]},
             {"lineup": ["hard", "crazy", "normal"], "balance": [5.0, -10.0, 5.0]},
             {"lineup": ["easy", "hard", "crazy"], "balance": [0.0, 0.0, 0.0]}]
    assert head_to_head(plays, "normal", "hard") == {
        "games": 2, "above": 0, "below": 1, "ties": 1, "gap": -5.0}
    assert head_to_head(plays, "normal", "crazy")["games"] == 1
