"""The card play of a deal: tricks, following suit, the all-pass talon leads
(a part of :class:`preferans.deal.Deal`).
"""

from __future__ import annotations

from .actions import (
    Action,
    ActionKind,
)
from .cards import Card, Suit
from .i18n.reasons import Hand, Reason
from .phase import Phase
from .tricks import Trick, playable, trick_winner


class PlayPhase:
    """Tricks from the opening lead to the tenth (the last: fewer with a short pack)."""

    __slots__ = ()

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
        if len(self.tricks) == self.rules.tricks:
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
