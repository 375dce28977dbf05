"""The game record format (``preferans-record/1``, shared/spec/records.md): read and
validate a record, write a game as one.  Replaying a record into a game is
:func:`preferans.game.replay`; :mod:`preferans.record` is the public face of both.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .cards import Card
from .jsonfile import JsonFileError, kind_of, parse_json, predicate, read_json_file
from .option_bounds import show
from .rules import Rules, RulesError

if TYPE_CHECKING:  # a type only: the game module imports this one
    from .game import Game

RECORD_FORMAT = "preferans-record/1"
MAX_DEALS = 10_000
"""The most deals a record holds (a game of pool 30 is played in well under 500)."""
MAX_ACTIONS = 500
"""The most actions of one deal (an auction, the talon, the defence and 30 cards are far fewer)."""
MAX_TOKEN = 64
"""The longest action token, in characters (``DISCARD 10S 10H``, ``SECOND 20 8``: a few)."""


class RecordError(ValueError):
    """A record that cannot be read or replayed; the message says where and why (a record
    whose rules are refused keeps the :class:`~preferans.rules.RulesError` as
    ``rules_error``)."""

    rules_error: RulesError | None = None


def _load(source: str | Path | Mapping[str, Any]) -> Any:
    """The record object of ``source``: a mapping as it is, JSON text, or a file's path.

    Only a :class:`~pathlib.Path` or a string given by the caller names a file: a value read
    out of JSON (an upload, a file's contents) goes to :func:`record_from_json`, which never
    opens anything."""
    if isinstance(source, Mapping):
        return source
    if isinstance(source, str) and source.lstrip().startswith("{"):
        try:
            return parse_json(source)
        except JsonFileError as exc:
            raise RecordError(f"the record text {predicate(exc)}") from None
    if isinstance(source, str | Path):
        try:
            return read_json_file(source)
        except JsonFileError as exc:
            raise RecordError(str(exc)) from None
    raise RecordError(f"a record is a JSON object {{...}}, not {kind_of(source)}")


def _cards(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise RecordError(f"{where} must be a list of card tokens like \"10H\"")
    try:
        return [str(Card.parse(c)) for c in value]
    except ValueError as exc:
        raise RecordError(f"{where}: {exc}") from None


def read_record(source: str | Path | Mapping[str, Any]) -> dict[str, Any]:
    """Read and validate a record from a path, JSON text or an object.

    Returns a normalised copy: the rules as ``rules.to_json()``, cards in
    canonical form.  Raises :class:`RecordError` naming what is wrong.
    """
    return record_from_json(_load(source))


def record_from_json(obj: Any) -> dict[str, Any]:
    """Validate a record already parsed from JSON (an upload, a file's contents): never a
    path, whatever it holds.

    >>> record_from_json("/etc/passwd")
    Traceback (most recent call last):
    ...
    preferans.record.RecordError: a record is a JSON object {...}, not a string
    """
    if not isinstance(obj, Mapping):
        raise RecordError(f"a record is a JSON object {{...}}, not {kind_of(obj)}")
    if "format" not in obj:
        raise RecordError(f'the record names no "format" (it must be "{RECORD_FORMAT}")')
    fmt = obj["format"]
    if fmt != RECORD_FORMAT:
        raise RecordError(f"format {show(fmt)} is not {RECORD_FORMAT!r}")
    try:
        rules = Rules.from_json(obj.get("rules"))
    except RulesError as exc:
        error = RecordError(f"rules: {exc}")
        error.rules_error = exc  # the code and params, for an edge that says it in a language
        raise error from None
    n = rules.players
    players = obj.get("players", list("ABCD"[:n]))
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError("players must be a list of names")
    if len(players) != n:
        hint = ' (set "players": 4 in the rules for four)' if len(players) == 4 else ""
        raise RecordError(f"the rules are for {n} players but {len(players)} are named{hint}")
    deals = obj.get("deals", [])
    if not isinstance(deals, list):
        raise RecordError(f"deals must be a list, not {kind_of(deals)}")
    if len(deals) > MAX_DEALS:
        raise RecordError(f"{len(deals)} deals (a record holds at most {MAX_DEALS})")
    out_deals = []
    for i, deal in enumerate(deals, 1):
        out_deals.append(_read_deal(deal, i, n, rules.tricks))
    return {
        "format": RECORD_FORMAT,
        "rules": rules.to_json(),
        "players": list(players),
        "deals": out_deals,
    }


def _read_deal(deal: Any, number: int, n: int, size: int = 10) -> dict[str, Any]:
    """One deal of a record (``size``: the cards of a hand, ten; fewer with a short pack)."""
    where = f"deal {number}"
    if not isinstance(deal, Mapping):
        raise RecordError(f"{where}: a deal is a JSON object, not {kind_of(deal)}")
    dealer = deal.get("dealer")
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < n:
        raise RecordError(f"{where}: dealer {show(dealer)} is not a seat (0..{n - 1})")
    if "irregularity" in deal:
        return _read_irregularity(deal, where, dealer, n)
    hands = deal.get("hands")
    n_hands = 3 if n == 2 else n  # two players: the dummy's hand is the third
    if not isinstance(hands, list) or len(hands) != n_hands:
        count = len(hands) if isinstance(hands, list) else kind_of(hands)
        dummy = " (the dummy's is the third)" if n == 2 else ""
        raise RecordError(f"{where}: {n} players need {n_hands} hands{dummy}, not {count}")
    hand_lists = [_cards(h, f"{where}, seat {s} hand") for s, h in enumerate(hands)]
    talon = _cards(deal.get("talon"), f"{where}, talon")
    for seat, hand in enumerate(hand_lists):
        want = 0 if (n == 4 and seat == dealer) else size
        if len(hand) != want:
            if want == 0:
                raise RecordError(f"{where}: the dealer (seat {seat}) sits out and holds no cards")
            raise RecordError(f"{where}: seat {seat} has {len(hand)} cards, not {size}")
    if len(talon) != 2:
        raise RecordError(f"{where}: the talon holds 2 cards, not {len(talon)}")
    seen: set[str] = set()
    for card in [c for h in hand_lists for c in h] + talon:
        if card in seen:
            raise RecordError(f"{where}: card {card} is dealt twice")
        seen.add(card)
    actions = deal.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError(f"{where}: actions must be a list of tokens, not {kind_of(actions)}")
    if len(actions) > MAX_ACTIONS:
        raise RecordError(f"{where}: {len(actions)} actions (a deal has at most {MAX_ACTIONS})")
    for k, token in enumerate(actions, 1):
        if not isinstance(token, str):
            raise RecordError(f"{where}, action {k} ({show(token)}): an action is a token string")
        if len(token) > MAX_TOKEN:
            raise RecordError(f"{where}, action {k}: a token of {len(token)} characters "
                              f"(at most {MAX_TOKEN})")
    return {"dealer": dealer, "hands": hand_lists, "talon": talon, "actions": list(actions)}


IRREGULARITY_KINDS = ("misdeal", "no_discard", "revoke", "advice")


def _read_irregularity(deal: Mapping[str, Any], where: str, dealer: int, n: int) -> dict[str, Any]:
    """A deal entry that is an irregularity (docs/records-extensions.md), not a played deal."""
    entry = deal["irregularity"]
    if not isinstance(entry, Mapping):
        raise RecordError(f"{where}: irregularity must be an object like "
                          '{"seat": 0, "kind": "revoke", "contract": "8S"}')
    if "hands" in deal or deal.get("actions"):
        raise RecordError(f"{where}: an irregularity entry holds no hands or actions")
    seat = entry.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
        raise RecordError(f"{where}: irregularity seat {show(seat)} is not a seat (0..{n - 1})")
    kind = entry.get("kind")
    if kind not in IRREGULARITY_KINDS:
        raise RecordError(f"{where}: irregularity kind {show(kind)} is not one of "
                          f"{', '.join(IRREGULARITY_KINDS)}")
    contract = entry.get("contract")
    if contract is not None and not isinstance(contract, str):
        raise RecordError(f"{where}: irregularity contract {show(contract)} is not a bid like "
                          '"8S"')
    if kind == "revoke" and contract is None:
        raise RecordError(f"{where}: a revoke names its contract (a revoke in all-pass is "
                          "recorded as the all-pass deal itself, the offender with ten tricks)")
    out: dict[str, Any] = {"seat": seat, "kind": kind}
    if contract is not None:
        out["contract"] = contract
    return {"dealer": dealer, "irregularity": out}


def write_record(game: Game) -> dict[str, Any]:
    """The game as a ``preferans-record/1`` object (finished deals, then any open one)."""
    deals = [*game.finished_deals, *([game.deal] if game.deal is not None else [])]
    irregular = [x for x in game.sheet.irregularities if "after_deal" in x]
    out: list[dict[str, Any]] = []
    for k, d in enumerate([*deals, None]):
        for x in irregular:
            if x["after_deal"] == k:
                entry = {key: x[key] for key in ("seat", "kind", "contract") if key in x}
                out.append({"dealer": x.get("dealer", game.dealer), "irregularity": entry})
        if d is not None:
            out.append({
                "dealer": d.dealer,
                "hands": [h.to_list() for h in d.initial_hands],
                "talon": [str(c) for c in d.talon],
                "actions": d.tokens(),
            })
    return {
        "format": RECORD_FORMAT,
        "rules": game.rules.to_json(),
        "players": list(game.players),
        "deals": out,
    }
