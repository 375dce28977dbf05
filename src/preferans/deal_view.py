"""What a deal shows: each seat's observation, the outcome and the record tokens
(a part of :class:`preferans.deal.Deal`).
"""

from __future__ import annotations

from typing import Any

from .cards import Card, CardSet, Suit
from .outcome import DealOutcome
from .phase import Phase


class DealView:
    """The deal as seen: accessors, :meth:`observation`, :meth:`outcome`, :meth:`tokens`."""

    __slots__ = ()

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
        if self.kind == "contract" and self.rules.missing_tricks:
            # a short pack: the declarer's contract counts the tricks of the ranks left out
            tricks[self.declarer] += self.rules.missing_tricks  # type: ignore[index]
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

    def observation(self, seat: int, legal: bool = True) -> dict[str, Any]:
        """Exactly what ``seat`` may see now, as a JSON-serialisable dict.

        Its own hand, every call, the talon once shown, the declarer's own
        discard (declarer only), exposed hands, the cards played, and the legal
        action tokens when ``seat`` is to act (including the cards of a hand it
        controls; ``legal=False`` leaves them out, for a reader that has them already).
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
            "legal": [str(a) for a in self.legal_actions()] if to_act == seat and legal else [],
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
