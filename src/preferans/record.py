"""Game records (``preferans-record/1``, shared/spec/records.md): read, write, replay.

>>> from preferans.rules import Rules
>>> from preferans.game import Game
>>> g = Game(Rules.preset("sochi", pool=10), seed=1)
>>> _ = g.start_deal()
>>> for token in ("PASS", "PASS", "6S"):
...     g.apply(token)
>>> rec = write_record(g)
>>> rec["deals"][0]["actions"]
['PASS', 'PASS', '6S']
>>> again = replay(read_record(rec))
>>> again.deal.phase.value, again.deal.declarer
('discard', 0)

Errors name what was wrong: ``deal 1, action 3 (QC), seat 1 (B), phase play:
must follow ♠``.
"""

from __future__ import annotations

from .game import replay
from .record_format import (
    IRREGULARITY_KINDS,
    MAX_ACTIONS,
    MAX_DEALS,
    MAX_TOKEN,
    RECORD_FORMAT,
    RecordError,
    read_record,
    record_from_json,
    write_record,
)

__all__ = [
    "IRREGULARITY_KINDS",
    "MAX_ACTIONS",
    "MAX_DEALS",
    "MAX_TOKEN",
    "RECORD_FORMAT",
    "RecordError",
    "read_record",
    "record_from_json",
    "replay",
    "write_record",
]
