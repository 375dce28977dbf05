"""A whole game: deals in a row on one pulya sheet until every pool is closed.

The dealer moves left after every deal (all-pass included); each deal's
minimum bid follows the sheet's all-pass streak; deals are shuffled from a
seeded ``random.Random`` unless given.

>>> from preferans.rules import Rules
>>> g = Game(Rules.preset("sochi", pool=2), seed=7)
>>> d = g.start_deal()
>>> g.dealer, d.first_hand
(0, 1)
>>> while not g.finished:
...     if g.deal is None:
...         _ = g.start_deal()
...     g.apply(g.legal_actions()[-1])
>>> g.sheet.finished, len(g.finished_deals) > 0
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .actions import Action, IllegalAction
from .cards import Card, CardSet
from .deal import Deal, Phase
from .record_format import RecordError, read_record, write_record
from .rules import Rules
from .sheet import Sheet


class GameOver(ValueError):
    """A deal was asked for after every pool closed."""


class Game:
    """Deals in a row, the score sheet, dealer rotation and the all-pass streak.

    ``players`` names the seats clockwise (four names need ``rules.players == 4``;
    by default ``A B C`` or ``A B C D``).  ``seed`` seeds the shuffles.
    """

    def __init__(
        self,
        rules: Rules,
        players: Sequence[str] | None = None,
        *,
        seed: int | None = None,
        first_dealer: int = 0,
    ) -> None:
        if players is None:
            players = tuple("ABCD"[: rules.players])
        players = tuple(players)
        if len(players) != rules.players:
            raise ValueError(
                f"the rules are for {rules.players} players but {len(players)} are named"
            )
        if not 0 <= first_dealer < rules.players:
            raise ValueError(f"first dealer {first_dealer} is not a seat (0..{rules.players - 1})")
        self.rules = rules
        self.players = players
        self.seed = seed
        self.rng = random.Random(seed)
        self.first_dealer = first_dealer
        self.dealer = first_dealer
        self.sheet = Sheet(rules, players)
        self.deal: Deal | None = None
        self.finished_deals: list[Deal] = []

    @property
    def finished(self) -> bool:
        """Every pool is closed (and no deal is open)."""
        return self.deal is None and self.sheet.finished

    def start_deal(
        self,
        hands: Sequence[CardSet | Sequence[Card | str]] | None = None,
        talon: Sequence[Card | str] | None = None,
    ) -> Deal:
        """The next deal: shuffled by the game's RNG unless ``hands`` and ``talon`` are given."""
        if self.deal is not None:
            raise ValueError("the current deal is not finished")
        if self.sheet.finished:
            raise GameOver("the game is over: every pool is closed")
        streak = self.sheet.allpass_streak
        variants = self.sheet.next_deal_options()
        # VMK (pool_overflow_choice): the deal asks the soloist only when his game overflows.
        pools = (
            (self.sheet.pool, self.sheet.mountain) if self.rules.pool_overflow_choice else None
        )
        if hands is None:
            if talon is not None:
                raise ValueError("give both hands and talon, or neither")
            self.deal = Deal.shuffle(
                self.rules,
                self.dealer,
                self.rng,
                streak,
                self.players,
                pool_state=pools,
                **variants,
            )
        else:
            if talon is None:
                raise ValueError("give both hands and talon, or neither")
            self.deal = Deal(
                self.rules,
                self.dealer,
                hands,
                talon,
                allpass_streak=streak,
                names=self.players,
                pool_state=pools,
                **variants,
            )
        return self.deal

    def _current(self) -> Deal:
        if self.deal is None:
            raise ValueError("no deal in progress (call start_deal)")
        return self.deal

    def legal_actions(self) -> list[Action]:
        """The legal actions of the current deal (empty between deals)."""
        return [] if self.deal is None else self.deal.legal_actions()

    def apply(self, action: Action | str, seat: int | None = None) -> None:
        """Apply an action to the current deal; a finished deal is scored on the sheet."""
        deal = self._current()
        deal.apply(action, seat)
        if deal.phase is Phase.DONE:
            self.sheet.record(deal.outcome(), deal.second_half)
            deal.compact()
            self.finished_deals.append(deal)
            self.deal = None
            self.dealer = self.sheet.next_dealer(self.dealer)

    def observation(self, seat: int) -> dict[str, Any]:
        """The current deal's observation for ``seat`` plus the sheet (JSON-ready)."""
        if self.deal is not None:
            obs = self.deal.observation(seat)
        else:
            obs = {"seat": seat, "players": list(self.players), "phase": None, "legal": []}
        obs["sheet"] = self.sheet.to_json()
        obs["game_finished"] = self.finished
        return obs

    # --- records -------------------------------------------------------------------------
    def to_record(self) -> dict[str, Any]:
        """The game as a ``preferans-record/1`` object (see :mod:`preferans.record`)."""
        return write_record(self)

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Game:
        """Replay a record (validated) into a game."""
        return replay(read_record(record))

    def __repr__(self) -> str:
        return (
            f"<Game players={list(self.players)} deals={len(self.finished_deals)} "
            f"dealer={self.dealer} finished={self.finished}>"
        )


def replay(
    record: Mapping[str, Any],
    before_action: Callable[[int, Deal, str], None] | None = None,
    after_deal: Callable[[int, Game], None] | None = None,
) -> Game:
    """Replay a record into a :class:`~preferans.game.Game` (its sheet rebuilt).

    ``before_action(number, deal, token)``, when given, is called before each action is
    applied, with the deal's number in the record (1-based) and the deal as it stands
    (the after-deal analysis reads every position this way); ``after_deal(number, game)``
    after each dealt deal's actions (the replay viewer reads the sheet after each deal).

    The last deal may be unfinished (a game in progress): it stays open as
    ``game.deal``.  Errors read ``deal N, action K (TOKEN), seat S (NAME),
    phase P: reason``.

    Classical (``halftime_choice``): a deal opening with the leader's choice (phase
    ``halftime``) whose first token is not ``SECOND p t`` (a record written before the
    choice was a token) gets the rules' own choice, the first legal one, which is what such
    a game played; the rewritten record shows it.
    """
    rec = read_record(record)
    rules = Rules.from_json(rec["rules"])
    deals = rec["deals"]
    first_dealer = deals[0]["dealer"] if deals else 0
    game = Game(rules, rec["players"], first_dealer=first_dealer)
    for i, deal in enumerate(deals, 1):
        if game.deal is not None:
            raise RecordError(f"deal {i}: deal {i - 1} is unfinished but another deal follows")
        if game.sheet.finished:
            raise RecordError(f"deal {i}: the game is already over (every pool is closed)")
        if i > 1 and deal["dealer"] != game.dealer:
            raise RecordError(f"deal {i}: dealer {deal['dealer']}, but the rules pass the deal "
                              f"to seat {game.dealer} ({game.players[game.dealer]})")
        game.dealer = deal["dealer"]
        if "irregularity" in deal:
            x = deal["irregularity"]
            try:
                game.sheet.irregularity(x["seat"], x["kind"], contract=x.get("contract"),
                                        dealer=deal["dealer"])
            except ValueError as exc:
                raise RecordError(f"deal {i}: {exc}") from None
            if x["kind"] in ("no_discard", "revoke"):  # dealt properly: the deal passes on
                game.dealer = (game.dealer + 1) % rules.players
            continue
        try:
            game.start_deal([CardSet.parse(h) for h in deal["hands"]], deal["talon"])
        except ValueError as exc:
            raise RecordError(f"deal {i}: {exc}") from None
        actions = deal["actions"]
        if game.deal is not None and game.deal.phase is Phase.HALFTIME and actions and not (
            str(actions[0]).strip().upper().startswith("SECOND")
        ):
            game.apply(game.deal.legal_actions()[0])
        for k, token in enumerate(actions, 1):
            if game.deal is None:
                raise RecordError(f"deal {i}, action {k} ({token}): the deal is already over")
            if before_action is not None:
                before_action(i, game.deal, str(token))
            try:
                game.apply(token)
            except IllegalAction as exc:
                seat = "nobody" if exc.seat is None else f"seat {exc.seat}"
                if exc.seat is not None and exc.seat < len(game.players):
                    seat += f" ({game.players[exc.seat]})"
                phase = getattr(exc.phase, "label", exc.phase)
                raise RecordError(
                    f"deal {i}, action {k} ({token}), {seat}, phase {phase}: {exc.reason}"
                ) from None
        if after_deal is not None:
            after_deal(i, game)
    return game
