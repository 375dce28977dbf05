"""The web game's deck (tools/make_deck.py -> static/cards/): the committed files are the
generator's output, small, the court cards carry their figures, the Russian deck its indices."""

from __future__ import annotations

import importlib.util
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
CARDS = ROOT / "src/preferans/server/static/cards"
SVG = "{http://www.w3.org/2000/svg}"
MAX_BYTES = 6 * 1024


def load_generator() -> ModuleType:
    path = ROOT / "tools/make_deck.py"
    spec = importlib.util.spec_from_file_location("make_deck", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_deck"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def deck() -> ModuleType:
    return load_generator()


def corner_indices(text: str) -> list[str]:
    """The texts drawn on a card (its corner indices)."""
    root = ET.fromstring(text)
    return [node.text or "" for node in root.iter(f"{SVG}text")]


def test_the_generator_is_deterministic(deck: ModuleType) -> None:
    first = deck.deck_files()
    second = load_generator().deck_files()
    assert first == second
    assert len(first) == 65  # 32 English cards, 32 Russian ones, one shared back


def test_the_committed_files_are_the_generators_output(deck: ModuleType) -> None:
    files = deck.deck_files()
    for name, text in files.items():
        path = CARDS / name
        assert path.read_bytes() == text.encode("utf-8"), f"{name} differs: run tools/make_deck.py"
    committed = {p.relative_to(CARDS).as_posix() for p in CARDS.rglob("*.svg")}
    assert committed == set(files)


def test_written_to_a_folder_it_gives_the_same_bytes(deck: ModuleType, tmp_path: Path) -> None:
    written = deck.write_deck(tmp_path)
    assert len(written) == 65
    for path in written:
        name = path.relative_to(tmp_path).as_posix()
        assert path.read_bytes() == (CARDS / name).read_bytes()


def test_every_file_is_small_and_well_formed() -> None:
    for path in CARDS.rglob("*.svg"):
        data = path.read_bytes()
        assert len(data) < MAX_BYTES, f"{path.name}: {len(data)} bytes"
        root = ET.fromstring(data)
        assert root.tag == f"{SVG}svg"
        assert root.get("viewBox") == "0 0 240 336"
        assert root.get("aria-label")


@pytest.mark.parametrize("lang_dir", ["", "ru/"])
def test_each_court_card_has_its_figure(deck: ModuleType, lang_dir: str) -> None:
    """A face in a frame, drawn twice (double-headed), with the rank's own head-dress; no big
    letter in the middle any more; number cards and aces have no figure."""
    for suit in "SCDH":
        for rank in deck.RANKS:
            text = (CARDS / f"{lang_dir}{rank}{suit}.svg").read_text(encoding="utf-8")
            root = ET.fromstring(text)
            halves = [g for g in root.iter(f"{SVG}g") if g.get("id") == "half"]
            if rank in ("J", "Q", "K"):
                assert len(halves) == 1, f"{rank}{suit}"
                assert f'<g id="half">{deck.BUST}{deck.HEADWEAR[rank]}' in text
                assert 'href="#half"' in text and "rotate(180" in text
                faces = [c for c in halves[0].iter(f"{SVG}circle") if c.get("fill") == "#f7dcc4"]
                assert len(faces) == 1
                assert len(corner_indices(text)) == 2  # only the two corner indices
            else:
                assert not halves, f"{rank}{suit}"
    # The three head-dresses differ from each other.
    assert len({deck.HEADWEAR[r] for r in ("J", "Q", "K")}) == 3


def test_the_suit_colour_is_the_figures_colour() -> None:
    for rank in ("J", "Q", "K"):
        for suit, ink in (("S", "#1b1b1f"), ("H", "#c8102e")):
            text = (CARDS / f"{rank}{suit}.svg").read_text(encoding="utf-8")
            assert f'fill="{ink}" color="{ink}"' in text


def test_the_russian_deck_uses_t_k_d_v() -> None:
    expected = {"A": "Т", "K": "К", "Q": "Д", "J": "В", "10": "10", "9": "9", "8": "8", "7": "7"}
    for suit in "SCDH":
        for rank, index in expected.items():
            ru = corner_indices((CARDS / f"ru/{rank}{suit}.svg").read_text(encoding="utf-8"))
            en = corner_indices((CARDS / f"{rank}{suit}.svg").read_text(encoding="utf-8"))
            assert ru == [index, index], f"ru/{rank}{suit}"
            assert en == [rank, rank], f"{rank}{suit}"
    title = ET.fromstring((CARDS / "ru/QH.svg").read_bytes()).get("aria-label")
    assert title == "дама червей"
