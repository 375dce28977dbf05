"""Issue 8: every structural variant played to the end by the computer players (Easy and
Normal; the short settings of ``test_variants``): no illegal action, a finished sheet whose
balances sum to zero, and a record that replays to the same sheet."""

from __future__ import annotations

import pytest

from preferans.game import Game
from preferans.players import make_player
from preferans.record import replay
from preferans.rules import VARIANTS, Rules
from test_variants import SHORT

LINEUPS = {2: ("normal", "easy"), 3: ("easy", "normal", "easy"), 4: ("normal", "easy", "easy",
                                                                      "normal")}


TABLES = [(name, VARIANTS[name].players) for name in sorted(VARIANTS)]
TABLES += [("classical-1971", 4), ("rogue-small", 4)]


@pytest.mark.parametrize(("name", "players"), TABLES, ids=[f"{n}-{p}" for n, p in TABLES])
def test_computer_players_finish_every_variant(name: str, players: int) -> None:
    extra = {"dealer_share": True} if (name, players) == ("classical-1971", 4) else {}
    rules = Rules.preset(name, players=players, **SHORT[name], **extra)
    n = rules.players
    names = [f"{level}{seat}" for seat, level in enumerate(LINEUPS[n])]
    bots = [make_player(level, rules, seed=seat) for seat, level in enumerate(LINEUPS[n])]
    game = Game(rules, names, seed=17)
    deals = 0
    while not game.finished:
        assert deals < 400, f"{name}: no end after 400 deals"
        game.start_deal()
        deals += 1
        while game.deal is not None:
            seat = game.deal.to_act
            assert seat is not None
            obs = game.observation(seat)
            token = bots[seat].choose(obs)
            assert token in obs["legal"], (name, seat, obs["phase"], token)
            game.apply(token)
    balance = game.sheet.balance()
    assert sum(balance) == 0
    assert replay(game.to_record()).sheet.balance() == balance
