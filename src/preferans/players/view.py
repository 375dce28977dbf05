"""What one seat knows, read from its observation.

:class:`SeatView` turns the JSON observation of :meth:`preferans.deal.Deal.observation`
into masks and facts a player reasons with: its own cards, the cards it has
seen (talon, exposed hands, played cards, its own discard), who is known to be
void in which suit, and the role of every seat.  It never holds a card the seat
may not see: it is built from the observation alone.

>>> obs = {"seat": 0, "players": ["A", "B", "C"], "dealer": 2, "first_hand": 0,
...        "phase": "auction", "to_act": 0, "hand": ["AS", "KS", "7H"],
...        "hand_sizes": [3, 3, 3], "auction": [], "legal": ["6S", "PASS"]}
>>> view = SeatView.from_observation(obs)
>>> view.seat, view.phase, str(CardSet(view.hand))
(0, 'auction', 'AS KS 7H')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..bids import Bid
from ..cards import Card, CardSet, Suit

SUIT_MASKS = tuple(0xFF << (8 * s) for s in range(4))


def card_mask(tokens: Iterable[str] | None) -> int:
    """The mask of a list of card tokens (``None`` or empty gives 0)."""
    mask = 0
    for t in tokens or ():
        mask |= Card.parse(t).mask
    return mask


def _bid_or_none(token: Any) -> Bid | None:
    if token is None or token == "":
        return None
    if isinstance(token, Bid):
        return token
    return Bid.parse(str(token))


_EXTRA_KEYS = ("rogue_list", "rogue_item", "soloist", "blind", "hand_hidden", "hand_game",
               "forced_allpass", "talon_refused", "invitation")


def _seat_key(seat: Any) -> int:
    return int(seat)


@dataclass
class TrickSeen:
    """A trick as the seat saw it: leader, cards in order, winner (``None`` if unfinished)."""

    leader: int
    cards: list[tuple[int, Card]]
    winner: int | None = None
    led_suit: int | None = None
    talon: Card | None = None


@dataclass
class SeatView:
    """One seat's knowledge at one moment (built by :meth:`from_observation`)."""

    seat: int
    players: int
    dealer: int
    first_hand: int
    phase: str
    to_act: int | None
    hand_to_play: int | None
    hand: int
    hand_sizes: list[int]
    auction: list[tuple[int, str]]
    defence: list[tuple[int, str]]
    legal: list[str]
    bid: Bid | None = None
    min_bid: int = 6
    declarer: int | None = None
    contract: Bid | None = None
    talon: list[Card] | None = None
    discard: int = 0
    open_defence: bool | None = None
    exposed: dict[int, int] = field(default_factory=dict)
    trick: list[tuple[int, Card]] = field(default_factory=list)
    tricks: list[TrickSeen] = field(default_factory=list)
    tricks_won: list[int] = field(default_factory=list)
    talon_lead: int | None = None
    allpass_streak: int = 0
    kind: str | None = None
    sheet: Mapping[str, Any] | None = None
    dummy: int | None = None
    """Two players: the dummy's seat (2); ``players`` then counts the three hands."""
    alone: bool = False
    """Two players: the whister defends alone (the dummy's hand is out of play)."""
    extras: Mapping[str, Any] = field(default_factory=dict)
    """The observation's variant keys (``rogue_list``, ``blind``, ``hand_hidden``, ...)."""
    # derived
    played: int = 0
    played_by: list[int] = field(default_factory=list)
    voids: list[int] = field(default_factory=list)
    """``voids[seat]`` is a 4-bit mask of the suits that seat is known not to hold."""

    @classmethod
    def from_observation(cls, obs: Mapping[str, Any]) -> SeatView:
        """Read an observation (see :meth:`preferans.deal.Deal.observation`)."""
        names = obs.get("players") or ["A", "B", "C"]
        n = len(names) if isinstance(names, list | tuple) else int(names)
        dummy = obs.get("dummy")
        if dummy is not None:  # two players: the dummy is a third hand (seat 2)
            n = max(n, int(dummy) + 1)
        phase = str(obs.get("phase", "")).lower()
        exposed_raw = obs.get("exposed") or {}
        exposed = {_seat_key(k): card_mask(v) for k, v in dict(exposed_raw).items()}
        talon = obs.get("talon")
        view = cls(
            seat=int(obs["seat"]),
            players=n,
            dealer=int(obs.get("dealer", 0)),
            first_hand=int(obs.get("first_hand", (int(obs.get("dealer", 0)) + 1) % n)),
            phase=phase,
            to_act=obs.get("to_act"),
            hand_to_play=obs.get("hand_to_play"),
            hand=card_mask(obs.get("hand")),
            hand_sizes=list(obs.get("hand_sizes") or [10] * n),
            auction=[(int(s), str(t)) for s, t in obs.get("auction") or []],
            defence=[(int(s), str(t)) for s, t in obs.get("defence") or []],
            legal=[str(t) for t in obs.get("legal") or []],
            bid=_bid_or_none(obs.get("bid")),
            min_bid=int(obs.get("min_bid") or 6),
            declarer=obs.get("declarer"),
            contract=_bid_or_none(obs.get("contract")),
            talon=[Card.parse(t) for t in talon] if talon else None,
            discard=card_mask(obs.get("discard")),
            open_defence=obs.get("open_defence"),
            exposed=exposed,
            trick=[(int(s), Card.parse(c)) for s, c in obs.get("trick") or []],
            tricks=[
                TrickSeen(
                    int(t["leader"]),
                    [(int(s), Card.parse(c)) for s, c in t["cards"]],
                    None if t.get("winner") is None else int(t["winner"]),
                    None,
                    Card.parse(t["talon"]) if t.get("talon") else None,
                )
                for t in obs.get("tricks") or []
            ],
            tricks_won=list(obs.get("tricks_won") or [0] * n),
            talon_lead=(
                None if obs.get("talon_lead") in (None, "") else int(Suit.parse(obs["talon_lead"]))
            ),
            allpass_streak=int(obs.get("allpass_streak") or 0),
            kind=obs.get("kind"),
            sheet=obs.get("sheet"),
            dummy=None if dummy is None else int(dummy),
            alone=bool(obs.get("alone")),
            extras={k: obs[k] for k in _EXTRA_KEYS if k in obs},
        )
        view._derive()
        return view

    # --- derived facts ---------------------------------------------------------------------
    @property
    def trump(self) -> int | None:
        """The contract's trump suit (0..3), or ``None`` (NT, misère, all-pass, no contract)."""
        c = self.contract
        if c is None or c.misere or c.trump is None:
            return None
        return int(c.trump)

    @property
    def is_allpass(self) -> bool:
        """The deal is an all-pass (raspasy) being played."""
        if self.kind is not None:
            return self.kind == "allpass"
        return self.declarer is None and self.phase in ("play", "done")

    @property
    def is_misere(self) -> bool:
        return self.contract is not None and self.contract.misere

    @property
    def active_seats(self) -> list[int]:
        """Seats holding cards this deal, clockwise from first hand where the order matters
        (a four-player dealer sits out; two players: the dummy, the other player, the dealer)."""
        if self.dummy is not None:
            other = 1 - self.dealer
            return [self.dummy, other, self.dealer]
        if self.players == 4:
            return [s for s in range(4) if s != self.dealer]
        return list(range(self.players))

    def defenders(self) -> list[int]:
        """The defending seats in speaking order (declarer's left first)."""
        if self.declarer is None:
            return []
        if self.dummy is not None:
            order = self.active_seats
            i = order.index(self.declarer)
            return order[i + 1:] + order[:i]
        out = []
        seat = self.declarer
        for _ in range(self.players - 1):
            seat = (seat + 1) % self.players
            if self.players == 4 and seat == self.dealer:
                continue
            out.append(seat)
        return out

    @property
    def two_hand_play(self) -> bool:
        """Two players: only two hands play (an all-pass, or a whister defending ALONE), which
        the three-handed solver cannot model."""
        return self.dummy is not None and (self.is_allpass or self.alone)

    @property
    def known(self) -> int:
        """Every card whose place this seat knows: own hand, exposed hands, played, own discard."""
        mask = self.hand | self.played | self.discard
        for m in self.exposed.values():
            mask |= m
        return mask

    @property
    def talon_mask(self) -> int:
        return sum(c.mask for c in self.talon) if self.talon else 0

    @staticmethod
    def _trick_led_suit(trick: TrickSeen) -> int | None:
        """The suit a trick had to follow: the talon card's in the first all-pass tricks."""
        if trick.talon is not None:
            return int(trick.talon.suit)
        return int(trick.cards[0][1].suit) if trick.cards else None

    def _derive(self) -> None:
        n = self.players
        self.played_by = [0] * n
        self.voids = [0] * n
        trump = self.trump
        all_tricks = list(enumerate(self.tricks))
        current = TrickSeen(self.trick[0][0] if self.trick else -1, list(self.trick))
        all_tricks.append((len(self.tricks), current))
        for index, t in all_tricks:
            if not t.cards:
                continue
            led = self._trick_led_suit(t)
            if index == len(self.tricks) and self.talon_lead is not None:
                led = self.talon_lead
            t.led_suit = led
            for seat, card in t.cards:
                self.played |= card.mask
                if 0 <= seat < n:
                    self.played_by[seat] |= card.mask
                if led is None or seat >= n:
                    continue
                suit = int(card.suit)
                if suit != led:
                    self.voids[seat] |= 1 << led
                    if trump is not None and suit != trump:
                        self.voids[seat] |= 1 << trump

    # --- the unseen --------------------------------------------------------------------------
    def void_mask(self, seat: int) -> int:
        """The cards ``seat`` cannot hold because it showed a void."""
        v = self.voids[seat] if 0 <= seat < len(self.voids) else 0
        return sum(SUIT_MASKS[s] for s in range(4) if v >> s & 1)

    def legal_cards(self) -> list[Card]:
        """The legal plays (cards) in ``legal``, when cards are to be played."""
        out = []
        for t in self.legal:
            try:
                out.append(Card.parse(t))
            except ValueError:
                return []
        return out


def hand_str(mask: int) -> str:
    """Cards of a mask for messages and tests."""
    return str(CardSet(mask))
