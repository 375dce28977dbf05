"""One server process of a test cluster (run as a script by tests/server/cluster.py):
``cluster_node.py PORT DB_URL BUS_URL LEASE_SECONDS`` serves the web game on 127.0.0.1:PORT
with computer players that move at once and choose at random, seeds chosen by the tests."""

from __future__ import annotations

import sys

import uvicorn

from preferans.server.app import create_app


def main() -> None:
    port, db, bus, lease = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
    app = create_app(db, bot_delay=0, bot_level="random", bot_workers=0, bus_url=bus,
                     lease_seconds=lease, allow_seeds=True, grace_seconds=120)
    uvicorn.run(app, host="127.0.0.1", port=int(port), log_level="warning",
                ws_per_message_deflate=False)


if __name__ == "__main__":
    main()
