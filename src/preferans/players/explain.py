"""What a Monte Carlo player's decision was made from, as plain JSON: the web table's hint
and the after-deal review of a player's calls read it.

:meth:`preferans.players.montecarlo.MonteCarloPlayer.explain` makes the decision
:meth:`~preferans.players.montecarlo.MonteCarloPlayer.choose` makes (the same draws, the
same clock) and keeps the values it compared; :func:`explanation` shapes them::

    {"format": "preferans-hint/1", "level": "hard", "choice": "7H", "kind": "bid",
     "unit": "whists", "worlds": 112, "seconds": 0.21,
     "options": [{"token": "7H", "value": 4.2, "contract": "8H"}, ...],
     "contracts": [{"contract": "8H", "value": 4.2}, ...]}

- ``kind``: ``bid``, ``discard``, ``contract``, ``defence`` (whist, pass, half-whist; the
  two-player game's whist with the dummy or alone), ``defence mode`` (open or closed),
  ``card``, ``name`` (the Rogue's item); ``other`` for a decision made by a rule (blind
  bids, POOL/HILL, hand bids, the invitation, a single legal action): then ``options`` is
  empty.
- ``unit``: ``whists`` (the expected change of the player's balance under the rules; Crazy
  also counts the sheet as it stands) or ``tricks`` (Hard's card play and its OPEN/CLOSED
  choice count tricks).  ``value`` is always *more is better* for the player.
- ``options``: the options the player valued: its ``choice`` first, then the others, best
  value first.  A card option also has ``tricks``: the tricks it yields from
  now on over the worlds, counted as ``counted`` says: ``side`` (the player's side's: more is
  better), ``own`` (his own, in an all-pass or his misère: fewer is better), ``declarer`` (a
  misère declarer's, which his defenders want).  A discard names the ``contract`` it plays
  and the ``worlds`` it was valued on (the race drops the weaker ones early).
- ``worlds``: the imagined deals (consistent with the seat's observation) behind the values;
  for OPEN/CLOSED, the deals played out closed.
- ``values``: every option valued, token → value (the options shown are the best few).
- The auction: ``PASS``, the lowest bid (worth the best contract at or above it: bidding on
  aims at it) and ``MISERE``; ``contracts`` lists the best contracts with their values, and
  ``values`` has every legal bid, worth the best contract it can still reach.
  The player bids misère only when it beats the rest by ``misere_margin`` whists; a lone
  whister closes only when closed play gains more than ``margin``.

Only the observation goes in, so only what the seat may see comes out: the options are the
seat's own legal actions, the values averages over imagined deals.
"""

from __future__ import annotations

import math
from typing import Any, Final

from .clock import Deadline

FORMAT: Final = "preferans-hint/1"
TOP_CALLS = 5
"""Options shown for a call (a discard can have a dozen); every legal card is shown."""


def _kind_of_phase(observation: dict[str, Any]) -> str:
    phase = str(observation.get("phase") or "").lower()
    return {"auction": "bid", "discard": "discard", "contract": "contract",
            "defence": "defence", "defence mode": "defence mode",
            "play": "card"}.get(phase, "other")


def explanation(level: str, observation: dict[str, Any], choice: str, notes: dict[str, Any],
                deadline: Deadline | None) -> dict[str, Any]:
    """The explanation of one decision (see the module docstring)."""
    values: dict[str, float] = {
        k: float(v) for k, v in (notes.get("values") or {}).items() if math.isfinite(v)}
    if choice not in values:  # a rule decided (or a fallback): no figures to show
        values = {}
    out: dict[str, Any] = {
        "format": FORMAT,
        "level": level,
        "choice": choice,
        "kind": notes.get("kind") if values else _kind_of_phase(observation),
        "unit": notes.get("unit", "whists") if values else None,
        "worlds": int(notes.get("worlds", 0)) if values else 0,
        "seconds": round(deadline.elapsed(), 3) if deadline is not None else 0.0,
        "options": [],
        "values": {},
    }
    if not values:
        return out
    order = [choice, *sorted((k for k in values if k != choice), key=lambda k: (-values[k], k))]
    if out["kind"] != "card":
        order = order[:TOP_CALLS]
    tricks = notes.get("tricks") or {}
    contracts = notes.get("contracts") or {}
    for token in order:
        option: dict[str, Any] = {"token": token, "value": values[token]}
        if token in tricks:
            option["tricks"] = float(tricks[token])
        if out["kind"] == "discard" and token in contracts:
            option["contract"] = contracts[token]
        if token in (notes.get("option_worlds") or {}):
            option["worlds"] = int(notes["option_worlds"][token])
        out["options"].append(option)
    every = notes.get("every") or values
    out["values"] = {k: float(v) for k, v in every.items() if math.isfinite(v)}
    if "counted" in notes:
        out["counted"] = notes["counted"]
    if out["kind"] == "bid":
        out["contracts"] = [{"contract": c, "value": float(v)} for c, v in contracts.items()]
        out["misere_margin"] = notes.get("misere_margin")
    if "margin" in notes:
        out["margin"] = notes["margin"]
    return out


__all__ = ["FORMAT", "TOP_CALLS", "explanation"]
