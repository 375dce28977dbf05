"""Random solver positions for tests and benchmarks (seeded, reproducible)."""

from __future__ import annotations

import random

from preferans.solver.position import Position
from preferans.solver.reference import legal_cards, play

_NO_TRUMP = None


def random_position(
    rng: random.Random,
    per_hand: int,
    mode: str = "contract",
    *,
    trick_cards: int = 0,
    trump: int | str | None = "random",
    talon: int | str = "random",
) -> Position:
    """A random position with ``per_hand`` cards in each hand before ``trick_cards``
    random legal cards are played to the current trick.

    ``trump`` is a suit, ``None`` or ``"random"`` (contracts only).  ``talon``
    is the number of talon-led tricks (all-pass) or ``"random"``: with ten
    cards a hand the two cards left over are the talon and set the suits.
    """
    deck = list(range(32))
    rng.shuffle(deck)
    hands = []
    for seat in range(3):
        mask = 0
        for c in deck[seat * per_hand : (seat + 1) * per_hand]:
            mask |= 1 << c
        hands.append(mask)
    leader = rng.randrange(3)
    side = rng.randrange(3)
    if mode == "contract":
        if trump == "random":
            trump = rng.choice([0, 1, 2, 3, _NO_TRUMP])
    else:
        trump = None
    talon_leads: tuple[int, ...] = ()
    if mode == "allpass":
        if talon == "random":
            talon = rng.choice([0, 0, 1, 2]) if per_hand < 10 else 2
        talon = min(int(talon), per_hand)
        if per_hand == 10 and talon <= 2:
            rest = deck[30:32]
            talon_leads = tuple(c >> 3 for c in rest[:talon])
        else:
            talon_leads = tuple(rng.randrange(4) for _ in range(talon))
    pos = Position(
        hands=(hands[0], hands[1], hands[2]),
        leader=leader,
        trump=trump,  # type: ignore[arg-type]
        mode=mode,
        side=side,
        talon_leads=talon_leads,
    )
    for _ in range(min(trick_cards, 2)):
        if not pos.hands[pos.to_move]:
            break
        talon_suit = pos.talon_leads[0] if pos.talon_leads else None
        legal = legal_cards(pos.hands[pos.to_move], pos.trick, talon_suit, pos.trump)
        cards = [i for i in range(32) if legal >> i & 1]
        pos = play(pos, rng.choice(cards))
    return pos


def bridge_deal_pbn(rng: random.Random) -> str:
    """A random 4x8 bridge deal from the 7-A pack in PBN ("N:AKQJ.T98.. ...")."""
    ranks = "AKQJT987"
    cards = [(s, r) for s in range(4) for r in ranks]
    rng.shuffle(cards)
    hands = []
    for h in range(4):
        held = cards[h * 8 : (h + 1) * 8]
        hands.append(".".join("".join(r for r in ranks if (s, r) in held) for s in range(4)))
    return "N:" + " ".join(hands)
