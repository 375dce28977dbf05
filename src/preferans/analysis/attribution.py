"""Attribution: what each decision of a match cost, by double-dummy replay of the records.

Every decision with more than one legal choice is replayed from the true deal (all hands
known) and given a **cost**: the value of the best choice minus the value of the choice
made (never negative), from the decider's side.  Decision types and their values:

- **card play** (by the role of the hand played: ``declarer``, ``whister``, ``passer``,
  ``misère declarer``, ``misère defender``, ``all-pass``; a lone open whister playing the
  passer's hand counts as ``whister``): the double-dummy tricks of every legal card
  (:func:`preferans.solver.solve_moves`), the declarer's tricks for a contract (the
  declarer maximises, the defenders minimise), the misère declarer's (he minimises, the
  defenders maximise), the card player's own in an all-pass (he minimises against the
  other two). Cost in **tricks**.
- **discard** and **contract** (the declarer after taking the talon): for every discard
  and every legal contract, the declarer's balance change (whists, the rules' scoring on
  the sheet before the deal: :class:`preferans.players.utility.ScoreModel`) when both
  defenders whist and the contract takes its double-dummy tricks from the first lead.  A
  discard is worth its best contract; the discard's cost is the best discard's value minus
  the value of the discard made (each with its best contract), the contract's cost the best
  contract's value after the discard made minus the value of the contract named.  Cost in
  **whists**.
- **whist** (``WHIST`` / ``PASS`` / ``HALF``), **open/closed**, **bid**: the caller's
  balance change when the deal goes on from the call to its end as recorded where it still
  can — every later call is the recorded call of the same seat in the same phase when that
  is legal; otherwise an auction call is the lowest legal game bid if the seat makes that
  game double dummy (its best game as declarer, the talon taken, the best discard made),
  else ``PASS``; a defence call ``WHIST``; a discard and contract the double-dummy best for
  that declarer (above); anything else the first legal action — and is then played double
  dummy (the declarer's tricks; the defenders' tricks shared evenly between them). An
  all-pass counts the caller's own tricks double dummy against the other two, scaled by
  :data:`preferans.players.allpass.ALLPASS_REAL` (real play took 0.75 of that paranoid
  count), the rest shared evenly.  A passed contract or a
  standing half-whist scores as the sheet says.  Every legal whist and open/closed call is
  tried; of the bids, the bid made, ``PASS``, the lowest legal game bid and ``MISERE``
  (the contract may be raised after the discard, so a higher game bid differs from the
  lowest only by shutting out the others' later bids).  Cost in **whists**.

Double dummy sees every card, so an open and a closed defence take the same tricks: the
open/closed cost is only the scoring difference, and what a closed defence is worth shows
as the declarer's card-play cost against it.

:func:`attribute` adds up the costs per player and decision type; :func:`compare` sets two
players against each other on the same boards (or games): for each board, each player's
cost per deal played over the rotations, the difference averaged over boards with a 95%
interval.

Three-player rules without the structural variants (Rogue, Classical's halves, blind
bids, Racing) only; other decisions are not scored.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections import defaultdict, deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..actions import ActionKind
from ..bids import Bid
from ..cards import Card, CardSet, Suit
from ..deal import Deal, Phase
from ..game import Game
from ..match.pulya import mean_interval
from ..players.allpass import ALLPASS_REAL
from ..players.sampling import World
from ..players.solving import play_position
from ..players.utility import ScoreModel
from ..players.view import SeatView
from ..rules import Rules
from ..solver import Position, solve, solve_batch, solve_moves

CALL_TYPES = ("bid", "discard", "contract", "whist", "open/closed")
PLAY_ROLES = ("declarer", "whister", "passer", "misère declarer", "misère defender", "all-pass")
TYPES = (*CALL_TYPES, *(f"play: {r}" for r in PLAY_ROLES))

_PHASE_TYPE = {
    Phase.AUCTION: "bid",
    Phase.DISCARD: "discard",
    Phase.CONTRACT: "contract",
    Phase.DEFENCE: "whist",
    Phase.DEFENCE_MODE: "open/closed",
}


class AttributionError(ValueError):
    """Records the attribution cannot read or score (the message says which and why)."""


@dataclass
class Decision:
    """One scored decision."""

    board: str
    rotation: int
    deal: int
    seat: int
    player: str
    kind: str  # one of TYPES
    token: str
    best: str
    cost: float

    @property
    def unit(self) -> str:
        return "tricks" if self.kind.startswith("play") else "whists"


@dataclass
class RecordResult:
    """The decisions of one record, and the deals each player played in it."""

    board: str
    rotation: int
    decisions: list[Decision]
    deals: dict[str, int]  # player → seat-deals played


def player_of(name: str) -> str:
    """The level in a match's seat name (``crazy0`` → ``crazy``)."""
    return re.sub(r"\d+$", "", name)


def check_rules(rules: Rules) -> None:
    problems = []
    if rules.players != 3:
        problems.append(f"{rules.players} players")
    if rules.rogue != "none":
        problems.append("Rogue")
    if rules.classical_halves:
        problems.append("Classical halves")
    if rules.blind_bids:
        problems.append("blind bids")
    if rules.racing_rounds:
        problems.append("Racing")
    if problems:
        raise AttributionError("attribution scores three-player rules without the structural "
                               f"variants; these records have {', '.join(problems)}")


class DealAnalyser:
    """Scores the decisions of one deal, the true hands known."""

    def __init__(self, rules: Rules, deal: Deal, sheet: dict[str, Any], streak: int) -> None:
        self.rules = rules
        self.start = deal.copy()
        self.sheet = sheet
        self.streak = streak
        self._models: dict[int, ScoreModel] = {}
        self._dd: dict[Any, int] = {}
        self._tricks: dict[tuple[int, bool], dict[str, dict[int | None, int]]] = {}
        self._best_bid: dict[int, Bid | None] = {}
        self.discarded: tuple[Deal, str] | None = None
        """The deal at the declarer's discard and the discard made (once made)."""

    def model(self, seat: int) -> ScoreModel:
        m = self._models.get(seat)
        if m is None:
            m = self._models[seat] = ScoreModel(self.rules, seat, dealer=self.start.dealer,
                                                sheet=self.sheet, allpass_streak=self.streak)
        return m

    # --- double-dummy values -------------------------------------------------------------
    def _position(self, deal: Deal, mode: str, side: int) -> Position:
        seat = deal.to_act
        assert seat is not None
        view = SeatView.from_observation(deal.observation(seat))
        world = World([deal.hand(s).mask for s in range(view.players)],
                      view.talon_mask & ~view.played)
        return play_position(view, world, mode=mode, side=side,
                             allpass_talon=self.rules.allpass_talon)

    def _mode(self, deal: Deal, seat: int) -> tuple[str, int]:
        """The solver's mode and counted side for a deal in play, valued for ``seat``."""
        if deal.kind == "allpass":
            return "allpass", seat
        assert deal.declarer is not None
        return ("misere" if deal.kind == "misere" else "contract"), deal.declarer

    def play_value(self, deal: Deal, seat: int) -> float:
        """``seat``'s balance change when ``deal`` (at the first lead) is played double
        dummy from here."""
        assert not deal.tricks and not deal.current_trick
        mode, side = self._mode(deal, seat)
        pos = self._position(deal, mode, side)
        key = (pos.hands, pos.trick, pos.leader, pos.trump, pos.mode, pos.side, pos.talon_leads)
        tricks = self._dd.get(key)
        if tricks is None:
            tricks = self._dd[key] = solve(pos)  # at the first lead: every trick to come
        if mode != "allpass":
            return self._value_at(deal, seat, side, tricks)
        # the solver's all-pass is paranoid (the other two play together against the hand):
        # real play takes ALLPASS_REAL of it, read between the two whole trick counts
        real = min(10.0, ALLPASS_REAL * tricks)
        lo = int(real)
        frac = real - lo
        value = self._value_at(deal, seat, side, lo)
        if frac:
            value = value * (1 - frac) + self._value_at(deal, seat, side, lo + 1) * frac
        return value

    def _value_at(self, deal: Deal, seat: int, side: int, tricks: int) -> float:
        """``seat``'s balance change when ``side`` takes ``tricks`` and the other two share
        the rest evenly."""
        counts = [0] * self.rules.players
        counts[side] = tricks
        others = [s for s in range(self.rules.players) if s != side]
        rest = 10 - tricks
        counts[others[0]], counts[others[1]] = rest - rest // 2, rest // 2
        # the engine's own outcome of the deal as it stands, with these tricks
        outcome = dataclasses.replace(deal._outcome(), tricks=tuple(counts))
        return self.model(seat).value(outcome)

    def declarer_tricks(self, deal: Deal) -> dict[str, dict[int | None, int]]:
        """For the declarer at the discard: each discard's double-dummy tricks per strain
        (``None``: no trump; misère after a misère auction: key ``"misere"``)."""
        declarer = deal.declarer
        assert declarer is not None and deal.bid is not None
        misere = deal.bid.misere
        key = (declarer, misere)
        hit = self._tricks.get(key)
        if hit is not None:
            return hit
        discards = [str(a) for a in deal.legal_actions() if a.kind is ActionKind.DISCARD]
        strains: list[int | None] = [None] if misere else [0, 1, 2, 3, None]
        positions = []
        for token in discards:
            d = deal.copy()
            d.apply(token)
            hands = tuple(d.hand(s).mask for s in range(3))
            for trump in strains:
                positions.append(Position(hands=hands, leader=d.first_hand, trump=trump,
                                          mode="misere" if misere else "contract",
                                          side=declarer))
        values = solve_batch(positions, threads=2)
        out: dict[str, dict[int | None, int]] = {}
        for i, token in enumerate(discards):
            out[token] = dict(zip(strains, values[i * len(strains):(i + 1) * len(strains)],
                                  strict=True))
        self._tricks[key] = out
        return out

    def contract_values(self, deal: Deal, discard: str) -> dict[str, float]:
        """The declarer's value of each legal contract after ``discard`` (both defenders
        whisting, double-dummy tricks)."""
        declarer = deal.declarer
        assert declarer is not None
        tricks = self.declarer_tricks(deal)[discard]
        d = deal.copy()
        d.apply(discard)
        model = self.model(declarer)
        defenders = model.defenders(declarer)
        out: dict[str, float] = {}
        for a in d.legal_actions():
            if a.kind is not ActionKind.CONTRACT or a.bid is None:
                continue
            bid: Bid = a.bid
            t = tricks[None] if bid.misere or bid.trump is None else tricks[int(bid.trump)]
            table = model.contract_table(declarer, bid,
                                         whisters=() if bid.misere else defenders)
            out[str(a)] = table[t]
        return out

    def dd_best_bid(self, seat: int) -> Bid | None:
        """The highest game ``seat`` makes double dummy as declarer, the talon taken and the
        best discard made (``None``: not even a six)."""
        if seat in self._best_bid:
            return self._best_bid[seat]
        d = self.start.copy()
        for _ in range(60):
            if d.phase is not Phase.AUCTION:
                break
            legal = d.legal_actions()
            tokens = [str(a) for a in legal]
            games = [a for a in legal if a.kind is ActionKind.BID and a.bid is not None
                     and not a.bid.misere]
            if d.to_act == seat and games:
                d.apply(str(games[0]))
            else:
                d.apply("PASS" if "PASS" in tokens else tokens[0])
        best: Bid | None = None
        if d.phase is Phase.DISCARD and d.declarer == seat:
            tricks = self.declarer_tricks(d)
            for strain in (0, 1, 2, 3, None):
                t = max(v[strain] for v in tricks.values())
                if t >= 6:
                    bid = Bid(t, None if strain is None else Suit(strain))
                    if best is None or best < bid:
                        best = bid
        self._best_bid[seat] = best
        return best

    def discard_values(self, deal: Deal) -> dict[str, float]:
        """The declarer's value of each legal discard, each with its best contract."""
        return {d: max(self.contract_values(deal, d).values(), default=0.0)
                for d in self.declarer_tricks(deal)}

    # --- completing a deal from a call ------------------------------------------------------
    def complete(self, deal: Deal, future: Sequence[tuple[int, Phase, str]], seat: int) -> float:
        """``seat``'s value of ``deal`` (just after a call) gone on to its end: see the
        module docstring."""
        queues: dict[tuple[int, Phase], deque[str]] = defaultdict(deque)
        for s, phase, token in future:
            if phase is not Phase.PLAY:
                queues[(s, phase)].append(token)
        d = deal.copy()
        discarded = self.discarded
        for _ in range(200):
            if d.phase is Phase.DONE:
                return self.model(seat).value(d.outcome())
            if d.phase is Phase.PLAY:
                return self.play_value(d, seat)
            actor = d.to_act
            assert actor is not None
            q = queues.get((actor, d.phase))
            token = q.popleft() if q else None
            if token is None or not d.is_legal(token):
                token = self._fallback(d, discarded)
            if d.phase is Phase.DISCARD:
                discarded = (d.copy(), token)
            d.apply(token)
        raise AttributionError("a deal's completion did not end")  # pragma: no cover

    def _fallback(self, d: Deal, discarded: tuple[Deal, str] | None) -> str:
        legal = [str(a) for a in d.legal_actions()]
        if d.phase is Phase.AUCTION:
            actor = d.to_act
            assert actor is not None
            games = [a for a in d.legal_actions() if a.kind is ActionKind.BID
                     and a.bid is not None and not a.bid.misere]
            best = self.dd_best_bid(actor)
            if games and best is not None and games[0].bid <= best:  # type: ignore[operator]
                return str(games[0])
            return "PASS" if "PASS" in legal else legal[0]
        if d.phase is Phase.DEFENCE:
            return "WHIST" if "WHIST" in legal else legal[0]
        if d.phase is Phase.DISCARD and self.declarer_tricks(d):
            values = self.discard_values(d)
            return max(values, key=lambda k: values[k])
        if d.phase is Phase.CONTRACT and discarded is not None:
            values = self.contract_values(*discarded)
            if values:
                return max(values, key=lambda k: values[k])
        return legal[0]

    # --- the decisions ---------------------------------------------------------------------
    def call_values(self, deal: Deal, future: Sequence[tuple[int, Phase, str]], token: str
                    ) -> dict[str, float]:
        """The decider's value of each call considered at this point (module docstring)."""
        seat = deal.to_act
        assert seat is not None
        legal = deal.legal_actions()
        tokens = [str(a) for a in legal]
        if deal.phase is Phase.DISCARD:
            return self.discard_values(deal) if self.declarer_tricks(deal) else {}
        if deal.phase is Phase.CONTRACT:
            return self.contract_values(*self.discarded) if self.discarded else {}
        if deal.phase is Phase.AUCTION:
            games = [str(a) for a in legal if a.kind is ActionKind.BID and a.bid is not None
                     and not a.bid.misere]
            wanted = {token, "PASS", "MISERE", *(games[:1])}
            tokens = [t for t in tokens if t in wanted]
        out: dict[str, float] = {}
        for t in tokens:
            d = deal.copy()
            d.apply(t)
            out[t] = self.complete(d, future, seat)
        return out

    def card_values(self, deal: Deal) -> tuple[dict[int, int], bool, str]:
        """The double-dummy value of each legal card of the hand to play (the counted
        side's tricks from here), whether that hand maximises it, and the hand's role."""
        seat = deal.to_act
        hand = deal.hand_to_play
        assert seat is not None and hand is not None
        mode, side = self._mode(deal, hand)
        values = solve_moves(self._position(deal, mode, side))
        maximise = (mode == "contract" and hand == side) or (mode == "misere" and hand != side)
        if mode == "allpass":
            role = "all-pass"
        elif mode == "misere":
            role = "misère declarer" if hand == side else "misère defender"
        elif hand == side:
            role = "declarer"
        elif seat in deal.whisters:
            role = "whister"
        else:
            role = "passer"
        return values, maximise, role

    def card_cost(self, deal: Deal, token: str) -> tuple[str, str, float]:
        """The role of the hand played, the double-dummy best card and the cost in tricks."""
        values, maximise, role = self.card_values(deal)
        best_value = max(values.values()) if maximise else min(values.values())
        chosen = values[Card.parse(token).index]
        best = next(Card.from_index(c) for c, v in values.items() if v == best_value)
        return role, str(best), float(abs(best_value - chosen))


def start_recorded_deal(game: Game, entry: dict[str, Any]
                        ) -> tuple[DealAnalyser, list[tuple[int, Phase, str]]]:
    """Deal a record's deal ``entry`` in ``game`` (its dealer, hands and talon): the deal's
    analyser (the sheet before it) and its steps, each (seat, phase, canonical token)."""
    game.dealer = entry["dealer"]
    sheet = game.sheet.to_json()
    streak = game.sheet.allpass_streak
    game.start_deal([CardSet.parse(h) for h in entry["hands"]], entry["talon"])
    deal = game.deal
    assert deal is not None
    steps: list[tuple[int, Phase, str]] = []
    probe = deal.copy()
    for token in entry["actions"]:
        token = str(probe.interpret(token))  # the canonical token (card order and all)
        steps.append((probe.to_act, probe.phase, token))  # type: ignore[arg-type]
        probe.apply(token)
    return DealAnalyser(game.rules, deal, sheet, streak), steps


def attribute_record(obj: dict[str, Any], name: str = "") -> RecordResult:
    """Score every decision of one record (a ``preferans-record/1`` object, with or without
    the ``match`` key of ``preferans match --records-dir``)."""
    from ..record import RecordError, read_record

    try:
        rec = read_record(obj)
    except RecordError as exc:
        raise AttributionError(f"{name}: {exc}") from None
    rules = Rules.from_json(rec["rules"])
    check_rules(rules)
    meta = obj.get("match") or {}
    lineup = list(meta.get("lineup") or [player_of(p) for p in rec["players"]])
    kind = "game" if "game" in meta else "board"
    board = f"{kind} {meta[kind]}" if kind in meta else name
    rotation = int(meta.get("rotation", 0))
    deals = rec["deals"]
    game = Game(rules, rec["players"], first_dealer=deals[0]["dealer"] if deals else 0)
    decisions: list[Decision] = []
    played: dict[str, int] = defaultdict(int)
    for i, entry in enumerate(deals):
        if "irregularity" in entry:
            raise AttributionError(f"{name}: deal {i + 1} is an irregularity; not scored")
        analyser, steps = start_recorded_deal(game, entry)
        for s in range(3):
            played[lineup[s]] += 1
        for k, (seat, phase, token) in enumerate(steps):
            deal = game.deal
            assert deal is not None
            if len(deal.legal_actions()) > 1:
                if phase is Phase.PLAY:
                    role, best, cost = analyser.card_cost(deal, token)
                    kind_name = f"play: {role}"
                    decisions.append(Decision(board, rotation, i, seat, lineup[seat],
                                              kind_name, token, best, cost))
                elif phase in _PHASE_TYPE:
                    if phase is Phase.DISCARD:
                        analyser.discarded = (deal.copy(), token)
                    values = analyser.call_values(deal, steps[k + 1:], token)
                    if values and token in values:
                        best = max(values, key=lambda t: values[t])
                        cost = max(0.0, values[best] - values[token])
                        decisions.append(Decision(board, rotation, i, seat, lineup[seat],
                                                  _PHASE_TYPE[phase], token, best, cost))
            game.apply(token)
    return RecordResult(board, rotation, decisions, dict(played))


def record_files(path: Path) -> list[Path]:
    """The record files of a records directory (``preferans match --records-dir``), or the
    one file given."""
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise AttributionError(f"{path} is neither a records directory nor a record file")
    files = sorted(p for p in path.glob("*.json") if p.name != "summary.json")
    if not files:
        raise AttributionError(f"{path} holds no record files (*.json)")
    return files


def attribute(
    files: Iterable[Path], progress: Callable[[int], None] | None = None
) -> list[RecordResult]:
    """Score every record file."""
    out = []
    for k, f in enumerate(files, 1):
        try:
            obj = json.loads(f.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise AttributionError(f"cannot read {f}: {exc}") from None
        out.append(attribute_record(obj, f.name))
        if progress:
            progress(k)
    return out


def totals(results: Sequence[RecordResult]) -> dict[str, Any]:
    """Per player and decision type: decisions, total cost and cost per deal played."""
    deals: dict[str, int] = defaultdict(int)
    for r in results:
        for p, n in r.deals.items():
            deals[p] += n
    out: dict[str, Any] = {}
    for p in sorted(deals):
        rows = {}
        for kind in TYPES:
            mine = [d for r in results for d in r.decisions if d.player == p and d.kind == kind]
            total = sum(d.cost for d in mine)
            rows[kind] = {
                "decisions": len(mine),
                "costly": sum(1 for d in mine if d.cost > 1e-9),
                "cost": round(total, 3),
                "cost_per_deal": round(total / deals[p], 4) if deals[p] else 0.0,
            }
        out[p] = {"deals": deals[p], "types": rows}
    return out


def compare(results: Sequence[RecordResult], a: str, b: str) -> dict[str, Any]:
    """``a`` against ``b`` on the same boards: per decision type, the mean over boards of
    (a's cost per deal − b's cost per deal), with a 95% interval over boards."""
    by_board: dict[str, list[RecordResult]] = defaultdict(list)
    for r in results:
        by_board[r.board].append(r)
    out: dict[str, Any] = {}
    for kind in (*TYPES, "calls (whists)", "card play (tricks)"):
        diffs = []
        for rows in by_board.values():
            per: dict[str, float] = {}
            for p in (a, b):
                n = sum(r.deals.get(p, 0) for r in rows)
                if not n:
                    break
                cost = sum(d.cost for r in rows for d in r.decisions
                           if d.player == p and _in_kind(d.kind, kind))
                per[p] = cost / n
            if len(per) == 2:
                diffs.append(per[a] - per[b])
        mean, lo, hi = mean_interval(diffs)
        out[kind] = {"boards": len(diffs), "difference_per_deal": round(mean, 4),
                     "ci95": [round(lo, 4), round(hi, 4)]}
    return out


def _in_kind(kind: str, group: str) -> bool:
    if group == "calls (whists)":
        return kind in CALL_TYPES
    if group == "card play (tricks)":
        return kind.startswith("play")
    return kind == group
