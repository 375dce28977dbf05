"""Build the scoring records in tests/records/ by searching the engine for plays.

Each record is a game (``preferans-record/1``) whose deals produce stated trick counts:
for every deal the script deals cards (the fixed cards a scenario names, the rest from a
seeded shuffle), runs the auction, discard, contract and defence calls the scenario names,
then searches the legal card plays depth first for a sequence that ends with exactly the
target tricks per seat.  The files are committed; the tests only read them.

Run from the repository root:  ``.venv/bin/python tests/tools/make_scoring_records.py``
(``--only NAME`` rebuilds one record).  Output is deterministic.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from preferans.actions import ActionKind
from preferans.bids import Bid
from preferans.cards import DECK, Card, CardSet
from preferans.deal import Deal, Phase
from preferans.rules import Rules
from preferans.sheet import Sheet

RECORDS = Path(__file__).resolve().parent.parent / "records"


@dataclass
class DealSpec:
    """One deal of a scenario.

    ``kind``: contract, misere, allpass, passed, halfwhist.  ``defence``: the calls in
    order (``("PASS", "HALF", "WHIST")`` reopens); ``mode``: OPEN or CLOSED for a lone
    whister; ``tricks``: the target per seat; ``fixed``: cards dealt to a seat for sure
    (``{0: "AH KH"}``), ``talon``: the talon if it matters.
    """

    kind: str
    tricks: tuple[int, ...] = (0, 0, 0)
    declarer: int | None = None
    contract: str | None = None
    defence: tuple[str, ...] = ()
    mode: str | None = None
    fixed: dict[int, str] = field(default_factory=dict)
    talon: str | None = None


@dataclass
class RecordSpec:
    name: str
    rules: dict[str, Any] | str
    deals: list[DealSpec]
    players: tuple[str, ...] = ("A", "B", "C")
    first_dealer: int = 0


class GiveUp(Exception):
    pass


def deal_cards(
    rng: random.Random, n: int, dealer: int, fixed: dict[int, str], talon: str | None
) -> tuple[list[list[Card]], list[Card]]:
    hands: list[list[Card]] = [[] for _ in range(n)]
    used: set[Card] = set()
    for seat, text in fixed.items():
        cards = list(CardSet.parse(text))
        hands[seat] = list(cards)
        used.update(cards)
    talon_cards = [Card.parse(t) for t in talon.split()] if talon else []
    used.update(talon_cards)
    rest = [c for c in DECK if c not in used]
    rng.shuffle(rest)
    for seat in range(n):
        want = 0 if (n == 4 and seat == dealer) else 10
        while len(hands[seat]) < want:
            hands[seat].append(rest.pop())
    while len(talon_cards) < 2:
        talon_cards.append(rest.pop())
    assert not rest
    return hands, talon_cards


def run_calls(deal: Deal, spec: DealSpec) -> None:
    """Auction, discard, contract and defence as the scenario says."""
    while deal.phase is Phase.AUCTION:
        seat = deal.to_act
        legal = deal.legal_actions()
        if spec.kind == "allpass" or seat != spec.declarer:
            deal.apply("PASS")
            continue
        if spec.contract == "MISERE":
            deal.apply("MISERE")
            continue
        bids = [a for a in legal if a.kind is ActionKind.BID and a.bid and not a.bid.misere]
        deal.apply(bids[0])
    if deal.phase is Phase.DISCARD:
        assert spec.contract is not None
        contract = Bid.parse(spec.contract)
        hand = list(deal.hand(deal.declarer))  # type: ignore[arg-type]
        if contract.misere:
            order = sorted(hand, key=lambda c: -int(c.rank))
        else:
            order = sorted(hand, key=lambda c: (c.suit == contract.trump, int(c.rank)))
        deal.apply(f"DISCARD {order[0]} {order[1]}")
        deal.apply(spec.contract)
    for call in spec.defence:
        if deal.phase is Phase.DEFENCE:
            deal.apply(call)
    if deal.phase is Phase.DEFENCE_MODE:
        deal.apply(spec.mode or "CLOSED")


def search_play(deal: Deal, target: tuple[int, ...], limit: int, rng: random.Random) -> list[str]:
    """Card tokens from here to the end of the deal giving ``target`` tricks (or GiveUp)."""
    failed: set[tuple] = set()
    nodes = 0

    def rec(d: Deal) -> list[str] | None:
        nonlocal nodes
        if d.phase is Phase.DONE:
            return [] if tuple(d.tricks_won) == tuple(target) else None
        if any(w > t for w, t in zip(d.tricks_won, target, strict=True)):
            return None
        key = (tuple(d.hands), tuple(d.current_trick), tuple(d.tricks_won), len(d.tricks),
               d.hand_to_play)
        if key in failed:
            return None
        nodes += 1
        if nodes > limit:
            raise GiveUp
        moves = d.legal_actions()
        rng.shuffle(moves)
        for move in moves:
            child = d.copy()
            child.apply(move)
            rest = rec(child)
            if rest is not None:
                return [str(move), *rest]
        failed.add(key)
        return None

    found = rec(deal)
    if found is None:
        raise GiveUp
    return found


def build_deal(rules: Rules, dealer: int, streak: int, spec: DealSpec, seed: int) -> Deal:
    for attempt in range(400):
        rng = random.Random(seed * 1000 + attempt)
        hands, talon = deal_cards(rng, rules.players, dealer, spec.fixed, spec.talon)
        deal = Deal(rules, dealer, hands, talon, allpass_streak=streak)
        run_calls(deal, spec)
        if deal.phase is not Phase.DONE:
            try:
                for token in search_play(deal, spec.tricks, 3000, rng):
                    deal.apply(token)
            except GiveUp:
                continue
        outcome = deal.outcome()
        if outcome.kind != spec.kind:
            raise SystemExit(f"deal ended as {outcome.kind}, not {spec.kind}: {deal.tokens()}")
        return deal
    raise SystemExit(f"no deal found for {spec}")


def build_record(spec: RecordSpec) -> dict[str, Any]:
    rules = Rules.from_json(spec.rules)
    sheet = Sheet(rules, spec.players)
    deals = []
    for i, ds in enumerate(spec.deals):
        dealer = (spec.first_dealer + i) % rules.players
        deal = build_deal(rules, dealer, sheet.allpass_streak, ds, seed=i + 1)
        sheet.record(deal.outcome())
        deals.append(
            {
                "dealer": dealer,
                "hands": [CardSet(h).to_list() for h in deal.initial_hands],
                "talon": [str(c) for c in deal.talon],
                "actions": deal.tokens(),
            }
        )
    return {
        "format": "preferans-record/1",
        "rules": spec.rules,
        "players": list(spec.players),
        "deals": deals,
    }


# --- the scenarios -------------------------------------------------------------------------
# Seats A=0, B=1, C=2; the first dealer is A, so deal 1 has B as first hand, deal 2 C, …

def C(declarer, contract, defence, tricks, mode=None, fixed=None, kind="contract"):
    return DealSpec(kind, tuple(tricks), declarer, contract, tuple(defence), mode, fixed or {})


def passed(declarer, contract):
    return DealSpec("passed", (0, 0, 0), declarer, contract, ("PASS", "PASS"))


def allpass(tricks, fixed=None):
    return DealSpec("allpass", tuple(tricks), fixed=fixed or {})


# C takes all ten all-pass tricks with the tops of every suit (A, B take none).
ALL_TOPS = {2: "AS KS QS AC KC QC AD KD AH KH"}
HEARTS = {0: "AH KH QH JH 10H"}


def scenarios() -> list[RecordSpec]:
    out: list[RecordSpec] = [
        # 001 (guide preset).  Deal 1: dealer A, first hand B; declarer B is defended by C
        # (first defender) then A.
        RecordSpec("guide_s09_made_7h_7_2_1", "guide", [
            C(1, "7H", ("WHIST", "WHIST"), (1, 7, 2), fixed={1: "AH KH QH JH"}),
        ]),
        RecordSpec("guide_s09_set_7h_6_3_1", "guide", [
            C(1, "7H", ("WHIST", "WHIST"), (1, 6, 3), fixed={1: "AH KH QH"}),
        ]),
        RecordSpec("guide_s09_short_6c_8_2_0", "guide", [
            C(1, "6C", ("WHIST", "WHIST"), (0, 8, 2), fixed={1: "AC KC QC JC AS"}),
        ]),
        RecordSpec("guide_s09_lone_whister_6s_5", "guide", [
            C(1, "6S", ("WHIST", "PASS"), (2, 5, 3), mode="OPEN", fixed={1: "AS KS"}),
        ]),
        RecordSpec("guide_s10_misere_two_tricks", "guide", [
            C(1, "MISERE", (), (4, 2, 4), kind="misere"),
        ]),
        RecordSpec("guide_s11_allpass_433_055", "guide", [
            allpass((3, 4, 3)),
            allpass((5, 5, 0)),
        ]),
    ]
    # 001 §13 (guide, pool 20): reach pools 19, 17, 14, then A's eight closes A's pool and
    # helps B and C; then C's 8 closes C's pool and the 2 left come off C's mountain.
    out.append(RecordSpec("guide_s13_pool_closing", "guide", [
        allpass((0, 0, 10), ALL_TOPS),            # pools 1, 1, 0; C mountain 10
        passed(0, "10S"), passed(0, "9S"),        # A 1+10+8 = 19
        passed(1, "10S"), passed(1, "8S"),        # B 1+10+6 = 17
        passed(2, "10S"), passed(2, "7S"),        # C 10+4 = 14
        passed(0, "8S"),                          # A +6: 1 to A, 3 to B, 2 to C
        passed(2, "8S"),                          # C +6: 4 close C, 2 off C's mountain
    ], first_dealer=2))
    for preset in ("sochi", "leningrad", "rostov"):
        out += preset_paths(preset)
    # 003 (sochi): the contract values 2, 4, 6, 8, 10 and misère 10, and the minimum bid
    # after raspasy.
    out.append(RecordSpec("sochi_003_contract_values", "sochi", [
        passed(0, "6S"), passed(1, "7S"), passed(2, "8S"), passed(0, "9S"), passed(1, "10S"),
        C(2, "MISERE", (), (5, 5, 0), kind="misere"),
    ], first_dealer=2))
    out.append(RecordSpec("sochi_003_raspasy_then_seven", "sochi", [
        allpass((4, 3, 3)),
        C(1, "7S", ("WHIST", "WHIST"), (2, 7, 1), fixed={1: "AS KS QS JS"}),
        allpass((3, 3, 4)),
    ], first_dealer=2))
    return out


WW = ("WHIST", "WHIST")


def preset_paths(preset: str) -> list[RecordSpec]:
    """Every scoring path of one preset; dealer C, so A (declarer) is first hand and is
    defended by B, then C — the seats of tests/test_sheet.py."""
    paths: dict[str, list[DealSpec]] = {
        "made": [C(0, "7H", WW, (7, 2, 1), fixed=HEARTS)],
        "no_shortage_4_0": [C(0, "6S", WW, (6, 4, 0))],
        "set_by_one": [C(0, "7H", WW, (6, 3, 1), fixed=HEARTS)],
        "set_by_two": [C(0, "6S", WW, (4, 3, 3))],
        "lone_open_set": [C(0, "6S", ("WHIST", "PASS"), (5, 4, 1), "OPEN")],
        "lone_closed_set": [C(0, "6S", ("WHIST", "PASS"), (5, 4, 1), "CLOSED")],
        "lone_closed_made": [C(0, "6S", ("WHIST", "PASS"), (6, 3, 1), "CLOSED")],
        "lone_short": [C(0, "6S", ("PASS", "WHIST"), (7, 2, 1), "OPEN")],
        "short_at_six": [C(0, "6C", WW, (8, 2, 0), fixed={0: "AC KC QC JC 10C"})],
        "short_at_seven": [C(0, "7D", WW, (9, 0, 1), fixed={0: "AD KD QD JD 10D AS"})],
        "short_at_eight": [C(0, "8D", WW, (10, 0, 0), fixed={0: "AD KD QD JD 10D 9D AS AC"})],
        "passed": [passed(0, "7H")],
        "halfwhist_6": [DealSpec("halfwhist", (0, 0, 0), 0, "6S", ("PASS", "HALF", "PASS"))],
        "halfwhist_7": [DealSpec("halfwhist", (0, 0, 0), 0, "7H", ("PASS", "HALF", "PASS"))],
        "halfwhist_reopened_set": [C(0, "6S", ("PASS", "HALF", "WHIST"), (5, 4, 1), "OPEN")],
        "misere_made": [C(0, "MISERE", (), (0, 5, 5), kind="misere")],
        "misere_failed": [C(0, "MISERE", (), (2, 4, 4), kind="misere")],
        "allpass_433": [allpass((4, 3, 3))],
        "allpass_055": [allpass((0, 5, 5))],
        "allpass_three_in_a_row": [allpass((4, 3, 3)), allpass((2, 3, 5)), allpass((3, 3, 4))],
        "pool_closing": [
            allpass((0, 0, 10), ALL_TOPS),        # pools 1, 1, 0
            passed(0, "9S"),                      # A 9
            passed(1, "8S"),                      # B 7
            passed(2, "7S"),                      # C 4
            passed(0, "8S"),                      # A +6: 1 A, 3 B, 2 C → 10, 10, 6
            passed(2, "8S"),                      # C +6: 4 close C, 2 overflow
        ],
    }
    rules: dict[str, Any] | str = preset
    out = []
    for name, deals in paths.items():
        r = {"preset": preset, "pool": 10} if name == "pool_closing" else rules
        out.append(RecordSpec(f"{preset}_{name}", r, deals, first_dealer=2))
    return out


def dump(record: dict[str, Any]) -> str:
    """JSON with one line per hand and per action list: readable and diff-friendly."""
    deals = []
    for d in record["deals"]:
        hands = ",\n      ".join(json.dumps(h) for h in d["hands"])
        deals.append(
            f'  {{"dealer": {d["dealer"]},\n'
            f'   "hands": [{hands}],\n'
            f'   "talon": {json.dumps(d["talon"])},\n'
            f'   "actions": {json.dumps(d["actions"])}}}'
        )
    head = {k: v for k, v in record.items() if k != "deals"}
    top = json.dumps(head, ensure_ascii=False)[:-1]
    return top + ',\n "deals": [\n' + ",\n".join(deals) + "\n ]}\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="build only the record with this name")
    args = parser.parse_args(argv)
    RECORDS.mkdir(parents=True, exist_ok=True)
    for spec in scenarios():
        if args.only and spec.name != args.only:
            continue
        record = build_record(spec)
        path = RECORDS / f"{spec.name}.json"
        path.write_text(dump(record))
        print(f"wrote {path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
