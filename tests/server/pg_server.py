"""A throwaway PostgreSQL server for the tests: a fresh cluster in a temporary folder,
reachable only through a Unix socket there, stopped and deleted afterwards.

Debian keeps ``initdb`` and ``pg_ctl`` in ``/usr/lib/postgresql/<version>/bin`` (package
``postgresql``).  PostgreSQL refuses to run as root, so under root the cluster belongs to
the ``postgres`` user the package creates and the commands run through ``runuser``.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

USER = "preferans"


def find_bin(name: str) -> str | None:
    """The newest Debian PostgreSQL's ``name`` binary, or one on PATH."""
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
                   key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    if found:
        return found[-1]
    return shutil.which(name)


def unavailable() -> str | None:
    """Why a temporary server cannot be started here, or None when it can."""
    if not find_bin("initdb") or not find_bin("pg_ctl"):
        return "PostgreSQL's initdb/pg_ctl not found (apt-get install postgresql)"
    if os.geteuid() == 0:
        if not shutil.which("runuser"):
            return "running as root without runuser to start PostgreSQL as 'postgres'"
        try:
            import pwd

            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no 'postgres' user to own the cluster"
    return None


class TempPostgres:
    """``start()``, then ``new_database(name)`` gives a SQLAlchemy URL; ``stop()`` removes all."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="preferans-pg-"))
        self.data = self.root / "data"
        self.socket = self.root / "socket"
        self.started = False

    def _run(self, *args: str) -> None:
        cmd = list(args)
        if os.geteuid() == 0:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            log = self.data / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(
                f"{' '.join(args[:2])} failed ({done.returncode}): {done.stderr.strip()}\n{tail}"
            )

    def start(self) -> TempPostgres:
        self.socket.mkdir()
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres")
            shutil.chown(self.socket, "postgres")
        initdb, pg_ctl = find_bin("initdb"), find_bin("pg_ctl")
        assert initdb and pg_ctl
        self._run(initdb, "-D", str(self.data), "-A", "trust", "-U", USER, "-E", "UTF8",
                  "--no-sync")
        options = f"-k {self.socket} -c listen_addresses= -F"
        self._run(pg_ctl, "-D", str(self.data), "-o", options, "-w", "-t", "60",
                  "-l", str(self.data / "server.log"), "start")
        self.started = True
        return self

    def new_database(self, name: str) -> str:
        """Create database ``name`` and return its SQLAlchemy URL (psycopg 3 driver)."""
        import psycopg

        with psycopg.connect(host=str(self.socket), user=USER, dbname="postgres",
                             autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql+psycopg://{USER}@/{name}?host={self.socket}"

    def stop(self) -> None:
        if self.started:
            pg_ctl = find_bin("pg_ctl")
            assert pg_ctl
            self._run(pg_ctl, "-D", str(self.data), "-m", "immediate", "stop")
            self.started = False
        shutil.rmtree(self.root, ignore_errors=True)


@contextmanager
def running() -> Iterator[TempPostgres]:
    """A started throwaway server, stopped and deleted when the block ends."""
    server = TempPostgres()
    try:
        server.start()
        yield server
    finally:
        server.stop()
