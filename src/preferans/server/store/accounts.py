"""The accounts' rows (:mod:`.schema`: ``accounts``, ``account_credentials``,
``account_sessions``, ``account_once``): a part of :class:`.games.GameStore`, as the
leases are.  The writes run on the store's writer thread (:meth:`GameStore.write_now`).

Nothing here is looked up by a player's name; a session, a challenge and a code are found
by the sha256 of what the browser holds, and each expires."""

from __future__ import annotations

import json
import time
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, delete, insert, select, update

from .holders import erase_holder, move_holder
from .schema import account_credentials, account_once, account_sessions, accounts


def now_ms() -> int:
    return time.time_ns() // 1_000_000


@dataclass(frozen=True)
class Account:
    """An account as the server reads it (never its passkeys' keys)."""

    id: str
    handle: str
    name: str
    language: str
    address: str | None
    generation: int
    token_hash: str


@dataclass(frozen=True)
class Credential:
    """One passkey of an account."""

    id: str
    account_id: str
    public_key: str
    sign_count: int


@dataclass(frozen=True)
class Once:
    """A challenge or code taken by its first use: its kind, account and data."""

    kind: str
    account_id: str | None
    data: dict[str, Any]


def _account(row: Any) -> Account:
    return Account(row.id, row.handle, row.name, row.language, row.address,
                   int(row.generation), row.token_hash)


class AccountStore:
    """The accounts of a :class:`.games.GameStore` (a part of it)."""

    if TYPE_CHECKING:  # the store's own, used here
        def guard(self, writing: bool = False) -> AbstractContextManager[None]: ...

        def _begin(self) -> AbstractContextManager[Any]: ...

        def _connect(self) -> AbstractContextManager[Any]: ...

    # --- accounts ---------------------------------------------------------------------
    def create_account(self, account: Account, credential: Credential,
                       browser_hash: str | None) -> None:
        """Make ``account`` with its first passkey; the games of the browser whose token
        hashes to ``browser_hash`` (if any) move into it, in the same transaction."""
        with self.guard(writing=True), self._begin() as conn:
            conn.execute(insert(accounts).values(
                id=account.id, handle=account.handle, name=account.name,
                language=account.language, address=account.address,
                generation=account.generation, token_hash=account.token_hash,
                created_ms=now_ms()))
            self._insert_credential(conn, credential)
            if browser_hash:
                move_holder(conn, browser_hash, account.token_hash)

    def account(self, account_id: str) -> Account | None:
        with self.guard(), self._connect() as conn:
            row = conn.execute(select(accounts).where(accounts.c.id == account_id)).first()
        return _account(row) if row is not None else None

    def owns_token(self, token_hash: str) -> bool:
        """Whether ``token_hash`` is an account's seat token (its games are not a browser's
        to hand over)."""
        with self.guard(), self._connect() as conn:
            return conn.execute(select(accounts.c.id).where(
                accounts.c.token_hash == token_hash)).first() is not None

    def update_profile(self, account_id: str, name: str, language: str,
                       address: str | None) -> bool:
        with self.guard(writing=True), self._begin() as conn:
            done = conn.execute(update(accounts).where(accounts.c.id == account_id).values(
                name=name, language=language, address=address))
        return bool(done.rowcount)

    def rotate(self, account_id: str, generation: int, new_token_hash: str) -> bool:
        """Sign the account out everywhere: every session ends, the generation is raised
        and what the old token held moves to ``new_token_hash`` (the old seat cookies hold
        nothing any more).  False when the account changed meanwhile (or is gone)."""
        with self.guard(writing=True), self._begin() as conn:
            row = conn.execute(select(accounts).where(and_(
                accounts.c.id == account_id, accounts.c.generation == generation))).first()
            if row is None:
                return False
            conn.execute(update(accounts).where(accounts.c.id == account_id).values(
                generation=generation + 1, token_hash=new_token_hash))
            conn.execute(delete(account_sessions).where(
                account_sessions.c.account_id == account_id))
            move_holder(conn, row.token_hash, new_token_hash)
        return True

    def delete_account(self, account_id: str) -> bool:
        """The account and everything it holds, in one transaction: its games
        (:func:`.holders.erase_holder`), passkeys, sessions, codes and the account."""
        with self.guard(writing=True), self._begin() as conn:
            row = conn.execute(select(accounts).where(accounts.c.id == account_id)).first()
            if row is None:
                return False
            erase_holder(conn, row.token_hash)
            for table in (account_sessions, account_credentials, account_once):
                conn.execute(delete(table).where(table.c.account_id == account_id))
            conn.execute(delete(accounts).where(accounts.c.id == account_id))
        return True

    # --- passkeys ----------------------------------------------------------------------
    @staticmethod
    def _insert_credential(conn: Any, credential: Credential) -> None:
        conn.execute(insert(account_credentials).values(
            id=credential.id, account_id=credential.account_id,
            public_key=credential.public_key, sign_count=credential.sign_count,
            created_ms=now_ms()))

    def add_credential(self, credential: Credential) -> bool:
        """Another passkey of an existing account; False when the account is gone or the
        passkey is known already."""
        with self.guard(writing=True), self._begin() as conn:
            if conn.execute(select(accounts.c.id).where(
                    accounts.c.id == credential.account_id)).first() is None:
                return False
            if conn.execute(select(account_credentials.c.id).where(
                    account_credentials.c.id == credential.id)).first() is not None:
                return False
            self._insert_credential(conn, credential)
        return True

    def credential(self, credential_id: str) -> Credential | None:
        with self.guard(), self._connect() as conn:
            row = conn.execute(select(account_credentials).where(
                account_credentials.c.id == credential_id)).first()
        return (Credential(row.id, row.account_id, row.public_key, int(row.sign_count))
                if row is not None else None)

    def credentials_of(self, account_id: str) -> list[str]:
        with self.guard(), self._connect() as conn:
            return [row.id for row in conn.execute(select(account_credentials.c.id).where(
                account_credentials.c.account_id == account_id))]

    def passkeys_of(self, account_id: str) -> list[dict[str, Any]]:
        """An account's passkeys, the oldest first: ``id``, ``created_ms``, ``used_ms``."""
        query = (select(account_credentials.c.id, account_credentials.c.created_ms,
                        account_credentials.c.used_ms)
                 .where(account_credentials.c.account_id == account_id)
                 .order_by(account_credentials.c.created_ms, account_credentials.c.id))
        with self.guard(), self._connect() as conn:
            return [{"id": row.id, "created_ms": int(row.created_ms),
                     "used_ms": int(row.used_ms) if row.used_ms is not None else None}
                    for row in conn.execute(query)]

    def remove_credential(self, account_id: str, credential_id: str) -> str:
        """Remove one of the account's passkeys (a lost device's): ``removed``; ``last``
        when it is the account's only one (kept: the account would be locked out);
        ``unknown`` when the account has no such passkey."""
        with self.guard(writing=True), self._begin() as conn:
            held = [row.id for row in conn.execute(select(account_credentials.c.id).where(
                account_credentials.c.account_id == account_id))]
            if credential_id not in held:
                return "unknown"
            if len(held) == 1:
                return "last"
            conn.execute(delete(account_credentials).where(and_(
                account_credentials.c.id == credential_id,
                account_credentials.c.account_id == account_id)))
        return "removed"

    def count_signature(self, credential_id: str, old: int, new: int) -> bool:
        """Record a passkey's new signature counter, only if it still reads ``old`` (two
        uses of one assertion at once: one wins)."""
        with self.guard(writing=True), self._begin() as conn:
            done = conn.execute(update(account_credentials).where(and_(
                account_credentials.c.id == credential_id,
                account_credentials.c.sign_count == old)).values(
                    sign_count=new, used_ms=now_ms()))
        return bool(done.rowcount)

    # --- sessions ----------------------------------------------------------------------
    def start_session(self, session_hash: str, account: Account, expires_ms: int) -> None:
        with self.guard(writing=True), self._begin() as conn:
            conn.execute(delete(account_sessions).where(
                account_sessions.c.expires_ms < now_ms()))
            conn.execute(insert(account_sessions).values(
                hash=session_hash, account_id=account.id, generation=account.generation,
                expires_ms=expires_ms))

    def session_account(self, session_hash: str) -> Account | None:
        """The account of a live session, or None (unknown, ended, expired, or of an
        older generation)."""
        query = (select(accounts).join(account_sessions,
                                       account_sessions.c.account_id == accounts.c.id)
                 .where(and_(account_sessions.c.hash == session_hash,
                             account_sessions.c.expires_ms > now_ms(),
                             account_sessions.c.generation == accounts.c.generation)))
        with self.guard(), self._connect() as conn:
            row = conn.execute(query).first()
        return _account(row) if row is not None else None

    def end_session(self, session_hash: str) -> None:
        with self.guard(writing=True), self._begin() as conn:
            conn.execute(delete(account_sessions).where(
                account_sessions.c.hash == session_hash))

    # --- what works once ---------------------------------------------------------------
    def put_once(self, once_hash: str, kind: str, account_id: str | None,
                 data: dict[str, Any], expires_ms: int) -> None:
        """Keep a challenge or a code (its hash) until ``expires_ms`` or its first use;
        the expired ones go now."""
        with self.guard(writing=True), self._begin() as conn:
            conn.execute(delete(account_once).where(account_once.c.expires_ms < now_ms()))
            conn.execute(insert(account_once).values(
                hash=once_hash, kind=kind, account_id=account_id,
                data=json.dumps(data), expires_ms=expires_ms))

    def take_once(self, once_hash: str, kind: str) -> Once | None:
        """The challenge or code of ``kind`` with this hash, taken: deleted in the same
        transaction, so a second use (in any process) finds nothing.  None when unknown,
        of another kind, used or expired."""
        with self.guard(writing=True), self._begin() as conn:
            row = conn.execute(select(account_once).where(and_(
                account_once.c.hash == once_hash, account_once.c.kind == kind))).first()
            if row is None:
                return None
            done = conn.execute(delete(account_once).where(and_(
                account_once.c.hash == once_hash, account_once.c.kind == kind)))
        if done.rowcount != 1 or int(row.expires_ms) <= now_ms():
            return None
        data = json.loads(row.data) if row.data else {}
        return Once(row.kind, row.account_id, data if isinstance(data, dict) else {})
