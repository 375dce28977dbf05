"""The Russian rules guide: the same worked deal, scoring examples and generated tables as the
English one, in Russian words from the catalogue, with no English word a player would read."""

from __future__ import annotations

import html
import re

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from preferans import i18n
from preferans.cards import Suit
from preferans.guide import render_guide, worked_deal, worked_deal_record
from preferans.guide.examples import EXAMPLES, score
from preferans.guide.local import LocalExample
from preferans.record import read_record, replay
from preferans.rules import PRESETS, Rules, option_docs

LATIN_WHITELIST = {"A", "B", "C"}
"""The players of the examples and of the worked deal are A, B and C; nothing else Latin."""


@pytest.fixture(scope="module")
def page() -> str:
    return render_guide(standalone=True, lang="ru")


def _text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def visible_words(page: str) -> set[str]:
    """The Latin words of the page's visible text (and its title attributes)."""
    body = re.sub(r"<style>.*?</style>", "", page, flags=re.S)
    titles = " ".join(re.findall(r'title="([^"]*)"', body))
    text = html.unescape(re.sub(r"<[^>]+>", " ", body)) + " " + html.unescape(titles)
    return set(re.findall(r"[A-Za-z][A-Za-z'’-]*", text))


def test_the_page_is_russian_with_no_english_word(page):
    assert '<html lang="ru">' in page
    assert visible_words(page) <= LATIN_WHITELIST, visible_words(page) - LATIN_WHITELIST
    assert not re.search(r"\b00[0-3]\b", _text(page))  # no source-file numbers
    for heading in ("Полный разбор одной раздачи", "Частые вопросы", "Источники"):
        assert heading in page
    for number in range(1, 17):
        assert f'id="s{number:02d}"' in page
    for word in ("пуля", "гора", "висты", "распасы", "мизер", "вист", "пас", "полвиста",
                 "«здесь»", "в светлую", "в тёмную", "прикуп"):
        assert word in _text(page), word


def test_the_worked_deal_in_russian(page):
    game = replay(read_record(worked_deal_record()))
    played = game.finished_deals[0]
    rows = re.findall(r'<tr data-trick="(\d+)">(.*?)</tr>', page, re.S)
    assert [int(n) for n, _ in rows] == list(range(1, 11))
    for (_, row), trick in zip(rows, played.tricks, strict=True):
        cells = re.findall(r"<td( class=\"won\")?>([ABC]): (.*?)</td>", row, re.S)
        assert [(who, _text(card)) for _, who, card in cells] == [
            ("ABC"[seat], i18n.card_text(card, "ru")) for seat, card in trick.cards
        ]
        assert [who for mark, who, _ in cells if mark] == ["ABC"[trick.winner]]
    wd = worked_deal()
    for seat, hand in enumerate(wd.hands_after_discard):
        start = page.index(f'<div class="hand seat-{"ABC"[seat]}">')
        end = page.find("</div>\n  <div class=", start + 1)
        got = [_text(r) for r in re.findall(r'<div class="row">(.*?)</div>', page[start:end])]
        expected = []
        for suit in Suit:
            ranks = " ".join(i18n.pgettext("rank", c.rank.label, "ru")
                             for c in reversed(list(hand.of_suit(suit))))
            expected.append(suit.symbol + (ranks or "—"))
        assert got == expected
    text = " ".join(_text(page).split())
    assert "A сыграл 7♥ (+4 в пулю); B записал на A 12 вистов" in text
    assert "Т♥ и 9♣" in text  # the talon, as Russian players write it
    assert "A: 6♣ здесь" in text and "C: пас" in text
    assert "B говорит «вист», C говорит «вист»" in text
    assert "На взятки 4, 5 и 9 ходит B" in text
    balance = re.search(r'id="worked-balance">(.*?)</table>', page, re.S)
    assert [_text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", balance.group(1))] == [
        "14.667", "-1.333", "-13.333"]


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.key for e in EXAMPLES])
def test_scoring_examples_in_russian_are_the_engines(example, page):
    change = score(example)
    box = re.search(rf'<div class="example" id="ex-{example.key}"(.*?)</div>', page, re.S)
    assert box is not None
    body = box.group(1)
    local = LocalExample(example, "ru")
    assert f"<h3>{html.escape(local.title)}</h3>" in body
    assert re.search(r"[А-Яа-я]", local.title) and re.search(r"[А-Яа-я]", local.explanation)
    numbers = {int(x) for x in change.pool + change.mountain if x}
    numbers |= {int(w) for row in change.whists for w in row if w}
    for number in numbers:
        assert re.search(rf"\b{number}\b", local.explanation), (example.key, number)
    rows = re.findall(r"<tr><td>(.*?)</tr>", body, re.S)
    for i, row in enumerate(rows):
        whist_cell = re.search(r'data-col="whists">([^<]*)<', row).group(1)
        written = [f"{int(w)} на {'ABC'[j]}" for j, w in enumerate(change.whists[i]) if w]
        assert whist_cell == (", ".join(written) or "—")
        pool = re.search(r'data-col="pool">([^<]*)<', row).group(1)
        assert pool == (f"+{int(change.pool[i])}" if change.pool[i] else "—")


def test_contract_table_in_russian(page):
    rules = Rules.preset("guide")
    table = re.search(r'id="contract-values">(.*?)</table>', page, re.S)
    rows = re.findall(r"<tr><td>(\d+) взяток</td><td class=\"n\">(\d+)</td>"
                      r"<td class=\"n\">(\d+)</td>\s*<td>([^<]*)</td><td>([^<]*)</td>",
                      table.group(1))
    assert [(int(a), int(b), int(c)) for a, b, c, _, _ in rows] == [
        (level, rules.contract_value(level), rules.quota(level)) for level in (6, 7, 8, 9, 10)]
    assert [d for *_, d, _ in rows] == ["по 2", "по 1", "второй вистующий",
                                       "второй вистующий", "второй вистующий"]
    assert [h for *_, h in rows] == ["4 виста", "4 виста", "—", "—", "—"]


def test_presets_table_in_russian(page):
    table = re.search(r'id="presets">(.*?)</table>', page, re.S).group(1)
    for name in ("guide", "sochi", "leningrad", "rostov"):
        assert f'data-preset="{name}">{html.escape(i18n.preset_description(name, "ru"))}</th>' \
            in table
    for name in option_docs():
        row = re.search(rf'<tr data-option="{name}"><td>(.*?)</td>(.*?)</tr>', table, re.S)
        assert row is not None, name
        assert _text(row.group(1)) == i18n.option_description(name, "ru")
        cells = [_text(c) for c in re.findall(r"<td[^>]*>([^<]*)</td>", row.group(2))]
        assert cells == [i18n.value_text(name, getattr(PRESETS[p], name), "ru")
                         for p in ("guide", "sochi", "leningrad", "rostov")]
    whist = re.search(r'<tr data-option="whist">(.*?)</tr>', table, re.S).group(1)
    assert "жлобский" in whist


def test_standalone_and_served_russian_pages(page):
    assert "<link" not in page and "<script src" not in page and 'href="/' not in page
    assert "Распечатать правила" in page and "@media print" in page
    assert 'href="/?lang=ru"' in render_guide(lang="ru")


def test_the_server_serves_the_russian_guide(tmp_path):
    from preferans.server.app import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}")) as client:
        plain = client.get("/guide")
        ru = client.get("/guide?lang=ru")
        remembered = client.get("/guide")  # ?lang=ru set the cookie
        en = client.get("/guide?lang=en")
        other = client.get("/guide?lang=xx")  # not a language: the cookie's (en)
    assert plain.status_code == 200 and "A complete worked deal" in plain.text
    assert ru.status_code == 200 and "Полный разбор одной раздачи" in ru.text
    assert "Полный разбор одной раздачи" in remembered.text
    assert en.status_code == 200 and "A complete worked deal" in en.text
    assert other.status_code == 200 and "A complete worked deal" in other.text


def test_cli_writes_the_russian_guide(tmp_path):
    from preferans.cli import app

    out = tmp_path / "guide.html"
    result = CliRunner().invoke(app, ["guide", "--lang", "ru", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == render_guide(standalone=True, lang="ru")
    bad = CliRunner().invoke(app, ["guide", "--lang", "de", "--out", str(out)])
    assert bad.exit_code == 2 and "en, ru" in bad.output


def test_module_doctests():
    import doctest

    from preferans.guide import local

    result = doctest.testmod(local)
    assert result.attempted > 0 and result.failed == 0
