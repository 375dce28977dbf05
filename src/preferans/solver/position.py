"""Solver positions and their JSON form (records.md, "Positions").

>>> pos = Position.from_json({"format": "preferans-position/1",
...     "hands": [["AS", "KS", "7H"], ["QS", "8D", "9H"], ["JS", "10D"]],
...     "trick": ["8C"], "leader": 2, "trump": "H", "mode": "contract", "declarer": 0})
>>> pos.to_move, pos.tricks_left
(0, 3)
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from preferans.cards import Card, CardSet, Suit
from preferans.solver.trickmath import trick_winner

FORMAT: Final = "preferans-position/1"
MODES: Final = ("contract", "misere", "allpass")
_MODE_ALIASES: Final = {
    "contract": "contract",
    "misere": "misere",
    "misère": "misere",
    "allpass": "allpass",
    "all-pass": "allpass",
}


try:
    from preferans.solver._solver import SolverError
except ImportError:  # pragma: no cover - only when the C extension is not built

    class SolverError(ValueError):  # type: ignore[no-redef]
        """A position the solver cannot accept (the message says why)."""


def _mask(hand: int | CardSet | Iterable[Card] | Iterable[str], seat: int) -> int:
    if isinstance(hand, bool):
        raise SolverError(f"hand of seat {seat} must be a card mask or cards")
    if isinstance(hand, int):
        return hand
    if isinstance(hand, CardSet):
        return hand.mask
    mask = 0
    for item in hand:
        card = _card(item)
        if mask & card.mask:
            raise SolverError(f"card {card} is named twice in seat {seat}'s hand")
        mask |= card.mask
    return mask


def _card(item: object) -> Card:
    if isinstance(item, Card):
        return item
    if isinstance(item, int) and not isinstance(item, bool):
        try:
            return Card.from_index(item)
        except ValueError as exc:
            raise SolverError(str(exc)) from None
    if isinstance(item, str):
        try:
            return Card.parse(item)
        except ValueError as exc:
            raise SolverError(str(exc)) from None
    raise SolverError(f"not a card: {item!r}")


def _suit(item: object, what: str) -> int:
    if isinstance(item, int) and not isinstance(item, bool):
        if 0 <= item < 4:
            return item
        raise SolverError(f"{what}: suit number {item} out of range 0..3")
    if isinstance(item, Suit):
        return int(item)
    if isinstance(item, str):
        try:
            return int(Suit.parse(item))
        except ValueError as exc:
            raise SolverError(f"{what}: {exc}") from None
    raise SolverError(f"{what}: not a suit: {item!r}")


@dataclass(frozen=True, slots=True)
class Position:
    """A position of a deal for the solver.

    ``hands`` are three card masks (or card sets / card lists, converted to
    masks); ``trick`` the card indices already on the table, leader's first;
    ``trump`` a suit number or ``None``; ``mode`` is ``"contract"``,
    ``"misere"`` or ``"allpass"``; ``side`` is the declarer (contract, misère)
    or the all-pass player whose tricks are counted; ``talon_leads`` the suits
    of the talon-led tricks still to come (all-pass only), the current trick
    first when ``trick`` is not empty.
    """

    hands: tuple[int, int, int]
    trick: tuple[int, ...] = ()
    leader: int = 0
    trump: int | None = None
    mode: str = "contract"
    side: int = 0
    talon_leads: tuple[int, ...] = field(default=())

    def __post_init__(self) -> None:
        hands = tuple(self.hands)
        if len(hands) != 3:
            raise SolverError(f"a position has three hands, not {len(hands)}")
        object.__setattr__(self, "hands", tuple(_mask(h, i) for i, h in enumerate(hands)))
        object.__setattr__(self, "trick", tuple(_card(c).index for c in self.trick))
        object.__setattr__(
            self, "talon_leads", tuple(_suit(s, "talon_leads") for s in self.talon_leads)
        )
        if self.trump is not None:
            object.__setattr__(self, "trump", _suit(self.trump, "trump"))
        mode = _MODE_ALIASES.get(self.mode) if isinstance(self.mode, str) else None
        if mode is None:
            raise SolverError(f"unknown mode {self.mode!r} (use contract, misere or allpass)")
        object.__setattr__(self, "mode", mode)

    # -- derived facts -------------------------------------------------------

    @property
    def to_move(self) -> int:
        """The seat to play next: ``(leader + len(trick)) % 3``."""
        return (self.leader + len(self.trick)) % 3

    @property
    def tricks_left(self) -> int:
        """Tricks still to be decided, the current one included."""
        return self.hands[self.to_move].bit_count()

    def args(self) -> tuple[Any, ...]:
        """The nine plain arguments the C core takes."""
        return (
            self.hands[0],
            self.hands[1],
            self.hands[2],
            self.trick,
            self.leader,
            self.trump,
            MODES.index(self.mode),
            self.side,
            self.talon_leads,
        )

    def validate(self) -> Position:
        """Raise :class:`SolverError` when the position is impossible; return self."""
        from preferans.solver import _solver

        _solver.validate(*self.args())
        return self

    def play(self, card: int | Card | str) -> Position:
        """The position after the seat to move plays ``card`` (no legality check)."""
        card_index = _card(card).index
        mover = self.to_move
        hands = list(self.hands)
        hands[mover] &= ~(1 << card_index)
        trick = (*self.trick, card_index)
        talon = self.talon_leads
        leader = self.leader
        if len(trick) == 3:
            talon_suit = talon[0] if talon else None
            winner = (self.leader + trick_winner(trick, talon_suit, self.trump)) % 3
            if talon:
                talon = talon[1:]  # the first hand leads the next trick again
            else:
                leader = winner
            trick = ()
        return Position(
            hands=(hands[0], hands[1], hands[2]),
            trick=trick,
            leader=leader,
            trump=self.trump,
            mode=self.mode,
            side=self.side,
            talon_leads=talon,
        )

    # -- JSON ----------------------------------------------------------------

    @classmethod
    def from_json(cls, obj: Mapping[str, Any] | str) -> Position:
        """Read the records.md position format (a dict or a JSON string)."""
        if isinstance(obj, str):
            try:
                obj = json.loads(obj)
            except json.JSONDecodeError as exc:
                raise SolverError(f"not valid JSON: {exc}") from None
        if not isinstance(obj, Mapping):
            raise SolverError("a position is a JSON object")
        fmt = obj.get("format", FORMAT)
        if fmt != FORMAT:
            raise SolverError(f"unknown format {fmt!r} (expected {FORMAT!r})")
        hands = obj.get("hands")
        if not isinstance(hands, list) or len(hands) != 3:
            raise SolverError("'hands' must be a list of three card lists")
        masks = []
        for seat, hand in enumerate(hands):
            if not isinstance(hand, list):
                raise SolverError(f"hand of seat {seat} must be a list of cards")
            masks.append(_mask(hand, seat))
        trick = obj.get("trick", [])
        if not isinstance(trick, list):
            raise SolverError("'trick' must be a list of cards")
        leader = obj.get("leader")
        if not isinstance(leader, int) or isinstance(leader, bool) or not 0 <= leader <= 2:
            raise SolverError(f"'leader' must be seat 0, 1 or 2, not {leader!r}")
        mode_text = obj.get("mode", "contract")
        mode = _MODE_ALIASES.get(mode_text) if isinstance(mode_text, str) else None
        if mode is None:
            raise SolverError(f"unknown mode {mode_text!r} (use contract, misere or allpass)")
        trump_text = obj.get("trump")
        if trump_text is None or (isinstance(trump_text, str) and trump_text.upper() == "NT"):
            trump = None
        else:
            trump = _suit(trump_text, "trump")
        if trump is not None and mode != "contract":
            raise SolverError(
                f"trump given in {'misère' if mode == 'misere' else 'all-pass'} mode "
                "(misère and all-pass have no trump)"
            )
        key = "player" if mode == "allpass" else "declarer"
        side = obj.get(key)
        if not isinstance(side, int) or isinstance(side, bool) or not 0 <= side <= 2:
            raise SolverError(f"'{key}' must be seat 0, 1 or 2 in {mode} mode, not {side!r}")
        talon = obj.get("talon_leads") or []
        if not isinstance(talon, list):
            raise SolverError("'talon_leads' must be a list of suits")
        if talon and mode != "allpass":
            raise SolverError("talon_leads given outside all-pass")
        pos = cls(
            hands=(masks[0], masks[1], masks[2]),
            trick=tuple(_card(c).index for c in trick),
            leader=leader,
            trump=trump,
            mode=mode,
            side=side,
            talon_leads=tuple(_suit(s, "talon_leads") for s in talon),
        )
        return pos.validate()

    def to_json(self) -> dict[str, Any]:
        """The records.md position object."""
        out: dict[str, Any] = {
            "format": FORMAT,
            "hands": [CardSet(h).to_list() for h in self.hands],
            "trick": [str(Card.from_index(c)) for c in self.trick],
            "leader": self.leader,
            "trump": None if self.trump is None else Suit(self.trump).letter,
            "mode": self.mode,
        }
        out["player" if self.mode == "allpass" else "declarer"] = self.side
        if self.talon_leads:
            out["talon_leads"] = [Suit(s).letter for s in self.talon_leads]
        return out
