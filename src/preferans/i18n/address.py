"""How a player is addressed in Russian: the grammatical gender his name takes (``"m"``: «Вера
поймался» would be wrong for her, «Вера поймалась» right), chosen by the player in the name
form and guessed from the name until he chooses.

The guess (:func:`guess`) is a default, never a verdict: the form shows it and the player
changes it with one tap.  The rule, the same in the browser (``ADDRESS_RULE`` goes to the name
forms as data):

- the first word of the name counts ("Anna K." → "anna"), case and «ё» folded;
- a name on the list of :data:`MASCULINE` (Миша, Саша, Никита, Илья, … and their Latin
  spellings: Misha, Sasha, Nikita, Ilya, Luca, Joshua, …) is masculine, one on the list of
  :data:`FEMININE` (Любовь, Нинель; Anne, Alice, Kate, Mary, …) feminine;
- otherwise a name ending in -а or -я (Latin: -a, -ya, -ia) is feminine, any other
  masculine: Russian's own default, so "Player 1", "Q" or a nickname read «Игрок сыграл».

>>> guess("Вера"), guess("Никита"), guess("Anna K."), guess("Misha"), guess("Boris")
('f', 'm', 'f', 'm', 'm')

A seat's form, the choice first, a computer player's from the catalogue: :func:`preferans.i18n.
translate.player_gender`.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["ADDRESS_RULE", "FEMININE", "GENDERS", "MASCULINE", "chosen", "guess"]

GENDERS = ("m", "f")
"""The forms of address a player may choose: «он» (``m``) and «она» (``f``)."""

MASCULINE = frozenset({
    # Cyrillic: men's names and their short forms that end in -а/-я
    "миша", "саша", "никита", "илья", "дима", "вова", "коля", "петя", "ваня", "женя", "лёша",
    "леша", "алеша", "алёша", "паша", "гриша", "гоша", "юра", "костя", "толя", "федя", "стёпа",
    "степа", "слава", "боря", "лёва", "лева", "сеня", "сёма", "сема", "фома", "кузьма", "лука",
    "савва", "данила", "яша", "тёма", "тема", "вася", "серёжа", "сережа", "митя", "гена",
    "жора", "шура", "эдуарда",
    # the same in Latin letters, and men's names elsewhere that end in -a
    "misha", "sasha", "nikita", "ilya", "ilia", "dima", "vova", "kolya", "petya", "vanya",
    "zhenya", "lyosha", "alyosha", "pasha", "grisha", "gosha", "yura", "kostya", "tolya",
    "fedya", "styopa", "slava", "borya", "lyova", "senya", "foma", "kuzma", "luka", "luca",
    "savva", "danila", "yasha", "vasya", "seryozha", "mitya", "gena", "zhora", "shura",
    "andrea", "joshua", "noah", "elijah", "jonah", "ezra", "mustafa", "musa", "isa", "akira",
    "sacha", "nicola", "garcia",
})
"""First names that end like a woman's but are a man's (the rule's exceptions one way)."""

FEMININE = frozenset({
    "любовь", "нинель", "рахиль", "юдифь", "ассоль", "адель", "руфь", "эсфирь", "агарь",
    "lyubov", "lubov", "ninel", "anne", "alice", "kate", "mary", "marie", "julie", "sophie",
    "claire", "grace", "rose", "helen", "ellen", "lucy", "emily", "elizabeth", "sarah", "ruth",
    "esther", "ann", "jane", "karen", "sue", "susan", "jennifer", "rachel", "hannah", "judith",
    "agnes", "margaret", "catherine", "kathrin", "carmen", "ingrid", "astrid", "natalie",
    "nathalie", "chloe", "zoe", "amy", "ivy", "lily", "sally", "molly", "betty", "kitty",
    "dolly", "abigail", "eve", "heidi", "miriam", "lauren", "isabel", "mabel", "ester",
})
"""First names that do not end in -а/-я but are a woman's (the exceptions the other way)."""

ADDRESS_RULE: dict[str, Any] = {"masculine": sorted(MASCULINE), "feminine": sorted(FEMININE)}
"""The rule's data as the browser's name forms apply it (the same lists, the same endings)."""

_FIRST_WORD = re.compile(r"[^\W\d_]+(?:[-'][^\W\d_]+)*")


def _first_word(name: str) -> str:
    found = _FIRST_WORD.search(name)
    return found.group(0).lower().replace("ё", "е") if found else ""


def guess(name: str) -> str:
    """The form of address a name most likely wants: ``"f"`` or ``"m"`` (see the module)."""
    word = _first_word(name)
    folded = {w.replace("ё", "е") for w in MASCULINE}
    if word in folded:
        return "m"
    if word in {w.replace("ё", "е") for w in FEMININE}:
        return "f"
    if word.endswith(("а", "я")):
        return "f"
    if re.fullmatch(r"[a-z'-]+", word) and word.endswith("a"):
        return "f"
    return "m"


def chosen(value: Any) -> str | None:
    """A form of address as the player chose it (``"m"``, ``"f"``), or None (not chosen:
    the name's guess stands)."""
    return value if value in GENDERS else None
