"""The Monte Carlo players' levels: data, not code.

A :class:`Level` says how hard a player thinks (how many worlds each decision imagines) and
which refinements it uses; Normal, Hard and Crazy are three values of it, and
``make_player("crazy/worlds=200")`` changes one field for an experiment.  The decisions
themselves live in the modules named in :mod:`.montecarlo`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    """How hard a Monte Carlo player thinks."""

    name: str
    worlds: int
    """Worlds per card decision, whist decision and contract choice."""
    bid_worlds: int
    """Worlds per bidding analysis (computed once per deal and reused)."""
    score_aware: bool
    """Value decisions by the expected sheet result (Crazy), not by tricks."""
    oversample: int = 3
    screen_worlds: int = 12
    """Worlds of the first, screening round of the discard search."""
    discard_keep: int = 4
    """Discards per strain kept from the evaluation for solving."""
    contract_strains: int = 3
    """Strains solved when naming the contract."""
    solve_misere_bids: bool = True
    """Solve misère in the bidding analysis (else judge it by the evaluation)."""
    mode_simulations: int = 0
    """Imagined deals a lone whister plays out closed to choose OPEN or CLOSED (0: OPEN)."""
    play_inference: bool = False
    """Weigh the card-play worlds by the other seats' cards (see :mod:`.inference`)."""
    declarer_inference: bool = False
    """With ``play_inference``: weigh the worlds also when playing a contract's declaring
    hand.  Off: on 600 board records (``bench_change.py --phases play``, Crazy against
    Crazy without inference) the declarer's 32 changed cards lost 8 double-dummy tricks and
    7.9 whists each played out, while the all-pass, misère and defending ones gained."""
    rival_in_pass: bool = False
    """Value PASS in the auction by what the rival's contract costs this seat (solved in
    the bidding worlds: the highest bidder, or the likeliest declarer before any bid), not
    as nothing; see :func:`.auction.pass_value`.  On for Crazy since 6 Dec: a
    seat's balance is zero-sum, so another's made contract costs the passer (about 7 whists
    a deal on the boards of seed 35, where PASS was valued at 0).  First tried on 5 Dec with
    the rough all-pass count and left off (−3.0 whists per changed call by double-dummy
    judging); with the solved all-pass and :attr:`whist_response`, +2.79 whists a board
    over 222 paired boards (docs/strength.md, "Crazy on one-deal boards")."""
    play_table: bool = False
    """Score-aware card play (Crazy): value each card by :meth:`.ScoreModel.play_table`, the
    sheet with the tricks already taken where they lie and the defenders' later tricks
    split evenly, rather than by the whole deal's :meth:`.ScoreModel.contract_table`, whose
    rounding of the defenders' split gave whisters false steps."""
    play_gap: bool = False
    """Value contracts by the tricks real play gives, not double dummy: each double-dummy
    count spread by the gap measured in self-play (see :mod:`.playgap`), in the contract
    named after the discard.  Measured by ``bench_change.py --judge play``
    (docs/strength.md): there it pays (it names the higher contract that real play makes); in the
    bidding it lost (its worlds already give the bidder the talon and the best discard for
    it, an optimism of their own), in the whist calls and the discard it changed nothing
    measurable; those were dropped."""
    whist_response: bool = False
    """In the auction, value a contract its declarer would fail double dummy by how often
    the defence really whists it (:data:`.contract_value.WHIST_RESPONSE`, measured in
    self-play), not as whisted always: at the levels where a half-whist may stand, the rest
    of the time the contract is written as made, half-whisted.  On for Crazy since 6 Dec (with
    :attr:`rival_in_pass`; alone it changed 10 of 71 boards, +0.93 whists a board
    [−0.15, +2.01])."""
    allpass_solved: bool = False
    """Value PASS before any bid by the all-pass solved in the bidding worlds (this seat's
    tricks double dummy against the other two, scaled by :data:`.allpass.ALLPASS_REAL`), not by the
    rough :func:`.evaluation.allpass_tricks`, which counted 7.0 tricks a hand where the
    hands held 3.3 (docs/strength.md, "The all-pass risk in the auction")."""
    allpass_chance: float = 0.55
    """Before any bid, the chance that each other seat still to speak passes too: PASS
    weighs the all-pass by this to the power of their number (in the whole-pulya records
    of 6 Dec, after the first hand's PASS the deal went all-pass 12 % of the time, after
    the second's 22 %)."""


NORMAL = Level("normal", worlds=12, bid_worlds=12, score_aware=False, oversample=2,
               screen_worlds=6, discard_keep=2, contract_strains=2, solve_misere_bids=False)
HARD = Level("hard", worlds=100, bid_worlds=100, score_aware=False, screen_worlds=16,
             mode_simulations=8)
CRAZY = Level("crazy", worlds=400, bid_worlds=400, score_aware=True, screen_worlds=40,
              discard_keep=5, mode_simulations=16, play_inference=True, play_gap=True,
              play_table=True, allpass_solved=True, rival_in_pass=True, whist_response=True)
SIMULATION = Level("simulation", worlds=6, bid_worlds=6, score_aware=False, oversample=1,
                   screen_worlds=6, discard_keep=2, contract_strains=1,
                   solve_misere_bids=False)
"""The quick player that plays imagined deals out (the lone whister's OPEN/CLOSED choice)."""
LEVELS_BY_NAME = {lv.name: lv for lv in (NORMAL, HARD, CRAZY, SIMULATION)}
