"""The garbage collector and the event loop: what the server does at startup so a full
collection does not stall every table, and a recorder of the collector's pauses (for the
load benchmark, or ``PREFERANS_GC_STATS=1``, which logs them when the server stops).

A full (generation 2) collection walks every object the process tracks and holds the event
loop meanwhile: with a few hundred open tables that is tens of milliseconds.  The objects
made at startup (modules, the app, the rules, the templates) live for ever, so
:func:`freeze_startup` moves them out of the collector's sight (:func:`gc.freeze`), and
:data:`THRESHOLDS` makes full collections rare.
"""

from __future__ import annotations

import gc
import logging
import os
import time
from typing import Any

log = logging.getLogger("preferans.server")

THRESHOLDS = (2_000, 10, 1_000)
"""gc thresholds for the server (Python's default: 700, 10, 10): a young collection after
2,000 net allocations instead of 700 (fewer collections, each about a millisecond), the
middle one after 10 of those (it sees at most some 20,000 objects: under about 10 ms), and
a full one only after 1,000 middle ones, instead of 10: with 300 tables open a full
collection walks some 100,000 objects (25-80 ms), so it comes about once an hour at full
load instead of every few seconds.  Larger young thresholds (10,000, 20, 20) made the middle
collection see 200,000 objects: 83 ms at 300 tables."""


def freeze_startup(thresholds: tuple[int, ...] | None = THRESHOLDS) -> None:
    """Collect once, then freeze every object that exists now (they are never collected
    again) and set the collector's ``thresholds`` (None: keep them;
    ``PREFERANS_GC_THRESHOLDS=700,10,10`` overrides them, for measuring)."""
    gc.collect()
    gc.freeze()
    chosen = os.environ.get("PREFERANS_GC_THRESHOLDS")
    if chosen:
        thresholds = tuple(int(part) for part in chosen.split(","))
    if thresholds is not None:
        gc.set_threshold(*thresholds)


class GcPauses:
    """Records every collection's pause by generation (through :data:`gc.callbacks`): the
    wall-clock time, and the CPU time of the thread that collected (on a busy machine the
    first is much longer: the process waits for a core in the middle of a collection)."""

    def __init__(self) -> None:
        self._started: tuple[float, float] | None = None
        self.pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self.cpu: dict[int, list[float]] = {0: [], 1: [], 2: []}

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = (time.perf_counter(), time.thread_time())
        elif self._started is not None:
            generation = int(info["generation"])
            self.pauses[generation].append(time.perf_counter() - self._started[0])
            self.cpu[generation].append(time.thread_time() - self._started[1])
            self._started = None

    def install(self) -> GcPauses:
        gc.callbacks.append(self._callback)
        return self

    def reset(self) -> None:
        for pauses in (*self.pauses.values(), *self.cpu.values()):
            pauses.clear()

    def summary(self) -> dict[str, Any]:
        """Per generation: collections, total and longest pause (ms), longest CPU time of a
        collection (ms); and the objects frozen."""
        out: dict[str, Any] = {"frozen": gc.get_freeze_count()}
        for generation, pauses in self.pauses.items():
            out[f"gen{generation}"] = {
                "count": len(pauses),
                "total_ms": round(sum(pauses) * 1000, 1),
                "max_ms": round(max(pauses, default=0.0) * 1000, 1),
                "cpu_max_ms": round(max(self.cpu[generation], default=0.0) * 1000, 1),
            }
        return out

    def log(self) -> None:
        log.warning("gc pauses: %s", self.summary())
