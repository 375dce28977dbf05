"""Duplicate matches between computer players (``preferans match``).

- :mod:`.boards`: one-deal boards, each played in every rotation of the line-up; its names
  are this package's (``from preferans.match import run_match, board_cards``).
- :mod:`.pulya`: whole pulya games, each played in every rotation.
- :mod:`.jobs`: where a match's jobs run (this process, a process pool, a Ray cluster).
"""

from __future__ import annotations

from .boards import (
    SUMMARY_HEADERS,
    BoardResult,
    SeatResult,
    board_cards,
    board_gains,
    check_lineup,
    format_summary,
    play_board,
    play_stats,
    record_name,
    run_match,
    summarise,
    write_record_file,
)

__all__ = [
    "SUMMARY_HEADERS",
    "BoardResult",
    "SeatResult",
    "board_cards",
    "board_gains",
    "check_lineup",
    "format_summary",
    "play_board",
    "play_stats",
    "record_name",
    "run_match",
    "summarise",
    "write_record_file",
]
