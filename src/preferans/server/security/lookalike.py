"""Names that only look alike: "Аnna" with a Cyrillic А beside "Anna", "Misha" typed with a
Cyrillic а, "Lena" with a capital I for the l.  A friend may not take a name whose
*skeleton* is another seat's or a computer player's.

The skeleton is Unicode's (UTS #39, "confusable detection"): each character is replaced by
the prototype of the characters that look like it, from Unicode's ``confusables.txt`` as
the ``confusable-homoglyphs`` package ships it, after NFD.  Two names with the same skeleton
look the same to a player at the table.

>>> skeleton("Аnna") == skeleton("Anna")            # a Cyrillic А
True
>>> skeleton("Anna") == skeleton("Anya")
False
>>> looks_like("Мisha", ["Misha", "Lena"])          # a Cyrillic М
'Misha'
>>> looks_like("Boris", ["Misha", "Lena"]) is None
True
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable

from confusable_homoglyphs import confusables

_MARKS = "\u200e\u200f"
"""The direction marks the package writes around a right-to-left character."""


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character -> the prototype its class is written with.

    The package lists, for each character, the characters confusable with it, both ways:
    a character that ``confusables.txt`` maps to a prototype lists only that prototype,
    and the prototype lists all of them.  So a character listing one other that lists
    several is mapped to it; a pair that list only each other share the smaller of the two.
    """
    data = confusables.confusables_data
    listed = {char: [h["c"].strip(_MARKS) for h in entries] for char, entries in data.items()}
    out: dict[str, str] = {}
    for char, others in listed.items():
        if len(char) != 1 or len(others) != 1:
            continue
        other = others[0]
        back = listed.get(other, [])
        if len(back) > 1 or len(other) > 1:
            out[char] = other
        elif back == [char]:
            out[char] = min(char, other)
    return out


def skeleton(name: str) -> str:
    """Unicode's skeleton of ``name`` (spaces collapsed): each character its prototype.  It
    keeps case, as Unicode's does (a capital I looks like a small l, a small i does not)."""
    prototypes = _prototypes()
    text = unicodedata.normalize("NFD", " ".join(name.split()))
    return unicodedata.normalize("NFD", "".join(prototypes.get(char, char) for char in text))


def skeletons(name: str) -> frozenset[str]:
    """The skeletons of ``name`` as typed, in small letters and in capitals: two names look
    alike when any of them meet ("MISHA" and "Misha" are one name at a table)."""
    return frozenset(skeleton(form) for form in (name, name.casefold(), name.upper()))


def looks_like(name: str, taken: Iterable[str]) -> str | None:
    """The first of ``taken`` that ``name`` looks like (a skeleton in common), or None."""
    mine = skeletons(name)
    return next((other for other in taken if mine & skeletons(other)), None)
