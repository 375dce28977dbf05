"""The sheet's deal notes as data: a message code and its parameters.

A :class:`Note` is a ``str`` whose text is the English phrase the engine always wrote
(``"{1} failed 7♠ by 6 (+24 mountain)"``, seats as ``{seat}`` placeholders that
:func:`preferans.scoring.name_notes` fills with the players' names, :func:`named`: "You" as
"your" and "you" where the phrase needs them), so the records and the sheet's JSON read as
before.  It also carries ``code`` (a key of
:data:`ENGLISH`) and ``params``, so the edge that shows it to a player can render it in the
reader's language (:func:`preferans.i18n.render_note`, ``msgctxt "note"`` in the
catalogues, ``msgid`` the code).  The engine stays free of any language.

Parameters named in :data:`SEAT_PARAMS` are seats (ints), those in :data:`SEAT_LIST_PARAMS`
lists of seats (English: ``{0} and {2}``); in a template ``{seat:gen}`` is the possessive
(``{1}'s``, "your") and ``{on:acc}`` the object ("you"); the others are numbers (ints where
whole) or the text the engine wrote (``"7.5"``, ``"7♠"``, ``"3–3–4"``).

>>> n = Note("failed", declarer=1, contract="7♠", undertricks=6, cost=24)
>>> str(n), n.code, n.params["declarer"]
('{1} failed 7♠ by 6 (+24 mountain)', 'failed', 1)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

__all__ = ["ENGLISH", "SEAT_LIST_PARAMS", "SEAT_PARAMS", "Note", "english", "named", "note_json",
           "opening_field"]

SEAT_PARAMS = frozenset({"seat", "declarer", "dealer", "soloist", "half", "whister", "writer",
                         "on", "other"})
SEAT_LIST_PARAMS = frozenset({"seats", "tops", "lows"})

ENGLISH: dict[str, str] = {
    # --- scoring.py: one deal's score ------------------------------------------------------
    "declined_invitation": "{dealer} declined {declarer:gen} invitation",
    "shared_game": "{dealer} shared {soloist:gen} game half and half",
    "resigned": "{declarer} resigned {contract} (+{cost} mountain)",
    "misere_made": "{declarer} made misère (+{value} pool)",
    "misere_failed": "{declarer} failed misère with {taken} (+{cost} mountain)",
    "unplayed": "{declarer} made {contract} unplayed (+{value} pool)",
    "half_whisted": "{half} half-whisted: {amount} whists on {declarer:acc}",
    "made": "{declarer} made {contract} (+{value} pool)",
    "failed": "{declarer} failed {contract} by {undertricks} (+{cost} mountain)",
    "half_whist_out": "{whister} played the half-whist out (quota {quota})",
    "failed_free": "{declarer} failed {contract} by {undertricks} (no mountain)",
    "no_prize": "no undertrick prize on {declarer}",
    "no_trick_whists": "no whists for the defenders' tricks on {declarer:gen} failed contract",
    "half_whist_capped": "{whister:gen} half-whist writes at most {tricks} tricks",
    "short_free": "{whister} fell short by {miss} (non-responsible: pays nothing)",
    "short": "{whister} fell short by {miss} (+{cost} mountain)",
    "short_whists": "{whister} fell short by {miss} (+{cost} mountain, {declarer} wrote {amount} "
                    "whists on {whister:acc})",
    "talon_refused_trick": "{declarer} refused the talon: {dealer} wrote one trick "
                           "(+{cost} mountain)",
    "talon_refused": "{declarer} refused the talon ({amount} whists on {on:acc})",
    "talon_prize": "talon prize: {writer} wrote {amount} whists on {on:acc}",
    "wrote_whists": "{writer} wrote {amount} whists on {on:acc}",
    "allpass": "All-pass {tricks}",
    "allpass_stake": "All-pass {tricks} at stake ×{stake}",
    "allpass_mountain": "{seat} +{points} mountain",
    "allpass_zero": "{seat} took no trick (+{points} pool)",
    "allpass_dealer": "{dealer} dealt and sat out (+{points} pool)",
    # --- sheet.py: the sheet's own rules ----------------------------------------------------
    "allpass_revoke": "{seat} revoked in all-pass: counted as ten tricks",
    "irr_no_discard": "{seat} did not discard in {contract}: three undertricks "
                      "(+{cost} mountain), the hand not played",
    "irr_revoke": "{seat} revoked in {contract}: three undertricks (+{cost} mountain), "
                  "the hand not played",
    "irr_misdeal": "{seat} misdealt: the cards are dealt again (+1 mountain)",
    "irr_advice": "{seat} gave advice (+1 mountain)",
    "round_pool_first": "{seats} filled the round's pool first: {bonus} whists",
    "forced_allpass": "the next deal is an all-pass at stake ×{stake}",
    "round_over": "round {round} over; {seats} smallest mountain: {bonus} whists",
    "racing_final": "{tops} largest total pool: {pool_bonus} whists; {lows} smallest total "
                    "mountain: {hill_bonus} whists",
    "off_mountain": "{seat} wrote {points} off the mountain",
    "zero_full": "{seat:gen} pool is full: {points} off the mountain",
    "zero_forfeit": "{seat:gen} pool is full, the mountain empty: {points} forfeited",
    "kept_beyond": "{seat} kept {points} beyond the pool",
    "blind": "bid blind: doubled",
    "bomb": "{declarer:gen} bomb ×{factor}",
    "second_half": "{declarer:gen} successful game {game} of the second half is beyond the "
                   "{hands} compulsory hands and all-passes (+{points} mountain)",
    "second_half_shared": "{declarer:gen} successful game {game} of the second half is beyond "
                          "the {hands} compulsory hands and all-passes (+{points} mountain, "
                          "shared with {dealer:acc})",
    "staying_dealer": "{dealer} stayed for {deals} all-passes (+{points} mountain)",
    "hill_first": "{seat} wrote {points} beyond the pool off the mountain",
    "closed_pool": "{seat} closed {points} of {other:gen} pool ({amount} whists on {other:acc})",
    "closed_pool_free": "{seat} closed {points} of {other:gen} pool",
    "closing_no_help": "{seat:gen} pool closed on this deal: {points} help no other pool",
    "took_off": "{seat} took {points} off the mountain",
    "took_off_lost": "{points} points to take off a mountain lost",
    "took_off_other": "{seat} took {points} off {other:gen} mountain ({amount} whists "
                      "on {other:acc})",
    "bonus_first_pool": "{seat} closed the pool first: {bonus} whists on each other player",
    "bonus_clear_mountain": "{seat} emptied the mountain first: {bonus} whists on each other "
                            "player",
    "overflow_lost": "{points} pool points beyond the pools lost",
    "overflow_off_put": "{seat} took {points} off the mountain and put {rest} on each "
                        "opponent's mountain",
    "overflow_off_lost": "{seat} took {points} off the mountain ({rest} lost)",
    "overflow_none": "{seat} had no mountain to take {rest} off",
    "overflow_none_put": "{seat} had no mountain to take {rest} off and put {rest} on each "
                         "opponent's mountain",
    "overflow_none_lost": "{seat} had no mountain to take {rest} off ({rest} lost)",
}


def _param(value: Any) -> Any:
    """A parameter as data: whole numbers as ints, anything else as the text English shows."""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return value
    if isinstance(value, Fraction) and value.denominator == 1:
        return value.numerator
    if isinstance(value, list | tuple):
        return [int(v) for v in value]
    text = str(value)
    return int(text) if re.fullmatch(r"-?[1-9]\d*|0", text) else text


class _Seats:
    """A note's seat (or seats) in English: as ``{0}`` placeholders (``names`` None) or as the
    players' names, "You" in its cases (``{on:acc}`` "you", ``{seat:gen}`` "your"; a name's
    possessive "Lena's"), capitalised where it opens the phrase."""

    def __init__(self, seats: tuple[int, ...], names: Sequence[str] | None, first: bool) -> None:
        self.seats = seats
        self.names = names
        self.first = first

    def _word(self, seat: int, case: str, k: int) -> str:
        possessive = case == "gen" and k == len(self.seats) - 1
        if self.names is None:
            return f"{{{seat}}}" + ("'s" if possessive else "")
        name = self.names[seat]
        if name != "You":
            return name + ("'s" if possessive else "")
        word = "your" if possessive else "you"
        return word.capitalize() if self.first and k == 0 else word

    def __format__(self, spec: str) -> str:
        return " and ".join(self._word(seat, spec, k) for k, seat in enumerate(self.seats))


def english(template: str, params: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """A note's English ``template`` (``{seat}``, ``{on:acc}``, ``{seat:gen}``) with its
    parameters: seats as ``{0}`` placeholders, or as ``names`` when given.

    >>> english(ENGLISH["closed_pool"], {"seat": 2, "points": 4, "other": 0, "amount": 40},
    ...         ["You", "Misha", "Lena"])
    'Lena closed 4 of your pool (40 whists on you)'
    >>> english(ENGLISH["bomb"], {"declarer": 0, "factor": 2}, ["You", "Misha", "Lena"])
    'Your bomb ×2'
    """
    def values(first: bool) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in params.items():
            if key in SEAT_PARAMS:
                out[key] = _Seats((int(value),), names, first)
            elif key in SEAT_LIST_PARAMS:
                out[key] = _Seats(tuple(int(v) for v in value), names, first)
            else:
                out[key] = str(value)
        return out

    head, rest = opening_field(template)
    return head.format_map(values(True)) + rest.format_map(values(False))


def opening_field(template: str) -> tuple[str, str]:
    """A template split after the field that opens it (``"{seat}"``, ``" took …"``), or
    ``("", template)``: a seat there is capitalised, the same seat later in the phrase not."""
    opening = re.match(r"\{\w+(?::[^{}]*)?\}", template)
    return (opening.group(0), template[opening.end():]) if opening else ("", template)


def named(note: str, names: Sequence[str]) -> str:
    """A note in English with the players' names (a plain string: its ``{seat}`` replaced)."""
    if isinstance(note, Note):
        return english(ENGLISH[note.code], note.params, names)
    for seat, name in enumerate(names):
        note = note.replace(f"{{{seat}}}", name)
    return note


class Note(str):
    """One phrase of a deal's summary: English text, with ``code`` and ``params`` as data."""

    code: str
    params: dict[str, Any]

    def __new__(cls, code: str, **params: Any) -> Note:
        data = {k: _param(v) for k, v in params.items()}
        self = super().__new__(cls, english(ENGLISH[code], data))
        self.code = code
        self.params = data
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.code, self.params))

    def __deepcopy__(self, memo: dict[int, Any]) -> Note:
        return self

    def __copy__(self) -> Note:
        return self


def _rebuild(code: str, params: dict[str, Any]) -> Note:
    return Note(code, **params)


def note_json(note: str) -> dict[str, Any]:
    """A note for the sheet's JSON: ``{"code": ..., "params": {...}}``; a plain string (from
    elsewhere) as ``{"code": null, "text": ...}``."""
    if isinstance(note, Note):
        return {"code": note.code, "params": dict(note.params)}
    return {"code": None, "text": str(note)}
