"""Browser tests: the real server (uvicorn, temporary SQLite, no bot delay) and headless Chromium.

The tests drive Debian's Chromium through Playwright for Python.  They are skipped, with
the reason, only when ``/usr/bin/chromium`` is not installed.  Screenshots go to
``test-artifacts/`` (ignored by git).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

if not CHROMIUM.exists():
    pytest.skip(
        "browser tests need Debian's Chromium at /usr/bin/chromium (apt-get install chromium)",
        allow_module_level=True,
    )

sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")

from browser_helpers import LiveServer  # noqa: E402


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("web") / "preferans.db").start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
            headless=True,
        )
        yield chromium
        chromium.close()


def _tab(browser: object, **context_options: object) -> Iterator[object]:
    """A tab in a fresh browser context; a JavaScript error on the page fails the test."""
    context = browser.new_context(**context_options)  # type: ignore[attr-defined]
    context.set_default_timeout(15_000)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    yield tab
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture
def page(browser: object) -> Iterator[object]:
    yield from _tab(browser, viewport={"width": 1280, "height": 800})


@pytest.fixture
def ru_page(browser: object) -> Iterator[object]:
    """A tab of a Russian-speaking browser (locale ru-RU, Accept-Language ru)."""
    yield from _tab(browser, viewport={"width": 1280, "height": 900}, locale="ru-RU",
                    extra_http_headers={"Accept-Language": "ru-RU,ru;q=0.9"})
