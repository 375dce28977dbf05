"""After a deal: a seat's calls set beside what Crazy would have chosen from the same view.

For each call the seat made in a finished deal (a bid or pass, a whist / pass / half-whist,
open or closed) with more than one legal choice, the seat's observation at that moment (its
own cards and what it had seen, and the sheet as it stood) is handed to a player's
:meth:`~preferans.players.montecarlo.MonteCarloPlayer.explain`; the entry says what that
player chooses, the expected score (whists) of each option, and the expected difference
between its choice and the call made::

    {"action": 3, "phase": "auction", "token": "PASS", "choice": "6S", "unit": "whists",
     "worlds": 400, "difference": 4.2, "options": [...], "values": {...}}

``difference`` is the value of the player's choice minus that of the call made (``0`` when
they agree; ``None`` when the call made is not among the options valued).

The web server works the explanations out in its thinking processes, only for deals that
are over (:mod:`preferans.server.web.review`); :func:`review_calls` does it here, for
the command line and the tests.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from ..deal import Deal
from ..game import Game
from ..record import read_record, replay

CALL_PHASES: Final = ("auction", "defence", "defence mode")
"""The phases of the calls reviewed: bids, whist or pass, open or closed."""


def call_positions(record: Mapping[str, Any], number: int, seat: int = 0
                   ) -> list[dict[str, Any]]:
    """The calls ``seat`` made in deal ``number`` (1-based, as in the record): for each, the
    action's index in the deal (0-based), its phase, the token, and the seat's observation
    before it.  Only a deal that is over is read (``ValueError`` otherwise)."""
    rec = read_record(record)
    deals = rec["deals"]
    if not 1 <= number <= len(deals):
        raise ValueError(f"the record has no deal {number} (it has {len(deals)})")
    sheet: dict[str, Any] = replay({**rec, "deals": []}).sheet.to_json()
    found: list[dict[str, Any]] = []
    index = {"deal": 0, "action": 0}
    over = {"done": False}

    def after(n: int, game: Game) -> None:
        nonlocal sheet
        if n < number:
            sheet = game.sheet.to_json()
        elif n == number:
            over["done"] = game.deal is None

    def before(n: int, deal: Deal, token: str) -> None:
        if n != index["deal"]:
            index["deal"], index["action"] = n, 0
        else:
            index["action"] += 1
        if n != number or deal.to_act != seat or deal.phase.value not in CALL_PHASES:
            return
        observation = deal.observation(seat)
        if len(observation.get("legal") or []) < 2:
            return
        observation["sheet"] = sheet
        observation["game_finished"] = False
        found.append({"action": index["action"], "phase": deal.phase.value, "token": token,
                      "observation": observation})

    replay({**rec, "deals": deals[:number]}, before_action=before, after_deal=after)
    if not over["done"]:
        raise ValueError(f"deal {number} is not over: its calls are reviewed afterwards")
    return found


def compare(position: Mapping[str, Any], explanation: Mapping[str, Any]) -> dict[str, Any]:
    """One call beside the explanation of the decision at that moment (see the module)."""
    values: dict[str, float] = dict(explanation.get("values") or {})
    token = str(position["token"])
    choice = str(explanation.get("choice"))
    made = next((k for k in values if k.upper() == token.upper()), None)
    difference = None
    if choice.upper() == token.upper():
        difference = 0.0
    elif made is not None and choice in values:
        difference = values[choice] - values[made]
    return {
        "action": position["action"], "phase": position["phase"], "token": token,
        "choice": choice, "level": explanation.get("level"),
        "unit": explanation.get("unit"), "worlds": explanation.get("worlds", 0),
        "difference": difference, "options": list(explanation.get("options") or []),
        "values": values,
    }


def review_calls(record: Mapping[str, Any], number: int, seat: int = 0, *,
                 explain: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
                 level: str = "crazy", seed: int = 0) -> list[dict[str, Any]]:
    """Every call of ``seat`` in deal ``number`` beside ``level``'s view of it (``explain``:
    how a decision is explained; by default a fresh player of ``level`` per call)."""
    if explain is None:
        from ..players import make_player
        from ..rules import Rules

        rules = Rules.from_json(read_record(record)["rules"])

        def explain(observation: dict[str, Any]) -> dict[str, Any]:
            player = make_player(level, rules, seed)
            return dict(player.explain(observation))  # type: ignore[attr-defined]

    return [compare(p, explain(p["observation"])) for p in call_positions(record, number, seat)]


__all__ = ["CALL_PHASES", "call_positions", "compare", "review_calls"]
