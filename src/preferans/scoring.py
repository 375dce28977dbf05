"""What one deal is worth: the scoring rules of the pulya, before the pool is closed.

:func:`score_deal` turns a :class:`~preferans.outcome.DealOutcome` into a
:class:`DealScore`: pool points earned (not yet closed, see
:mod:`preferans.sheet`), mountain (гора) points, and whists (висты) written, under
the options of a :class:`~preferans.rules.Rules`.  It is pure: the only sheet state
it needs is how many all-passes (распасы) came in a row before this deal.

>>> from preferans.bids import Bid
>>> from preferans.outcome import DealOutcome
>>> from preferans.rules import Rules
>>> made = DealOutcome("contract", dealer=2, declarer=0, contract=Bid.parse("7H"),
...                    defence=("WHIST", "WHIST"), whisters=(1, 2), tricks=(7, 2, 1))
>>> score = score_deal(Rules.preset("sochi"), made)
>>> [int(p) for p in score.pool], [[int(w) for w in row] for row in score.whists]
([4, 0, 0], [[0, 0, 0], [8, 0, 0], [4, 0, 0]])

The conventions, by option (Sochi in brackets):

- made contract: the value ``v`` to the pool, no overtricks.  Failed: ``v × undertricks ×
  mountain_scale`` to the mountain, and every other player (passer and a four-player dealer
  included) writes ``consolation_per_undertrick`` (or ``v × whist_scale``) per undertrick.
- trick whists: each whister writes ``v × whist_scale`` per trick of his own; a lone whister
  writes the tricks of both defending hands (``greedy``), or, when the contract fails, shares
  them half and half with the passer (``gentlemanly``).
- responsibility: if the defence takes fewer than its quota, two whisters each answer for
  half of it (against 6 and 7), against 8+ the second whister answers for the missing trick
  (``responsible_at_8plus="second"``) or both share it; a lone whister answers for the whole
  quota.  The missing tricks cost ``v × missing × mountain_scale`` (``full``), half of that
  (``half``), or half of it in the mountain plus half of ``v × missing × whist_scale`` as
  whists the declarer writes on the short whister (``half_mountain_half_whists``).
- passed out: ``v`` to the pool.  Half-whist: ``v`` to the pool and the half-whister writes
  ``v × whist_scale × half_whist_tricks``.  A half-whist overturned by a reopening whist
  leaves the half-whister with nothing: the reopening whister takes the whole defence, and
  with it the half-whister's consolation (001 §08) and, in gentlemanly whist, his share.
- misère: ``misere_value`` to the pool, or ``misere_value × tricks × mountain_scale`` to the
  mountain; no whists, no consolation.
- all-pass: stake ``s = allpass_stake(n)`` for the ``n``-th all-pass in a row.  With
  ``allpass_amnesty`` the smallest trick count is first subtracted from everyone.
  ``mountain`` scoring: ``tricks × allpass_trick_points × s`` to each mountain.  ``whists``
  scoring (Rostov): the player(s) with the fewest tricks write ``allpass_trick_points × s``
  per trick of each other player on him (tied lowest players share equally, all equal: no
  whists).  A player who genuinely took no trick earns ``allpass_zero_pool`` pool points
  (not multiplied by the stake).  With four players the dealer takes part with the tricks
  his talon cards won when the talon leads (``allpass_talon="lead"``); with a closed talon
  he holds no cards and takes no part.
- undertrick prizes from a passer (``consolation_passer``): the passer writes his own
  (``passer``), nobody writes it (``none``, Kazakhstan) or the lone whister writes it on top
  of his own (``whister``, Finn).
- over-greedy whist (``over_greedy``): each whister writes only his own tricks and owes a
  personal quota (2 against a 6, else 1) whatever his partner took.  With
  ``over_greedy_two_only`` that holds only when both defenders whist; a lone whister is an
  ordinary greedy one.
- resigned (``resignation``): ``v × 3 × mountain_scale`` to the mountain, nothing else.
- talon prizes (``talon_prizes``), for every deal with a declarer: the talon's quick tricks
  (an ace or K-Q of one suit 1, A-K of one suit 2, two aces 3) are written on declarer as
  10 whists each by a four-player dealer, or 5 each by both defenders with three
  (``whists``, Rostov); a refused talon costs declarer 10 whists on the dealer or 5 on each
  defender.  ``tricks`` (Finn, four players): the dealer writes that many tricks at
  ``v × whist_scale``.
- a four-player dealer who whists (``dealer_whist``) is a lone whister of both defending
  hands; his gentlemanly whist shares with nobody.
- a four-player dealer who accepted the soloist's invitation (``dealer_share``) shares the
  deal half and half with him (:func:`share_with_dealer`).

House options (:data:`preferans.rules.HOUSE_OPTIONS`, off in every preset):

- ``shortage="none"`` (non-responsible whist): a short whister pays nothing, is not counted
  as penalised (``short``), and still writes his trick whists.
- ``responsible_at_8plus="each"``: against 8+ with two whisters each owes half the quota
  rounded up (one trick) of his own, whatever the defence took together.
- ``allpass_zero_staked``: the zero-trick pool points are ``allpass_zero_pool × s``.
- ``allpass_dealer_zero``: with four players and a closed talon the sitting dealer earns the
  zero-trick points too.
- ``talon_tricks_three``: with three players and ``talon_prizes="tricks"`` each defender
  writes the quick tricks at ``v × whist_scale / 2``.
- ``gentlemanly_made``: the gentlemanly lone whister shares with the passer whether the
  contract fails or is made.
- ``checked_ten_whists``: in a checked ten (``tens_whisted`` off) each defender writes
  ``v × whist_scale`` per trick of his own; no quota.
- ``half_whist_played``: a played contract whose lone whister is the ``half_whister`` is a
  half-whist played out: the quota is ``half_whist_tricks``, otherwise a lone whister's deal.

More house options (:data:`preferans.rules.MORE_HOUSE_OPTIONS`, off in every preset):

- ``responsible_at_8plus="each_if_short"``: against 8+ with two whisters, when the defence
  fell short, each whister who took no trick pays the whole missing trick(s);
  ``"second_own"``: the second whister owes the quota of his own, whatever the first took.
- ``failed_whists``: on a failed contract the defenders write only the undertrick prize
  (``prize_only``: no trick whists) or only the trick whists (``tricks_only``: no prize).
- ``failed_no_mountain``: a failed contract writes nothing on declarer's mountain.
- ``checked_ten_no_prize``: a failed checked ten earns no undertrick prize.
- ``half_whist_capped``: a played-out half-whister's whists count at most
  ``half_whist_tricks`` tricks.
- ``gentlemanly_odd_trick``: the gentlemanly split is in whole tricks, the odd one to the
  whister.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from .cards import Card, Rank
from .i18n.notes import Note, named
from .outcome import DealOutcome
from .rules import Rules

Number = Fraction


class ScoringError(ValueError):
    """A deal outcome that cannot be scored (inconsistent seats, tricks or contract)."""


def _zeros(n: int) -> list[Fraction]:
    return [Fraction(0)] * n


@dataclass
class DealScore:
    """What one deal earns before the pool is closed.

    - ``pool``: pool points earned per player (they still go through pool closing);
    - ``mountain``: mountain points added per player;
    - ``whists``: ``whists[i][j]``, whists player ``i`` writes on ``j`` for this deal;
    - ``stake``: the all-pass stake multiplier (1 for other deals);
    - ``short``: seats penalised for a whist shortage on this deal;
    - ``notes``: short phrases for the human summary, in order.
    """

    players: int
    pool: list[Fraction] = field(default_factory=list)
    mountain: list[Fraction] = field(default_factory=list)
    whists: list[list[Fraction]] = field(default_factory=list)
    stake: int = 1
    short: tuple[int, ...] = ()
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        n = self.players
        self.pool = self.pool or _zeros(n)
        self.mountain = self.mountain or _zeros(n)
        self.whists = self.whists or [_zeros(n) for _ in range(n)]

    def write(self, writer: int, on: int, amount: Fraction | int) -> None:
        """Add whists that ``writer`` writes on ``on``."""
        self.whists[writer][on] += Fraction(amount)


def _fmt(x: Fraction) -> str:
    if x.denominator == 1:
        return str(x.numerator)
    return f"{float(x):.3f}".rstrip("0").rstrip(".")


def check_outcome(rules: Rules, outcome: DealOutcome) -> None:
    """Raise :class:`ScoringError` unless ``outcome`` is consistent with ``rules``."""
    n = rules.players
    if outcome.players != n:
        raise ScoringError(f"the deal has {outcome.players} players, the rules {n}")
    if not 0 <= outcome.dealer < n:
        raise ScoringError(f"dealer {outcome.dealer} is not a seat 0..{n - 1}")
    if len(outcome.tricks) != n or any(t < 0 for t in outcome.tricks):
        raise ScoringError(f"tricks {outcome.tricks!r}: need {n} counts, none negative")
    total = sum(outcome.tricks)
    kind = outcome.kind
    if kind in ("passed", "halfwhist", "resigned"):
        if total:
            raise ScoringError(f"a {kind} deal has no play, but tricks are {outcome.tricks!r}")
    elif total != (10 if kind == "contract" else rules.tricks):
        want = 10 if kind == "contract" else rules.tricks
        count = "ten" if want == 10 else str(want)
        raise ScoringError(f"a {kind} deal has {count} tricks, not {total} ({outcome.tricks!r})")
    choice = rules.write_off_choice or rules.pool_overflow_choice
    if outcome.off_hill and (not choice or any(not 0 <= s < n for s in outcome.off_hill)):
        raise ScoringError(
            f"off_hill {outcome.off_hill!r}: needs write_off_choice or pool_overflow_choice, "
            "and seats"
        )
    if rules.pool_overflow_choice and outcome.off_hill and (
        outcome.kind == "allpass" or outcome.off_hill != (outcome.declarer,)
    ):
        raise ScoringError(f"off_hill {outcome.off_hill!r}: only the soloist chooses (VMK)")
    if outcome.invited or outcome.dealer_shared:
        offered = (
            rules.dealer_share
            and kind in ("contract", "misere", "passed")
            and outcome.contract is not None
            and rules.invitation_offered(outcome.contract)
        )
        if not offered:
            raise ScoringError(
                "only the soloist of a misère or a ten may invite the dealer, and only with "
                "dealer_share (four players)"
            )
        if outcome.dealer_shared and not outcome.invited:
            raise ScoringError("the dealer shares the game only when the soloist invited him")
    if kind == "allpass":
        return
    if kind not in ("contract", "misere", "passed", "halfwhist", "resigned"):
        raise ScoringError(f"unknown deal kind {kind!r}")
    if outcome.declarer is None or not 0 <= outcome.declarer < n:
        raise ScoringError(f"a {kind} deal needs a declarer seat, not {outcome.declarer!r}")
    if n == 4 and outcome.declarer == outcome.dealer:
        raise ScoringError("with four players the dealer sits out and cannot declare")
    if outcome.contract is None:
        raise ScoringError(f"a {kind} deal needs a contract")
    if kind == "resigned" and not rules.resignation:
        raise ScoringError("resignation is not allowed by these rules")
    if (kind == "misere") != outcome.contract.misere:
        raise ScoringError(f"kind {kind!r} does not match contract {outcome.contract}")
    defenders = outcome.defenders()
    dealer_whists = (
        n == 4 and rules.dealer_whist and outcome.whisters == (outcome.dealer,)
    )
    for seat in outcome.whisters:
        if seat not in defenders and not dealer_whists:
            raise ScoringError(f"whister {seat} is not a defender {defenders!r}")
    if len(set(outcome.whisters)) != len(outcome.whisters):
        raise ScoringError(f"whisters {outcome.whisters!r} repeat a seat")
    if kind == "halfwhist" and outcome.half_whister not in defenders:
        raise ScoringError("a half-whist deal needs the half-whister's seat")
    if kind == "contract" and _half_whist_played(outcome) and not rules.half_whist_played:
        raise ScoringError("a half-whist is played out only with half_whist_played")
    if kind == "contract" and not outcome.whisters and rules.is_whisted(outcome.contract):
        raise ScoringError("a played contract needs a whister (nobody whisting is 'passed')")
    if outcome.alone and (n != 2 or outcome.contract.misere or outcome.contract.level > 7):
        raise ScoringError("only a two-player whister against a 6 or 7 may defend alone")
    if n == 4 and kind in ("contract", "misere") and outcome.tricks[outcome.dealer]:
        raise ScoringError("with four players the dealer sits out and takes no trick")


def score_deal(
    rules: Rules, outcome: DealOutcome, allpass_streak: int = 0, stake: int | None = None
) -> DealScore:
    """Score one deal.  ``allpass_streak``: all-passes in a row *before* this deal.

    ``stake`` overrides an all-pass's stake multiplier (Racing's all-pass after a failure).
    Raises :class:`ScoringError` for an outcome that does not fit the rules.
    """
    check_outcome(rules, outcome)
    if outcome.kind == "allpass":
        if stake is None:
            stake = rules.allpass_stake(allpass_streak + 1)
        return _score_allpass(rules, outcome, stake)
    score = _score_declared(rules, outcome)
    assert outcome.contract is not None
    _score_talon(rules, outcome, score, rules.contract_value(outcome.contract))
    if outcome.dealer_shared:
        assert outcome.declarer is not None
        share_with_dealer(score, outcome.declarer, outcome.dealer)
    elif outcome.invited:
        score.notes.append(Note("declined_invitation", dealer=outcome.dealer,
                                declarer=outcome.declarer))
    return score


def share_with_dealer(score: DealScore, soloist: int, dealer: int) -> None:
    """The dealer accepted the soloist's invitation: they share the deal half and half.

    000: "If dealer accepts the invitation, he/she shares profit or losses equally with the
    soloist."  Everything the deal wrote for either of the two is pooled and split equally:
    pool points, mountain points, the whists either of them writes on a third player and
    the whists a third player writes on either.  What one of the two writes on the other
    (the dealer's undertrick prize or talon prize on the soloist, the soloist's refused
    talon whists on the dealer) is a payment inside the partnership and cancels: kept, it
    would leave them unequal.  Settlement still sums to zero; the two partners' balance
    changes are equal (before pool closing, which follows each one's own pool).

    A failed ten by 2 (value 10), the dealer D and defenders B and C writing the
    undertrick prize of 20 each on the soloist A, shared: A and D 10 mountain each; B and C
    write 10 on A and 10 on D each; D's 20 on A cancels.

    >>> score = DealScore(4, mountain=[Fraction(20), Fraction(0), Fraction(0), Fraction(0)])
    >>> for writer in (1, 2, 3):
    ...     score.write(writer, 0, 20)
    >>> share_with_dealer(score, 0, 3)
    >>> [int(m) for m in score.mountain], [[int(w) for w in row] for row in score.whists]
    ([10, 0, 0, 10], [[0, 0, 0, 0], [10, 0, 0, 10], [10, 0, 0, 10], [0, 0, 0, 0]])
    """
    pair = (soloist, dealer)
    for column in (score.pool, score.mountain):
        half = (column[soloist] + column[dealer]) / 2
        column[soloist] = column[dealer] = half
    whists = score.whists
    whists[soloist][dealer] = whists[dealer][soloist] = Fraction(0)
    for other in range(score.players):
        if other in pair:
            continue
        by_them = (whists[soloist][other] + whists[dealer][other]) / 2
        whists[soloist][other] = whists[dealer][other] = by_them
        on_them = (whists[other][soloist] + whists[other][dealer]) / 2
        whists[other][soloist] = whists[other][dealer] = on_them
    score.notes.append(Note("shared_game", dealer=dealer, soloist=soloist))


def _score_declared(rules: Rules, outcome: DealOutcome) -> DealScore:
    """Score a deal with a declarer (everything but the talon prizes)."""
    score = DealScore(rules.players)
    declarer = outcome.declarer
    contract = outcome.contract
    assert declarer is not None and contract is not None
    value = rules.contract_value(contract)
    if outcome.kind == "resigned":
        cost = value * 3 * rules.mountain_scale
        score.mountain[declarer] += cost
        score.notes.append(Note("resigned", declarer=declarer, contract=contract.symbol, cost=cost))
        return score
    if outcome.kind == "misere":
        taken = outcome.tricks[declarer]
        if taken == 0:
            score.pool[declarer] += value
            score.notes.append(Note("misere_made", declarer=declarer, value=value))
        else:
            cost = value * taken * rules.mountain_scale
            score.mountain[declarer] += cost
            score.notes.append(Note("misere_failed", declarer=declarer, taken=taken, cost=cost))
        return score
    if outcome.kind == "passed":
        score.pool[declarer] += value
        score.notes.append(Note("unplayed", declarer=declarer, contract=contract.symbol,
                                value=value))
        return score
    if outcome.kind == "halfwhist":
        half = outcome.half_whister
        assert half is not None
        if contract.level not in (6, 7):
            raise ScoringError(f"a half-whist stands only against 6 and 7, not {contract}")
        score.pool[declarer] += value
        credited = rules.half_whist_tricks[contract.level - 6]
        amount = value * rules.whist_scale * credited
        score.write(half, declarer, amount)
        score.notes.append(Note("unplayed", declarer=declarer, contract=contract.symbol,
                                value=value))
        score.notes.append(Note("half_whisted", half=half, amount=amount, declarer=declarer))
        return score
    _score_contract(rules, outcome, score, value)
    return score


def _score_contract(rules: Rules, outcome: DealOutcome, score: DealScore, value: int) -> None:
    """A played contract's deal: made or failed (:func:`_score_result`), the defenders'
    trick whists (:func:`_score_trick_whists`) and the whisters' responsibility for the
    quota (:func:`_score_quota`)."""
    declarer = outcome.declarer
    contract = outcome.contract
    assert declarer is not None and contract is not None
    undertricks = max(0, contract.level - outcome.tricks[declarer])
    _score_result(rules, outcome, score, value, undertricks)
    # house option failed_whists="prize_only": a failed contract's defenders write no whists
    # for their tricks (their quota still holds, as after a made one)
    trick_whists = not (undertricks and rules.failed_whists == "prize_only")
    if undertricks and not trick_whists:
        score.notes.append(Note("no_trick_whists", declarer=declarer))
    if not outcome.whisters:  # an unwhisted ten (tens_whisted=False): no quota
        if rules.checked_ten_whists and trick_whists:  # house option: each his own tricks
            for d in outcome.defenders():
                score.write(d, declarer, value * rules.whist_scale * outcome.tricks[d])
        _note_whists(score, declarer)
        return
    over_greedy = over_greedy_applies(rules, outcome.whisters)
    if trick_whists:
        _score_trick_whists(rules, outcome, score, value, undertricks, over_greedy)
    _note_whists(score, declarer)
    if rules.is_whisted(contract):
        _score_quota(rules, outcome, score, value, over_greedy)


def _score_result(rules: Rules, outcome: DealOutcome, score: DealScore, value: int,
                  undertricks: int) -> None:
    """The contract made (its value in the declarer's pool) or failed (the undertricks on
    his mountain, and each defender's prize for them)."""
    declarer, contract = outcome.declarer, outcome.contract
    assert declarer is not None and contract is not None
    defenders = outcome.defenders()
    whisters = outcome.whisters
    per_trick = value * rules.whist_scale
    checked_ten = not rules.is_whisted(contract)
    if undertricks == 0:
        score.pool[declarer] += value
        score.notes.append(Note("made", declarer=declarer, contract=contract.symbol, value=value))
    elif rules.failed_no_mountain:  # house option: the undertricks cost only the prizes
        score.notes.append(Note("failed_free", declarer=declarer, contract=contract.symbol,
                                undertricks=undertricks))
    else:
        cost = value * undertricks * rules.mountain_scale
        score.mountain[declarer] += cost
        score.notes.append(Note("failed", declarer=declarer, contract=contract.symbol,
                                undertricks=undertricks, cost=cost))
    no_prize = rules.failed_whists == "tricks_only" or (checked_ten and rules.checked_ten_no_prize)
    if undertricks and no_prize:  # house options: no undertrick prize
        score.notes.append(Note("no_prize", declarer=declarer))
    elif undertricks:
        per_under = (
            rules.consolation_per_undertrick
            if rules.consolation_per_undertrick is not None
            else per_trick
        )
        reopened_half = outcome.half_whister if len(whisters) == 1 else None
        passers = [d for d in defenders if d not in whisters] if whisters else []
        for seat in range(rules.players):
            if seat == declarer:
                continue
            writer: int | None = seat
            if seat == reopened_half:
                writer = whisters[0]
            elif seat in passers and rules.consolation_passer != "passer":
                writer = whisters[0] if rules.consolation_passer == "whister" else None
            if writer is not None:
                score.write(writer, declarer, per_under * undertricks)


def _score_trick_whists(rules: Rules, outcome: DealOutcome, score: DealScore, value: int,
                        undertricks: int, over_greedy: bool) -> None:
    """The whisters' whists on the declarer for the defence's tricks (shared with a passer
    under the gentlemanly whist)."""
    declarer, contract = outcome.declarer, outcome.contract
    assert declarer is not None and contract is not None
    level = contract.level
    defenders = outcome.defenders()
    whisters = outcome.whisters
    per_trick = value * rules.whist_scale
    defence_tricks = sum(outcome.tricks[d] for d in defenders)
    if len(whisters) == 2 or over_greedy:
        for w in whisters:
            score.write(w, declarer, per_trick * outcome.tricks[w])
    else:
        whister = whisters[0]
        passer = next((d for d in defenders if d != whister), None)  # None: two players
        counted = defence_tricks
        if rules.half_whist_capped and _half_whist_played(outcome):
            # house option: the half-whister's whists count at most half the quota's tricks
            counted = min(defence_tricks, rules.half_whist_tricks[level - 6])
            if counted < defence_tricks:
                score.notes.append(Note("half_whist_capped", whister=whister, tricks=counted))
        total = per_trick * counted
        share_with_passer = (
            passer is not None
            and rules.whist == "gentlemanly"
            and (undertricks > 0 or rules.gentlemanly_made)
            and outcome.half_whister != passer
            and whister in defenders
        )
        if share_with_passer and rules.gentlemanly_odd_trick:
            # house option: whole tricks, the odd one to the whister
            score.write(whister, declarer, per_trick * ((counted + 1) // 2))
            score.write(passer, declarer, per_trick * (counted // 2))  # type: ignore[arg-type]
        elif share_with_passer:
            score.write(whister, declarer, Fraction(total, 2))
            score.write(passer, declarer, Fraction(total, 2))  # type: ignore[arg-type]
        else:
            score.write(whister, declarer, total)


def _score_quota(rules: Rules, outcome: DealOutcome, score: DealScore, value: int,
                 over_greedy: bool) -> None:
    """The whisters' responsibility for the quota: a whister short of his tricks pays for
    them (on the mountain, or half of it in whists to the declarer), as the rules say."""
    declarer, contract = outcome.declarer, outcome.contract
    assert declarer is not None and contract is not None
    level = contract.level
    whisters = outcome.whisters
    defence_tricks = sum(outcome.tricks[d] for d in outcome.defenders())
    if outcome.alone:
        quota = rules.dummy_alone_quota[level - 6]
    elif _half_whist_played(outcome):  # house option: the half-whister owes half the quota
        quota = rules.half_whist_tricks[level - 6]
        score.notes.append(Note("half_whist_out", whister=whisters[0], quota=quota))
    else:
        quota = rules.quota(level)
    at_8plus = len(whisters) == 2 and level >= 8
    each_owes = at_8plus and rules.responsible_at_8plus == "each"
    second_owes = at_8plus and rules.responsible_at_8plus == "second_own"
    if defence_tricks >= quota and not (over_greedy or each_owes or second_owes):
        return
    missing: dict[int, Fraction] = {}
    if over_greedy:
        personal = 2 if level == 6 else 1
        for w in whisters:
            missing[w] = Fraction(max(0, personal - outcome.tricks[w]))
    elif each_owes:  # house option: each whister owes one trick of his own
        personal = (quota + 1) // 2
        for w in whisters:
            missing[w] = Fraction(max(0, personal - outcome.tricks[w]))
    elif second_owes:  # house option: the second whister owes the quota of his own
        missing[whisters[1]] = Fraction(max(0, quota - outcome.tricks[whisters[1]]))
    elif len(whisters) == 1:
        missing[whisters[0]] = Fraction(quota - defence_tricks)
    elif level >= 8:
        short_total = Fraction(quota - defence_tricks)
        if rules.responsible_at_8plus == "second":
            missing[whisters[1]] = short_total
        elif rules.responsible_at_8plus == "each_if_short":
            # house option: the pair fell short; each whister without a trick pays it whole
            for w in whisters:
                if outcome.tricks[w] == 0:
                    missing[w] = short_total
        else:
            for w in whisters:
                missing[w] = short_total / 2
    else:
        share = Fraction(quota, 2)
        for w in whisters:
            if outcome.tricks[w] < share:
                missing[w] = share - outcome.tricks[w]
    short = []
    for w, miss in missing.items():
        if miss <= 0:
            continue
        if rules.shortage == "none":  # house option: non-responsible whist
            score.notes.append(Note("short_free", whister=w, miss=_fmt(miss)))
            continue
        short.append(w)
        penalty = value * miss * rules.mountain_scale
        if rules.shortage == "full":
            score.mountain[w] += penalty
            score.notes.append(Note("short", whister=w, miss=_fmt(miss), cost=_fmt(penalty)))
        elif rules.shortage == "half":
            score.mountain[w] += penalty / 2
            score.notes.append(Note("short", whister=w, miss=_fmt(miss), cost=_fmt(penalty / 2)))
        else:
            whists = value * miss * rules.whist_scale / 2
            score.mountain[w] += penalty / 2
            score.write(declarer, w, whists)
            score.notes.append(Note("short_whists", whister=w, miss=_fmt(miss),
                                    cost=_fmt(penalty / 2), declarer=declarer,
                                    amount=_fmt(whists)))
    score.short = tuple(short)


def _half_whist_played(outcome: DealOutcome) -> bool:
    """Whether this played contract is a half-whist played out (``half_whist_played``): the
    half-whister is the lone whister (a half-whist overturned by a reopening whist has the
    reopening whister instead)."""
    return (
        outcome.half_whister is not None
        and outcome.whisters == (outcome.half_whister,)
    )


def over_greedy_applies(rules: Rules, whisters: Sequence[int]) -> bool:
    """Whether over-greedy whist holds for a defence with these whisters.

    000: "Some apply the "over-greedy" rule only when there are two whisters"
    (``over_greedy_two_only``).

    >>> over_greedy_applies(Rules.preset("kazakhstan", over_greedy=True), (1,))
    True
    >>> r = Rules.preset("kazakhstan", over_greedy=True, over_greedy_two_only=True)
    >>> over_greedy_applies(r, (1,)), over_greedy_applies(r, (1, 2))
    (False, True)
    """
    return rules.over_greedy and (len(whisters) == 2 or not rules.over_greedy_two_only)


def talon_quick_tricks(talon: Sequence[Card]) -> int:
    """Quick tricks in the two talon cards, as talon prizes count them.

    Two aces 3; ace and king of one suit 2; one ace, or king and queen of one suit, 1.

    >>> talon_quick_tricks([Card.parse("AS"), Card.parse("AH")])
    3
    >>> talon_quick_tricks([Card.parse("KD"), Card.parse("QD")])
    1
    >>> talon_quick_tricks([Card.parse("KD"), Card.parse("QS")])
    0
    """
    if len(talon) != 2:
        return 0
    a, b = talon
    aces = (a.rank is Rank.ACE) + (b.rank is Rank.ACE)
    if aces == 2:
        return 3
    if a.suit is b.suit and {a.rank, b.rank} == {Rank.ACE, Rank.KING}:
        return 2
    if aces or (a.suit is b.suit and {a.rank, b.rank} == {Rank.KING, Rank.QUEEN}):
        return 1
    return 0


def _score_talon(rules: Rules, outcome: DealOutcome, score: DealScore, value: int) -> None:
    """Talon prizes and the price of a refused talon (``rules.talon_prizes``)."""
    mode = rules.talon_prizes
    declarer = outcome.declarer
    four = rules.players == 4
    if four and outcome.talon_refused and rules.refused_talon_trick and declarer is not None:
        # 000 (Classical): "The dealer writes one trick on his/her hill if the soloist refuses
        # to take the cards, leaving them on the table face up."
        cost = value * rules.mountain_scale
        score.mountain[outcome.dealer] += cost
        score.notes.append(Note("talon_refused_trick", declarer=declarer, dealer=outcome.dealer,
                                cost=cost))
    if mode == "none" or declarer is None:
        return
    if outcome.talon_refused:
        if mode != "whists":
            return
        for seat in (outcome.dealer,) if four else outcome.defenders():
            amount = 10 if four else 5
            score.write(declarer, seat, amount)
            score.notes.append(Note("talon_refused", declarer=declarer, amount=amount, on=seat))
        return
    count = talon_quick_tricks(outcome.talon)
    if not count:
        return
    if mode == "whists":
        writers = (outcome.dealer,) if four else outcome.defenders()
        amount = Fraction(10 * count) if four else Fraction(5 * count)
    elif four:
        writers = (outcome.dealer,)
        amount = Fraction(count * value * rules.whist_scale)
    elif rules.talon_tricks_three and rules.players == 3:
        # house option: with three, each defender at half the four-player dealer's rate
        writers = outcome.defenders()
        amount = Fraction(count * value * rules.whist_scale, 2)
    else:
        return
    for seat in writers:
        score.write(seat, declarer, amount)
        score.notes.append(Note("talon_prize", writer=seat, amount=_fmt(amount), on=declarer))


def _note_whists(score: DealScore, declarer: int) -> None:
    for writer in range(score.players):
        amount = score.whists[writer][declarer]
        if amount:
            score.notes.append(
                Note("wrote_whists", writer=writer, amount=_fmt(amount), on=declarer))


def allpass_participants(rules: Rules, outcome: DealOutcome) -> list[int]:
    """The seats scored in an all-pass: everyone, less a four-player dealer without cards."""
    seats = list(range(rules.players))
    if rules.players == 4 and rules.allpass_talon == "closed":
        seats.remove(outcome.dealer)
    return seats


def _score_allpass(rules: Rules, outcome: DealOutcome, stake: int) -> DealScore:
    score = DealScore(rules.players, stake=stake)
    seats = allpass_participants(rules, outcome)
    raw = {s: outcome.tricks[s] for s in seats}
    if rules.players == 4 and rules.allpass_talon == "closed" and outcome.tricks[outcome.dealer]:
        raise ScoringError("with a closed talon the four-player dealer takes no all-pass trick")
    low = min(raw.values())
    counted = {s: t - low for s, t in raw.items()} if rules.allpass_amnesty else dict(raw)
    rate = rules.allpass_trick_points * stake
    shown = "–".join(str(outcome.tricks[s]) for s in seats)
    score.notes.append(Note("allpass_stake", tricks=shown, stake=stake) if stake != 1
                       else Note("allpass", tricks=shown))
    if rules.allpass_scoring == "mountain":
        for s in seats:
            if counted[s]:
                score.mountain[s] += counted[s] * rate
                score.notes.append(Note("allpass_mountain", seat=s, points=counted[s] * rate))
    else:
        fewest = min(counted.values())
        lows = [s for s in seats if counted[s] == fewest]
        if len(lows) < len(seats):
            for writer in lows:
                for s in seats:
                    if s in lows or not counted[s]:
                        continue
                    amount = Fraction(counted[s] * rate, len(lows))
                    score.write(writer, s, amount)
                    score.notes.append(Note("wrote_whists", writer=writer, amount=_fmt(amount),
                                            on=s))
    zero = rules.allpass_zero_pool * (stake if rules.allpass_zero_staked else 1)
    for s in seats:
        if raw[s] == 0 and zero:
            score.pool[s] += zero
            score.notes.append(Note("allpass_zero", seat=s, points=zero))
    if rules.allpass_dealer_zero and outcome.dealer not in seats and zero:
        # house option (000's Rostov: "Some allow the dealer to write one point in the pool")
        score.pool[outcome.dealer] += zero
        score.notes.append(Note("allpass_dealer", dealer=outcome.dealer, points=zero))
    return score


def next_allpass_streak(rules: Rules, outcome: DealOutcome, streak: int) -> int:
    """All-passes in a row after this deal, given ``streak`` before it.

    An all-pass adds one.  A whisted contract that was made ends the streak; a failed one
    ends it when ``allpass_exit_on_failed``; a misère when ``allpass_exit_on_misere``; a
    contract nobody whisted (passed out, half-whisted, an unwhisted ten) when
    ``allpass_exit_on_unwhisted``.  Otherwise the streak carries on unchanged.
    """
    if outcome.kind == "allpass":
        return streak + 1
    if outcome.kind == "misere":
        exits = rules.allpass_exit_on_misere
    elif outcome.kind == "resigned":
        exits = rules.allpass_exit_on_failed
    elif outcome.kind in ("passed", "halfwhist") or not outcome.whisters:
        exits = rules.allpass_exit_on_unwhisted
    else:
        assert outcome.contract is not None and outcome.declarer is not None
        made = outcome.tricks[outcome.declarer] >= outcome.contract.level
        exits = True if made else rules.allpass_exit_on_failed
    return 0 if exits else streak


def name_notes(notes: Sequence[str], players: Sequence[str]) -> str:
    """Join summary phrases, each with the players' names for its ``{seat}`` placeholders
    ("You" as "your" and "you" where the phrase needs them: :func:`preferans.i18n.notes.named`)."""
    return "; ".join(named(note, players) for note in notes)
