"""A game's tree as an extensive-form game file (Gambit's ``.efg``, which OpenSpiel's
``pyspiel.load_efg_game`` reads): for tabular methods on a small game, Mini Preferans
above all.

CFR and the best responses behind NashConv walk the whole tree at every iteration; walked on
our Python states, each node costs an engine step. Written out once, the tree loads as a
C++ game of OpenSpiel's own, with the same information sets, actions, chance and returns,
and every later walk is C++'s::

    import pyspiel, preferans.env
    from preferans.env.efg import to_efg
    game = pyspiel.load_game("python_preferans", {"ranks": 2, "seed": 1})
    tree = to_efg(game)
    efg_game = pyspiel.load_efg_game(tree.text)      # tree.infosets: names -> our strings

Information sets are numbered by ``(player, information_state_string)``; their names in the
file are ``"p<player>#<number>"``, :attr:`Tree.infosets` gives each one's information-state
string. Actions keep their names (``action_to_string``: ``9S``, ``discard KD``, ``AH``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Tree:
    """An exported tree: the EFG ``text``, its ``infosets`` (EFG name -> the player's
    information-state string) and ``nodes`` (how many)."""

    text: str
    infosets: dict[str, str] = field(default_factory=dict)
    nodes: int = 0


def to_efg(game: Any, root: Any = None, *, title: str = "Preferans",
           max_nodes: int = 5_000_000) -> Tree:
    """The tree under ``root`` (the initial state by default) as EFG text. Raises
    ``ValueError`` past ``max_nodes`` nodes (the full game is far too large)."""
    state = game.new_initial_state() if root is None else root.clone()
    players = game.num_players()
    names = " ".join(f'"Player {p + 1}"' for p in range(players))
    lines = [f'EFG 2 R "{_quote(title)}" {{ {names} }} ""', ""]
    infosets: dict[tuple[int, str], int] = {}
    counters = {"chance": 0, "outcome": 0, "nodes": 0}
    out: dict[str, str] = {}

    def walk(state: Any, depth: int) -> None:
        counters["nodes"] += 1
        if counters["nodes"] > max_nodes:
            raise ValueError(f"the tree has more than {max_nodes} nodes")
        pad = " " * min(depth, 40)
        if state.is_terminal():
            counters["outcome"] += 1
            payoffs = " ".join(repr(float(r)) for r in state.returns())
            lines.append(f'{pad}t "" {counters["outcome"]} "" {{ {payoffs} }}')
            return
        if state.is_chance_node():
            counters["chance"] += 1
            outcomes = state.chance_outcomes()
            branches = " ".join(f'"{_quote(state.action_to_string(-1, a))}" {p!r}'
                                for a, p in outcomes)
            lines.append(f'{pad}c "" {counters["chance"]} "" {{ {branches} }} 0')
            for a, _ in outcomes:
                walk(state.child(a), depth + 1)
            return
        player = state.current_player()
        key = (player, state.information_state_string(player))
        number = infosets.get(key)
        if number is None:
            number = infosets[key] = sum(1 for k in infosets if k[0] == player) + 1
            out[f"p{player}#{number}"] = key[1]
        actions = state.legal_actions()
        labels = " ".join(f'"{_quote(state.action_to_string(player, a))}"' for a in actions)
        lines.append(f'{pad}p "" {player + 1} {number} "p{player}#{number}" {{ {labels} }} 0')
        for a in actions:
            walk(state.child(a), depth + 1)

    walk(state, 0)
    return Tree("\n".join(lines) + "\n", out, counters["nodes"])


def _quote(text: str) -> str:
    return text.replace("\\", "/").replace('"', "'")
