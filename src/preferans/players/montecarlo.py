"""Normal, Hard and Crazy: players that imagine deals and solve them (Perfect-Information
Monte Carlo).

Every decision draws worlds consistent with what the seat has seen, weighted by what the
others said (:mod:`.sampling`), solves each world exactly with the double-dummy solver
(:mod:`preferans.solver`) and takes the action with the best average.  The player is thin:
:class:`MonteCarloPlayer` picks the decision module that answers the phase, and each
decision lives in a module of its own, a function of the player's shared state
(:class:`.thinker.Thinker`) and the seat's view:

- the levels, data: :mod:`.levels` (:class:`Level`: Normal, Hard, Crazy);
- the auction: :mod:`.auction` (with the all-pass risk of :mod:`.allpass` and the misère of
  :mod:`.misere`);
- the discard and the contract: :mod:`.declarer`;
- whist, pass or half-whist, and a lone whister's open or closed: :mod:`.defence`;
- card play, the two-hand endgames included: :mod:`.play`;
- the structural variants' calls (the Rogue, Classical, two players): :mod:`.variant_calls`;
- what a contract is worth to the seat: :mod:`.contract_value`.

Scores come from :func:`preferans.players.utility.cached_model`: the sheet's own scoring,
memoised per sheet and read lazily, so a decision pays only for the trick counts it meets.

Normal uses a few worlds and counts tricks; Hard at least 100 worlds and counts
tricks in the play; Crazy four times Hard's worlds and values *every* decision by the
expected change of its settlement balance under the rules and the current sheet
(:class:`preferans.players.utility.ScoreModel`).
"""

from __future__ import annotations

from typing import Any

from ..solver import SolverError
from . import auction, declarer, defence, play, variant_calls
from .clock import Deadline
from .explain import explanation
from .levels import CRAZY, HARD, LEVELS_BY_NAME, NORMAL, SIMULATION, Level
from .sampling import decision_rng
from .solving import talon_leads
from .thinker import Thinker
from .variants import blind_choice, hand_bids, write_choice
from .view import SeatView


class MonteCarloPlayer(Thinker):
    """A Perfect-Information Monte Carlo player (Normal, Hard or Crazy).

    Deterministic: each decision's random draws are seeded from the player's seed and
    the observation (less the sheet and the players' names, see
    :func:`.sampling.decision_rng`), so the same observation always gets the same answer,
    and the hidden cards (which the observation does not contain) cannot change it.

    ``budget``: seconds of wall-clock time per decision (see :mod:`.clock`), read from
    ``clock``; ``None`` (the default here; :func:`preferans.players.make_player` gives each
    level its budget) for none.  A budget that binds makes the decision depend on the
    machine's speed; one that does not bind changes nothing.  :attr:`last_deadline` holds
    the last decision's clock and the worlds each of its stages used.
    """

    def choose(self, observation: dict[str, Any]) -> str:
        legal = [str(t) for t in observation.get("legal") or []]
        if not legal:
            raise ValueError(f"seat {observation.get('seat')} has no legal action to choose")
        if len(legal) == 1:
            return legal[0]
        self.deadline = self.last_deadline = Deadline(self.budget, self.clock, self.waited)
        self.waited = 0.0
        view = SeatView.from_observation(observation)
        rng = decision_rng(self.seed, observation)
        phase = view.phase
        try:
            if phase == "auction" and ("SEE" in legal or view.extras.get("hand_hidden")):
                token = blind_choice(view, self.rules)
            elif phase == "auction" and hand_bids(legal):
                token = (variant_calls.hand_bid(self, view, rng)
                         or auction.auction(self, view, rng))
            elif phase == "auction":
                token = auction.auction(self, view, rng)
            elif phase == "name":
                token = variant_calls.name_item(self, view, rng)
            elif phase == "write":
                token = write_choice(view, self.rules)
            elif phase == "halftime":  # Classical: the leader keeps the rules' pool and time
                token = legal[0]
            elif phase == "invite":
                token = variant_calls.invite(self, view)
            elif view.dummy is not None and phase in ("defence", "defence mode"):
                token = variant_calls.two_player_defence(self, view, rng)
            elif phase == "play" and view.two_hand_play:
                token = play.two_hand_card(self, view, rng)
            elif phase == "discard":
                token = declarer.discard(self, view, rng)
            elif phase == "contract":
                token = declarer.contract(self, view, rng)
            elif phase == "defence":
                token = defence.whist_call(self, view, rng)
            elif phase.startswith("defence"):
                token = defence.open_or_closed(self, view, rng, self._simulator)
            elif phase == "play":
                token = play.play_card(self, view, rng)
            else:
                token = legal[0]
        except (SolverError, KeyError, ValueError):
            # a position the imagined deals cannot model (e.g. a four-player all-pass where
            # the dealer's talon cards take tricks): a safe legal choice instead
            token = _fallback(view, legal)
            if self.explaining is not None:
                self.explaining.clear()  # no figures stand behind a fallback
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
        self.explaining = notes = {}
        try:
            token = self.choose(observation)
        finally:
            self.explaining = None
        return explanation(self.level.name, observation, token, notes,
                           self.last_deadline if len(observation.get("legal") or []) > 1
                           else None)

    def _simulator(self, seed: int) -> MonteCarloPlayer:
        """The quick player that plays imagined deals out for the lone whister's choice."""
        return MonteCarloPlayer(self.rules, seed, SIMULATION, threads=self.threads)


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


__all__ = ["CRAZY", "HARD", "LEVELS_BY_NAME", "NORMAL", "Level", "MonteCarloPlayer",
           "decision_rng", "talon_leads"]
