"""Match records rich in misères, for the puzzle generator's misère-catching puzzles.

Misère deals are rare in random boards (a few in a hundred), so the generator finds few
misère positions in ordinary match records.  This plays, with our computer players, only
the boards of a seed where some hand is close to a clean misère
(``players.evaluation.misere_danger`` at most ``--danger``), each board in every rotation
(:func:`preferans.match.play_board`), and writes the records as ``preferans match
--records-dir`` does.  The players still bid as they like: a board is only more likely to
be a misère.

    python tools/misere_boards.py --rules sochi --players normal,normal,easy \\
        --seed 31 --boards 400 --out runs/misere-31
"""

from __future__ import annotations

import argparse
from pathlib import Path

from preferans.cards import CardSet
from preferans.match.boards import board_cards, play_board, write_record_file
from preferans.players.evaluation import misere_danger
from preferans.rules import Rules


def misere_board(rules: Rules, seed: int, board: int, danger: float) -> bool:
    """Whether some hand of the board is close to a clean misère."""
    _, hands, _ = board_cards(rules, seed, board)
    return any(misere_danger(CardSet.parse(h).mask) <= danger for h in hands)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="sochi")
    parser.add_argument("--players", default="normal,normal,easy")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--boards", type=int, default=400, help="boards to play")
    parser.add_argument("--danger", type=float, default=0.6)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    rules = Rules.preset(args.rules)
    lineup = [p.strip() for p in args.players.split(",")]
    args.out.mkdir(parents=True, exist_ok=True)
    played = board = 0
    while played < args.boards:
        if misere_board(rules, args.seed, board, args.danger):
            result = play_board(lineup, rules, args.seed, board, threads=1)
            for r in result.records:
                write_record_file(args.out, "board", board, r["rotation"], r["lineup"],
                                  r["record"], {"seed": args.seed, "misere_boards": True})
            played += 1
        board += 1
    print(f"played {played} of {board} boards")


if __name__ == "__main__":
    main()
