"""One deal as a state machine: auction, talon, discard, contract, defence, play.

A :class:`Deal` knows whose turn it is (:attr:`Deal.to_act`), which actions
are legal (:meth:`Deal.legal_actions`), applies one (:meth:`Deal.apply`,
raising :class:`~preferans.actions.IllegalAction` with the reason), tells each
seat exactly what it may see (:meth:`Deal.observation`) and, once done, what
happened (:meth:`Deal.outcome`, a :class:`~preferans.outcome.DealOutcome`).

>>> import random
>>> from preferans.rules import Rules
>>> d = Deal.shuffle(Rules.preset("sochi"), dealer=2, rng=random.Random(1))
>>> d.phase, d.to_act, d.first_hand
(<Phase.AUCTION: 'auction'>, 0, 0)
>>> for token in ("PASS", "PASS", "PASS"):
...     d.apply(token)
>>> d.phase, d.kind
(<Phase.PLAY: 'play'>, 'allpass')
>>> while d.phase is not Phase.DONE:
...     d.apply(d.legal_actions()[0])
>>> sum(d.outcome().tricks)
10

The state is compact (card masks and small lists) so that computer players can
:meth:`~Deal.copy` a deal and try actions in tight loops.

The class is made of parts, each in its module: what is legal now
(:mod:`preferans.deal_legal`), the defence (:mod:`preferans.deal_defence`), the play
(:mod:`preferans.deal_play`), what a seat sees (:mod:`preferans.deal_view`), and the
structural variants (:mod:`preferans.variants`); this module keeps the state, the turn and
the auction and talon.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from .actions import (
    Action,
    ActionKind,
    IllegalAction,
)
from .bids import Bid
from .cards import DECK, Card, CardSet, Suit
from .deal_defence import DefencePhase
from .deal_legal import Legality
from .deal_play import PlayPhase
from .deal_view import DealView
from .i18n.reasons import Reason
from .phase import Phase
from .rules import Rules
from .tricks import Trick
from .variants import DealVariants
from .variants.base import VariantState
from .variants.seating import DUMMY, check_hands, hand_count, seating

__all__ = ["DUMMY", "Deal", "Phase", "Trick"]

_BID_KINDS = (ActionKind.BID, ActionKind.CONTRACT)
_LADDER = Bid.ladder()
_CONTRACT_ACTIONS = [Action(ActionKind.CONTRACT, bid=b) for b in _LADDER]


def _to_cardset(cards: CardSet | Iterable[Card | str]) -> CardSet:
    if isinstance(cards, CardSet):
        return cards
    items = list(cards)
    parsed = [c if isinstance(c, Card) else Card.parse(c) for c in items]
    out = CardSet(parsed)
    if len(out) != len(parsed):
        seen: set[Card] = set()
        for c in parsed:
            if c in seen:
                raise ValueError(f"card {c} is dealt twice")
            seen.add(c)
    return out


class Deal(
    Legality,
    DealView,
    PlayPhase,
    DefencePhase,
    DealVariants,
):
    """One deal for three or four players (with four, the dealer sits out).

    ``hands`` gives the cards per seat (an empty set for a four-player dealer),
    ``talon`` the two talon cards in order.  ``allpass_streak`` is the number of
    all-passes in a row before this deal (it sets the minimum bid).
    ``names`` are used in error messages only.

    The deal is the plain game; the variants are parts it is made of
    (:class:`~preferans.variants.DealVariants`), asked at a few named points
    (:mod:`preferans.variants.base`): who bids, how the deal opens, who acts and what an
    action does in a variant's own phase, who defends.  So a deal may open before its
    auction with the leader's choice of the second half (000: "At the end of the first
    half, a player with the largest points on his/her hill has the right to determine the
    stakes, size of the pool, and duration of the second half. ... The pool cannot be
    larger than the smallest hill at the end of the first half.").
    """

    __slots__ = (
        "_auction_json",
        "_controller",
        "_def_to_act",
        "_discard",
        "_exchanger",
        "_exposed",
        "_hand_to_play",
        "_hands",
        "_looked",
        "_pending_expose",
        "_pending_kind",
        "_play_seats",
        "_talon_card",
        "_talon_lead",
        "_talon_now",
        "_trick",
        "_trick_size",
        "_tricks_json",
        "_writer",
        "_writers",
        "allpass_streak",
        "alone",
        "auction",
        "bid",
        "contract",
        "dealer",
        "declarer",
        "defence",
        "defenders",
        "first_hand",
        "forced",
        "half_whister",
        "hand_game",
        "history",
        "initial_hands",
        "kind",
        "names",
        "off_hill",
        "open_defence",
        "phase",
        "players",
        "pool_state",
        "rules",
        "seats",
        "talon",
        "talon_refused",
        "talon_turned",
        "tricks",
        "tricks_won",
        "trump",
        "whisters",
    )

    def __init__(
        self,
        rules: Rules,
        dealer: int,
        hands: Sequence[CardSet | Iterable[Card | str]],
        talon: Sequence[Card | str],
        *,
        allpass_streak: int = 0,
        names: Sequence[str] | None = None,
        rogue_lists: Sequence[Sequence[str]] | None = None,
        forced_allpass: bool = False,
        blind_run: int | None = None,
        pool_state: tuple[Sequence[Fraction | int], Sequence[Fraction | int]] | None = None,
        halftime: tuple[int, int] | None = None,
    ) -> None:
        n = rules.players
        n_hands = hand_count(n)
        check_hands(n, len(hands))
        if not isinstance(dealer, int) or not 0 <= dealer < n:
            raise ValueError(f"dealer {dealer!r} is not a seat (0..{n - 1})")
        sets = [_to_cardset(h) for h in hands]
        talon_cards = [c if isinstance(c, Card) else Card.parse(c) for c in talon]
        if len(talon_cards) != 2:
            raise ValueError(f"the talon holds 2 cards, not {len(talon_cards)}")
        for seat, cs in enumerate(sets):
            check_hands(n, len(hands), seat, len(cs), dealer, rules.tricks)
        seen = 0
        for cs in [*sets, CardSet(talon_cards[:1]), CardSet(talon_cards[1:])]:
            if seen & cs.mask:
                dup = CardSet(seen & cs.mask)
                raise ValueError(f"card {next(iter(dup))} is dealt twice")
            seen |= cs.mask
        if seen & ~rules.pack_mask:
            stray = CardSet(seen & ~rules.pack_mask)
            raise ValueError(f"card {next(iter(stray))} is not in the pack of {rules.ranks} "
                             "ranks")
        self.rules = rules
        self.players = n
        self.dealer = dealer
        self.names = tuple(names) if names is not None else tuple("ABCD"[:n])
        self.dummy, self.first_hand, self.seats = seating(n, dealer)
        """The seats dealt cards, clockwise from first hand (see :func:`seating`)."""
        self._play_seats = self.seats
        self.initial_hands = tuple(sets)
        self.talon = tuple(talon_cards)
        self.allpass_streak = allpass_streak
        self._hands = [cs.mask for cs in sets]
        self.phase = Phase.AUCTION
        self.auction = self._new_auction(allpass_streak, blind_run, forced_allpass)
        self.history: list[tuple[int, Action]] = []
        self.declarer: int | None = None
        self.bid: Bid | None = None
        self.contract: Bid | None = None
        self._discard = 0
        self.trump: Suit | None = None
        self.kind: str | None = None
        self.defenders: tuple[int, ...] = ()
        self.defence: list[tuple[int, Action]] = []
        self.whisters: tuple[int, ...] = ()
        self.half_whister: int | None = None
        self.open_defence: bool | None = None
        self.forced = False
        self.alone = False
        self._def_to_act: int | None = None
        self._exposed = 0
        self._pending_expose = 0
        self._controller = list(range(n_hands))
        self.talon_turned = 0
        self._trick: list[tuple[int, Card]] = []
        self._trick_size = len(self.seats)
        self._talon_lead: Suit | None = None
        self._talon_card: Card | None = None
        self._hand_to_play: int | None = None
        self._talon_now: tuple[Card, ...] = self.talon
        self._exchanger = 0
        self._looked: int | None = None
        self._pending_kind: str | None = None
        self.talon_refused = False
        self.tricks: list[Trick] = []
        self._auction_json: tuple[int, list[list[Any]]] = (0, [])
        """The auction's calls as the observation writes them, kept as they grow."""
        self._tricks_json: tuple[int, list[dict[str, object]]] = (0, [])
        """The finished tricks as the observation writes them, kept as they grow."""
        self.tricks_won = [0] * n_hands
        self._writers: tuple[int, ...] = ()
        self._writer = 0
        self.off_hill: list[int] = []
        """Seats that chose HILL (``rules.write_off_choice``, ``rules.pool_overflow_choice``)."""
        self.pool_state: tuple[tuple[Fraction, ...], tuple[Fraction, ...]] | None = None
        """VMK (``rules.pool_overflow_choice``): the sheet's pools and mountains before this
        deal, so that the soloist is asked POOL or HILL only when his game overflows."""
        if pool_state is not None:
            pools, mountains = pool_state
            if len(pools) != n or len(mountains) != n:
                raise ValueError(f"pool_state needs {n} pools and {n} mountains")
            self.pool_state = (tuple(Fraction(p) for p in pools),
                               tuple(Fraction(m) for m in mountains))
        self.hand_game = False
        """The declarer won with a hand bid: the talon stays face down, out of play."""
        self._start_variants(forced_allpass, rogue_lists, halftime)

    @classmethod
    def shuffle(
        cls,
        rules: Rules,
        dealer: int,
        rng: random.Random,
        allpass_streak: int = 0,
        names: Sequence[str] | None = None,
        **options: Any,
    ) -> Deal:
        """A random deal from ``rng`` (deterministic for a seeded ``random.Random``);
        ``options`` are the keyword arguments of :class:`Deal` after ``names``."""
        pack = rules.pack_mask
        cards = [c for c in DECK if pack >> c.index & 1]
        rng.shuffle(cards)
        n = rules.players
        size = rules.tricks
        hands: list[CardSet] = []
        pos = 0
        for seat in range(hand_count(n)):
            if n == 4 and seat == dealer:
                hands.append(CardSet())
                continue
            hands.append(CardSet(cards[pos : pos + size]))
            pos += size
        return cls(
            rules,
            dealer,
            hands,
            cards[pos : pos + 2],
            allpass_streak=allpass_streak,
            names=names,
            **options,
        )

    def copy(self) -> Deal:
        """An independent copy (cheap: masks and small lists)."""
        other = object.__new__(Deal)
        for name in _SLOTS:
            setattr(other, name, getattr(self, name))
        other._hands = list(self._hands)
        other.auction = self.auction.copy()
        other.history = list(self.history)
        other.defence = list(self.defence)
        other._controller = list(self._controller)
        other._trick = list(self._trick)
        other.tricks = list(self.tricks)
        other.tricks_won = list(self.tricks_won)
        other.off_hill = list(self.off_hill)
        return other

    # --- state accessors -----------------------------------------------------------------
    @property
    def to_act(self) -> int | None:
        """The seat that must decide now (``None`` once the deal is done)."""
        phase = self.phase
        if phase is Phase.PLAY:
            return self._controller[self._hand_to_play]  # type: ignore[index]
        if phase is Phase.AUCTION:
            return self.auction.to_act
        if phase is Phase.DISCARD or phase is Phase.CONTRACT:
            return self.declarer
        if phase is Phase.DEFENCE:
            return self._def_to_act
        if phase is Phase.DEFENCE_MODE:
            return self.whisters[0]
        if phase is Phase.DEALER:
            return self.dealer
        if phase is Phase.EXCHANGE:
            return self.seats[self._exchanger]
        if phase is Phase.WRITE:
            return self._writers[self._writer]
        return self._variant_to_act(phase)

    @property
    def done(self) -> bool:
        return self.phase is Phase.DONE

    # --- legality ------------------------------------------------------------------------
    # --- applying ------------------------------------------------------------------------
    def apply(self, action: Action | str, seat: int | None = None) -> None:
        """Apply the action of the seat to act (a token or an :class:`Action`).

        With ``seat``, also check that it is that seat's turn.  Raises
        :class:`IllegalAction` naming the seat, the phase and the reason.
        """
        actor = self.to_act
        try:
            act = self.interpret(action)
        except ValueError as exc:
            token = str(action).strip()
            reason = Reason("unreadable", {"token": token, "detail": str(exc)})
            raise IllegalAction(actor, self.phase, token, reason, self._name(actor)) from None
        if seat is not None and seat != actor:
            turn = (Reason("deal_over") if actor is None
                    else Reason("not_your_turn", {"seat": actor}))
            raise IllegalAction(seat, self.phase, act, turn, self._name(seat))
        phase = self.phase
        if phase is Phase.PLAY:
            card = act.cards[0] if act.kind is ActionKind.PLAY else None
            if card is None or not self._playable_mask() & card.mask:
                why = self._card_refusal(act) or Reason("illegal")
                raise IllegalAction(actor, phase, act, why, self._name(actor))
            self.history.append((actor, act))  # type: ignore[arg-type]
            self._play(card)
            return
        refused = self.refusal(act)
        if refused is not None:
            raise IllegalAction(actor, phase, act, refused, self._name(actor))
        self.history.append((actor, act))  # type: ignore[arg-type]
        if phase is Phase.AUCTION:
            self._apply_auction(act)
        elif phase is Phase.WRITE:
            if act.kind is ActionKind.HILL:
                self.off_hill.append(self._writers[self._writer])
            self._writer += 1
            if self._writer == len(self._writers):
                self.phase = Phase.DONE
        elif act.kind is ActionKind.RESIGN:
            self.contract = self.bid
            self._finish("resigned")
        elif phase is Phase.DISCARD:
            if act.kind is ActionKind.REFUSE:
                self.talon_refused = True
                self._hands[self.declarer] &= ~(self.talon[0].mask | self.talon[1].mask)  # type: ignore[index]
            else:
                self._discard = sum(c.mask for c in act.cards)
                self._hands[self.declarer] &= ~self._discard  # type: ignore[index]
            self.phase = Phase.CONTRACT
            if self._named_in_full():  # the contract was named before the talon
                self._apply_contract(self.bid)  # type: ignore[arg-type]
        elif phase is Phase.CONTRACT:
            self._apply_contract(act.bid)  # type: ignore[arg-type]
        elif phase is Phase.EXCHANGE:
            self._apply_exchange(act)
        elif phase is Phase.DEALER:
            self._apply_dealer(act)
        elif phase is Phase.DEFENCE:
            self._apply_defence(actor, act)  # type: ignore[arg-type]
        elif phase is Phase.DEFENCE_MODE:
            self._apply_mode(act)
        else:
            self._apply_variant(phase, act)

    def _name(self, seat: int | None) -> str:
        return self.names[seat] if seat is not None and seat < len(self.names) else ""

    def _apply_auction(self, act: Action) -> None:
        self.auction.call(self.auction.to_act, act)  # type: ignore[arg-type]
        if not self.auction.done:
            return
        if self.auction.allpass:
            self.kind = "allpass"
            if self.rules.allpass_exchange:
                self.phase = Phase.EXCHANGE
                self._exchanger = 0
                self._hands[self.seats[0]] |= self._talon_mask()
                return
            self._start_play()
            return
        self.declarer = self.auction.winner
        self.bid = self.auction.high
        if self.auction.high_hand:  # 000: "he/she does not exchange the widow"
            self.hand_game = True
            self.phase = Phase.CONTRACT
            return
        talon = self.talon[0].mask | self.talon[1].mask
        self._hands[self.declarer] |= talon  # type: ignore[index]
        self.phase = Phase.DISCARD

    def _talon_mask(self) -> int:
        return self._talon_now[0].mask | self._talon_now[1].mask

    def _apply_exchange(self, act: Action) -> None:
        seat = self.seats[self._exchanger]
        self._hands[seat] &= ~sum(c.mask for c in act.cards)
        self._talon_now = tuple(act.cards)
        self._exchanger += 1
        if self._exchanger < len(self.seats):
            self._hands[self.seats[self._exchanger]] |= self._talon_mask()
        else:
            self._start_play()

    # --- the play ------------------------------------------------------------------------
    # --- the result ----------------------------------------------------------------------
    # --- what a seat sees ----------------------------------------------------------------
    def __repr__(self) -> str:
        return (
            f"<Deal dealer={self.dealer} phase={self.phase.value} to_act={self.to_act} "
            f"actions={len(self.history)}>"
        )


_SLOTS = (*Deal.__slots__, *VariantState.__slots__)
"""Every slot of a deal, for :meth:`Deal.copy`."""
