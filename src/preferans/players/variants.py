"""The structural variants' own decisions: the Rogue's naming, the two-player defence with the
dummy, Classical's blind and hand bids, the POOL/HILL write choice.

Every decision here values its options with :class:`~preferans.players.utility.ScoreModel`
(the rules' own scoring) over a distribution of the declarer's trick counts.  Where those
counts come from is the level's business: a *profile* maps each strain (0..3 suits, 4 no
trump, ``"any"`` for a strain chosen after the talon, ``"misere"``) to weighted trick counts.
:func:`evaluation_profile` builds one from the hand evaluation (Easy, Normal); the Monte
Carlo player builds one by solving imagined deals (Hard, Crazy).

**The Rogue's naming** (:func:`rogue_scores`).  Every game of a list must be played once, so
naming one now also means not having it later.  An item's score is its expected value with
this hand *minus* what the item can expect later: the mean of the best of ``m`` random hands,
``m`` the deals left after this one per copy of the item.  Every item is measured against
the best hand it may still meet, so an item whose value climbs steeply with strength (a ten)
waits for a hand near the best, while a flat one (a six) takes any hand that makes it.  A
cold ten is named at once; a weak hand names the item that loses least against its future
(often misère or a six).

>>> from preferans.rules import Rules
>>> from preferans.cards import CardSet
>>> rules = Rules.preset("rogue-small")
>>> model = ScoreModel(rules, 1, dealer=0)
>>> hand = CardSet.parse("AS KS QS JS 10S 9S AH KH AD AC").mask
>>> legal = ["6S", "6C", "6D", "6H", "6NT", "TRICKS 7", "TRICKS 8", "TRICKS 9", "TRICKS 10",
...          "MISERE"]
>>> scores = rogue_scores(rules, model, 1, legal, evaluation_profile(hand),
...                       evaluation_baseline(rules), items_left=10)
>>> max(scores, key=scores.get)
'TRICKS 10'
"""

from __future__ import annotations

import contextlib
import math
import random
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from functools import cache
from typing import Any

from ..bids import MISERE, Bid
from ..cards import Suit
from ..outcome import DealOutcome
from ..rules import Rules
from .evaluation import contract_tricks, defence_tricks, misere_danger
from .utility import ScoreModel
from .view import SeatView

Profile = dict[Any, list[tuple[int, float]]]
"""Strain (0..4, ``"any"``, ``"misere"``) → the declarer's trick counts with weights."""

TALON_BONUS = 0.5
"""Tricks the two talon cards add to a ten-card estimate, on average (as the bidding's)."""
SPREAD = 1.1
"""Standard deviation, in tricks, of an evaluation estimate (the profile's spread)."""
BASELINE_HANDS = 240
"""Random hands behind the evaluation's baseline of each Rogue item."""
ALONE_MARGIN = 0.0
"""Whists ALONE must gain over OPEN to be chosen (ties open the dummy)."""
BLIND_TRAIL = 150
"""Blind bids: a player bids blind only when he trails the leading balance by this many
whists in the final lap of a Classical game (see :func:`blind_choice`)."""


# --- trick distributions -----------------------------------------------------------------------
def spread(estimate: float, sd: float = SPREAD) -> list[tuple[int, float]]:
    """A rough normal distribution of whole trick counts 0..10 around ``estimate``.

    >>> dist = spread(8.0)
    >>> round(sum(w for _, w in dist), 6), max(dist, key=lambda tw: tw[1])[0]
    (1.0, 8)
    """
    weights = []
    for t in range(11):
        lo = (t - 0.5 - estimate) / sd
        hi = (t + 0.5 - estimate) / sd
        if t == 0:
            lo = -math.inf
        if t == 10:
            hi = math.inf
        weights.append(_phi(hi) - _phi(lo))
    total = sum(weights)
    return [(t, w / total) for t, w in enumerate(weights) if w > 1e-9]


def _phi(x: float) -> float:
    if x == math.inf:
        return 1.0
    if x == -math.inf:
        return 0.0
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def misere_spread(danger: float) -> list[tuple[int, float]]:
    """Misère tricks as a Poisson count of mean ``danger`` (0 for a clean hand)."""
    lam = max(0.0, danger)
    out = []
    for t in range(11):
        out.append((t, math.exp(-lam) * lam ** t / math.factorial(t)))
    total = sum(w for _, w in out)
    return [(t, w / total) for t, w in out if w > 1e-12]


def evaluation_profile(hand: int, *, talon: bool = True) -> Profile:
    """The hand evaluation's profile of a ten-card hand (the talon to come when ``talon``)."""
    bonus = TALON_BONUS if talon else 0.0
    ests = {s: contract_tricks(hand, s) + bonus for s in range(5)}
    profile: Profile = {s: spread(e) for s, e in ests.items()}
    profile["any"] = spread(max(ests.values()))
    danger = misere_danger(hand) * (0.7 if talon else 1.0)
    profile["misere"] = misere_spread(danger)
    return profile


@cache
def _random_hands(count: int, seed: int = 20240) -> tuple[int, ...]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        cards = rng.sample(range(32), 10)
        out.append(sum(1 << c for c in cards))
    return tuple(out)


@cache
def _evaluation_baseline_profiles() -> tuple[Profile, ...]:
    return tuple(evaluation_profile(h) for h in _random_hands(BASELINE_HANDS))


def evaluation_baseline(rules: Rules) -> Sequence[Profile]:
    """Profiles of random hands, for what a Rogue item can expect later (evaluation)."""
    del rules
    return _evaluation_baseline_profiles()


# --- the Rogue ---------------------------------------------------------------------------------
def rogue_item(token: str) -> tuple[str, Bid, Any]:
    """A naming token's list item, the contract valued, and the profile key of its tricks.

    >>> rogue_item("TRICKS 8")[0], str(rogue_item("TRICKS 8")[1]), rogue_item("TRICKS 8")[2]
    ('8', '8S', 'any')
    >>> rogue_item("6NT")[2], rogue_item("MISERE")[2]
    (4, 'misere')
    """
    word = token.strip().upper()
    if word.startswith("TRICKS"):
        level = int(word.split()[1])
        return str(level), Bid(level, Suit.SPADES), "any"
    bid = Bid.parse(word)
    if bid.misere:
        return "MISERE", MISERE, "misere"
    return str(bid), bid, 4 if bid.trump is None else int(bid.trump)


def rogue_defence(rules: Rules, model: ScoreModel, declarer: int, contract: Bid
                  ) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """The forced defence of a Rogue game: its whisters and the calls the sheet shows."""
    defs = model.defenders(declarer)
    if contract.misere or not rules.is_whisted(contract):
        return (), ()
    if len(defs) == 1:
        return defs, ("WHIST",)
    if rules.rogue_defence == "both":
        return defs, ("WHIST", "WHIST")
    return defs[:1], ("WHIST", "PASS")


def rogue_table(rules: Rules, model: ScoreModel, declarer: int, contract: Bid, item: str
                ) -> Sequence[float]:
    """The soloist's value for each trick count 0..10 of a Rogue game (the defence forced)."""
    whisters, defence = rogue_defence(rules, model, declarer, contract)
    if contract.misere:
        return model.contract_table(declarer, contract, rogue_item=item)
    return model.contract_table(declarer, contract, whisters=whisters, defence=defence,
                                rogue_item=item, forced=bool(whisters))


def _expect(dist: Sequence[tuple[int, float]], table: Sequence[float]) -> float:
    total = sum(w for _, w in dist)
    return sum(w * table[t] for t, w in dist) / total if total else 0.0


def expected_best_of(values: Sequence[float], m: int) -> float:
    """The mean of the best of ``m`` draws from the empirical distribution ``values``.

    >>> expected_best_of([0.0, 1.0], 1), expected_best_of([0.0, 1.0], 2)
    (0.5, 0.75)
    """
    ordered = sorted(values)
    n = len(ordered)
    if not n:
        return 0.0
    total = 0.0
    for j, v in enumerate(ordered, start=1):
        total += v * ((j / n) ** m - ((j - 1) / n) ** m)
    return total


def rogue_scores(rules: Rules, model: ScoreModel, me: int, legal: Sequence[str],
                 profile: Profile, baseline: Sequence[Profile], items_left: int,
                 copies: Mapping[str, int] | None = None) -> dict[str, float]:
    """Each naming token's score: its value with this hand minus what it can expect later.

    ``items_left``: the games left on the soloist's list (this one included); ``copies``:
    how many times each item is still on it (the extra-large list has five misères).
    """
    scores: dict[str, float] = {}
    for token in legal:
        try:
            item, contract, key = rogue_item(token)
        except ValueError:
            continue
        table = rogue_table(rules, model, me, contract, item)
        now = _expect(profile[key], table)
        if items_left <= 1:
            scores[token] = now
            continue
        c = max(1, (copies or {}).get(item, 1))
        m = max(1, round((items_left - 1) / c))
        later = expected_best_of([_expect(p[key], table) for p in baseline], m)
        scores[token] = now - later
    return scores


def rogue_copies(view: SeatView) -> tuple[int, dict[str, int]]:
    """The games left on the soloist's list and how many times each item is on it."""
    items = [str(x) for x in view.extras.get("rogue_list") or []]
    copies: dict[str, int] = {}
    for it in items:
        copies[it] = copies.get(it, 0) + 1
    return max(1, len(items)), copies


def rogue_contract_options(view: SeatView) -> list[Bid] | None:
    """Rogue: the contracts the named game allows (``None`` outside the Rogue)."""
    item = view.extras.get("rogue_item")
    if not item or view.bid is None:
        return None
    if str(item).isdigit():
        level = int(item)
        return [Bid(level, None if s == 4 else Suit(s)) for s in range(5)]
    return [view.bid]


# --- two players: the defence with the dummy --------------------------------------------------
def two_player_values(rules: Rules, model: ScoreModel, view: SeatView,
                      open_tricks: Sequence[tuple[int, float]],
                      alone_tricks: Sequence[tuple[int, float]] | None) -> dict[str, float]:
    """Two players: the other player's expected result for each call against the contract.

    ``open_tricks``: the declarer's tricks against the whister with the dummy opened;
    ``alone_tricks``: against the whister alone (``None`` where ALONE is not allowed).
    ``WHIST`` is worth the better of the two ways to defend when ALONE is allowed.
    """
    contract = view.contract
    declarer = view.declarer
    assert contract is not None and declarer is not None
    me = view.seat
    out: dict[str, float] = {}
    table_open = model.contract_table(declarer, contract, whisters=(me,))
    out["OPEN"] = _expect(open_tricks, table_open)
    if alone_tricks is not None:
        table_alone = model.contract_table(declarer, contract, whisters=(me,), alone=True)
        out["ALONE"] = _expect(alone_tricks, table_alone)
    out["WHIST"] = max(out["OPEN"], out.get("ALONE", -math.inf))
    out["PASS"] = model.unplayed_value(declarer, contract)
    out["HALF"] = model.unplayed_value(declarer, contract, half_whister=me)
    return out


def alone_allowed(rules: Rules, contract: Bid | None) -> bool:
    """Whether a two-player whister may defend ALONE against this contract."""
    return bool(rules.dummy_lone_whist and contract is not None and not contract.misere
                and contract.level in (6, 7))


def alone_profile(hand: int, trump: int | None, level: int) -> list[tuple[int, float]]:
    """The declarer's tricks against a lone whister, from the whister's hand evaluation.

    Two hands play, so a defender's top card wins against one card, not two: his sure tricks
    count a little more than with three hands.  As with the dummy (see
    :func:`open_profile_estimate`), a declarer is taken to hold about what he bid.
    """
    mine = defence_tricks(hand, trump) * 1.15
    return spread(min(10.0, max(float(level) - 0.3, 10.0 - mine)), sd=1.0)


def open_profile_estimate(hand: int, trump: int | None, level: int
                          ) -> list[tuple[int, float]]:
    """The declarer's tricks against the whister and the unseen dummy, by evaluation: the
    whister's tricks plus a dummy's average share, capped by a declarer's usual strength
    (he bid ``level``)."""
    mine = defence_tricks(hand, trump) + DUMMY_AVERAGE
    declarer = max(float(level) - 0.3, 10.0 - mine)
    return spread(min(10.0, declarer), sd=1.0)


DUMMY_AVERAGE = 0.9
"""Tricks an unseen dummy's hand adds to the whister's, on average (evaluation players)."""


def choose_two_player(values: Mapping[str, float], legal: Sequence[str]) -> str:
    """The call with the best value; ties go to PASS, then HALF, then OPEN."""
    order = ["PASS", "HALF", "OPEN", "WHIST", "ALONE"]
    upper = {t.upper(): t for t in legal}
    cands = [k for k in upper if k in values]
    if not cands:
        return legal[0]
    best = max(cands, key=lambda k: (round(values[k], 6), -order.index(k)))
    return upper[best]


# --- Classical: blind bids and hand bids ------------------------------------------------------
def blind_choice(view: SeatView, rules: Rules) -> str:
    """A bidder who has not looked yet: ``SEE``, or a blind bid when the sheet makes it worth it.

    The rule (deliberately rare): bid the lowest blind bid offered only in the final lap of a
    Classical game when this player trails the best balance by at least :data:`BLIND_TRAIL`
    whists — a doubled game is then the cheapest way to catch up, and there is little time
    left for anything else.  A blind pass (which doubles the all-pass and writes bombs) is
    never chosen.  Otherwise the player looks at his cards (``SEE``).
    """
    legal = view.legal
    upper = [t.upper() for t in legal]
    sheet = view.sheet or {}
    classical = sheet.get("classical") or {}
    balance = sheet.get("balance")
    blind_bids = [t for t in legal if t.upper().startswith("BLIND ") and t.upper() != "BLIND PASS"]
    if blind_bids and classical.get("final_lap") and balance and view.seat < len(balance):
        try:
            values = [float(Fraction(str(b))) for b in balance]
        except (ValueError, ZeroDivisionError):
            values = []
        if values and max(values) - values[view.seat] >= BLIND_TRAIL:
            return min(blind_bids, key=lambda t: Bid.parse(t.split(maxsplit=1)[1]).step)
    if "SEE" in upper:
        return legal[upper.index("SEE")]
    if "PASS" in upper:
        return legal[upper.index("PASS")]
    return next((t for t in legal if t.upper() != "BLIND PASS"), legal[0])


def hand_bids(legal: Sequence[str]) -> list[tuple[Bid | None, str]]:
    """The hand bids (``9S HAND``, ``MISERE HAND``) among the legal calls, cheapest first."""
    out: list[tuple[Bid | None, str]] = []
    for t in legal:
        words = t.upper().split()
        if len(words) == 2 and words[1] == "HAND":
            try:
                out.append((Bid.parse(words[0]), t))
            except ValueError:
                continue
    out.sort(key=lambda bt: bt[0].step if bt[0] is not None else 99)
    return out


def hand_bid_choice(legal: Sequence[str], make_level: Callable[[int], float],
                    clean_misere: Callable[[], float], *, confidence: float = 0.7
                    ) -> str | None:
    """The hand bid to call, or ``None``: a ``n HAND`` bid when the hand makes ``n`` without
    the talon with probability ``confidence`` (``make_level(n)``), ``MISERE HAND`` when the
    misère is clean without the talon that often (``clean_misere()``)."""
    for bid, token in hand_bids(legal):
        if bid is None:
            continue
        if bid.misere:
            if clean_misere() >= confidence:
                return token
        elif make_level(bid.level) >= confidence:
            return token
    return None


def evaluation_make(hand: int, level: int) -> float:
    """The evaluation's chance that a ten-card hand makes ``level`` without the talon."""
    best = max(contract_tricks(hand, s) for s in range(5))
    return sum(w for t, w in spread(best) if t >= level)


def evaluation_clean(hand: int) -> float:
    """The evaluation's chance of a clean misère without the talon."""
    return math.exp(-misere_danger(hand))


def misere_contract_ok(view: SeatView) -> bool:
    """After a blind win the contract may be MISERE: only with a clean-looking hand."""
    return misere_danger(view.hand) < 0.3


def nameable_contracts(view: SeatView) -> tuple[str | None, list[tuple[Bid, str]]]:
    """The contracts the declarer may name, as ``(bid, token)``, and the token already chosen
    when there is nothing to weigh: misère when it is the only contract, or when a blind
    winner may name it and the hand suits it (otherwise the options leave misère out)."""
    options = []
    for t in view.legal:
        with contextlib.suppress(ValueError):
            options.append((Bid.parse(t), t))
    if options and all(b.misere for b, _ in options):
        return options[0][1], options
    if any(b.misere for b, _ in options):
        if misere_contract_ok(view):
            return next(t for b, t in options if b.misere), options
        options = [(b, t) for b, t in options if not b.misere]
    return None, options


# --- Classical: the soloist's invitation of the sitting dealer -----------------------------------
def invite_choice(view: SeatView, model: ScoreModel,
                  tricks: Sequence[tuple[int, float]] | None = None) -> str:
    """``ALONE`` or ``INVITE`` (the soloist of a misère or a ten), ``DECLINE`` or ``ACCEPT``
    (the invited dealer).

    Sharing halves the soloist's result whatever it is, so a soloist who values the game by
    its expectation invites exactly when he expects to lose: the expected value of the game
    over ``tricks`` (the declarer's trick counts; by default from the hand evaluation) is
    below zero.  The dealer, who sees none of the soloist's cards, reads the invitation as
    that very admission and declines.
    """
    legal = view.legal
    upper = {t.upper(): t for t in legal}
    if "DECLINE" in upper:
        return upper["DECLINE"]
    contract, declarer = view.contract, view.declarer
    if contract is None or declarer is None or "ALONE" not in upper or "INVITE" not in upper:
        return legal[0]
    if tricks is None:
        if contract.misere:
            tricks = misere_spread(misere_danger(view.hand))
        else:
            trump = 4 if contract.trump is None else int(contract.trump)
            tricks = spread(contract_tricks(view.hand, trump))
    table = model.contract_table(declarer, contract)
    return upper["INVITE"] if _expect(tricks, table) < 0 else upper["ALONE"]


# --- POOL or HILL -------------------------------------------------------------------------------
def write_choice(view: SeatView, rules: Rules) -> str:
    """``POOL`` or ``HILL``: where this player's points are worth more.

    Both outcomes are scored on the sheet the player sees (the immediate settlement, with any
    Racing bonus they trigger; Racing's balance counts a mountain point at once and a pool
    point only through the bonuses).  Beyond that, a Racing pool point is progress towards the
    round's first full pool (``racing_bonuses[0]`` whists from each other player) while the
    round's race is open, and a point off the mountain towards its smallest mountain
    (``racing_bonuses[1]``): each worth the bonus × (players − 1) / (2 × pool) per point.
    Ties go to the pool.
    """
    legal = view.legal
    upper = {t.upper(): t for t in legal}
    if "POOL" not in upper or "HILL" not in upper:
        return legal[0]
    model = ScoreModel(rules, view.seat, dealer=view.dealer, sheet=view.sheet,
                       allpass_streak=view.allpass_streak, racing_pools=False)
    n = rules.players
    outcome = _write_outcome(view, rules)
    if outcome is None:
        return upper["POOL"]
    pool_points = _points(rules, outcome, view.seat, view.allpass_streak)
    mountain = model.mountain_of(view.seat)
    off = max(Fraction(0), min(pool_points, mountain))
    v_pool = model.value(outcome)
    v_hill = model.value(_with_off_hill(outcome, view.seat))
    if rules.racing_rounds:
        first_bonus, hill_bonus = rules.racing_bonuses
        per = (n - 1) / (2 * max(1, rules.pool))
        race_open = not model.round_filled()
        v_pool += float(pool_points) * first_bonus * per * (1.0 if race_open else 0.25)
        v_hill += float(off) * hill_bonus * per
    return upper["HILL"] if v_hill > v_pool + 1e-9 else upper["POOL"]


def _with_off_hill(outcome: DealOutcome, seat: int) -> DealOutcome:
    from dataclasses import replace

    return replace(outcome, off_hill=(*outcome.off_hill, seat))


def _write_outcome(view: SeatView, rules: Rules) -> DealOutcome | None:
    """The deal's outcome as the sheet will read it (the others' choices taken as POOL):
    a game nobody whisted or a trickless all-pass (Racing), or any game whose pool points
    overflow (VMK's ``pool_overflow_choice``)."""
    n = rules.players
    kind = view.kind
    tricks = list(view.tricks_won[:n]) if view.tricks_won else [0] * n
    if view.dummy is not None and len(view.tricks_won) > n:
        extra = view.tricks_won[view.dummy]
        if extra and view.declarer is not None:
            other = 1 - view.declarer
            tricks[other] += extra
    if kind == "allpass":
        return DealOutcome("allpass", view.dealer, n, tricks=tuple(tricks))
    if view.declarer is None or view.contract is None:
        return None
    calls = tuple(t.upper() for _, t in view.defence)
    if kind == "passed":
        calls = calls or (("PASS",) if n == 2 else ("PASS", "PASS"))
        return DealOutcome("passed", view.dealer, n, view.declarer, view.contract,
                           defence=calls, tricks=(0,) * n)  # type: ignore[arg-type]
    if kind in ("contract", "misere", "halfwhist"):  # VMK: a game whose points overflow
        whisters = tuple(s for s, t in view.defence if t.upper() == "WHIST")
        half = next((s for s, t in view.defence if t.upper() == "HALF"), None)
        played = kind != "halfwhist"
        return DealOutcome(
            kind, view.dealer, n, view.declarer, view.contract,  # type: ignore[arg-type]
            defence=calls if kind != "misere" else (),  # type: ignore[arg-type]
            whisters=whisters if kind == "contract" else (),
            half_whister=half if kind == "halfwhist" else None,
            open_defence=view.open_defence if len(whisters) == 1 else None,
            tricks=tuple(tricks) if played else (0,) * n,
        )
    return None


def _points(rules: Rules, outcome: DealOutcome, seat: int, streak: int) -> Fraction:
    from ..scoring import score_deal

    try:
        score = score_deal(rules, outcome, streak)
    except ValueError:
        return Fraction(0)
    return Fraction(score.pool[seat])
