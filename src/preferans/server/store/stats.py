"""Statistics of a browser's own games, per difficulty, and its games with friends.

Each saved game carries a small *summary* of the human's side of its sheet
(:func:`summarise`), refreshed at every save (a table for friends adds each other human
seat's: ``by_seat``); the statistics page adds up the summaries of the games where the
browser holds a seat (:func:`of_browser`), each from that seat, per difficulty
(:func:`statistics`).

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

import hmac
from collections.abc import Iterable, Mapping
from typing import Any

from ...bids import Bid

DIFFICULTIES = ("easy", "normal", "hard", "crazy")
"""The difficulties of the settings page, weakest first."""
FRIENDS = "friends"
"""The row of the tables for friends (the store's difficulty column of such a table)."""
ROWS = (*DIFFICULTIES, FRIENDS)
"""The statistics page's rows: each difficulty, then the games with friends."""

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
    ``hinted``: the games where a hint was asked (:mod:`..table.hints`).

    ``games`` yields ``(difficulty, summary)`` pairs; a missing summary counts as a game
    with nothing played yet.
    """
    table = {level: _empty() for level in ROWS}
    results: dict[str, list[float]] = {level: [] for level in ROWS}
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


def held_seat(seats: Mapping[str, str] | None, token_hash: str | None) -> int | None:
    """The seat a browser whose seat token hashes to ``token_hash`` holds in ``seats`` (the
    lowest, should it hold two), or None.

    >>> held_seat({"0": "aa", "1": "bb"}, "bb"), held_seat({"0": "aa"}, "cc")
    (1, None)
    """
    if not token_hash:
        return None
    held = [int(seat) for seat, value in (seats or {}).items()
            if seat.isdigit() and isinstance(value, str)
            and hmac.compare_digest(value, token_hash)]
    return min(held) if held else None


def seat_summary(summary: Mapping[str, Any] | None, seat: int) -> dict[str, Any] | None:
    """A game's figures from ``seat``'s side: seat 0's are the summary itself, another
    seat's its ``by_seat`` entry (with the table's hint figures); None when the game has
    none for that seat (saved before the seats had their own).

    >>> seat_summary({"deals": 2, "hints_used": 1, "by_seat": {"1": {"deals": 2}}}, 1)
    {'deals': 2, 'hints_used': 1}
    """
    if not summary:
        return None
    if seat == HUMAN:
        return {k: v for k, v in summary.items() if k != "by_seat"}
    mine = (summary.get("by_seat") or {}).get(str(seat))
    if not isinstance(mine, Mapping):
        return None
    hints = {k: summary[k] for k in ("hints", "hints_used") if k in summary}
    return {**mine, **hints}


def of_browser(games: Iterable[Mapping[str, Any]], token_hash: str | None
               ) -> tuple[list[tuple[str, dict[str, Any] | None]], list[dict[str, Any]]]:
    """A browser's own games among ``games`` (the store's :meth:`games_of_seats` rows): the
    ``(difficulty, summary)`` pairs for :func:`statistics`, each from the browser's own seat,
    and its tables for friends, the latest first (``id``, ``url``, ``status``, ``updated``,
    ``names``, ``seat``, ``others``: the other players' names, ``deals``, ``balance`` and
    ``won`` of its seat once finished).

    A game against the computer counts when the browser holds its seat, or when nobody does
    (saved before seat tokens: CONTINUE offers it to the first browser too); a table for
    friends only where the browser holds a seat, never another's."""
    pairs: list[tuple[str, dict[str, Any] | None]] = []
    tables: list[dict[str, Any]] = []
    for game in games:
        seats = game.get("seats") or {}
        if game.get("difficulty") != FRIENDS:
            holder = seats.get(str(HUMAN)) if isinstance(seats, Mapping) else None
            if holder and held_seat({"0": holder}, token_hash) is None:
                continue
            pairs.append((str(game.get("difficulty")), game.get("summary")))
            continue
        seat = held_seat(seats if isinstance(seats, Mapping) else {}, token_hash)
        if seat is None:
            continue
        mine = seat_summary(game.get("summary"), seat)
        status = str(game.get("status"))
        if status != "lobby":
            pairs.append((FRIENDS, mine))
        names = [str(n) for n in (game.get("names") or [])]
        finished = status == "finished"
        updated = game.get("updated")
        tables.append({
            "id": game["id"], "status": status,
            "url": (f"/replay/{game['id']}" if finished else f"/lobby/{game['id']}"
                    if status == "lobby" else f"/table/{game['id']}"),
            "updated": updated.isoformat() if hasattr(updated, "isoformat") else None,
            "names": names, "seat": seat,
            "others": [n for k, n in enumerate(names) if k != seat],
            "deals": (mine or {}).get("deals"),
            "balance": round(float(mine["balance"]), 1) if finished and mine else None,
            "won": bool(mine.get("won")) if finished and mine else None,
        })
    tables.reverse()
    return pairs, tables
