"""Statistics of the human player (seat 0), per difficulty.

Each saved game carries a small *summary* of the human's side of its sheet
(:func:`summarise`), refreshed at every save; the statistics page adds the
summaries up per difficulty (:func:`statistics`).

>>> sheet = {"players": ["You", "Misha", "Lena"], "balance": [12.5, -2.5, -10],
...          "whists": [[0, 8, 4], [0, 0, 0], [0, 0, 0]], "finished": True,
...          "deals": [{"kind": "contract", "declarer": 0, "contract": "7H",
...                     "tricks": [7, 2, 1]}]}
>>> s = summarise(sheet)
>>> s["declared"], s["made"], s["whists_written"], s["won"]
(1, 1, 12, True)
>>> statistics([("easy", s)])["easy"]["contracts_made_pct"]
100.0
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..bids import Bid

DIFFICULTIES = ("easy", "normal", "hard", "crazy")
"""The difficulties of the settings page, weakest first."""

HUMAN = 0
"""The human's seat at the web table."""


def contract_made(entry: Mapping[str, Any], seat: int = HUMAN) -> bool | None:
    """Whether ``seat`` declared in this sheet entry and made it (None: it did not declare).

    A contract nobody whisted (``passed``) or a standing half-whist counts as made.
    """
    if entry.get("declarer") != seat:
        return None
    kind = entry.get("kind")
    if kind in ("passed", "halfwhist"):
        return True
    tricks = entry.get("tricks") or []
    taken = tricks[seat] if seat < len(tricks) else 0
    if kind == "misere":
        return taken == 0
    if kind == "contract":
        try:
            bid = Bid.parse(str(entry.get("contract")))
        except ValueError:
            return None
        return taken >= bid.level
    return None


def summarise(sheet: Mapping[str, Any], seat: int = HUMAN) -> dict[str, Any]:
    """The human's figures of one game from its sheet JSON (``preferans-sheet/1``)."""
    declared = made = 0
    for entry in sheet.get("deals", []):
        result = contract_made(entry, seat)
        if result is not None:
            declared += 1
            made += int(result)
    whists = sheet.get("whists") or []
    written = sum(v for j, v in enumerate(whists[seat]) if j != seat) if whists else 0
    balance = list(sheet.get("balance") or [])
    finished = bool(sheet.get("finished"))
    mine = float(balance[seat]) if balance else 0.0
    others = [float(b) for j, b in enumerate(balance) if j != seat]
    return {
        "deals": len(sheet.get("deals", [])),
        "declared": declared,
        "made": made,
        "whists_written": written,
        "balance": mine,
        "finished": finished,
        "won": finished and bool(others) and mine >= max(others),
    }


def _empty() -> dict[str, Any]:
    return {
        "games": 0,
        "finished": 0,
        "wins": 0,
        "average_result": None,
        "contracts_declared": 0,
        "contracts_made": 0,
        "contracts_made_pct": None,
        "whists_written": 0,
        "deals": 0,
        "hinted": 0,
        "results": [],
    }


def statistics(games: Iterable[tuple[str, Mapping[str, Any] | None]]) -> dict[str, dict[str, Any]]:
    """Per difficulty: games, finished, wins, average result (whists, finished games only),
    contracts declared and made (with the percentage), whists written, deals played, and
    ``hinted``: the games where a hint was asked (:mod:`.hints`).

    ``games`` yields ``(difficulty, summary)`` pairs; a missing summary counts as a game
    with nothing played yet.
    """
    table = {level: _empty() for level in DIFFICULTIES}
    results: dict[str, list[float]] = {level: [] for level in DIFFICULTIES}
    for level, summary in games:
        row = table.setdefault(level, _empty())
        results.setdefault(level, [])
        row["games"] += 1
        if not summary:
            continue
        row["hinted"] += int(bool(summary.get("hints_used")))
        row["deals"] += int(summary.get("deals", 0))
        row["contracts_declared"] += int(summary.get("declared", 0))
        row["contracts_made"] += int(summary.get("made", 0))
        row["whists_written"] += summary.get("whists_written", 0)
        if summary.get("finished"):
            row["finished"] += 1
            row["wins"] += int(bool(summary.get("won")))
            results[level].append(float(summary.get("balance", 0.0)))
    for level, row in table.items():
        row["results"] = [round(r, 1) for r in results[level]]  # finished games, oldest first
        if results[level]:
            row["average_result"] = round(sum(results[level]) / len(results[level]), 2)
        if row["contracts_declared"]:
            pct = 100.0 * row["contracts_made"] / row["contracts_declared"]
            row["contracts_made_pct"] = round(pct, 1)
        if isinstance(row["whists_written"], float):
            row["whists_written"] = round(row["whists_written"], 3)
    return table
