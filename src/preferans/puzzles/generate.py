"""``preferans puzzles generate``: puzzles found in match records, on local worker processes
or Ray (:func:`preferans.match.jobs.run_jobs`, as ``preferans match`` runs its boards).

Each record file is one job: its candidate positions (:mod:`.candidates`) are judged
(:mod:`.judge`) and, once a deal has given a puzzle for a side (the declarer, the defence, an
all-pass seat), its later positions for that side are not judged (one puzzle per story).
The results are merged here: a puzzle whose deal and side, or whose position (the
canonical key, :func:`.puzzle.canonical_key`), repeats an earlier one is dropped, so a board
played in three rotations gives each side's puzzle once.

The figures: card decisions seen (``positions``), those judged (``candidates``: a side's
later positions in a deal that gave it a puzzle are not), why each was not kept, the puzzles
kept, and the CPU seconds the jobs used (``time.process_time`` in each worker), from which
the puzzles per CPU hour follow.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..match.jobs import run_jobs
from .candidates import candidates
from .judge import REJECTIONS, judge
from .puzzle import build


@dataclass
class RecordPuzzles:
    """One record's puzzles and figures (a job's result)."""

    file: str
    puzzles: list[tuple[str, dict[str, Any]]]   # (deal key, puzzle)
    stats: dict[str, int]
    cpu_s: float
    error: str | None = None


@dataclass
class Harvest:
    """Every record's puzzles merged, repeats dropped, and the figures."""

    puzzles: list[dict[str, Any]] = field(default_factory=list)
    stats: Counter[str] = field(default_factory=Counter)
    cpu_s: float = 0.0
    records: int = 0
    errors: list[str] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        judged = self.stats["candidates"]
        kept = len(self.puzzles)
        per_hour = kept / self.cpu_s * 3600 if self.cpu_s else 0.0
        grades = Counter(p["grade"] for p in self.puzzles)
        themes = Counter(t for p in self.puzzles for t in p["themes"])
        return {
            "records": self.records,
            "positions": judged + self.stats["after_puzzle"],
            "candidates": judged, "kept": kept,
            "share_kept": kept / judged if judged else 0.0,
            "found_before_repeats": self.stats["found"],
            "rejected": {r: self.stats[r] for r in REJECTIONS},
            "repeats": self.stats["repeats"], "cpu_seconds": round(self.cpu_s, 1),
            "puzzles_per_cpu_hour": round(per_hour, 1),
            "by_grade": {str(g): grades[g] for g in sorted(grades)},
            "by_theme": dict(sorted(themes.items())),
            "errors": len(self.errors),
        }


def puzzles_of_record(path: str, threads: int = 1) -> RecordPuzzles:
    """The puzzles of one record file (a job: ``threads`` is unused, the solver runs on the
    calling thread)."""
    start = time.process_time()
    stats: Counter[str] = Counter()
    found: list[tuple[str, dict[str, Any]]] = []
    done: set[str] = set()
    name = Path(path).name
    try:
        record = json.loads(Path(path).read_text(encoding="utf-8"))
        for cand in candidates(record):
            key = cand.deal_key()
            if key in done:
                stats["after_puzzle"] += 1  # this side of the deal has its puzzle already
                continue
            stats["candidates"] += 1
            verdict = judge(cand.pos, cand.sit, cand.rules)
            if verdict.reason is not None:
                stats[verdict.reason] += 1
                continue
            source = {"record": name, "deal": cand.number, "action": cand.action,
                      "played": cand.played, "players": record.get("players")}
            found.append((key, build(cand.pos, cand.sit, cand.rules, verdict, source,
                                     cand.deal)))
            done.add(key)
    except (OSError, ValueError, KeyError) as exc:
        return RecordPuzzles(name, [], dict(stats), time.process_time() - start,
                             f"{name}: {exc}")
    return RecordPuzzles(name, found, dict(stats), time.process_time() - start)


def generate(files: Sequence[Path], *, workers: int = 1, ray_address: str | None = None,
             progress: Callable[[int], None] | None = None) -> Harvest:
    """Judge every record file's positions; merge, dropping repeats."""
    results: list[RecordPuzzles] = []

    def take(r: RecordPuzzles) -> None:
        results.append(r)
        if progress is not None:
            progress(len(results))

    run_jobs(puzzles_of_record, [str(f) for f in files], workers=workers, take=take,
             ray_address=ray_address)
    return merge(results)


def merge(results: Iterable[RecordPuzzles]) -> Harvest:
    """The results in file order, repeats dropped (the first found is kept)."""
    out = Harvest()
    deal_keys: set[str] = set()
    ids: set[str] = set()
    for r in sorted(results, key=lambda r: r.file):
        out.records += 1
        out.cpu_s += r.cpu_s
        out.stats.update(r.stats)
        if r.error:
            out.errors.append(r.error)
        for key, puzzle in r.puzzles:
            out.stats["found"] += 1
            if key in deal_keys or puzzle["id"] in ids:
                out.stats["repeats"] += 1
                continue
            deal_keys.add(key)
            ids.add(puzzle["id"])
            out.puzzles.append(puzzle)
    return out


def write_puzzles(puzzles: Iterable[dict[str, Any]], path: Path) -> int:
    """Write puzzles as JSON lines (one puzzle a line); the count written."""
    n = 0
    with path.open("w", encoding="utf-8") as f:
        for p in puzzles:
            f.write(json.dumps(p, ensure_ascii=False, separators=(",", ":")) + "\n")
            n += 1
    return n


def read_puzzles(path: Path) -> list[dict[str, Any]]:
    """The puzzles of a file: JSON lines, a JSON list, or one puzzle object."""
    text = path.read_text(encoding="utf-8")
    stripped = text.lstrip()
    if stripped.startswith("["):
        data = json.loads(text)
        if not isinstance(data, list):
            raise ValueError(f"{path}: not a list of puzzles")
        return data
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if len(lines) > 1 or (lines and not stripped.startswith("{\n")):
        try:
            return [json.loads(ln) for ln in lines]
        except json.JSONDecodeError:
            pass
    return [json.loads(text)]
