"""One auction (торговля): who may call what, and who wins the talon.

Two styles, chosen by ``rules.auction``:

- ``ascending`` (text 003): every bid is higher than the current highest
  (with ``jump_bids`` any higher bid, else only the next step);
- ``seniority`` (text 001 §05): an elder hand may *hold* a younger hand's bid
  by repeating its token ("here", «здесь»); a younger hand must go above.

In both, a player who passes is out; the auction ends when all but one have
passed and that one has bid (the winner), or when everyone passes (all-pass,
распасы).  Misère may only be a player's first call, ranks just below
``rules.misere_outbid_by``♠, cannot be held, and its caller can only pass once
outbid; a player who has made an ordinary bid cannot call misère.

>>> from preferans.rules import Rules
>>> a = Auction(Rules.preset("guide"), seats=(0, 1, 2))
>>> for call in "6S 6C PASS 6C 6D 6D 6H 6H PASS".split():
...     a.call(a.to_act, call)
>>> a.done, a.winner, str(a.high)
(True, 0, '6H')
"""

from __future__ import annotations

from .actions import BLIND_PASS, PASS, SEE, Action, ActionKind
from .bids import MISERE, Bid
from .i18n.reasons import Reason
from .rules import Rules

_LADDER = Bid.ladder()
_BID_ACTIONS = [Action(ActionKind.BID, bid=b) for b in _LADDER]
_MISERE_ACTION = Action(ActionKind.BID, bid=MISERE)
_HAND_LADDER = (
    (Action(ActionKind.BID, bid=Bid.parse("9S"), hand=True), 15.0),
    (Action(ActionKind.BID, bid=MISERE, hand=True), 19.5),
    (Action(ActionKind.BID, bid=Bid.parse("10S"), hand=True), 20.0),
)
"""Classical's bids over a misère, in order: nine in one hand, misère hand, ten in one hand."""


class Auction:
    """The state of one auction among ``seats`` (clockwise, first hand first).

    ``min_level`` is the lowest level of an ordinary bid (raised after
    all-passes: ``rules.min_bid_level(streak)``).
    """

    __slots__ = (
        "_blind_run",
        "_high_key",
        "_misere_key",
        "_misere_outbid_step",
        "_order",
        "bid_made",
        "blind",
        "blind_high",
        "blind_passed",
        "calls",
        "hand_bids",
        "high",
        "high_hand",
        "high_seat",
        "jump_bids",
        "min_level",
        "misere_hand",
        "misere_seat",
        "passed",
        "seats",
        "seeing_bid",
        "seen",
        "seniority",
        "to_act",
    )

    def __init__(
        self,
        rules: Rules,
        seats: tuple[int, ...],
        min_level: int | None = None,
        blind_run: int | None = None,
    ) -> None:
        self.seats = tuple(seats)
        self._order = {seat: i for i, seat in enumerate(self.seats)}
        self.seniority = rules.auction == "seniority"
        self.jump_bids = rules.jump_bids
        self.min_level = rules.min_bid_level(0) if min_level is None else min_level
        self._misere_key = MISERE.ladder_key(rules.misere_outbid_by)
        self._misere_outbid_step = (rules.misere_outbid_by - 6) * 5
        self.calls: list[tuple[int, Action]] = []
        self.passed: set[int] = set()
        self.bid_made: set[int] = set()
        """Seats that have made an ordinary bid (they may no longer call misère)."""
        self.misere_seat: int | None = None
        self.high: Bid | None = None
        self.high_seat: int | None = None
        self._high_key = -1.0
        self.to_act: int | None = self.seats[0]
        # Blind bidding (Classical): ``blind_run`` blind all-passes of this dealer before.
        self.blind = blind_run is not None
        self._blind_run = blind_run or 0
        self.seen: set[int] = set() if self.blind else set(self.seats)
        """Seats that have looked at their cards (everyone, without blind bidding)."""
        self.blind_passed: set[int] = set()
        self.blind_high = False
        """The current highest bid was made blind."""
        self.seeing_bid = False
        # Hand bids over a misère (Classical).
        self.hand_bids = rules.hand_bids
        self.misere_hand = rules.misere_hand
        self.high_hand = False
        """The current highest bid is a hand bid (to play without the talon)."""

    def copy(self) -> Auction:
        """An independent copy."""
        other = object.__new__(Auction)
        for name in Auction.__slots__:
            setattr(other, name, getattr(self, name))
        other.calls = list(self.calls)
        other.passed = set(self.passed)
        other.bid_made = set(self.bid_made)
        other.seen = set(self.seen)
        other.blind_passed = set(self.blind_passed)
        return other

    # --- state ---------------------------------------------------------------------------
    @property
    def done(self) -> bool:
        return self.to_act is None

    @property
    def allpass(self) -> bool:
        """Everyone passed."""
        return self.done and self.high is None

    @property
    def winner(self) -> int | None:
        """The seat that won the talon (``None`` while bidding or after an all-pass)."""
        return self.high_seat if self.done else None

    def _key(self, bid: Bid) -> float:
        return self._misere_key if bid.misere else float(bid.step)

    def _holds(self, seat: int) -> bool:
        """Whether ``seat`` may hold the current bid (seniority, elder than its holder)."""
        return (
            self.seniority
            and self.high is not None
            and not self.high.misere
            and self.high_seat is not None
            and self._order[seat] < self._order[self.high_seat]
        )

    # --- legality ------------------------------------------------------------------------
    def _blind_levels(self) -> tuple[int, int]:
        """The lowest blind and seeing levels once someone passed blind.

        000: "It is blind "one" (spades) or seeing "seven in one" (seven spades) if there were
        none, blind seven or seeing eight if one, and blind eight or seeing nine if two."
        """
        run = min(self._blind_run, 2)
        return 6 + run, 7 + run

    def _blind_legal(self, seat: int) -> list[Action]:
        """An unseen seat: blind bids (no seeing bid yet), a blind pass (no bid yet), SEE.

        000: "A player can bid blindly, that is, without looking at cards dealt, so long as
        no one has made a seeing bid in the same auction."  "A player can also pass blindly
        if no one has bid seeing or blindly in the same auction."
        """
        out: list[Action] = []
        if not self.seeing_bid:
            low_level = self._blind_levels()[0] if self.blind_passed else self.min_level
            low = (low_level - 6) * 5
            if self.high is not None:
                low = max(low, self.high.step + 1)
            out += [Action(ActionKind.BID, bid=b, blind=True) for b in _LADDER[low:]]
        if self.high is None:
            out.append(BLIND_PASS)
        else:
            out.append(PASS)  # a blind bidder outbid may give up without looking
        out.append(SEE)
        return out

    def legal(self) -> list[Action]:
        """The calls the seat to act may make, lowest first, ``PASS`` last."""
        seat = self.to_act
        if seat is None:
            return []
        if seat not in self.seen:
            return self._blind_legal(seat)
        if self.blind:
            return self._seeing_legal()
        return self._plain_legal(seat)

    def _seeing_legal(self) -> list[Action]:
        """A seen seat with blind bidding on: a blind high bid is outbid only by more tricks
        in an equal or higher suit ("For a seeing bid to outbid a blind one, it has to have
        larger number of tricks and an equal or higher suit"); after a blind pass the
        seeing minimum rises."""
        out = self._plain_legal(self.to_act)  # type: ignore[arg-type]
        floor = self._blind_levels()[1] if self.blind_passed else 6
        high = self.high
        kept = []
        for a in out:
            b = a.bid
            if b is None:
                kept.append(a)
            elif b.misere:
                if not self.blind_high:
                    kept.append(a)
            elif b.level >= floor and not (
                self.blind_high and high is not None
                and (b.level <= high.level or b.strain < high.strain)
            ):
                kept.append(a)
        return kept

    def _hand_legal(self, seat: int) -> list[Action]:
        """Over a misère with hand bids: only the hand bids above the current one.

        000: "Misere is outbid by "nine in one (spades) hand." A hand bid is a bid to play a
        hand without using the widow. An outbid caller of misere can respond by calling
        "misere hand." Only "ten in one (spades) hand" can outbid "misere hand." "
        """
        out = []
        for act, key in _HAND_LADDER:
            if key <= self._high_key:
                continue
            assert act.bid is not None
            if act.bid.misere:
                if self.misere_hand and seat == self.misere_seat:
                    out.append(act)
            elif seat != self.misere_seat:
                out.append(act)
        out.append(PASS)
        return out

    def _plain_legal(self, seat: int) -> list[Action]:
        out: list[Action] = []
        high = self.high
        if self.hand_bids and high is not None and (high.misere or self.high_hand):
            return self._hand_legal(seat)
        if seat != self.misere_seat:
            base = (self.min_level - 6) * 5
            holds = self._holds(seat)
            if high is None:
                low = base
            elif high.misere:
                low = max(self._misere_outbid_step, base)
            else:
                low = max(high.step + (0 if holds else 1), base)
            high_step = len(_LADDER) if self.jump_bids else low + (2 if holds else 1)
            out.extend(_BID_ACTIONS[low : min(high_step, len(_LADDER))])
        misere_ok = (
            seat not in self.bid_made
            and seat != self.misere_seat
            and not self.calls_by(seat)
            and self._high_key < self._misere_key
        )
        if misere_ok:
            out.append(_MISERE_ACTION)
            out.sort(key=lambda a: self._key(a.bid))  # type: ignore[arg-type]
        out.append(PASS)
        return out

    def calls_by(self, seat: int) -> list[Action]:
        """The calls this seat has made so far."""
        return [a for s, a in self.calls if s == seat]

    def why_illegal(self, seat: int, action: Action) -> str | None:
        """``None`` if ``seat`` may make this call now, else the reason in English."""
        reason = self.refusal(seat, action)
        return None if reason is None else str(reason)

    def refusal(self, seat: int, action: Action) -> Reason | None:
        """``None`` if ``seat`` may make this call now, else the :class:`Reason` why not."""
        if self.to_act is None:
            return Reason("auction_over")
        if seat != self.to_act:
            return Reason("not_your_call", {"seat": self.to_act})
        if self.blind or action.blind or action.kind is ActionKind.SEE:
            return self._blind_refusal(seat, action)
        return self._plain_refusal(seat, action)

    def _plain_refusal(self, seat: int, action: Action) -> Reason | None:
        if action.kind is ActionKind.PASS:
            return None
        high = self.high
        hand_fight = self.hand_bids and high is not None and (high.misere or self.high_hand)
        if action.hand or hand_fight:
            if action in self.legal():
                return None
            if not self.hand_bids:
                return Reason("hand_bids_off")
            if not hand_fight:
                return Reason("hand_bid_over_misere_only")
            held = Action(ActionKind.BID, bid=high, hand=self.high_hand)
            return Reason("hand_fight_calls", {"high": held, "shown": tuple(self.legal())})
        if action.kind is not ActionKind.BID or action.bid is None:
            return Reason("bid_or_pass")
        bid = action.bid
        if bid.misere:
            if seat == self.misere_seat or self.calls_by(seat):
                return Reason("misere_first_call")
            if self._high_key > self._misere_key:
                return Reason("misere_below_bid", {"high": self.high})
            if self.high is not None and self.high.misere:
                return Reason("misere_called")
            return None
        if seat == self.misere_seat:
            return Reason("misere_caller_passes")
        if bid.level < self.min_level:
            return Reason("lowest_bid", {"level": self.min_level})
        if action in self.legal():
            return None
        high = self.high
        if high is None:
            return Reason("first_bid", {"bid": _LADDER[(self.min_level - 6) * 5]})
        if high.misere:
            return Reason("over_misere_from", {"bid": _LADDER[self._misere_outbid_step]})
        if bid == high:
            return Reason("elder_holds", {"high": high})
        if self._key(bid) < self._key(high):
            return Reason("below_bid", {"bid": bid, "high": high})
        return Reason("next_step_only", {"high": high})

    def _blind_refusal(self, seat: int, action: Action) -> Reason | None:
        if action in self.legal():
            return None
        if not self.blind:
            return Reason("blind_off")
        if action.kind is ActionKind.SEE:
            return Reason("already_seen")
        if seat not in self.seen and not action.blind:
            return Reason("look_or_blind")
        if action.blind and seat in self.seen:
            return Reason("seen_no_blind")
        if action.blind and action.kind is ActionKind.PASS:
            return Reason("blind_pass_first")
        if action.blind and self.seeing_bid:
            return Reason("no_blind_after_seeing")
        if self.blind_passed and action.bid is not None and not action.bid.misere:
            blind_min, seeing_min = self._blind_levels()
            need = blind_min if action.blind else seeing_min
            if action.bid.level < need:
                code = "blind_pass_lowest_blind" if action.blind else "blind_pass_lowest"
                return Reason(code, {"level": need})
        if self.blind_high and action.bid is not None:
            return Reason("seeing_over_blind", {"high": self.high})
        return self._plain_refusal(seat, action) or Reason("not_allowed_now")

    # --- calling -------------------------------------------------------------------------
    def call(self, seat: int, action: Action | str) -> None:
        """Make a call; raises ``ValueError`` with the reason if it is illegal."""
        action = Action.parse(action)
        reason = self.refusal(seat, action)
        if reason is not None:
            raise ValueError(str(reason))
        if action.kind is ActionKind.SEE:
            self.seen.add(seat)  # not a call: the same seat calls next
            return
        self.calls.append((seat, action))
        if action.kind is ActionKind.PASS and action.blind:
            self.blind_passed.add(seat)
        if action.kind is ActionKind.BID:
            self.blind_high = action.blind
            if not action.blind:
                self.seeing_bid = True
        if action.kind is ActionKind.PASS:
            self.passed.add(seat)
        else:
            bid = action.bid
            assert bid is not None
            if bid.misere:
                self.misere_seat = seat
            else:
                self.bid_made.add(seat)
            key = self._key(bid)
            if action.hand:
                key = next(k for a, k in _HAND_LADDER if a == action)
            self.high, self.high_seat, self._high_key = bid, seat, key
            self.high_hand = action.hand
        self._advance(seat)

    def _advance(self, seat: int) -> None:
        active = [s for s in self.seats if s not in self.passed]
        if not active or (len(active) == 1 and self.high_seat == active[0]):
            self.to_act = None
            return
        i = self._order[seat]
        n = len(self.seats)
        for k in range(1, n + 1):
            nxt = self.seats[(i + k) % n]
            if nxt not in self.passed:
                self.to_act = nxt
                return
        self.to_act = None  # pragma: no cover - unreachable
