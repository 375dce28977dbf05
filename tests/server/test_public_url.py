"""The public address (``--public-url``, ``PREFERANS_PUBLIC_URL``): the links, the Host and
the Origin follow from it; a bad one is refused with a clear error; and behind Caddy over
HTTPS (the recipe of docs/hosting.md, started by the test) the pages and the API answer at
it and a friend's address comes through ``X-Forwarded-For`` from the proxy named."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from caddy_front import CADDY, HostedGame, https_request
from preferans.cli import app as cli_app
from preferans.server import ServeError, serve
from preferans.server.app import create_app
from preferans.server.security.links import ENV_PUBLIC_URL, Links, parse_public_url

PUBLIC = "https://pref.example.org"
FRIENDS = {"name": "Anna", "seats": ["friend", "friend"], "rules": "sochi", "pool": 10}


def _public_app(db_url: str, public_url: str | None = PUBLIC) -> TestClient:
    return TestClient(create_app(db_url, bot_delay=0, bot_level="random",
                                 allowed_hosts=["localhost", "127.0.0.1", "testserver"],
                                 public_url=public_url))


# --- the address checked ----------------------------------------------------------------
@pytest.mark.parametrize(("given", "said"), [
    ("pref.example.org", "must start with https:// or http://"),
    ("ftp://pref.example.org", "the scheme must be https or http"),
    ("https://", "names no host"),
    ("https://pref.example.org/preferans", "must not have a path"),
    ("https://pref.example.org/?a=1", "must not have a query"),
    ("https://pref.example.org#top", "must not have a query or a fragment"),
    ("https://anna:secret@pref.example.org", "user name or password"),
    ("https://pref.example.org:99999", "is not a web address"),
])
def test_a_bad_public_url_is_refused_saying_what_is_wrong(given: str, said: str) -> None:
    with pytest.raises(ValueError, match=re.escape(said)):
        parse_public_url(given)
    with pytest.raises(ServeError, match=re.escape(said)):
        serve(public_url=given, open_browser=False)


def test_a_good_public_url_is_read_to_its_origin() -> None:
    assert parse_public_url("HTTPS://Pref.Example.org/").origin == PUBLIC
    assert parse_public_url("https://pref.example.org:443").origin == PUBLIC
    assert parse_public_url("http://192.168.1.20:8000").origin == "http://192.168.1.20:8000"
    assert parse_public_url("http://[::1]:8000").netloc == "[::1]:8000"
    assert Links(parse_public_url(PUBLIC)).absolute("/watch/g/c") == PUBLIC + "/watch/g/c"


def test_the_command_line_and_the_environment_refuse_a_bad_address(
        monkeypatch: pytest.MonkeyPatch) -> None:
    runner = CliRunner()
    result = runner.invoke(cli_app, ["serve", "--no-browser", "--public-url",
                                     "pref.example.org/play"])
    assert result.exit_code != 0
    assert "must start with https:// or http://" in result.output
    assert "Traceback" not in result.output
    monkeypatch.setenv(ENV_PUBLIC_URL, "https://pref.example.org/play")
    result = runner.invoke(cli_app, ["serve", "--no-browser"])
    assert result.exit_code != 0
    assert "must not have a path" in result.output and ENV_PUBLIC_URL in result.output


# --- links, Host and Origin -------------------------------------------------------------
def test_the_invite_and_watch_links_are_made_at_the_public_address(db_url: str) -> None:
    with _public_app(db_url) as client:
        made = client.post("/api/friends", json=FRIENDS)
        assert made.status_code == 201, made.text
        game, invite = made.json()["id"], made.json()["invite"]
        assert invite.startswith(f"{PUBLIC}/join/{game}/")
        lobby = client.get(f"/api/friends/{game}").json()
        assert lobby["invite"] == invite
        assert lobby["watch"].startswith(f"{PUBLIC}/watch/{game}/")
        renewed = client.post(f"/api/friends/{game}/invite", json={}).json()["invite"]
        assert renewed.startswith(f"{PUBLIC}/join/{game}/") and renewed != invite
        watch = client.post(f"/api/friends/{game}/watch", json={}).json()["watch"]
        assert watch.startswith(f"{PUBLIC}/watch/{game}/")
        # the pages tell their scripts the address (links.js shows every link at it)
        page = client.get(f"/lobby/{game}").text
        assert f'<meta name="preferans-public-url" content="{PUBLIC}">' in page
        assert f'"invite": "{renewed}"' in page or json.dumps(renewed) in page
        # the invite itself still opens at any address the server answers for
        assert client.get(renewed.removeprefix(PUBLIC)).status_code == 200


def test_without_a_public_url_links_stay_paths_shown_at_the_browsers_address(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_PUBLIC_URL, raising=False)
    with _public_app(db_url, None) as client:
        made = client.post("/api/friends", json=FRIENDS).json()
        assert made["invite"].startswith(f"/join/{made['id']}/")
        assert '<meta name="preferans-public-url"' not in client.get(f"/lobby/{made['id']}").text


def test_the_environment_names_the_public_address(db_url: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_PUBLIC_URL, PUBLIC)
    with _public_app(db_url, None) as client:
        assert client.post("/api/friends", json=FRIENDS).json()["invite"].startswith(PUBLIC)


def test_the_public_host_is_answered_and_its_pages_may_post(db_url: str) -> None:
    with _public_app(db_url) as client:
        assert client.get("/", headers={"Host": "pref.example.org"}).status_code == 200
        assert client.get("/", headers={"Host": "other.example.org"}).status_code == 400
        # a page of the public address (the proxy may hand the server another Host)
        made = client.post("/api/friends", json=FRIENDS, headers={"Origin": PUBLIC})
        assert made.status_code == 201, made.text
        evil = client.post("/api/friends", json=FRIENDS,
                           headers={"Origin": "https://evil.example"})
        assert evil.status_code == 403
        # the same address over plain http is another origin
        plain = client.post("/api/friends", json=FRIENDS,
                            headers={"Origin": "http://pref.example.org"})
        assert plain.status_code == 403
    with _public_app(db_url, None) as client:  # before: neither was allowed
        assert client.get("/", headers={"Host": "pref.example.org"}).status_code == 400


# --- behind Caddy over HTTPS --------------------------------------------------------------
@pytest.fixture(scope="module")
def hosted(tmp_path_factory: pytest.TempPathFactory) -> HostedGame:
    if CADDY is None:
        pytest.skip("needs Debian's caddy (apt-get install caddy; .ci/run installs it)")
    game = HostedGame(tmp_path_factory.mktemp("hosted")).start()
    yield game  # type: ignore[misc]
    game.stop()


def test_behind_caddy_the_pages_links_and_client_address_follow_the_recipe(
        hosted: HostedGame) -> None:
    status, headers, body = https_request(hosted.port, "GET", "/?lang=en")
    assert status == 200 and "h3=" in headers.get("alt-svc", "")  # Caddy answered
    # the server knows the friend came over https (X-Forwarded-Proto from the proxy named)
    assert "Secure" in headers.get("set-cookie", "")
    assert f'<meta name="preferans-public-url" content="{hosted.url}">' in body.decode()
    # a friend's page at the public address creates a table: the invite is at it
    payload = json.dumps(FRIENDS).encode()
    status, headers, body = https_request(
        hosted.port, "POST", "/api/friends", source="127.0.0.2", body=payload,
        headers={"Content-Type": "application/json", "Origin": hosted.url})
    assert status == 201, body
    made = json.loads(body)
    assert made["invite"].startswith(f"{hosted.url}/join/{made['id']}/")
    # another site's page is refused through the proxy too
    status, _, _ = https_request(hosted.port, "POST", "/api/friends", body=payload,
                                 headers={"Content-Type": "application/json",
                                          "Origin": "https://evil.example"})
    assert status == 403
    # the server saw the friend's own address (Caddy's X-Forwarded-For, believed from
    # 127.0.0.1 only), and the scheme the friend used
    status, _, _ = https_request(hosted.port, "GET", "/api/status", source="127.0.0.3")
    assert status == 200
    log = Path(hosted.server_log).read_text(errors="replace")
    assert re.search(r'127\.0\.0\.2:\d+ - "POST /api/friends HTTP/1\.1" 201', log), log[-2000:]
    assert re.search(r'127\.0\.0\.3:\d+ - "GET /api/status HTTP/1\.1" 200', log), log[-2000:]
    assert "Preferans is at " + hosted.url + "/" in log


def test_a_claimed_forwarded_address_is_not_believed_from_a_friend(hosted: HostedGame) -> None:
    """Caddy replaces a client's own X-Forwarded-For (it trusts no proxy before it), so a
    friend cannot pass for another address."""
    status, _, _ = https_request(hosted.port, "GET", "/api/rules", source="127.0.0.4",
                                 headers={"X-Forwarded-For": "203.0.113.9"})
    assert status == 200
    log = Path(hosted.server_log).read_text(errors="replace")
    assert re.search(r'127\.0\.0\.4:\d+ - "GET /api/rules HTTP/1\.1" 200', log), log[-2000:]
    assert "203.0.113.9" not in log
