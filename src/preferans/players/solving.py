"""From a seat's view and an imagined world to solver positions.

The solver is three-handed: with four players the three active seats map to
solver seats 0..2 in table order.
"""

from __future__ import annotations

from ..cards import mask_indices
from ..solver import Position, solve_batch
from .clock import Deadline
from .sampling import World
from .view import SeatView


def seat_map(view: SeatView) -> dict[int, int]:
    """Table seat → solver seat (0..2)."""
    return {s: i for i, s in enumerate(view.active_seats)}


def talon_leads(view: SeatView, world: World, allpass_talon: str) -> tuple[int, ...]:
    """The suits of the all-pass tricks the talon still sets, the current one first."""
    if allpass_talon != "lead":
        return ()
    done = len(view.tricks)
    if done >= 2:
        return ()
    shown = view.talon or []
    hidden = mask_indices(world.extra)
    out = []
    for i in range(done, 2):
        if i == done and view.talon_lead is not None:
            out.append(view.talon_lead)
        elif i < len(shown):
            out.append(int(shown[i].suit))
        elif hidden:
            out.append(hidden.pop(0) >> 3)
    return tuple(out)


def play_position(
    view: SeatView, world: World, *, mode: str, side: int, allpass_talon: str = "lead"
) -> Position:
    """The position now, in the play phase, with the world's hidden hands."""
    smap = seat_map(view)
    hands = tuple(world.hands[s] for s in view.active_seats)
    trick = list(view.trick)
    leads = talon_leads(view, world, allpass_talon) if mode == "allpass" else ()
    if mode == "allpass" and view.players == 4 and trick and trick[0][0] == view.dealer:
        # four players: the dealer's talon card leads the trick; modelled as a talon card
        # that sets the suit (it may in truth also win the trick, which only helps the
        # players avoiding tricks: the solver's value is a cautious bound)
        trick = trick[1:]
        if not leads or len(leads) < 2 - len(view.tricks):
            leads = (int(view.trick[0][1].suit), *leads)[: 2 - len(view.tricks)]
    if trick:
        leader = trick[0][0]
    else:
        leader = view.hand_to_play if view.hand_to_play is not None else view.first_hand
    trump = view.trump if mode == "contract" else None
    return Position(
        hands=hands,  # type: ignore[arg-type]
        trick=tuple(c.index for _, c in trick),
        leader=smap[leader],
        trump=trump,
        mode=mode,
        side=smap[side],
        talon_leads=leads,
    )


def opening_position(
    view: SeatView,
    hands: dict[int, int],
    *,
    mode: str,
    side: int,
    trump: int | None,
    leads: tuple[int, ...] = (),
) -> Position:
    """The position before the first lead (first hand leads), given every active hand."""
    smap = seat_map(view)
    return Position(
        hands=tuple(hands[s] for s in view.active_seats),  # type: ignore[arg-type]
        trick=(),
        leader=smap[view.first_hand],
        trump=trump if mode == "contract" else None,
        mode=mode,
        side=smap[side],
        talon_leads=leads,
    )


def solve_openings(view: SeatView, worlds: list[World], declarer: int, trump: int | None,
                   name: str, deadline: Deadline, threads: int,
                   ) -> tuple[list[World], list[int]]:
    """The declarer's tricks from the first lead in each world, solved on the clock (the
    stage ``name`` of ``deadline``): the worlds solved and their values."""
    values: list[int] = []
    for lo, hi in deadline.spans(len(worlds), name=name):
        values += solve_batch([
            opening_position(view, dict(enumerate(w.hands)), mode="contract",
                             side=declarer, trump=trump)
            for w in worlds[lo:hi]
        ], threads=threads)
    return worlds[: len(values)], values
