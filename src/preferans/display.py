"""Readable terminal views (rich): the score sheet and a deal's hands.

Only presentation lives here; the CLI calls these.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from .cards import CardSet, Suit


def _num(x: Any) -> str:
    if isinstance(x, float):
        return f"{x:.3f}".rstrip("0").rstrip(".")
    return str(x)


def sheet_table(sheet: dict[str, Any]) -> Table:
    """The sheet as one table: pool, mountain, whists on each opponent, balance."""
    players = sheet["players"]
    title = "Score sheet" + (" (finished)" if sheet.get("finished") else " (in progress)")
    table = Table(title=title)
    table.add_column("player")
    table.add_column("pool", justify="right")
    table.add_column("mountain", justify="right")
    for name in players:
        table.add_column(f"whists on {name}", justify="right")
    table.add_column("balance", justify="right")
    for i, name in enumerate(players):
        whists = [
            "—" if j == i else _num(sheet["whists"][i][j]) for j in range(len(players))
        ]
        table.add_row(
            name,
            _num(sheet["pool"][i]),
            _num(sheet["mountain"][i]),
            *whists,
            _num(sheet["balance"][i]),
        )
    return table


def deals_table(sheet: dict[str, Any]) -> Table:
    """One row per deal: dealer, kind, declarer, contract, defence, tricks."""
    players = sheet["players"]
    table = Table(title="Deals")
    for col in ("#", "dealer", "kind", "declarer", "contract", "defence", "tricks"):
        table.add_column(col)
    for k, d in enumerate(sheet.get("deals", []), 1):
        declarer = d.get("declarer")
        table.add_row(
            str(k),
            players[d["dealer"]],
            d.get("kind", ""),
            "" if declarer is None else players[declarer],
            d.get("contract") or "",
            " ".join(d.get("defence") or []),
            "-".join(str(t) for t in d.get("tricks", [])),
        )
    return table


def print_sheet(sheet: dict[str, Any], game: Any = None, console: Console | None = None) -> None:
    """Print the deals and the sheet."""
    console = console or Console()
    if sheet.get("deals"):
        console.print(deals_table(sheet))
    console.print(sheet_table(sheet))
    if game is not None and getattr(game, "deal", None) is not None:
        console.print(f"A deal is in progress: {game.deal!r}")


def hand_line(cards: CardSet) -> str:
    """A hand by suit, high to low: ``♠ A K 7  ♣ —  ♦ Q  ♥ 10 9``."""
    parts = []
    for suit in Suit:
        ranks = [c.rank.label for c in reversed(list(cards.of_suit(suit)))]
        parts.append(f"{suit.symbol} {' '.join(ranks) if ranks else '—'}")
    return "  ".join(parts)


def print_deal(deal: Any, console: Console | None = None) -> None:
    """Print every hand and the talon of a deal."""
    console = console or Console()
    table = Table(title=f"Deal (dealer {deal.names[deal.dealer]})")
    table.add_column("seat")
    table.add_column("player")
    table.add_column("hand")
    for seat, hand in enumerate(deal.hands):
        role = " (dealer)" if seat == deal.dealer else ""
        role += " (first hand)" if seat == deal.first_hand else ""
        table.add_row(str(seat), deal.names[seat] + role, hand_line(hand) if hand else "sits out")
    table.add_row("", "talon", "  ".join(c.symbol for c in deal.talon))
    console.print(table)
