"""After the auction: the contract, the defenders' calls, open or closed defence, and the
end of an unplayed deal (a part of :class:`preferans.deal.Deal`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .actions import (
    HALF,
    PASS,
    WHIST,
    Action,
    ActionKind,
)
from .bids import Bid
from .cards import Suit
from .phase import Phase
from .scoring import score_deal
from .variants.dummy import DUMMY


class DefencePhase:
    """The contract named, the defence called, the hands exposed; POOL or HILL at the end."""

    __slots__ = ()

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

        earned = score_deal(self.rules, self._outcome()).pool[seat]
        if self.pool_state is None:
            return earned, Fraction(0)
        return earned, max(Fraction(0), self.rules.pool - self.pool_state[0][seat])
