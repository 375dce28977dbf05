"""The rules of a table as data: one immutable :class:`Rules` object and its presets.

Every convention of the rules texts is an *option*, a named field of
:class:`Rules` with a one-line explanation in its metadata.  A *preset* is a
named set of choices: ``sochi`` (the default), ``leningrad`` and ``rostov`` as
the game's own description (text 003) gives them, ``guide`` with the
profile the rules guide (text 001 §03) teaches, and the conventions of text 000:
``sochi-000``, ``piter`` (St Petersburg; ``peter`` is an alias — 003's Leningrad stays
``leningrad``), ``piter-hard``, ``moscow`` (000's Rostov/Moscow, alias ``rostov-000``),
``kazakhstan``, ``finn``, ``vmk`` and ``code1996``.  Each preset's docstring quotes the
sentences of 000 it follows.

>>> sorted(PRESETS)[:4]
['code1996', 'finn', 'guide', 'kazakhstan']
>>> Rules.preset("piter").allpass_min_bid, Rules.preset("kazakhstan").contract_value(6)
((6, 7, 7), 8)

>>> from preferans.rules import Rules
>>> r = Rules.preset("leningrad", pool=10)
>>> r.name, r.pool, r.whist_scale
('leningrad', 10, 2)
>>> Rules.from_json({"preset": "sochi", "stalingrad": True}).stalingrad
True
>>> Rules.preset("sochi").contract_value(7)
4

:func:`options_table` renders presets × options from the code, so docs/conventions.md
and the guide cannot drift from what the engine does; :func:`options_schema` gives
every option as JSON (type, choices, default, explanation, each preset's value) for a
settings screen or a house-rules editor; :data:`PRESET_DOCS` names each preset in a line.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from .bids import Bid
from .i18n.rules_errors import ENGLISH as RULES_ENGLISH
from .i18n.rules_errors import english
from .option_bounds import schema_bounds, show, value_fault


class RulesError(ValueError):
    """An unknown preset or option, or an option value that is not allowed: ``code`` (a key
    of :data:`preferans.i18n.rules_errors.ENGLISH`) and its ``params``; ``str(error)`` is the
    English text, :func:`preferans.i18n.render_rules_error` says it in another language.

    >>> error = RulesError("opt_bool", option="stalingrad", value="'yes'")
    >>> str(error), error.code, error.params["option"]
    ("option stalingrad='yes' must be true or false", 'opt_bool', 'stalingrad')
    """

    def __init__(self, code: str, **params: Any) -> None:
        if code not in RULES_ENGLISH:
            raise ValueError(f"unknown rules error code {code!r}")
        super().__init__(english(code, **params))
        self.code = code
        self.params = params

    def __reduce__(self) -> tuple[Any, ...]:  # pickled (a thinking process) with its code
        return _rules_error, (self.code, self.params)


def _rules_error(code: str, params: dict[str, Any]) -> RulesError:
    return RulesError(code, **params)


def _opt(default: Any, doc: str, choices: tuple[Any, ...] | None = None) -> Any:
    return field(default=default, metadata={"doc": doc, "choices": choices})


AuctionStyle = Literal["ascending", "seniority"]
WhistStyle = Literal["greedy", "gentlemanly"]
Shortage = Literal["full", "half", "half_mountain_half_whists", "none"]
Responsible8 = Literal["second", "both", "each", "each_if_short", "second_own"]
AllPassTalon = Literal["lead", "closed"]
AllPassScoring = Literal["mountain", "whists"]
PoolOverflow = Literal["mountain_then_opponents", "mountain", "lost", "kept", "hills"]
ConsolationPasser = Literal["passer", "none", "whister"]
TalonPrizes = Literal["none", "whists", "tricks"]
GameEnd = Literal["all_pools", "first_pool", "total", "lists", "rounds", "pools_and_hills"]
RogueList = Literal["none", "small", "large", "xl", "classical"]
AllPassZeroFull = Literal["close", "hill", "keep"]
AllPassGrowth = Literal["repeat", "arithmetic", "geometric"]
PoolHelpTo = Literal["highest", "highest_only", "lowest"]
FailedWhists = Literal["both", "prize_only", "tricks_only"]
SettleDivisor = Literal["players", "players_less_one"]
MisereExposure = Literal["after_lead", "after_declarer_lead", "before_lead"]


@dataclass(frozen=True)
class TableOptions:
    """The table: how many play, the pool, what contracts and misère are worth (and the
    preset's name)."""

    name: str = _opt("sochi", "Preset this set of rules was built from (plus overrides).")
    players: int = _opt(
        3,
        "Players at the table; with four the dealer sits each deal out; with two a dummy sits "
        "on the dealer's left, always passes, and its hand is used only when a whister opens it.",
        (2, 3, 4),
    )
    pool: int = _opt(20, "Pool (pulya) length each player must close: 10, 20 or 30 usually.")
    contract_values: tuple[int, int, int, int, int] = _opt(
        (2, 4, 6, 8, 10), "Value of a 6, 7, 8, 9 and 10 contract (pool points, whists per trick)."
    )
    misere_value: int = _opt(10, "Value of misère (pool points; mountain per trick taken).")
    ranks: int = _opt(
        8,
        "Ranks of each suit in the pack, the ace down: 8 (seven to ace, the game); for research "
        "(Mini Preferans, three players) 5 (ten to ace: six cards a hand) or 2 (king and ace: "
        "two cards a hand). A contract counts the declarer the tricks of the ranks left out, "
        "and no bid is lower than the lowest level that needs a trick.",
        (8, 5, 2),
    )
    suits: int = _opt(
        4,
        "Suits in the pack, spades first: 4 (the game); for research (Mini Preferans, three "
        "players) 1 with five ranks: the ten to the ace of spades, one card a hand and one trick "
        "a deal, small enough to solve whole, its deals included.",
        (4, 1),
    )


@dataclass(frozen=True)
class AuctionOptions:
    """The auction: its style, what may be bid, misère, the talon and the discard."""

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
    hand_bids: bool = _opt(
        False,
        "Over a misère only '9S HAND' (nine in one hand, played without the talon) bids, and "
        "then '10S HAND' (Classical).",
        (False, True),
    )
    misere_hand: bool = _opt(
        False,
        "With hand_bids, a misère caller outbid by 9S HAND may answer 'MISERE HAND' (misère "
        "without the talon), outbid only by 10S HAND.",
        (False, True),
    )
    resignation: bool = _opt(
        False,
        "Declarer may resign after seeing the talon (RESIGN), writing three undertricks of the "
        "winning bid in the mountain and no whists.",
        (False, True),
    )
    talon_refusal: bool = _opt(
        False,
        "Declarer may refuse the talon after it is turned (REFUSE): it stays face up, out of "
        "play, and he plays his own ten cards.",
        (False, True),
    )


@dataclass(frozen=True)
class DefenceOptions:
    """The defence: whist, pass and half-whist, open or closed, who must whist and what it
    costs."""

    whist_quota: tuple[int, int, int, int, int] = _opt(
        (4, 2, 1, 1, 1), "Tricks the defence owes against a 6, 7, 8, 9 and 10."
    )
    tens_whisted: bool = _opt(
        True, "Ten-trick contracts are whisted with a quota (True) or checked without whists."
    )
    checked_ten_whists: bool = _opt(
        False,
        "House option, with tens_whisted off: in a checked ten each defender still writes "
        "the value per trick of his own as whists on declarer; no quota, no penalty.",
        (False, True),
    )
    checked_ten_no_prize: bool = _opt(
        False,
        "House option, with tens_whisted off: a failed checked ten earns the defenders no "
        "undertrick prize (declarer's mountain only).",
        (False, True),
    )
    stalingrad: bool = _opt(False, "Both defenders must whist against 6♠ ('Stalingrad').")
    stalingrad_sixes: bool = _opt(
        False, "Both defenders must whist against every six-trick contract (Racing).", (False, True)
    )
    half_whist_levels: tuple[int, ...] = _opt(
        (6, 7), "Contract levels at which the second defender may half-whist after a pass."
    )
    half_whist_reopen: bool = _opt(
        True, "After a half-whist the first defender may reopen with a whist and play alone."
    )
    whist_pass_half_whist: bool = _opt(
        False, "A first defender who whisted may change to half-whist after the second passes."
    )
    half_whist_played: bool = _opt(
        False,
        "House option: a half-whist that stands is played out: the half-whister whists alone "
        "(open or closed) and answers for half the quota (half_whist_tricks) instead.",
        (False, True),
    )
    half_whist_capped: bool = _opt(
        False,
        "House option, with half_whist_played: the half-whister writes whists for at most "
        "half the quota's tricks (half_whist_tricks), whatever the defence took.",
        (False, True),
    )
    whist: WhistStyle = _opt(
        "greedy",
        "greedy: a lone whister writes the tricks of both defending hands; gentlemanly: when "
        "the contract fails, the whister shares the trick whists with the passer.",
        ("greedy", "gentlemanly"),
    )
    gentlemanly_made: bool = _opt(
        False,
        "House option, with gentlemanly whist: the lone whister shares the trick whists with "
        "the passer also when the contract is made (else only when it fails).",
        (False, True),
    )
    gentlemanly_odd_trick: bool = _opt(
        False,
        "House option, with gentlemanly whist: the shared whists are split in whole tricks, an "
        "odd trick going to the whister (else the whists are halved).",
        (False, True),
    )
    shortage: Shortage = _opt(
        "full",
        "What a whister short of his share pays: full (value × missing in the mountain), half "
        "(half of that), half_mountain_half_whists (half in the mountain, half as whists that "
        "declarer writes on him), none (non-responsible whist: nothing).",
        ("full", "half", "half_mountain_half_whists", "none"),
    )
    responsible_at_8plus: Responsible8 = _opt(
        "second",
        "Against 8, 9 and 10 with two whisters: the second whister answers for the missing trick, "
        "both share it (half each), or each owes one trick of his own (each); house choices: "
        "each_if_short (when the pair fell short, each whister without a trick pays the whole "
        "missing trick), second_own (the second whister owes the quota of his own, whatever "
        "the first took).",
        ("second", "both", "each", "each_if_short", "second_own"),
    )
    over_greedy: bool = _opt(
        False,
        "Over-greedy whist (Kazakhstan): no shared responsibility; each whister owes a personal "
        "quota (2 against a 6, else 1) and writes only his own tricks; a lone whister plays "
        "closed and the passer's tricks belong to nobody.",
        (False, True),
    )
    over_greedy_two_only: bool = _opt(
        False,
        "With over_greedy: the over-greedy rule applies only when both defenders whist; a "
        "lone whister whists greedily as usual (whole quota, both hands' tricks, open or "
        "closed as he likes).",
        (False, True),
    )
    dealer_whist: bool = _opt(
        False,
        "With four players: after two passes against an 8+ (or a half-whist that stands against a "
        "6 or 7) the dealer may look at one defender's hand (LOOK s) and whist, playing both "
        "defending hands face up.",
        (False, True),
    )
    open_before_lead: bool = _opt(
        True,
        "In an open defence both defenders' hands go down before declarer's opening lead (else "
        "after it).",
    )
    misere_exposure: MisereExposure = _opt(
        "after_lead",
        "When the defenders' hands go face up in misère: after_lead, after the opening card "
        "whoever leads (003); after_declarer_lead, after declarer's opening card but at once "
        "when a defender leads (000); before_lead, before the opening lead.",
        ("after_lead", "after_declarer_lead", "before_lead"),
    )

    dummy_lone_whist: bool = _opt(
        True,
        "Two players: against a 6 or 7 the whister may whist ALONE, the dummy's hand unused, "
        "owing dummy_alone_quota tricks (else only with the dummy opened, or HALF instead).",
        (False, True),
    )
    dummy_alone_quota: tuple[int, int] = _opt(
        (2, 1), "Two players: tricks a whister playing ALONE owes against a 6 and a 7."
    )


@dataclass(frozen=True)
class RogueOptions:
    """The Rogue (razboynik): its lists and the naming of each deal's game."""

    rogue: RogueList = _opt(
        "none",
        "Rogue: no auction; the designated soloist plays each game of his list once (small: "
        "10 games, large: 14, xl: 30, classical: 6, 7, 8, 9, 10 and misère), naming it before "
        "the talon as the list says.",
        ("none", "small", "large", "xl", "classical"),
    )
    rogue_soloist: Literal["first", "second"] = _opt(
        "second",
        "Rogue with three or four: the first or the second hand is the soloist (with two, "
        "always the second, the dummy being first).",
        ("first", "second"),
    )
    rogue_defence: Literal["both", "first"] = _opt(
        "both",
        "Rogue with three or four: both defenders must whist, or the first whists and the "
        "second passes; the defenders' hands are open either way.",
        ("both", "first"),
    )


@dataclass(frozen=True)
class ClassicalOptions:
    """Classical (1971): the halves, halftime, blind and hand bids, the invitation, the time
    limit."""

    classical_halves: bool = _opt(
        False,
        "Classical: the game is a compulsory first half (the Rogue list), halftime_laps laps "
        "of all-pass, then the free second half; the game ends only in the second half.",
        (False, True),
    )
    halftime_laps: int = _opt(2, "Classical: laps of compulsory all-pass at half-time.")
    dealer_stays: int = _opt(
        0,
        "Classical second half: the dealer deals again after an all-pass, up to this many "
        "all-passes in a row (3), the stake going by allpass_progression along his run.",
    )
    final_lap_after: int = _opt(
        0,
        "Classical: the final lap starts after this many deals of the second half (the time "
        "limit set at half-time; 0: none); the game ends when the deal would pass to the "
        "game's first dealer.",
    )
    passes_as_half_whist: bool = _opt(
        False,
        "Two passes against a 6 or 7 count as pass–half-whist–pass, the second defender "
        "half-whisting (Classical, where there is no half-whist call).",
        (False, True),
    )
    made_half_off_mountain: bool = _opt(
        False,
        "A made game writes half its value off declarer's mountain (as far as it goes) and "
        "the rest in the pool (Classical).",
        (False, True),
    )
    blind_bids: bool = _opt(
        False,
        "Blind bids and blind passes (BLIND 6S, BLIND PASS, SEE): a blind winner's game and a "
        "blind all-pass count double; a blind all-pass writes bombs that multiply a later "
        "game of their owner by 2, 4 or 8 (Classical).",
        (False, True),
    )
    allpass_zero_off_mountain: bool = _opt(
        False,
        "A player without an all-pass trick writes allpass_zero_pool off his own mountain "
        "(lost when it is empty) instead of into the pool (Classical).",
        (False, True),
    )
    second_half_limit: bool = _opt(
        False,
        "Classical: once the second half's successful games outnumber the first half's "
        "deals and the all-passes so far, each further one also writes half its game "
        "point on its soloist's mountain.",
        (False, True),
    )
    staying_dealer_hill: int = _opt(
        0,
        "Classical house rule: a dealer who stayed for dealer_stays all-passes in a row "
        "writes this many points (at most 10) on his own mountain after the last (0: off).",
    )
    refused_talon_trick: bool = _opt(
        False,
        "Four players: when the soloist refuses the talon (REFUSE) the dealer writes one "
        "trick, the game's value, on his own mountain (Classical).",
        (False, True),
    )
    dealer_share: bool = _opt(
        False,
        "Four players: after naming a misère or a ten the soloist may INVITE the sitting "
        "dealer, who may ACCEPT to share the soloist's profit or losses half and half "
        "(pool, mountain, whists) or DECLINE (what 000 says some allow; Classical).",
        (False, True),
    )
    halftime_choice: bool = _opt(
        False,
        "Classical: at the end of the first half the player with the largest mountain sets "
        "the second half's pool (at most the smallest mountain) and time at the table "
        "(SECOND p t; halftime_pool and final_lap_after are offered first); stakes: stakes.",
        (False, True),
    )
    halftime_pool: int = _opt(
        0,
        "Classical: the second half's pool offered first to the leader (0: the largest "
        "allowed, the smallest mountain at the end of the first half; above it, cut to it).",
    )
    stakes: int = _opt(
        0,
        "Money per whist point (e.g. kopecks), set at half-time in Classical; the sheet shows "
        "each balance × stakes as money (0: not shown).",
    )


@dataclass(frozen=True)
class RacingOptions:
    """Racing: its rounds."""

    racing_rounds: int = _opt(
        0,
        "Racing: the game is this many rounds of `pool` points (0: no rounds); each round "
        "starts with an all-pass, its first dealer left of the last round's first dealer.",
    )
    racing_bonuses: tuple[int, int] = _opt(
        (300, 200),
        "Racing: whists on each other player for the first to fill the pool in a round and "
        "for the smallest mountain at its end (the same for the totals at the end).",
    )
    write_off_choice: bool = _opt(
        False,
        "A declarer whose game nobody whisted and who made it, and a player without an "
        "all-pass trick, choose to write the points in the pool (POOL) or off his own "
        "mountain (HILL) (Racing).",
        (False, True),
    )
    failure_allpass: bool = _opt(
        False,
        "After a failed misère, or a failed 9 or 10 that outbid a misère, the next deal is an "
        "all-pass at stake 1, 2 or 3 for 1, 2 or 3+ tricks taken (undertricks) (Racing).",
        (False, True),
    )


@dataclass(frozen=True)
class ScoringOptions:
    """Scoring: whists, the mountain, the settlement."""

    mountain_scale: int = _opt(1, "Multiplier of mountain entries for undertricks and misère.")
    whist_scale: int = _opt(1, "Multiplier of whists per trick and of consolation whists.")
    consolation_per_undertrick: int | None = _opt(
        None, "Whists each opponent writes per undertrick (None: the contract value × whist scale)."
    )
    half_whist_tricks: tuple[int, int] = _opt(
        (2, 1), "Tricks credited to a half-whister against a 6 and a 7 (half the quota)."
    )
    consolation_passer: ConsolationPasser = _opt(
        "passer",
        "Who writes the passer's undertrick prize: the passer himself (Sochi), nobody "
        "(Kazakhstan), or the lone whister in addition to his own (Finn).",
        ("passer", "none", "whister"),
    )
    talon_prizes: TalonPrizes = _opt(
        "none",
        "Prizes for quick tricks in the talon (an ace or K-Q of a suit 1, A-K of a suit 2, two "
        "aces 3): none; whists (Rostov: 10 whists each, from a four-player dealer, or 5 from "
        "each defender with three; a refused talon costs declarer the same 10 or 5 each); "
        "tricks (Finn: a four-player dealer writes that many tricks at the whist rate).",
        ("none", "whists", "tricks"),
    )
    talon_tricks_three: bool = _opt(
        False,
        "House option, three players with talon_prizes='tricks': each defender writes the "
        "talon's quick tricks on declarer at half the four-player dealer's rate.",
        (False, True),
    )
    start_mountain: int = _opt(
        0, "Mountain each player writes before the first deal (Finn: half the pool)."
    )
    made_off_mountain: bool = _opt(
        False,
        "A made contract's value is also taken off declarer's mountain (Finn); once his is "
        "empty, off the smallest other mountain, declarer writing pool_help_whists per point.",
        (False, True),
    )
    first_pool_bonus: int = _opt(
        0, "Whists the first player to close his pool writes on each other player (Finn: 120)."
    )
    clear_mountain_bonus: tuple[int, int] = _opt(
        (0, 0),
        "Whists the first player to empty his mountain writes on each other player, with three "
        "and with four players (Finn: 80 and 60).",
    )
    pool_doubled_at_settlement: bool = _opt(
        False, "Pool points still missing at an early stop go to the mountain doubled."
    )
    failed_whists: FailedWhists = _opt(
        "both",
        "What the defenders write on a failed contract: the whists for their tricks and the "
        "undertrick prize (both), or, as house choices, only the prize (prize_only) or only "
        "the trick whists (tricks_only).",
        ("both", "prize_only", "tricks_only"),
    )
    failed_no_mountain: bool = _opt(
        False,
        "House option (Rostov tables): a failed contract writes nothing on declarer's "
        "mountain; he pays only the others' undertrick prizes.",
        (False, True),
    )
    settle_divisor: SettleDivisor = _opt(
        "players",
        "At settlement each pair's mountain difference × 10 whists is divided by the number "
        "of players (players: the average mountain) or by the number less one "
        "(players_less_one: a mountain point costs its owner 10 whists, shared by the others).",
        ("players", "players_less_one"),
    )
    settle_no_missing_pool: bool = _opt(
        False,
        "House option: a sheet stopped before every pool is closed is ranked without charging "
        "the missing pool points to the mountain (mountains and whists alone).",
        (False, True),
    )


@dataclass(frozen=True)
class AllpassOptions:
    """All-pass (raspasy): how it is played and scored."""

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
        "Stake multiplier of the 1st, 2nd, 3rd… all-pass in a row (the last repeats, unless "
        "allpass_growth): "
        "(1,) none, (1, 2, 3) arithmetic, (1, 2, 4) geometric.",
    )
    allpass_growth: AllPassGrowth = _opt(
        "repeat",
        "Past the last step of allpass_progression the stake repeats it (repeat), keeps adding "
        "the last difference (arithmetic: 1, 2, 3, 4, 5, …) or keeps multiplying by the last "
        "ratio (geometric: 1, 2, 4, 8, 16, …).",
        ("repeat", "arithmetic", "geometric"),
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
    allpass_zero_staked: bool = _opt(
        False,
        "House option: those zero-trick pool points are multiplied by the all-pass's stake "
        "(allpass_progression) like its tricks.",
        (False, True),
    )
    allpass_dealer_zero: bool = _opt(
        False,
        "House option, four players with a closed all-pass talon: the sitting dealer, who "
        "takes no trick, also writes the zero-trick pool points.",
        (False, True),
    )
    allpass_zero_full: AllPassZeroFull = _opt(
        "close",
        "Those pool points that the trickless player's own pool cannot take: close (like any "
        "pool points: they help other pools, then pool_overflow), hill (off his own "
        "mountain instead, forfeited when it is empty too: Finn), or keep (in his own pool "
        "beyond its length, helping nobody; at settlement they come off his mountain).",
        ("close", "hill", "keep"),
    )
    allpass_amnesty: bool = _opt(
        False, "Subtract the smallest trick count from everyone before scoring an all-pass."
    )
    allpass_exchange: bool = _opt(
        False,
        "Before an all-pass each player in turn, first hand first, takes the talon unseen "
        "and discards two cards face down as the new talon (Kazakhstan; DISCARD c1 c2).",
        (False, True),
    )


@dataclass(frozen=True)
class ClosingOptions:
    """Closing the pool: help, overflow, when the game ends."""

    pool_help: bool = _opt(
        True, "Points beyond a closed pool help the highest unclosed pool (ties: next clockwise)."
    )
    pool_help_to: PoolHelpTo = _opt(
        "highest",
        "Which pools the surplus helps: the highest unclosed, then the next (highest), only "
        "the highest unclosed, what it cannot take going as pool_overflow says "
        "(highest_only), or the pool furthest from closing first (lowest).",
        ("highest", "highest_only", "lowest"),
    )
    pool_help_closed_before: bool = _opt(
        False,
        "House option: only a pool closed before the deal helps others; the surplus of the "
        "deal that closes a pool goes as pool_overflow says.",
        (False, True),
    )
    pool_help_whists: int = _opt(10, "Whists written on the player helped, per pool point.")
    pool_help_whister_short: bool = _opt(
        True, "A player may be helped on a deal where he was penalised for a whist shortage."
    )
    pool_overflow: PoolOverflow = _opt(
        "mountain_then_opponents",
        "Points left when every pool is closed: off one's own mountain, the rest onto each "
        "opponent's (mountain_then_opponents), off one's own mountain only (mountain), lost, "
        "kept beyond the pool and taken off the mountain at settlement (kept, Piter), or "
        "off one's own mountain and then the smallest other mountain, writing pool_help_whists "
        "per point on its owner (hills, Classical).",
        ("mountain_then_opponents", "mountain", "lost", "kept", "hills"),
    )
    pool_overflow_choice: bool = _opt(
        False,
        "A declarer whose successful game overflows his pool while another pool is open "
        "chooses (at the end of the deal): the surplus helps the other pools as usual (POOL), "
        "or comes off his own mountain first (HILL) (VMK).",
        (False, True),
    )
    pool_help_skip_defence: bool = _opt(
        False,
        "Pool help skips the deal's whisters and a four-player sitting dealer (Classical).",
        (False, True),
    )
    game_end: GameEnd = _opt(
        "all_pools",
        "When the game is over: every pool closed (all_pools), the first pool closed (Finn), "
        "the pools' total reaching pool × players (total, Piter), every Rogue list played "
        "(lists), the last Racing round over (rounds), or every pool closed and every "
        "mountain empty (pools_and_hills, Classical).",
        ("all_pools", "first_pool", "total", "lists", "rounds", "pools_and_hills"),
    )


@dataclass(frozen=True)
class Rules(ClosingOptions, AllpassOptions, ScoringOptions, RacingOptions, ClassicalOptions,
            RogueOptions, DefenceOptions, AuctionOptions, TableOptions):
    """The options of one table.  Create with :meth:`preset`; never mutate (use :meth:`replace`).

    Its options come in groups, one class each (:class:`TableOptions`, :class:`AuctionOptions`,
    :class:`DefenceOptions`, :class:`RogueOptions`, :class:`ClassicalOptions`,
    :class:`RacingOptions`, :class:`ScoringOptions`, :class:`AllpassOptions`,
    :class:`ClosingOptions`); their fields come in that order, the table's first.
    """

    def __post_init__(self) -> None:
        hints = _type_hints()
        for f in dataclasses.fields(self):  # types and ranges first: the checks below compare
            value = getattr(self, f.name)
            fault = value_fault(f.name, hints[f.name], value, f.metadata.get("choices"))
            if fault:
                raise RulesError(fault[0], **fault[1])
        for f in dataclasses.fields(self):
            choices = f.metadata.get("choices")
            value = getattr(self, f.name)
            if choices is not None and value not in choices:
                shown = ", ".join(repr(c) for c in choices)
                raise RulesError("opt_not_allowed", option=f.name, value=repr(value),
                                 choices=shown)
        _check_house_options(self)
        if self.pool <= 0:
            raise RulesError("pool_positive", option="pool", value=repr(self.pool))
        if not self.allpass_progression or not self.allpass_min_bid:
            raise RulesError("need_entries", option="allpass_progression",
                             option2="allpass_min_bid")
        if any(level not in (6, 7, 8, 9, 10) for level in self.allpass_min_bid):
            raise RulesError("allpass_levels", option="allpass_min_bid",
                             value=repr(self.allpass_min_bid))
        if any(level not in (6, 7) for level in self.half_whist_levels):
            raise RulesError("half_whist_levels", option="half_whist_levels",
                             value=repr(self.half_whist_levels))
        if self.start_mountain < 0 or self.first_pool_bonus < 0:
            raise RulesError("not_negative", option="start_mountain", option2="first_pool_bonus")
        if self.players == 2 and self.allpass_exchange:
            raise RulesError("exchange_players", option="allpass_exchange")
        if (self.game_end == "rounds") != (self.racing_rounds > 0):
            raise RulesError("racing_rounds", option="racing_rounds", option2="game_end")
        if self.racing_rounds < 0 or len(self.racing_bonuses) != 2:
            raise RulesError("racing_numbers", option="racing_rounds", option2="racing_bonuses")
        if self.classical_halves and (self.rogue == "none" or self.game_end == "lists"):
            raise RulesError("halves_rogue", option="classical_halves")
        if not 0 <= self.staying_dealer_hill <= 10:
            raise RulesError("staying_hill", option="staying_dealer_hill",
                             value=repr(self.staying_dealer_hill))
        if self.staying_dealer_hill and not self.dealer_stays:
            raise RulesError("needs_stays", option="staying_dealer_hill", option2="dealer_stays")
        if self.refused_talon_trick and not self.talon_refusal:
            raise RulesError("needs_refusal", option="refused_talon_trick",
                             option2="talon_refusal")
        if self.dealer_share and self.players != 4:
            raise RulesError("share_players", option="dealer_share", players=self.players)
        if (self.second_half_limit or self.halftime_choice) and not self.classical_halves:
            raise RulesError("needs_halves", option="second_half_limit",
                             option2="halftime_choice", option3="classical_halves")
        if self.halftime_pool < 0 or self.stakes < 0:
            raise RulesError("not_negative", option="halftime_pool", option2="stakes")
        if self.halftime_pool and not self.halftime_choice:
            raise RulesError("needs_choice", option="halftime_pool", option2="halftime_choice")
        if self.misere_hand and not self.hand_bids:
            raise RulesError("misere_hand", option="misere_hand", option2="hand_bids")
        if self.halftime_laps < 0 or self.dealer_stays < 0 or self.final_lap_after < 0:
            raise RulesError("not_negative", option="halftime_laps", option2="dealer_stays")
        if self.game_end == "lists" and self.rogue == "none":
            raise RulesError("lists_rogue", option="game_end", option2="rogue")
        if len(self.dummy_alone_quota) != 2:
            raise RulesError("dummy_numbers", option="dummy_alone_quota")
        if self.over_greedy_two_only and not self.over_greedy:
            raise RulesError("narrows", option="over_greedy_two_only", option2="over_greedy")
        if self.pool_overflow_choice and self.write_off_choice:
            raise RulesError("pool_or_hill", option="pool_overflow_choice",
                             option2="write_off_choice")
        if len(self.clear_mountain_bonus) != 2:
            raise RulesError("bonus_numbers", option="clear_mountain_bonus")
        if (self.ranks != 8 or self.suits != 4) and (
                self.players != 3 or self.rogue != "none" or self.classical_halves
                or self.racing_rounds):
            raise RulesError("ranks_three", option="ranks", value=self.ranks)
        if self.suits != 4 and self.ranks != 5:
            raise RulesError("one_suit_five", option="suits", option2="ranks",
                             value=self.suits)

    # --- presets and (de)serialisation -------------------------------------------------------
    @classmethod
    def preset(cls, name: str = "sochi", **overrides: Any) -> Rules:
        """The named preset, with any options overridden by keyword."""
        key = name.strip().lower()
        key = PRESET_ALIASES.get(key, key)
        presets = {**PRESETS, **VARIANTS}
        if key not in presets:
            known = ", ".join(sorted(presets))
            raise RulesError("unknown_preset", name=show(name), known=known)
        base = presets[key]
        return base.replace(**overrides) if overrides else base

    def replace(self, **overrides: Any) -> Rules:
        """A copy with options changed; unknown option names are an error."""
        overrides = _renamed(overrides)
        known = {f.name for f in dataclasses.fields(self)}
        for key in overrides:
            if key not in known:
                raise RulesError("unknown_option", name=show(key))
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
            raise RulesError("rules_type", value=show(obj))
        options = dict(obj)
        name = options.pop("preset", "sochi")
        options.pop("name", None)
        if not isinstance(name, str):
            raise RulesError("preset_type", value=show(name))
        return cls.preset(name, **options)

    def to_json(self) -> dict[str, Any]:
        """The preset name plus every option that differs from it."""
        base = PRESETS.get(self.name) or VARIANTS.get(self.name) or PRESETS["sochi"]
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

    def invitation_offered(self, bid: Bid) -> bool:
        """Whether the soloist of this contract may invite the dealer (``dealer_share``).

        000: "The soloist can invite the dealer to share profit or losses equally in high
        risk hands like misere."  Read as misère and every ten-trick game: the games played
        without whisters (000: "There are no requirements for ten-trick games or misere ...
        They are played in special ways because there are no whisters"), where the whole
        game rides on the soloist's hand alone.

        >>> r = Rules.preset("classical-1971", players=4, dealer_share=True)
        >>> [r.invitation_offered(Bid.parse(b)) for b in ("MISERE", "10NT", "9NT")]
        [True, True, False]
        """
        return self.dealer_share and (bid.misere or bid.level == 10)

    def allpass_stake(self, streak: int) -> int:
        """Stake multiplier of an all-pass that is the ``streak``-th in a row (1 = the first).

        Past the last step of ``allpass_progression`` the stake repeats it, or keeps growing
        by its last difference or ratio (``allpass_growth``).

        >>> [Rules.preset("sochi").allpass_stake(k) for k in range(1, 7)]
        [1, 2, 3, 3, 3, 3]
        >>> [Rules.preset("sochi", allpass_growth="arithmetic").allpass_stake(k)
        ...  for k in range(1, 7)]
        [1, 2, 3, 4, 5, 6]
        >>> [Rules.preset("leningrad", allpass_growth="geometric").allpass_stake(k)
        ...  for k in range(1, 7)]
        [1, 2, 4, 8, 16, 32]
        """
        steps = self.allpass_progression
        k = max(streak, 1)
        if k <= len(steps) or self.allpass_growth == "repeat":
            return steps[min(k, len(steps)) - 1]
        beyond = k - len(steps)
        last, before = steps[-1], steps[-2]
        if self.allpass_growth == "arithmetic":
            return last + beyond * (last - before)
        return last * (last // before) ** beyond

    def min_bid_level(self, allpasses_in_a_row: int) -> int:
        """Lowest level that may be bid after this many all-passes in a row (never below
        :attr:`lowest_level`)."""
        steps = self.allpass_min_bid
        return max(steps[min(allpasses_in_a_row, len(steps) - 1)], self.lowest_level)

    # --- the pack (``ranks``: the full game's 32 cards, or Mini Preferans) -------------------
    @property
    def tricks(self) -> int:
        """Cards in each hand and tricks in a deal: ten with the full pack; the pack less
        the two talon cards, shared by three."""
        return (self.suits * self.ranks - 2) // 3

    @property
    def missing_tricks(self) -> int:
        """The tricks of the ranks left out of a short pack, which a contract counts the
        declarer (0 with the full pack): a contract of level ``L`` needs ``L - missing``
        tricks of the deal, the defence's quota is unchanged."""
        return 10 - self.tricks

    @property
    def lowest_level(self) -> int:
        """The lowest level that needs at least one trick of the deal (6 with the full pack,
        9 with two ranks)."""
        return max(6, self.missing_tricks + 1)

    @property
    def pack_mask(self) -> int:
        """The cards of the pack as a mask (:mod:`preferans.cards`): the top ``ranks`` of
        each suit."""
        suit = (0xFF << (8 - self.ranks)) & 0xFF
        return sum(suit << 8 * k for k in range(self.suits))


@functools.cache
def _type_hints() -> dict[str, Any]:
    return typing.get_type_hints(Rules)


def _coerce(rules: Rules, key: str, value: Any) -> Any:
    """JSON gives lists where the options hold tuples."""
    current = getattr(rules, key)
    if isinstance(current, tuple) and isinstance(value, list):
        return tuple(value)
    if isinstance(current, bool) and not isinstance(value, bool):
        raise RulesError("opt_bool", option=key, value=show(value))
    if isinstance(current, int) and not isinstance(current, bool) and not isinstance(value, int):
        raise RulesError("opt_whole", option=key, value=show(value))
    return value


def _renamed(overrides: Mapping[str, Any]) -> dict[str, Any]:
    """``overrides`` with an option's old name read as today's option, so that a record
    or a saved setting written before the change still loads and means what it meant.

    ``misere_open_before_lead`` (a flag) became ``misere_exposure``: true is
    ``"before_lead"``, false ``"after_declarer_lead"`` (the hands went down after declarer's
    opening card, and at once when a defender led).  Where both names are given, today's
    wins.

    >>> Rules.from_json({"preset": "sochi", "misere_open_before_lead": False}).misere_exposure
    'after_declarer_lead'
    >>> Rules.preset("leningrad", misere_open_before_lead=True).misere_exposure
    'before_lead'
    """
    out = dict(overrides)
    if "misere_open_before_lead" in out:
        old = out.pop("misere_open_before_lead")
        if not isinstance(old, bool):
            raise RulesError("opt_bool", option="misere_open_before_lead", value=show(old))
        out.setdefault("misere_exposure", "before_lead" if old else "after_declarer_lead")
    return out


def _check_house_options(rules: Rules) -> None:
    """Refuse the house options (:data:`HOUSE_OPTIONS`) where they make no sense, naming both
    options of each clash."""
    r = rules
    if r.responsible_at_8plus == "each" and r.over_greedy:
        raise RulesError("each_over_greedy", option="responsible_at_8plus",
                         option2="over_greedy")
    if r.responsible_at_8plus == "each" and r.shortage == "none":
        raise RulesError("each_no_shortage", option="responsible_at_8plus", option2="shortage")
    _check_more_house_options(r)
    if r.allpass_zero_staked and not r.allpass_zero_pool:
        raise RulesError("zero_staked", option="allpass_zero_staked",
                         option2="allpass_zero_pool")
    if r.allpass_zero_full == "keep" and not r.allpass_zero_pool:
        raise RulesError("zero_keep", option="allpass_zero_full", option2="allpass_zero_pool")
    if r.allpass_zero_full == "keep" and r.allpass_zero_off_mountain:
        raise RulesError("keep_off_mountain", option="allpass_zero_full",
                         option2="allpass_zero_off_mountain")
    if r.allpass_dealer_zero and r.players != 4:
        raise RulesError("dealer_zero_players", option="allpass_dealer_zero",
                         players=r.players)
    if r.allpass_dealer_zero and r.allpass_talon != "closed":
        raise RulesError("dealer_zero_talon", option="allpass_dealer_zero",
                         option2="allpass_talon")
    if r.allpass_dealer_zero and not r.allpass_zero_pool:
        raise RulesError("dealer_zero_pool", option="allpass_dealer_zero",
                         option2="allpass_zero_pool")
    if r.talon_tricks_three and r.talon_prizes != "tricks":
        code = "talon_three_none" if r.talon_prizes == "none" else "talon_three_whists"
        raise RulesError(code, option="talon_tricks_three", option2="talon_prizes",
                         value=repr(r.talon_prizes))
    if r.talon_tricks_three and r.players != 3:
        raise RulesError("talon_three_players", option="talon_tricks_three", players=r.players)
    if r.gentlemanly_made and r.whist != "gentlemanly":
        raise RulesError("gentlemanly_made", option="gentlemanly_made", option2="whist",
                         value=repr(r.whist))
    if r.gentlemanly_made and r.over_greedy and not r.over_greedy_two_only:
        raise RulesError("made_over_greedy", option="gentlemanly_made", option2="over_greedy",
                         option3="over_greedy_two_only")
    if r.checked_ten_whists and r.tens_whisted:
        raise RulesError("checked_ten", option="checked_ten_whists", option2="tens_whisted",
                         option3="whist_quota")
    if r.half_whist_played:
        if r.passes_as_half_whist:
            raise RulesError("half_played_passes", option="half_whist_played",
                             option2="passes_as_half_whist")
        if not r.half_whist_levels:
            raise RulesError("half_played_levels", option="half_whist_played",
                             option2="half_whist_levels")
        if r.dealer_whist:
            raise RulesError("half_played_dealer", option="half_whist_played",
                             option2="dealer_whist")
        if r.players == 2:
            raise RulesError("half_played_two", option="half_whist_played")
        if r.over_greedy and not r.over_greedy_two_only:
            raise RulesError("half_played_greedy", option="half_whist_played",
                             option2="over_greedy", option3="over_greedy_two_only")
    if r.allpass_growth != "repeat":
        steps = r.allpass_progression
        where = {"option": "allpass_growth", "option2": "allpass_progression",
                 "steps": repr(steps)}
        if len(steps) < 2:
            raise RulesError("growth_steps", value=repr(r.allpass_growth), **where)
        last, before = steps[-1], steps[-2]
        if r.allpass_growth == "arithmetic" and last <= before:
            raise RulesError("growth_arithmetic", **where)
        if r.allpass_growth == "geometric" and (before <= 0 or last <= before
                                                 or last % before):
            raise RulesError("growth_geometric", **where)


def _check_more_house_options(r: Rules) -> None:
    """Refuse the house options of :data:`MORE_HOUSE_OPTIONS` where they make no sense,
    naming both options of each clash."""
    if r.responsible_at_8plus in ("each_if_short", "second_own"):
        value = repr(r.responsible_at_8plus)
        if r.over_greedy:
            raise RulesError("own_trick_over_greedy", option="responsible_at_8plus",
                             option2="over_greedy", value=value)
        if r.shortage == "none":
            raise RulesError("own_trick_no_shortage", option="responsible_at_8plus",
                             option2="shortage", value=value)
    if r.pool_help_to != "highest" and not r.pool_help:
        raise RulesError("needs_pool_help", option="pool_help_to", option2="pool_help")
    if r.pool_help_closed_before and not r.pool_help:
        raise RulesError("needs_pool_help", option="pool_help_closed_before",
                         option2="pool_help")
    if r.failed_whists == "prize_only" and r.consolation_per_undertrick == 0:
        raise RulesError("prize_only_zero", option="failed_whists",
                         option2="consolation_per_undertrick")
    if r.failed_no_mountain and r.consolation_per_undertrick == 0:
        raise RulesError("free_failure", option="failed_no_mountain",
                         option2="consolation_per_undertrick", value="0")
    if r.failed_no_mountain and r.failed_whists == "tricks_only":
        raise RulesError("free_failure", option="failed_no_mountain", option2="failed_whists",
                         value=repr("tricks_only"))
    if r.failed_no_mountain and r.checked_ten_no_prize:
        raise RulesError("free_checked_ten", option="failed_no_mountain",
                         option2="checked_ten_no_prize")
    if r.half_whist_capped and not r.half_whist_played:
        raise RulesError("capped_needs_played", option="half_whist_capped",
                         option2="half_whist_played")
    if r.checked_ten_no_prize and r.tens_whisted:
        raise RulesError("checked_ten_prize", option="checked_ten_no_prize",
                         option2="tens_whisted")
    if r.checked_ten_no_prize and r.failed_whists == "tricks_only":
        raise RulesError("prize_twice", option="checked_ten_no_prize", option2="failed_whists")
    if r.gentlemanly_odd_trick and r.whist != "gentlemanly":
        raise RulesError("gentlemanly_made", option="gentlemanly_odd_trick", option2="whist",
                         value=repr(r.whist))
    kept = r.pool_overflow == "kept" or r.allpass_zero_full == "keep"
    if r.settle_no_missing_pool and r.pool_doubled_at_settlement and not kept:
        raise RulesError("missing_not_doubled", option="settle_no_missing_pool",
                         option2="pool_doubled_at_settlement")


HOUSE_OPTIONS: Final = (
    "shortage",
    "responsible_at_8plus",
    "allpass_zero_staked",
    "allpass_zero_full",
    "allpass_dealer_zero",
    "talon_tricks_three",
    "gentlemanly_made",
    "checked_ten_whists",
    "half_whist_played",
    "allpass_growth",
)
"""The house options other Preferans programs offer (issue 14), beside the conventions of the
texts; every one is off (or its old choice) in every preset, so no preset's sheet changes.

1. ``shortage="none"``, non-responsible whist: a defence short of its quota pays nothing.
   The texts know only "Whist is responsible or half-responsible" (000's options): a table
   agreement they do not state.  The whister still writes his trick whists.
2. ``responsible_at_8plus="each"``: against 8, 9 and 10 with two whisters each owes one trick
   of his own (half the quota rounded up: one with the usual quota of 1) and pays for it
   when he takes none, whatever his partner took.  000: "When the requirement is one, some
   players make the second whister, or who said "whist" after, solely responsible; and some
   make both equally responsible and share penalty points equally" (``second`` and ``both``,
   where ``both`` halves the one missing trick); 002: "the responsibility can be agreed to
   be shared between the defenders".  ``each`` is the agreement many tables mean by "both
   responsible", which the texts do not spell out.
3. ``allpass_zero_staked``: the zero-trick all-pass pool points are multiplied by that
   all-pass's stake.  000 says "One who does not take any tricks writes one point in the
   pool" and raises "points for all-pass"; whether the stake reaches the pool point it does
   not say: a table agreement.
4. ``allpass_zero_full="keep"``: the zero-trick points go into one's own pool even when it is
   full, helping nobody (no help whists), and what lies beyond the pool's length comes off
   his mountain at settlement, as Piter's kept pool points do (000: "Pool points in excess
   of the pool size are doubled and subtracted from his/her hill").  A table agreement.
5. ``allpass_dealer_zero`` (four players, closed talon: Rostov, Kazakhstan): 000's Rostov:
   "One who does not take any tricks writes one point in the pool unless he/she is the
   dealer of a four player game who scores nothing. Some allow the dealer to write one
   point in the pool"; Kazakhstan: "Some allows the dealer to write two points in the pool."
6. ``talon_tricks_three`` (three players, ``talon_prizes="tricks"``): 000's Rostov writes its
   whist prizes with three players "in half in three player games" by "each partner";
   Finn's prizes in tricks are a four-player dealer's ("There are prizes for quick tricks in
   the widow in four player games").  Each defender writing the tricks at half the rate with
   three is the table agreement that carries Rostov's halving over to Finn's prizes.
7. ``gentlemanly_made``: 000's gentlemen's whist shares "when the soloist fails"; sharing a
   made contract's whists as well is a table agreement the texts do not state.
8. ``checked_ten_whists`` (with ``tens_whisted`` off): 001: "many groups instead check
   ten-level contracts without defensive liability"; 000: "If the game is at ten tricks and
   it does not require the partners to take a trick, the three players reveal their hands
   and play them to check".  That the defenders still write whists for their tricks is a
   table agreement.
9. ``half_whist_played``: 000: "if he/she passes, the half-whisting player is assumed to
   have won a half of the required number of tricks and the soloist the rest" (unplayed);
   playing it out, the half-whister whisting alone for half the quota, is a table agreement.
10. ``allpass_growth``: 000: "Trick points of all-pass (progressive or not): 1, 1, 1 (no
    progression); 1, 2, 2, 2; 1, 2, 3, 3 (arithmetic); 1, 2, 4, 4 (geometric)": the last
    step repeats; 002: "Progression versions (arithmetic, geometrical) and progression limit
    are also agreed beforehand": without a limit the stakes keep growing.
"""


MORE_HOUSE_OPTIONS: Final = (
    "pool_help_to",
    "pool_help_closed_before",
    "failed_whists",
    "failed_no_mountain",
    "settle_divisor",
    "settle_no_missing_pool",
    "half_whist_capped",
    "checked_ten_no_prize",
    "gentlemanly_odd_trick",
)
"""More house options other Preferans programs offer (issue 40), with two more choices of
``responsible_at_8plus`` (``each_if_short``, ``second_own``).  The rules texts do not favour
these readings, so every one is off (or its old choice) in every preset; they are agreements
real tables play.  Each is worked on a sheet in ``tests/test_house_options_more.py``.

1. ``responsible_at_8plus="each_if_short"``: against 8, 9 and 10 with two whisters, when the
   pair together fell short of the quota, each whister who took no trick pays the whole
   missing trick (``each`` does not look at the pair; ``both`` halves the trick).
2. Pool help.  ``pool_help_closed_before``: only a pool closed before the deal helps others;
   the points beyond the pool in the deal that closes it go as ``pool_overflow`` says (off
   the scorer's mountain first).  ``pool_help_to="highest_only"``: the surplus helps one pool,
   the highest unclosed, and what that pool cannot take goes as ``pool_overflow`` says.
   ``pool_help_to="lowest"``: the surplus goes first to the pool furthest from closing (ties:
   the next player clockwise); with ``pool_help_whists=0`` no help whists are written, as
   the tables that play it write none.
3. A failed contract.  ``failed_whists="prize_only"``: the defenders write no whists for
   their tricks, only the undertrick prize; ``"tricks_only"``: no undertrick prize, only the
   trick whists (the same as ``consolation_per_undertrick=0``, which says it as a number).
4. Settlement.  ``settle_divisor="players_less_one"``: each pair's mountain difference × 10
   is divided by the players less one, so a mountain point costs its owner ten whists in all
   (``players``, the usual, divides by the players: the average mountain).
   ``settle_no_missing_pool``: a sheet ranked before every pool is closed does not charge the
   missing pool points to the mountain; points kept beyond a pool (Piter) still come off.
5. ``half_whist_capped`` (with ``half_whist_played``): the half-whister's trick whists count
   at most ``half_whist_tricks`` tricks.  ``responsible_at_8plus="second_own"``: against 8+
   with two whisters the second whister owes the quota (one trick) of his own, whatever the
   first took.  ``checked_ten_no_prize`` (tens checked): a failed checked ten earns no
   undertrick prize.  ``gentlemanly_odd_trick`` (gentlemanly whist): the shared whists are
   split in whole tricks, the odd one to the whister (3 tricks: 2 and 1, not 1½ each).
   ``failed_no_mountain`` (a Rostov table's agreement): a failed contract writes nothing on
   declarer's mountain, the undertricks costing him only the prizes the others write.
"""


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

Misère follows 003: "After the first card both defenders lay their cards face up and play
together" (``misere_exposure="after_lead"``), whoever leads: a defender on lead makes the
opening lead from his own ten cards, without seeing his partner's.
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
early stop are doubled like the mountain (000's Piter).  Misère hands go down after the
first card, whoever leads, as in ``sochi`` (003).
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
the short whister's other half is written by declarer as whists on him.  Misère hands go
down after the first card, whoever leads, as in ``sochi`` (003).
"""

GUIDE: Final = SOCHI.replace(
    name="guide",
    misere_exposure="after_declarer_lead",
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
pool, even to a whister penalised on the deal.  Misère (001 §10): "If declarer has the
opening lead, declarer plays first and the defenders then expose their hands. If a
defender leads, the hands are exposed immediately" (``misere_exposure="after_declarer_lead"``).
"""

SOCHI_000: Final = SOCHI.replace(
    name="sochi-000",
    allpass_progression=(1,),
    allpass_min_bid=(6,),
    pool_overflow="mountain",
    misere_exposure="after_declarer_lead",
)
"""Sochi as text 000 tells it: 003's Sochi without the rising all-pass stakes.

000: "All-pass games are played with the widow, and each one writes one point on the
hill for each trick taken. One who does not take any tricks writes one point in the
pool. There is, or, was usually no increase in minimum bid or points for all-pass
tricks after an all-pass hand."  And: "When all the pools become full, remaining pool
points are subtracted from player's own hill."  Everything else is ``sochi``: greedy,
responsible whist, consolation from everyone (passer and a four-player dealer
included).  A separate preset because the all-pass stakes and the next minimum bid
differ materially from 003's Sochi (1–2–3 and 7 after an all-pass).  "Stalingrad" is
the ``stalingrad`` option ("some use it even when they are not playing Sochi").

Misère as 000's play of cards says for every variant it tells: "If the soloist is not the
eldest hand and if the game is misere ... the two partners lay their cards down face up,
arranged in suits, before the opening lead. If the soloist is the eldest hand, this is done
after the opening lead in case of misere" (``misere_exposure="after_declarer_lead"``, as in
every preset of 000: ``piter``, ``piter-hard``, ``moscow``, ``kazakhstan``, ``finn``,
``vmk``, ``code1996`` and the structural variants).
"""

PITER: Final = LENINGRAD.replace(
    name="piter",
    allpass_progression=(1, 2, 3),
    allpass_min_bid=(6, 7, 7),
    allpass_exit_on_failed=False,
    allpass_exit_on_misere=False,
    allpass_exit_on_unwhisted=False,
    pool_help=False,
    pool_overflow="kept",
    game_end="total",
    misere_exposure="after_declarer_lead",
)
"""St Petersburg (Piter) as text 000 tells it.

000: "The soloist writes twice the game points for each undertrick on the hill ... and
everyone else including passing partner and the dealer of a four player game write the
same amount in the whists against him/her as a prize."  "The whister shares a half of
these points with the passing partner when the soloist fails (gentlemen's whist)."
"Responsible whister writes the game points for each undertrick on the hill
(half-responsible whist -- it is not doubled)."  "Under the normal conditions, each one
writes two points on the hill for each trick taken. One who does not take any tricks
writes one point in the pool."  "After an all-pass game, the minimum biddable number of
tricks is raised to 7 and points for all-pass games are doubled. A whisted and
successfully played game brings this back to the normal ... following games are played
with the minimum bid of 7 and triple points for all-pass games in ordinary Piter."
"The game ends when the total points in the pools exceed the pool size times number of
players ... Pool points in excess of the pool size are doubled and subtracted from
his/her hill, and pool points in short of the pool size are doubled and added."

So: all-pass 2 per trick at stakes 1, 2, 3 (2–4–6), minimum bid 6–7–7, and only a whisted
contract that is made ends the streak (a failed one, a misère or an unwhisted contract
do not).  No pool help: points beyond one's pool stay there (``pool_overflow="kept"``)
and the game ends when the pools' total reaches pool × players (reaching is taken as
enough).  Differs from ``leningrad`` (003) in the stakes (1, 2, 4 there), the minimum bid
(6–7), the exits, pool closing, and the misère's hands: down before the opening lead when a
defender leads, after declarer's opening card when he leads (000, see ``sochi-000``).
"""

PITER_HARD: Final = PITER.replace(name="piter-hard", allpass_min_bid=(6, 7, 8))
"""Hard Piter (000): "Some make it minimum of 8 and triple (hard Piter), and some 8 and
quadruple."  The minimum bid goes 6, 7, 8, 8… (000's options table: "6, 7, 8, 8 (hard)") with
all-pass stakes 2–4–6; the quadruple variant is ``allpass_progression=(1, 2, 4)``.
Misère hands as 000 says (``piter``).
"""

MOSCOW: Final = SOCHI.replace(
    name="moscow",
    misere_exposure="after_declarer_lead",
    consolation_per_undertrick=10,
    whist="gentlemanly",
    shortage="half",
    allpass_talon="closed",
    allpass_scoring="whists",
    allpass_trick_points=5,
    allpass_progression=(1,),
    allpass_min_bid=(6,),
    talon_prizes="whists",
    talon_refusal=True,
    pool_overflow="mountain",
)
"""Rostov / Moscow as text 000 tells it (alias ``rostov-000``).

000: "Some score points for the widow ... Dealer of four player games or each partner of
three player games writes the following points (in half in three player games) in
his/her whists against the soloists if the widow contains: an Ace - 10 points, a King and
a Queen of one suit - 10 points, an Ace and a King of one suit - 20 points, and two Aces -
30 points. Soloist writes 10 points in his/her whists against dealer in four player games
and 5 against each partner when three play if he/she refuses to take the widow."
"Everyone else including a passing partner and the dealer of a four player game writes 10
points for each undertrick in the whists against him/her as a prize."  "The whister shares
a half of these points with the passing partner when the soloist fails (gentlemen's
whist)."  "Responsible whister writes a half of the game points for each undertrick on the
hill (half-responsible whist)."  "All-pass games are played without the widow, and a player
taking the least number of tricks writes 5 points for each trick taken by an opponent ...
One who does not take any tricks writes one point in the pool unless he/she is the dealer
of a four player game."  "The minimum bid and points of all-pass hands remain unchanged."

``rostov`` (003) differs: greedy whist, consolation at the contract value, a short whister
paying half in the mountain and half in whists, stakes 1–2–3, no talon prizes, and the
misère's hands, which 000 puts down before the opening lead when a defender leads (see
``sochi-000``), 003 after the first card.
"""

KAZAKHSTAN: Final = SOCHI.replace(
    name="kazakhstan",
    misere_exposure="after_declarer_lead",
    pool=120,
    contract_values=(8, 16, 24, 32, 40),
    misere_value=40,
    consolation_passer="none",
    allpass_talon="closed",
    allpass_scoring="whists",
    allpass_trick_points=10,
    allpass_zero_pool=2,
    allpass_progression=(1,),
    allpass_min_bid=(6,),
    pool_overflow="mountain",
)
"""Kazakhstan as text 000 tells it.

000: "The game points are quadruples of those of Sochi, a six-trick game is worth 8 points,
seven 16, eight 24, nine 32, and ten and misere 40.  The pool is usually 120 points."  "The
soloist writes the game points for each undertrick on the hill if the game is not misere,
and everyone else but a passing partner, but including the dealer of a four player game,
writes the same amount in the whists against him/her as a prize."  Greedy, responsible
whist.  "All-pass games are played without the widow, and a player taking the least
number of tricks writes 10 points for each trick taken by an opponent ... One who does not
take any tricks writes two points in the pool unless he/she is the dealer of a four player
game."  "The minimum bid and points of all-pass games do not change."  "Pool points in
excess of the pool size are treated just like in Sochi."

Options 000 mentions: ``over_greedy`` ("over-greedy whist"), ``over_greedy_two_only``
("Some apply the "over-greedy" rule only when there are two whisters": a lone whister then
whists greedily, with the whole quota, the passer's tricks his, open or closed),
``allpass_exchange`` ("some players exchange cards before all-pass games"),
``consolation_per_undertrick=0`` ("some players do not score the undertrick prizes at
all"), ``allpass_progression=(1, 2, 3)`` ("some raise trick points of all-pass games like
10-20-30").  Misère hands as 000 says (see ``sochi-000``).
"""

FINN: Final = SOCHI.replace(
    name="finn",
    misere_exposure="after_declarer_lead",
    pool=40,
    start_mountain=20,
    mountain_scale=2,
    whist_scale=2,
    consolation_passer="whister",
    whist_pass_half_whist=True,
    allpass_trick_points=2,
    allpass_zero_pool=2,
    allpass_zero_full="hill",
    allpass_progression=(1,),
    allpass_min_bid=(6,),
    talon_prizes="tricks",
    made_off_mountain=True,
    first_pool_bonus=120,
    clear_mountain_bonus=(80, 60),
    pool_overflow="mountain",
    game_end="first_pool",
)
"""Finn's (Odessa's racing variant) as text 000 tells it.

000: "The pool is 40 points. Every player writes a half of that, 20 points, on his/her hill
before starting."  "There are prizes for quick tricks in the widow in four player games.
Dealer writes in his/her whists against the soloist the following: one trick for an Ace or
a pair of King and Queen of one suit, two tricks for a pair of Ace and King of one suit,
and three tricks for two Aces."  "Ten trick games are whisted with one trick quota ... the
second whister is responsible."  "Whist-Pass-Half-whist is allowed."  "The soloist writes
the game points off from the hill and writes the same amount in the pool."  "The soloist
writes twice the game points for each undertrick ... and everyone else, excluding passing
partner but including dealer of a four player game, writes the same amount ... The
whisting partner records the prize that would belong to the passing partner."  Greedy,
responsible whist at twice the game points.  "All-pass games are played with the widow,
and each one writes two point on the hill for each trick taken. One who does not take any
tricks writes two points in the pool if it is not full, in which case he/she writes two
points off from the hill. The points are forfeited if the pool is full and the hill is
empty."  "The first player to make his/her hill empty writes in each of his/her whists
against the other players 60 points when four play, and 80 points in three player games.
The first player to fill his/her pool writes 120 points."  "A game ends when a player fills
his/her pool."

The trickless player's points (``allpass_zero_full="hill"``): read as "in the pool if it is
not full; if it is full, off his own hill; forfeited if the pool is full and the hill
empty" -- the last sentence names exactly the case where neither can take them, so "in
which case" stands for "otherwise".  A pool with less room than the two points takes what
it can and the rest comes off the hill.  Unlike a soloist's points ("When a pool becomes
full, points to be written there are written in pool with the smallest room"), these never
go to another player's pool or hill.  As a game ends when a pool is full, the full-pool case
arises in play only for the last point or two of a pool, or with ``game_end`` changed.
Misère hands as 000 says (see ``sochi-000``).
"""

VMK: Final = SOCHI.replace(
    name="vmk",
    misere_exposure="after_declarer_lead",
    resignation=True,
    responsible_at_8plus="both",
    tens_whisted=False,
    stalingrad=True,
    consolation_per_undertrick=10,
    allpass_trick_points=2,
    allpass_progression=(1, 2),
    allpass_min_bid=(6, 7),
    allpass_exit_on_failed=False,
    allpass_exit_on_misere=False,
    allpass_exit_on_unwhisted=False,
    pool_overflow="mountain",
    pool_overflow_choice=True,
)
"""VMK (Seleznevka) as text 000 tells it: Sochi with elements of Rostov and Piter.

000: "Soloist can resign by writing three undertricks on the hill.  Whist-Pass-Half-whist is
not allowed.  If two partners whist against 8 or 9 trick games, both are responsible ...
10 trick games are checked and not whisted.  Two partners must whist against a game of 6
spades ("Stalingrad")."  "Everyone else including the passing partner and the dealer of a
four player game writes 10 points for each undertrick of the soloist in the whists against
him/her as a prize."  Greedy, responsible whist.  "All-pass games are played with the
widow, and each one normally writes two points on the hill for each trick taken. One who
does not take any tricks writes one point in the pool.  After an all-pass game, the
minimum biddable number of tricks is raised to 7 and points for all-pass games are doubled.
A whisted and successfully played game brings this back to the normal."

Pool overflow: "Pool points in excess of the pool size are either treated just like in
Sochi, or used to write points off from one's own hill. Soloist can freely choose between
them."  Sochi (000): "When the pool of a player becomes full, he/she writes points of
his/her successful game in the pool of a player with smallest room, and 10 times the pool
points given to him/her in his/her own whists against that player in return. When all the
pools become full, remaining pool points are subtracted from player's own hill"
(``pool_overflow="mountain"``).  "Soloist can freely choose" makes it the soloist's decision
in the game, deal by deal, not a table agreement: ``pool_overflow_choice`` asks him POOL
(Sochi's help to the other pools) or HILL (the surplus off his own hill) at the end of a deal
whose successful game overflows his pool.  He is asked only when the answer changes
something: his mountain is not empty and another pool is still open (when every pool is
full, Sochi's treatment is his own hill anyway).  What his hill cannot take is treated as in
Sochi.  A trickless all-pass point is not a soloist's and is treated as in Sochi.  Misère
hands as 000 says (see ``sochi-000``).
"""

CODE1996: Final = SOCHI.replace(
    name="code1996",
    misere_exposure="after_declarer_lead",
    auction="seniority",
    jump_bids=False,
    allpass_progression=(1,),
    allpass_min_bid=(6,),
    pool_overflow="mountain",
)
"""The tournament recommendations of the Code of Preferans of 1996 (000's options list).

000: "Jump bids: not allowed.  Exit from all-pass: 6.  Misere: misere, 9 spades.  Soloist's
resignation: not allowed.  Stalingrad: not allowed.  Games at ten tricks: whisted.
Opening lead of soloist in open games other than misere: with open hands.  In misere: with
closed hands.  Responsible whister in eight to ten trick games if two whist: second
whister."  Where the Code says "by agreement" (all-pass exits, whist–pass–half-whist, the
talon in all-pass, greedy or gentlemanly, responsible or half-responsible, all-pass trick
points) this preset keeps 000's Sochi choices: no whist–pass–half-whist, the talon leads,
greedy and responsible, one point per all-pass trick without progression.  The auction is
000's general one: an elder hand holds a younger hand's bid, no jumps.  "In misere: with
closed hands" is a soloist on lead playing his first card before the hands go down; a
defender on lead leads with them down (000's play of cards, ``misere_exposure=
"after_declarer_lead"``).
"""

PRESETS: Final[dict[str, Rules]] = {
    "sochi": SOCHI,
    "leningrad": LENINGRAD,
    "rostov": ROSTOV,
    "guide": GUIDE,
    "sochi-000": SOCHI_000,
    "piter": PITER,
    "piter-hard": PITER_HARD,
    "moscow": MOSCOW,
    "kazakhstan": KAZAKHSTAN,
    "finn": FINN,
    "vmk": VMK,
    "code1996": CODE1996,
}
TWO_PLAYER: Final = SOCHI.replace(name="two-player", players=2, allpass_talon="closed",
                                  misere_exposure="after_declarer_lead")
"""Two players with a dummy (000, "Two-player game"), on 003's Sochi.

000: "There is always a dummy player to the left hand side of the dealer. The dummy is the
eldest hand who always passes in bidding and whisting. Its hand remains hidden until a
whister opens it. A whisting player can choose to whist alone against games at six or seven
tricks, in which case the hand of the dummy is not used at all and the whister aims to take
two tricks in a six-trick game and one in seven. Some do not allow this and allow
"half-whist" instead. If a whister whists with the dummy, the hand is played just like open
whists in three player games."  "The widow and the hand of the dummy player is not used in
all-pass games."

The dummy is seat 2 of every deal (the record's third hand); it makes no calls (its passes
are not written), the other player controls it once it is opened (with the dummy, in misère,
in a checked ten).  ``dummy_lone_whist=False`` replaces ALONE by half-whist.  Scoring is
Sochi's for two: the dummy writes nothing and its tricks are the whister's.  Misère hands
as 000 says (see ``sochi-000``): the dummy, always on lead, is a defender, so both defending
hands go down before the opening lead (the other player leads from the dummy's cards).
"""

_ROGUE = TWO_PLAYER.replace(pool_help=False, pool_overflow="kept")
ROGUE_SMALL: Final = _ROGUE.replace(name="rogue-small", rogue="small", game_end="lists")
"""The Rogue played on its own (000, "Rogue (Razboynik)"), small list: two players and the
dummy (``players=3`` or ``4`` for the less frequent table).

000: "It is played on its own as a variation for two players ... There are no bidding and
the second hand is always the soloist."  "The opponent must whist with dummy and open hands
in a two player game. When three or four play some say both partners must whist and some
say the first partner whists and the second passes. The hands of the partners are open in
both cases."  "A game ends when every player finishes playing all the games in his/her
list."

Lists and naming: :mod:`preferans.variants.rogue`.  000 gives no scoring of its own for the Rogue
played alone: it is Sochi's (the two-player game's), with pool points never lost (kept
beyond the pool, no pool help) since the lists, not the pools, end the game.  The defence
is forced, so it has no tokens; "some allow closed whists" is not modelled.
"""
ROGUE_LARGE: Final = _ROGUE.replace(name="rogue-large", rogue="large", game_end="lists")
"""The large Rogue (14 games); see ``rogue-small``."""
ROGUE_XL: Final = _ROGUE.replace(name="rogue-xl", rogue="xl", game_end="lists")
"""The extra-large Rogue (30 games, every game named in full before the talon)."""

RACING_22: Final = PITER.replace(
    name="racing-22",
    pool=22,
    racing_rounds=4,
    game_end="rounds",
    stalingrad_sixes=True,
    responsible_at_8plus="both",
    failure_allpass=True,
    write_off_choice=True,
)
"""Racing on Piter (000, "Racing"), rounds of 22 points.

000: "A "racing" game is made of four rounds or as many rounds as number of players. In
each round players aim to be the first one to fill the pool or one to have the smallest
hill, each of whom receives large amount of bonus in his/her whists."  "Minimum bid and
points for all pass games go up as in the normal Piter, that is, 6, 7, 7, 7... and 2, 4, 6,
6, ...  A whisted and successfully played game brings back the normal state."  "A round is
22 points or 17 points ... If the limit is reached when minimum bid and points for all-pass
games are raised, it is extended until an exit from the all-pass mode."  "First dealer of a
round is the left hand side neighbour of the first dealer of the previous round."  "A first
hand of a round is an all-pass."  "Soloist cannot resign."  "Players are forced to whist
against 6 trick games ("Stalingrad")."  "10 trick games are whisted and not checked."  "When
two players whist against 8, 9 or 10 trick games, both are responsible."  "If there's a
failed misere, following hand is an all-pass without doubles (2 points) if the soloist won
a trick, with doubled points if two, and with tripled points if three or more."  "If there's
a failed 9 or 10 trick game that overbid misere, following hand is an all-pass" likewise by
undertricks.  "The first player to fill the pool in a round writes 300 points in each of
his/her whists againts the other players. Player with the smallest hill at the end of a
round writes 200 points similarly. The points are shared equally in case of a tie."  "At
the end of all rounds, one with highest total of pool receives 300 point bonus and smallest
total hill 200, just like a round."

Choices: four rounds (``racing_rounds=3`` for "as many as players"); a round ends after the
deal on which someone's round pool reaches 22 with the all-pass mode off; the forced
all-passes are auctions where PASS is the only call; pools never help one another and are
kept beyond the limit.  The ``balance`` is the mountains shared out at ten whists a point
plus the whists (bonuses included): the pools have earned their bonuses.  "When a game is
not whisted and successful, the soloist can either write the points in the pool or write
them off from the hill.  When a player including dealer in a four player game does not take
any tricks in an all-pass game, he/she can either write the points in the pool or write them
off from the hill" (``write_off_choice``: POOL or HILL at the end of the deal; what the
hill cannot take goes to the pool).  Misère hands as Piter's (000, see ``sochi-000``).
"""

RACING_17: Final = RACING_22.replace(name="racing-17", pool=17)
"""Racing on Piter with rounds of 17 points; see ``racing-22``."""

CLASSICAL_1971: Final = SOCHI.replace(
    name="classical-1971",
    misere_exposure="after_declarer_lead",
    rogue="classical",
    rogue_soloist="first",
    rogue_defence="first",
    classical_halves=True,
    halftime_laps=2,
    dealer_stays=3,
    tens_whisted=False,
    stalingrad=True,
    half_whist_levels=(),
    passes_as_half_whist=True,
    allpass_progression=(1, 2, 4),
    allpass_min_bid=(6,),
    allpass_zero_off_mountain=True,
    made_half_off_mountain=True,
    blind_bids=True,
    talon_refusal=True,
    pool_help_skip_defence=True,
    pool_overflow="hills",
    hand_bids=True,
    misere_hand=True,
    game_end="pools_and_hills",
    talon_prizes="tricks",
    second_half_limit=True,
    refused_talon_trick=True,
    halftime_choice=True,
)
"""Classical Preferans (1971) as text 000 tells it — the structure and the plain scoring.

000: "A game consists of two halves. The first half is "rogue" (razboynik), or compulsory
hands and the second free. Two laps of all-pass hands are played in the half-time."  "In
the first half of the game, by prior agreement by players, the eldest hand or the second
hand is designated to be the soloist. He/she should name a game from his/her own list of
games, each one only once, until there are none left. The games are six trick once, seven
trick once, eight trick once, nine trick once, ten trick once, and misere once. Number of
tricks is said before the widow is revealed, and a trump suit after discard."  "In the
first half of the game, by prior agreement by players, the first partner is required to
whist and the second pass, or the both partners required to whist."  "Dealer moves after
each hand except all-pass in the second half, when dealer stays up to three all-pass in a
row, then it moves even in case of all-pass."  "There are no requirements for games at ten
tricks, that are played just like misere."  "There is not "half- whist," but two passes
are treated as if "pass"-"half-whist"-"pass" if the game is at six or seven tricks."
"Players are always required to whist against a game of "one" (six spades)."  "The game
point is two if the game is at six tricks, four at seven, six at eight, eight at nine, and
ten at ten or misere."  "The soloist writes a half of the game point in his/her pool and
writes the same off from his/her hill if he/she played the hand successfully."  "The
soloist writes the game point for each undertrick on his/her hill, and each of the others
including passing player and the sitting dealer write the same amount in his/her whist
against the soloist."  "The whisting player writes the game point for each of his/her
tricks. Tricks won by passing player belong to the whister" (greedy).  "In all-pass, every
player writes one point for each trick taken in his/her hill, and who did not take any one
point off from his/her hill. The points are doubled or quadrupled in second or third
all-pass of a staying dealer."  "A player can write points from all-pass only in his own
hill."  "A game ends when the dealer is about to move to the first dealer of the game after the
final lap starts, or all pools are filled and the hills become empty, whichever the earlier"
(``game_end="pools_and_hills"``, ``final_lap_after``: the time limit as a number of
second-half deals).  "The widow is scored in four player games if the two cards contain
quick trick(s) ... The dealer writes in his/her whists against the soloist one trick for an
Ace or a pair of King and Queen of one suit, two tricks for Ace and King of a suit, and three
for two Aces" (``talon_prizes="tricks"``).  "The dealer writes one trick on his/her hill if
the soloist refuses to take the cards, leaving them on the table face up"
(``refused_talon_trick``, four players: the game's value on the dealer's own mountain, as
the sentence reads; "his/her" could also be the soloist's, 000 does not say more).  "When
his/her pool is full, the soloist writes remaining point to the largest pool with some room,
unless it belong to the whisting player or the sitting dealer. When all pools are full, the
soloist writes points of his/her successful game off from the hill, his/her own first, and
other player's. When the soloist writes points in other player's pool or off from a hill of
other player, he/she writes 10 times the points given in his/her whists against the
recipient" (``pool_help_skip_defence``, ``pool_overflow="hills"``: the other hills smallest
first, as Finn's, 000 not saying).

Blind bids (``blind_bids``), second half only: "A player can bid blindly, that is, without
looking at cards dealt, so long as no one has made a seeing bid in the same auction. For a
seeing bit to outbid a blind one, it has to have larger number of tricks and an equal or
higher suit. A bidder of a blind bid can remain in an auction after he/she is outbid by a
seeing call, when he/she looks at his/her hand."  "A player can also pass blindly if no one
has bid seeing or blindly in the same auction. Minimum bid changes after a blind pass ...
blind "one" (spades) or seeing "seven in one" ... if there were none, blind seven or seeing
eight if one, and blind eight or seeing nine if two."  "Misere can be named if the soloist
wins the auction by a blind bid."  "Players are always required to whist against ... games
up to and including the same suit and one larger number of tricks than bid if a blind bid
wins the auction."  "The points are doubled if the soloist has a simple bomb, quadrupled if
he/she has a double bomb, and eight times higher if he/she has a tree. It is doubled again
if the soloist won the auction by a blind bid. If he/she has more than one bombs, the oldest
one is used. The used bomb disappears if the soloist was successful and remains if he/she
failed."  "[All-pass points] are doubled again when there is at least one blind pass."  "If
three players passed in the auction and at least one of them did so blindly, who called
pass blindly writes a bomb in his/her pool and who did not a bomb one degree less ... The
dealer, when four play, gets the same bomb as the others if everyone passes blindly or as
one who looked otherwise. The type of bomb is a single, a double, or a triple bomb if it was
the first, second or third blind all-pass in a row during staying deals of the current
dealer."  "The soloist can refuse to take the widow after looking at them, leaving them face
up on the table" (``talon_refusal``).  "Misere is outbid by "nine in one (spades) hand." A hand
bid is a bid to play a hand without using the widow. An outbid caller of misere can respond
by calling "misere hand." Only "ten in one (spades) hand" can outbid "misere hand."  "If the
soloist wins the auction with a "hand" bid, he/she does not exchange the widow with cards in
his/her hand" (``hand_bids``, ``misere_hand``: the talon stays face down, out of play).

The half-time choice (``halftime_choice``): "At the end of the first half, a player with the
largest points on his/her hill has the right to determine the stakes, size of the pool, and
duration of the second half. The other players can advise him/her, but cannot dictate what
he/she says. The stakes is expressed in amounts of money paid for a whist point. The pool
cannot be larger than the smallest hill at the end of the first half. The time limit
specifies when the final lap starts."  The leader chooses at the table: the first deal
after the first half opens with the phase ``halftime``, where he answers ``SECOND p t``
(pool ``p`` at most the smallest mountain, the final lap after ``t`` second-half deals,
0: no limit).  The offers (at most 12) start with the house's policy, ``halftime_pool``
(0, the default: the largest pool allowed, the smallest mountain; a number above it is cut
to it) and ``final_lap_after``, so a player taking the first offer plays the game as the
rules agree it; then smaller pools and half or double the time.  Stakes (money per whist
point) are not asked: they are the ``stakes`` option, and the sheet then shows ``money``,
each balance × stakes.  The sheet names the leader (the largest mountain; ties: the first
from the first dealer's left) and shows the choice (``classical.halftime``, with
``chosen_by``); the new pool holds from the half-time on (``pool_size``).  Records carry
the token and replay to the same sheet.

"If number of games played successfully in the second half exceeds those in the first half
or all-pass, the soloist writes a half of the game point on his/her hill as if it were a
result of a game in the first half that should have been played to satisfy the rule that
number of successful games in the second half shall be within that of the compulsory hands
or all-pass" (``second_half_limit``): the allowance is the first half's deals plus every
all-pass so far; each successful second-half game beyond it also writes half its game point
on its soloist's mountain.  "Some let the staying dealer of three all-pass write up to ten
points on his/her hill to offset his/her advantage during these hands"
(``staying_dealer_hill``: a house rule, off here; the points after the third all-pass).

The dealer's invitation (``dealer_share``, four players): 000's Classical text says "The
soloist can invite the dealer to share profit or losses equally in high risk hands like
misere", and its general text "Some allow the soloist to invite the dealer in high risk games
like misere when four play. If dealer accepts the invitation, he/she shares profit or losses
equally with the soloist."  So a four-player Classical table as 000 tells it has it:
``Rules.preset("classical-1971", players=4, dealer_share=True)``.  The preset keeps it off
all the same: it seats three by default, where there is no sitting dealer to invite (the
option is an error with three), and switching it on by itself with ``players=4`` would add a
phase that the four-player Classical records written so far do not answer, so they would no
longer replay.  "High risk hands like misere" is read as misère and every ten-trick game
(the games without whisters, :meth:`Rules.invitation_offered`), in both halves.  After the
contract is named the soloist says ``ALONE`` (first: the default) or ``INVITE``; the dealer
answers ``DECLINE`` (first: a player who has not weighed the hand takes on no risk, and the
game is the one without the option) or ``ACCEPT``.  Shared, everything the deal writes for
either of the two (pool, mountain, whists written by or on either) is split half and half
between them, and what one of them writes on the other cancels (see
:func:`preferans.scoring.share_with_dealer`).

Choices: the eldest hand is the first half's soloist and the first partner whists (his
partner's hand open, as in the Rogue); misère hands as 000 says (see ``sochi-000``); a
game named in the first half is whisted by force without calls.  Not modelled (see
docs/records-extensions.md): the final lap by the clock (``final_lap_after`` counts deals).
Irregularities cannot happen in the engine: deals are checked (no misdeal), the discard is
compulsory and illegal cards are refused (no revoke).  A table keeping its sheet with the
program scores them with ``Sheet.irregularity`` (misdeal and advice one point on the hill,
no discard and revoke three undertricks of the game, a revoke in all-pass ten tricks), and a
record carries them as ``{"dealer": d, "irregularity": {...}}`` deal entries.
"""

VARIANTS: Final[dict[str, Rules]] = {
    "two-player": TWO_PLAYER,
    "rogue-small": ROGUE_SMALL,
    "rogue-large": ROGUE_LARGE,
    "rogue-xl": ROGUE_XL,
    "racing-22": RACING_22,
    "racing-17": RACING_17,
    "classical-1971": CLASSICAL_1971,
}
"""The structural variants of 000 (their own deal structure, not only their scoring): the
two-player game with a dummy, the Rogue lists, Racing rounds, Classical.  :meth:`Rules.preset`
knows them as it knows :data:`PRESETS`; they are kept apart from the conventions because the
table itself differs (seats, lists, rounds)."""

VARIANT_DOCS: Final = {
    "two-player": "Two players with a dummy on the dealer's left (000)",
    "rogue-small": "Rogue on its own (000), small list of 10 games, two players and a dummy",
    "rogue-large": "Rogue on its own (000), large list of 14 games",
    "rogue-xl": "Rogue on its own (000), extra-large list of 30 games",
    "racing-22": "Racing on Piter (000): four rounds of 22 points, bonuses 300 and 200",
    "racing-17": "Racing on Piter (000): four rounds of 17 points",
    "classical-1971": "Classical 1971 (000): Rogue first half, all-pass half-time, free second",
}

PRESET_ALIASES: Final = {
    "peter": "piter",
    "st-petersburg": "piter",
    "rostov-000": "moscow",
    "seleznevka": "vmk",
    "code": "code1996",
    "two": "two-player",
    "2": "two-player",
}
"""Other names accepted by :meth:`Rules.preset` (``piter`` is its own preset, 000's Piter;
003's is ``leningrad``)."""
PRESET_DOCS: Final = {
    "sochi": "Sochi (default, 003)",
    "leningrad": "Leningrad / Piter (003)",
    "rostov": "Rostov (003)",
    "guide": "The rules guide's profile (001 §03)",
    "sochi-000": "Sochi as 000 tells it: no rising all-pass stakes",
    "piter": "St Petersburg / Piter (000): progressive all-pass 2–4–6, exit 6–7–7",
    "piter-hard": "Hard Piter (000): all-pass exit 6–7–8–8",
    "moscow": "Rostov / Moscow (000): talon prizes, 10 whists per undertrick",
    "kazakhstan": "Kazakhstan (000): values 8–40, pool 120",
    "finn": "Finn's (000): pool 40, 20 on each mountain, bonuses 120 and 80/60",
    "vmk": "VMK / Seleznevka (000): resignation, Stalingrad, tens checked, overflow choice",
    "code1996": "The 1996 Code's tournament recommendations (000)",
}


def option_docs() -> dict[str, str]:
    """Each option's one-line explanation, by name.

    >>> option_docs()["stalingrad"]
    "Both defenders must whist against 6♠ ('Stalingrad')."
    """
    return {f.name: f.metadata["doc"] for f in dataclasses.fields(Rules) if f.name != "name"}


def option_choices() -> dict[str, tuple[Any, ...] | None]:
    """Each option's allowed values (``None`` where any value of its type may do).

    >>> option_choices()["whist"]
    ('greedy', 'gentlemanly')
    """
    return {
        f.name: f.metadata["choices"] for f in dataclasses.fields(Rules) if f.name != "name"
    }


def _type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, str):
        return "str"
    if isinstance(value, tuple):
        return "int list"
    return "int or null"


def options_schema() -> list[dict[str, Any]]:
    """Every option as JSON-ready data, for settings screens and house-rules editors.

    Each entry: ``name``, ``type`` (``bool``, ``int``, ``str``, ``int list``, ``int or
    null``), ``choices`` (a list, or ``None`` when free), ``default`` (Sochi's value),
    ``doc`` (the one-line explanation), ``presets`` (each preset's value) and ``minimum``
    and ``maximum``, a free number's allowed range (each entry's for a list; ``None`` for
    an option that is not a number or has choices; :mod:`preferans.option_bounds`).

    >>> entry = next(e for e in options_schema() if e["name"] == "stalingrad")
    >>> entry["type"], entry["choices"], entry["default"], entry["presets"]["vmk"]
    ('bool', None, False, True)
    >>> pool = next(e for e in options_schema() if e["name"] == "pool")
    >>> pool["minimum"], pool["maximum"]
    (1, 1000)
    """
    out = []
    hints = _type_hints()
    for f in dataclasses.fields(Rules):
        if f.name == "name":
            continue
        default = getattr(SOCHI, f.name)
        choices = f.metadata["choices"]
        out.append(
            {
                "name": f.name,
                "type": _type_name(default),
                "choices": None if choices is None else list(choices),
                "default": _jsonable(default),
                "doc": f.metadata["doc"],
                "presets": {p: _jsonable(getattr(r, f.name)) for p, r in PRESETS.items()},
                # a number's allowed range (of each entry, for a list); None when not numeric
                "minimum": None,
                "maximum": None,
                **({} if choices is not None else schema_bounds(f.name, hints[f.name])),
            }
        )
    return out


def _jsonable(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def show_value(value: Any) -> str:
    """An option's value as the tables print it: yes/no, 1–2–3, — for none."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return "–".join(str(v) for v in value)
    if value is None:
        return "—"
    return str(value)


def options_table(presets: tuple[str, ...] | None = None) -> str:
    """A Markdown table of options × presets (all of them by default), generated from the code."""
    presets = tuple(PRESETS) if presets is None else presets
    header = "| option | " + " | ".join(presets) + " | meaning |"
    rule = "|---|" + "---|" * len(presets) + "---|"
    rows = [header, rule]
    for name, doc in option_docs().items():
        cells = [show_value(getattr(PRESETS[p], name)) for p in presets]
        rows.append(f"| `{name}` | " + " | ".join(cells) + f" | {doc} |")
    return "\n".join(rows)
