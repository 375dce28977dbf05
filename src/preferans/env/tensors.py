"""The seats' tensors and strings, written from the engine's observation of that seat.

Everything here is read from :meth:`preferans.deal.Deal.observation` (exactly what the seat
may see), the seat's own dealt hand (which it saw when the cards came), its own first
discard step, and the pulya sheet (public). Nothing else of the state is looked at, so a
tensor cannot hold a card its seat may not see (``tests/test_env_leak.py`` checks it). The
one exception says so in its name: the hidden pieces (:func:`hidden_tensor`) of the
perfect-information observer and of the global state (:func:`state_tensor`, PettingZoo's
``state()``), which hold every hand by design.

The observers of the other kinds of information (:class:`Layout`: public only, private
only) are cut from the same tensors; the public ones are written from what every seat
sees (:func:`public_view`), seats absolute.

Seats are **relative**: index 0 is the observing seat, 1 the next seat clockwise (its left),
2 the one after. Cards are indexed ``suit * 8 + rank`` (``7S`` = 0 … ``AH`` = 31), bids by
their ladder step (``6S`` = 0 … ``10NT`` = 24, misère 25). Both layouts are listed piece
by piece in :data:`OBSERVATION_PIECES` and :data:`INFORMATION_STATE_PIECES` and in
``docs/research.md``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from ..cards import DECK, mask_indices
from . import spec

if TYPE_CHECKING:
    from ..deal import Deal
    from .core import PreferansCore

PHASES: Final = ("deal", "halftime", "name", "auction", "discard", "contract", "invite",
                 "defence", "defence mode", "dealer whist", "exchange", "play", "write",
                 "done")
"""The phase one-hot: ``deal`` while the cards are being dealt (chance), then the engine's
phases, ``done`` once the game is over."""
MAX_CALLS: Final = 64
"""Auction slots of the information-state tensor (a longer auction is an error)."""
MAX_DEFENCE: Final = 6
FLAGS: Final = ("open_defence", "closed_defence", "talon_refused", "hand_game",
                "forced_allpass", "hand_hidden", "alone", "pulya")
SHEET: Final = 19
"""pool / pool size (3), mountain / 100 (3), whists written [writer][on] / 100 (3×3),
balance / 100 (3), all by relative seat; deals played / max deals (1)."""

_N_CALLS = len(spec.AUCTION_CALLS)
_N_DEF = len(spec.DEFENCE_CALLS)
_TRICK = 3 + 3 * 32 + 32

OBSERVATION_PIECES: Final[tuple[tuple[str, tuple[int, ...]], ...]] = (
    ("seat", (3,)),            # the observing seat, absolute
    ("dealer", (3,)),          # relative
    ("phase", (len(PHASES),)),
    ("to_act", (3,)),          # relative; zeros at chance and at the end
    ("hand", (32,)),           # the cards held now
    ("pending_discard", (32,)),  # own first discard step, between the two steps
    ("own_discard", (32,)),    # own discard (declarer) or all-pass exchange discard
    ("talon", (32,)),          # the talon cards shown
    ("exposed", (3, 32)),      # open hands, by relative seat
    ("played", (3, 32)),       # every card each relative hand has played in this deal
    ("trick", (3, 32)),        # the trick in progress, by relative seat
    ("talon_lead", (32,)),     # the all-pass talon card leading the trick in progress
    ("hand_sizes", (3,)),      # cards held / 12
    ("tricks_won", (3,)),      # / 10
    ("high_bid", (26,)),       # the auction's highest bid (misère 25)
    ("high_bidder", (3,)),
    ("passed", (3,)),          # who has passed in the auction
    ("min_bid", (5,)),         # the lowest ordinary level allowed (6..10)
    ("declarer", (3,)),
    ("contract", (26,)),
    ("kind", (len(spec.KINDS),)),
    ("defence", (3, _N_DEF)),  # each relative seat's defence calls
    ("flags", (len(FLAGS),)),
    ("sheet", (SHEET,)),
)
"""The observation tensor (``perfect_recall=False``): the table as it is now."""

INFORMATION_STATE_PIECES: Final[tuple[tuple[str, tuple[int, ...]], ...]] = (
    ("seat", (3,)),
    ("dealer", (3,)),
    ("phase", (len(PHASES),)),
    ("to_act", (3,)),
    ("dealt_hand", (32,)),     # the ten cards dealt to the seat (zeros until seen: blind)
    ("hand", (32,)),
    ("pending_discard", (32,)),
    ("own_discard", (32,)),
    ("talon", (32,)),
    ("exposed", (3, 32)),
    ("auction", (MAX_CALLS, 3 + _N_CALLS)),  # each call in order: relative seat, call
    ("declarer", (3,)),
    ("contract", (26,)),
    ("kind", (len(spec.KINDS),)),
    ("defence", (MAX_DEFENCE, 3 + _N_DEF)),  # each defence call in order
    ("tricks", (10, _TRICK)),  # per trick: leader, each relative seat's card, talon card
    ("hand_sizes", (3,)),
    ("tricks_won", (3,)),
    ("flags", (len(FLAGS),)),
    ("sheet", (SHEET,)),
)
"""The information-state tensor (``perfect_recall=True``): everything the seat has seen in
this deal, in order (a pulya's earlier deals only through the sheet)."""


def _offsets(pieces: tuple[tuple[str, tuple[int, ...]], ...]) -> tuple[dict[str, int], int]:
    out: dict[str, int] = {}
    at = 0
    for name, shape in pieces:
        out[name] = at
        at += int(np.prod(shape))
    return out, at


OBS_AT, OBSERVATION_SIZE = _offsets(OBSERVATION_PIECES)
INFO_AT, INFORMATION_STATE_SIZE = _offsets(INFORMATION_STATE_PIECES)
_CARD: Final = {str(c): c.index for c in DECK}
_PHASE: Final = {p: i for i, p in enumerate(PHASES)}
_KIND: Final = {k: i for i, k in enumerate(spec.KINDS)}
_DEF: Final = {k: i for i, k in enumerate(spec.DEFENCE_CALLS)}
_CALL_ID: Final = {spec.ACTION_NAMES[a]: spec.CALL_INDEX[a] for a in spec.AUCTION_CALLS}


def _bid(token: str | None) -> int | None:
    return spec.bid_index(token)


class SeatFacts:
    """What one seat knows now, gathered once for the tensors and the strings."""

    __slots__ = (
        "deal_obs",
        "dealer",
        "dealt",
        "info",
        "info_string",
        "obs",
        "obs_string",
        "own_discard",
        "pending",
        "phase",
        "public",
        "seat",
        "sheet",
        "to_act",
    )

    def __init__(self, core: PreferansCore, seat: int, public: bool = False) -> None:
        """``public``: what every seat sees, written as seat 0 would (absolute seats), its
        own cards left out."""
        self.seat = seat
        self.public = public
        deal = current_deal(core)
        # the legal tokens are not part of the tensors and strings (``_SKIP``): not asked for
        self.deal_obs: dict[str, Any] | None = (None if deal is None
                                                else deal.observation(seat, legal=False))
        if public and self.deal_obs is not None:
            self.deal_obs = public_view(self.deal_obs)
        obs = self.deal_obs
        self.phase = "done" if core.over else ("deal" if deal is None else obs["phase"])  # type: ignore[index]
        self.dealer = core.game.dealer if deal is None else deal.dealer
        self.to_act = core.current_player() if core.current_player() >= 0 else None
        self.dealt = 0
        self.own_discard = 0
        if deal is not None and not public and not (obs or {}).get("hand_hidden"):
            self.dealt = deal.initial_hands[seat].mask
            self.own_discard = _own_discards(core, deal, seat)
        self.pending = core.pending if (core.pending is not None and self.to_act == seat
                                        and not public) else None
        self.sheet = core.sheet_features
        self.obs: np.ndarray | None = None
        self.info: np.ndarray | None = None
        self.obs_string: str | None = None
        self.info_string: str | None = None


def current_deal(core: PreferansCore) -> Deal | None:
    """The deal the tensors describe: the one in progress, or the last once the game is
    over (``None`` while the cards are being dealt)."""
    game = core.game
    if game.deal is None and game.finished_deals and core.over:
        return game.finished_deals[-1]
    return game.deal


_PRIVATE_KEYS: Final = ("looked", "write", "hand_hidden")


def public_view(obs: dict[str, Any]) -> dict[str, Any]:
    """A seat's observation without what only that seat sees (its hand, its discard, its
    legal actions, a dealer's look at a hand, its writing preview): what every seat sees."""
    out = {k: v for k, v in obs.items() if k not in _PRIVATE_KEYS}
    out.update(seat=None, hand=[], discard=None, legal=[])
    return out


def seat_facts(core: PreferansCore, seat: int) -> SeatFacts:
    """``seat``'s facts about the state as it is now (read once per state and seat)."""
    facts = core.facts.get(seat)
    if facts is None:
        facts = core.facts[seat] = SeatFacts(core, seat)
    return facts


def public_facts(core: PreferansCore) -> SeatFacts:
    """The public facts (:class:`SeatFacts` with ``public``: seats absolute, no own cards)."""
    facts = core.facts.get("public")
    if facts is None:
        facts = core.facts["public"] = SeatFacts(core, 0, public=True)
    return facts


def _own_discards(core: PreferansCore, deal: Deal, seat: int) -> int:
    """The cards ``seat`` itself discarded (its own actions: the declarer's discard, its
    all-pass exchange)."""
    return discards(core, deal)[seat]


def discards(core: PreferansCore, deal: Deal) -> list[int]:
    """Each seat's discarded cards (a mask by seat), kept on the core with the deal and its
    length of history (a deal's discards change only when it takes an action)."""
    kept = core.discards_kept
    if kept is not None and kept[0] is deal and kept[1] == len(deal.history):
        return kept[2]
    masks = [0] * len(deal.initial_hands)
    for who, action in deal.history:
        if action.cards and action.kind.value == "discard":
            for card in action.cards:
                masks[who] |= card.mask
    core.discards_kept = (deal, len(deal.history), masks)
    return masks


def _rel(seat: int, other: int) -> int:
    return (other - seat) % 3


def observation_tensor(core: PreferansCore, seat: int, out: np.ndarray | None = None
                       ) -> np.ndarray:
    """The observation tensor of ``seat`` (:data:`OBSERVATION_PIECES`)."""
    return _kept(core, seat, "obs", _observation_tensor, out)


def _kept(core: PreferansCore, seat: int, slot: str,
          build: Callable[[PreferansCore, SeatFacts], np.ndarray], out: np.ndarray | None
          ) -> np.ndarray:
    """A seat's tensor, built once per position and kept in its facts' ``slot``: a copy, or
    written into ``out``."""
    value = cached(core, seat_facts(core, seat), slot, build)
    if out is None:
        return value.copy()
    out[:] = value
    return out


def cached(core: PreferansCore, facts: SeatFacts, slot: str,
           build: Callable[[PreferansCore, SeatFacts], np.ndarray]) -> np.ndarray:
    """The tensor in ``facts``' ``slot``, built the first time (not a copy: read only)."""
    value = getattr(facts, slot)
    if value is None:
        value = build(core, facts)
        setattr(facts, slot, value)
    return value


def _observation_tensor(core: PreferansCore, facts: SeatFacts) -> np.ndarray:
    seat = facts.seat
    ones, values = _common(facts, OBS_AT, core)
    obs = facts.deal_obs
    at = OBS_AT
    if obs is not None:
        for c in obs["hand"]:
            ones.append(at["hand"] + _CARD[c])
        for s, cards in _played(obs).items():
            base = at["played"] + 32 * _rel(seat, s)
            ones += [base + c for c in cards]
        for s, c in obs["trick"]:
            ones.append(at["trick"] + 32 * _rel(seat, s) + _CARD[c])
        lead = _talon_lead(obs)
        if lead is not None:
            ones.append(at["talon_lead"] + lead)
        high = _bid(obs["bid"])
        if high is not None:
            ones.append(at["high_bid"] + high)
            bidder = _high_bidder(obs)
            if bidder is not None:
                ones.append(at["high_bidder"] + _rel(seat, bidder))
        for s, token in obs["auction"]:
            if token in ("PASS", "BLIND PASS"):
                ones.append(at["passed"] + _rel(seat, s))
        if 6 <= obs["min_bid"] <= 10:
            ones.append(at["min_bid"] + obs["min_bid"] - 6)
        for s, token in obs["defence"]:
            if token in _DEF:
                ones.append(at["defence"] + _N_DEF * _rel(seat, s) + _DEF[token])
    return _fill(None, OBSERVATION_SIZE, ones, values)


def information_state_tensor(core: PreferansCore, seat: int, out: np.ndarray | None = None
                             ) -> np.ndarray:
    """The information-state tensor of ``seat`` (:data:`INFORMATION_STATE_PIECES`)."""
    return _kept(core, seat, "info", _information_state_tensor, out)


def _information_state_tensor(core: PreferansCore, facts: SeatFacts) -> np.ndarray:
    seat = facts.seat
    ones, values = _common(facts, INFO_AT, core)
    obs = facts.deal_obs
    at = INFO_AT
    ones += [at["dealt_hand"] + c for c in mask_indices(facts.dealt)]
    if obs is not None:
        for c in obs["hand"]:
            ones.append(at["hand"] + _CARD[c])
        calls = obs["auction"]
        if len(calls) > MAX_CALLS:
            raise ValueError(f"an auction of {len(calls)} calls: the tensor has {MAX_CALLS}")
        width = 3 + _N_CALLS
        for k, (s, token) in enumerate(calls):
            base = at["auction"] + width * k
            ones += [base + _rel(seat, s), base + 3 + _CALL_ID[token]]
        width = 3 + _N_DEF
        for k, (s, token) in enumerate(obs["defence"][:MAX_DEFENCE]):
            base = at["defence"] + width * k
            ones.append(base + _rel(seat, s))
            if token in _DEF:
                ones.append(base + 3 + _DEF[token])
        tricks = list(obs["tricks"])
        if obs["trick"] or _talon_lead(obs) is not None:
            tricks.append({"leader": obs["trick"][0][0] if obs["trick"] else None,
                           "cards": obs["trick"], "talon": _talon_card(obs)})
        for k, trick in enumerate(tricks[:10]):
            base = at["tricks"] + _TRICK * k
            if trick["leader"] is not None:
                ones.append(base + _rel(seat, trick["leader"]))
            for s, c in trick["cards"]:
                ones.append(base + 3 + 32 * _rel(seat, s) + _CARD[c])
            if trick.get("talon"):
                ones.append(base + 3 + 96 + _CARD[trick["talon"]])
    return _fill(None, INFORMATION_STATE_SIZE, ones, values)


def _common(facts: SeatFacts, at: dict[str, int], core: PreferansCore
            ) -> tuple[list[int], list[tuple[int, float]]]:
    """The pieces both tensors share."""
    seat = facts.seat
    ones = [at["seat"] + seat, at["dealer"] + _rel(seat, facts.dealer),
            at["phase"] + _PHASE[facts.phase]]
    values: list[tuple[int, float]] = []
    if facts.to_act is not None:
        ones.append(at["to_act"] + _rel(seat, facts.to_act))
    if facts.pending is not None:
        ones.append(at["pending_discard"] + facts.pending)
    ones += [at["own_discard"] + c for c in mask_indices(facts.own_discard)]
    obs = facts.deal_obs
    flags = at["flags"]
    if core.config.pulya:
        ones.append(flags + FLAGS.index("pulya"))
    if facts.sheet is not None:
        values += [(at["sheet"] + k, v) for k, v in enumerate(_relative_sheet(facts.sheet, seat))]
    if obs is None:
        return ones, values
    for c in obs["talon"] or ():
        ones.append(at["talon"] + _CARD[c])
    for s, cards in obs["exposed"].items():
        base = at["exposed"] + 32 * _rel(seat, int(s))
        ones += [base + _CARD[c] for c in cards]
    for s, n in enumerate(obs["hand_sizes"][:3]):
        values.append((at["hand_sizes"] + _rel(seat, s), n / 12))
    for s, n in enumerate(obs["tricks_won"][:3]):
        values.append((at["tricks_won"] + _rel(seat, s), n / 10))
    if obs["declarer"] is not None:
        ones.append(at["declarer"] + _rel(seat, obs["declarer"]))
    contract = _bid(obs["contract"])
    if contract is not None:
        ones.append(at["contract"] + contract)
    if obs["kind"] in _KIND:
        ones.append(at["kind"] + _KIND[obs["kind"]])
    if obs["open_defence"] is True:
        ones.append(flags)
    elif obs["open_defence"] is False:
        ones.append(flags + 1)
    for k, key in enumerate(FLAGS[2:7], 2):
        if obs.get(key):
            ones.append(flags + k)
    return ones, values


def _relative_sheet(sheet: list[float], seat: int) -> list[float]:
    """The sheet's features (absolute seats, :meth:`PreferansCore._write_sheet_features`) with
    the seats relative to ``seat``."""
    order = [(seat + r) % 3 for r in range(3)]
    out = [sheet[s] for s in order] + [sheet[3 + s] for s in order]
    out += [sheet[6 + 3 * i + j] for i in order for j in order]
    return out + [sheet[15 + s] for s in order] + [sheet[18]]


def _fill(out: np.ndarray | None, size: int, ones: list[int],
          values: list[tuple[int, float]]) -> np.ndarray:
    if out is None:
        out = np.zeros(size, np.float32)
    else:
        out.fill(0)
    if ones:
        out[ones] = 1.0
    for k, v in values:
        out[k] = v
    return out


def _played(obs: dict[str, Any]) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for trick in obs["tricks"]:
        for s, c in trick["cards"]:
            out.setdefault(s, []).append(_CARD[c])
    for s, c in obs["trick"]:
        out.setdefault(s, []).append(_CARD[c])
    return out


def _talon_card(obs: dict[str, Any]) -> str | None:
    """The all-pass talon card leading the trick in progress (three players)."""
    if obs["talon_lead"] is None or not obs["talon"]:
        return None
    return obs["talon"][len(obs["tricks"])] if len(obs["tricks"]) < len(obs["talon"]) else None


def _talon_lead(obs: dict[str, Any]) -> int | None:
    card = _talon_card(obs)
    return None if card is None else _CARD[card]


def _high_bidder(obs: dict[str, Any]) -> int | None:
    for s, token in reversed(obs["auction"]):
        if token not in ("PASS", "BLIND PASS", "SEE"):
            return s
    return None


# --- strings ---------------------------------------------------------------------------------
_SKIP: Final = ("players", "legal", "sheet", "game_finished")


def _obs_text(obs: dict[str, Any] | None) -> str:
    if obs is None:
        return "{}"
    return json.dumps({k: v for k, v in obs.items() if k not in _SKIP}, sort_keys=True,
                      separators=(",", ":"))


def sheet_text(core: PreferansCore) -> str:
    """A pulya's sheet as numbers, by absolute seat: pools, mountains, the whists each seat
    has written on each other, balances. With the current deal it is all a seat needs of
    the game so far (the earlier deals' cards change nothing to come), so the information
    state of a pulya stays the size of one deal's."""
    sheet = core.game.sheet
    whists = " ".join(str(w) for row in sheet.whists for w in row)
    return ("pool " + " ".join(str(p) for p in sheet.pool)
            + " mountain " + " ".join(str(m) for m in sheet.mountain)
            + f" whists {whists} balance " + " ".join(f"{b:g}" for b in core.balance))


def information_state_string(core: PreferansCore, seat: int) -> str:
    """Everything ``seat`` has seen, in order: in a pulya its earlier deals first."""
    facts = seat_facts(core, seat)
    if facts.info_string is None:
        facts.info_string = _information_state_string(core, facts)
    return facts.info_string


def _information_state_string(core: PreferansCore, facts: SeatFacts) -> str:
    parts = ["public" if facts.public else f"p{facts.seat}", f"phase {facts.phase}",
             f"dealer {facts.dealer}"]
    if facts.sheet is not None:
        parts += [f"deal {len(core.game.finished_deals) + (not core.over)}", sheet_text(core)]
    if not facts.public:
        parts.append(f"dealt {_cards(facts.dealt)}")
        parts.append(f"own discard {_cards(facts.own_discard)}")
    if facts.pending is not None:
        parts.append(f"discarding {DECK[facts.pending]}")
    parts.append(_obs_text(facts.deal_obs))
    return " | ".join(parts)


def observation_string(core: PreferansCore, seat: int) -> str:
    """The table as ``seat`` sees it now, in a line."""
    facts = seat_facts(core, seat)
    if facts.obs_string is None:
        facts.obs_string = _observation_string(core, facts)
    return facts.obs_string


def _observation_string(core: PreferansCore, facts: SeatFacts) -> str:
    obs = facts.deal_obs
    parts = ["public" if facts.public else f"p{facts.seat}", f"phase {facts.phase}",
             f"dealer {facts.dealer}"]
    if facts.sheet is not None:
        parts.append(sheet_text(core))
    if obs is None:
        return " | ".join(parts)
    if not facts.public:
        parts.append("hand " + " ".join(obs["hand"]))
    if facts.pending is not None:
        parts.append(f"discarding {DECK[facts.pending]}")
    if facts.own_discard:
        parts.append("own discard " + " ".join(str(DECK[c]) for c in
                                               mask_indices(facts.own_discard)))
    if obs["talon"]:
        parts.append("talon " + " ".join(obs["talon"]))
    parts.append(f"bid {obs['bid']} min {obs['min_bid']}")
    passed = sorted({s for s, t in obs["auction"] if t in ("PASS", "BLIND PASS")})
    parts.append("passed " + " ".join(map(str, passed)))
    if obs["contract"] is not None:
        parts.append(f"contract {obs['contract']} by {obs['declarer']}")
    if obs["defence"]:
        parts.append("defence " + " ".join(f"{s}:{t}" for s, t in obs["defence"]))
    if obs["open_defence"] is not None:
        parts.append("open" if obs["open_defence"] else "closed")
    for s, cards in sorted(obs["exposed"].items()):
        parts.append(f"open hand {s}: " + " ".join(cards))
    played = _played(obs)
    for s in sorted(played):
        parts.append(f"played by {s}: " + " ".join(str(DECK[c]) for c in played[s]))
    if obs["trick"] or _talon_card(obs):
        lead = _talon_card(obs)
        parts.append("trick " + (f"talon {lead} " if lead else "")
                     + " ".join(f"{s}:{c}" for s, c in obs["trick"]))
    parts.append("tricks " + " ".join(map(str, obs["tricks_won"])))
    if obs["kind"]:
        parts.append(f"kind {obs['kind']}")
    return " | ".join(parts)


# --- observers per kind of information (OpenSpiel's IIGObservationType) -------------------------
PRIVATE_PIECES: Final = ("seat", "dealt_hand", "hand", "pending_discard", "own_discard")
"""The pieces only the observing seat knows (its own cards and which seat it is)."""


def hidden_pieces(recall: bool) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """What no seat sees but the whole state holds, by absolute seat: every hand, the
    talon as dealt, the discards, a discard's first step (and, with ``recall``, the hands
    as dealt)."""
    return (("hands", (3, 32)),
            *((("dealt_hands", (3, 32)),) if recall else ()),
            ("talon_cards", (32,)), ("discards", (32,)), ("pending_discard", (32,)))


def _public_pieces(recall: bool) -> tuple[tuple[str, tuple[int, ...]], ...]:
    base = INFORMATION_STATE_PIECES if recall else OBSERVATION_PIECES
    return tuple(p for p in base if p[0] not in PRIVATE_PIECES)


STATE_PIECES: Final = _public_pieces(False) + hidden_pieces(False)
"""The global state (PettingZoo's ``state()``, OpenSpiel's perfect-information observer
without recall): the public pieces of the observation tensor, seats absolute, and the
hidden pieces (:func:`hidden_pieces`)."""
STATE_AT, STATE_SIZE = _offsets(STATE_PIECES)


class Layout:
    """The tensor and string of one kind of observer: ``public`` (what every seat sees,
    seats absolute, the same for every player), ``private`` (``"none"``, ``"single"``: the
    player's own cards, ``"all"``: every hidden card, seats absolute), ``recall`` (the deal
    so far rather than the table now). Public with single is the default tensor
    (:data:`OBSERVATION_PIECES`, :data:`INFORMATION_STATE_PIECES`)."""

    def __init__(self, recall: bool, public: bool, private: str) -> None:
        if private not in ("none", "single", "all"):
            raise ValueError(f"private information {private!r}: none, single or all")
        if not public and private == "none":
            raise ValueError("an observer of neither public nor private information "
                             "would see nothing")
        self.recall, self.public, self.private = recall, public, private
        base = INFORMATION_STATE_PIECES if recall else OBSERVATION_PIECES
        at = INFO_AT if recall else OBS_AT
        self.default = public and private == "single"
        if self.default:
            chosen = base
        elif private == "single":
            chosen = tuple(p for p in base if p[0] in PRIVATE_PIECES)
        elif public:
            chosen = _public_pieces(recall)
        else:
            chosen = ()
        self.pieces = chosen + (hidden_pieces(recall) if private == "all" else ())
        self.size = sum(int(np.prod(shape)) for _, shape in self.pieces)
        self._gather = np.array([i for name, shape in chosen
                                 for i in range(at[name], at[name] + int(np.prod(shape)))],
                                np.intp)
        self._slot = "info" if recall else "obs"
        self._build = _information_state_tensor if recall else _observation_tensor

    def tensor(self, core: PreferansCore, player: int, out: np.ndarray) -> np.ndarray:
        """Write ``player``'s tensor into ``out`` (of :attr:`size`)."""
        if self.default:
            out[:] = cached(core, seat_facts(core, player), self._slot, self._build)
            return out
        n = len(self._gather)
        if n:
            facts = seat_facts(core, player) if self.private == "single" else public_facts(core)
            out[:n] = cached(core, facts, self._slot, self._build)[self._gather]
        if self.private == "all":
            hidden_tensor(core, self.recall, out[n:])
        return out

    def string(self, core: PreferansCore, player: int) -> str:
        if self.default:
            return (information_state_string(core, player) if self.recall
                    else observation_string(core, player))
        parts = []
        if self.private == "single":
            parts.append(private_string(core, player))
        elif self.public:
            facts = public_facts(core)
            if self.recall:
                parts.append(_information_state_string(core, facts))
            else:
                parts.append(_observation_string(core, facts))
        if self.private == "all":
            parts.append(hidden_string(core, self.recall))
        return " | ".join(parts)


def _hidden_masks(core: PreferansCore) -> tuple[list[int], list[int], int, int]:
    """Every hand now, every hand as dealt, the talon, the discards (absolute seats); while
    the cards are being dealt, those dealt so far."""
    deal = current_deal(core)
    if deal is None:
        from .core import dealing_seats

        hands = [0, 0, 0]
        for k, card in enumerate(core.dealt[:30]):
            hands[dealing_seats(core.game.dealer)[k // 10]] |= 1 << card
        talon = 0
        for card in core.dealt[30:]:
            talon |= 1 << card
        return hands, list(hands), talon, 0
    hands = [int(h.mask) for h in deal.hands[:3]]
    dealt = [int(h.mask) for h in deal.initial_hands[:3]]
    talon = 0
    for card in deal.talon:
        talon |= card.mask
    every = 0
    for mask in discards(core, deal)[:3]:
        every |= mask
    return hands, dealt, talon, every


def hidden_tensor(core: PreferansCore, recall: bool, out: np.ndarray) -> np.ndarray:
    """The hidden pieces (:func:`hidden_pieces`) into ``out``."""
    out.fill(0)
    hands, dealt, talon, discards = _hidden_masks(core)
    at = 0
    for masks in ([hands, dealt] if recall else [hands]):
        for seat in range(3):
            out[[at + 32 * seat + c for c in mask_indices(masks[seat])]] = 1.0
        at += 96
    for mask in (talon, discards):
        out[[at + c for c in mask_indices(mask)]] = 1.0
        at += 32
    if core.pending is not None:
        out[at + core.pending] = 1.0
    return out


def state_tensor(core: PreferansCore, out: np.ndarray | None = None) -> np.ndarray:
    """The global state (:data:`STATE_PIECES`)."""
    if out is None:
        out = np.zeros(STATE_SIZE, np.float32)
    return _STATE_LAYOUT.tensor(core, 0, out)


def _cards(mask: int) -> str:
    return " ".join(str(DECK[c]) for c in mask_indices(mask))


def hidden_string(core: PreferansCore, recall: bool) -> str:
    hands, dealt, talon, discards = _hidden_masks(core)
    parts = [f"hand {s}: {_cards(hands[s])}" for s in range(3)]
    if recall:
        parts += [f"dealt {s}: {_cards(dealt[s])}" for s in range(3)]
    parts += [f"talon cards {_cards(talon)}", f"discards {_cards(discards)}"]
    if core.pending is not None:
        parts.append(f"discarding {DECK[core.pending]}")
    return " | ".join(parts)


def private_string(core: PreferansCore, seat: int) -> str:
    """The seat's own cards: as dealt, held, discarded, a discard's first step."""
    facts = seat_facts(core, seat)
    obs = facts.deal_obs
    parts = [f"p{seat}", f"dealt {_cards(facts.dealt)}",
             "hand " + " ".join(obs["hand"] if obs is not None else ()),
             f"own discard {_cards(facts.own_discard)}"]
    if facts.pending is not None:
        parts.append(f"discarding {DECK[facts.pending]}")
    return " | ".join(parts)


_STATE_LAYOUT: Final = Layout(False, True, "all")
