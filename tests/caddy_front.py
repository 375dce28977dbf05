"""The hosting recipe in a test: ``preferans serve`` behind Caddy over HTTPS.

:class:`HostedGame` starts, as ``docs/hosting.md`` says a host does,

- ``preferans serve --trusted-proxy 127.0.0.1 --public-url https://localhost:PORT`` on a
  free port of 127.0.0.1 (its own database in a temporary folder, no browser), and
- Debian's ``caddy`` in front of it on another free port (``PORT``), with a Caddyfile
  written to the temporary folder: ``tls internal`` (Caddy's own local certificate
  authority, as on a home LAN), ``reverse_proxy`` to the server, the admin endpoint off,
  its data (the local CA) in the temporary folder, nothing installed in the system's trust
  store;

and stops both.  A browser must be launched with ``--ignore-certificate-errors`` (the local
CA is trusted nowhere); :func:`https_request` talks to Caddy from any loopback address
(``127.0.0.2`` passes for a friend on another machine: Caddy names it in
``X-Forwarded-For``).

Used by ``tests/server/test_public_url.py`` and ``tests/browser/test_friends_https.py``;
both are skipped, saying so, when ``caddy`` is not installed (``.ci/run`` installs it).
"""

from __future__ import annotations

import os
import shutil
import socket
import ssl
import subprocess
import sys
import time
from pathlib import Path

CADDY = shutil.which("caddy")
"""Debian's caddy, or None (the tests that need it are skipped)."""


def free_port() -> int:
    """A TCP port nothing listens on right now (on every address: Caddy binds them all)."""
    with socket.socket() as probe:
        probe.bind(("", 0))
        return int(probe.getsockname()[1])


CADDYFILE = """\
{{
	admin off
	local_certs
	skip_install_trust
	auto_https disable_redirects
	http_port {http_port}
	https_port {https_port}
	storage file_system {data}
}}

https://localhost:{https_port} {{
	tls internal
	reverse_proxy 127.0.0.1:{upstream} {{
		transport http {{
			dial_timeout 5s
		}}
	}}
}}
"""
"""The test's Caddyfile: deploy/Caddyfile's site block with ``tls internal`` on a free port
(the domain's automatic certificates need a public name; a test has none)."""


class HostedGame:
    """``preferans serve`` and Caddy in front, both subprocesses of the test."""

    def __init__(self, folder: Path, *extra: str) -> None:
        self.folder = folder
        self.extra = list(extra)
        """More ``preferans serve`` options (``--allow-seeds``...)."""
        self.upstream = free_port()
        self.port = free_port()
        self.url = f"https://localhost:{self.port}"
        """The public address (what friends type)."""
        self.server: subprocess.Popen[bytes] | None = None
        self.caddy: subprocess.Popen[bytes] | None = None
        self.server_log = folder / "server.log"
        self.caddy_log = folder / "caddy.log"

    def start(self) -> HostedGame:
        if CADDY is None:
            raise RuntimeError("caddy is not installed (apt-get install caddy)")
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        env.pop("PREFERANS_PUBLIC_URL", None)
        command = [sys.executable, "-m", "preferans.cli", "serve", "--no-browser",
                   "--host", "127.0.0.1", "--port", str(self.upstream),
                   "--db", str(self.folder / "preferans.db"), "--bot-delay", "0",
                   "--bot-workers", "0", "--trusted-proxy", "127.0.0.1",
                   "--public-url", self.url, *self.extra]
        with self.server_log.open("wb") as log:
            self.server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                                           env=env)
        caddyfile = self.folder / "Caddyfile"
        caddyfile.write_text(CADDYFILE.format(
            http_port=free_port(), https_port=self.port, upstream=self.upstream,
            data=self.folder / "caddy-data"))
        home = self.folder / "caddy-home"
        home.mkdir(exist_ok=True)
        caddy_env = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / "data"),
                     "XDG_CONFIG_HOME": str(home / "config")}
        with self.caddy_log.open("wb") as log:
            self.caddy = subprocess.Popen(
                [CADDY, "run", "--config", str(caddyfile), "--adapter", "caddyfile"],
                stdout=log, stderr=subprocess.STDOUT, env=caddy_env, cwd=self.folder)
        try:
            self._wait()
        except BaseException:
            self.stop()
            raise
        return self

    def _wait(self, seconds: float = 60.0) -> None:
        deadline = time.monotonic() + seconds
        while True:
            for name, process, log in (("preferans serve", self.server, self.server_log),
                                       ("caddy", self.caddy, self.caddy_log)):
                assert process is not None
                if process.poll() is not None:
                    raise RuntimeError(f"{name} stopped ({process.returncode}): "
                                       f"{log.read_text(errors='replace')[-3000:]}")
            try:
                status, _, _ = https_request(self.port, "GET", "/api/status")
            except OSError:
                status = 0
            if status == 200:
                return
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"the hosted game did not answer at {self.url} (last status {status}): "
                    f"{self.caddy_log.read_text(errors='replace')[-2000:]}\n"
                    f"{self.server_log.read_text(errors='replace')[-2000:]}")
            time.sleep(0.2)

    def stop(self) -> None:
        for process in (self.caddy, self.server):
            if process is not None and process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(timeout=5)
        self.caddy = self.server = None


def https_request(port: int, method: str, path: str, *, source: str = "127.0.0.1",
                  headers: dict[str, str] | None = None, body: bytes = b"",
                  timeout: float = 10.0) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 request to Caddy at ``localhost:port`` over TLS (its local CA not
    checked), sent from the loopback address ``source``: (status, headers, body)."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    sent = {"Host": f"localhost:{port}", "Connection": "close",
            "Content-Length": str(len(body)), **(headers or {})}
    head = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in sent.items())
    with socket.create_connection(("127.0.0.1", port), timeout=timeout,
                                  source_address=(source, 0)) as raw, \
            context.wrap_socket(raw, server_hostname="localhost") as tls:
        tls.sendall(head.encode() + b"\r\n" + body)
        chunks = []
        while chunk := tls.recv(65536):
            chunks.append(chunk)
    data = b"".join(chunks)
    header_text, _, content = data.partition(b"\r\n\r\n")
    lines = header_text.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    answer = {}
    for line in lines[1:]:
        key, _, value = line.partition(":")
        answer[key.strip().lower()] = value.strip()
    if answer.get("transfer-encoding", "").lower() == "chunked":
        content = _unchunk(content)
    return status, answer, content


def _unchunk(data: bytes) -> bytes:
    out = []
    while data:
        size_line, _, rest = data.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out.append(rest[:size])
        data = rest[size + 2:]
    return b"".join(out)
