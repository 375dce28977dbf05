"""Web server figures: a whole pulya-10 game with random players through the real WebSocket
(in-process), on a SQLite file.  Prints actions, time per action (engine + save + state),
and the size of the state payloads.

    .venv/bin/python benchmarks/bench_server.py [GAMES]
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from fastapi.testclient import TestClient

from preferans.server.app import create_app
from preferans.server.table.table import Table


def main(games: int = 3) -> None:
    spent: list[float] = []
    original = Table._apply

    def timed(self: Table, seat: int, token: str) -> dict:
        start = time.perf_counter()
        try:
            return original(self, seat, token)
        finally:
            spent.append(time.perf_counter() - start)

    Table._apply = timed  # type: ignore[method-assign]
    sizes: list[int] = []
    deals = 0
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'bench.db'}"
        with TestClient(create_app(url, bot_delay=0, bot_level="random")) as client:
            started = time.perf_counter()
            for game in range(games):
                rng = random.Random(game)
                body = {"difficulty": "easy", "rules": "sochi", "pool": 10, "seed": game}
                game_id = client.post("/api/games", json=body).json()["id"]
                with client.websocket_connect(f"/ws/{game_id}") as ws:
                    while True:
                        text = ws.receive_text()
                        sizes.append(len(text.encode()))
                        state = json.loads(text)
                        if state["game_over"]:
                            deals += state["deal_number"]
                            break
                        if state["thinking"] is not None:
                            continue
                        if state["deal_over"]:
                            ws.send_json({"type": "next_deal"})
                        elif state["observation"]["to_act"] == 0:
                            legal = state["observation"]["legal"]
                            token = "PASS" if "PASS" in legal and rng.random() < 0.6 else (
                                rng.choice(legal))
                            ws.send_json({"type": "action", "token": token})
            wall = time.perf_counter() - started
    ms = sorted(x * 1000 for x in spent)
    print(f"games {games}, deals {deals}, actions {len(spent)}, wall {wall:.1f} s")
    print(f"apply+save per action: median {statistics.median(ms):.2f} ms, "
          f"p95 {ms[int(len(ms) * 0.95)]:.2f} ms, max {ms[-1]:.2f} ms")
    print(f"state payloads: {len(sizes)}, median {statistics.median(sizes) / 1024:.1f} KiB, "
          f"max {max(sizes) / 1024:.1f} KiB")
    print(f"messages per second end to end: {len(sizes) / wall:.0f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
