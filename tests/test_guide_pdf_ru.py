"""The Russian guide on paper: printed to PDF with headless Chromium, read back with pdftotext,
with the English guide's checks (tests/test_guide_pdf.py) plus: no near-empty page, and no
English word in the printed text outside the players' letters A, B and C."""

from __future__ import annotations

import re
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from preferans import i18n
from preferans.guide import render_guide, worked_deal
from test_guide_pdf import CHROMIUM, _print_to_pdf, pdf_text
from test_guide_ru import LATIN_WHITELIST

pytestmark = pytest.mark.browser

MIN_PAGE_CHARS = 400
"""A printed page with fewer characters than this (the last page apart) is near-empty."""


@pytest.fixture(scope="module")
def pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not CHROMIUM.exists():
        pytest.skip("Debian chromium is not installed at /usr/bin/chromium")
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    sync_api = pytest.importorskip("playwright.sync_api")
    folder = tmp_path_factory.mktemp("guide_ru")
    page_file = folder / "guide.ru.html"
    page_file.write_text(render_guide(standalone=True, lang="ru"), encoding="utf-8")
    out = folder / "guide.ru.pdf"
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(_print_to_pdf, sync_api, page_file, out).result()
    return out


def test_russian_guide_prints_to_a_sensible_number_of_pages(pdf):
    data = pdf.read_bytes()
    pages = len(re.findall(rb"/Type\s*/Page\b", data))
    assert 6 <= pages <= 30, pages
    texts = pdf_text(pdf)
    assert len(texts) == pages
    short = [i + 1 for i, t in enumerate(texts[:-1]) if len("".join(t.split())) < MIN_PAGE_CHARS]
    assert not short, f"near-empty pages: {short}"


def test_printed_russian_guide_has_no_controls_and_has_the_worked_deal(pdf):
    pages = pdf_text(pdf)
    flat = " ".join("\n".join(pages).split())
    assert "Распечатать правила" not in flat and "Вернуться к игре" not in flat
    assert "Полный разбор одной раздачи" in flat
    assert "A сыграл 7♥ (+4 в пулю); B записал на A 12 вистов" in flat
    for trick in worked_deal().tricks:
        row = " ".join(f"{c['player']}: {i18n.card_text(_card(c['text']), 'ru')}"
                       for c in trick["cards"])
        assert row in flat.replace(" ✓", ""), row
    worked_page = next(i for i, p in enumerate(pages) if "Полный разбор одной раздачи" in p)
    assert "Прикуп: Т♥ 9♣" in pages[worked_page]  # the hands follow the heading on its page
    assert "Источники" in flat and "Депольи" in flat and "Кодекса преферанса" in flat


def test_printed_russian_guide_holds_no_english_word(pdf):
    text = "\n".join(pdf_text(pdf))
    words = set(re.findall(r"[A-Za-z][A-Za-z'’-]*", text))
    assert words <= LATIN_WHITELIST, words - LATIN_WHITELIST
    assert not re.search(r"\b00[0-3]\b", text)


def _card(symbol_text: str):
    from preferans.cards import Card, Suit

    suit = next(s for s in Suit if s.symbol == symbol_text[-1])
    return Card.parse(symbol_text[:-1] + suit.letter)
