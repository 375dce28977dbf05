"""An optional account by passkey (:mod:`..security.passkeys`, :mod:`..store.accounts`):
the account page (``GET /account``) and its JSON under ``/api/account``.

Play needs no account.  A browser is known by its seat token (:mod:`..security.tokens`);
an account owns a seat token of its own, and signing in (a new account, a passkey, or a
second device's one-time code) hands the browser's games over to it
(:meth:`..store.games.GameStore.claim_browser`, unless the browser's token is an account's
already), then gives the browser the account's seat token and a session cookie
(``preferans_session``: HttpOnly, SameSite=Strict, Secure behind TLS).  Every route names
no account: it acts on the caller's own session, so one account cannot reach another's.
Every attempt to register or sign in (and every code typed) counts against the client's
bound (:data:`ATTEMPTS_PER_MINUTE`), answered 429 with a message in its language.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from babel.dates import format_date
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool
from webauthn.helpers import base64url_to_bytes as _unb64
from webauthn.helpers import bytes_to_base64url as _b64

from ...i18n.address import chosen as chosen_address
from ...i18n.translate import COOKIE_NAME, LANGUAGES
from ..lang.language import request_language
from ..security.limits import Openings, client_key
from ..security.links import Links
from ..security.passkeys import (
    CHALLENGE_SECONDS,
    CODE_SECONDS,
    SESSION_DAYS,
    Party,
    PasskeyRefused,
    account_token,
    answered_challenge,
    answered_handle,
    authentication,
    check_assertion,
    check_registration,
    credential_id,
    digest,
    mint_code,
    mint_session,
    normal_code,
    registration,
    relying_party,
    shown_code,
)
from ..security.tokens import SeatTokens, seat_token, token_hash
from ..store.accounts import Account, Credential, now_ms
from ..store.faults import StoreError
from ..store.holders import GONE
from ..table.party import clean_name
from .deps import own_token, set_seat_cookie, with_token
from .responses import page, refused

router = APIRouter()

SESSION_COOKIE = "preferans_session"
"""The cookie of a signed-in browser (the store keeps its sha256)."""
ATTEMPTS_PER_MINUTE = 10.0
"""Registrations, sign-ins and typed codes one client may try a minute, on average..."""
ATTEMPTS_BURST = 10
"""...and at once."""
ENV_ATTEMPT_RATE = "PREFERANS_ACCOUNT_RATE"
"""Environment variable: another bound (attempts a minute per client, as many at once),
for test servers."""


def attempt_limits() -> Openings:
    """The per-client bound on account attempts (the defaults, or ``PREFERANS_ACCOUNT_RATE``)."""
    try:
        per_minute = float(os.environ.get(ENV_ATTEMPT_RATE, "") or ATTEMPTS_PER_MINUTE)
    except ValueError:
        per_minute = ATTEMPTS_PER_MINUTE
    per_minute = per_minute if per_minute > 0 else ATTEMPTS_PER_MINUTE
    return Openings(per_minute / 60.0, max(ATTEMPTS_BURST, int(per_minute)))


class NewAccount(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(max_length=200)  # checked by clean_name, refused in words
    language: str = Field(max_length=16)
    address: str | None = Field(default=None, max_length=4)


class Profile(NewAccount):
    pass


class Answer(BaseModel):
    """A browser's answer to a ceremony (``PublicKeyCredential.toJSON()``)."""

    model_config = ConfigDict(extra="forbid")

    credential: dict[str, Any]


class Code(BaseModel):
    model_config = ConfigDict(extra="forbid")

    code: str = Field(max_length=200)  # checked by normal_code, refused in words


class Passkey(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1, max_length=400)


class Handover(BaseModel):
    model_config = ConfigDict(extra="forbid")

    code: str = Field(min_length=1, max_length=64)


# --- the caller ---------------------------------------------------------------------------
def _state(request: Request) -> Any:
    return request.app.state


def _party(request: Request) -> Party:
    links: Links | None = getattr(_state(request), "links", None)
    return relying_party(request.url.scheme, request.headers.get("host", ""), links)


def _secure(request: Request) -> bool:
    """Whether the cookies are Secure: the request came over TLS, or to a public address
    that is https (TLS ends at the proxy)."""
    if request.url.scheme == "https":
        return True
    links: Links | None = getattr(_state(request), "links", None)
    public = links.public if links is not None else None
    return public is not None and public.scheme == "https" and _party(request).rp_id == public.host


def signed_in(request: Request) -> Account | None:
    """The account of the caller's live session, or None."""
    session = request.cookies.get(SESSION_COOKIE)
    if not session or len(session) > 100:
        return None
    return _state(request).store.session_account(digest(session))


def _token_of(request: Request, account: Account) -> str:
    state = _state(request)
    return account_token(state.seat_tokens, state.account_key, account.id, account.generation)


def _attempt_refused(request: Request) -> JSONResponse | None:
    attempts: Openings = _state(request).account_attempts
    if attempts.allow(client_key(request)):
        return None
    wait = attempts.retry_after()
    response = refused(request, "error.account.too_many", 429, seconds=wait)
    response.headers["Retry-After"] = str(wait)
    return response


def _browser_hash(request: Request) -> str | None:
    """The hash of the caller's own token when its games may be handed to an account: a
    token the server minted that no account owns."""
    token = seat_token(request.cookies)
    seat_tokens: SeatTokens = _state(request).seat_tokens
    if token is None or not seat_tokens.minted(token):
        return None
    held = token_hash(token)
    return None if _state(request).store.owns_token(held) else held


def _signed_in_answer(request: Request, account: Account, status: int = 200) -> Response:
    """Start a session for ``account`` on this browser (ending the one it had) and answer
    with its cookies: the account's seat token, the session, the account's language."""
    store = _state(request).store
    old = request.cookies.get(SESSION_COOKIE)
    if old and len(old) <= 100:
        store.write_now(store.end_session, digest(old))
    session = mint_session()
    store.write_now(store.start_session, digest(session), account,
                    now_ms() + SESSION_DAYS * 86_400_000)
    response = JSONResponse(_profile(account), status_code=status)
    secure = _secure(request)
    set_seat_cookie(response, _token_of(request, account), secure)
    response.set_cookie(SESSION_COOKIE, session, max_age=SESSION_DAYS * 86400, path="/",
                        httponly=True, samesite="strict", secure=secure)
    response.set_cookie(COOKIE_NAME, account.language, max_age=400 * 86400, path="/",
                        samesite="lax", secure=secure)
    return response


def _signed_out(request: Request, payload: dict[str, Any]) -> Response:
    """An answer that leaves this browser anonymous: a fresh seat token (the account's
    games stay the account's), no session."""
    response = JSONResponse(payload)
    set_seat_cookie(response, _state(request).seat_tokens.mint(), _secure(request))
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="strict",
                           secure=_secure(request))
    return response


def _profile(account: Account) -> dict[str, Any]:
    return {"signed_in": True, "name": account.name, "language": account.language,
            "address": account.address}


def _clean_profile(request: Request, body: NewAccount) -> tuple[str, str, str | None] | Response:
    name = clean_name(body.name)
    if name is None:
        return refused(request, "error.account.bad_name", 422)
    if body.language not in LANGUAGES:
        return refused(request, "error.account.bad_language", 422)
    return name, body.language, chosen_address(body.address)


def _store_failed(request: Request) -> Response:
    return refused(request, "error.account.store", 503)


# --- the page -----------------------------------------------------------------------------
@router.get("/account", response_class=HTMLResponse)
def account_page(request: Request) -> Response:
    try:
        account = signed_in(request)
    except StoreError:
        account = None
    passkeys: list[dict[str, Any]] = []
    if account is not None:
        try:
            passkeys = shown_passkeys(store_of(request).passkeys_of(account.id),
                                      request_language(request))
        except StoreError:
            passkeys = []
    response = page(request, "account.html", account=account, passkeys=passkeys,
                    code_minutes=CODE_SECONDS // 60)
    if account is not None and seat_token(request.cookies) != _token_of(request, account):
        set_seat_cookie(response, _token_of(request, account), _secure(request))
    return response


# --- the JSON -----------------------------------------------------------------------------
@router.get("/api/account")
def whoami(request: Request) -> Response:
    """The caller's own profile, or ``signed_in: false``."""
    try:
        account = signed_in(request)
    except StoreError:
        return _store_failed(request)
    return JSONResponse(_profile(account) if account else {"signed_in": False})


@router.post("/api/account/register/begin")
def register_begin(request: Request, body: NewAccount) -> Response:
    if (limited := _attempt_refused(request)) is not None:
        return limited
    cleaned = _clean_profile(request, body)
    if isinstance(cleaned, Response):
        return cleaned
    name, language, address = cleaned
    store = _state(request).store
    handle = secrets.token_bytes(32)
    challenge, options = registration(_party(request), handle, name)
    data = {"account_id": secrets.token_hex(16), "handle": _b64(handle), "name": name,
            "language": language, "address": address}
    try:
        store.write_now(store.put_once, digest(challenge), "register", None, data,
                        now_ms() + CHALLENGE_SECONDS * 1000)
    except StoreError:
        return _store_failed(request)
    return JSONResponse({"options": options})


@router.post("/api/account/register/finish")
def register_finish(request: Request, body: Answer) -> Response:
    if (limited := _attempt_refused(request)) is not None:
        return limited
    store = _state(request).store
    try:
        once = store.write_now(store.take_once, digest(answered_challenge(body.credential)),
                               "register")
        if once is None:
            raise PasskeyRefused("no such challenge")
        made = check_registration(body.credential, _challenge_of(body.credential),
                                  _party(request))
        data = once.data
        account = Account(data["account_id"], data["handle"], data["name"], data["language"],
                          data["address"], 0, "")
        account = _with_token(request, account)
        browser = _browser_hash(request)
        store.write_now(store.create_account, account,
                        Credential(made.id, account.id, made.public_key, made.sign_count),
                        browser)
    except PasskeyRefused:
        return refused(request, "error.account.refused", 400)
    except StoreError:
        return _store_failed(request)
    if browser is not None:
        _state(request).tables.rekey(browser, account.token_hash)
    return _signed_in_answer(request, account, 201)


@router.post("/api/account/signin/begin")
def signin_begin(request: Request) -> Response:
    if (limited := _attempt_refused(request)) is not None:
        return limited
    store = _state(request).store
    challenge, options = authentication(_party(request))
    try:
        store.write_now(store.put_once, digest(challenge), "signin", None, {},
                        now_ms() + CHALLENGE_SECONDS * 1000)
    except StoreError:
        return _store_failed(request)
    return JSONResponse({"options": options})


@router.post("/api/account/signin/finish")
def signin_finish(request: Request, body: Answer) -> Response:
    if (limited := _attempt_refused(request)) is not None:
        return limited
    store = _state(request).store
    try:
        once = store.write_now(store.take_once, digest(answered_challenge(body.credential)),
                               "signin")
        if once is None:
            raise PasskeyRefused("no such challenge")
        passkey = store.credential(credential_id(body.credential))
        account = store.account(passkey.account_id) if passkey is not None else None
        if passkey is None or account is None:  # deleted: the device still offers it
            return refused(request, "error.account.unknown_passkey", 400)
        handle = answered_handle(body.credential)
        if handle is not None and handle != account.handle:
            raise PasskeyRefused("another account's handle")
        count = check_assertion(body.credential, _challenge_of(body.credential),
                                _party(request), passkey.public_key, passkey.sign_count)
        if not store.write_now(store.count_signature, passkey.id, passkey.sign_count, count):
            raise PasskeyRefused("used meanwhile")
        _claim(request, account)
    except PasskeyRefused:
        return refused(request, "error.account.refused", 400)
    except StoreError:
        return _store_failed(request)
    return _signed_in_answer(request, account)


@router.post("/api/account/code")
def new_code(request: Request) -> Response:
    """A one-time code that adds a device to the caller's account (shown on this one)."""
    store = _state(request).store
    try:
        account = signed_in(request)
        if account is None:
            return refused(request, "error.account.not_signed_in", 401)
        code = mint_code()
        store.write_now(store.put_once, digest(code), "code", account.id, {},
                        now_ms() + CODE_SECONDS * 1000)
    except StoreError:
        return _store_failed(request)
    return JSONResponse({"code": shown_code(code), "seconds": CODE_SECONDS})


@router.post("/api/account/device/begin")
def device_begin(request: Request, body: Code) -> Response:
    """A code typed on a new device: taken at once (it works once), and the passkey
    ceremony that adds this device to the code's account begins."""
    if (limited := _attempt_refused(request)) is not None:
        return limited
    store = _state(request).store
    code = normal_code(body.code)
    if code is None:
        return refused(request, "error.account.bad_code", 400)
    try:
        once = store.write_now(store.take_once, digest(code), "code")
        account = store.account(once.account_id) if once and once.account_id else None
        if account is None:
            return refused(request, "error.account.bad_code", 400)
        challenge, options = registration(_party(request), _unb64(account.handle),
                                          account.name, store.credentials_of(account.id))
        store.write_now(store.put_once, digest(challenge), "device", account.id, {},
                        now_ms() + CHALLENGE_SECONDS * 1000)
    except StoreError:
        return _store_failed(request)
    return JSONResponse({"options": options})


@router.post("/api/account/device/finish")
def device_finish(request: Request, body: Answer) -> Response:
    if (limited := _attempt_refused(request)) is not None:
        return limited
    store = _state(request).store
    try:
        once = store.write_now(store.take_once, digest(answered_challenge(body.credential)),
                               "device")
        account = store.account(once.account_id) if once and once.account_id else None
        if account is None:
            raise PasskeyRefused("no such challenge")
        made = check_registration(body.credential, _challenge_of(body.credential),
                                  _party(request))
        if not store.write_now(store.add_credential, Credential(
                made.id, account.id, made.public_key, made.sign_count)):
            raise PasskeyRefused("passkey known")
        _claim(request, account)
    except PasskeyRefused:
        return refused(request, "error.account.refused", 400)
    except StoreError:
        return _store_failed(request)
    return _signed_in_answer(request, account, 201)


@router.post("/api/account/profile")
def change_profile(request: Request, body: Profile) -> Response:
    store = _state(request).store
    cleaned = _clean_profile(request, body)
    if isinstance(cleaned, Response):
        return cleaned
    try:
        account = signed_in(request)
        if account is None:
            return refused(request, "error.account.not_signed_in", 401)
        store.write_now(store.update_profile, account.id, *cleaned)
        account = store.account(account.id) or account
    except StoreError:
        return _store_failed(request)
    response = JSONResponse(_profile(account))
    response.set_cookie(COOKIE_NAME, account.language, max_age=400 * 86400, path="/",
                        samesite="lax", secure=_secure(request))
    return response


@router.post("/api/account/signout")
def sign_out(request: Request) -> Response:
    store = _state(request).store
    session = request.cookies.get(SESSION_COOKIE)
    try:
        if session and len(session) <= 100:
            store.write_now(store.end_session, digest(session))
    except StoreError:
        return _store_failed(request)
    return _signed_out(request, {"signed_in": False})


@router.post("/api/account/signout-everywhere")
def sign_out_everywhere(request: Request) -> Response:
    """Every session of the account ends, and its seat token is replaced: a browser still
    holding the old one holds nothing (its games moved to the new token)."""
    state = _state(request)
    store = state.store
    try:
        account = signed_in(request)
        if account is None:
            return refused(request, "error.account.not_signed_in", 401)
        fresh = token_hash(account_token(state.seat_tokens, state.account_key, account.id,
                                         account.generation + 1))
        if not store.write_now(store.rotate, account.id, account.generation, fresh):
            return refused(request, "error.account.not_signed_in", 401)
    except StoreError:
        return _store_failed(request)
    state.tables.rekey(account.token_hash, fresh)
    return _signed_out(request, {"signed_in": False})


@router.post("/api/account/delete/begin")
def delete_begin(request: Request) -> Response:
    """The passkey ceremony that confirms deleting the caller's account: a session alone (a
    browser left signed in) does not delete it; the answer must come from one of the
    account's own passkeys, now."""
    if (limited := _attempt_refused(request)) is not None:
        return limited
    store = _state(request).store
    try:
        account = signed_in(request)
        if account is None:
            return refused(request, "error.account.not_signed_in", 401)
        challenge, options = authentication(_party(request))
        store.write_now(store.put_once, digest(challenge), "delete", account.id, {},
                        now_ms() + CHALLENGE_SECONDS * 1000)
    except StoreError:
        return _store_failed(request)
    return JSONResponse({"options": options})


def _confirmed(request: Request, account: Account, credential: dict[str, Any]) -> None:
    """Check that ``credential`` answers this account's delete ceremony with one of its own
    passkeys (raises :class:`PasskeyRefused`, or :class:`NotThisAccount`)."""
    store = _state(request).store
    once = store.write_now(store.take_once, digest(answered_challenge(credential)), "delete")
    if once is None or once.account_id != account.id:
        raise PasskeyRefused("no such challenge")
    passkey = store.credential(credential_id(credential))
    if passkey is None or passkey.account_id != account.id:
        raise NotThisAccount
    count = check_assertion(credential, _challenge_of(credential), _party(request),
                            passkey.public_key, passkey.sign_count)
    if not store.write_now(store.count_signature, passkey.id, passkey.sign_count, count):
        raise PasskeyRefused("used meanwhile")


class NotThisAccount(Exception):
    """A passkey of another account (or none) answered this account's ceremony."""


@router.post("/api/account/delete")
async def delete_account(request: Request, body: Answer) -> Response:
    """The caller's account and everything it holds, at once: its games (a game shared with
    other people keeps theirs, the seat marked gone), passkeys, sessions and codes; confirmed
    by one of its passkeys (``/api/account/delete/begin``'s ceremony)."""
    if (limited := _attempt_refused(request)) is not None:
        return limited
    state = _state(request)
    store = state.store
    try:
        account = await run_in_threadpool(signed_in, request)
        if account is None:
            return refused(request, "error.account.not_signed_in", 401)
        await run_in_threadpool(_confirmed, request, account, body.credential)
        for table in list(state.tables.open.values()):
            held = [h for h in table.seats.values() if h]
            if account.token_hash not in held:
                continue
            if all(h in (account.token_hash, GONE) for h in held):
                state.tables.open.pop(table.id, None)  # its row goes: the table stops first
                await table.stop()
            else:
                state.tables.rekey(account.token_hash, GONE)
        await store.write(store.delete_account, account.id)
    except PasskeyRefused:
        return refused(request, "error.account.refused", 400)
    except NotThisAccount:
        return refused(request, "error.account.not_this_account", 403)
    except StoreError:
        return _store_failed(request)
    return _signed_out(request, {"signed_in": False, "deleted": True})


@router.post("/api/account/passkeys/remove")
def remove_passkey(request: Request, body: Passkey) -> Response:
    """Remove one passkey of the caller's own account (a lost device's); never the last."""
    store = _state(request).store
    try:
        account = signed_in(request)
        if account is None:
            return refused(request, "error.account.not_signed_in", 401)
        done = store.write_now(store.remove_credential, account.id, body.id)
    except StoreError:
        return _store_failed(request)
    if done == "last":
        return refused(request, "error.account.last_passkey", 409)
    if done == "unknown":
        return refused(request, "error.account.no_passkey", 404)
    return JSONResponse({"removed": True})


@router.post("/api/account/handover")
def handover(request: Request) -> Response:
    """A one-time code that hands this browser's games to the browser that opens the same
    server under another name (``127.0.0.1`` → ``localhost``: a passkey needs a name, and
    cookies belong to one name).  ``code`` null: this browser holds nothing to hand over."""
    if (limited := _attempt_refused(request)) is not None:
        return limited
    store = _state(request).store
    try:
        held = _browser_hash(request)
        if held is None:
            return JSONResponse({"code": None})
        code = mint_session()
        store.write_now(store.put_once, digest(code), "handover", None, {"hash": held},
                        now_ms() + CODE_SECONDS * 1000)
    except StoreError:
        return _store_failed(request)
    return JSONResponse({"code": code, "seconds": CODE_SECONDS})


@router.post("/api/account/handover/take")
def take_handover(request: Request, body: Handover) -> Response:
    """The games of the browser that minted ``code`` (once, briefly) now this browser's
    (its own seat token, minted now if it has none; an account's if it is signed in)."""
    if (limited := _attempt_refused(request)) is not None:
        return limited
    state = _state(request)
    store = state.store
    try:
        once = store.write_now(store.take_once, digest(body.code), "handover")
        old = once.data.get("hash") if once is not None else None
        if not isinstance(old, str) or len(old) != 64:
            return refused(request, "error.account.bad_handover", 400)
        new_token: list[str] = []
        mine = token_hash(own_token(request, new_token))
        moved = store.write_now(store.claim_browser, old, mine) if old != mine else 0
    except StoreError:
        return _store_failed(request)
    state.tables.rekey(old, mine)
    return with_token(request, JSONResponse({"moved": moved}), new_token)


# --- helpers ------------------------------------------------------------------------------
def store_of(request: Request) -> Any:
    return _state(request).store


def shown_passkeys(passkeys: list[dict[str, Any]], lang: str) -> list[dict[str, Any]]:
    """The passkeys as the page lists them: numbered, their dates in the reader's words."""
    def when(ms: int | None) -> str | None:
        if ms is None:
            return None
        moment = datetime.fromtimestamp(ms / 1000, UTC)
        return format_date(moment, format="medium", locale=lang)

    return [{"id": key["id"], "number": number, "added": when(key["created_ms"]),
             "used": when(key["used_ms"])} for number, key in enumerate(passkeys, 1)]


def _challenge_of(credential: dict[str, Any]) -> bytes:
    return answered_challenge(credential)


def _with_token(request: Request, account: Account) -> Account:
    return replace(account, token_hash=token_hash(_token_of(request, account)))


def _claim(request: Request, account: Account) -> None:
    """Hand the browser's games to ``account`` (unless its token is an account's)."""
    store = _state(request).store
    old = _browser_hash(request)
    if old is not None and old != account.token_hash:
        store.write_now(store.claim_browser, old, account.token_hash)
        _state(request).tables.rekey(old, account.token_hash)


__all__ = ["SESSION_COOKIE", "router", "signed_in"]
