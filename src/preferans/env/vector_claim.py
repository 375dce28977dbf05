"""Which rules the C deal core plays, and the numbers it is given for them.

The core (``vector_c/``) plays one three-player deal on a fresh sheet: the auction (ascending
or by seniority, with or without jumps, misère), the talon, the discard, the contract, the
defence (whist, pass, half-whist and its reopening, whist–pass–half-whist, Stalingrad, open
or closed), resignation, a refused talon, a checked ten, the play, the all-pass (the talon
leading or closed) and misère with each of its exposures.  The score is the engine's own
(:mod:`.vector_score`), so every scoring option is played.  Rules that change the deal in
another way (the structural variants, blind and hand bids, the all-pass exchange, a
half-whist played out, POOL or HILL choices) are refused with the reason:
:class:`~preferans.env.vector.VectorEnv` then steps the Python engine.

>>> from preferans.rules import Rules
>>> len(core_parameters(Rules.preset("sochi")))
18
>>> refusal(Rules.preset("rogue-small"))
'the core plays three players, not 2'
"""

from __future__ import annotations

from ..rules import Rules

_EXPOSURE = {"after_lead": 0, "after_declarer_lead": 1, "before_lead": 2}


def refusal(rules: Rules) -> str | None:
    """Why the C core does not play ``rules`` (``None``: it does)."""
    if rules.players != 3:
        return f"the core plays three players, not {rules.players}"
    if getattr(rules, "ranks", 8) != 8:
        return f"the core plays the full pack, not Mini Preferans's {rules.ranks} ranks"
    if getattr(rules, "suits", 4) != 4:
        return f"the core plays the full pack, not Mini Preferans's {rules.suits} suit"
    checks = (
        (rules.rogue != "none", "the Rogue"),
        (rules.classical_halves, "Classical's halves"),
        (rules.blind_bids, "blind bids"),
        (rules.hand_bids, "hand bids"),
        (rules.allpass_exchange, "the all-pass exchange"),
        (rules.passes_as_half_whist, "two passes as a half-whist"),
        (rules.half_whist_played, "a half-whist played out"),
        (rules.write_off_choice, "POOL or HILL choices"),
        (rules.racing_rounds > 0, "Racing's rounds (a compulsory all-pass)"),
        (rules.pool_overflow_choice and rules.start_mountain > 0,
         "the soloist's POOL or HILL with a mountain at the start"),
    )
    for refused, what in checks:
        if refused:
            return f"the core does not play {what}"
    return None


def core_parameters(rules: Rules) -> tuple[int, ...] | None:
    """The 18 numbers of the core's ``pc_rules`` (``vector_c/pc.h``), in its order; ``None``
    when the core does not play ``rules`` (:func:`refusal` says why)."""
    if refusal(rules) is not None:
        return None
    half_levels = sum(1 << (level - 6) for level in rules.half_whist_levels)
    return (
        int(rules.auction == "seniority"),
        int(rules.jump_bids),
        rules.min_bid_level(0),
        rules.misere_outbid_by,
        int(rules.talon_refusal),
        int(rules.resignation),
        int(rules.tens_whisted),
        int(rules.stalingrad),
        int(rules.stalingrad_sixes),
        half_levels,
        int(rules.half_whist_reopen),
        int(rules.whist_pass_half_whist),
        int(rules.over_greedy and not rules.over_greedy_two_only),
        int(rules.open_before_lead),
        _EXPOSURE[rules.misere_exposure],
        int(rules.allpass_talon == "lead"),
        4 if rules.talon_prizes != "none" else 1,
        2 if rules.talon_refusal else 1,
    )
