"""The rules of a table as data: one immutable :class:`Rules` object and its presets.

Every convention of the rules texts is an *option*, a named field of
:class:`Rules` with a one-line explanation in its metadata.  A *preset* is a
named set of choices: ``sochi`` (the default), ``leningrad`` and ``rostov`` as
the game's own description (text 003) gives them, and ``guide`` with the
profile the rules guide (text 001 §03) teaches.

>>> from preferans.rules import Rules
>>> r = Rules.preset("leningrad", pool=10)
>>> r.name, r.pool, r.whist_scale
('leningrad', 10, 2)
>>> Rules.from_json({"preset": "sochi", "stalingrad": True}).stalingrad
True
>>> Rules.preset("sochi").contract_value(7)
4

:func:`options_table` renders presets × options from the code, so the README
and the guide cannot drift from what the engine does.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from .bids import Bid


class RulesError(ValueError):
    """An unknown preset or option, or an option value that is not allowed."""


def _opt(default: Any, doc: str, choices: tuple[Any, ...] | None = None) -> Any:
    return field(default=default, metadata={"doc": doc, "choices": choices})


AuctionStyle = Literal["ascending", "seniority"]
WhistStyle = Literal["greedy", "gentlemanly"]
Shortage = Literal["full", "half", "half_mountain_half_whists"]
Responsible8 = Literal["second", "both"]
AllPassTalon = Literal["lead", "closed"]
AllPassScoring = Literal["mountain", "whists"]
PoolOverflow = Literal["mountain_then_opponents", "mountain", "lost"]


@dataclass(frozen=True)
class Rules:
    """The options of one table.  Create with :meth:`preset`; never mutate (use :meth:`replace`)."""

    name: str = _opt("sochi", "Preset this set of rules was built from (plus overrides).")

    # --- the table ---------------------------------------------------------------------------
    players: int = _opt(3, "Players at the table; with four the dealer sits each deal out.", (3, 4))
    pool: int = _opt(20, "Pool (pulya) length each player must close: 10, 20 or 30 usually.")
    contract_values: tuple[int, int, int, int, int] = _opt(
        (2, 4, 6, 8, 10), "Value of a 6, 7, 8, 9 and 10 contract (pool points, whists per trick)."
    )
    misere_value: int = _opt(10, "Value of misère (pool points; mountain per trick taken).")

    # --- the auction -------------------------------------------------------------------------
    auction: AuctionStyle = _opt(
        "ascending",
        "ascending: every bid higher than the last (003); seniority: an elder hand may hold "
        "a younger hand's bid by repeating it ('here'), the younger must then raise (001).",
        ("ascending", "seniority"),
    )
    jump_bids: bool = _opt(
        True, "Bids may skip steps of the ladder (otherwise only the next step)."
    )
    misere_outbid_by: int = _opt(
        9, "Misère ranks just below this level's spades (9: between 8NT and 9♠; 10).", (9, 10)
    )
    misere_hand: bool = _opt(
        False,
        "An outbid misère caller may answer 'misère without the talon' (not yet supported).",
        (False,),
    )
    resignation: bool = _opt(
        False,
        "Declarer may resign after the talon, writing three undertricks (not yet supported).",
        (False,),
    )

    # --- the defence -------------------------------------------------------------------------
    whist_quota: tuple[int, int, int, int, int] = _opt(
        (4, 2, 1, 1, 1), "Tricks the defence owes against a 6, 7, 8, 9 and 10."
    )
    tens_whisted: bool = _opt(
        True, "Ten-trick contracts are whisted with a quota (True) or checked without whists."
    )
    stalingrad: bool = _opt(False, "Both defenders must whist against 6♠ ('Stalingrad').")
    half_whist_levels: tuple[int, ...] = _opt(
        (6, 7), "Contract levels at which the second defender may half-whist after a pass."
    )
    half_whist_reopen: bool = _opt(
        True, "After a half-whist the first defender may reopen with a whist and play alone."
    )
    whist_pass_half_whist: bool = _opt(
        False, "A first defender who whisted may change to half-whist after the second passes."
    )
    whist: WhistStyle = _opt(
        "greedy",
        "greedy: a lone whister writes the tricks of both defending hands; gentlemanly: when "
        "the contract fails, the whister shares the trick whists with the passer.",
        ("greedy", "gentlemanly"),
    )
    shortage: Shortage = _opt(
        "full",
        "What a whister short of his share pays: full (value × missing in the mountain), half "
        "(half of that), half_mountain_half_whists (half in the mountain, half as whists that "
        "declarer writes on him).",
        ("full", "half", "half_mountain_half_whists"),
    )
    responsible_at_8plus: Responsible8 = _opt(
        "second",
        "Against 8, 9 and 10 with two whisters: the second whister answers for the missing trick, "
        "or both share it.",
        ("second", "both"),
    )
    open_before_lead: bool = _opt(
        True, "In an open defence the hands go down before declarer's opening lead (else after)."
    )
    misere_open_before_lead: bool = _opt(
        False, "In misère the defenders' hands go down before declarer's opening lead (else after)."
    )

    # --- scoring -----------------------------------------------------------------------------
    mountain_scale: int = _opt(1, "Multiplier of mountain entries for undertricks and misère.")
    whist_scale: int = _opt(1, "Multiplier of whists per trick and of consolation whists.")
    consolation_per_undertrick: int | None = _opt(
        None, "Whists each opponent writes per undertrick (None: the contract value × whist scale)."
    )
    half_whist_tricks: tuple[int, int] = _opt(
        (2, 1), "Tricks credited to a half-whister against a 6 and a 7 (half the quota)."
    )
    pool_doubled_at_settlement: bool = _opt(
        False, "Pool points still missing at an early stop go to the mountain doubled."
    )

    # --- all-pass (raspasy) ------------------------------------------------------------------
    allpass_talon: AllPassTalon = _opt(
        "lead",
        "lead: the talon cards are turned one by one and set the suit of the first two tricks; "
        "closed: the talon stays face down and first hand leads as usual.",
        ("lead", "closed"),
    )
    allpass_scoring: AllPassScoring = _opt(
        "mountain",
        "mountain: each trick costs mountain points; whists: the player with the fewest tricks "
        "writes whists on the others for their tricks.",
        ("mountain", "whists"),
    )
    allpass_trick_points: int = _opt(
        1, "Mountain points (or whists, with whists scoring) per all-pass trick before the stake."
    )
    allpass_progression: tuple[int, ...] = _opt(
        (1, 2, 3),
        "Stake multiplier of the 1st, 2nd, 3rd… all-pass in a row (the last repeats): "
        "(1,) none, (1, 2, 3) arithmetic, (1, 2, 4) geometric.",
    )
    allpass_min_bid: tuple[int, ...] = _opt(
        (6, 7),
        "Lowest level that may be bid after 0, 1, 2… all-passes in a row (the last repeats): "
        "(6,) no raise, (6, 7) or (6, 7, 7) tightened, (6, 7, 8, 8) hard.",
    )
    allpass_exit_on_failed: bool = _opt(
        True, "A failed contract ends an all-pass streak (stakes and minimum bid back to normal)."
    )
    allpass_exit_on_misere: bool = _opt(True, "A misère ends an all-pass streak.")
    allpass_exit_on_unwhisted: bool = _opt(
        True, "A contract nobody whisted (passed out or half-whisted) ends an all-pass streak."
    )
    allpass_zero_pool: int = _opt(1, "Pool points for a player who takes no trick in an all-pass.")
    allpass_amnesty: bool = _opt(
        False, "Subtract the smallest trick count from everyone before scoring an all-pass."
    )

    # --- closing the pool --------------------------------------------------------------------
    pool_help: bool = _opt(
        True, "Points beyond a closed pool help the highest unclosed pool (ties: next clockwise)."
    )
    pool_help_whists: int = _opt(10, "Whists written on the player helped, per pool point.")
    pool_help_whister_short: bool = _opt(
        True, "A player may be helped on a deal where he was penalised for a whist shortage."
    )
    pool_overflow: PoolOverflow = _opt(
        "mountain_then_opponents",
        "Points left when every pool is closed: off one's own mountain, the rest onto each "
        "opponent's (mountain_then_opponents), off one's own mountain only (mountain), or lost.",
        ("mountain_then_opponents", "mountain", "lost"),
    )

    # -----------------------------------------------------------------------------------------
    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            choices = f.metadata.get("choices")
            value = getattr(self, f.name)
            if choices is not None and value not in choices:
                shown = ", ".join(repr(c) for c in choices)
                raise RulesError(f"option {f.name}={value!r} is not allowed (choose {shown})")
        if self.pool <= 0:
            raise RulesError(f"option pool={self.pool!r} must be a positive number of points")
        if not self.allpass_progression or not self.allpass_min_bid:
            raise RulesError("allpass_progression and allpass_min_bid need at least one entry")
        if any(level not in (6, 7, 8, 9, 10) for level in self.allpass_min_bid):
            raise RulesError(f"allpass_min_bid={self.allpass_min_bid!r}: levels are 6 to 10")
        if any(level not in (6, 7) for level in self.half_whist_levels):
            raise RulesError(f"half_whist_levels={self.half_whist_levels!r}: only 6 and 7")

    # --- presets and (de)serialisation -------------------------------------------------------
    @classmethod
    def preset(cls, name: str = "sochi", **overrides: Any) -> Rules:
        """The named preset, with any options overridden by keyword."""
        key = name.strip().lower()
        key = PRESET_ALIASES.get(key, key)
        if key not in PRESETS:
            known = ", ".join(sorted(PRESETS))
            raise RulesError(f"unknown rules preset {name!r} (known: {known})")
        base = PRESETS[key]
        return base.replace(**overrides) if overrides else base

    def replace(self, **overrides: Any) -> Rules:
        """A copy with options changed; unknown option names are an error."""
        known = {f.name for f in dataclasses.fields(self)}
        for key in overrides:
            if key not in known:
                raise RulesError(f"unknown rules option {key!r}")
        fixed = {k: _coerce(self, k, v) for k, v in overrides.items()}
        return dataclasses.replace(self, **fixed)

    @classmethod
    def from_json(cls, obj: str | Mapping[str, Any] | None) -> Rules:
        """Read a record's ``rules``: a preset name or ``{"preset": ..., option: value, ...}``."""
        if obj is None:
            return cls.preset()
        if isinstance(obj, str):
            return cls.preset(obj)
        if not isinstance(obj, Mapping):
            raise RulesError(f"rules must be a preset name or an object, not {obj!r}")
        options = dict(obj)
        name = options.pop("preset", "sochi")
        options.pop("name", None)
        if not isinstance(name, str):
            raise RulesError(f"rules preset must be a name, not {name!r}")
        return cls.preset(name, **options)

    def to_json(self) -> dict[str, Any]:
        """The preset name plus every option that differs from it."""
        base = PRESETS.get(self.name, PRESETS["sochi"])
        out: dict[str, Any] = {"preset": self.name}
        for f in dataclasses.fields(self):
            if f.name == "name":
                continue
            value = getattr(self, f.name)
            if value != getattr(base, f.name):
                out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    # --- derived values ----------------------------------------------------------------------
    def contract_value(self, level: int | Bid) -> int:
        """Pool value of a contract (misère included)."""
        if isinstance(level, Bid):
            if level.misere:
                return self.misere_value
            level = level.level
        return self.contract_values[level - 6]

    def quota(self, level: int) -> int:
        """Tricks the defence owes against a contract of this level."""
        return self.whist_quota[level - 6]

    def is_whisted(self, bid: Bid) -> bool:
        """Whether defenders whist against this contract (not misère, not a checked ten)."""
        return not bid.misere and (bid.level < 10 or self.tens_whisted)

    def allpass_stake(self, streak: int) -> int:
        """Stake multiplier of an all-pass that is the ``streak``-th in a row (1 = the first)."""
        steps = self.allpass_progression
        return steps[min(max(streak, 1), len(steps)) - 1]

    def min_bid_level(self, allpasses_in_a_row: int) -> int:
        """Lowest level that may be bid after this many all-passes in a row."""
        steps = self.allpass_min_bid
        return steps[min(allpasses_in_a_row, len(steps) - 1)]


def _coerce(rules: Rules, key: str, value: Any) -> Any:
    """JSON gives lists where the options hold tuples."""
    current = getattr(rules, key)
    if isinstance(current, tuple) and isinstance(value, list):
        return tuple(value)
    if isinstance(current, bool) and not isinstance(value, bool):
        raise RulesError(f"option {key}={value!r} must be true or false")
    if isinstance(current, int) and not isinstance(current, bool) and not isinstance(value, int):
        raise RulesError(f"option {key}={value!r} must be a whole number")
    return value


SOCHI: Final = Rules(name="sochi")
"""Sochi, as the game's description (003) gives it: the default.

003: "a lone whister collects all the whists and answers for the whole obligation;
raspasy stakes go 1, 2, 3."  On 003's base rules: each bid higher than the last
(jumps allowed); misère between 8NT and 9♠, only as a first call; quotas 4/2/1/1/1
with tens whisted; half-whist at 6 and 7; all-pass with the talon setting the
first two tricks; a raised minimum bid (7) after an all-pass.

Choices the texts leave open, made here: the first defender may reopen after a
half-whist (002's basic rules); an all-pass streak (stakes 1, 2, 3 and minimum
bid 7) lasts until a deal that is not an all-pass; greedy whist and full
responsibility (000's Sochi); consolation is the contract value per undertrick for
each opponent, passer included (000's Sochi and 001 §09).
"""

LENINGRAD: Final = SOCHI.replace(
    name="leningrad",
    mountain_scale=2,
    whist_scale=2,
    whist="gentlemanly",
    shortage="half",
    allpass_trick_points=2,
    allpass_progression=(1, 2, 4),
    pool_doubled_at_settlement=True,
)
"""Leningrad (Piter), as 003 gives it, on 003's base rules.

003: "the mountain and whists are written doubled; when a contract fails the two
defenders share the whists; a whister short of the obligation pays half;
raspasy stakes go 1, 2, 4."  Choices: all-pass tricks are mountain too, so they
are doubled (2 per trick, then × 1, 2, 4; 000: "Doubled for Piter"); a short
whister pays half of the doubled penalty, i.e. the plain value per missing trick
(000: "half-responsible whist -- it is not doubled"); pool points missing at an
early stop are doubled like the mountain (000's Piter).
"""

ROSTOV: Final = SOCHI.replace(
    name="rostov",
    allpass_talon="closed",
    allpass_scoring="whists",
    allpass_trick_points=5,
    shortage="half_mountain_half_whists",
)
"""Rostov, as 003 gives it, on 003's base rules.

003: "the talon stays closed on raspasy and raspasy tricks cost whists instead of
mountain; a short whister pays half in the mountain and half in whists."
Choices, following 000's Rostov: the player with the fewest tricks writes 5
whists per trick on each opponent's tricks (ties share them), times the stake;
a zero-trick player still earns 1 pool point; stakes rise 1, 2, 3 as in Sochi;
the short whister's other half is written by declarer as whists on him.
"""

GUIDE: Final = SOCHI.replace(
    name="guide",
    auction="seniority",
    jump_bids=False,
    allpass_progression=(1,),
    allpass_min_bid=(6,),
    allpass_amnesty=True,
)
"""The profile the rules guide teaches (001 §03).

Pool 20 closed by everyone; fully responsible greedy whist; tens whisted with a
quota of one; step auction with "here" and no jumps; all-pass tricks cost one
mountain point without escalation, the talon exposed, the next auction from six,
the smallest trick count forgiven (amnesty) and a genuine zero worth one pool
point; no Stalingrad, bombs, blind games or resignation; pass–half-whist at six
and seven, whist–pass–half-whist not allowed; pool help to the highest unclosed
pool, even to a whister penalised on the deal.
"""

PRESETS: Final[dict[str, Rules]] = {
    "sochi": SOCHI,
    "leningrad": LENINGRAD,
    "rostov": ROSTOV,
    "guide": GUIDE,
}
PRESET_ALIASES: Final = {"piter": "leningrad", "peter": "leningrad", "moscow": "rostov"}
PRESET_DOCS: Final = {
    "sochi": "Sochi (default, 003)",
    "leningrad": "Leningrad / Piter (003)",
    "rostov": "Rostov (003)",
    "guide": "The rules guide's profile (001 §03)",
}


def option_docs() -> dict[str, str]:
    """Each option's one-line explanation, by name."""
    return {f.name: f.metadata["doc"] for f in dataclasses.fields(Rules) if f.name != "name"}


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return "–".join(str(v) for v in value)
    if value is None:
        return "—"
    return str(value)


def options_table(presets: tuple[str, ...] = ("sochi", "leningrad", "rostov", "guide")) -> str:
    """A Markdown table of options × presets, generated from the code."""
    header = "| option | " + " | ".join(presets) + " | meaning |"
    rule = "|---|" + "---|" * len(presets) + "---|"
    rows = [header, rule]
    for name, doc in option_docs().items():
        cells = [_show(getattr(PRESETS[p], name)) for p in presets]
        rows.append(f"| `{name}` | " + " | ".join(cells) + f" | {doc} |")
    return "\n".join(rows)
