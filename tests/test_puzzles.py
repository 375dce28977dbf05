"""The puzzle engine: what matters under the rules, equivalent cards, the obvious card, the
judge and its line, on hand-made positions with known answers and on random ones."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from preferans.cards import Card
from preferans.puzzles.cardplay import equivalent_groups, legal
from preferans.puzzles.goal import Goal, Situation, goal_for
from preferans.puzzles.judge import judge
from preferans.puzzles.obvious import obvious_card
from preferans.puzzles.puzzle import build, canonical_key
from preferans.puzzles.themes import THEMES
from preferans.puzzles.verify import problems
from preferans.rules import Rules
from preferans.solver import Position, solve_moves

SOCHI = Rules.preset("sochi")


def names(cards: list[int]) -> list[str]:
    return [str(Card.from_index(c)) for c in cards]


def position(hands: list[list[str]], leader: int, mode: str, side: int,
             trump: str | None = None, trick: list[str] | None = None) -> Position:
    obj = {"hands": hands, "trick": trick or [], "leader": leader, "mode": mode, "trump": trump}
    obj["player" if mode == "allpass" else "declarer"] = side
    return Position.from_json(obj)


# -- a misère to catch: only the 8 of hearts, then the ace of spades unblocks ---------------

MISERE = position([["8S", "KS", "10H"], ["7S", "AS", "8H"], ["9S", "JS", "KH"]],
                  leader=1, mode="misere", side=0)
MISERE_SIT = Situation("misere", 0, 0, 1, (0, 4, 3), 3)


def test_a_misere_is_caught_only_by_leading_the_heart() -> None:
    # ♥8: partner's ♥K wins over the declarer's ♥10; partner leads ♠9, the leader unblocks
    # with ♠A and leads ♠7: the declarer's ♠K must win the last trick.  A spade lead lets
    # the declarer duck twice and discard the ♥10.
    v = judge(MISERE, MISERE_SIT, SOCHI)
    assert v.reason is None
    assert v.goal == Goal("catch", "at_least", 1, 0)
    assert names(v.solution) == ["8H"]
    assert {str(Card.from_index(c)): x for c, x in v.values.items()} == {
        "7S": 0, "AS": 0, "8H": 1}
    assert names([v.obvious]) == ["7S"]  # the lowest card: a catcher's rule of thumb
    line = [(s.seat, str(Card.from_index(s.card)), s.player) for s in v.line]
    # (♠9 and ♠J are one card in effect: the ♠10 is gone; the line shows a run's lowest)
    assert line == [(1, "8H", True), (2, "KH", True), (0, "10H", False),
                    (2, "9S", True), (0, "8S", False), (1, "AS", True),  # the unblock
                    (1, "7S", True), (2, "JS", True), (0, "KS", False)]
    assert v.line_end == "decided"
    puzzle = build(MISERE, MISERE_SIT, SOCHI, v, {"test": "misere"})
    assert puzzle["themes"] == ["misere-catching"]
    assert puzzle["alternatives"] == [{"cards": ["7S"], "value": 0, "cost": 1},
                                      {"cards": ["AS"], "value": 0, "cost": 1}]
    assert problems(puzzle) == []


# -- a contract made only by drawing trumps first --------------------------------------------

TRUMPS = position([["7C", "AC", "AH"], ["JS", "QC", "JH"], ["7S", "10S", "9H"]],
                  leader=0, mode="contract", side=0, trump="H")
TRUMPS_SIT = Situation("contract", 6, 0, 0, (4, 2, 1), 3)


def test_a_contract_is_made_only_by_drawing_trumps() -> None:
    # the declarer needs 2 of 3: ♥A draws both trumps, then ♣A; the obvious ♣A first is
    # ruffed by the ♥9 and the ♥A and ♣7 make only one more
    v = judge(TRUMPS, TRUMPS_SIT, SOCHI)
    assert v.reason is None
    assert v.goal == Goal("make", "at_least", 2, 0)
    assert names(v.solution) == ["AH"]
    assert names([v.obvious]) == ["AC"]
    assert v.values[Card.parse("AC").index] == 1
    puzzle = build(TRUMPS, TRUMPS_SIT, SOCHI, v, {"test": "trumps"})
    assert "trump-control" in puzzle["themes"]
    assert puzzle["goal"]["text"] == "make the contract: take 2 more tricks"
    assert problems(puzzle) == []


def test_a_position_whose_obvious_card_works_is_no_puzzle() -> None:
    pos = position([["AH", "QH", "7S"], ["KH", "8S", "9S"], ["10H", "JH", "8D"]],
                   leader=0, mode="contract", side=0)
    v = judge(pos, Situation("contract", 6, 0, 0, (4, 2, 1), 3), SOCHI)
    assert v.reason == "obvious" and names(v.solution) == ["AH"]


def test_two_cards_keep_the_goal_no_puzzle() -> None:
    pos = position([["9S", "8H", "7D"], ["10S", "7H", "8D"], ["KC", "QC", "JC"]],
                   leader=1, mode="misere", side=0)
    assert judge(pos, Situation("misere", 0, 0, 1, (0, 4, 3), 3), SOCHI).reason == "several"


# -- what matters under the rules ------------------------------------------------------------

def test_goals_follow_the_rules() -> None:
    decl = Situation("contract", 7, 0, 0, (3, 1, 1), 5)
    assert goal_for(decl, SOCHI, best=4) == Goal("make", "at_least", 4, 0)
    assert goal_for(decl, SOCHI, best=3) is None  # beyond reach: nothing to find
    defence = Situation("contract", 7, 0, 1, (3, 1, 1), 5)
    assert goal_for(defence, SOCHI, best=3) == Goal("defeat", "at_most", 3, 0)
    # cannot be defeated: the quota (2 for a 7 in Sochi) is owed, already 2 taken
    assert SOCHI.quota(7) == 2
    assert goal_for(defence, SOCHI, best=4) is None
    six = Situation("contract", 6, 0, 1, (4, 1, 1), 4)  # the defence owes 4, has 2
    assert goal_for(six, SOCHI, best=2) == Goal("quota", "at_most", 2, 0)
    responsible = Rules.preset("sochi").__class__.preset("sochi", shortage="none")
    assert goal_for(six, responsible, best=2) is None  # a shortage costs nothing there
    caught = Situation("misere", 0, 0, 1, (1, 2, 2), 5)
    assert goal_for(caught, SOCHI, best=2) is None
    allpass = Situation("allpass", 0, None, 2, (1, 2, 2), 5)
    assert goal_for(allpass, SOCHI, best=1) == Goal("fewest", "at_most", 1, 2)


def test_equivalent_cards_are_one_card() -> None:
    # K Q J of spades with the 10 gone: one run; the 8 separated by the 9 in another hand
    pos = position([["KS", "QS", "JS", "8S"], ["9S", "7H", "8H", "9H"],
                    ["10H", "JH", "QH", "KH"]], leader=0, mode="contract", side=0)
    groups = [names(g) for g in equivalent_groups(pos, legal(pos))]
    assert groups == [["8S"], ["JS", "QS", "KS"]]
    values = solve_moves(pos)
    for g in equivalent_groups(pos, legal(pos)):
        assert len({values[c] for c in g}) == 1


def test_obvious_card_rules_of_thumb() -> None:
    follow = position([["AS", "7S", "KH"], ["8H", "9H", "AH"], ["JH", "10H"]],
                      leader=2, mode="contract", side=0, trick=["QS"])
    # declarer following: wins as cheaply as it can
    assert names([obvious_card(follow, wants_tricks=True, partners=frozenset({0}))]) == ["AS"]
    duck = position([["AS", "7S", "KH"], ["8H", "9H", "AH"], ["JH", "10H"]],
                    leader=2, mode="misere", side=0, trick=["QS"])
    # misère declarer: the highest card that does not win
    assert names([obvious_card(duck, wants_tricks=False, partners=frozenset({0}))]) == ["7S"]


def test_canonical_key_ignores_suit_names_and_seat_turns() -> None:
    goal = Goal("catch", "at_least", 1, 0)
    swapped = position([["8C", "KC", "10D"], ["7C", "AC", "8D"], ["9C", "JC", "KD"]],
                       leader=1, mode="misere", side=0)
    assert canonical_key(MISERE, goal) == canonical_key(swapped, goal)
    other = position([["8C", "KC", "10D"], ["7C", "AC", "9D"], ["9C", "JC", "KD"]],
                     leader=1, mode="misere", side=0)
    assert canonical_key(MISERE, goal) != canonical_key(other, goal)


# -- properties on random endings --------------------------------------------------------------

@st.composite
def endings(draw: st.DrawFn) -> tuple[Position, Situation]:
    seed = draw(st.integers(0, 10**6))
    n = draw(st.integers(3, 4))
    kind = draw(st.sampled_from(["contract", "misere", "allpass"]))
    rng = random.Random(seed)
    cards = rng.sample(range(32), 3 * n)
    hands = tuple(sum(1 << c for c in cards[i * n:(i + 1) * n]) for i in range(3))
    leader = rng.randrange(3)
    trump = rng.choice([None, 0, 1, 2, 3]) if kind == "contract" else None
    side = leader if kind == "allpass" else rng.randrange(3)
    pos = Position(hands=hands, leader=leader, trump=trump, mode=kind, side=side)  # type: ignore[arg-type]
    others = 10 - n
    if kind == "contract":
        level = rng.choice([6, 7])
        dt = rng.randrange(0, others + 1)
        taken = [0, 0, 0]
        taken[side] = dt
        rest = others - dt
        taken[(side + 1) % 3] = rest // 2
        taken[(side + 2) % 3] = rest - rest // 2
        sit = Situation("contract", level, side, leader, tuple(taken), n)  # type: ignore[arg-type]
    elif kind == "misere":
        sit = Situation("misere", 0, side, leader, (0, 0, 0)[:0] + tuple(
            0 if s == side else (others // 2 if s == (side + 1) % 3 else others - others // 2)
            for s in range(3)), n)  # type: ignore[arg-type]
    else:
        sit = Situation("allpass", 0, None, leader, (others, 0, 0), n)
    return pos, sit


@settings(max_examples=150, deadline=None)
@given(endings())
def test_a_kept_position_has_exactly_one_card_and_checks(case: tuple[Position, Situation]
                                                         ) -> None:
    pos, sit = case
    v = judge(pos, sit, SOCHI)
    if v.reason is not None:
        return
    assert v.goal is not None
    values = solve_moves(pos)
    good = [g for g in equivalent_groups(pos, legal(pos)) if v.goal.meets(values[g[0]])]
    assert good == [v.solution]
    assert v.obvious not in v.solution
    assert v.line and v.line[0].player and v.line[0].card in v.solution
    puzzle = build(pos, sit, SOCHI, v, {"test": "property"})
    assert all(a["cost"] >= 1 for a in puzzle["alternatives"])
    assert set(puzzle["themes"]) <= set(THEMES)
    assert 1 <= puzzle["grade"] <= 5
    assert problems(puzzle) == []


def test_module_doctests() -> None:
    import doctest
    import importlib

    for name in ("cardplay", "goal", "obvious", "grade", "themes", "render", "levels",
                 "session"):
        module = importlib.import_module(f"preferans.puzzles.{name}")
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, name


@settings(max_examples=60, deadline=None)
@given(endings(), st.permutations([0, 1, 2, 3]), st.integers(0, 2))
def test_repeat_key_is_blind_to_suit_names_and_seat_turns(
        case: tuple[Position, Situation], perm: list[int], turn: int) -> None:
    pos, _ = case
    if pos.trump is not None:  # the trump suit keeps its name
        perm = [s if s == pos.trump else perm[s] for s in range(4)]
        free = [s for s in range(4) if s != pos.trump]
        targets = [perm[s] for s in free]
        if sorted(targets) != free:
            return
    def move(mask: int) -> int:
        return sum(1 << (perm[c >> 3] * 8 + (c & 7)) for c in range(32) if mask >> c & 1)
    hands = [move(h) for h in pos.hands]
    seats = [(s + turn) % 3 for s in range(3)]  # seat s becomes seat s + turn
    turned = [0, 0, 0]
    for s in range(3):
        turned[seats[s]] = hands[s]
    other = Position(hands=tuple(turned), leader=(pos.leader + turn) % 3, trump=pos.trump,  # type: ignore[arg-type]
                     mode=pos.mode, side=(pos.side + turn) % 3)
    goal = Goal("make", "at_least", 1, pos.side)
    moved = Goal("make", "at_least", 1, (pos.side + turn) % 3)
    assert canonical_key(pos, goal) == canonical_key(other, moved)
