"""Draw the web game's own 32-card deck and card back as SVG files.

Each card is a standalone SVG with a ``viewBox`` (so it stays crisp at any
size): big rank-and-suit indices in two corners, suit pips drawn as vector
paths (no font glyphs for the suits), the classic pip layouts for 7–10, a
double-headed figure for each court card (crown and beard for the king, tiara and long hair
for the queen, feathered cap for the jack) and one large pip for the ace.  Spades and
clubs are black, diamonds and hearts red.

Run from the repository root::

    python tools/make_deck.py            # writes src/preferans/server/static/cards/
    python tools/make_deck.py --out DIR

File names are the record tokens: ``7S.svg`` … ``10H.svg``, ``AH.svg`` and ``back.svg``;
``ru/`` holds the Russian deck, the same cards with the indices Т К Д В for A K Q J.
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

# The Russian deck's indices: Т(уз), К(ороль), Д(ама), В(алет); the number cards keep theirs.
RU_INDEX = {"A": "Т", "K": "К", "Q": "Д", "J": "В"}
RU_RANK_NAMES = {
    "7": "семёрка", "8": "восьмёрка", "9": "девятка", "10": "десятка",
    "J": "валет", "Q": "дама", "K": "король", "A": "туз",
}
RU_SUIT_NAMES = {"S": "пик", "C": "треф", "D": "бубен", "H": "червей"}
LANGS = ("en", "ru")

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


def index_text(rank: str, lang: str = "en") -> str:
    """The rank as printed in the corners: A K Q J in English, Т К Д В in Russian."""
    return RU_INDEX.get(rank, rank) if lang == "ru" else rank


def corner_index(rank: str, suit: str, lang: str = "en") -> str:
    """The rank and a small pip in the top-left corner, and the same turned in the bottom-right."""
    size = 60 if rank != "10" else 50
    spacing = ' letter-spacing="-5"' if rank == "10" else ""
    one = (
        f'<text x="31" y="60" text-anchor="middle" font-size="{size}"'
        f'{spacing}>{index_text(rank, lang)}</text>' + pip(suit, 31, 90, 32)
    )
    return f'<g>{one}</g><g transform="rotate(180 {W / 2} {H / 2})">{one}</g>'


GOLD = "#e3b23c"
SKIN = "#f7dcc4"
TINT = {"S": "#eceef3", "C": "#eceef3", "D": "#fbe9ec", "H": "#fbe9ec"}

# Each court figure is drawn once in the top half of the frame (x 58..182, y 60..168, the
# card's centre line at y 168) and repeated turned by 180 degrees, as on a double-headed card.
# The robe is in the suit's colour; the head-dress tells the rank at a glance:
# king: a tall three-pointed crown and a beard; queen: a low tiara over long hair;
# jack: a cap with a feather and short hair.  Each holds its sign: a sceptre, a flower, a
# halberd.
BUST = (
    '<path d="M74 168 C74 146 92 134 120 134 C148 134 166 146 166 168 Z"/>'
    '<path d="M112 134 L120 150 L128 134 Z" fill="#fff"/>'
    f'<path d="M120 150 V168" stroke="{GOLD}" stroke-width="6"/>'
)
FACE = f'<circle cx="120" cy="112" r="17" fill="{SKIN}" stroke="currentColor" stroke-width="2"/>'
EYES = '<circle cx="114" cy="110" r="2"/><circle cx="126" cy="110" r="2"/>'
HEADWEAR = {
    "K": (
        FACE + EYES
        + '<path d="M103 118 C106 138 134 138 137 118 C130 126 110 126 103 118 Z"/>'
        + f'<path d="M100 97 L100 70 L110 84 L120 64 L130 84 L140 70 L140 97 Z" fill="{GOLD}" '
        'stroke="currentColor" stroke-width="2.5" stroke-linejoin="round"/>'
        + '<circle cx="120" cy="90" r="4" fill="#fff" stroke="currentColor" stroke-width="1.5"/>'
        + f'<path d="M156 168 V106" stroke="{GOLD}" stroke-width="5"/>'
        + f'<circle cx="156" cy="101" r="7" fill="{GOLD}" stroke="currentColor" stroke-width="2"/>'
    ),
    "Q": (
        '<path d="M100 112 C96 86 144 86 140 112 L146 146 L134 138 L133 112 '
        'C128 102 112 102 107 112 L106 138 L94 146 Z"/>'
        + FACE + EYES
        + '<path d="M113 121 Q120 125 127 121" fill="none" stroke="currentColor" stroke-width="2"/>'
        + f'<path d="M104 96 L108 82 L114 90 L120 76 L126 90 L132 82 L136 96 Z" fill="{GOLD}" '
        'stroke="currentColor" stroke-width="2" stroke-linejoin="round"/>'
        + '<circle cx="120" cy="86" r="3" fill="#fff"/>'
        + '<path d="M156 166 C152 150 158 132 154 120" fill="none" stroke="#2e7d32" '
        'stroke-width="3"/>'
        + f'<circle cx="154" cy="115" r="8" fill="{GOLD}" stroke="currentColor" stroke-width="2"/>'
        + '<circle cx="154" cy="115" r="3" fill="#fff"/>'
    ),
    "J": (
        '<path d="M102 112 C100 96 140 96 138 112 L140 122 L134 118 L106 118 L100 122 Z"/>'
        + FACE + EYES
        + '<path d="M98 100 C98 82 142 82 144 96 L150 100 L98 102 Z"/>'
        + f'<path d="M138 92 C156 80 162 62 150 54 C152 70 146 80 134 88 Z" fill="{GOLD}" '
        'stroke="currentColor" stroke-width="1.5"/>'
        + f'<path d="M100 98 H146" stroke="{GOLD}" stroke-width="4"/>'
        + '<path d="M86 168 V104" stroke="currentColor" stroke-width="3"/>'
        + f'<path d="M86 92 L80 108 L86 104 L92 108 Z" fill="{GOLD}" stroke="currentColor" '
        'stroke-width="1.5" stroke-linejoin="round"/>'
    ),
}


def court(rank: str, suit: str) -> str:
    """A court card's middle: a framed, double-headed figure and a pip by each head."""
    frame = (
        f'<rect x="58" y="60" width="{W - 116}" height="{H - 120}" rx="10" '
        f'fill="{TINT[suit]}" stroke="currentColor" stroke-width="3"/>'
    )
    half = (
        f'<g id="half">{BUST}{HEADWEAR[rank]}{pip(suit, 76, 80, 24)}</g>'
    )
    return (
        frame + half + f'<use href="#half" transform="rotate(180 {W / 2} {H / 2})"/>'
        f'<path d="M62 {H / 2} H{W - 62}" stroke="currentColor" stroke-width="1.5" opacity="0.6"/>'
    )


def centre(rank: str, suit: str) -> str:
    """The middle of the card: pips, a court frame or the ace's big pip."""
    if rank == "A":
        return pip(suit, W / 2, H / 2, 120)
    if rank in ("J", "Q", "K"):
        return court(rank, suit)
    x0, y0, x1, y1 = PIP_BOX
    out = []
    for fx, fy in PIP_LAYOUTS[rank]:
        cx, cy = x0 + fx * (x1 - x0), y0 + fy * (y1 - y0)
        out.append(pip(suit, cx, cy, PIP_SIZE, flip=fy > 0.5))
    return "".join(out)


def card_title(rank: str, suit: str, lang: str = "en") -> str:
    """The card's name for its <title>: "queen of hearts", "дама червей"."""
    if lang == "ru":
        return f"{RU_RANK_NAMES[rank]} {RU_SUIT_NAMES[suit]}"
    return f"{RANK_NAMES[rank]} of {SUIT_NAMES[suit]}"


def card_svg(rank: str, suit: str, lang: str = "en") -> str:
    """The complete SVG text of one card."""
    title = card_title(rank, suit, lang)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" '
        f'width="{W}" height="{H}" role="img" aria-label="{title}">'
        f"<title>{title}</title>"
        f'<defs><path id="pip" d="{PIP_PATHS[suit]}"/></defs>'
        f'<rect x="1.5" y="1.5" width="{W - 3}" height="{H - 3}" rx="{RADIUS}" '
        f'fill="#ffffff" stroke="#b9bcc4" stroke-width="3"/>'
        f'<g fill="{INK[suit]}" color="{INK[suit]}" font-family="Helvetica, Arial, sans-serif" '
        f'font-weight="700">'
        f"{corner_index(rank, suit, lang)}{centre(rank, suit)}</g></svg>\n"
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


def deck_files() -> dict[str, str]:
    """Every file of the deck, by its path relative to the cards folder: the 32 English cards,
    the back, and the 32 Russian cards under ``ru/`` (the back is shared)."""
    files = {}
    for lang in LANGS:
        prefix = "" if lang == "en" else f"{lang}/"
        for suit in SUITS:
            for rank in RANKS:
                files[f"{prefix}{rank}{suit}.svg"] = card_svg(rank, suit, lang)
    files["back.svg"] = back_svg()
    return files


def write_deck(out: Path) -> list[Path]:
    """Write the deck (see ``deck_files``) into ``out``; returns the files written."""
    written = []
    for name, text in deck_files().items():
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
        written.append(path)
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
