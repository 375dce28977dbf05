"""How the sheet writes its numbers: exact in JSON, short for people.

>>> json_number(Fraction(7, 2)), json_number(Fraction(4)), show_points(Fraction(10, 3))
(3.5, 4, '3.333')
"""

from __future__ import annotations

from fractions import Fraction


def json_number(x: Fraction | int) -> int | float:
    """An exact integer where integral, else a float rounded to three places."""
    x = Fraction(x)
    if x.denominator == 1:
        return int(x.numerator)
    return round(float(x), 3)


def show_points(x: Fraction) -> str:
    """Points as a summary writes them: an integer, else up to three decimals."""
    if x.denominator == 1:
        return str(x.numerator)
    return f"{float(x):.3f}".rstrip("0").rstrip(".")
