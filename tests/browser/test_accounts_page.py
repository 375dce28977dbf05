"""Accounts by passkey in real Chromium, with its virtual authenticator (WebAuthn over the
DevTools protocol): a player starts a game, makes an account on the Account page, shows a
one-time code; a second browser (a phone, in Russian) adds itself by that code and finds
the first browser's game there (CONTINUE, the statistics); the account is deleted and the
game with it.  WebAuthn needs a secure context and a domain: the pages are opened at
``http://localhost`` (an IP address cannot be a relying party)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer
from playwright.sync_api import expect
from table_driver import new_game, open_table

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def with_authenticator(context: Any, page: Any) -> str:
    """A platform authenticator that holds passkeys and verifies its user at once."""
    session = context.new_cdp_session(page)
    session.send("WebAuthn.enable")
    added = session.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
        "hasUserVerification": True, "isUserVerified": True,
        "automaticPresenceSimulation": True}})
    page._cdp_keep = session  # kept alive with the page
    return str(added["authenticatorId"])


def fits(page: Any) -> bool:
    return bool(page.evaluate(
        "() => document.documentElement.scrollWidth <= window.innerWidth"))


def test_an_account_made_joined_by_code_on_a_phone_and_deleted(
        browser: Any, live_server: LiveServer, artifacts: Path) -> None:
    base = f"http://localhost:{live_server.port}"
    desk = browser.new_context(viewport={"width": 1280, "height": 900})
    phone = browser.new_context(viewport=PHONE, locale="ru-RU", is_mobile=True,
                                has_touch=True,
                                extra_http_headers={"Accept-Language": "ru-RU,ru;q=0.9"})
    errors: list[str] = []
    try:
        page = desk.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        with_authenticator(desk, page)
        # the player plays where make play opens the game: at a number, 127.0.0.1
        game_id = new_game(page, live_server.url, seed=2)
        assert open_table(page, live_server.url, game_id)["observation"]["hand"]
        page.goto(live_server.url + "/")
        page.click("#account-link")
        # a passkey cannot be made there: the page says so and takes the games along to
        # the same server at localhost (cookies belong to one name)
        expect(page.locator("#need-localhost")).to_be_visible()
        assert page.locator("#localhost-link").get_attribute("href") == base + "/account"
        assert page.locator("#need-https").is_hidden()
        page.click("#to-localhost")
        page.wait_for_url(re.compile(r"^http://localhost:\d+/account(#.*)?$"))
        expect(page.locator("#account-status")).to_contain_text("games from the other address")
        assert page.request.get(base + "/api/games/current").json()["id"] == game_id

        page.fill("#account-name", "Вера")
        page.click("#register")
        page.wait_for_selector("#who")
        assert "Вера" in page.locator("#who").inner_text()
        assert page.locator('#account-address input[value="f"]').is_checked()
        # the profile: the account speaks Russian from now on, on every device
        page.check('#account-language input[value="ru"]', force=True)
        page.click("#save-profile")
        page.wait_for_url(re.compile(r"/account\?lang=ru$"))
        expect(page.locator("#who")).to_have_text("Вы вошли как Вера.")
        page.click("#show-code")
        code_box = page.locator("#code")
        page.wait_for_function(
            "() => /^[A-Z2-9]{4}-[A-Z2-9]{4}$/.test(document.getElementById('code').textContent)")
        code = code_box.inner_text()
        page.screenshot(path=str(artifacts / "account-desktop.png"), full_page=True)
        assert fits(page)

        tab = phone.new_page()
        tab.on("pageerror", lambda error: errors.append(str(error)))
        with_authenticator(phone, tab)
        tab.goto(base + "/")
        assert tab.locator("#continue").count() == 0  # nothing here yet
        tab.goto(base + "/account")
        assert fits(tab)
        tab.screenshot(path=str(artifacts / "account-phone-signed-out.png"), full_page=True)
        tab.fill("#device-code", "WRONG-CODE")
        tab.click("#device")
        expect(tab.locator("#account-error")).to_contain_text("Этот код не действует")
        tab.fill("#device-code", code.lower())
        tab.click("#device")
        tab.wait_for_selector("#who")
        assert "Вы вошли как Вера" in tab.locator("#who").inner_text()
        # the profile fills the friends' name form on this device
        assert tab.evaluate("() => localStorage.getItem('preferans.name')") == "Вера"
        assert fits(tab)
        tab.screenshot(path=str(artifacts / "account-phone-signed-in.png"), full_page=True)
        # the first browser's game is here: CONTINUE, and the statistics count it
        tab.goto(base + "/")
        assert tab.locator("#continue").get_attribute("href") == f"/table/{game_id}"
        tab.goto(base + "/stats")
        counts = tab.locator("#stats tbody tr td:nth-child(2)").all_inner_texts()
        assert "1" in counts
        # the code worked once
        again = tab.request.post(base + "/api/account/device/begin", data={"code": code})
        assert again.status == 400

        # the first browser lists both devices' passkeys
        page.goto(base + "/account")
        expect(page.locator("#passkeys li")).to_have_count(2)
        expect(page.locator("#passkeys")).to_contain_text("Ключ 2")
        assert fits(page)
        page.screenshot(path=str(artifacts / "account-desktop-passkeys.png"), full_page=True)

        # deleted on the first browser: the game goes, the phone is signed out
        page.click("#delete")
        page.click("#delete-confirm")
        page.wait_for_selector("#register-form")
        assert page.request.get(f"{base}/api/games/{game_id}/record").status == 404
        tab.goto(base + "/account")
        assert tab.locator("#register-form").count() == 1
        tab.goto(base + "/")
        assert tab.locator("#continue").count() == 0
    finally:
        desk.close()
        phone.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
