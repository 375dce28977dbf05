"""Accounts by passkey through the routes (a software passkey: passkey_helpers.py, checked
by the real ``webauthn`` package): a browser's games move into the account on sign-in and
are found on another browser; and every abuse point of the issue: attempts bounded per
client, no name looked up, a replayed or foreign-origin assertion refused, the session
cookie's flags, one account unable to touch another's, challenges and codes minted by the
server, stored hashed, single use and short-lived, sign out everywhere, delete at once."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from passkey_helpers import SoftPasskey
from server_helpers import new_game, receive_json
from sqlalchemy import select

from preferans.server.app import create_app
from preferans.server.security.limits import Openings
from preferans.server.security.tokens import SEAT_COOKIE
from preferans.server.store import accounts as account_rows
from preferans.server.store import holders
from preferans.server.store.games import GameStore
from preferans.server.store.schema import account_once, account_sessions, accounts
from preferans.server.store.stats import of_browser
from preferans.server.web.accounts import SESSION_COOKIE

ORIGIN = "http://localhost"


@pytest.fixture()
def app(tmp_path: Path) -> Any:
    return create_app(f"sqlite:///{tmp_path / 'games.db'}", bot_delay=0, bot_level="random")


@contextmanager
def browser(app: Any, base: str = ORIGIN, **headers: str) -> Iterator[TestClient]:
    """Another browser of the same server (its own cookies; the app's start and stop are
    the ``first`` browser's)."""
    client = TestClient(app, base_url=base, headers=headers)
    try:
        yield client
    finally:
        client.close()


@pytest.fixture()
def first(app: Any) -> Iterator[TestClient]:
    with TestClient(app, base_url=ORIGIN) as client:
        yield client


def register(client: TestClient, key: SoftPasskey, name: str = "Вера",
             language: str = "en") -> Any:
    begun = client.post("/api/account/register/begin",
                        json={"name": name, "language": language, "address": "f"})
    assert begun.status_code == 200, begun.text
    return client.post("/api/account/register/finish",
                       json={"credential": key.create(begun.json()["options"])})


def sign_in(client: TestClient, key: SoftPasskey, **assertion: Any) -> Any:
    begun = client.post("/api/account/signin/begin")
    assert begun.status_code == 200, begun.text
    return client.post("/api/account/signin/finish",
                       json={"credential": key.get(begun.json()["options"], **assertion)})


def delete(client: TestClient, key: SoftPasskey, **assertion: Any) -> Any:
    """Delete the signed-in account, confirmed by ``key`` (the account page's ceremony)."""
    begun = client.post("/api/account/delete/begin")
    assert begun.status_code == 200, begun.text
    return client.post("/api/account/delete",
                       json={"credential": key.get(begun.json()["options"], **assertion)})


def statistics_games(app: Any, client: TestClient) -> int:
    """How many games the statistics page counts for this browser."""
    token = client.cookies.get(SEAT_COOKIE)
    pairs, _ = of_browser(app.state.store.games_of_seats(),
                          hashlib.sha256(token.encode()).hexdigest() if token else None)
    return len(pairs)


def current(client: TestClient) -> str | None:
    answer = client.get("/api/games/current")
    return answer.json()["id"] if answer.status_code == 200 else None


def test_a_browsers_games_move_into_the_account_and_are_found_on_another_browser(
        app: Any, first: TestClient) -> None:
    game = new_game(first)
    made = register(first, SoftPasskey(ORIGIN))
    assert made.status_code == 201, made.text
    assert made.json() == {"signed_in": True, "name": "Вера", "language": "en", "address": "f"}
    assert current(first) == game  # the account's token holds the game now
    assert first.get(f"/table/{game}").status_code == 200

    key = SoftPasskey(ORIGIN)
    with browser(app) as second:
        assert current(second) is None
        # the second browser had a game of its own before signing in: it joins the account
        own = new_game(second)
        begun = first.post("/api/account/code")
        assert begun.status_code == 200
        code = begun.json()["code"]
        options = second.post("/api/account/device/begin", json={"code": code.lower()})
        assert options.status_code == 200, options.text
        added = second.post("/api/account/device/finish",
                            json={"credential": key.create(options.json()["options"])})
        assert added.status_code == 201, added.text
        assert second.get(f"/table/{game}").status_code == 200
        assert second.get(f"/table/{own}").status_code == 200
        assert first.get(f"/table/{own}").status_code == 200
        assert second.get("/api/account").json()["name"] == "Вера"
        # the statistics count both browsers' games on either browser
        assert statistics_games(app, second) == statistics_games(app, first) == 2
        # and the new device signs in with its own passkey later
        second.post("/api/account/signout")
        assert second.get(f"/table/{game}").status_code == 403
        assert sign_in(second, key).status_code == 200
        assert second.get(f"/table/{game}").status_code == 200


def test_signing_in_to_another_account_does_not_hand_over_the_first_accounts_games(
        app: Any, first: TestClient) -> None:
    vera_key, oleg_key = SoftPasskey(ORIGIN), SoftPasskey(ORIGIN)
    vera_game = new_game(first)
    assert register(first, vera_key).status_code == 201
    with browser(app) as other:
        assert register(other, oleg_key, name="Oleg").status_code == 201
    # the same browser now signs in as Oleg without signing out: Vera's game stays Vera's
    assert sign_in(first, oleg_key).status_code == 200
    assert first.get("/api/account").json()["name"] == "Oleg"
    assert first.get(f"/table/{vera_game}").status_code == 403
    assert sign_in(first, vera_key).status_code == 200
    assert first.get(f"/table/{vera_game}").status_code == 200


def test_a_replayed_assertion_is_refused(first: TestClient) -> None:
    key = SoftPasskey(ORIGIN)
    assert register(first, key).status_code == 201
    begun = first.post("/api/account/signin/begin").json()["options"]
    assertion = key.get(begun)
    assert first.post("/api/account/signin/finish",
                      json={"credential": assertion}).status_code == 200
    again = first.post("/api/account/signin/finish", json={"credential": assertion})
    assert again.status_code == 400 and again.json()["code"] == "refused"
    # a fresh challenge signed with a counter that did not move on (a cloned passkey)
    stale = sign_in(first, key, counter=key.counter)
    assert stale.status_code == 400 and stale.json()["code"] == "refused"
    assert sign_in(first, key).status_code == 200


def test_a_replay_is_refused_even_by_a_passkey_that_does_not_count(first: TestClient) -> None:
    """Synced passkeys sign with counter 0: the challenge, used once, stops the replay."""
    key = SoftPasskey(ORIGIN, counts=False)
    assert register(first, key).status_code == 201
    begun = first.post("/api/account/signin/begin").json()["options"]
    assertion = key.get(begun)
    assert first.post("/api/account/signin/finish",
                      json={"credential": assertion}).status_code == 200
    again = first.post("/api/account/signin/finish", json={"credential": assertion})
    assert again.status_code == 400 and again.json()["code"] == "refused"
    assert sign_in(first, key).status_code == 200  # a fresh challenge is fine


@pytest.mark.parametrize("origin", ["http://evil.example", "http://localhost:9999",
                                    "https://localhost"])
def test_an_assertion_or_registration_for_another_origin_is_refused(
        first: TestClient, origin: str) -> None:
    key = SoftPasskey(ORIGIN)
    begun = first.post("/api/account/register/begin",
                       json={"name": "Vera", "language": "en"}).json()["options"]
    foreign = first.post("/api/account/register/finish",
                         json={"credential": key.create(begun, origin=origin)})
    assert foreign.status_code == 400
    assert register(first, key).status_code == 201
    refused = sign_in(first, key, origin=origin)
    assert refused.status_code == 400 and refused.json()["code"] == "refused"


def test_a_passkey_made_for_another_site_is_refused(first: TestClient) -> None:
    key = SoftPasskey(ORIGIN)
    begun = first.post("/api/account/register/begin",
                       json={"name": "Vera", "language": "en"}).json()["options"]
    made = first.post("/api/account/register/finish",
                      json={"credential": key.create(begun, rp_id="evil.example")})
    assert made.status_code == 400


def test_a_challenge_of_one_ceremony_does_not_serve_another(first: TestClient) -> None:
    key = SoftPasskey(ORIGIN)
    signin = first.post("/api/account/signin/begin").json()["options"]
    fake = {**signin, "rp": {"id": "localhost"}, "user": {"id": "AAAA", "name": "x"}}
    answer = first.post("/api/account/register/finish", json={"credential": key.create(fake)})
    assert answer.status_code == 400
    # and a challenge the server never minted
    made = {"challenge": "bm90LW1pbnRlZA", "rp": {"id": "localhost"},
            "user": {"id": "AAAA", "name": "x"}}
    assert first.post("/api/account/register/finish",
                      json={"credential": key.create(made)}).status_code == 400


def test_attempts_are_bounded_per_client_with_a_message_in_its_language(app: Any) -> None:
    with browser(app, **{"Accept-Language": "ru"}) as client:
        answers = [client.post("/api/account/signin/begin") for _ in range(12)]
        codes = [a.status_code for a in answers]
        assert codes[:10] == [200] * 10 and codes[10:] == [429, 429]
        refused = answers[-1]
        assert refused.json()["code"] == "too_many"
        assert "Слишком много попыток" in refused.json()["message"]
        assert int(refused.headers["Retry-After"]) >= 1
        # typed codes count too
        assert client.post("/api/account/device/begin",
                           json={"code": "AAAA-BBBB"}).status_code == 429


def test_no_route_says_whether_a_name_has_an_account(app: Any, first: TestClient) -> None:
    """Names are not unique and nothing is looked up by one: a taken name registers the
    same as a new one, and sign-in names no account."""
    assert register(first, SoftPasskey(ORIGIN), name="Vera").status_code == 201
    with browser(app) as other:
        taken = other.post("/api/account/register/begin", json={"name": "Vera", "language": "en"})
        fresh = other.post("/api/account/register/begin", json={"name": "Zoya", "language": "en"})
        assert taken.status_code == fresh.status_code == 200
        assert set(taken.json()["options"]) == set(fresh.json()["options"])
        assert taken.json()["options"]["user"]["id"] != first.get("/api/account").json().get("id")
        assert register(other, SoftPasskey(ORIGIN), name="Vera").status_code == 201
        begun = other.post("/api/account/signin/begin").json()["options"]
        assert begun.get("allowCredentials", []) == []
    from preferans.server.web.accounts import router
    paths = [route.path for route in router.routes]
    assert paths and not any("{" in path for path in paths)  # no route names an account


def test_the_session_cookie_is_httponly_samesite_and_secure_behind_tls(
        app: Any, tmp_path: Path) -> None:
    def cookies_of(response: Any) -> dict[str, str]:
        return {header.split("=", 1)[0]: header.lower()
                for header in response.headers.get_list("set-cookie")}

    with browser(app) as plain:
        made = cookies_of(register(plain, SoftPasskey(ORIGIN)))
    session = made[SESSION_COOKIE]
    assert "httponly" in session and "samesite=strict" in session and "secure" not in session
    assert "httponly" in made[SEAT_COOKIE] and "max-age" in session
    with browser(app, base="https://localhost") as tls:
        made = cookies_of(register(tls, SoftPasskey("https://localhost")))
    assert "secure" in made[SESSION_COOKIE] and "secure" in made[SEAT_COOKIE]
    # behind a proxy ending TLS: the app reached over http at its public https address
    proxied = create_app(f"sqlite:///{tmp_path / 'proxied.db'}", bot_delay=0,
                         public_url="https://pref.example.org")
    with browser(proxied, base="http://pref.example.org") as behind:
        made = cookies_of(register(behind, SoftPasskey("https://pref.example.org")))
    assert "secure" in made[SESSION_COOKIE]
    # ...where an answer signed for the plain http origin is refused
    with browser(proxied, base="http://pref.example.org") as behind:
        begun = behind.post("/api/account/register/begin",
                            json={"name": "Vera", "language": "en"}).json()["options"]
        wrong = behind.post("/api/account/register/finish", json={
            "credential": SoftPasskey("http://pref.example.org").create(begun)})
        assert wrong.status_code == 400


def test_one_account_cannot_read_or_change_anothers(app: Any, first: TestClient) -> None:
    vera_game = new_game(first)
    assert register(first, SoftPasskey(ORIGIN), name="Vera").status_code == 201
    with browser(app) as other:
        olegs = SoftPasskey(ORIGIN)
        assert register(other, olegs, name="Oleg").status_code == 201
        assert other.get("/api/account").json()["name"] == "Oleg"
        changed = other.post("/api/account/profile",
                             json={"name": "Hacker", "language": "en", "address": "m"})
        assert changed.json()["name"] == "Hacker"
        assert other.get(f"/table/{vera_game}").status_code == 403
        assert vera_game not in other.get("/stats").text
        assert delete(other, olegs).status_code == 200
    assert first.get("/api/account").json()["name"] == "Vera"
    assert first.get(f"/table/{vera_game}").status_code == 200
    # a forged session cookie is nobody's
    with browser(app) as forged:
        forged.cookies.set(SESSION_COOKIE, "x" * 43)
        assert forged.get("/api/account").json() == {"signed_in": False}
        assert forged.post("/api/account/profile", json={
            "name": "X", "language": "en"}).status_code == 401
        assert forged.post("/api/account/code").status_code == 401
        assert forged.post("/api/account/delete/begin").status_code == 401
        assert forged.post("/api/account/delete", json={"credential": {}}).status_code == 401


def test_the_profile_is_checked_and_kept(first: TestClient) -> None:
    assert register(first, SoftPasskey(ORIGIN), name="Vera").status_code == 201
    bad = first.post("/api/account/profile", json={"name": " ", "language": "en"})
    assert bad.status_code == 422 and bad.json()["code"] == "bad_name"
    bad = first.post("/api/account/profile", json={"name": "Vera", "language": "de"})
    assert bad.status_code == 422 and bad.json()["code"] == "bad_language"
    long = first.post("/api/account/profile", json={"name": "В" * 21, "language": "ru"})
    assert long.status_code == 422  # in words, not a validator's
    assert long.json()["message"] == "A name is 1 to 20 characters, without control characters."
    done = first.post("/api/account/profile",
                      json={"name": "  Вера  Павловна ", "language": "ru", "address": "x"})
    assert done.json() == {"signed_in": True, "name": "Вера Павловна", "language": "ru",
                           "address": None}
    assert first.cookies.get("lang") == "ru"
    page = first.get("/account")
    assert "Вы вошли как Вера Павловна." in page.text and 'lang="ru"' in page.text


def test_codes_and_challenges_are_stored_hashed_single_use_and_short_lived(
        app: Any, first: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    assert register(first, SoftPasskey(ORIGIN)).status_code == 201
    code = first.post("/api/account/code").json()["code"]
    begun = first.post("/api/account/signin/begin").json()["options"]
    store: GameStore = app.state.store
    with store.engine.connect() as conn:
        rows = conn.execute(select(account_once)).all()
    kept = {row.hash for row in rows}
    plain = code.replace("-", "")
    assert hashlib.sha256(plain.encode()).hexdigest() in kept
    assert not any(plain in str(tuple(row)) or begun["challenge"] in str(tuple(row))
                   for row in rows)
    with browser(app) as second:
        assert second.post("/api/account/device/begin", json={"code": code}).status_code == 200
        again = second.post("/api/account/device/begin", json={"code": code})
        assert again.status_code == 400 and again.json()["code"] == "bad_code"
        later = first.post("/api/account/code").json()["code"]
        real = account_rows.now_ms
        monkeypatch.setattr(account_rows, "now_ms", lambda: real() + 301_000)
        expired = second.post("/api/account/device/begin", json={"code": later})
        assert expired.status_code == 400 and expired.json()["code"] == "bad_code"
        monkeypatch.setattr(account_rows, "now_ms", real)
        assert second.post("/api/account/device/begin", json={"code": later}).status_code == 400
        assert second.post("/api/account/device/begin",
                           json={"code": "not a code"}).status_code == 400


def test_sign_out_and_sign_out_everywhere(app: Any, first: TestClient) -> None:
    key = SoftPasskey(ORIGIN)
    game = new_game(first)
    assert register(first, key).status_code == 201
    with browser(app) as second:
        assert sign_in(second, key).status_code == 200
        old_seat = second.cookies.get(SEAT_COOKIE)
        assert second.get(f"/table/{game}").status_code == 200
        # sign out: this browser only, and it keeps nothing of the account
        out = first.post("/api/account/signout")
        assert out.status_code == 200 and first.get("/api/account").json()["signed_in"] is False
        assert first.get(f"/table/{game}").status_code == 403
        assert second.get("/api/account").json()["signed_in"] is True
        # sign out everywhere: every session ends, the old seat cookie holds nothing
        assert sign_in(first, key).status_code == 200
        assert first.post("/api/account/signout-everywhere").status_code == 200
        assert second.get("/api/account").json() == {"signed_in": False}
        second.cookies.clear()
        second.cookies.set(SEAT_COOKIE, old_seat, domain="localhost.local")
        assert second.get(f"/table/{game}").status_code == 403
        assert current(second) is None
        # the account kept the game: a new sign-in finds it under the new token
        assert sign_in(second, key).status_code == 200
        assert second.cookies.get(SEAT_COOKIE) != old_seat
        assert second.get(f"/table/{game}").status_code == 200
    store: GameStore = app.state.store
    with store.engine.connect() as conn:
        assert conn.execute(select(accounts.c.generation)).scalar_one() == 1


def test_delete_the_account_and_everything_it_holds(app: Any, first: TestClient) -> None:
    key = SoftPasskey(ORIGIN)
    game = new_game(first)
    assert first.get(f"/table/{game}").status_code == 200  # the table is open in memory
    assert register(first, key).status_code == 201
    assert app.state.store.get(game) is not None
    gone = delete(first, key)
    assert gone.status_code == 200 and gone.json()["deleted"] is True
    store: GameStore = app.state.store
    assert store.get(game) is None and game not in app.state.tables.open
    with store.engine.connect() as conn:
        for table in (accounts, account_sessions, account_once):
            assert conn.execute(select(table)).all() == []
    assert first.get("/api/account").json() == {"signed_in": False}
    stale = sign_in(first, key)  # the passkey is gone with it
    assert stale.status_code == 400 and stale.json()["code"] == "unknown_passkey"


def test_a_deleted_holder_leaves_a_shared_game_to_the_others(tmp_path: Path) -> None:
    store = GameStore(f"sqlite:///{tmp_path / 'g.db'}")
    record = {"format": "preferans-record/1", "deals": []}
    for game_id in ("alone", "shared"):
        store.create(game_id, difficulty="easy", rules={"preset": "sochi", "pool": 10},
                     names=["A", "B", "C"], seed=1, record=record)
    store.write_now(store.claim, "alone", 0, "a" * 64)
    for seat, held in ((0, "a" * 64), (1, "b" * 64)):
        store.write_now(store.claim, "shared", seat, held)
    assert store.write_now(store.erase_holder, "a" * 64) == 2
    assert store.get("alone") is None
    assert store.get("shared").seats == {"0": holders.GONE, "1": "b" * 64}
    store.close()


def test_claim_browser_runs_every_mover_in_one_place(
        app: Any, first: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hook other rows keyed by a holder (a rating) add themselves to."""
    moved: list[tuple[str, str]] = []
    erased: list[str] = []

    def mover(_conn: Any, old: str, new: str) -> int:
        moved.append((old, new))
        return 1

    def eraser(_conn: Any, held: str) -> int:
        erased.append(held)
        return 1

    monkeypatch.setattr(holders, "MOVERS", [*holders.MOVERS, mover])
    monkeypatch.setattr(holders, "ERASERS", [*holders.ERASERS, eraser])
    new_game(first)
    browser_hash = hashlib.sha256(first.cookies.get(SEAT_COOKIE).encode()).hexdigest()
    key = SoftPasskey(ORIGIN)
    assert register(first, key).status_code == 201
    account_hash = hashlib.sha256(first.cookies.get(SEAT_COOKIE).encode()).hexdigest()
    assert moved == [(browser_hash, account_hash)]
    assert delete(first, key).status_code == 200
    assert erased == [account_hash]


def test_a_table_open_in_this_process_learns_a_sign_in_made_by_another(
        app: Any, first: TestClient) -> None:
    """Several processes: the sign-in moved the game's seat in the store, but this process
    holds the table open with the browser's old token; the account's socket is let in."""
    game = new_game(first)
    with first.websocket_connect(f"ws://localhost/ws/{game}") as ws:
        assert receive_json(ws)["type"] == "state"
    assert game in app.state.tables.open
    old_hash = hashlib.sha256(first.cookies.get(SEAT_COOKIE).encode()).hexdigest()
    account_token = app.state.seat_tokens.signed("t" * 32)
    account_hash = hashlib.sha256(account_token.encode()).hexdigest()
    store: GameStore = app.state.store
    assert store.write_now(store.claim_browser, old_hash, account_hash) == 1  # elsewhere
    with browser(app) as signed_in:
        signed_in.cookies.set(SEAT_COOKIE, account_token)
        with signed_in.websocket_connect(f"ws://localhost/ws/{game}") as ws:
            frame = receive_json(ws)
        assert frame["type"] == "state", frame


def test_games_follow_a_browser_from_127_0_0_1_to_localhost_once(app: Any) -> None:
    """make play opens 127.0.0.1, where no passkey can be made: the account page hands the
    browser's games to the same browser at localhost by a one-time code."""
    with browser(app, base="http://127.0.0.1") as numbered:
        game = new_game(numbered)
        code = numbered.post("/api/account/handover").json()["code"]
        assert code and len(code) >= 40
    with browser(app) as named:
        assert current(named) is None
        taken = named.post("/api/account/handover/take", json={"code": code})
        assert taken.status_code == 200 and taken.json()["moved"] == 1
        assert current(named) == game
        assert named.get(f"/table/{game}").status_code == 200
        with browser(app) as thief:
            again = thief.post("/api/account/handover/take", json={"code": code})
            assert again.status_code == 400 and again.json()["code"] == "bad_handover"
            assert thief.post("/api/account/handover/take",
                              json={"code": "x" * 43}).status_code == 400
    with browser(app, base="http://127.0.0.1") as empty:  # nothing to hand over
        assert empty.post("/api/account/handover").json() == {"code": None}


def test_a_lost_devices_passkey_is_removed_and_it_is_locked_out(
        app: Any, first: TestClient) -> None:
    desk, lost = SoftPasskey(ORIGIN), SoftPasskey(ORIGIN)
    assert register(first, desk).status_code == 201
    only = first.post("/api/account/passkeys/remove", json={"id": next(iter(desk.keys))})
    assert only.status_code == 409 and only.json()["code"] == "last_passkey"
    with browser(app) as phone:
        code = first.post("/api/account/code").json()["code"]
        options = phone.post("/api/account/device/begin", json={"code": code}).json()
        assert phone.post("/api/account/device/finish", json={
            "credential": lost.create(options["options"])}).status_code == 201
    lost_id = next(iter(lost.keys))
    page = first.get("/account").text
    assert page.count("data-passkey=") == 2 and "Passkey 2" in page
    with browser(app) as other:  # another account cannot remove this one's passkey
        assert register(other, SoftPasskey(ORIGIN), name="Oleg").status_code == 201
        foreign = other.post("/api/account/passkeys/remove", json={"id": lost_id})
        assert foreign.status_code == 404
    removed = first.post("/api/account/passkeys/remove", json={"id": lost_id})
    assert removed.status_code == 200
    assert first.post("/api/account/signout-everywhere").status_code == 200
    with browser(app) as thief:
        refused = sign_in(thief, lost)
        assert refused.status_code == 400 and refused.json()["code"] == "unknown_passkey"
    assert sign_in(first, desk).status_code == 200


def test_the_form_of_address_changed_at_a_table_goes_into_the_profile(
        app: Any, first: TestClient) -> None:
    """Вера's account says «она»; at a friends' table she changes her form to «он» (by
    mistake or not): her profile follows, so the forms on her other devices start from it.
    A browser without an account changes only the table."""
    assert register(first, SoftPasskey(ORIGIN), name="Вера").status_code == 201
    assert first.get("/api/account").json()["address"] == "f"
    made = first.post("/api/friends", json={"name": "Вера", "seats": ["friend", "easy"],
                                           "rules": "sochi", "pool": 10})
    assert made.status_code == 201, made.text
    game = made.json()["id"]
    assert first.post(f"/api/friends/{game}/address", json={"gender": "m"}).status_code == 200
    assert first.get("/api/account").json()["address"] == "m"
    with browser(app) as other:  # no account: the table changes, nothing else
        made = other.post("/api/friends", json={"name": "Oleg", "seats": ["friend", "easy"],
                                               "rules": "sochi", "pool": 10})
        assert made.status_code == 201, made.text
        game = made.json()["id"]
        assert other.post(f"/api/friends/{game}/address", json={"gender": "f"}).status_code == 200
        assert other.get("/api/account").json()["signed_in"] is False
    assert first.get("/api/account").json()["address"] == "m"


def test_deleting_needs_one_of_the_accounts_passkeys_now(app: Any, first: TestClient) -> None:
    """A browser left signed in is not enough to delete the account: no answer, an answer by
    another account's passkey, an answer to another ceremony (a sign-in's) and a replayed
    answer are refused, and the account stays; its own passkey's fresh answer deletes it."""
    app.state.account_attempts = Openings(10.0, 100)  # more ceremonies than a minute's bound
    veras = SoftPasskey(ORIGIN)
    assert register(first, veras, name="Vera").status_code == 201
    assert first.post("/api/account/delete").status_code == 422  # no answer at all
    with browser(app) as other:
        olegs = SoftPasskey(ORIGIN)
        assert register(other, olegs, name="Oleg").status_code == 201
        begun = first.post("/api/account/delete/begin").json()["options"]
        wrong = first.post("/api/account/delete", json={"credential": olegs.get(begun)})
        assert wrong.status_code == 403 and wrong.json()["code"] == "not_this_account"
        # Oleg's own ceremony cannot be answered for Vera's account either
        begun = other.post("/api/account/delete/begin").json()["options"]
        taken = first.post("/api/account/delete", json={"credential": veras.get(begun)})
        assert taken.status_code == 400 and taken.json()["code"] == "refused"
        assert other.get("/api/account").json()["name"] == "Oleg"
    signin = first.post("/api/account/signin/begin").json()["options"]
    other_kind = first.post("/api/account/delete", json={"credential": veras.get(signin)})
    assert other_kind.status_code == 400
    assert first.get("/api/account").json()["name"] == "Vera"
    begun = first.post("/api/account/delete/begin").json()["options"]
    answer = veras.get(begun)
    assert first.post("/api/account/delete", json={"credential": answer}).status_code == 200
    assert first.get("/api/account").json() == {"signed_in": False}
    again = first.post("/api/account/delete", json={"credential": answer})
    assert again.status_code == 401  # signed out: nothing left to delete
