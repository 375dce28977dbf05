"""A software passkey for the account tests: what a phone's authenticator answers to
``navigator.credentials.create`` and ``.get`` (an ES256 key, attestation "none", a signature
counter), made here with ``cryptography`` and ``cbor2`` so the server's checks
(:mod:`preferans.server.security.passkeys`, the ``webauthn`` package) run for real."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
from dataclasses import dataclass, field
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class SoftPasskey:
    """One authenticator holding passkeys (one per RP and user), counting its signatures."""

    origin: str = "http://testserver"
    keys: dict[str, tuple[ec.EllipticCurvePrivateKey, str, bytes]] = field(default_factory=dict)
    counter: int = 0
    counts: bool = True
    """False: a passkey that always signs with counter 0 (synced passkeys do): only the
    single-use challenge stops a replay then."""

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        return json.dumps({"type": kind, "challenge": challenge,
                           "origin": origin or self.origin, "crossOrigin": False}).encode()

    def create(self, options: dict[str, Any], origin: str | None = None,
               rp_id: str | None = None) -> dict[str, Any]:
        """The answer to a registration's options (a new passkey kept here)."""
        key = ec.generate_private_key(ec.SECP256R1())
        numbers = key.public_key().public_numbers()
        cose = cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"),
                            -3: numbers.y.to_bytes(32, "big")})
        cred_id = secrets.token_bytes(16)
        rp = rp_id or options["rp"]["id"]
        self.counter += 1 if self.counts else 0
        auth_data = (hashlib.sha256(rp.encode()).digest() + bytes([0x45])
                     + self.counter.to_bytes(4, "big") + bytes(16)
                     + len(cred_id).to_bytes(2, "big") + cred_id + cose)
        self.keys[b64(cred_id)] = (key, rp, unb64(options["user"]["id"]))
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {"id": b64(cred_id), "rawId": b64(cred_id), "type": "public-key",
                "clientExtensionResults": {},
                "response": {"clientDataJSON": b64(self._client_data(
                    "webauthn.create", options["challenge"], origin)),
                    "attestationObject": b64(attestation), "transports": ["internal"]}}

    def get(self, options: dict[str, Any], origin: str | None = None,
            cred_id: str | None = None, counter: int | None = None) -> dict[str, Any]:
        """The assertion answering an authentication's options, by the passkey ``cred_id``
        (default: the last made), its counter moved on (or ``counter``)."""
        cred_id = cred_id or list(self.keys)[-1]
        key, rp, handle = self.keys[cred_id]
        if counter is None:
            self.counter += 1 if self.counts else 0
            counter = self.counter
        auth_data = (hashlib.sha256(rp.encode()).digest() + bytes([0x05])
                     + counter.to_bytes(4, "big"))
        client = self._client_data("webauthn.get", options["challenge"], origin)
        signature = key.sign(auth_data + hashlib.sha256(client).digest(),
                             ec.ECDSA(hashes.SHA256()))
        return {"id": cred_id, "rawId": cred_id, "type": "public-key",
                "clientExtensionResults": {},
                "response": {"clientDataJSON": b64(client), "authenticatorData": b64(auth_data),
                             "signature": b64(signature), "userHandle": b64(handle)}}
