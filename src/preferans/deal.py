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
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from enum import Enum
from fractions import Fraction
from itertools import combinations
from typing import Any

from .actions import (
    ACCEPT,
    ALONE,
    CLOSED,
    DECLINE,
    HALF,
    HILL,
    INVITE,
    OPEN,
    PASS,
    PLAY_ACTIONS,
    POOL,
    REFUSE,
    RESIGN,
    WHIST,
    Action,
    ActionKind,
    IllegalAction,
)
from .auction import Auction
from .bids import MISERE, Bid
from .cards import DECK, Card, CardSet, Suit
from .outcome import DealOutcome
from .reasons import Alternatives, Hand, Reason
from .rules import Rules
from .tricks import Trick, playable, trick_winner

__all__ = ["DUMMY", "Deal", "Phase", "Trick"]

DUMMY = 2
"""The dummy's seat in the two-player game: the third hand of every deal (000: "There is
always a dummy player to the left hand side of the dealer")."""


def _hand_count(players: int) -> int:
    """Hands dealt at a table: one per player, plus the dummy's with two players."""
    return 3 if players == 2 else players


class Phase(Enum):
    """The stages of a deal, in order."""

    HALFTIME = "halftime"
    """Classical (``halftime_choice``): the first deal after the first half opens with the
    leader's choice of the second half (``SECOND p t``), before its nominal auction."""
    NAME = "name"
    """Rogue: the soloist names a game of his list before the talon (no auction)."""
    AUCTION = "auction"
    DISCARD = "discard"
    CONTRACT = "contract"
    INVITE = "invite"
    """Four players (``dealer_share``): after a misère or a ten is named the soloist says
    ALONE or INVITE; an invited dealer says DECLINE or ACCEPT."""
    DEFENCE = "defence"
    DEFENCE_MODE = "defence mode"
    """A lone whister chooses OPEN or CLOSED."""
    DEALER = "dealer whist"
    """A four-player dealer may look at one defender's hand and whist (``dealer_whist``)."""
    EXCHANGE = "exchange"
    """Before an all-pass each player in turn takes the talon and discards two."""
    PLAY = "play"
    WRITE = "write"
    """Racing: POOL or HILL for an unwhisted game made or a trickless all-pass."""
    DONE = "done"

    @property
    def label(self) -> str:
        return self.value


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


class Deal:
    """One deal for three or four players (with four, the dealer sits out).

    ``hands`` gives the cards per seat (an empty set for a four-player dealer),
    ``talon`` the two talon cards in order.  ``allpass_streak`` is the number of
    all-passes in a row before this deal (it sets the minimum bid).
    ``names`` are used in error messages only.
    """

    __slots__ = (
        "_after_halftime",
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
        "_rogue_items",
        "_soloist",
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
        "dealer_shared",
        "declarer",
        "defence",
        "defenders",
        "dummy",
        "first_hand",
        "forced",
        "forced_allpass",
        "half_whister",
        "halftime",
        "hand_game",
        "history",
        "initial_hands",
        "invited",
        "kind",
        "names",
        "off_hill",
        "open_defence",
        "phase",
        "players",
        "pool_state",
        "rogue_item",
        "rules",
        "seats",
        "second_half",
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
        n_hands = _hand_count(n)
        if len(hands) != n_hands:
            dummy_note = " (the dummy's is the third)" if n == 2 else ""
            raise ValueError(f"{n} players need {n_hands} hands{dummy_note}, not {len(hands)}")
        if not isinstance(dealer, int) or not 0 <= dealer < n:
            raise ValueError(f"dealer {dealer!r} is not a seat (0..{n - 1})")
        sets = [_to_cardset(h) for h in hands]
        talon_cards = [c if isinstance(c, Card) else Card.parse(c) for c in talon]
        if len(talon_cards) != 2:
            raise ValueError(f"the talon holds 2 cards, not {len(talon_cards)}")
        for seat, cs in enumerate(sets):
            want = 0 if (n == 4 and seat == dealer) else 10
            if len(cs) != want:
                if want == 0:
                    raise ValueError(f"the dealer (seat {seat}) sits out and holds no cards")
                raise ValueError(f"seat {seat} has {len(cs)} cards, not 10")
        seen = 0
        for cs in [*sets, CardSet(talon_cards[:1]), CardSet(talon_cards[1:])]:
            if seen & cs.mask:
                dup = CardSet(seen & cs.mask)
                raise ValueError(f"card {next(iter(dup))} is dealt twice")
            seen |= cs.mask
        self.rules = rules
        self.players = n
        self.dealer = dealer
        self.names = tuple(names) if names is not None else tuple("ABCD"[:n])
        self.dummy: int | None = DUMMY if n == 2 else None
        """The dummy's seat (2) in the two-player game, else ``None``."""
        if self.dummy is not None:
            self.first_hand = DUMMY
            self.seats = (DUMMY, 1 - dealer, dealer)
        else:
            self.first_hand = (dealer + 1) % n
            self.seats = tuple(
                s
                for s in ((self.first_hand + k) % n for k in range(n))
                if not (n == 4 and s == dealer)
            )
        """The seats dealt cards, clockwise from first hand (the dummy first with two)."""
        self._play_seats = self.seats
        self.initial_hands = tuple(sets)
        self.talon = tuple(talon_cards)
        self.allpass_streak = allpass_streak
        self._hands = [cs.mask for cs in sets]
        self.phase = Phase.AUCTION
        bidders = self.seats[1:] if self.dummy is not None else self.seats
        blind = blind_run if rules.blind_bids and not forced_allpass else None
        self.auction = Auction(rules, bidders, rules.min_bid_level(allpass_streak), blind)
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
        self._soloist: int | None = None
        self._rogue_items: tuple[str, ...] = ()
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
        self.forced_allpass = forced_allpass
        """Racing: everyone must pass (the first deal of a round, or after a failure)."""
        self.rogue_item: str | None = None
        """Rogue: the item of the soloist's list this deal plays (``"6S"``, ``"8"``, …)."""
        self.invited = False
        """The soloist invited the sitting dealer to share his game (``dealer_share``)."""
        self.dealer_shared = False
        """The invited dealer accepted: he shares the soloist's profit or losses equally."""
        if rules.rogue != "none" and (not rules.classical_halves or rogue_lists is not None):
            self._start_rogue(rogue_lists)
        self.halftime: tuple[int, int] | None = None
        """Classical (``halftime_choice``): ``(leader, smallest hill)`` when this deal opens
        with the leader's choice of the second half (phase ``halftime``)."""
        self.second_half: tuple[int, int] | None = None
        """The leader's choice, ``(pool, final lap after)``, once he has said ``SECOND p t``."""
        self._after_halftime = self.phase
        if halftime is not None:
            leader, smallest = halftime
            if not rules.halftime_choice:
                raise ValueError("a half-time choice needs rules.halftime_choice")
            if not isinstance(leader, int) or not 0 <= leader < n:
                raise ValueError(f"the half-time leader {leader!r} is not a seat (0..{n - 1})")
            if not isinstance(smallest, int) or smallest < 0:
                raise ValueError(f"the smallest hill {smallest!r} must be a whole number >= 0")
            self.halftime = (leader, smallest)
            self.phase = Phase.HALFTIME
    @classmethod
    def shuffle(
        cls,
        rules: Rules,
        dealer: int,
        rng: random.Random,
        allpass_streak: int = 0,
        names: Sequence[str] | None = None,
        rogue_lists: Sequence[Sequence[str]] | None = None,
        forced_allpass: bool = False,
        blind_run: int | None = None,
        pool_state: tuple[Sequence[Fraction | int], Sequence[Fraction | int]] | None = None,
        halftime: tuple[int, int] | None = None,
    ) -> Deal:
        """A random deal from ``rng`` (deterministic for a seeded ``random.Random``)."""
        cards = list(DECK)
        rng.shuffle(cards)
        n = rules.players
        hands: list[CardSet] = []
        pos = 0
        for seat in range(_hand_count(n)):
            if n == 4 and seat == dealer:
                hands.append(CardSet())
                continue
            hands.append(CardSet(cards[pos : pos + 10]))
            pos += 10
        return cls(
            rules,
            dealer,
            hands,
            cards[30:32],
            allpass_streak=allpass_streak,
            names=names,
            rogue_lists=rogue_lists,
            forced_allpass=forced_allpass,
            blind_run=blind_run,
            pool_state=pool_state,
            halftime=halftime,
        )

    def _start_rogue(self, lists: Sequence[Sequence[str]] | None) -> None:
        """Rogue: no auction; the designated soloist names a game of his list.

        000: "There are no bidding and the second hand is always the soloist. When three or
        four players play, the designated soloist is either the eldest or the second hand."
        """
        from .rogue import rogue_list

        second = self.dummy is not None or self.rules.rogue_soloist == "second"
        soloist = self.seats[1] if second else self.seats[0]
        if lists is None:
            items: tuple[str, ...] = rogue_list(self.rules.rogue)
        else:
            if len(lists) != self.players:
                raise ValueError(f"rogue lists: {self.players} players need {self.players} lists")
            items = tuple(lists[soloist])
        if not items:
            raise ValueError(f"seat {soloist} has played every game of the rogue list")
        self._soloist = soloist
        self._rogue_items = items
        self.auction.to_act = None
        self.phase = Phase.NAME

    def copy(self) -> Deal:
        """An independent copy (cheap: masks and small lists)."""
        other = object.__new__(Deal)
        for name in Deal.__slots__:
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
    def hands(self) -> list[CardSet]:
        """The cards each seat holds now."""
        return [CardSet(m) for m in self._hands]

    def hand(self, seat: int) -> CardSet:
        return CardSet(self._hands[seat])

    @property
    def discard(self) -> CardSet | None:
        """The declarer's two discarded cards (seen only by the declarer)."""
        return CardSet(self._discard) if self._discard else None

    @property
    def exposed(self) -> tuple[int, ...]:
        """Seats whose hands are face up now."""
        return tuple(s for s in range(len(self._hands)) if self._exposed >> s & 1)

    @property
    def talon_shown(self) -> bool:
        """Whether any talon card has been shown to everyone."""
        return (self.declarer is not None and not self.hand_game) or self.talon_turned > 0

    @property
    def shown_talon(self) -> tuple[Card, ...]:
        """The talon cards everyone has seen so far."""
        if self.declarer is not None:
            return () if self.hand_game else self.talon
        return self._talon_now[: self.talon_turned]

    @property
    def current_trick(self) -> list[tuple[int, Card]]:
        """The cards of the trick in progress, ``(seat, card)`` in play order."""
        return list(self._trick)

    @property
    def talon_lead(self) -> Suit | None:
        """The suit a three-player all-pass talon card sets for the trick in progress."""
        return self._talon_lead

    @property
    def hand_to_play(self) -> int | None:
        """The seat whose card is to be played next (``None`` outside the play)."""
        return self._hand_to_play if self.phase is Phase.PLAY else None

    def controller(self, seat: int) -> int:
        """The seat that plays this hand (the lone open whister plays the passer's)."""
        return self._controller[seat]

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
        if phase is Phase.NAME:
            return self._soloist
        if phase is Phase.DEFENCE:
            return self._def_to_act
        if phase is Phase.DEFENCE_MODE:
            return self.whisters[0]
        if phase is Phase.DEALER:
            return self.dealer
        if phase is Phase.INVITE:
            return self.dealer if self.invited else self.declarer
        if phase is Phase.EXCHANGE:
            return self.seats[self._exchanger]
        if phase is Phase.WRITE:
            return self._writers[self._writer]
        if phase is Phase.HALFTIME:
            return self.halftime[0]  # type: ignore[index]
        return None

    @property
    def done(self) -> bool:
        return self.phase is Phase.DONE

    # --- legality ------------------------------------------------------------------------
    def interpret(self, action: Action | str) -> Action:
        """Read a token (or re-read an action) as this phase understands it.

        A bid token is a ``CONTRACT`` after the discard and a card in the play
        (``7S`` is both a bid and the seven of spades).
        """
        act = Action.parse(action)
        if self.phase is Phase.PLAY:
            return act.as_kind(ActionKind.PLAY)
        if self.phase is Phase.CONTRACT:
            return act.as_kind(ActionKind.CONTRACT)
        if act.kind is ActionKind.CONTRACT:
            return act.as_kind(ActionKind.BID)
        return act

    def legal_actions(self) -> list[Action]:
        """Every action the seat to act may take now."""
        phase = self.phase
        if phase is Phase.PLAY:
            mask = self._playable_mask()
            out = []
            while mask:
                low = mask & -mask
                out.append(PLAY_ACTIONS[low.bit_length() - 1])
                mask ^= low
            return out
        if phase is Phase.AUCTION:
            return [PASS] if self.forced_allpass else self.auction.legal()
        if phase is Phase.NAME:
            from .rogue import naming_actions

            return naming_actions(self._rogue_items)
        if phase is Phase.DISCARD:
            cards = list(CardSet(self._hands[self.declarer]))  # type: ignore[index]
            out = [Action(ActionKind.DISCARD, cards=pair) for pair in combinations(cards, 2)]
            if self.rules.talon_refusal:
                out.append(REFUSE)
            if self._may_resign():
                out.append(RESIGN)
            return out
        if phase is Phase.CONTRACT:
            assert self.bid is not None
            if self.bid.misere:
                return [Action(ActionKind.CONTRACT, bid=self.bid)]
            if self.rogue_item is not None:  # Rogue: the trump of the level named
                return _CONTRACT_ACTIONS[self.bid.step : self.bid.step + 5]
            out = _CONTRACT_ACTIONS[self.bid.step :]
            if self.auction.blind_high:  # "Misere can be named if ... won by a blind bid"
                out = [*out, Action(ActionKind.CONTRACT, bid=MISERE)]
            return [*out, RESIGN] if self._may_resign() else out
        if phase is Phase.WRITE:
            return [POOL, HILL]
        if phase is Phase.HALFTIME:
            return self._halftime_legal()
        if phase is Phase.INVITE:
            return [DECLINE, ACCEPT] if self.invited else [ALONE, INVITE]
        if phase is Phase.EXCHANGE:
            cards = list(CardSet(self._hands[self.seats[self._exchanger]]))
            return [Action(ActionKind.DISCARD, cards=pair) for pair in combinations(cards, 2)]
        if phase is Phase.DEALER:
            if self._looked is None:
                return [Action(ActionKind.LOOK, seat=s) for s in self.defenders]
            return [PASS, WHIST]
        if phase is Phase.DEFENCE:
            return self._defence_legal()
        if phase is Phase.DEFENCE_MODE:
            if self.dummy is not None:
                return [OPEN, ALONE]
            lone_over_greedy = self.rules.over_greedy and not self.rules.over_greedy_two_only
            out = [CLOSED] if lone_over_greedy else [OPEN, CLOSED]
            if self._whist_pass_half_allowed():
                out.append(HALF)
            return out
        return []

    def is_legal(self, action: Action | str) -> bool:
        return self.why_illegal(action) is None

    def why_illegal(self, action: Action | str) -> str | None:
        """``None`` if the action is legal now, else the reason in English words."""
        reason = self.refusal(action)
        return None if reason is None else str(reason)

    def refusal(self, action: Action | str) -> Reason | None:
        """``None`` if the action is legal now, else the :class:`~preferans.reasons.Reason`
        (a message code and its parameters) why not."""
        try:
            act = self.interpret(action)
        except ValueError as exc:
            return Reason("unreadable", {"token": str(action).strip(), "detail": str(exc)})
        phase = self.phase
        if phase is Phase.DONE:
            return Reason("deal_over")
        if phase is Phase.PLAY:
            return self._card_refusal(act)
        if phase is Phase.AUCTION:
            if self.forced_allpass and act.kind is not ActionKind.PASS:
                return Reason("compulsory_allpass")
            return self.auction.refusal(self.auction.to_act, act)  # type: ignore[arg-type]
        if act in self.legal_actions():
            return None
        if phase is Phase.NAME:
            return Reason("rogue_name", {"shown": tuple(self.legal_actions())})
        if phase is Phase.WRITE:
            return Reason("pool_or_hill")
        if phase is Phase.HALFTIME:
            return self._halftime_refusal(act)
        if phase is Phase.INVITE:
            return Reason("invite_answer" if self.invited else "invite_or_alone")
        if act.kind is ActionKind.RESIGN and phase in (Phase.DISCARD, Phase.CONTRACT):
            return Reason("resign_off" if not self.rules.resignation else "misere_no_resign")
        if act.kind is ActionKind.REFUSE and phase is Phase.DISCARD:
            return Reason("refuse_off")
        if phase is Phase.EXCHANGE:
            if act.kind is not ActionKind.DISCARD:
                return Reason("exchange_discard")
            hand = self._hands[self.seats[self._exchanger]]
            missing = tuple(c for c in act.cards if not hand & c.mask)
            return Reason("exchange_not_held", {"cards": missing})
        if phase is Phase.DEALER:
            if self._looked is None:
                looks = Alternatives(tuple(Action(ActionKind.LOOK, seat=s) for s in self.defenders))
                return Reason("dealer_look_first", {"looks": looks})
            return Reason("dealer_whist_or_pass")
        if phase is Phase.DISCARD:
            if act.kind is not ActionKind.DISCARD:
                return Reason("discard_first")
            hand = self._hands[self.declarer]  # type: ignore[index]
            missing = tuple(c for c in act.cards if not hand & c.mask)
            return Reason("declarer_not_held", {"cards": missing})
        if phase is Phase.CONTRACT:
            assert self.bid is not None
            if act.kind is not ActionKind.CONTRACT:
                return Reason("name_contract", {"bid": self.bid})
            if self.bid.misere:
                return Reason("contract_misere")
            if act.bid is not None and act.bid.misere:
                return Reason("misere_after_ordinary")
            if self.rogue_item is not None:
                return Reason("rogue_trump", {"level": self.bid.level})
            return Reason("contract_below_bid", {"bid": self.bid})
        if phase is Phase.DEFENCE:
            shown = tuple(self._defence_legal())
            if act.kind is ActionKind.HALF:
                return Reason("half_whist_not_here", {"shown": shown})
            return Reason("defender_says", {"shown": shown})
        return Reason("lone_whister_chooses", {"shown": tuple(self.legal_actions())})

    def _card_refusal(self, act: Action) -> Reason | None:
        if act.kind is not ActionKind.PLAY:
            return Reason("card_expected")
        seat = self._hand_to_play
        assert seat is not None
        card = act.cards[0]
        hand = self._hands[seat]
        other = self._controller[seat] != seat
        params: dict[str, object] = {}
        if other:
            params["hand"] = Hand(seat, self._name(seat), seat == self.dummy)
        suffix = "_in" if other else ""
        if not hand & card.mask:
            return Reason("card_not_held" + suffix, {"card": card, **params})
        if self._playable_mask() & card.mask:
            return None
        led = self._led_suit()
        assert led is not None
        if hand & led.mask:
            if self._talon_lead is not None:
                return Reason("talon_suit" + suffix, {"suit": led, **params})
            return Reason("must_follow" + suffix, {"suit": led, **params})
        assert self.trump is not None
        return Reason("must_trump" + suffix, {"trump": self.trump, "led": led, **params})

    def _led_suit(self) -> Suit | None:
        if self._talon_lead is not None:
            return self._talon_lead
        if self._trick:
            return self._trick[0][1].suit
        return None

    def _playable_mask(self) -> int:
        return playable(self._hands[self._hand_to_play], self._led_suit(), self.trump)  # type: ignore[index]

    def _defence_legal(self) -> list[Action]:
        calls = [a.kind for _, a in self.defence]
        if self.forced:
            return [WHIST]
        if self.dummy is not None:
            half = not self.rules.dummy_lone_whist and self._half_level()
            return [WHIST, PASS, HALF] if half else [WHIST, PASS]
        if len(calls) == 1 and calls[0] is ActionKind.PASS and self._half_level():
            return [WHIST, PASS, HALF]
        return [WHIST, PASS]

    def _half_level(self) -> bool:
        return self.contract is not None and self.contract.level in self.rules.half_whist_levels

    def _may_resign(self) -> bool:
        return self.rules.resignation and self.bid is not None and not self.bid.misere

    def _whist_pass_half_allowed(self) -> bool:
        calls = [a.kind for _, a in self.defence]
        return (
            self.rules.whist_pass_half_whist
            and calls == [ActionKind.WHIST, ActionKind.PASS]
            and self._half_level()
        )

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
        elif phase is Phase.NAME:
            self._apply_name(act)
        elif phase is Phase.HALFTIME:
            self.second_half = (act.level, act.after)  # type: ignore[assignment]
            self.phase = self._after_halftime
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
            if self.rogue_item is not None and not self.rogue_item.isdigit():
                assert self.bid is not None  # named in full before the talon
                self._apply_contract(self.bid)
        elif phase is Phase.CONTRACT:
            self._apply_contract(act.bid)  # type: ignore[arg-type]
        elif phase is Phase.EXCHANGE:
            self._apply_exchange(act)
        elif phase is Phase.DEALER:
            self._apply_dealer(act)
        elif phase is Phase.INVITE:
            self._apply_invite(act)
        elif phase is Phase.DEFENCE:
            self._apply_defence(actor, act)  # type: ignore[arg-type]
        elif phase is Phase.DEFENCE_MODE:
            self._apply_mode(act)

    # --- Classical: the leader's choice at half-time ---------------------------------------
    def _halftime_default(self) -> tuple[int, int]:
        """The rules' own choice: ``halftime_pool`` (0: the largest allowed) cut to the
        smallest hill, and ``final_lap_after`` — what the game played before the choice was
        made at the table (``legal[0]``)."""
        smallest = self.halftime[1]  # type: ignore[index]
        want = self.rules.halftime_pool
        return (min(want, smallest) if want else smallest), self.rules.final_lap_after

    def _halftime_legal(self) -> list[Action]:
        """``SECOND p t`` offers (at most 12), the rules' choice first.

        000: "At the end of the first half, a player with the largest points on his/her
        hill has the right to determine the stakes, size of the pool, and duration of the
        second half. ... The pool cannot be larger than the smallest hill at the end of the
        first half. The time limit specifies when the final lap starts."  Pools: the rules'
        choice, then the smallest hill and about three quarters, a half and a quarter of it
        (at least 1), four at most; times: the rules' ``final_lap_after``, then half and
        double it (or, when it is 0, no limit, 4 and 8 laps).  The stakes are not chosen here:
        they stay the rules' option ``stakes`` (money per whist point).
        """
        smallest = self.halftime[1]  # type: ignore[index]
        pool0, time0 = self._halftime_default()
        pools = [pool0]
        for p in (smallest, smallest * 3 // 4, smallest // 2, smallest // 4):
            if p >= 1 and p not in pools and len(pools) < 4:
                pools.append(p)
        n = self.players
        extra = (max(1, time0 // 2), time0 * 2) if time0 else (4 * n, 8 * n)
        times = [time0]
        for t in extra:
            if t not in times:
                times.append(t)
        return [Action(ActionKind.SECOND, level=p, after=t) for p in pools for t in times]

    def _halftime_refusal(self, act: Action) -> Reason:
        leader, smallest = self.halftime  # type: ignore[misc]
        shown = tuple(self._halftime_legal())
        if act.kind is not ActionKind.SECOND:
            return Reason("halftime_first", {"leader": leader, "shown": shown})
        if act.level is not None and act.level > smallest:
            return Reason("halftime_pool_too_big", {"smallest": smallest, "shown": shown})
        return Reason("halftime_choose", {"shown": shown})

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

    def _apply_name(self, act: Action) -> None:
        """Rogue: the game is named, the talon turned and taken.

        000: "Number of tricks is said before the widow is revealed, and a trump suit after
        discard" (for the games the list leaves open).
        """
        from .rogue import item_of

        self.rogue_item = item_of(act)
        self.declarer = self._soloist
        self.bid = Bid(act.level, Suit.SPADES) if act.kind is ActionKind.TRICKS else act.bid
        self._hands[self.declarer] |= self.talon[0].mask | self.talon[1].mask  # type: ignore[index]
        self.phase = Phase.DISCARD

    def _rogue_defence(self) -> None:
        """Rogue: the defence is forced and open, without calls.

        000: "The opponent must whist with dummy and open hands in a two player game. When
        three or four play some say both partners must whist and some say the first partner
        whists and the second passes. The hands of the partners are open in both cases."
        """
        first, second = self.defenders
        if self.dummy is not None:
            whister = self._partner_of_dummy()
            self.defence.append((whister, WHIST))
            self.whisters = (whister,)
            self._apply_mode(OPEN)
            return
        self.forced = True
        if self.rules.rogue_defence == "both":
            self.defence += [(first, WHIST), (second, WHIST)]
            self.whisters = (first, second)
            self.open_defence = True
            self._expose((1 << first) | (1 << second), at_once=self.rules.open_before_lead)
            self._start_play()
            return
        self.defence += [(first, WHIST), (second, PASS)]
        self.whisters = (first,)
        self._apply_mode(OPEN)

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

    def _apply_contract(self, contract: Bid) -> None:
        self.contract = contract
        self.trump = contract.trump
        declarer = self.declarer
        assert declarer is not None
        i = self.seats.index(declarer)
        self.defenders = self.seats[i + 1 :] + self.seats[:i]
        if self.dummy is not None and not self.rules.is_whisted(contract):
            self._controller[DUMMY] = self._partner_of_dummy()
        if self.rules.invitation_offered(contract):
            self.kind = "misere" if contract.misere else "contract"
            self.phase = Phase.INVITE
            return
        self._play_contract()

    def _apply_invite(self, act: Action) -> None:
        """000: "The soloist can invite the dealer to share profit or losses equally in high
        risk hands like misere."  "If dealer accepts the invitation, he/she shares profit or
        losses equally with the soloist."  Then the game goes on as named."""
        if act.kind is ActionKind.INVITE:
            self.invited = True
            return
        self.dealer_shared = act.kind is ActionKind.ACCEPT
        self._play_contract()

    def _play_contract(self) -> None:
        """After the contract (and the invitation): the defence or the play."""
        contract = self.contract
        assert contract is not None
        if contract.misere:
            self.kind = "misere"
            self._expose_misere()
            self._start_play()
        elif not self.rules.is_whisted(contract):
            self.kind = "contract"
            self._exposed |= sum(1 << s for s in self.seats)
            self._start_play()
        elif self.rogue_item is not None:
            self.kind = "contract"
            self._rogue_defence()
        else:
            self.kind = "contract"
            self.forced = (
                (self.rules.stalingrad and contract == Bid(6, Suit.SPADES))
                or (self.rules.stalingrad_sixes and contract.level == 6)
                or self._blind_forces(contract)
            )
            self.phase = Phase.DEFENCE
            self._def_to_act = (
                self.defenders[0] if self.dummy is None else self._partner_of_dummy()
            )

    def _blind_forces(self, contract: Bid) -> bool:
        """000: "Players are always required to whist against ... games up to and including
        the same suit and one larger number of tricks than bid if a blind bid wins the
        auction." """
        bid = self.bid
        if not self.auction.blind_high or bid is None or bid.misere:
            return False
        top = Bid(min(bid.level + 1, 10), bid.trump)
        return contract.step <= top.step

    def _partner_of_dummy(self) -> int:
        """The two-player game's defender who is not the dummy."""
        return next(s for s in self.defenders if s != DUMMY)

    def _expose_misere(self) -> None:
        """Put the misère's defending hands face up as ``misere_exposure`` says.

        ``after_lead`` (003: "After the first card both defenders lay their cards face up and
        play together"): after the opening card, whoever plays it, so a defender on lead
        leads from his own ten cards.  ``after_declarer_lead`` (000, 001 §10: "If a defender
        leads, the hands are exposed immediately"): after declarer's opening card, at once
        when a defender leads.  ``before_lead``: at once.  A defending hand on lead that
        another seat plays (the two-player game's dummy) goes down at once whatever the
        option: its player leads from it and must see it.
        """
        bits = sum(1 << s for s in self.defenders)
        exposure = self.rules.misere_exposure
        leader = self.first_hand
        if exposure == "after_lead" and self._controller[leader] == leader:
            self._pending_expose |= bits
        else:
            self._expose(bits, at_once=exposure == "before_lead")

    def _expose(self, bits: int, *, at_once: bool) -> None:
        """Expose hands before the opening lead, or after declarer's opening card."""
        if at_once or self.declarer != self.first_hand:
            self._exposed |= bits
        else:
            self._pending_expose |= bits

    def _apply_defence(self, seat: int, act: Action) -> None:
        self.defence.append((seat, act))
        if self.dummy is not None:
            self._apply_defence_two(seat, act)
            return
        first, second = self.defenders
        calls = [a.kind for _, a in self.defence]
        W, P, H = ActionKind.WHIST, ActionKind.PASS, ActionKind.HALF
        if len(calls) == 1:
            self._def_to_act = second
            return
        if len(calls) == 2:
            if calls == [W, W]:
                self.whisters = (first, second)
                self._start_play()
            elif calls == [P, P] and self.rules.passes_as_half_whist and self.contract.level < 8:  # type: ignore[union-attr]
                self.half_whister = second  # Classical: "treated as pass-half-whist-pass"
                self._finish_defence("halfwhist")
            elif calls == [P, P]:
                self._finish_defence("passed")
            elif calls == [P, H]:
                self.half_whister = second
                if self.rules.half_whist_reopen:
                    self._def_to_act = first
                else:
                    self._finish_defence("halfwhist")
            else:
                self.whisters = (first,) if calls[0] is W else (second,)
                self.phase = Phase.DEFENCE_MODE
            return
        # the first defender's answer to a half-whist
        if act.kind is W:
            self.whisters = (first,)
            self.phase = Phase.DEFENCE_MODE
        else:
            self._finish_defence("halfwhist")

    def _apply_defence_two(self, seat: int, act: Action) -> None:
        """Two players: the dummy always passes; the other defender decides alone.

        000: "A whisting player can choose to whist alone against games at six or seven
        tricks ... If a whister whists with the dummy, the hand is played just like open
        whists in three player games."
        """
        if act.kind is ActionKind.PASS:
            self._finish("passed")
        elif act.kind is ActionKind.HALF:
            self.half_whister = seat
            self._finish("halfwhist")
        else:
            self.whisters = (seat,)
            if self._alone_allowed():
                self.phase = Phase.DEFENCE_MODE
            else:
                self._apply_mode(OPEN)

    def _alone_allowed(self) -> bool:
        return (
            self.rules.dummy_lone_whist
            and self.contract is not None
            and self.contract.level in (6, 7)
        )

    def _apply_mode(self, act: Action) -> None:
        if act.kind is ActionKind.HALF:
            self.defence.append((self.whisters[0], act))
            self.half_whister = self.whisters[0]
            self.whisters = ()
            self._finish_defence("halfwhist")
            return
        whister = self.whisters[0]
        passer = next(s for s in self.defenders if s != whister)
        if act.kind is ActionKind.ALONE:
            self.open_defence = False
            self.alone = True
            self._play_seats = tuple(s for s in self.seats if s != DUMMY)
        elif act.kind is ActionKind.OPEN:
            # 003: "play open (both defenders' cards face up, the whister plays both hands)";
            # 001 §08: "For open defence, both hands are exposed before the opening lead".
            # The whister's own hand goes down with the passer's (two players: with the
            # dummy's, "just like open whists in three player games", 000).
            self.open_defence = True
            self._controller[passer] = whister
            self._expose((1 << passer) | (1 << whister), at_once=self.rules.open_before_lead)
        else:
            self.open_defence = False
        self._start_play()

    def _finish_defence(self, kind: str) -> None:
        """End an unplayed defence, unless a four-player dealer may still whist, or a
        half-whist that stands is played out (``half_whist_played``)."""
        assert self.contract is not None
        level = self.contract.level
        if kind == "halfwhist" and self.rules.half_whist_played:
            self._play_half_whist()
            return
        if (
            self.players == 4
            and self.rules.dealer_whist
            and ((kind == "passed" and level >= 8) or (kind == "halfwhist" and level <= 7))
        ):
            self._pending_kind = kind
            self._def_to_act = None
            self.phase = Phase.DEALER
            return
        self._finish(kind)

    def _play_half_whist(self) -> None:
        """House option (``half_whist_played``): the half-whist that stands is played out.

        The half-whister becomes the lone whister, owing half the quota
        (``half_whist_tricks``, see :func:`preferans.scoring.score_deal`); like any lone
        whister he first chooses OPEN or CLOSED (phase ``defence mode``).  The outcome is a
        played ``contract`` whose ``whisters`` are ``(half_whister,)``."""
        assert self.half_whister is not None
        self.kind = "contract"
        self.whisters = (self.half_whister,)
        self._def_to_act = None
        self.phase = Phase.DEFENCE_MODE

    def _apply_dealer(self, act: Action) -> None:
        dealer = self.dealer
        self.defence.append((dealer, act))
        if act.kind is ActionKind.LOOK:
            self._looked = act.seat
        elif act.kind is ActionKind.PASS:
            self._finish(self._pending_kind)  # type: ignore[arg-type]
        else:
            self.whisters = (dealer,)
            self.open_defence = True
            for seat in self.defenders:
                self._controller[seat] = dealer
            bits = sum(1 << s for s in self.defenders)
            self._expose(bits, at_once=self.rules.open_before_lead)
            self._start_play()

    def _finish(self, kind: str) -> None:
        self.kind = kind
        self.phase = Phase.DONE
        self._def_to_act = None
        if kind == "passed" and self.rules.write_off_choice:
            self._ask_writers((self.declarer,))  # type: ignore[arg-type]
        self._ask_overflow()

    def _ask_overflow(self) -> None:
        """VMK (``pool_overflow_choice``): 000: "Pool points in excess of the pool size are
        either treated just like in Sochi, or used to write points off from one's own hill.
        Soloist can freely choose between them."

        Asked (POOL or HILL) at the end of a deal whose soloist earned pool points beyond his
        pool's room while his mountain is not empty and another pool is open; otherwise
        both treatments are the same and nobody is asked.  Needs ``pool_state``.
        """
        rules = self.rules
        if not rules.pool_overflow_choice or self.pool_state is None or self.declarer is None:
            return
        if self.kind not in ("contract", "misere", "passed", "halfwhist"):
            return
        seat = self.declarer
        earned, room = self._pool_stake(seat)
        pools, mountains = self.pool_state
        surplus = earned - room
        others_open = rules.pool_help and any(
            p < rules.pool for s, p in enumerate(pools) if s != seat
        )
        if surplus > 0 and mountains[seat] > 0 and others_open:
            self._ask_writers((seat,))

    def _ask_writers(self, seats: tuple[int, ...]) -> None:
        """000 (Racing): "the soloist can either write the points in the pool or write them
        off from the hill"; so can a player without an all-pass trick."""
        if seats:
            self._writers = seats
            self._writer = 0
            self.phase = Phase.WRITE

    # --- the play ------------------------------------------------------------------------
    def _start_play(self) -> None:
        self.phase = Phase.PLAY
        if self.dummy is not None and self.kind == "allpass":
            self._play_seats = self.seats[1:]  # 000: "the hand of the dummy ... is not used"
        self._start_trick(self._play_seats[0])

    def _start_trick(self, leader: int) -> None:
        number = len(self.tricks)
        self._trick = []
        self._talon_lead = None
        self._talon_card = None
        self._trick_size = len(self._play_seats)
        talon_leads = self.rules.allpass_talon == "lead" and self.dummy is None
        if self.kind == "allpass" and talon_leads and number < 2:
            card = self._talon_now[number]
            self.talon_turned = number + 1
            if self.players == 4:
                self._trick = [(self.dealer, card)]
                self._trick_size += 1
            else:
                self._talon_lead = card.suit
                self._talon_card = card
            leader = self.first_hand
        elif self.kind == "allpass" and talon_leads and number == 2:
            leader = self.first_hand
        self._hand_to_play = leader

    def _play(self, card: Card) -> None:
        seat = self._hand_to_play
        assert seat is not None
        self._hands[seat] &= ~card.mask
        trick = self._trick
        trick.append((seat, card))
        if self._pending_expose and not self.tricks and len(trick) == 1:
            self._exposed |= self._pending_expose
            self._pending_expose = 0
        if len(trick) < self._trick_size:
            seats = self._play_seats
            self._hand_to_play = seats[(seats.index(seat) + 1) % len(seats)]
            return
        winner = trick_winner(trick, self.trump, self._talon_lead)
        leader = trick[0][0]
        self.tricks.append(Trick(leader, tuple(trick), winner, self._talon_card))
        self.tricks_won[winner] += 1
        if len(self.tricks) == 10:
            self._trick = []
            self._talon_lead = None
            self._talon_card = None
            self._hand_to_play = None
            self.phase = Phase.DONE
            if self.kind == "allpass" and self.rules.write_off_choice:
                seats = self.seats
                if self.players == 4 and self.rules.allpass_talon == "lead":
                    seats = (*seats, self.dealer)
                self._ask_writers(tuple(s for s in seats if not self.tricks_won[s]))
            self._ask_overflow()
            return
        self._start_trick(winner)

    # --- the result ----------------------------------------------------------------------
    def outcome(self) -> DealOutcome:
        """What happened, for the score sheet (only once the deal is done)."""
        if self.phase is not Phase.DONE:
            raise ValueError(f"the deal is not over (phase {self.phase.label})")
        return self._outcome()

    def _outcome(self) -> DealOutcome:
        """The outcome as it stands (the write phase's choices made so far included)."""
        played = self.kind in ("contract", "misere", "allpass")
        tricks = list(self.tricks_won) if played else [0] * len(self._hands)
        if self.dummy is not None:
            dummy_tricks = tricks.pop()
            if dummy_tricks:
                tricks[self._partner_of_dummy()] += dummy_tricks
        return DealOutcome(
            kind=self.kind,  # type: ignore[arg-type]
            dealer=self.dealer,
            players=self.players,
            declarer=self.declarer,
            contract=self.contract,
            defence=tuple(str(a) for _, a in self.defence),  # type: ignore[misc]
            whisters=self.whisters,
            half_whister=self.half_whister,
            open_defence=self.open_defence,
            tricks=tuple(tricks),
            forced=self.forced,
            talon=self.talon,
            talon_refused=self.talon_refused,
            alone=self.alone,
            rogue_item=self.rogue_item,
            blind=self.auction.blind_high and self.declarer is not None,
            hand_game=self.hand_game,
            off_hill=tuple(self.off_hill),
            invited=self.invited,
            dealer_shared=self.dealer_shared,
            blind_passers=tuple(sorted(self.auction.blind_passed)),
            overbid_misere=(
                self.declarer is not None
                and self.auction.misere_seat is not None
                and self.auction.misere_seat != self.declarer
            ),
        )

    def tokens(self) -> list[str]:
        """The record tokens of every action so far."""
        return [str(a) for _, a in self.history]

    # --- what a seat sees ----------------------------------------------------------------
    def _calls_json(self) -> list[list[Any]]:
        """``[[seat, token], ...]`` of the auction (a new list; while the deal goes on the
        pairs are written once: calls are only ever added, and a copied deal rebinds its
        own)."""
        calls = self.auction.calls
        done, written = self._auction_json
        if done != len(calls):
            written = written[:done] if done < len(calls) else []
            written += [[s, str(a)] for s, a in calls[len(written):]]
            if self.phase is not Phase.DONE:
                self._auction_json = (len(calls), written)
        return list(written)

    def _finished_tricks_json(self) -> list[dict[str, object]]:
        """Each finished trick's JSON (a new list; while the deal goes on each trick is
        written once)."""
        tricks = self.tricks
        done, written = self._tricks_json
        if done != len(tricks):
            written = written[:done] if done < len(tricks) else []
            written += [t.to_json() for t in tricks[len(written):]]
            if self.phase is not Phase.DONE:
                self._tricks_json = (len(tricks), written)
        return list(written)

    def compact(self) -> None:
        """Let go of what is kept only to answer observations quickly (the auction and the
        tricks as JSON): a finished deal stays in its game for as long as the game."""
        self._auction_json = self._tricks_json = (0, [])

    def observation(self, seat: int) -> dict[str, Any]:
        """Exactly what ``seat`` may see now, as a JSON-serialisable dict.

        Its own hand, every call, the talon once shown, the declarer's own
        discard (declarer only), exposed hands, the cards played, and the legal
        action tokens when ``seat`` is to act (including the cards of a hand it
        controls).
        """
        if not 0 <= seat < self.players:
            raise ValueError(f"seat {seat} is not at this table (0..{self.players - 1})")
        to_act = self.to_act
        auction = self.auction
        high = auction.high
        obs: dict[str, Any] = {
            "seat": seat,
            "players": list(self.names),
            "dealer": self.dealer,
            "first_hand": self.first_hand,
            "phase": self.phase.value,
            "to_act": to_act,
            "hand_to_play": self.hand_to_play,
            "hand": CardSet(self._hands[seat]).to_list(),
            "hand_sizes": [m.bit_count() for m in self._hands],
            "auction": self._calls_json(),
            "bid": None if high is None else str(high),
            "min_bid": auction.min_level,
            "declarer": self.declarer,
            "contract": None if self.contract is None else str(self.contract),
            "talon": [str(c) for c in self.shown_talon] if self.talon_shown else None,
            "discard": (
                CardSet(self._discard).to_list()
                if self._discard and seat == self.declarer
                else None
            ),
            "defence": [[s, str(a)] for s, a in self.defence],
            "open_defence": self.open_defence,
            "exposed": {
                str(s): CardSet(self._hands[s]).to_list()
                for s in range(len(self._hands))
                if self._exposed >> s & 1
            },
            "trick": [[s, str(c)] for s, c in self._trick],
            "tricks": self._finished_tricks_json(),
            "tricks_won": list(self.tricks_won),
            "talon_lead": None if self._talon_lead is None else self._talon_lead.letter,
            "legal": [str(a) for a in self.legal_actions()] if to_act == seat else [],
            "allpass_streak": self.allpass_streak,
            "kind": self.kind,
        }
        if self.talon_refused:
            obs["talon_refused"] = True
        if self.dummy is not None:
            obs["dummy"] = self.dummy
            obs["alone"] = self.alone
        if self._soloist is not None:
            obs["soloist"] = self._soloist
            obs["rogue_list"] = list(self._rogue_items)
            obs["rogue_item"] = self.rogue_item
        if self.forced_allpass:
            obs["forced_allpass"] = True
        if self.halftime is not None:
            leader, smallest = self.halftime
            obs["halftime"] = {
                "leader": leader,
                "smallest_hill": smallest,
                "choice": None if self.second_half is None else list(self.second_half),
            }
        if self.hand_game:
            obs["hand_game"] = True
        if self.rules.dealer_share:
            obs["invitation"] = {"invited": self.invited, "dealer_shared": self.dealer_shared}
        if auction.blind:
            obs["blind"] = {
                "seen": sorted(auction.seen),
                "blind_passed": sorted(auction.blind_passed),
                "blind_high": auction.blind_high,
            }
            if self.phase is Phase.AUCTION and seat in auction.seats and seat not in auction.seen:
                obs["hand"] = []  # not looked at yet: the cards stay face down
                obs["hand_hidden"] = True
        if self._looked is not None and seat == self.dealer:
            obs["looked"] = {str(self._looked): CardSet(self._hands[self._looked]).to_list()}
        if self.phase is Phase.WRITE and to_act == seat:
            obs["write"] = self.write_preview(seat)
        return obs

    def write_preview(self, seat: int) -> dict[str, Any]:
        """What is at stake in ``seat``'s POOL or HILL (phase ``write``): the pool points
        this deal earns it and, where the deal knows the sheet (VMK's
        ``pool_overflow_choice``), its pool's room, the surplus beyond it and its mountain.

        >>> from preferans.rules import Rules
        >>> import random
        >>> deal = Deal.shuffle(Rules.preset("vmk"), 2, random.Random(3),
        ...                     pool_state=([18, 0, 0], [10, 0, 0]))
        >>> for token in ("7H", "PASS", "PASS"):
        ...     deal.apply(token)
        >>> deal.apply(deal.legal_actions()[0])
        >>> for token in ("7H", "PASS", "PASS"):
        ...     deal.apply(token)
        >>> deal.write_preview(0)
        {'points': 4, 'room': 2, 'surplus': 2, 'mountain': 10}
        """
        def number(x: Fraction) -> int | float:
            return int(x) if x.denominator == 1 else float(x)

        earned, room = self._pool_stake(seat)
        preview: dict[str, Any] = {"points": number(earned)}
        if self.pool_state is not None:
            preview["room"] = number(room)
            preview["surplus"] = number(max(Fraction(0), earned - room))
            preview["mountain"] = number(self.pool_state[1][seat])
        return preview

    def _pool_stake(self, seat: int) -> tuple[Fraction, Fraction]:
        """The pool points this deal earns ``seat`` (the write phase's choices so far
        included) and the room left in its pool (0 where the deal does not know the sheet)."""
        from .scoring import score_deal

        earned = score_deal(self.rules, self._outcome()).pool[seat]
        if self.pool_state is None:
            return earned, Fraction(0)
        return earned, max(Fraction(0), self.rules.pool - self.pool_state[0][seat])

    def __repr__(self) -> str:
        return (
            f"<Deal dealer={self.dealer} phase={self.phase.value} to_act={self.to_act} "
            f"actions={len(self.history)}>"
        )
