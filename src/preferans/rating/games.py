"""Which seats of a finished game are rated, and for whom: pure, from what the store keeps.

A *rated holder* is who a rating belongs to: a human's browser or account (the sha256 of
the seat token it holds, as the store's ``seats`` column has it) or a computer level
(``level:easy`` ... ``level:crazy``).  A finished game is rated when:

- it is a game against the computer (always rated), or a table for friends made *rated*
  (``friends["rated"]``; a table made before there was the choice is unrated);
- it has three or four players (the two-player game's third hand is a dummy: unrated).

Every seat then takes part in the ranking by its final balance (an early finish by
agreement: the sheet's balances when the friends stopped, as the rules settle it).  A seat
takes part *without being updated* (its rating enters the update, its new one is not kept)
when:

- it is a human seat nobody claimed (a game saved before seat tokens), or whose account
  was deleted (:data:`GONE`);
- more than half of its decisions were the stand-in's (the record's ``stand_in`` marks:
  away, out of time, or handed to the computer); such a seat enters with the stand-in
  level's rating, since the level played most of it, but updates neither that level nor
  the human;
- its holder holds another seat of the same table too (one browser or account a table:
  the game is unrated for him; the others are rated as usual).

A computer level in several seats (a game against the computer) is one holder updated
once from all its seats (:func:`.model.combine`).

>>> seats = rated_seats(difficulty="hard", players=3, seats={"0": "ab"}, friends=None,
...                     record={"deals": []}, balance=[10, 0, -10])
>>> [(s.holder, s.counts) for s in seats]
[('ab', True), ('level:hard', True), ('level:hard', True)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .model import Rating, combine, ranks, rate_seats
from .seed import LEVELS, level_holder

FRIENDS = "friends"
"""The store's difficulty of a table for friends."""
GONE = "gone"
"""What a deleted account's seat holds in a game shared with others (no holder): such a seat
updates nobody, as a seat nobody claimed."""
STAND_IN_MOST = 0.5
"""A human seat whose stand-in share of decisions is above this does not count for him."""


@dataclass(frozen=True)
class RatedSeat:
    """One seat of a rated game: whose rating enters the update (``holder``) and whether the
    update is kept for him (``counts``); ``why`` says why not."""

    seat: int
    holder: str
    balance: float
    counts: bool
    why: str = ""


def stand_in_shares(record: Mapping[str, Any]) -> dict[int, tuple[int, int]]:
    """Seat -> (its decisions the stand-in made, all its decisions): the record replayed by
    the engine gives each action's seat, each deal's ``stand_in`` the indices of the actions
    a stand-in made (:mod:`preferans.server.table.standin`)."""
    from ..game import Game

    try:
        game = Game.from_record(dict(record))
    except Exception:  # a damaged record: nobody's seat is discounted
        return {}
    counts: dict[int, list[int]] = {}
    deals = [*game.finished_deals, *([game.deal] if game.deal is not None else [])]
    raw = list(record.get("deals") or [])
    for number, deal in enumerate(deals):
        marks = raw[number].get("stand_in") if number < len(raw) and isinstance(
            raw[number], Mapping) else None
        marked = {k for k in marks if isinstance(k, int)} if isinstance(marks, list) else set()
        for index, (seat, _action) in enumerate(deal.history):
            row = counts.setdefault(int(seat), [0, 0])
            row[1] += 1
            row[0] += int(index in marked)
    return {seat: (row[0], row[1]) for seat, row in counts.items()}


def is_rated(difficulty: str, friends: Mapping[str, Any] | None, players: int) -> bool:
    """Whether a finished game of this kind is rated (module docstring)."""
    if players not in (3, 4):
        return False
    if difficulty == FRIENDS:
        return bool((friends or {}).get("rated"))
    return difficulty in LEVELS


def rated_seats(*, difficulty: str, players: int, seats: Mapping[str, str] | None,
                friends: Mapping[str, Any] | None, record: Mapping[str, Any],
                balance: Sequence[float]) -> list[RatedSeat]:
    """The seats of a finished game as they enter its rating (module docstring); empty when
    the game is not rated or nobody in it would be updated."""
    if not is_rated(difficulty, friends, players) or len(balance) != players:
        return []
    seats = seats or {}
    if difficulty == FRIENDS:
        places = list((friends or {}).get("seats") or [])
        stand_in = str((friends or {}).get("stand_in") or "normal")
        stand_in = stand_in if stand_in in LEVELS else "normal"

        def computer(seat: int) -> str | None:
            place = places[seat] if seat < len(places) and isinstance(places[seat],
                                                                      Mapping) else {}
            level = place.get("level")
            return str(level) if place.get("kind") == "computer" and level in LEVELS else None
    else:
        stand_in = difficulty

        def computer(seat: int) -> str | None:
            return None if seat == 0 else difficulty

    shares = stand_in_shares(record) if difficulty == FRIENDS else {}
    humans = {seat: seats.get(str(seat)) for seat in range(players) if computer(seat) is None}
    held: dict[str, int] = {}
    for holder in humans.values():
        if holder:
            held[holder] = held.get(holder, 0) + 1
    out: list[RatedSeat] = []
    for seat in range(players):
        level = computer(seat)
        bal = float(balance[seat])
        if level is not None:
            out.append(RatedSeat(seat, level_holder(level), bal, True))
            continue
        holder = humans[seat]
        by_stand_in, decisions = shares.get(seat, (0, 0))
        if not holder or holder == GONE:
            out.append(RatedSeat(seat, level_holder(stand_in), bal, False, "unclaimed"))
        elif decisions and by_stand_in / decisions > STAND_IN_MOST:
            out.append(RatedSeat(seat, level_holder(stand_in), bal, False, "stand_in"))
        elif held[holder] > 1:
            out.append(RatedSeat(seat, holder, bal, False, "two_seats"))
        else:
            out.append(RatedSeat(seat, holder, bal, True))
    return out if any(s.counts for s in out) else []


@dataclass(frozen=True)
class Change:
    """A holder's rating before and after one game, and his place in it (1 = the best)."""

    holder: str
    before: Rating
    after: Rating
    place: int


def rate_game(seats: Sequence[RatedSeat], current: Mapping[str, Rating]) -> list[Change]:
    """The rating changes one game makes (:func:`rated_seats`' seats; ``current``: every
    holder's rating now, a missing one new): one per holder the game counts for."""
    before = [current.get(s.holder, Rating()) for s in seats]
    after = rate_seats(before, [s.balance for s in seats])
    places = ranks([s.balance for s in seats])
    updates: dict[str, list[Rating]] = {}
    place: dict[str, int] = {}
    for s, new, p in zip(seats, after, places, strict=True):
        if s.counts:
            updates.setdefault(s.holder, []).append(new)
            place[s.holder] = min(p, place.get(s.holder, p))
    changes = []
    for holder, news in updates.items():
        prior = current.get(holder, Rating())
        changes.append(Change(holder, prior, combine(prior, news), place[holder]))
    return changes
