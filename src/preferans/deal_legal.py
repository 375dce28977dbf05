"""What a deal allows now: the legal actions of each phase and why an action is refused
(a part of :class:`preferans.deal.Deal`).
"""

from __future__ import annotations

from itertools import combinations

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
)
from .bids import MISERE, Bid
from .cards import CardSet
from .i18n.reasons import Alternatives, Reason
from .phase import Phase
from .variants.rogue import naming_actions

_LADDER = Bid.ladder()
_CONTRACT_ACTIONS = [Action(ActionKind.CONTRACT, bid=b) for b in _LADDER]


class Legality:
    """Reading a token in its phase, the legal actions, and the reason for a refusal."""

    __slots__ = ()

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
        """``None`` if the action is legal now, else the :class:`~preferans.i18n.reasons.Reason`
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
