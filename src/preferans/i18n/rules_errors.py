"""Why the rules' options are refused, as data: a message code and its parameters.

A :class:`~preferans.rules.RulesError` carries ``code`` (a key of :data:`ENGLISH`) and
``params`` (option names, values as :func:`~preferans.option_bounds.show` writes them,
numbers), never a sentence in some language; ``str(error)`` is the English text the CLI,
the records and the tests read.  The edge that shows it to a player renders it in the
reader's language (:func:`preferans.i18n.render_rules_error`, ``msgctxt "rules-error"``
in the catalogues, ``msgid`` the code).

Parameters named ``option``, ``option2``, ``option3`` are option names (a player reading
Russian sees the option's title, as the house-rules editor writes it); ``preset`` a rule
set's name; ``value``, ``steps``, ``example``, ``choices`` and ``known`` shown values.

>>> english("opt_range", option="pool", value="5000", low=1, high=1000)
'option pool=5000 is out of range: 1 to 1000'
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["ENGLISH", "english", "player_english"]

ENGLISH: dict[str, str] = {
    # --- an option's value: types and ranges (preferans.option_bounds) --------------------
    "opt_not_allowed": "option {option}={value} is not allowed (choose {choices})",
    "opt_whole_or_null": "option {option}={value} must be a whole number or null",
    "opt_bool": "option {option}={value} must be true or false",
    "opt_text": "option {option}={value} must be a text",
    "opt_whole": "option {option}={value} must be a whole number",
    "opt_range": "option {option}={value} is out of range: {low} to {high}",
    "opt_range_noted": "option {option}={value} is out of range: {low} to {high} (000 allows "
                       "{low} to {high} points)",
    "opt_list": "option {option}={value} must be a list of whole numbers",
    "opt_list_of": "option {option}={value} must be a list of {count} whole numbers",
    "opt_entries": "option {option}={value} has {entries} entries (at most {most})",
    "opt_entry_range": "option {option}={value}: {entry} is out of range: each entry {low} "
                       "to {high}",
    # --- presets and the rules' shape -----------------------------------------------------
    "unknown_preset": "unknown rules preset {name} (known: {known})",
    "unknown_option": "unknown rules option {name}",
    "rules_type": "rules must be a preset name or an object, not {value}",
    "preset_type": "rules preset must be a name, not {value}",
    # --- options that go together (Rules.__post_init__) -----------------------------------
    "pool_positive": "option {option}={value} must be a positive number of points",
    "need_entries": "{option} and {option2} need at least one entry",
    "allpass_levels": "{option}={value}: levels are 6 to 10",
    "half_whist_levels": "{option}={value}: only 6 and 7",
    "not_negative": "{option} and {option2} cannot be negative",
    "exchange_players": "{option} needs three or four players (two play no talon)",
    "racing_rounds": "{option} > 0 and {option2}='rounds' go together",
    "racing_numbers": "{option} cannot be negative; {option2} needs two numbers",
    "halves_rogue": "{option} needs a rogue list and a pool end",
    "staying_hill": "{option}={value}: 000 allows 0 to 10 points",
    "needs_stays": "{option} needs {option2} (a dealer who stays)",
    "needs_refusal": "{option} needs {option2} (REFUSE must be allowed)",
    "share_players": "{option} needs four players (a dealer who sits out to invite), not "
                     "{players}: set players=4",
    "needs_halves": "{option} and {option2} need {option3}",
    "needs_choice": "{option} needs {option2} (the leader's choice)",
    "misere_hand": "{option} needs {option2} (misère hand answers nine in one hand)",
    "lists_rogue": "{option}='lists' needs rogue lists ({option2}: small, large or xl)",
    "dummy_numbers": "{option} needs two numbers: against a 6 and a 7",
    "narrows": "{option} needs {option2} (it narrows that rule)",
    "pool_or_hill": "{option} and {option2} both ask POOL or HILL: choose one",
    "bonus_numbers": "{option} needs two numbers: three and four players",
    # --- the house options' clashes (_check_house_options) --------------------------------
    "each_over_greedy": "{option}='each' and {option2}: over-greedy whist already makes each "
                        "whister owe his own quota; choose one",
    "each_no_shortage": "{option}='each' and {option2}='none': a non-responsible whister owes "
                        "nothing, so nobody owes a trick of his own; choose one",
    "zero_staked": "{option} needs {option2} (0 zero-trick points: nothing to multiply by "
                   "the stake)",
    "zero_keep": "{option}='keep' needs {option2} (0 zero-trick points: nothing to keep in "
                 "the pool)",
    "keep_off_mountain": "{option}='keep' and {option2}: the zero-trick points are written "
                         "off the mountain, never in the pool; choose one",
    "dealer_zero_players": "{option} needs four players (a dealer who sits out), not "
                           "{players}: set players=4",
    "dealer_zero_talon": "{option} needs {option2}='closed': with {option2}='lead' the dealer "
                         "plays the talon cards and writes the zero-trick points when they "
                         "win none",
    "dealer_zero_pool": "{option} needs {option2} (0: nothing to write)",
    "talon_three_none": "{option} needs {option2}='tricks': {option2}={value} has no talon "
                        "prizes",
    "talon_three_whists": "{option} needs {option2}='tricks': {option2}={value} already has "
                          "each defender write half the four-player whists (5 a quick trick)",
    "talon_three_players": "{option} needs three players, not {players} (with four the "
                           "sitting dealer writes the talon prize): set players=3",
    "gentlemanly_made": "{option} needs {option2}='gentlemanly' ({option2}={value} shares "
                        "nothing)",
    "made_over_greedy": "{option} and {option2}: an over-greedy lone whister writes only his "
                        "own tricks, there is nothing to share; set {option3} or choose one",
    "checked_ten": "{option} needs {option2} off: with {option2} the ten is whisted with its "
                   "quota (for whisted tens without one set {option3}'s last number to 0)",
    "half_played_passes": "{option} and {option2}: two passes would then be played out by a "
                          "defender who never said half-whist; choose one",
    "half_played_levels": "{option} needs {option2} (no half-whist to play)",
    "half_played_dealer": "{option} and {option2}: the dealer whists after a half-whist that "
                          "stands unplayed, and a played one leaves him nothing to take over; "
                          "choose one",
    "half_played_two": "{option} needs three or four players (with two the half-whister has "
                       "no partner's hand to play with)",
    "half_played_greedy": "{option} and {option2}: an over-greedy lone whister owes his "
                          "personal quota, not half the defence's; set {option3} or choose one",
    "growth_steps": "{option}={value} needs at least two steps in {option2}={steps} to grow "
                    "from",
    "growth_arithmetic": "{option}='arithmetic' needs {option2}={steps} to end rising (its "
                         "last two steps give the difference)",
    "growth_geometric": "{option}='geometric' needs {option2}={steps} to end with a whole "
                        "ratio above 1 (like 1, 2, 4)",
    # --- more house options' clashes (_check_more_house_options, issue 40) ----------------
    "own_trick_over_greedy": "{option}={value} and {option2}: over-greedy whist already makes "
                             "each whister owe his own quota; choose one",
    "own_trick_no_shortage": "{option}={value} and {option2}='none': a non-responsible whister "
                             "owes nothing, so nobody pays for a missing trick; choose one",
    "needs_pool_help": "{option} needs {option2}: without pool help no other pool is helped",
    "prize_only_zero": "{option}='prize_only' and {option2}=0: the defenders would write "
                       "nothing on a failed contract; choose one",
    "free_failure": "{option} and {option2}={value}: a failed contract would cost its "
                    "declarer nothing; choose one",
    "free_checked_ten": "{option} and {option2}: a failed checked ten would cost its declarer "
                        "nothing; choose one",
    "capped_needs_played": "{option} needs {option2} (no half-whist is played out to cap)",
    "checked_ten_prize": "{option} needs {option2} off: with {option2} there is no checked ten",
    "prize_twice": "{option} and {option2}='tricks_only': no failed contract earns a prize "
                   "already; choose one",
    "missing_not_doubled": "{option} and {option2}: no missing pool point is charged, so none "
                           "is doubled; choose one",
    "ranks_three": "option ranks={value}: a short pack (Mini Preferans) is played by three "
                   "players without the Rogue, Classical's halves or Racing's rounds",
    "one_suit_five": "option {option}={value} needs {option2}=5: one suit of five cards "
                     "(one a hand, the talon two)",
    # --- the web table's own checks (preferans.server.lang.house_rules) ------------------------
    "list_like": "option {option}={value} must be a list of whole numbers, like {example}",
    "list_length": "option {option} needs {count} numbers, not {given} (like {example})",
    "web_preset": "preset {name} is not played at the web table (choose {known})",
    "variant_seats": "players={value}: the {preset} variant seats {players} players ({doc})",
    "seats_three_four": "players={value}: the {preset} rules seat three or four players "
                        "(two: choose the two-player or a Rogue variant)",
    "only_two": "option {option} is not offered here: two players only (choose the "
                "two-player or a Rogue variant)",
    "only_rogue": "option {option} is not offered here: the Rogue is dealt only in its "
                  "structural variants (rogue-small, ...)",
    "only_research": "option {option} is not offered here: a short pack is for the research "
                     "environment (Mini Preferans), not for the web table",
    "players_twice": "option players={value} differs from players={players}: choose the "
                     "number of players once",
    "pool_twice": "option pool={value} differs from pool={pool}: choose the pulya length once",
}
"""Every rules error's English template (``str.format`` fields named after the params)."""


def english(code: str, **params: Any) -> str:
    """The English text of a rules error: what ``str(RulesError(code, **params))`` says."""
    return ENGLISH[code].format_map(params)


def player_english(code: str) -> str:
    """The English template as a player reads it: the rules texts' file numbers, which the
    developers' text cites (``000 allows 0 to 10 points``), left out.

    >>> player_english("staying_hill")
    '{option}={value}: the rules allow 0 to 10 points'
    """
    return re.sub(r"\b00[0-3] allows\b", "the rules allow", ENGLISH[code])
