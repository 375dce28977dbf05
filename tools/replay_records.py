"""Every record under tests/records replayed through the engine and through the web server,
each result's bytes printed as a sha256: run it before and after a change that must not
change behaviour, and compare the two outputs (they must be identical).

    python tools/replay_records.py > before.txt        # one line a record and a result
    python tools/replay_records.py --out DIR           # the results' bytes too, a file each

For each record: the engine's replay written back (``Game.from_record(...).to_record()``);
the web table restored from it as the server restores a saved game (the record it would
save, its summary, every seat's state frame in English and Russian, a spectator's); and the
replay viewer's answer to the record uploaded to ``POST /api/review`` (English and Russian).
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ROOT / "tests" / "records"


def results(path: Path, store: Any, client: Any) -> dict[str, bytes]:
    """The bytes each reading of one record gives."""
    from preferans.game import Game
    from preferans.server.store.fastjson import dumps
    from preferans.server.table.spectators import SPECTATOR
    from preferans.server.table.table import Table, rules_info

    text = path.read_text(encoding="utf-8")
    record = json.loads(text)
    game = Game.from_record(record)
    out = {"engine": json.dumps(game.to_record(), ensure_ascii=False).encode()}
    game_id = "r" + hashlib.sha256(path.name.encode()).hexdigest()[:12]
    store.create(game_id, difficulty="normal", rules=rules_info(game.rules),
                 names=list(game.players), seed=7, record=record)
    saved = store.get(game_id)
    table = Table.restore(saved, store=store, bot_delay=0, bot_level="random")
    out["table.record"] = table.record_encoded().text.encode()
    out["table.summary"] = dumps(table.summary()).encode()
    for lang in ("en", "ru"):
        for seat in [*range(len(table.names)), SPECTATOR]:
            out[f"state.{lang}.{seat}"] = table.encode_state(table.state(seat=seat),
                                                             lang).encode()
    for lang in ("en", "ru"):
        answer = client.post(f"/api/review?lang={lang}", content=text.encode(),
                             headers={"content-type": "application/json"})
        out[f"review.{lang}"] = f"{answer.status_code} ".encode() + answer.content
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="write each result's bytes under this folder")
    args = parser.parse_args(argv)
    from fastapi.testclient import TestClient

    from preferans.server.app import create_app

    app = create_app("sqlite://", bot_delay=0, bot_workers=0, bot_level="random")
    with TestClient(app, base_url="http://localhost") as client:
        store = app.state.store
        for path in sorted(RECORDS.rglob("*.json")):
            name = path.relative_to(RECORDS).as_posix()
            for key, data in results(path, store, client).items():
                print(f"{name} {key} {hashlib.sha256(data).hexdigest()}")
                if args.out is not None:
                    target = args.out / name / key
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(data)


if __name__ == "__main__":
    main()
