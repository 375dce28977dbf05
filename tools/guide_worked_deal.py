"""Search for the rules guide's worked deal (guide §12) and write its record.

The guide tells a story that the cards must fit, sentence by sentence:

- seats A, B, C = 0, 1, 2; C deals, so A is first hand and leads trick 1;
- the auction is the guide's step example: A 6♠, B 6♣, C pass, A "6♣ here",
  B 6♦, A "6♦ here", B 6♥, A "6♥ here", B pass;
- the talon is A♥ 9♣; A discards 7♣ and 8♦ and declares 7♥; B and C whist;
- B wins tricks 3, 4 and 8 (so leads tricks 4, 5 and 9), C wins none,
  A wins the other seven: the result is A 7, B 3, C 0;
- A really can take seven tricks after the discard (double dummy: exactly 7),
  and B holds the diamonds and hearts that made him bid up to 6♥.

The search deals random hands that satisfy the hand constraints, keeps those
whose double-dummy value for A at 7♥ is exactly seven, then looks for a play
with the trick winners above in which as few cards as possible give away a trick
double dummy, preferring natural cards (win cheaply, otherwise play low).  A small
pure-Python double-dummy solver is enough for one ten-card deal.  The chosen deal
is then replayed through the engine's :class:`preferans.deal.Deal`, which checks
every action (``tests/test_guide.py`` does the same on the stored record).

Run:  .venv/bin/python tools/guide_worked_deal.py [--seed N] [--tries N] [--write]
``--write`` stores the best deal found as ``src/preferans/guide/worked_deal.json``.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path

from preferans.cards import Card, CardSet, Suit, mask_indices

AUCTION = ["6S", "6C", "PASS", "6C", "6D", "6D", "6H", "6H", "PASS"]
DEFENCE = ["DISCARD 7C 8D", "7H", "WHIST", "WHIST"]
TALON = [Card.parse("AH"), Card.parse("9C")]
DISCARD = CardSet.parse("7C 8D")
TRUMP = int(Suit.HEARTS)
DECLARER = 0
WINNERS = [0, 0, 1, 1, 0, 0, 0, 1, 0, 0]  # who wins tricks 1..10
OUT = Path(__file__).resolve().parents[1] / "src" / "preferans" / "guide" / "worked_deal.json"

SUIT_MASKS = [0xFF << (8 * s) for s in range(4)]


# --- a small double-dummy solver (three hands, declarer seat 0) --------------------------------
def legal_mask(hand: int, led: int | None) -> int:
    """Cards of ``hand`` that may be played when ``led`` is the suit led (None: leading)."""
    if led is None:
        return hand
    follow = hand & SUIT_MASKS[led]
    if follow:
        return follow
    trumps = hand & SUIT_MASKS[TRUMP]
    return trumps or hand


def representatives(options: int, present: int) -> list[int]:
    """One card from each run of cards adjacent among the ``present`` cards."""
    reps = []
    for index in mask_indices(options):
        below = index - 1
        # skip when the next lower present card of the suit is also ours (same run)
        while below >= (index & ~7) and not present >> below & 1:
            below -= 1
        if below >= (index & ~7) and options >> below & 1:
            continue
        reps.append(index)
    return reps


def trick_winner(cards: list[tuple[int, int]]) -> int:
    led = cards[0][1] >> 3
    best_seat, best = cards[0]
    for seat, index in cards[1:]:
        suit, bsuit = index >> 3, best >> 3
        if (suit == bsuit and index > best) or (suit == TRUMP and bsuit != TRUMP):
            best_seat, best = seat, index
    del led
    return best_seat


_BOUNDS: dict[tuple[tuple[int, int, int], int], tuple[int, int]] = {}


def can_make(hands: tuple[int, int, int], leader: int, need: int) -> bool:
    """Whether the declarer can take ``need`` more tricks from a trick's start."""
    if need <= 0:
        return True
    if need > hands[0].bit_count():
        return False
    key = (hands, leader)
    lo, hi = _BOUNDS.get(key, (0, hands[0].bit_count()))
    if lo >= need:
        return True
    if hi < need:
        return False
    result = can_make_mid(hands, leader, (), need)
    _BOUNDS[key] = (max(lo, need), hi) if result else (lo, min(hi, need - 1))
    return result


def can_make_mid(
    hands: tuple[int, int, int], leader: int, trick: tuple[tuple[int, int], ...], need: int
) -> bool:
    """Whether the declarer can take ``need`` more tricks, ``trick`` already begun."""
    if len(trick) == 3:
        winner = trick_winner(list(trick))
        return can_make(hands, winner, need - (winner == DECLARER))
    seat = (leader + len(trick)) % 3
    led = trick[0][1] >> 3 if trick else None
    present = hands[0] | hands[1] | hands[2]
    for _, index in trick:
        present |= 1 << index
    options = representatives(legal_mask(hands[seat], led), present)
    declarer = seat == DECLARER
    for index in reversed(options):
        new = list(hands)
        new[seat] &= ~(1 << index)
        result = can_make_mid(tuple(new), leader, (*trick, (seat, index)), need)
        if result == declarer:
            return result
    return not declarer


def dd_mid(hands: tuple[int, int, int], leader: int, trick: tuple[tuple[int, int], ...]) -> int:
    """The declarer's tricks from here (the current trick included) with best play by all."""
    value = 0
    while can_make_mid(hands, leader, trick, value + 1):
        value += 1
    return value


def dd(hands: tuple[int, int, int], leader: int) -> int:
    """The declarer's tricks from a trick's start with best play by all."""
    return dd_mid(hands, leader, ())


dd.cache_clear = _BOUNDS.clear  # type: ignore[attr-defined]


# --- the hands ----------------------------------------------------------------------------------
def count(mask: int, suit: int) -> int:
    return (mask & SUIT_MASKS[suit]).bit_count()


def has(mask: int, token: str) -> bool:
    return bool(mask & Card.parse(token).mask)


def plausible(a: int, b: int, c: int) -> bool:
    """The story: A strong in hearts, B diamonds and hearts, C weak; A holds 7♣ 8♦."""
    if not (has(a, "7C") and has(a, "8D")):
        return False
    if count(a, TRUMP) < 4 or not has(a, "KH"):
        return False
    aces_a = sum(has(a, f"A{s}") for s in "SCD")
    if aces_a < 2:
        return False
    if count(b, 2) < 4 or not (has(b, "AD") and has(b, "KD")):
        return False
    if count(b, TRUMP) < 2 or not (has(b, "JH") or has(b, "QH")):
        return False
    return sum(has(c, f"A{s}") for s in "SCDH") <= 1


def random_deal(rng: random.Random) -> tuple[int, int, int]:
    """Random hands around the story's key cards (A: 7♣ 8♦ K♥ Q♥, B: A♦ K♦ J♥)."""
    fixed = [CardSet.parse("7C 8D KH QH").mask, CardSet.parse("AD KD JH").mask, 0]
    used = fixed[0] | fixed[1] | TALON[0].mask | TALON[1].mask
    rest = [card for card in CardSet.full() if not used & card.mask]
    rng.shuffle(rest)
    hands = []
    for mask in fixed:
        take = 10 - mask.bit_count()
        hands.append(mask | CardSet(rest[:take]).mask)
        rest = rest[take:]
    return hands[0], hands[1], hands[2]


def after_discard(a: int) -> int:
    return (a | TALON[0].mask | TALON[1].mask) & ~DISCARD.mask


# --- the play -----------------------------------------------------------------------------------
def natural(seat: int, trick: tuple[tuple[int, int], ...], index: int) -> int:
    """How unnatural a card is (lower first): lead high; second and third hand win as
    cheaply as they can unless the partner already wins; otherwise play low."""
    if not trick:
        return -index
    winner, best = trick[0]
    for s, i in trick[1:]:
        if trick_winner([(winner, best), (s, i)]) == s:
            winner, best = s, i
    partner_wins = seat != DECLARER and winner != DECLARER
    beats = trick_winner([(winner, best), (seat, index)]) == seat
    if beats and not partner_wins:
        return index  # the cheapest winning card first
    return 100 + (index & 7) + (50 if index >> 3 == TRUMP else 0)


def find_play(
    start: tuple[int, int, int], max_mistakes: int, budget: int = 200_000
) -> list[int] | None:
    """Cards (indices) of a play with the guide's trick winners in which at most
    ``max_mistakes`` cards change the double-dummy value; ``None`` if there is none
    (or the search gives up after ``budget`` positions)."""
    failed: set[tuple] = set()
    nodes = 0

    def search(hands, leader, trick, done, left):
        nonlocal nodes
        if done == 10:
            return []
        if len(trick) == 3:
            winner = trick_winner(list(trick))
            if winner != WINNERS[done]:
                return None
            return search(hands, winner, (), done + 1, left)
        key = (hands, leader, trick, left)
        if key in failed:
            return None
        nodes += 1
        if nodes > budget:
            return None
        seat = (leader + len(trick)) % 3
        led = trick[0][1] >> 3 if trick else None
        here = dd_mid(hands, leader, trick)
        present = hands[0] | hands[1] | hands[2]
        for _, index in trick:
            present |= 1 << index
        options = []
        for index in representatives(legal_mask(hands[seat], led), present):
            new = list(hands)
            new[seat] &= ~(1 << index)
            value = dd_mid(tuple(new), leader, (*trick, (seat, index)))
            options.append((int(value != here), natural(seat, trick, index), index, tuple(new)))
        options.sort()
        for cost, _, index, new in options:
            if cost > left:
                continue
            rest = search(new, leader, (*trick, (seat, index)), done, left - cost)
            if rest is not None:
                return [index, *rest]
        failed.add(key)
        return None

    return search(start, 0, (), 0, max_mistakes)


def show_play(play: list[int]) -> None:
    for t in range(10):
        cards = play[3 * t : 3 * t + 3]
        print(f"   {t + 1:2}: " + " ".join(Card.from_index(i).symbol for i in cards))


def engine_check(hands: list[CardSet], play: list[str]) -> list[int]:
    """Replay the deal through the engine; return the tricks won per seat."""
    from preferans.deal import Deal, Phase
    from preferans.rules import Rules

    deal = Deal(Rules.preset("guide"), 2, hands, TALON)
    for token in [*AUCTION, *DEFENCE, *play]:
        deal.apply(token)
    assert deal.phase is Phase.DONE, deal.phase
    return list(deal.tricks_won)


def compact_json(obj: object) -> str:
    """JSON with every list of strings on one line, for a record people can read."""
    text = json.dumps(obj, indent=2)
    text = re.sub(
        r"\[\s*((?:\"[^\"]*\",?\s*)+)\]",
        lambda m: "[" + ", ".join(re.findall(r'"[^"]*"', m.group(1))) + "]",
        text,
    )
    return text + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tries", type=int, default=200000)
    parser.add_argument("--want", type=int, default=5, help="deals to collect")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    found = []
    for _ in range(args.tries):
        a, b, c = random_deal(rng)
        if not plausible(a, b, c):
            continue
        start = (after_discard(a), b, c)
        dd.cache_clear()
        if dd(start, 0) != 7:
            continue
        for mistakes in range(3):
            play = find_play(start, mistakes)
            if play is not None:
                break
        if play is None:
            continue
        found.append((mistakes, a, b, c, play))
        print(f"mistakes {mistakes}: A {CardSet(a)} | B {CardSet(b)} | C {CardSet(c)}")
        show_play(play)
        if len(found) >= args.want:
            break
    if not found:
        print("nothing found", file=sys.stderr)
        return 1
    mistakes, a, b, c, play = min(found, key=lambda f: f[0])
    hands = [CardSet(a), CardSet(b), CardSet(c)]
    tokens = [str(Card.from_index(i)) for i in play]
    try:
        won = engine_check(hands, tokens)
        print("engine replay: tricks", won)
    except ImportError:
        print("engine not available: not checked")
    if args.write:
        record = {
            "format": "preferans-record/1",
            "rules": {"preset": "guide"},
            "players": ["A", "B", "C"],
            "deals": [{
                "dealer": 2,
                "hands": [h.to_list() for h in hands],
                "talon": [str(t) for t in TALON],
                "actions": [*AUCTION, *DEFENCE, *tokens],
            }],
        }
        OUT.write_text(compact_json(record), encoding="utf-8")
        print("wrote", OUT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
