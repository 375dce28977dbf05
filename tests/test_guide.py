"""The rules guide: the worked deal replays through the engine, every scoring example on
the page is what the engine's sheet scores, and the generated tables match the rules."""

from __future__ import annotations

import html
import re
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from preferans.cards import Card, CardSet, Suit
from preferans.deal import Deal, Phase
from preferans.guide import render_guide, worked_deal, worked_deal_record
from preferans.guide.examples import EXAMPLES, score
from preferans.record import read_record, replay
from preferans.rules import PRESETS, Rules

AUCTION = ["6S", "6C", "PASS", "6C", "6D", "6D", "6H", "6H", "PASS"]


@pytest.fixture(scope="module")
def page() -> str:
    return render_guide(standalone=True)


def _text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


# --- the worked deal (§12) ------------------------------------------------------------------
def test_worked_deal_record_tells_the_guides_story():
    record = read_record(worked_deal_record())
    assert record["rules"] == {"preset": "guide"} or record["rules"] == "guide"
    assert record["players"] == ["A", "B", "C"]
    (deal,) = record["deals"]
    assert deal["dealer"] == 2
    hand_a = CardSet.parse(deal["hands"][0])
    assert Card.parse("7C") in hand_a and Card.parse("8D") in hand_a
    assert deal["talon"] == ["AH", "9C"]
    actions = deal["actions"]
    assert actions[:9] == AUCTION
    assert actions[9:13] == ["DISCARD 7C 8D", "7H", "WHIST", "WHIST"]
    assert len(actions) == 13 + 30


def test_worked_deal_every_action_is_legal_and_the_tricks_fit_the_text():
    record = read_record(worked_deal_record())
    data = record["deals"][0]
    deal = Deal(
        Rules.preset("guide"),
        data["dealer"],
        [CardSet.parse(h) for h in data["hands"]],
        [Card.parse(c) for c in data["talon"]],
    )
    assert deal.first_hand == 0
    for token in data["actions"]:
        legal = {str(a) for a in deal.legal_actions()}
        assert token in legal, (token, deal.phase, deal.to_act, sorted(legal))
        assert deal.why_illegal(token) is None
        deal.apply(token)
    assert deal.phase is Phase.DONE
    assert deal.declarer == 0 and str(deal.contract) == "7H"
    assert str(deal.bid) == "6H"
    assert sorted(str(c) for c in deal.discard) == ["7C", "8D"]
    leaders = [t.leader for t in deal.tricks]
    winners = [t.winner for t in deal.tricks]
    assert leaders[0] == 0  # first hand leads the first trick
    assert [n + 1 for n, seat in enumerate(leaders) if seat == 1] == [4, 5, 9]
    assert all(seat in (0, 1) for seat in leaders)
    assert [n + 1 for n, seat in enumerate(winners) if seat == 1] == [3, 4, 8]
    assert 2 not in winners
    assert list(deal.tricks_won) == [7, 3, 0]


def test_worked_deal_sheet_is_the_one_the_guide_states():
    game = replay(read_record(worked_deal_record()))
    sheet = game.sheet.to_json()
    assert sheet["pool"] == [4, 0, 0]
    assert sheet["mountain"] == [0, 0, 0]
    assert sheet["whists"] == [[0, 0, 0], [12, 0, 0], [0, 0, 0]]
    assert sheet["balance"] == [14.667, -1.333, -13.333]
    assert sheet["deals"][0]["change"]["whists"] == [[0, 0, 0], [12, 0, 0], [0, 0, 0]]
    assert game.sheet.balance() == [Fraction(44, 3), Fraction(-4, 3), Fraction(-40, 3)]


def test_worked_deal_on_the_page_is_drawn_from_the_replay(page):
    wd = worked_deal()
    game = replay(read_record(worked_deal_record()))
    played = game.finished_deals[0]
    # the trick table: one row per trick, cards in play order, the winner marked
    rows = re.findall(r'<tr data-trick="(\d+)">(.*?)</tr>', page, re.S)
    assert [int(n) for n, _ in rows] == list(range(1, 11))
    for (_, row), trick in zip(rows, played.tricks, strict=True):
        cells = re.findall(r"<td( class=\"won\")?>([ABC]): (.*?)</td>", row, re.S)
        assert [(who, _text(card)) for _, who, card in cells] == [
            ("ABC"[seat], card.symbol) for seat, card in trick.cards
        ]
        won = [who for mark, who, _ in cells if mark]
        assert won == ["ABC"[trick.winner]]
    # the hand diagrams are the hands after the discard
    for seat, hand in enumerate(wd.hands_after_discard):
        start = page.index(f'<div class="hand seat-{"ABC"[seat]}">')
        end = min(i for i in (page.find('<div class="hand seat-', start + 1),
                              page.find('<div class="middle">', start)) if i > 0)
        rows = [_text(r) for r in re.findall(r'<div class="row">(.*?)</div>', page[start:end])]
        expected = []
        for suit in Suit:
            ranks = " ".join(c.rank.label for c in reversed(list(hand.of_suit(suit))))
            expected.append(suit.symbol + (ranks or "—"))
        assert rows == expected
    a_after = wd.hands_after_discard[0]
    assert Card.parse("AH") in a_after and Card.parse("9C") in a_after
    assert Card.parse("7C") not in a_after and Card.parse("8D") not in a_after
    # the sheet lines and the summary
    assert "A made 7♥ (+4 pool); B wrote 12 whists on A" in page
    sheet_table = re.search(r'<table class="sheet" id="worked-sheet">(.*?)</table>', page, re.S)
    assert sheet_table is not None
    rows_text = [
        [_text(c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", r)]
        for r in re.findall(r"<tr>(.*?)</tr>", sheet_table.group(1), re.S)[1:]
    ]
    assert rows_text == [["A", "4", "0", "—", "0", "0"], ["B", "0", "0", "12", "—", "0"],
                         ["C", "0", "0", "0", "0", "—"]]
    balance = re.search(r'id="worked-balance">(.*?)</table>', page, re.S)
    assert balance is not None
    cells = [_text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", balance.group(1))]
    assert cells == ["14.667", "-1.333", "-13.333"]
    assert "B leads tricks 4, 5 and 9" in page


def test_declarer_can_take_exactly_seven_double_dummy():
    """The guide says A really can take seven tricks, and no more, against any defence."""
    solver = pytest.importorskip("preferans.solver")
    wd = worked_deal()
    position = solver.Position.from_json({
        "format": "preferans-position/1",
        "hands": [h.to_list() for h in wd.hands_after_discard],
        "trick": [],
        "leader": 0,
        "trump": "H",
        "mode": "contract",
        "declarer": 0,
    })
    assert solver.solve(position) == 7


# --- the scoring examples (§09, §10, §11, §13) ----------------------------------------------
@pytest.mark.parametrize("example", EXAMPLES, ids=[e.key for e in EXAMPLES])
def test_scoring_example_is_what_the_engine_scores(example, page):
    change = score(example)
    assert change.pool == list(example.pool)
    assert change.mountain == list(example.mountain)
    assert change.whists == [list(row) for row in example.whists]
    if example.pool_after is not None:
        assert change.pool_after == list(example.pool_after)
    # the page prints exactly these numbers
    box = re.search(rf'<div class="example" id="ex-{example.key}"(.*?)</div>', page, re.S)
    assert box is not None, example.key
    body = box.group(1)
    assert f'data-pool="{",".join(str(int(x)) for x in change.pool)}"' in body
    assert f'data-mountain="{",".join(str(int(x)) for x in change.mountain)}"' in body
    whists = ";".join(",".join(str(int(x)) for x in row) for row in change.whists)
    assert f'data-whists="{whists}"' in body
    rows = re.findall(r"<tr><td>(.*?)</tr>", body, re.S)
    assert len(rows) == 3
    for i, row in enumerate(rows):
        pool = re.search(r'data-col="pool">([^<]*)<', row).group(1)
        mountain = re.search(r'data-col="mountain">([^<]*)<', row).group(1)
        whist_cell = re.search(r'data-col="whists">([^<]*)<', row).group(1)
        assert pool == (f"+{int(change.pool[i])}" if change.pool[i] else "—")
        assert mountain == (f"+{int(change.mountain[i])}" if change.mountain[i] else "—")
        written = [f"{int(w)} on {'ABC'[j]}" for j, w in enumerate(change.whists[i]) if w]
        assert whist_cell == (", ".join(written) or "—")


def test_explanations_state_the_engines_totals():
    """Each example's prose names the totals the engine writes."""
    for ex in EXAMPLES:
        change = score(ex)
        numbers = {int(x) for x in change.pool + change.mountain if x}
        numbers |= {int(w) for row in change.whists for w in row if w}
        for number in numbers:
            assert re.search(rf"\b{number}\b", ex.explanation), (ex.key, number)


# --- tables generated from the rules --------------------------------------------------------
def test_contract_table_comes_from_the_rules(page):
    rules = Rules.preset("guide")
    table = re.search(r'id="contract-values">(.*?)</table>', page, re.S)
    assert table is not None
    rows = re.findall(r"<tr><td>(\d+) tricks</td><td class=\"n\">(\d+)</td>"
                      r"<td class=\"n\">(\d+)</td>", table.group(1))
    assert [(int(a), int(b), int(c)) for a, b, c in rows] == [
        (level, rules.contract_value(level), rules.quota(level)) for level in (6, 7, 8, 9, 10)
    ]


def test_presets_table_lists_every_option_of_every_preset(page):
    table = re.search(r'id="presets">(.*?)</table>', page, re.S)
    assert table is not None
    for name in ("Our guide's Sochi", "Sochi", "Leningrad", "Rostov"):
        assert f">{name}</th>" in table.group(1).replace("&#39;", "'")
    row = re.search(r"<td>whist scale</td>(.*?)</tr>", table.group(1), re.S)
    assert row is not None
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", row.group(1))[:4]
    assert cells == [str(PRESETS[p].whist_scale) for p in ("guide", "sochi", "leningrad",
                                                             "rostov")]


# --- the page as a whole --------------------------------------------------------------------
def test_page_has_all_sections_and_sources(page):
    for number in range(1, 17):
        assert f'id="s{number:02d}"' in page
    for heading in ("Common questions", "Sources", "A complete worked deal"):
        assert heading in page
    for source in ("Depaulis", "Code of Preferans", "1996"):
        assert source in page
    assert "http" not in re.sub(r'http-equiv|xmlns="[^"]*"', "", page)  # no invented links


def test_standalone_page_is_self_contained_and_the_served_one_links_home(page):
    assert "<link" not in page and "<script src" not in page
    assert 'href="/"' not in page
    assert "Print this guide" in page and "@media print" in page
    served = render_guide()
    assert 'href="/"' in served


def test_cli_writes_the_guide(tmp_path):
    from preferans.cli import app

    out = tmp_path / "guide.html"
    result = CliRunner().invoke(app, ["guide", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == render_guide(standalone=True)
    bad = CliRunner().invoke(app, ["guide", "--out", str(tmp_path / "no" / "dir" / "g.html")])
    assert bad.exit_code == 2
    assert "cannot write" in bad.output
