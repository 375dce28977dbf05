"""Who sits where: three at the table; two with the dummy; four with the dealer sitting out.

000: "There is always a dummy player to the left hand side of the dealer" (two players);
with four, "the dealer does not get cards" and sits the deal out.

>>> seating(3, 2), seating(2, 0), seating(4, 1)
((None, 0, (0, 1, 2)), (2, 2, (2, 1, 0)), (None, 2, (2, 3, 0)))
>>> hand_count(2), hand_count(4)
(3, 4)
"""

from __future__ import annotations

DUMMY = 2
"""The dummy's seat in the two-player game: the third hand of every deal."""


def hand_count(players: int) -> int:
    """Hands dealt at a table: one per player, plus the dummy's with two players."""
    return 3 if players == 2 else players


def seating(players: int, dealer: int) -> tuple[int | None, int, tuple[int, ...]]:
    """``(dummy, first hand, seats)``: the dummy's seat (``None`` unless two play), the
    first hand, and the seats dealt cards clockwise from it (the dummy first with two; a
    four-player dealer left out)."""
    n = players
    if n == 2:
        return DUMMY, DUMMY, (DUMMY, 1 - dealer, dealer)
    first = (dealer + 1) % n
    seats = tuple(s for s in ((first + k) % n for k in range(n)) if not (n == 4 and s == dealer))
    return None, first, seats


def check_hands(
    players: int, hands: int, seat: int | None = None, cards: int = 10, dealer: int = -1,
    tricks: int = 10,
) -> None:
    """Raise ``ValueError`` unless ``hands`` hands are dealt (and, with ``seat``, unless that
    seat holds ``cards`` cards: ``tricks`` (ten; fewer with a short pack), none for a
    four-player dealer)."""
    n = players
    if seat is None:
        want_hands = hand_count(n)
        if hands != want_hands:
            note = " (the dummy's is the third)" if n == 2 else ""
            raise ValueError(f"{n} players need {want_hands} hands{note}, not {hands}")
        return
    want = 0 if (n == 4 and seat == dealer) else tricks
    if cards != want:
        if want == 0:
            raise ValueError(f"the dealer (seat {seat}) sits out and holds no cards")
        raise ValueError(f"seat {seat} has {cards} cards, not {tricks}")
