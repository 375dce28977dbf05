"""A small terminal game: you at seat 0 against computer players choosing random legal actions.

A stop-gap until the web game lands (``preferans play`` will then start the
server).  Input and output are injectable so that tests can drive it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .display import hand_line
from .game import Game
from .rules import Rules


def describe(obs: dict[str, Any]) -> str:
    """A few lines on what seat 0 sees now."""
    from .cards import CardSet

    names = obs["players"]
    lines = [f"phase: {obs['phase']}   your hand: {hand_line(CardSet.parse(obs['hand']))}"]
    if obs["auction"]:
        lines.append("auction: " + ", ".join(f"{names[s]} {t}" for s, t in obs["auction"]))
    if obs["contract"]:
        lines.append(f"contract: {names[obs['declarer']]} {obs['contract']}")
    if obs["talon"]:
        lines.append("talon: " + " ".join(obs["talon"]))
    for seat, cards in obs["exposed"].items():
        lines.append(f"{names[int(seat)]} (face up): {' '.join(cards)}")
    if obs["trick"]:
        lines.append("trick: " + ", ".join(f"{names[s]} {c}" for s, c in obs["trick"]))
    won = zip(names, obs["tricks_won"], strict=True)
    lines.append("tricks: " + ", ".join(f"{n} {t}" for n, t in won))
    return "\n".join(lines)


def play_terminal(
    rules: Rules,
    *,
    seed: int = 0,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> Game:
    """Play a whole game and return it.

    Type an action token, ``?`` for the legal ones, ``q`` to quit.
    """
    names = ("You", "Misha", "Lena") if rules.players == 3 else ("You", "Misha", "Lena", "Oleg")
    game = Game(rules, names, seed=seed)
    bots = random.Random(seed)
    while not game.finished:
        if game.deal is None:
            deal = game.start_deal()
            write(f"\n--- new deal, dealer {game.players[deal.dealer]} ---")
        deal = game.deal
        assert deal is not None
        seat = deal.to_act
        if seat != 0:
            action = bots.choice(deal.legal_actions())
            shown = "discards two cards" if str(action).startswith("DISCARD") else str(action)
            write(f"{game.players[seat]}: {shown}")
            game.apply(action)
            continue
        obs = deal.observation(0)
        write(describe(obs))
        while True:
            token = read("your action (? for the legal ones, q to quit): ").strip()
            if token.lower() in ("q", "quit", "exit"):
                write("bye")
                return game
            if token in ("?", ""):
                write("legal: " + " ".join(obs["legal"]))
                continue
            reason = deal.why_illegal(token)
            if reason is None:
                game.apply(token)
                break
            write(f"not allowed: {reason}")
        if game.deal is None:
            entry = game.sheet.to_json()
            write(f"deal over. pool {entry['pool']}, mountain {entry['mountain']}, "
                  f"balance {entry['balance']}")
    write("game over")
    return game
