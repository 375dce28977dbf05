"""Draw the web game's own 32-card deck and card back as SVG files.

Each card is a standalone SVG with a ``viewBox`` (so it stays crisp at any
size): big rank-and-suit indices in two corners, suit pips drawn as vector
paths (no font glyphs for the suits), the classic pip layouts for 7–10, a
framed letter for the court cards and one large pip for the ace.  Spades and
clubs are black, diamonds and hearts red.

Run from the repository root::

    python tools/make_deck.py            # writes src/preferans/server/static/cards/
    python tools/make_deck.py --out DIR

File names are the record tokens: ``7S.svg`` … ``10H.svg``, ``AH.svg`` and ``back.svg``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

W, H = 240, 336  # card size in user units (5:7)
RADIUS = 16
INK = {"S": "#1b1b1f", "C": "#1b1b1f", "D": "#c8102e", "H": "#c8102e"}
SUITS = "SCDH"
RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_NAMES = {"S": "spades", "C": "clubs", "D": "diamonds", "H": "hearts"}
RANK_NAMES = {
    "7": "seven", "8": "eight", "9": "nine", "10": "ten",
    "J": "jack", "Q": "queen", "K": "king", "A": "ace",
}

# Suit pips in a 100 x 100 box centred on (50, 50).
PIP_PATHS = {
    "H": (
        "M50 94 C38 80 4 60 4 31 C4 14 16 5 29 5 C39 5 46 11 50 20 "
        "C54 11 61 5 71 5 C84 5 96 14 96 31 C96 60 62 80 50 94 Z"
    ),
    "D": "M50 3 L88 50 L50 97 L12 50 Z",
    "S": (
        "M50 4 C62 22 96 40 96 62 C96 76 86 84 74 84 C65 84 58 80 53 73 "
        "C54 84 58 90 68 96 L32 96 C42 90 46 84 47 73 C42 80 35 84 26 84 "
        "C14 84 4 76 4 62 C4 40 38 22 50 4 Z"
    ),
    "C": (
        "M50 4 A21 21 0 0 1 67 37 A21 21 0 1 1 55 70 C56 82 60 90 68 96 L32 96 "
        "C40 90 44 82 45 70 A21 21 0 1 1 33 37 A21 21 0 0 1 50 4 Z"
    ),
}

# Pip centres for the number cards, in a unit box (x 0..1 across, y 0..1 down).
_COLS = (0.0, 0.5, 1.0)
_ROWS4 = (0.0, 1 / 3, 2 / 3, 1.0)
PIP_LAYOUTS: dict[str, list[tuple[float, float]]] = {
    "7": [(0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1), (0.5, 0.25)],
    "8": [(0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1), (0.5, 0.25), (0.5, 0.75)],
    "9": [(x, y) for y in _ROWS4 for x in (0, 1)] + [(0.5, 0.5)],
    "10": [(x, y) for y in _ROWS4 for x in (0, 1)] + [(0.5, 1 / 6), (0.5, 5 / 6)],
}
PIP_BOX = (84, 66, 156, 270)  # x0, y0, x1, y1 of the pip centres
PIP_SIZE = 36


def pip(suit: str, cx: float, cy: float, size: float, *, flip: bool = False) -> str:
    """One suit pip centred on (cx, cy), ``size`` units tall; ``flip`` turns it upside down."""
    scale = size / 100
    rotate = f" rotate(180 {cx:.2f} {cy:.2f})" if flip else ""
    return (
        f'<use href="#pip" transform="{rotate.strip()} translate({cx - size / 2:.2f} '
        f'{cy - size / 2:.2f}) scale({scale:.4f})"/>'
    )


def corner_index(rank: str, suit: str) -> str:
    """The rank and a small pip in the top-left corner, and the same turned in the bottom-right."""
    size = 60 if rank != "10" else 50
    spacing = ' letter-spacing="-5"' if rank == "10" else ""
    one = (
        f'<text x="31" y="60" text-anchor="middle" font-size="{size}"'
        f'{spacing}>{rank}</text>' + pip(suit, 31, 90, 32)
    )
    return f'<g>{one}</g><g transform="rotate(180 {W / 2} {H / 2})">{one}</g>'


def centre(rank: str, suit: str) -> str:
    """The middle of the card: pips, a court frame or the ace's big pip."""
    if rank == "A":
        return pip(suit, W / 2, H / 2, 120)
    if rank in ("J", "Q", "K"):
        tint = "#fbe9ec" if suit in "DH" else "#eceef3"
        frame = (
            f'<rect x="58" y="60" width="{W - 116}" height="{H - 120}" rx="10" '
            f'fill="{tint}" stroke="currentColor" stroke-width="3"/>'
            f'<rect x="66" y="68" width="{W - 132}" height="{H - 136}" rx="6" fill="none" '
            f'stroke="currentColor" stroke-width="1" opacity="0.5"/>'
        )
        letter = (
            f'<text x="{W / 2}" y="{H / 2 + 30}" text-anchor="middle" font-size="96">{rank}</text>'
        )
        pips = pip(suit, W / 2, 100, 36) + pip(suit, W / 2, H - 100, 36, flip=True)
        return frame + letter + pips
    x0, y0, x1, y1 = PIP_BOX
    out = []
    for fx, fy in PIP_LAYOUTS[rank]:
        cx, cy = x0 + fx * (x1 - x0), y0 + fy * (y1 - y0)
        out.append(pip(suit, cx, cy, PIP_SIZE, flip=fy > 0.5))
    return "".join(out)


def card_svg(rank: str, suit: str) -> str:
    """The complete SVG text of one card."""
    title = f"{RANK_NAMES[rank]} of {SUIT_NAMES[suit]}"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" '
        f'width="{W}" height="{H}" role="img" aria-label="{title}">'
        f"<title>{title}</title>"
        f'<defs><path id="pip" d="{PIP_PATHS[suit]}"/></defs>'
        f'<rect x="1.5" y="1.5" width="{W - 3}" height="{H - 3}" rx="{RADIUS}" '
        f'fill="#ffffff" stroke="#b9bcc4" stroke-width="3"/>'
        f'<g fill="{INK[suit]}" color="{INK[suit]}" font-family="Helvetica, Arial, sans-serif" '
        f'font-weight="700">'
        f"{corner_index(rank, suit)}{centre(rank, suit)}</g></svg>\n"
    )


def back_svg() -> str:
    """The card back: a deep green lattice inside a white margin."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" '
        f'width="{W}" height="{H}" role="img" aria-label="card back">'
        "<title>card back</title>"
        "<defs>"
        '<pattern id="lattice" width="24" height="24" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)">'
        '<rect width="24" height="24" fill="#1d4e6b"/>'
        '<rect x="0" y="0" width="12" height="12" fill="#24627f"/>'
        '<circle cx="18" cy="18" r="3" fill="#e7c873" opacity="0.8"/>'
        "</pattern>"
        "</defs>"
        f'<rect x="1.5" y="1.5" width="{W - 3}" height="{H - 3}" rx="{RADIUS}" '
        f'fill="#ffffff" stroke="#b9bcc4" stroke-width="3"/>'
        f'<rect x="14" y="14" width="{W - 28}" height="{H - 28}" rx="10" fill="url(#lattice)"/>'
        f'<rect x="22" y="22" width="{W - 44}" height="{H - 44}" rx="6" fill="none" '
        f'stroke="#e7c873" stroke-width="2" opacity="0.9"/>'
        f'<circle cx="{W / 2}" cy="{H / 2}" r="34" fill="#1d4e6b" stroke="#e7c873" '
        'stroke-width="3"/>'
        f'<text x="{W / 2}" y="{H / 2 + 14}" text-anchor="middle" fill="#e7c873" '
        'font-family="Georgia, serif" font-size="40" font-weight="700">P</text>'
        "</svg>\n"
    )


def write_deck(out: Path) -> list[Path]:
    """Write the 32 cards and the back into ``out``; returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for suit in SUITS:
        for rank in RANKS:
            path = out / f"{rank}{suit}.svg"
            path.write_text(card_svg(rank, suit), encoding="utf-8")
            written.append(path)
    back = out / "back.svg"
    back.write_text(back_svg(), encoding="utf-8")
    written.append(back)
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = Path(__file__).resolve().parents[1] / "src/preferans/server/static/cards"
    parser.add_argument("--out", type=Path, default=default, help="folder to write into")
    args = parser.parse_args()
    files = write_deck(args.out)
    print(f"wrote {len(files)} files to {args.out}")


if __name__ == "__main__":
    main()
