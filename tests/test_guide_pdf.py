"""The guide on paper: print the standalone page to PDF with headless Chromium and read it back.

Needs Debian's ``/usr/bin/chromium`` (driven by Playwright) and ``pdftotext`` (poppler-utils,
installed by ``.ci/run``); the test is skipped, saying which, when either is missing.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from preferans.guide import render_guide, worked_deal

CHROMIUM = Path("/usr/bin/chromium")
MIN_PAGE_CHARS = 400
"""A printed page with fewer characters than this (the last page apart) is near-empty."""

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not CHROMIUM.exists():
        pytest.skip("Debian chromium is not installed at /usr/bin/chromium")
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    sync_api = pytest.importorskip("playwright.sync_api")
    folder = tmp_path_factory.mktemp("guide")
    page_file = folder / "guide.html"
    page_file.write_text(render_guide(standalone=True), encoding="utf-8")
    out = folder / "guide.pdf"
    # Print in a thread of its own: another test module in this worker may hold a
    # session-wide sync Playwright (and its event loop) open on the main thread.
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(_print_to_pdf, sync_api, page_file, out).result()
    return out


def _print_to_pdf(sync_api, page_file: Path, out: Path) -> None:
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        try:
            page = browser.new_page()
            page.goto(page_file.as_uri())
            page.pdf(path=str(out), format="A4", print_background=True)
        finally:
            browser.close()


def pdf_text(path: Path) -> list[str]:
    """The text of each page (pdftotext separates pages with form feeds)."""
    text = subprocess.run(
        ["pdftotext", "-layout", "-enc", "UTF-8", str(path), "-"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return text.split("\f")[:-1] if text.endswith("\f") else text.split("\f")


def test_guide_prints_to_a_sensible_number_of_pages(pdf):
    data = pdf.read_bytes()
    pages = len(re.findall(rb"/Type\s*/Page\b", data))
    assert 6 <= pages <= 30, pages
    texts = pdf_text(pdf)
    assert len(texts) == pages
    short = [(i + 1, len("".join(t.split()))) for i, t in enumerate(texts[:-1])
             if len("".join(t.split())) < MIN_PAGE_CHARS]
    assert not short, f"near-empty pages (page, characters): {short}"


def test_printed_guide_has_no_controls_and_has_the_worked_deal(pdf):
    pages = pdf_text(pdf)
    text = "\n".join(pages)
    flat = " ".join(text.split())
    assert "Print this guide" not in flat
    assert "Back to the game" not in flat
    assert "Contents" not in flat or "Where Preferans comes from" in flat
    assert "A complete worked deal" in flat
    assert "A made 7♥ (+4 pool); B wrote 12 whists on A" in flat
    # every trick of the worked deal is in the printed table, in play order
    for trick in worked_deal().tricks:
        row = " ".join(f"{c['player']}: {c['text']}" for c in trick["cards"])
        assert row in flat.replace(" ✓", ""), row
    # the worked deal's heading is not left at a page's foot: its hands follow it on its
    # page (no forced page break before it: that left the page before nearly empty); and
    # the sources are printed
    worked_page = next(i for i, p in enumerate(pages) if "A complete worked deal" in p)
    assert "Talon: A♥ 9♣" in pages[worked_page]
    assert "Sources" in flat and "Depaulis" in flat and "Code of Preferans" in flat
