"""Take the README's two screenshots of the table: a real deal in progress, desktop and phone.

Starts ``preferans serve`` on a free port with a throwaway database, creates a game with
the settings page's own request, plays it through the table's buttons and cards with the
browser tests' driver (``tests/browser/table_driver.py``) until a trick is half played,
then photographs the page at 1280x800 and, on a second tab of the same game, at 390x844
(a phone).  Needs Debian's Chromium at /usr/bin/chromium and Playwright for Python.

    .venv/bin/python tools/readme_screenshots.py [--out docs/images] [--seed 5]

Writes ``table-desktop.png`` and ``table-phone.png``, made small: 256 colours (Pillow),
then ``optipng`` where it is installed.
"""

from __future__ import annotations

import argparse
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "browser"))

import table_driver as drive  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve(db: Path, port: int) -> subprocess.Popen[bytes]:
    preferans = Path(sys.executable).with_name("preferans")
    server = subprocess.Popen(
        [str(preferans), "serve", "--port", str(port), "--db", str(db), "--no-browser",
         "--bot-delay", "0", "--allow-seeds"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2):
                return server
        except OSError:
            time.sleep(0.3)
    server.terminate()
    raise SystemExit("preferans serve did not answer within 60 s")


def mid_trick(st: dict) -> bool:
    """Some tricks played and one half on the table, the human to play to it."""
    obs = st["observation"]
    return (drive.phase(st) == "play" and len(obs.get("tricks") or []) >= 3
            and len(obs.get("trick") or []) == 2 and (obs.get("hand_to_play") or 0) == 0)


def shrink(path: Path) -> None:
    """A palette of 256 colours and the best zlib level (Pillow), then optipng if installed."""
    try:
        from PIL import Image
    except ImportError:  # Pillow is not a dependency of the package: then only optipng
        Image = None
    if Image is not None:
        with Image.open(path) as image:
            small = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
        small.save(path, optimize=True)
    if shutil.which("optipng"):
        subprocess.run(["optipng", "-quiet", "-o2", str(path)], check=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        server = serve(Path(tmp) / "preferans.db", port)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
                desktop = browser.new_context(viewport={"width": 1280, "height": 800},
                                              reduced_motion="reduce")
                page = desktop.new_page()
                game = drive.new_game(page, base, difficulty="hard", pool=10, seed=args.seed)
                st = drive.open_table(page, base, game)
                for _ in range(60):  # deals until one of them reaches the wanted moment
                    try:
                        st = drive.play_until(page, st, lambda s: mid_trick(s) or s["deal_over"],
                                              bid=True)
                    except AssertionError:
                        break
                    if mid_trick(st):
                        break
                    st = drive.step(page, st)
                if not mid_trick(st):
                    raise SystemExit("no deal reached a half-played trick")
                page.wait_for_timeout(600)
                page.screenshot(path=str(args.out / "table-desktop.png"))
                phone = browser.new_context(
                    viewport={"width": 390, "height": 844}, device_scale_factor=1,
                    is_mobile=True, has_touch=True, reduced_motion="reduce",
                    storage_state=desktop.storage_state(),
                )
                tab = phone.new_page()
                drive.open_table(tab, base, game)
                tab.wait_for_timeout(600)
                tab.screenshot(path=str(args.out / "table-phone.png"))
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)
    for name in ("table-desktop.png", "table-phone.png"):
        shrink(args.out / name)
        print(args.out / name, (args.out / name).stat().st_size, "bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
