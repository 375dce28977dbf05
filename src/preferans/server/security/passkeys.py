"""Accounts by passkey (WebAuthn, the ``webauthn`` package): the ceremonies' options and
checks, and the secrets the server mints for an account.

- **The relying party** is the address the browser used: its host is the RP id and
  ``scheme://host[:port]`` the one origin an answer may come from (behind a proxy, the
  public address, :mod:`.links`).  An assertion made for another site is refused.
- **Challenges** are 32 random bytes minted here, kept by the store only as their sha256,
  taken by their first use and short-lived (:data:`CHALLENGE_SECONDS`): a replayed answer
  finds no challenge.  The passkey's signature counter must also move on.
- **One-time codes** (a second device) are 8 letters and digits (40 bits) from an alphabet
  without look-alikes, shown as ``ABCD-EFGH``, kept hashed, single use, for
  :data:`CODE_SECONDS`.
- **An account's seat token** is minted from the account's id and generation under a key
  of the server's (nothing to store but its hash): raising the generation ("sign out
  everywhere") gives the account a new token, and the old one holds nothing.

>>> normal_code(" abcd-efgh "), normal_code("ab"), normal_code("ABCD EFG1")
('ABCDEFGH', None, None)
>>> shown_code("ABCDEFGH")
'ABCD-EFGH'
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from typing import Any

from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from .links import Links
from .tokens import BODY, SeatTokens

RP_NAME = "Preferans"
CHALLENGE_SECONDS = 300
"""How long a ceremony's challenge stays good."""
CODE_SECONDS = 300
"""How long a one-time code for a second device stays good."""
SESSION_DAYS = 180
"""How long a sign-in lasts on one browser."""
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""The code's characters: no 0/O, 1/I."""
CODE_LENGTH = 8
MOST_ANSWER = 16_384
"""The longest WebAuthn answer (JSON characters) looked at."""


class PasskeyRefused(Exception):
    """An answer that proves nothing: a bad form, an unknown or used challenge, another
    origin, a bad signature, a counter that did not move on."""


def digest(secret: str | bytes) -> str:
    """The sha256 (hex) the store keeps of a secret (a challenge, a code, a session)."""
    raw = secret.encode() if isinstance(secret, str) else secret
    return hashlib.sha256(raw).hexdigest()


def mint_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(text: object) -> str | None:
    """A typed code as minted (upper case, no spaces or dashes), or None: not one."""
    if not isinstance(text, str) or len(text) > 40:
        return None
    code = "".join(ch for ch in text.upper() if ch not in " -")
    if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
        return None
    return code


def shown_code(code: str) -> str:
    return f"{code[:4]}-{code[4:]}"


def mint_session() -> str:
    return secrets.token_urlsafe(32)


def account_token(seat_tokens: SeatTokens, key: bytes, account_id: str,
                  generation: int) -> str:
    """The seat token an account owns at ``generation`` (signed as every minted token)."""
    mac = hmac.new(key, f"account:{account_id}:{generation}".encode(), hashlib.sha256)
    body = base64.urlsafe_b64encode(mac.digest()).decode().rstrip("=")[:BODY]
    return seat_tokens.signed(body)


@dataclass(frozen=True)
class Party:
    """The relying party a request speaks to: its RP id and the origin answers must name."""

    rp_id: str
    origin: str


def relying_party(scheme: str, host_header: str, links: Links | None) -> Party:
    """The RP id and origin of a request reached at ``scheme://host_header`` (the public
    address's when the request came to its host)."""
    host = host_header.strip().lower()
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    name = name.strip("[]")
    public = links.public if links is not None else None
    if public is not None and public.host == name:
        return Party(public.host, public.origin)
    return Party(name, f"{'https' if scheme in ('https', 'wss') else 'http'}://{host}")


def registration(party: Party, user_handle: bytes, name: str,
                 exclude: list[str] = ()) -> tuple[bytes, dict[str, Any]]:  # type: ignore[assignment]
    """A new challenge and the options of ``navigator.credentials.create`` (a passkey kept
    on the device, the user verified)."""
    challenge = secrets.token_bytes(32)
    options = generate_registration_options(
        rp_id=party.rp_id, rp_name=RP_NAME, user_name=name, user_id=user_handle,
        user_display_name=name, challenge=challenge, timeout=CHALLENGE_SECONDS * 1000,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED, require_resident_key=True,
            user_verification=UserVerificationRequirement.PREFERRED),
        exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(c))
                             for c in exclude])
    return challenge, json.loads(options_to_json(options))


def authentication(party: Party) -> tuple[bytes, dict[str, Any]]:
    """A new challenge and the options of ``navigator.credentials.get`` (any passkey of
    this site: the browser offers them, the server names no account)."""
    challenge = secrets.token_bytes(32)
    options = generate_authentication_options(
        rp_id=party.rp_id, challenge=challenge, timeout=CHALLENGE_SECONDS * 1000,
        user_verification=UserVerificationRequirement.PREFERRED)
    return challenge, json.loads(options_to_json(options))


def answered_challenge(credential: object) -> bytes:
    """The challenge a browser's answer signed (from its client data), to find the
    ceremony it answers; raises :class:`PasskeyRefused` for anything malformed."""
    try:
        if not isinstance(credential, dict) or len(json.dumps(credential)) > MOST_ANSWER:
            raise ValueError("not an answer")
        raw = base64url_to_bytes(credential["response"]["clientDataJSON"])
        client = json.loads(raw)
        return base64url_to_bytes(client["challenge"])
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise PasskeyRefused(str(exc)) from None


def credential_id(credential: object) -> str:
    """The credential id a browser's answer names (base64url), checked for form."""
    raw = credential.get("rawId") if isinstance(credential, dict) else None
    if not isinstance(raw, str) or not 1 <= len(raw) <= 400:
        raise PasskeyRefused("no credential id")
    try:
        return bytes_to_base64url(base64url_to_bytes(raw))
    except (ValueError, TypeError):
        raise PasskeyRefused("bad credential id") from None


@dataclass(frozen=True)
class NewPasskey:
    id: str
    public_key: str
    sign_count: int


def check_registration(credential: dict[str, Any], challenge: bytes,
                       party: Party) -> NewPasskey:
    try:
        verified = verify_registration_response(
            credential=credential, expected_challenge=challenge,
            expected_rp_id=party.rp_id, expected_origin=party.origin)
    except (WebAuthnException, KeyError, TypeError, ValueError) as exc:
        raise PasskeyRefused(str(exc)) from None
    return NewPasskey(bytes_to_base64url(verified.credential_id),
                      bytes_to_base64url(verified.credential_public_key),
                      verified.sign_count)


def check_assertion(credential: dict[str, Any], challenge: bytes, party: Party,
                    public_key: str, sign_count: int) -> int:
    """The passkey's new signature counter when the assertion is good for this challenge
    and origin (a counter that does not move on, when the passkey counts, is refused)."""
    try:
        verified = verify_authentication_response(
            credential=credential, expected_challenge=challenge,
            expected_rp_id=party.rp_id, expected_origin=party.origin,
            credential_public_key=base64url_to_bytes(public_key),
            credential_current_sign_count=sign_count)
    except (WebAuthnException, KeyError, TypeError, ValueError) as exc:
        raise PasskeyRefused(str(exc)) from None
    return verified.new_sign_count


def answered_handle(credential: dict[str, Any]) -> str | None:
    """The user handle an assertion names (base64url), if any."""
    try:
        handle = credential["response"].get("userHandle")
        return bytes_to_base64url(base64url_to_bytes(handle)) if handle else None
    except (KeyError, TypeError, ValueError, AttributeError):
        raise PasskeyRefused("bad user handle") from None
