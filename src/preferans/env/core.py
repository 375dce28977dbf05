"""The environment's state: the engine's :class:`~preferans.game.Game` plus what a research
game adds and nothing else: the deal as chance outcomes, a discard as two single-card
steps, action ids (:mod:`.spec`), returns in whists, and the seats' tensors and strings
(:mod:`.tensors`), all read from the engine's per-seat observation.

It needs neither OpenSpiel nor PettingZoo: :mod:`.openspiel` and :mod:`.aec` wrap it.

>>> core = PreferansCore(EnvConfig(seed=3))
>>> core.current_player() == CHANCE, len(core.chance_outcomes())
(True, 1)
>>> while core.current_player() != TERMINAL:
...     if core.current_player() == CHANCE:
...         core.apply(core.chance_outcomes()[0][0])
...     else:
...         core.apply(core.legal_actions()[-1])
>>> abs(sum(core.returns())) < 1e-9
True
"""

from __future__ import annotations

import copy
import json
from dataclasses import asdict, dataclass, fields
from fractions import Fraction
from functools import cache
from itertools import product
from typing import Any, Final

from ..actions import PLAY_ACTIONS, Action, ActionKind
from ..bids import MISERE, Bid
from ..cards import DECK, Card
from ..deal import Phase
from ..game import Game
from ..outcome import DealOutcome
from ..rules import Rules
from ..sheet import Sheet
from . import spec

CHANCE: Final = -1
"""``current_player()`` at a chance node (OpenSpiel's ``PlayerId.CHANCE``)."""
TERMINAL: Final = -4
"""``current_player()`` once the game is over (OpenSpiel's ``PlayerId.TERMINAL``)."""
PLAYERS: Final = 3
MAX_DEALS: Final = 400
"""A pulya stops after this many deals if its pools are still open (as ``preferans match``
does): the game is then over, the returns the early-stop balance."""
_ZEROS: Final = [0.0] * 3
MAX_STEPS_PER_DEAL: Final = 150
"""An upper bound on the steps of one deal: 32 chance outcomes and at most 118 decisions
(64 auction calls, two discard steps, the contract, the defence, six exchange steps, 30
cards, the write calls)."""


@dataclass(frozen=True)
class EnvConfig:
    """The game's parameters (OpenSpiel's game parameters, PettingZoo's keyword arguments).

    - ``rules``: a preset name (``sochi``, ``leningrad``, ``rostov``, … see ``preferans
      rules``) or a record's rules object as JSON (``{"preset": "sochi", "pool": 20}``).
    - ``players``: 3 (the only number the environment plays).
    - ``pulya``: 0 for one deal on a fresh sheet; N for a whole game to a pool of N (at
      most ``max_deals`` deals).
    - ``seed``: the seed policy. -1: every card is a chance outcome, uniform over the cards
      not yet dealt (the framework samples them). N ≥ 0: the cards are those
      ``preferans match --seed N`` deals (board ``board`` of a one-deal match, game
      ``board`` of a pulya match, its dealer included); each chance node then has one
      outcome.
    - ``board``: which board (one deal) or game (pulya) of the seed.
    - ``dealer``: the first dealer when ``seed`` is -1.
    - ``max_deals``: the cap on a pulya's deals.
    - ``ranks``: 0 plays the pack the rules say (32 cards); 5 or 2 is **Mini Preferans**,
      the rules' ``ranks`` option: the top 5 ranks of each suit (six cards a hand) or the
      king and ace (two cards a hand), the same rules otherwise.
    - ``suits``: 0 plays the rules' suits (4); 1 (with ``ranks`` 5) is the smallest Mini
      Preferans, the rules' ``suits`` option: the ten to the ace of spades, one card a hand,
      one trick a deal.
    - ``bids``: 0 offers every bid of the rules; N offers only the lowest N bids of the
      ladder (from the lowest level the pack allows; misère as the rules have it), in the
      auction and as the contract named: fewer contracts, the same rules otherwise (for a
      game small enough to solve whole).
    """

    rules: str = "sochi"
    players: int = PLAYERS
    pulya: int = 0
    seed: int = -1
    board: int = 0
    dealer: int = 0
    max_deals: int = MAX_DEALS
    ranks: int = 0
    suits: int = 0
    bids: int = 0

    @classmethod
    def from_params(cls, params: dict[str, Any] | None) -> EnvConfig:
        """Read OpenSpiel-style parameters (unknown names are an error)."""
        params = dict(params or {})
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(params) - known)
        if unknown:
            raise ValueError(f"unknown parameter(s) {unknown}; known: {sorted(known)}")
        if isinstance(params.get("rules"), str):
            params["rules"] = rules_param(params["rules"])
        config = cls(**params)
        config.check()
        return config

    def params(self) -> dict[str, Any]:
        return asdict(self)

    def check(self) -> None:
        if self.players != PLAYERS:
            raise ValueError(f"the environment plays 3 players, not {self.players}")
        if self.pulya < 0 or self.max_deals < 1 or self.board < 0 or self.seed < -1:
            raise ValueError("pulya, board and max_deals must be >= 0 (max_deals >= 1), "
                             "seed >= -1")
        if self.ranks not in (0, 2, 5, 8):
            raise ValueError(f"ranks {self.ranks}: 0 (the rules' own), 8, 5 or 2")
        if self.suits not in (0, 1, 4):
            raise ValueError(f"suits {self.suits}: 0 (the rules' own), 4 or 1")
        if not 0 <= self.bids <= 25:
            raise ValueError(f"bids {self.bids}: 0 (every bid) or 1..25")
        if not 0 <= self.dealer < PLAYERS:
            raise ValueError(f"dealer {self.dealer} is not a seat (0..2)")
        rules = self.make_rules()
        if rules.players != PLAYERS:
            raise ValueError(f"rules {self.rules!r} are for {rules.players} players, not 3")

    def make_rules(self) -> Rules:
        return _rules(self.rules, self.pulya, self.ranks, self.suits)

    @property
    def deals(self) -> int:
        """The most deals the game can have."""
        return self.max_deals if self.pulya else 1


@cache
def _rules(text: str, pulya: int, ranks: int = 0, suits: int = 0) -> Rules:
    rules = Rules.from_json(_rules_object(text))
    if ranks or suits:
        rules = rules.replace(ranks=ranks or rules.ranks, suits=suits or rules.suits)
    return rules.replace(pool=pulya) if pulya else rules


_SPECIAL: Final = ',;=()"'
"""What OpenSpiel's game string or the written form's separators would misread in a string."""
_MARKS: Final = {c: chr(0xE000 + k) for k, c in enumerate(_SPECIAL)}


def rules_param(text: str) -> str:
    """The ``rules`` parameter as the game's own string writes it: a preset name as it is;
    a rules object as JSON with its keys sorted, ``;`` between items, and ``,`` ``;`` ``=``
    ``(`` ``)`` ``"`` inside strings written as ``\\u`` escapes, so that OpenSpiel's game
    string (which splits parameters at commas and nests games in parentheses) carries it
    and reads it back.

    >>> rules_param('{"pool": 20, "preset": "sochi"}')
    '{"pool":20;"preset":"sochi"}'
    >>> rules_param(rules_param('{"preset": "sochi", "whist_quota": [4, 2, 1, 1, 0]}'))
    '{"preset":"sochi";"whist_quota":[4;2;1;1;0]}'
    >>> rules_param('{"name": "a, (b)"}')
    '{"name":"a\\\\u002c \\\\u0028b\\\\u0029"}'
    """
    obj = _rules_object(text)
    if isinstance(obj, str):
        return obj
    # the special characters of strings are marked with private-use characters, which JSON
    # writes as \u escapes (ensure_ascii), then given their own escapes
    out = json.dumps(_marked(obj), sort_keys=True, separators=(";", ":"))
    for char, mark in _MARKS.items():
        out = out.replace(f"\\u{ord(mark):04x}", f"\\u{ord(char):04x}")
    return out


def _marked(obj: Any) -> Any:
    if isinstance(obj, str):
        return "".join(_MARKS.get(c, c) for c in obj)
    if isinstance(obj, dict):
        return {_marked(k): _marked(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_marked(v) for v in obj]
    return obj


def _rules_object(text: str) -> Any:
    """A preset name, or the rules object of JSON text (or of the game's own written form,
    :func:`rules_param`: ``;`` between items, every ``;`` of a string escaped)."""
    if not text.lstrip().startswith("{"):
        return text
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        if ";" in text:
            try:
                return json.loads(text.replace(";", ","))
            except json.JSONDecodeError:
                pass
        raise ValueError(f"rules {text!r} are neither a preset name nor a JSON object: "
                         f"{exc}") from None


def dealing_seats(dealer: int) -> tuple[int, int, int]:
    """The seats dealt ten cards each (fewer with a short pack), in dealing order: from the
    dealer's left."""
    return ((dealer + 1) % PLAYERS, (dealer + 2) % PLAYERS, dealer)


def chance_sequence(dealer: int, hands: list[list[str]], talon: list[str]) -> list[int]:
    """The chance outcomes (32, fewer with a short pack) that deal ``hands`` (by seat) and
    ``talon``."""
    out: list[int] = []
    for seat in dealing_seats(dealer):
        out += sorted(Card.parse(c).index for c in hands[seat])
    return out + [Card.parse(c).index for c in talon]


class PreferansCore:
    """One game: a deal or a whole pulya (see :class:`EnvConfig`), step by step."""

    def __init__(self, config: EnvConfig | None = None) -> None:
        self.config = config = config or EnvConfig()
        self.rules = config.make_rules()
        first = config.board % PLAYERS if config.seed >= 0 else config.dealer
        self.game = Game(self.rules, first_dealer=first)
        self.pack: tuple[int, ...] = tuple(c for c in range(32) if self.rules.pack_mask >> c & 1)
        """The card ids of the pack (all 32; fewer in Mini Preferans: ``ranks``)."""
        self.dealt: list[int] = []
        """The cards dealt so far in the deal being dealt (chance outcomes in order)."""
        self.pending: int | None = None
        """The first card of a two-step discard, once chosen."""
        self.history: list[int] = []
        """Every action id applied (chance outcomes included)."""
        self.balance: list[float] = [0.0] * PLAYERS
        self.last_rewards: list[float] = [0.0] * PLAYERS
        self.over = False
        self.truncated = False
        """A pulya stopped by ``max_deals`` with pools still open."""
        self._plan: list[int] | None = None
        self.discards_kept: tuple[Any, int, list[int]] | None = None
        """Each seat's discards in a deal, with the deal and its length of history then
        (:func:`.tensors.discards`)."""
        self._pairs: tuple[Any, int, list[tuple[int, int]]] | None = None
        """The discard's step pairs of the deal that computed them (both steps read them)."""
        self.sheet_features: list[float] | None = None
        """The sheet's piece of the tensors (a pulya), written when a deal is scored."""
        self.facts: dict[Any, Any] = {}
        """What is worked out about the state as it is now, kept until the next action: each
        seat's :class:`~preferans.env.tensors.SeatFacts` (by seat: the tensors and strings of
        one state read the observation once), the legal actions (``"legal"``), the player to
        act (``"player"``)."""
        self._sheet_owned = True
        """False while a clone shares the sheet (copied before a deal can end on it)."""
        self._bids: tuple[int, int] | None = None
        """The bid ids offered (``config.bids``): ``[low, high)``, the ladder below misère."""
        if config.bids:
            low = spec.FIRST_BID + 5 * (self.rules.lowest_level - 6)
            self._bids = (spec.FIRST_BID, min(low + config.bids, spec.MISERE_ID))
        self._start_dealing()
        self._write_sheet_features()

    def _write_sheet_features(self) -> None:
        if not self.config.pulya:
            return
        sheet = self.game.sheet
        size = float(sheet.pool_size or 1)
        out = [float(p) / size for p in sheet.pool]
        out += [float(m) / 100 for m in sheet.mountain]
        out += [float(w) / 100 for row in sheet.whists for w in row]
        out += [b / 100 for b in self.balance]
        out.append(len(self.game.finished_deals) / self.config.max_deals)
        self.sheet_features = out

    # --- the deal as chance outcomes -------------------------------------------------------
    def _start_dealing(self) -> None:
        self.dealt = []
        self._plan = None
        config = self.config
        if config.seed < 0:
            return
        from ..match.boards import board_cards
        from ..match.pulya import game_deal_cards

        if config.pulya:
            number = len(self.game.finished_deals)
            dealer, hands, talon = game_deal_cards(self.rules, config.seed, config.board,
                                                   number, self.game.dealer)
        else:
            dealer, hands, talon = board_cards(self.rules, config.seed, config.board)
        assert dealer == self.game.dealer
        self._plan = chance_sequence(dealer, hands, talon)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(card id, probability)`` of the next card dealt."""
        if self.current_player() != CHANCE:
            return []
        if self._plan is not None:
            return [(self._plan[len(self.dealt)], 1.0)]
        used = 0
        for c in self.dealt:
            used |= 1 << c
        left = [c for c in self.pack if not used >> c & 1]
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _deal_card(self, card: int) -> None:
        if card not in self.pack or card in self.dealt:
            raise ValueError(f"chance outcome {card} is not a card still to be dealt")
        if self._plan is not None and card != self._plan[len(self.dealt)]:
            raise ValueError(f"the seed deals {DECK[self._plan[len(self.dealt)]]} now, "
                             f"not {DECK[card]}")
        self.dealt.append(card)
        if len(self.dealt) < len(self.pack):
            return
        size = self.rules.tricks
        hands: list[list[Card]] = [[] for _ in range(PLAYERS)]
        for k, seat in enumerate(dealing_seats(self.game.dealer)):
            hands[seat] = [DECK[c] for c in self.dealt[size * k: size * k + size]]
        self.game.start_deal(hands, [DECK[c] for c in self.dealt[3 * size:]])

    # --- the game --------------------------------------------------------------------------
    def current_player(self) -> int:
        player = self.facts.get("player")
        if player is None:
            player = self.facts["player"] = self._current_player()
        return player  # type: ignore[no-any-return]

    def _current_player(self) -> int:
        if self.over:
            return TERMINAL
        deal = self.game.deal
        if deal is None:
            return CHANCE
        return deal.to_act  # type: ignore[return-value]

    def is_terminal(self) -> bool:
        return self.over

    def legal_actions(self) -> list[int]:
        """The legal action ids of the seat to act, ascending (empty at chance and at the end)."""
        legal = self.facts.get("legal")
        if legal is None:
            legal = self.facts["legal"] = self._legal_actions()
        return list(legal)

    def _legal_actions(self) -> list[int]:
        legal = self._engine_legal_actions()
        if self._bids is not None:
            low, high = self._bids
            return [a for a in legal if not low <= a < spec.MISERE_ID or a < high]
        return legal

    def _engine_legal_actions(self) -> list[int]:
        deal = self.game.deal
        if deal is None or self.over:
            return []
        phase = deal.phase
        if (phase is Phase.DISCARD or phase is Phase.EXCHANGE) and self.pending is not None \
                and self._pairs is not None and self._pairs[0] is deal \
                and self._pairs[1] == len(deal.history):
            return sorted(hi for lo, hi in self._pairs[2] if lo == self.pending)
        legal = deal.legal_actions()
        if phase is Phase.PLAY:
            return [a.cards[0].index for a in legal]
        if phase is Phase.DISCARD or phase is Phase.EXCHANGE:
            pairs = self._discard_pairs(deal, legal)
            if self.pending is not None:
                return sorted(hi for lo, hi in pairs if lo == self.pending)
            words = [spec.action_id(a) for a in legal if a.kind is not ActionKind.DISCARD]
            return sorted({lo for lo, _ in pairs}.union(words))
        if phase is Phase.HALFTIME:
            if len(legal) > spec.SECOND_OFFERS:
                raise ValueError(f"{len(legal)} half-time offers: the action space has "
                                 f"{spec.SECOND_OFFERS}")
            return list(range(spec.FIRST_SECOND, spec.FIRST_SECOND + len(legal)))
        return sorted(spec.action_id(a) for a in legal)

    def _discard_pairs(self, deal: Any, legal: list[Action]) -> list[tuple[int, int]]:
        """The legal discards as step pairs, kept for the second step (the deal does not
        change between the two)."""
        pairs = [spec.discard_steps(a) for a in legal if a.kind is ActionKind.DISCARD]
        self._pairs = (deal, len(deal.history), pairs)
        return pairs

    def engine_action(self, action_id: int) -> Action | None:
        """The engine action an id stands for now (``None`` for a discard's first step)."""
        deal = self.game.deal
        if deal is None:
            raise ValueError("no deal in progress")
        phase = deal.phase
        if phase is Phase.PLAY:
            return PLAY_ACTIONS[action_id]
        if (phase is Phase.DISCARD or phase is Phase.EXCHANGE) and action_id < 32:
            if self.pending is None:
                return None
            return Action.make_discard(DECK[self.pending], DECK[action_id])
        if action_id >= spec.FIRST_SECOND:
            return deal.legal_actions()[action_id - spec.FIRST_SECOND]
        action = spec.ACTIONS[action_id]
        assert action is not None
        return action

    def apply(self, action_id: int) -> None:
        """Apply an action id (a card dealt at a chance node). Illegal ids raise
        ``ValueError`` (the engine's :class:`~preferans.actions.IllegalAction` for a call)."""
        action_id = int(action_id)
        if self.over:
            raise ValueError("the game is over")
        self.facts = {}
        if not 0 <= action_id < spec.NUM_ACTIONS:
            raise ValueError(f"action {action_id} is out of range 0..{spec.NUM_ACTIONS - 1}")
        game = self.game
        if game.deal is None:
            self._deal_card(action_id)
            self.history.append(action_id)
            self.facts = {}
            return
        self.last_rewards = _ZEROS  # rewards since the last decision: chance keeps them
        engine = self.engine_action(action_id)
        if engine is None:  # a discard's first card
            if action_id not in self.legal_actions():
                raise ValueError(f"{DECK[action_id]} cannot be discarded first now")
            self.pending = action_id
        else:
            if self.pending is not None and action_id not in self.legal_actions():
                raise ValueError(f"{DECK[action_id]} cannot be discarded with "
                                 f"{DECK[self.pending]}")
            if self._bids is not None and self._bids[1] <= action_id < spec.MISERE_ID:
                raise ValueError(f"{spec.ACTION_NAMES[action_id]} is not offered (bids "
                                 f"{self.config.bids})")
            number = len(game.finished_deals)
            if not self._sheet_owned and _may_end(game.deal):
                game.sheet = _copy_sheet(game.sheet)
                self._sheet_owned = True
            game.apply(engine)
            self.pending = None
            if len(game.finished_deals) > number:
                self._deal_done()
        self.history.append(action_id)
        self.facts = {}

    def _deal_done(self) -> None:
        old = self.balance
        if self.config.pulya:
            self.balance = [float(x) for x in self.game.sheet.balance()]
        else:  # one deal on a fresh sheet: its balance is its outcome's (settled once)
            key = (self.rules, self.game.finished_deals[-1].outcome())
            balance = _ONE_DEAL.get(key)
            if balance is None:
                balance = _ONE_DEAL[key] = [float(x) for x in self.game.sheet.balance()]
            self.balance = list(balance)
        self.last_rewards = [b - a for a, b in zip(old, self.balance, strict=True)]
        deals = len(self.game.finished_deals)
        if not self.config.pulya or self.game.finished:
            self.over = True
        elif deals >= self.config.max_deals:
            self.over = self.truncated = True
        self._write_sheet_features()
        if not self.over:
            self._start_dealing()

    def returns(self) -> list[float]:
        """Each seat's balance in whists so far (the sheet's settlement): the game's result
        once it is over; 0 for everyone before the first deal is scored."""
        return list(self.balance)

    # --- what a seat sees --------------------------------------------------------------------
    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see now: the engine's observation (the current deal's, with the
        sheet; :meth:`preferans.game.Game.observation`), plus ``pending_discard`` (its own
        first discard step) when it is in the middle of a discard. Players choose from it."""
        obs = self.game.observation(seat)
        if self.pending is not None and self.game.deal is not None and \
                self.game.deal.to_act == seat:
            obs["pending_discard"] = str(DECK[self.pending])
        return obs

    # --- records, copies, serialisation -------------------------------------------------------
    def to_record(self) -> dict[str, Any]:
        """The game so far as a ``preferans-record/1`` (``preferans replay`` reads it)."""
        return self.game.to_record()

    def clone(self) -> PreferansCore:
        other = object.__new__(PreferansCore)
        other.__dict__.update(self.__dict__)
        game = object.__new__(Game)
        game.__dict__.update(self.game.__dict__)
        self._sheet_owned = other._sheet_owned = False  # shared until a deal may end
        game.deal = None if self.game.deal is None else self.game.deal.copy()
        game.finished_deals = list(self.game.finished_deals)
        other.game = game
        other.dealt = list(self.dealt)
        other.history = list(self.history)
        # the same state: the seats' facts are shared until either applies an action (apply
        # rebinds ``facts``, never clears it in place)
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> PreferansCore:
        return self.clone()

    def __getstate__(self) -> dict[str, Any]:
        return {"config": self.config.params(), "history": list(self.history)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        fresh = PreferansCore.replay(EnvConfig(**state["config"]), state["history"])
        self.__dict__.update(fresh.__dict__)

    @classmethod
    def replay(cls, config: EnvConfig, history: list[int]) -> PreferansCore:
        core = cls(config)
        for action in history:
            core.apply(action)
        return core


_ONE_DEAL: dict[tuple[Rules, DealOutcome], list[float]] = {}
"""The balance of a one-deal game by its rules and outcome (the sheet's settlement, in
fractions, is the slowest part of a deal's end; a one-deal game settles a fresh sheet)."""


def _copy_sheet(sheet: Sheet) -> Sheet:
    """A copy of the sheet that the next deal can be written on without touching the
    original: its lists and dicts are copied (nested lists too); the entries themselves are
    shared (the sheet never changes an entry once written, except for an irregularity,
    which the environment never records)."""
    other = copy.copy(sheet)
    for name, value in vars(sheet).items():
        if isinstance(value, list):
            setattr(other, name, [list(v) if isinstance(v, list) else
                                  dict(v) if isinstance(v, dict) else v for v in value])
        elif isinstance(value, dict):
            setattr(other, name, dict(value))
        elif isinstance(value, tuple) and any(isinstance(v, list) for v in value):
            setattr(other, name, tuple(list(v) if isinstance(v, list) else v for v in value))
    return other


def _may_end(deal: Any) -> bool:
    """Whether the deal's next action may end it (and so write on the sheet)."""
    phase = deal.phase
    if phase is Phase.AUCTION or phase is Phase.HALFTIME or phase is Phase.NAME:
        return False
    return not (phase is Phase.PLAY and len(deal.tricks) < deal.rules.tricks - 1)


# --- the range of the returns ------------------------------------------------------------------
def _outcomes(dealer: int, deal_tricks: int = 10) -> list[DealOutcome]:
    """Every kind of one-deal outcome that reaches the extremes of the score (``deal_tricks``
    tricks a deal: fewer with a short pack, whose contracts count the declarer the rest)."""
    out: list[DealOutcome] = []
    declarer = (dealer + 1) % PLAYERS
    d1, d2 = (declarer + 1) % PLAYERS, (declarer + 2) % PLAYERS
    for level, taken in product(range(6, 11), range(11)):
        bid = Bid(level, None)
        rest = 10 - taken
        for whisters, split, open_ in (
            ((d1, d2), (rest, 0), None), ((d1, d2), (0, rest), None),
            ((d1,), (rest, 0), False), ((d1,), (rest, 0), True), ((d1,), (0, rest), False),
        ):
            tricks = [0] * PLAYERS
            tricks[declarer], tricks[d1], tricks[d2] = taken, *split
            calls = tuple("WHIST" if s in whisters else "PASS" for s in (d1, d2))
            out.append(DealOutcome("contract", dealer, PLAYERS, declarer, bid, calls,  # type: ignore[arg-type]
                                   whisters, None, open_, tuple(tricks)))
        if taken == 0:
            out.append(DealOutcome("passed", dealer, PLAYERS, declarer, bid, ("PASS", "PASS")))
    n = deal_tricks
    for taken in range(n + 1):
        tricks = [0] * PLAYERS
        tricks[declarer], tricks[d1] = taken, n - taken
        out.append(DealOutcome("misere", dealer, PLAYERS, declarer, MISERE,
                               tricks=tuple(tricks)))
    for a in range(n + 1):
        for b in range(n + 1 - a):
            out.append(DealOutcome("allpass", dealer, PLAYERS, tricks=(a, b, n - a - b)))
    return out


@cache
def deal_bound(rules: Rules) -> float:
    """A bound on the size of any seat's balance after one deal on a fresh sheet: twice the
    worst score of the outcomes :func:`_outcomes` lists, plus 100, and at least 200 times the
    highest contract value (the structural variants score outcomes that list leaves out)."""
    worst = 0.0
    for outcome in _outcomes(0, rules.tricks):
        sheet = Sheet(rules, ("A", "B", "C"))
        try:
            sheet.record(outcome)
        except ValueError:
            continue
        worst = max(worst, *(abs(float(x)) for x in sheet.balance()))
    top = max(*rules.contract_values, rules.misere_value)
    return float(Fraction(max(worst * 2 + 100, 200 * top)).__ceil__())


def utility_bound(config: EnvConfig) -> float:
    """The bound on the returns that the game declares (``min_utility = -bound``): twice the
    worst one-deal score plus 100 for one deal; for a pulya that times four per deal (the
    all-pass stakes rise; loose, but a bound)."""
    one = deal_bound(config.make_rules())
    return one if not config.pulya else one * 4 * config.max_deals
