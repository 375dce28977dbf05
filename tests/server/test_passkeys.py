"""The passkey helpers (server/security/passkeys.py): the relying party a request speaks
to, the codes' form, an account's seat token; and the store's holders (what moves with a
token's hash, what goes with it)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from preferans.server.security.links import Links, parse_public_url
from preferans.server.security.passkeys import (
    CODE_ALPHABET,
    PasskeyRefused,
    account_token,
    answered_challenge,
    credential_id,
    digest,
    mint_code,
    normal_code,
    relying_party,
    shown_code,
)
from preferans.server.security.tokens import SeatTokens


@pytest.mark.parametrize(("scheme", "host", "links", "rp_id", "origin"), [
    ("http", "localhost:8000", None, "localhost", "http://localhost:8000"),
    ("https", "pref.example.org", None, "pref.example.org", "https://pref.example.org"),
    ("http", "pref.example.org", Links(parse_public_url("https://pref.example.org")),
     "pref.example.org", "https://pref.example.org"),
    # another host than the public one: its own origin, never the public address's
    ("http", "localhost:8000", Links(parse_public_url("https://pref.example.org")),
     "localhost", "http://localhost:8000"),
    ("wss", "LOCALHOST:9", None, "localhost", "https://localhost:9"),
])
def test_the_relying_party_is_the_address_the_browser_used(
        scheme: str, host: str, links: Links | None, rp_id: str, origin: str) -> None:
    party = relying_party(scheme, host, links)
    assert (party.rp_id, party.origin) == (rp_id, origin)


@given(st.data())
def test_a_minted_code_reads_back_however_it_is_typed(data: st.DataObject) -> None:
    code = mint_code()
    assert len(code) == 8 and set(code) <= set(CODE_ALPHABET)
    shown = shown_code(code)
    typed = data.draw(st.sampled_from([shown, shown.lower(), f"  {code.lower()} ",
                                       shown.replace("-", " ")]))
    assert normal_code(typed) == code


@given(st.text(max_size=50))
def test_anything_typed_is_a_code_or_none(text: str) -> None:
    code = normal_code(text)
    assert code is None or (len(code) == 8 and set(code) <= set(CODE_ALPHABET))


def test_codes_without_look_alikes() -> None:
    assert not set("01OI") & set(CODE_ALPHABET)
    assert normal_code("ABCD-EFG0") is None and normal_code(12345678) is None


def test_an_accounts_token_is_minted_signed_and_changes_with_its_generation() -> None:
    tokens = SeatTokens(b"k" * 32)
    first = account_token(tokens, b"a" * 32, "acc1", 0)
    assert tokens.minted(first) and len(first) == 64
    assert account_token(tokens, b"a" * 32, "acc1", 0) == first
    assert account_token(tokens, b"a" * 32, "acc1", 1) != first
    assert account_token(tokens, b"a" * 32, "acc2", 0) != first
    assert account_token(tokens, b"b" * 32, "acc1", 0) != first  # another server's key


@pytest.mark.parametrize("answer", [
    None, "text", {}, {"response": {}}, {"response": {"clientDataJSON": "!!"}},
    {"response": {"clientDataJSON": "e30"}},  # {} : no challenge
    {"response": {"clientDataJSON": "x" * 20_000}},
])
def test_a_malformed_answer_is_refused_before_any_work(answer: object) -> None:
    with pytest.raises(PasskeyRefused):
        answered_challenge(answer)


def test_a_credential_id_is_checked_for_form() -> None:
    assert credential_id({"rawId": "AAEC"}) == "AAEC"
    for bad in ({}, {"rawId": 5}, {"rawId": ""}, {"rawId": "a" * 401}, "x"):
        with pytest.raises(PasskeyRefused):
            credential_id(bad)


def test_the_store_keeps_a_digest() -> None:
    assert digest("abc") == digest(b"abc") != "abc"
    assert len(digest("abc")) == 64
