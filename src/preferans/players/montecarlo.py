"""Normal, Hard and Crazy: players that imagine deals and solve them (Perfect-Information
Monte Carlo).

Every decision draws worlds consistent with what the seat has seen, weighted by
what the others said (:mod:`preferans.players.sampling`), solves each world exactly
with the double-dummy solver (:mod:`preferans.solver`) and takes the action with the
best average:

- **bid**: the hand's tricks with the talon (the talon imagined too) in its best strain
  (and the second best when the evaluation puts it close), with a good discard per world;
  each possible contract valued under the rules with the defence's answer modelled (the
  defenders whist when the world gives them their quota, else the contract goes unplayed);
  misère screened on every world by the solver's fast "can it take no trick?" test;
  bid while some contract at or above the bid beats passing.  Computed once per deal
  and seat, then reused by every later call of the auction;
- **discard**: every promising pair × strain raced over the worlds: screened on a few,
  the clear losers (compared with the leader world by world) and the weaker half dropped
  round by round, the winner solved on every world;
- **contract**: each legal contract valued on the same worlds as the discard, reusing
  every solve the discard made (each world is solved once per kept hand and strain);
- **whist / pass / half-whist**: the whists the defence earns against the mountain it
  risks, with the other defender's answer modelled;
- **open / closed** (a lone whister, Hard and Crazy): open play is double dummy, closed
  play is simulated by playing imagined deals out (:mod:`.defence_mode`);
- **card**: the average over the worlds of the solver's value of each legal card (all
  worlds' positions solved in one batch call).

Scores come from :func:`preferans.players.utility.cached_model`: the sheet's own scoring,
memoised per sheet and read lazily, so a decision pays only for the trick counts it meets.

Normal uses a few worlds and counts tricks; Hard at least 100 worlds and counts
tricks in the play; Crazy four times Hard's worlds and values *every* decision by the
expected change of its settlement balance under the rules and the current sheet
(:class:`preferans.players.utility.ScoreModel`).
"""

from __future__ import annotations

import json
import random
import time
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, overload

from ..bids import MISERE, Bid
from ..cards import Card, mask_indices
from ..rules import Rules
from ..solver import (
    Position,
    SolverError,
    misere_can_take_none,
    solve_batch,
    solve_moves_batch,
)
from .clock import FLOOR_WORLDS, SAMPLE_SHARE, Clock, Deadline
from .defence_mode import choose_mode
from .evaluation import (
    allpass_tricks,
    best_strain,
    contract_tricks,
    defence_tricks,
    discard_candidates,
    misere_danger,
    misere_discard_candidates,
)
from .inference import play_weights
from .playgap import CLOSED_SHARE, real_play_table
from .sampling import Sampler, World
from .solving import opening_position, play_position, talon_leads
from .twohand import two_hand_tricks
from .utility import ScoreModel, cached_model
from .variants import (
    Profile,
    alone_allowed,
    alone_profile,
    blind_choice,
    choose_two_player,
    evaluation_baseline,
    evaluation_profile,
    hand_bid_choice,
    hand_bids,
    invite_choice,
    misere_contract_ok,
    open_profile_estimate,
    rogue_contract_options,
    rogue_copies,
    rogue_item,
    rogue_scores,
    rogue_table,
    two_player_values,
    write_choice,
)
from .view import SeatView


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
    as nothing; see :meth:`MonteCarloPlayer._pass_value`.  On for Crazy since 6 Dec: a
    seat's balance is zero-sum, so another's made contract costs the passer (about 7 whists
    a deal on the boards of seed 35, where PASS was valued at 0).  First tried on 5 Dec with
    the rough all-pass count and left off (−3.0 whists per changed call by double-dummy
    judging); with the solved all-pass and :attr:`whist_response`, +2.79 whists a board
    over 222 paired boards (players' README, "Crazy on one-deal boards")."""
    play_table: bool = False
    """Score-aware card play (Crazy): value each card by :meth:`.ScoreModel.play_table`, the
    sheet with the tricks already taken where they lie and the defenders' later tricks
    split evenly, rather than by the whole deal's :meth:`.ScoreModel.contract_table`, whose
    rounding of the defenders' split gave whisters false steps."""
    play_gap: bool = False
    """Value contracts by the tricks real play gives, not double dummy: each double-dummy
    count spread by the gap measured in self-play (see :mod:`.playgap`), in the contract
    named after the discard.  Measured by ``bench_change.py --judge play`` (the players'
    README): there it pays (it names the higher contract that real play makes); in the
    bidding it lost (its worlds already give the bidder the talon and the best discard for
    it, an optimism of their own), in the whist calls and the discard it changed nothing
    measurable; those were dropped."""
    whist_response: bool = False
    """In the auction, value a contract its declarer would fail double dummy by how often
    the defence really whists it (:data:`WHIST_RESPONSE`, measured in self-play), not as
    whisted always: at the levels where a half-whist may stand, the rest of the time the
    contract is written as made, half-whisted.  On for Crazy since 6 Dec (with
    :attr:`rival_in_pass`; alone it changed 10 of 71 boards, +0.93 whists a board
    [−0.15, +2.01])."""
    allpass_solved: bool = False
    """Value PASS before any bid by the all-pass solved in the bidding worlds (this seat's
    tricks double dummy against the other two, scaled by :data:`ALLPASS_REAL`), not by the
    rough :func:`.evaluation.allpass_tricks`, which counted 7.0 tricks a hand where the
    hands held 3.3 (players' README, "The all-pass risk in the auction")."""
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
STRAIN_MARGIN = 1.5
"""The bidding analysis solves the second-best strain only when its estimate is this close."""
ALLPASS_REAL = 0.75
"""A hand's all-pass tricks in real play per trick double dummy against the other two (the
solver's all-pass: the other two play together against it): 336 hands of the all-pass deals
of 116 whole pulya-10 games, Crazy and Hard at the table, took 3.33 tricks where double dummy
gave 4.52; the fit was 0.753 × double dummy − 0.07."""
ALLPASS_KEY = 99
"""The bidding analysis's batch index of a world's all-pass (strains are 0..4, rivals < 0)."""
ALLPASS_WORLDS = 100
"""The all-pass is solved in at most this many of the bidding worlds (its mean is all PASS
needs; all 400 made Crazy's first call 65 % slower)."""
_NOT_SEEDED = frozenset({"sheet", "players"})
"""Observation fields left out of a decision's seed: the sheet, and the players' names, so
that renaming a player (``hard`` as ``hard/worlds=100`` in a match) changes no one's
draws and two matches of the same seed stay paired wherever their decisions agree."""
WHIST_RESPONSE = {6: (0.46, 0.69, 0.52), 7: (1.0, 1.0, 0.93)}
"""The chance that the defence whists a contract (rather than let it stand: pass and
half-whist) by level, for a declarer two or more, one, and no trick short of it double dummy
after the discard.  Measured on 1,149 contracts of one-deal board records (seed 35, 6 Dec:
three Crazy settings against two Hards): at six 24, 121 and 326 contracts, at seven 0, 5
and 74 (none two short: taken as whisted).  Defenders who trust the bidder
(:data:`DECLARER_TRUST`) let many a short six stand."""
DECLARER_TRUST = 0.35
"""Weight factor per trick a declarer would fall short in a world (defence decisions)."""


def decision_rng(seed: int, observation: Mapping[str, Any]) -> random.Random:
    """The random draws of one decision: seeded from the player's seed and the observation
    less :data:`_NOT_SEEDED` (the same observation always draws the same worlds).

    >>> obs = {"seat": 0, "players": ["a", "b", "c"], "hand": ["AS"]}
    >>> a = decision_rng(1, obs).random()
    >>> a == decision_rng(1, {**obs, "players": ["x", "y", "z"]}).random()
    True
    """
    digest = zlib.crc32(
        json.dumps({k: v for k, v in observation.items() if k not in _NOT_SEEDED},
                   sort_keys=True).encode()
    )
    return random.Random(seed * 1_000_003 + digest)


def _interpolate(table: Sequence[float], tricks: float) -> float:
    """``table`` (values for 0..10 tricks) read at a fractional trick count."""
    est = max(0.0, min(10.0, tricks))
    lo = int(est)
    frac = est - lo
    return table[lo] * (1 - frac) + table[min(10, lo + 1)] * frac


def _mean(values: list[float], weights: list[float]) -> float:
    total = sum(weights)
    return sum(v * w for v, w in zip(values, weights, strict=True)) / total if total else 0.0


class MonteCarloPlayer:
    """A Perfect-Information Monte Carlo player (Normal, Hard or Crazy).

    Deterministic: each decision's random draws are seeded from the player's seed and
    the observation (less the sheet and the players' names), so the same observation always
    gets the same answer, and the hidden cards (which the observation does not contain)
    cannot change it.

    ``budget``: seconds of wall-clock time per decision (see :mod:`.clock`), read from
    ``clock``; ``None`` (the default here; :func:`preferans.players.make_player` gives each
    level its budget) for none.  A budget that binds makes the decision depend on the
    machine's speed; one that does not bind changes nothing.  :attr:`last_deadline` holds
    the last decision's clock and the worlds each of its stages used.
    """

    def __init__(self, rules: Rules, seed: int = 0, level: Level | str = HARD,
                 threads: int = 2, *, budget: float | None = None,
                 clock: Clock = time.perf_counter) -> None:
        if budget is not None and not budget > 0:
            raise ValueError(f"a decision budget must be a positive number of seconds, "
                             f"not {budget!r}")
        self.rules = rules
        self.seed = seed
        self.level = LEVELS_BY_NAME[level] if isinstance(level, str) else level
        self.threads = threads
        self.budget = budget
        self.clock = clock
        self._deadline = Deadline(None, clock)
        self.waited = 0.0
        """Seconds the next decision already waited before :meth:`choose` started on it (the
        web server's thinking process sets it): spent from its budget (see :mod:`.clock`)."""
        self.last_deadline: Deadline | None = None
        self._bid_cache: dict[tuple[Any, ...], dict[str, Any]] = {}
        self._declarer_cache: dict[tuple[Any, ...], dict[str, Any]] = {}
        self._inference_cache: dict[tuple[Any, ...], dict[int, int]] = {}
        self._explaining: dict[str, Any] | None = None
        """While :meth:`explain` runs: what the decision computed (see :meth:`_note`)."""

    # --- the interface ---------------------------------------------------------------------
    def choose(self, observation: dict[str, Any]) -> str:
        legal = [str(t) for t in observation.get("legal") or []]
        if not legal:
            raise ValueError(f"seat {observation.get('seat')} has no legal action to choose")
        if len(legal) == 1:
            return legal[0]
        self._deadline = self.last_deadline = Deadline(self.budget, self.clock, self.waited)
        self.waited = 0.0
        view = SeatView.from_observation(observation)
        rng = decision_rng(self.seed, observation)
        phase = view.phase
        try:
            if phase == "auction" and ("SEE" in legal or view.extras.get("hand_hidden")):
                token = blind_choice(view, self.rules)
            elif phase == "auction" and hand_bids(legal):
                token = self._hand_bid(view, rng) or self._auction(view, rng)
            elif phase == "auction":
                token = self._auction(view, rng)
            elif phase == "name":
                token = self._name(view, rng)
            elif phase == "write":
                token = write_choice(view, self.rules)
            elif phase == "halftime":  # Classical: the leader keeps the rules' pool and time
                token = legal[0]
            elif phase == "invite":
                token = self._invite(view)
            elif view.dummy is not None and phase in ("defence", "defence mode"):
                token = self._defence_two(view, rng)
            elif phase == "play" and view.two_hand_play:
                token = self._two_hand_card(view, rng)
            elif phase == "discard":
                token = self._discard(view, rng)
            elif phase == "contract":
                token = self._contract(view, rng)
            elif phase == "defence":
                token = self._defence(view, rng)
            elif phase.startswith("defence"):
                token = self._defence_mode(view, rng)
            elif phase == "play":
                token = self._play(view, rng)
            else:
                token = legal[0]
        except (SolverError, KeyError, ValueError):
            # a position the imagined deals cannot model (e.g. a four-player all-pass where
            # the dealer's talon cards take tricks): a safe legal choice instead
            token = _fallback(view, legal)
            if self._explaining is not None:
                self._explaining.clear()  # no figures stand behind a fallback
        if token not in legal:
            token = _fallback(view, legal)
        return token

    def explain(self, observation: dict[str, Any]) -> dict[str, Any]:
        """The decision :meth:`choose` makes for ``observation``, with the values the player
        computed for it: plain JSON (see :func:`preferans.players.explain.explanation`).

        The same decision as ``choose`` (the same draws, the same clock), only with the
        numbers it was made from kept: for a call, each option's expected score (whists,
        or tricks where the level counts tricks) and the worlds behind it; for a card, each
        legal card's value and the tricks it yields over the worlds.  Nothing in it comes
        from anything but the observation.
        """
        from .explain import explanation

        self._explaining = notes = {}
        try:
            token = self.choose(observation)
        finally:
            self._explaining = None
        return explanation(self.level.name, observation, token, notes,
                           self.last_deadline if len(observation.get("legal") or []) > 1
                           else None)

    def _note(self, kind: str, unit: str, values: dict[str, float], worlds: int,
              **extra: Any) -> None:
        """Keep a decision's values for :meth:`explain` (nothing when not explaining):
        ``values`` maps each option (an action token) to the value the player compared."""
        if self._explaining is not None:
            self._explaining.update(kind=kind, unit=unit, values=dict(values),
                                    worlds=worlds, **extra)

    # --- helpers -------------------------------------------------------------------------------
    def _model(self, view: SeatView) -> ScoreModel:
        return cached_model(
            self.rules,
            view.seat,
            dealer=view.dealer,
            sheet=view.sheet if self.level.score_aware else None,
            allpass_streak=view.allpass_streak,
        )

    def _sample(self, view: SeatView, rng: random.Random, n: int) -> list[World]:
        deadline = self._deadline
        stop = None if deadline.budget is None else (lambda: deadline.over(SAMPLE_SHARE))
        worlds = Sampler(view, rng).sample(n, oversample=self.level.oversample, stop=stop,
                                           floor=FLOOR_WORLDS)
        deadline.note("sample", n, len(worlds))
        return worlds

    def _defence_answer(self, view: SeatView, contract: Bid, tricks: int) -> bool:
        """Whether the defence whists against ``contract`` when declarer can take ``tricks``."""
        if not self.rules.is_whisted(contract):
            return True
        return 10 - tricks >= self.rules.quota(contract.level)

    def _declarer_value(self, model: ScoreModel, view: SeatView, declarer: int, contract: Bid,
                        tricks: int, tables: dict[Bid, list[float]],
                        real_play: bool = False, response: bool = False) -> float:
        """The declarer's contract worth to this seat when its declarer takes ``tricks``
        double dummy; with ``real_play`` (the ``play_gap`` setting, after the talon), the
        expected worth over the tricks real play gives (:mod:`.playgap`); with ``response``
        (the ``whist_response`` setting, in the auction), a short contract weighed by the
        chance that the defence whists it (:data:`WHIST_RESPONSE`)."""
        item = view.extras.get("rogue_item")
        if item:  # the Rogue: the named game, whisted by force
            table = tables.get(contract)
            if table is None:
                table = tables[contract] = list(
                    rogue_table(self.rules, model, declarer, contract, str(item)))
            return table[tricks]
        if contract.misere:
            table = tables.get(contract)
            if table is None:
                table = tables[contract] = model.contract_table(declarer, contract)
            return table[tricks]
        if not self._defence_answer(view, contract, tricks):
            key = Bid(contract.level, contract.trump)
            return model.unplayed_value(declarer, key)
        table = tables.get(contract)
        if table is None:
            table = model.contract_table(declarer, contract)
            if real_play:  # the defence the declarer will meet is not known yet
                table = real_play_table(table, contract.level, CLOSED_SHARE)
            tables[contract] = table
        whisted = table[tricks]
        chances = WHIST_RESPONSE.get(contract.level)
        if (not response or chances is None or tricks > contract.level
                or contract.level not in self.rules.half_whist_levels):
            return whisted
        defenders = model.defenders(declarer)
        if len(defenders) != 2:
            return whisted
        p = chances[max(0, tricks - contract.level + 2)]
        key = Bid(contract.level, contract.trump)
        stands = model.unplayed_value(declarer, key, half_whister=defenders[1])
        return p * whisted + (1 - p) * stands

    def _solve_openings(self, view: SeatView, worlds: list[World], declarer: int,
                        trump: int | None, name: str) -> tuple[list[World], list[int]]:
        """The declarer's tricks from the first lead in each world, solved on the clock:
        the worlds solved and their values."""
        values: list[int] = []
        for lo, hi in self._deadline.spans(len(worlds), name=name):
            values += solve_batch([
                opening_position(view, dict(enumerate(w.hands)), mode="contract",
                                 side=declarer, trump=trump)
                for w in worlds[lo:hi]
            ], threads=self.threads)
        return worlds[: len(values)], values

    # --- the auction -----------------------------------------------------------------------
    def _bid_analysis(self, view: SeatView, rng: random.Random) -> dict[str, Any]:
        rivals = self._rivals(view)
        key = (view.seat, view.dealer, view.hand, view.allpass_streak, view.min_bid, rivals)
        hit = self._bid_cache.get(key)
        if hit is not None:
            return hit
        if len(self._bid_cache) > 64:
            self._bid_cache.clear()
        worlds = self._sample(view, rng, self.level.bid_worlds)
        hand = view.hand
        ranked = sorted(range(5), key=lambda s: -contract_tricks(hand, s))
        strains = ranked[:1]
        if contract_tricks(hand, ranked[1]) >= contract_tricks(hand, ranked[0]) - STRAIN_MARGIN:
            strains.append(ranked[1])  # a cheap screen: a clearly weaker strain is not solved
        tricks: dict[int, list[int]] = {s: [0] * len(worlds) for s in strains}
        rival: list[tuple[int, int, int]] = [(0, 0, 0)] * len(worlds)
        """Per world: the rival seat, its strain and its double-dummy tricks."""
        allpass = self._allpass_in_bidding(view)
        allpass_tricks_dd = [0] * len(worlds)
        used = 0
        for lo, hi in self._deadline.spans(len(worlds), name="bid"):
            positions = []
            index: list[tuple[int, int]] = []
            for wi in range(lo, hi):
                w = worlds[wi]
                hand12 = hand | w.extra
                for s in strains:
                    pair = discard_candidates(hand12, s, keep=1, pruned=True)[0]
                    hands = dict(enumerate(w.hands))
                    hands[view.seat] = hand12 & ~pair
                    positions.append(opening_position(
                        view, hands, mode="contract", side=view.seat,
                        trump=s if s < 4 else None))
                    index.append((wi, s))
                if rivals:
                    seat, s, hands = _rival_hands(w, rivals)
                    positions.append(opening_position(
                        view, hands, mode="contract", side=seat, trump=s if s < 4 else None))
                    index.append((wi, -1 - seat * 8 - s))
                if allpass and wi < ALLPASS_WORLDS:
                    positions.append(opening_position(
                        view, dict(enumerate(w.hands)), mode="allpass", side=view.seat,
                        trump=None, leads=talon_leads(view, w, self.rules.allpass_talon)))
                    index.append((wi, ALLPASS_KEY))
            values = solve_batch(positions, threads=self.threads) if positions else []
            for (wi, s), v in zip(index, values, strict=True):
                if s == ALLPASS_KEY:
                    allpass_tricks_dd[wi] = v
                elif s < 0:
                    code = -1 - s
                    rival[wi] = (code // 8, code % 8, v)
                else:
                    tricks[s][wi] = v
            used = hi
        worlds = worlds[:used]
        tricks = {s: t[:used] for s, t in tricks.items()}
        misere_tricks: list[int] | None = None
        if not self.level.solve_misere_bids and misere_danger(hand) < 0.4:
            misere_tricks = [0] * len(worlds)
        elif self.level.solve_misere_bids and misere_danger(hand) < 1.3:
            misere_tricks = _misere_tricks(
                _misere_openings(view, hand, worlds), self.threads,
                exact=max(8, len(worlds) // 4), deadline=self._deadline)
        result = {
            "weights": [w.weight for w in worlds],
            "tricks": tricks,
            "rival": rival[:used] if rivals else None,
            "misere": misere_tricks,
            "misere_weights": [w.weight for w in worlds][: len(misere_tricks or ())],
            "allpass": allpass_tricks_dd[:min(used, ALLPASS_WORLDS)] if allpass else None,
        }
        self._bid_cache[key] = result
        return result

    def _allpass_in_bidding(self, view: SeatView) -> bool:
        """Whether the bidding analysis solves the all-pass (:attr:`Level.allpass_solved`):
        a plain three-hand auction where nobody has bid yet."""
        return (self.level.allpass_solved and view.players == 3 and self.rules.players == 3
                and view.dummy is None and not view.extras
                and not any(t.upper() != "PASS" for _, t in view.auction))

    def _auction(self, view: SeatView, rng: random.Random) -> str:
        legal = view.legal
        analysis = self._bid_analysis(view, rng)
        model = self._model(view)
        weights = analysis["weights"]
        tables: dict[Bid, list[float]] = {}
        # value of each contract (level, strain) analysed
        values: dict[Bid, float] = {}
        for s, tr in analysis["tricks"].items():
            for level in range(6, 11):
                contract = Bid(level, None if s == 4 else _suit(s))
                values[contract] = _mean(
                    [self._declarer_value(model, view, view.seat, contract, t, tables,
                                          response=self.level.whist_response)
                     for t in tr],
                    weights,
                )
        misere_value = None
        if analysis["misere"] is not None and "MISERE" in legal:
            misere_value = _mean(
                [self._declarer_value(model, view, view.seat, MISERE, t, tables)
                 for t in analysis["misere"]],
                analysis["misere_weights"],
            )
        pass_value = self._pass_value(view, model, analysis)
        bids = []
        for token in legal:
            if token.upper() in ("PASS", "MISERE"):
                continue
            try:
                bids.append((Bid.parse(token), token))
            except ValueError:
                continue
        bids.sort(key=lambda bt: bt[0].step)
        if self._explaining is not None:
            self._note_auction(legal, values, misere_value, pass_value, bids, len(weights))
        best_contract = max(values.values()) if values else float("-inf")
        if misere_value is not None and misere_value > max(best_contract, pass_value) + 1.0:
            return "MISERE"
        for bid, token in bids:
            reachable = [v for c, v in values.items() if c.step >= bid.step]
            if reachable and max(reachable) > pass_value:
                return token
            break
        return "PASS" if "PASS" in legal else legal[0]

    def _note_auction(self, legal: list[str], values: dict[Bid, float],
                      misere_value: float | None, pass_value: float,
                      bids: list[tuple[Bid, str]], worlds: int) -> None:
        """The auction's values for :meth:`explain`: PASS, the lowest bid (worth the best
        contract at or above it, which is what bidding on aims at), MISERE; and the best
        contracts themselves."""
        noted: dict[str, float] = {}
        passes = [t for t in legal if t.upper() == "PASS"]
        if passes:
            noted[passes[0]] = pass_value
        every = dict(noted)  # every legal bid: the best contract it can still reach
        for bid, token in bids:
            reach = [v for c, v in values.items() if c.step >= bid.step]
            if reach:
                every[token] = max(reach)
        if bids and bids[0][1] in every:
            noted[bids[0][1]] = every[bids[0][1]]
        if misere_value is not None:
            misere = next(t for t in legal if t.upper() == "MISERE")
            noted[misere] = every[misere] = misere_value
        top = sorted(values.items(), key=lambda cv: (-cv[1], cv[0].step))[:3]
        self._note("bid", "whists", noted, worlds, every=every,
                   contracts={str(c): v for c, v in top}, misere_margin=1.0)

    def _pass_value(self, view: SeatView, model: ScoreModel,
                    analysis: Mapping[str, Any] | None = None) -> float:
        """What passing is worth: an all-pass risk when nobody has bid yet, else about 0.

        With :attr:`Level.rival_in_pass` (and the rival solved in ``analysis``), world by
        world: after a bid, what the highest bidder's contract is worth to this seat (worlds
        where it fails weigh less, as in the whist decision: a bidder seldom bids what it
        cannot make); before any bid, that of the strongest other hand when it makes six
        tricks double dummy, else the all-pass.
        """
        passed = {s for s, t in view.auction if t.upper() == "PASS"}
        others = [s for s in view.active_seats
                  if s != view.seat and s not in passed and s != view.dummy]
        bids_made = [t for s, t in view.auction if t.upper() != "PASS"]
        rivals = self._rivals(view)
        rival = analysis.get("rival") if analysis and rivals is not None else None
        if bids_made and not rival:
            return 0.0
        table = model.allpass_table()
        solved = analysis.get("allpass") if analysis else None
        if solved:
            allpass = _mean([_interpolate(table, ALLPASS_REAL * t) for t in solved],
                            analysis["weights"][: len(solved)])
        else:
            allpass = _interpolate(table, allpass_tricks(view.hand))
        if not rival or rivals is None:
            return self.level.allpass_chance ** len(others) * allpass
        level = rivals[0]
        tables: dict[int, dict[Bid, list[float]]] = {}
        values: list[float] = []
        weights: list[float] = []
        for (seat, strain, t), weight in zip(rival, analysis["weights"], strict=False):
            if not bids_made and t < level:
                values.append(allpass)
                weights.append(weight)
                continue
            contract = Bid(level, None if strain == 4 else _suit(strain))
            values.append(self._declarer_value(model, view, seat, contract, t,
                                               tables.setdefault(seat, {})))
            weights.append(weight * DECLARER_TRUST ** max(0, level - t) if bids_made
                           else weight)
        return _mean(values, weights)

    def _rivals(self, view: SeatView) -> tuple[int, tuple[int, ...]] | None:
        """Who would declare if this seat passed: (the level, the candidate seats): the
        highest bidder at its bid, or before any bid every other seat still bidding at the
        lowest level.  ``None`` where the level does not model it or the deal is not a
        plain three-hand auction (misère bid, variants)."""
        if (not self.level.rival_in_pass or view.players != 3 or view.dummy is not None
                or view.extras or self.rules.players != 3):
            return None
        bids = [(s, t) for s, t in view.auction if t.upper() != "PASS"]
        if bids:
            seat, token = bids[-1]
            try:
                bid = Bid.parse(token)
            except ValueError:
                return None
            if bid.misere or seat == view.seat:
                return None
            return bid.level, (seat,)
        passed = {s for s, t in view.auction if t.upper() == "PASS"}
        others = tuple(s for s in range(3) if s != view.seat and s not in passed)
        return (6, others) if others else None

    # --- the talon, the discard and the contract -----------------------------------------------
    def _contract_options(self, view: SeatView) -> list[Bid]:
        bid = view.bid
        rogue = rogue_contract_options(view)
        if rogue is not None:
            return rogue
        if bid is not None and bid.misere:
            return [MISERE]
        out = []
        for b in Bid.ladder():
            if bid is None or b.step >= bid.step:
                out.append(b)
        return out

    def _declarer_worlds(self, view: SeatView, rng: random.Random) -> dict[str, Any]:
        """The declarer's worlds after the talon, shared by the discard and the contract.

        Both decisions see the same unknown cards (the defenders' twenty), so the worlds drawn
        for the discard and every world already solved there serve the contract choice too.
        """
        held = view.hand | (view.discard if view.phase == "contract" else 0)
        key = ("declarer", view.seat, view.dealer, held, view.talon_mask,
               tuple(view.auction))
        hit = self._declarer_cache.get(key)
        if hit is None:
            if len(self._declarer_cache) > 8:
                self._declarer_cache.clear()
            worlds = self._sample(view, rng, self.level.worlds)
            hit = self._declarer_cache[key] = {"worlds": worlds, "solved": {}}
        return hit

    def _solve_declarer(self, view: SeatView, entry: dict[str, Any], kept: int, strain: int,
                        indices: list[int]) -> None:
        """Solve the declarer's ``kept`` ten cards in ``strain`` (-1: misère) on those worlds."""
        worlds: list[World] = entry["worlds"]
        values = entry["solved"].setdefault((kept, strain), [None] * len(worlds))
        todo = [i for i in indices if values[i] is None]
        if not todo:
            return
        positions = []
        for i in todo:
            hands = dict(enumerate(worlds[i].hands))
            hands[view.seat] = kept
            if strain < 0:
                positions.append(opening_position(view, hands, mode="misere", side=view.seat,
                                                  trump=None))
            else:
                positions.append(opening_position(view, hands, mode="contract", side=view.seat,
                                                  trump=strain if strain < 4 else None))
        if strain < 0:
            results = _misere_tricks(positions, self.threads)
        else:
            results = solve_batch(positions, threads=self.threads)
        for i, v in zip(todo, results, strict=True):
            values[i] = v

    def _declarer_score(self, view: SeatView, entry: dict[str, Any], kept: int, strain: int,
                        options: list[Bid], indices: list[int], real_play: bool = False,
                        ) -> tuple[float, Bid | None, list[float]]:
        """The best expected value of ``kept`` in ``strain`` on those worlds, its contract,
        and that contract's value world by world (with ``real_play``, through the gap of
        :mod:`.playgap`)."""
        self._solve_declarer(view, entry, kept, strain, indices)
        worlds: list[World] = entry["worlds"]
        values = entry["solved"][(kept, strain)]
        weights = [worlds[i].weight for i in indices]
        tricks = [values[i] for i in indices]
        model = self._model(view)
        tables: dict[Bid, Any] = {}
        if strain < 0:
            row = [self._declarer_value(model, view, view.seat, MISERE, t, tables)
                   for t in tricks]
            return _mean(row, weights), MISERE, row
        best, best_bid, best_row = float("-inf"), None, [0.0] * len(indices)
        for c in options:
            if c.misere or c.strain != strain:
                continue
            row = [self._declarer_value(model, view, view.seat, c, t, tables,
                                        real_play=real_play) for t in tricks]
            v = _mean(row, weights)
            if v > best + 1e-9:
                best, best_bid, best_row = v, c, row
        return best, best_bid, best_row

    def _discard(self, view: SeatView, rng: random.Random) -> str:
        """Every promising pair × strain raced over the worlds: screened on a few, the clear
        losers (paired against the leader, world by world) and the weaker half dropped round
        by round, the winner solved on every world (and kept for the contract choice)."""
        hand12 = view.hand
        options = self._contract_options(view)
        entry = self._declarer_worlds(view, rng)
        worlds: list[World] = entry["worlds"]
        if options == [MISERE]:
            candidates = [(hand12 & ~p, -1) for p in misere_discard_candidates(hand12, keep=6)]
        else:
            strains = sorted({b.strain for b in options},
                             key=lambda s: (-max(contract_tricks(hand12 & ~p, s)
                                                 for p in discard_candidates(hand12, s, keep=1)),
                                            -_length(hand12, s)))
            candidates = []
            for s in strains[:3]:
                for p in discard_candidates(hand12, s, keep=self.level.discard_keep):
                    if (hand12 & ~p, s) not in candidates:
                        candidates.append((hand12 & ~p, s))
        n = len(worlds)
        done = min(n, self.level.screen_worlds)
        solved = 0  # every candidate left is solved on the worlds before this one
        raced: dict[str, tuple[int, float, str | None]] = {}
        while True:
            reached = solved
            for lo, hi in self._deadline.spans(done - solved, name="discard",
                                               floor=FLOOR_WORLDS - solved):
                span = list(range(solved + lo, solved + hi))
                for kept, s in candidates:
                    self._solve_declarer(view, entry, kept, s, span)
                reached = solved + hi
            cut = reached < done
            done = solved = reached
            indices = list(range(done))
            weights = [worlds[i].weight for i in indices]
            scored = [self._declarer_score(view, entry, kept, s, options, indices)
                      for kept, s in candidates]
            order = sorted(range(len(candidates)), key=lambda i: -scored[i][0])
            if self._explaining is not None:  # each discard's latest value, for a hint
                for i in reversed(order):
                    token = _discard_token(hand12 & ~candidates[i][0])
                    value, bid, _ = scored[i]
                    if raced.get(token, (0, float("-inf")))[:2] <= (done, value):
                        raced[token] = (done, value, None if bid is None else str(bid))
            if done >= n or cut:
                break
            lead = scored[order[0]][2]
            survivors = [order[0]]
            for i in order[1: max(1, (len(candidates) + 1) // 2)]:
                if not _clearly_worse(scored[i][2], lead, weights):
                    survivors.append(i)
            candidates = [candidates[i] for i in survivors]
            done = n if len(candidates) <= 2 else min(n, done * 2)
        if self._explaining is not None:  # a dropped discard: its value where it was dropped
            self._note("discard", "whists", {k: v[1] for k, v in raced.items()}, done,
                       contracts={k: v[2] for k, v in raced.items()},
                       option_worlds={k: v[0] for k, v in raced.items()})
        return _discard_token(hand12 & ~candidates[order[0]][0])

    def _contract(self, view: SeatView, rng: random.Random) -> str:
        legal = view.legal
        options = []
        for t in legal:
            try:
                options.append((Bid.parse(t), t))
            except ValueError:
                continue
        if not options:
            return legal[0]
        if all(b.misere for b, _ in options):
            return options[0][1]
        if any(b.misere for b, _ in options):  # a blind winner may name misère instead
            if misere_contract_ok(view):
                return next(t for b, t in options if b.misere)
            options = [(b, t) for b, t in options if not b.misere]
        entry = self._declarer_worlds(view, rng)
        hand = view.hand
        solved = {s for (kept, s) in entry["solved"] if kept == hand}
        strains = sorted({b.strain for b, _ in options},
                         key=lambda s: (s not in solved, -contract_tricks(hand, s),
                                        -_length(hand, s)))
        strains = strains[: max(self.level.contract_strains, len(solved))]
        reached = 0
        for lo, hi in self._deadline.spans(len(entry["worlds"]), name="contract"):
            for s in strains:
                self._solve_declarer(view, entry, hand, s, list(range(lo, hi)))
            reached = hi
        indices = list(range(reached))
        bids = [b for b, _ in options]
        best_bid, best_value = options[0][0], float("-inf")
        noted: dict[str, float] = {}
        for s in strains:
            value, bid, _ = self._declarer_score(view, entry, hand, s, bids, indices,
                                                 real_play=self.level.play_gap)
            if bid is not None:
                noted[next(t for b, t in options if b == bid)] = value
            if bid is not None and value > best_value + 1e-9:
                best_bid, best_value = bid, value
        self._note("contract", "whists", noted, reached)
        return next(t for b, t in options if b == best_bid)

    # --- the defence -------------------------------------------------------------------------
    def _defence(self, view: SeatView, rng: random.Random) -> str:
        legal = [t.upper() for t in view.legal]
        contract = view.contract
        declarer = view.declarer
        if contract is None or declarer is None:
            return view.legal[0]
        worlds = self._sample(view, rng, self.level.worlds)
        trump = None if contract.trump is None else int(contract.trump)
        worlds, values = self._solve_openings(view, worlds, declarer, trump, "defence")
        # a declarer seldom names a contract it cannot make: worlds where it fails count less
        weights = [
            w.weight * DECLARER_TRUST ** max(0, contract.level - t)
            for w, t in zip(worlds, values, strict=True)
        ]
        model = self._model(view)
        defs = model.defenders(declarer)
        me = view.seat
        other = defs[1] if defs[0] == me else defs[0]
        calls = [t.upper() for _, t in view.defence]
        need = {6: 2.0, 7: 1.0}.get(contract.level, 0.7)
        played_half = self.rules.half_whist_played  # house option: HALF means playing

        def value(whisters: tuple[int, ...], t: int, defence: tuple[str, ...] = (),
                  half: int | None = None, split: float = 0.5) -> float:
            outcome = model.contract_outcome(
                declarer, contract, t, whisters=whisters, defence=defence, half_whister=half,
                open_defence=True if len(whisters) == 1 else None, split=split)
            return model.value(outcome)

        results: dict[str, list[float]] = {k: [] for k in legal}
        for w, t in zip(worlds, values, strict=True):
            mine = defence_tricks(w.hands[me], trump)
            theirs = defence_tricks(w.hands[other], trump)
            share = 0.5 if mine + theirs <= 0 else mine / (mine + theirs)
            split = share if defs[0] == me else 1 - share
            other_whists = theirs + 0.3 >= need
            for option in legal:
                if not calls:  # I speak first
                    if option == "WHIST":
                        wh = (me, other) if other_whists else (me,)
                        v = value(wh, t, split=split)
                    else:  # PASS: the other whists alone or lets it go
                        if other_whists and theirs >= need * 1.5:
                            v = value((other,), t, split=split)
                        else:
                            v = model.unplayed_value(declarer, contract)
                elif calls == ["WHIST"]:
                    v = value((other, me), t, split=split) if option == "WHIST" else value(
                        (other,), t, split=split)
                elif calls == ["PASS"]:
                    if option == "WHIST":
                        v = value((me,), t, split=split)
                    elif option == "HALF" and played_half:  # the half-whist is played out
                        v = value((me,), t, defence=("PASS", "HALF", "PASS"), half=me,
                                  split=split)
                    elif option == "HALF":
                        v = model.unplayed_value(declarer, contract, half_whister=me)
                    else:
                        v = model.unplayed_value(declarer, contract)
                else:  # reopening after PASS, HALF
                    if option == "WHIST":
                        v = value((me,), t, defence=("PASS", "HALF", "WHIST"), half=other,
                                  split=split)
                    elif played_half:
                        v = value((other,), t, defence=("PASS", "HALF", "PASS"), half=other,
                                  split=split)
                    else:
                        v = model.unplayed_value(declarer, contract, half_whister=other)
                results[option].append(v)
        scored = {k: _mean(v, weights) for k, v in results.items()}
        # ties and near-ties go to the cautious call
        order = ["PASS", "HALF", "WHIST"]
        best = max(scored, key=lambda k: (scored[k], -order.index(k) if k in order else 0))
        original = {t.upper(): t for t in view.legal}
        self._note("defence", "whists", {original.get(k, k): v for k, v in scored.items()},
                   len(worlds))
        return original.get(best, view.legal[0])

    def _defence_mode(self, view: SeatView, rng: random.Random) -> str:
        legal = [t.upper() for t in view.legal]
        if "OPEN" not in legal or "CLOSED" not in legal or not self.level.mode_simulations:
            return "OPEN" if "OPEN" in legal else view.legal[0]
        worlds = self._sample(view, rng, self.level.mode_simulations)
        rules = self.rules

        def make_bot(seed: int) -> MonteCarloPlayer:
            return MonteCarloPlayer(rules, seed, SIMULATION, threads=self.threads)

        report: dict[str, Any] | None = {} if self._explaining is not None else None
        token = choose_mode(view, rules, worlds, self._model(view),
                            simulations=self.level.mode_simulations, rng=rng,
                            make_bot=make_bot, threads=self.threads,
                            by_score=self.level.score_aware, deadline=self._deadline,
                            report=report)
        if report:
            original = {t.upper(): t for t in view.legal}
            values = report["values"] if self.level.score_aware else report["tricks"]
            self._note("defence mode", "whists" if self.level.score_aware else "tricks",
                       {original[k]: v for k, v in values.items()}, report["worlds"],
                       margin=report["margin"], counted="side")
        return token

    # --- the structural variants (see :mod:`.variants`) ----------------------------------------
    def _name(self, view: SeatView, rng: random.Random) -> str:
        """The Rogue: name the list item with the best value now against its value later."""
        legal = view.legal
        model = self._model(view)
        if self.level.name == "normal":
            profile = evaluation_profile(view.hand)
            baseline = evaluation_baseline(self.rules)
        else:
            keys = {rogue_item(t)[2] for t in legal if _is_item(t)}
            n = max(8, min(NAME_WORLDS, self.level.bid_worlds // 2))
            profile = self._rogue_profile(view, rng, keys, n)
            baseline = self._rogue_baseline(view)
        items_left, copies = rogue_copies(view)
        scores = rogue_scores(self.rules, model, view.seat, legal, profile, baseline,
                              items_left, copies)
        if not scores:
            return legal[0]
        worlds = len(next(iter(profile.values()), ())) if profile else 0
        self._note("name", "whists", {t: v for t, v in scores.items() if t in legal}, worlds)
        return max(legal, key=lambda t: scores.get(t, float("-inf")))

    def _rogue_profile(self, view: SeatView, rng: random.Random, keys: set[Any], n: int,
                       *, clocked: bool = True) -> Profile:
        """The soloist's tricks in each strain the items need, solved on ``n`` worlds: the
        talon imagined and taken, a good discard per strain, ``any`` in the strain the
        evaluation prefers after the discard, misère with its own discard.  ``clocked``:
        on the decision's clock (not for the baseline every later decision shares)."""
        deadline = self._deadline if clocked else Deadline(None)
        worlds = self._sample(view, rng, n)
        hand = view.hand
        strains = sorted({k for k in keys if isinstance(k, int)} | (
            set(range(5)) if "any" in keys else set()))
        best: list[int] = []
        tricks = {s: [0] * len(worlds) for s in strains}
        used = 0
        for lo, hi in deadline.spans(len(worlds), name="rogue"):
            positions = []
            index: list[tuple[int, int]] = []
            for wi in range(lo, hi):
                w = worlds[wi]
                hand12 = hand | w.extra
                kept_est = {}
                for s in strains:
                    pair = discard_candidates(hand12, s, keep=1, pruned=True)[0]
                    hands = dict(enumerate(w.hands))
                    hands[view.seat] = hand12 & ~pair
                    kept_est[s] = contract_tricks(hand12 & ~pair, s)
                    positions.append(opening_position(
                        view, hands, mode="contract", side=view.seat,
                        trump=s if s < 4 else None))
                    index.append((wi, s))
                best.append(max(kept_est, key=lambda s: kept_est[s]) if kept_est else 0)
            values = solve_batch(positions, threads=self.threads) if positions else []
            for (wi, s), v in zip(index, values, strict=True):
                tricks[s][wi] = v
            used = hi
        worlds = worlds[:used]
        tricks = {s: t[:used] for s, t in tricks.items()}
        weights = [w.weight for w in worlds]
        profile: Profile = {s: list(zip(tricks[s], weights, strict=True)) for s in strains}
        if "any" in keys:
            profile["any"] = [(tricks[best[i]][i], weights[i]) for i in range(len(worlds))]
        if "misere" in keys:
            mpos = _misere_openings(view, hand, worlds)
            mt = _misere_tricks(mpos, self.threads, exact=max(4, len(mpos) // 4),
                                deadline=deadline)
            profile["misere"] = list(zip(mt, weights[: len(mt)], strict=True))
        return profile

    def _rogue_baseline(self, view: SeatView) -> list[Profile]:
        """Solved profiles of random hands (once per process and table shape): what an item
        can expect on a later deal, measured the way this hand is."""
        key = (view.players,)
        hit = _BASELINES.get(key)
        if hit is not None:
            return hit
        rng = random.Random(7)
        out = []
        for _ in range(BASELINE_SOLVED_HANDS):
            cards = rng.sample(range(32), 10)
            hand = sum(1 << c for c in cards)
            fake = replace(view, hand=hand, exposed={}, talon=None, discard=0)
            out.append(self._rogue_profile(fake, rng, {0, 4, "any", "misere"},
                                           BASELINE_WORLDS, clocked=False))
        for p in out:  # suits are alike: every suit's tricks as the spades'
            for s in (1, 2, 3):
                p[s] = p[0]
        _BASELINES[key] = out
        return out

    def _hand_bid(self, view: SeatView, rng: random.Random) -> str | None:
        """Classical: a hand bid over a misère when the ten cards make it without the talon."""
        legal = view.legal
        if self.level.name == "normal":
            from .variants import evaluation_clean, evaluation_make

            return hand_bid_choice(legal, lambda n: evaluation_make(view.hand, n),
                                   lambda: evaluation_clean(view.hand))
        worlds = self._sample(view, rng, max(8, self.level.worlds // 2))
        hand = view.hand
        ranked = sorted(range(5), key=lambda s: -contract_tricks(hand, s))[:2]
        values: list[int] = []
        used = 0
        for lo, hi in self._deadline.spans(len(worlds), name="hand bid"):
            positions = []
            for w in worlds[lo:hi]:
                hands = dict(enumerate(w.hands))
                hands[view.seat] = hand
                for s in ranked:
                    positions.append(opening_position(view, hands, mode="contract",
                                                      side=view.seat,
                                                      trump=s if s < 4 else None))
            values += solve_batch(positions, threads=self.threads)
            used = hi
        worlds = worlds[:used]
        weights = [w.weight for w in worlds]
        total = sum(weights) or 1.0
        per = {s: [values[i * len(ranked) + j] for i in range(len(worlds))]
               for j, s in enumerate(ranked)}
        strain = max(ranked, key=lambda s: _mean([float(v) for v in per[s]], weights))

        def make(level: int) -> float:
            return sum(w for w, t in zip(weights, per[strain], strict=True) if t >= level) / total

        def clean() -> float:
            mpos = []
            for w in worlds:
                hands = dict(enumerate(w.hands))
                hands[view.seat] = hand
                mpos.append(opening_position(view, hands, mode="misere", side=view.seat,
                                             trump=None))
            ok = [misere_can_take_none(p) for p in mpos]
            return sum(w for w, c in zip(weights, ok, strict=True) if c) / total

        return hand_bid_choice(legal, make, clean)

    def _defence_two(self, view: SeatView, rng: random.Random) -> str:
        """Two players: WHIST (then OPEN with the dummy or ALONE) or PASS, by the whists each
        is worth.  Hard and Crazy solve the declarer's tricks against the whister and the
        dummy on imagined deals (the C solver), and against the whister ALONE on the first
        16 (Hard) / 32 (Crazy) of them (:mod:`.twohand`); Normal estimates both from the
        hand."""
        contract, declarer = view.contract, view.declarer
        if contract is None or declarer is None:
            return view.legal[0]
        trump = None if contract.trump is None else int(contract.trump)
        if self.level.name == "normal":
            open_tricks = open_profile_estimate(view.hand, trump, contract.level)
        else:
            worlds = self._sample(view, rng, self.level.worlds)
            worlds, values = self._solve_openings(view, worlds, declarer, trump, "two players")
            open_tricks = [
                (t, w.weight * DECLARER_TRUST ** max(0, contract.level - t))
                for w, t in zip(worlds, values, strict=True)
            ]
        alone = None
        if alone_allowed(self.rules, contract):
            if self.level.name == "normal":
                alone = alone_profile(view.hand, trump, contract.level)
            else:  # the lone whister against the declarer's hand, solved two-handed
                me_leads = view.seat == 1 - view.dealer  # the dummy's neighbour leads
                guess = round(defence_tricks(view.hand, trump))
                n = min(len(worlds), self.level.mode_simulations * 2 or 16)
                alone = []
                for lo, hi in self._deadline.spans(n, name="alone", step=4):
                    alone += [
                        (10 - two_hand_tricks(view.hand, w.hands[declarer], me_leads, trump,
                                              guess), weight)
                        for w, (_, weight) in zip(worlds[lo:hi], open_tricks[lo:hi],
                                                  strict=True)
                    ]
        values_by_call = two_player_values(self.rules, self._model(view), view, open_tricks,
                                           alone)
        self._note("defence", "whists",
                   {t: values_by_call[t.upper()] for t in view.legal
                    if t.upper() in values_by_call}, len(open_tricks))
        return choose_two_player(values_by_call, view.legal)

    def _invite(self, view: SeatView) -> str:
        """Classical: the soloist invites the dealer when he expects to lose; the tricks come
        from the worlds the discard and the contract choice solved (else the evaluation)."""
        tricks = None
        contract = view.contract
        if contract is not None and view.declarer == view.seat:
            strain = -1 if contract.misere else (4 if contract.trump is None
                                                 else int(contract.trump))
            for entry in self._declarer_cache.values():
                solved = entry["solved"].get((view.hand, strain))
                if solved and all(v is not None for v in solved):
                    tricks = [(t, w.weight) for t, w in zip(solved, entry["worlds"],
                                                            strict=True)]
                    break
        return invite_choice(view, self._model(view), tricks)

    def _two_hand_card(self, view: SeatView, rng: random.Random) -> str:
        """Two hands play (a two-player all-pass, a lone whister): the three-handed solver
        cannot model it.  Hard and Crazy search the last :data:`TWO_HAND_ENDGAME` cards
        exactly on imagined deals (:mod:`.twohand`: tricks for a lone whister's game, as few
        as possible in an all-pass); before that, and for Normal, the Easy player's table
        heuristic without its careless cards."""
        from .easy import EasyPlayer

        heuristic = EasyPlayer(self.rules, self.seed, carelessness=0.0)._play(view, rng)
        cards = view.legal_cards()
        me = view.hand_to_play if view.hand_to_play is not None else view.seat
        players = [s for s in view.active_seats if s != view.dummy]
        if (self.level.name == "normal" or not cards or me not in players
                or view.hand.bit_count() > TWO_HAND_ENDGAME):
            return heuristic
        opp = next(s for s in players if s != me)
        allpass = view.is_allpass
        trump = None if allpass else view.trump
        worlds = self._sample(view, rng, max(8, self.level.worlds // 8))
        maximize = not allpass
        scores: dict[Card, float] = dict.fromkeys(cards, 0.0)
        used = 0
        for lo, hi in self._deadline.spans(len(worlds), name="two hands", step=2):
            for card in cards:
                _two_hand_add(view, card, worlds[lo:hi], opp, trump, maximize, scores)
            used = hi
        if self._explaining is not None:
            total = sum(w.weight for w in worlds[:used]) or 1.0
            self._note("card", "tricks", {str(c): v / total for c, v in scores.items()}, used,
                       tricks={str(c): (v if maximize else -v) / total
                               for c, v in scores.items()},
                       counted="side" if maximize else "own")
        return str(max(cards, key=lambda c: (round(scores[c], 9), -int(c.rank), -c.index)))

    # --- the play --------------------------------------------------------------------------
    def _play(self, view: SeatView, rng: random.Random) -> str:
        legal_cards = view.legal_cards()
        if not legal_cards:
            return view.legal[0]
        hand_to_play = view.hand_to_play if view.hand_to_play is not None else view.seat
        if view.is_allpass:
            mode, side = "allpass", hand_to_play
        elif view.is_misere:
            mode, side = "misere", view.declarer
        else:
            mode, side = "contract", view.declarer
        assert side is not None
        worlds = self._sample(view, rng, self.level.worlds)
        results: list[dict[int, int]] = []
        for lo, hi in self._deadline.spans(len(worlds), name="play"):
            part = worlds[lo:hi]
            if self.level.play_inference and (
                    self.level.declarer_inference or mode != "contract"
                    or hand_to_play != side):
                factors = play_weights(view, part, allpass_talon=self.rules.allpass_talon,
                                       threads=self.threads, cache=self._inference_cache)
                for w, f in zip(part, factors, strict=True):
                    w.weight *= f
            positions = [
                play_position(view, w, mode=mode, side=side,
                              allpass_talon=self.rules.allpass_talon)
                for w in part
            ]
            results += solve_moves_batch(positions, threads=self.threads)
        worlds = worlds[: len(results)]
        weights = [w.weight for w in worlds]
        me = view.seat
        if self.level.score_aware:
            model = self._model(view)
            item = view.extras.get("rogue_item")
            base = view.tricks_won[side] if side < len(view.tricks_won) else 0
            whisters = tuple(s for s, t in view.defence if t.upper() == "WHIST")
            if mode == "allpass":
                table = model.allpass_table()
            elif item and view.contract is not None:  # the Rogue: the named game's values
                table = rogue_table(self.rules, model, side, view.contract, str(item))
            elif self.level.play_table:
                contract = MISERE if view.is_misere else view.contract
                assert contract is not None
                table = model.play_table(side, contract, view.tricks_won,
                                         whisters=whisters, open_defence=view.open_defence)
                base = 0
            elif view.is_misere:
                table = model.contract_table(side, MISERE)
            else:
                assert view.contract is not None
                table = model.contract_table(side, view.contract, whisters=whisters)

            def utility(v: int) -> float:
                return table[max(0, min(10, base + v))]
        else:
            declaring = hand_to_play == side
            if mode == "allpass":
                sign = -1.0
            elif mode == "misere":
                sign = -1.0 if declaring else 1.0
            else:
                sign = 1.0 if declaring else -1.0

            def utility(v: int) -> float:
                return sign * v

        scores: dict[Card, float] = {}
        for card in legal_cards:
            vals = []
            for res in results:
                v = res.get(card.index)
                vals.append(utility(v) if v is not None else float("-inf"))
            scores[card] = _mean(vals, weights) if all(x != float("-inf") for x in vals) else -1e9
        del me
        if self._explaining is not None:
            self._note_play(view, mode, side, hand_to_play, legal_cards, scores, results,
                            weights)
        best = max(legal_cards, key=lambda c: (round(scores[c], 9), -int(c.rank), -c.index))
        return str(best)

    def _note_play(self, view: SeatView, mode: str, side: int, hand_to_play: int,
                   cards: list[Card], scores: dict[Card, float],
                   results: list[dict[int, int]], weights: list[float]) -> None:
        """The card play's values for :meth:`explain`, and the tricks each card yields over
        the worlds from now on: the player's side's (``counted`` ``side``, more is better), his
        own (``own``: an all-pass, a misère declarer, fewer is better) or a misère declarer's
        (``declarer``: his defenders want more)."""
        remaining = 10 - sum(view.tricks_won)
        declaring = hand_to_play == side
        if mode == "contract":
            counted = "side"
        elif mode == "misere":
            counted = "own" if declaring else "declarer"
        else:
            counted = "own"
        flip = mode == "contract" and not declaring
        tricks: dict[str, float] = {}
        for card in cards:
            got = [res.get(card.index) for res in results]
            if any(v is None for v in got):
                continue
            tricks[str(card)] = _mean([float(remaining - v if flip else v)
                                       for v in got if v is not None], weights)
        self._note("card", "whists" if self.level.score_aware else "tricks",
                   {str(c): v for c, v in scores.items() if v > -1e9}, len(results),
                   tricks=tricks, counted=counted)


MISERE_FLOOR = 8
"""The fewest failing misères counted exactly on a clock (each costs about ten contracts)."""
TWO_HAND_ENDGAME = 6
"""Two hands playing: the exact search takes over when each holds at most this many cards."""
NAME_WORLDS = 64
"""At most this many worlds for the Rogue's naming (five strains and misère on each)."""
BASELINE_SOLVED_HANDS = 48
"""Random hands solved once per process for the Rogue items' later value (Hard, Crazy)."""
BASELINE_WORLDS = 4
"""Worlds per random hand of that baseline."""
_BASELINES: dict[tuple[Any, ...], list[Profile]] = {}


def _rival_hands(w: World, rivals: tuple[int, tuple[int, ...]]
                 ) -> tuple[int, int, dict[int, int]]:
    """The rival who would declare in world ``w`` (of the candidates, the one whose hand
    with the talon the evaluation rates highest), its strain and the hands after its
    discard."""
    best: tuple[float, int, int] | None = None
    for seat in rivals[1]:
        hand12 = w.hands[seat] | w.extra
        strain = best_strain(hand12)
        estimate = contract_tricks(hand12, strain)
        if best is None or estimate > best[0]:
            best = (estimate, seat, strain)
    assert best is not None
    _, seat, strain = best
    hand12 = w.hands[seat] | w.extra
    pair = discard_candidates(hand12, strain, keep=1, pruned=True)[0]
    hands = dict(enumerate(w.hands))
    hands[seat] = hand12 & ~pair
    return seat, strain, hands


def _discard_token(pair: int) -> str:
    """``DISCARD`` and the two cards of ``pair`` (a mask), lowest first."""
    cards = sorted(Card.from_index(i) for i in mask_indices(pair))
    return "DISCARD " + " ".join(str(c) for c in cards)


def _beats(card: Card, other: Card, trump: int | None) -> bool:
    """Whether ``card``, played second, beats ``other`` (led)."""
    if card.suit == other.suit:
        return int(card.rank) > int(other.rank)
    return trump is not None and int(card.suit) == trump


def _two_hand_add(view: SeatView, card: Card, worlds: list[World], opp: int, trump: int | None,
                  maximize: bool, scores: dict[Card, float]) -> None:
    """Add ``card``'s weighted tricks (all-pass: minus the tricks) over ``worlds`` to its
    score: it ends the trick the other hand led, or leads and the other hand answers."""
    rest = view.hand & ~card.mask
    for w in worlds:
        opp_hand = w.hands[opp]
        if view.trick:  # the other hand led: this card ends the trick
            lead = view.trick[0][1]
            won = int(_beats(card, lead, trump))
            mine = won + two_hand_tricks(rest, opp_hand, bool(won), trump, maximize=maximize)
        else:  # this card leads: the other hand answers as suits him
            outcomes = []
            for reply in _playable(opp_hand, int(card.suit), trump):
                won = int(not _beats(Card.from_index(reply), card, trump))
                outcomes.append(won + two_hand_tricks(
                    rest, opp_hand & ~(1 << reply), bool(won), trump, maximize=maximize))
            mine = min(outcomes) if maximize else max(outcomes)
        scores[card] += w.weight * (mine if maximize else -mine)


def _playable(hand: int, suit: int, trump: int | None) -> list[int]:
    """The cards (indices) a hand may play to a trick led in ``suit``: follow, else trump."""
    same = hand & (0xFF << (8 * suit))
    if not same and trump is not None:
        same = hand & (0xFF << (8 * trump))
    return mask_indices(same or hand)


def _length(hand: int, strain: int) -> int:
    """Cards held in a suit (0 for no trump): the tie-break between equal strains."""
    return (hand >> (8 * strain) & 0xFF).bit_count() if strain < 4 else 0


def _is_item(token: str) -> bool:
    try:
        rogue_item(token)
    except ValueError:
        return False
    return True


def _clearly_worse(row: list[float], lead: list[float], weights: list[float],
                   z: float = 2.0) -> bool:
    """Whether ``row`` trails ``lead`` by more than ``z`` standard errors, world by world.

    >>> _clearly_worse([0, 0, 0, 0], [2, 3, 2, 3], [1, 1, 1, 1])
    True
    >>> _clearly_worse([2, 0, 3, 1], [0, 2, 1, 3], [1, 1, 1, 1])
    False
    """
    total = sum(weights)
    if total <= 0 or len(row) < 4:
        return False
    diffs = [a - b for a, b in zip(row, lead, strict=True)]
    mean = sum(d * w for d, w in zip(diffs, weights, strict=True)) / total
    var = sum(w * (d - mean) ** 2 for d, w in zip(diffs, weights, strict=True)) / total
    se = (var / len(row)) ** 0.5
    return mean + z * se < 0 if se > 0 else mean < 0


class _MisereOpenings(Sequence[Position]):
    """The misère before the first lead in each world: the seat takes the world's talon
    (``extra``) and discards the pair the evaluation likes best.  Each position is built
    when first read (a decision on a clock may read only some)."""

    def __init__(self, view: SeatView, hand: int, worlds: list[World]) -> None:
        self.view, self.hand, self.worlds = view, hand, worlds
        self._built: dict[int, Position] = {}

    def __len__(self) -> int:
        return len(self.worlds)

    @overload
    def __getitem__(self, i: int) -> Position: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Position]: ...

    def __getitem__(self, i: int | slice) -> Position | Sequence[Position]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        pos = self._built.get(i)
        if pos is None:
            w = self.worlds[i]
            hand12 = self.hand | w.extra
            pair = misere_discard_candidates(hand12, keep=1)[0]
            hands = dict(enumerate(w.hands))
            hands[self.view.seat] = hand12 & ~pair
            pos = self._built[i] = opening_position(self.view, hands, mode="misere",
                                                    side=self.view.seat, trump=None)
        return pos


def _misere_openings(view: SeatView, hand: int, worlds: list[World]) -> Sequence[Position]:
    """The misère before the first lead in each world (see :class:`_MisereOpenings`)."""
    return _MisereOpenings(view, hand, worlds)


def _misere_tricks(positions: Sequence[Position], threads: int, exact: int | None = None,
                   deadline: Deadline | None = None) -> list[int]:
    """Misère trick counts: the fast yes/no test on every position first, then an exact count
    where it says the declarer must take a trick.  ``exact``: count at most that many of the
    failing positions exactly and give the others those counts in turn (bidding only needs
    how often misère fails and roughly how badly).  On a ``deadline`` both steps are
    anytime: the counts returned are those of the positions tested (a prefix)."""
    clock = deadline if deadline is not None else Deadline(None)
    dirty: list[int] = []
    tested = 0
    for lo, hi in clock.spans(len(positions), name="misere test"):
        dirty += [i for i in range(lo, hi) if not misere_can_take_none(positions[i])]
        tested = hi
    out = [0] * tested
    if not dirty:
        return out
    counted = dirty if exact is None else dirty[:exact]
    values: list[int] = []
    for lo, hi in clock.spans(len(counted), name="misere count", floor=MISERE_FLOOR,
                              step=MISERE_FLOOR):
        values += solve_batch([positions[i] for i in counted[lo:hi]], threads=threads)
    for j, i in enumerate(dirty):
        out[i] = values[j % len(values)]
    return out


def _suit(strain: int) -> Any:
    from ..cards import Suit

    return Suit(strain)


def _fallback(view: SeatView, legal: list[str]) -> str:
    """A safe legal choice when solving is not possible (an odd position)."""
    upper = [t.upper() for t in legal]
    for word in ("PASS", "OPEN"):
        if word in upper:
            return legal[upper.index(word)]
    if view.phase == "play":
        cards = view.legal_cards()
        if cards:
            return str(min(cards, key=lambda c: (int(c.rank), c.index)))
    if view.phase == "contract":
        return legal[0]
    return legal[0]


def strength_hint(hand: int) -> tuple[int, float]:
    """The best strain and its estimated tricks (for displays and tests)."""
    s = best_strain(hand)
    return s, contract_tricks(hand, s)


__all__ = ["CRAZY", "HARD", "NORMAL", "Level", "MonteCarloPlayer", "talon_leads"]
