"""Pairing a table screen: the floor asks for a short code, the tablet types it once and is
signed in as the dealer account bound to that table (``floor user add --role dealer
--table N``); the device keeps the session while dealers rotate.

A code is eight digits, good for ``PAIRING_TTL`` seconds and once. It is kept as the
accounts' storage keeps a session (``StoredSession``, under the digest of the code with a
prefix of its own), already expired: so it can never be used as a session token itself,
and ending the account's sessions (a new secret, the director's sign-out) ends its codes
too. Redeeming takes it out of the storage atomically (``end_session``), and a wrong code
counts against the address as a failed sign-in does (``SignInLimits``).
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Final

import msgspec

from ..engine.errors import NotAllowed
from ..store.accounts_port import StoredSession
from .accounts import Accounts, Session
from .principal import BadCredentials

#: Seconds a pairing code stays good: long enough to walk to the table.
PAIRING_TTL: Final = 600
_DIGITS: Final = 8
_PREFIX: Final = "table-pairing:"


class PairingCode(msgspec.Struct, frozen=True, kw_only=True):
    code: str
    table: int
    username: str
    expires_at: float


def _digest(code: str) -> str:
    return hashlib.sha256((_PREFIX + code).encode()).hexdigest()


def _normal(code: str) -> str:
    return "".join(c for c in code if not c.isspace() and c != "-")


async def issue(accounts: Accounts, table: int, issuer: str) -> PairingCode:
    """A code that signs a device in as table ``table``'s dealer account."""
    dealers = sorted(
        a.username
        for a in await accounts.storage.all_accounts()
        if a.role == "dealer" and a.table == table
    )
    if not dealers:
        raise NotAllowed(
            f"no dealer account has table {table}: the director adds one "
            f"(floor user add NAME --role dealer --table {table})",
            field="table",
            reason="pairing_no_dealer",
            params={"table": table},
        )
    now = accounts.clock()
    code = f"{secrets.randbelow(10**_DIGITS):0{_DIGITS}d}"
    held = StoredSession(
        username=dealers[0],
        role="dealer",
        table=table,
        created_at=now,
        # Expired from the start: never a session, whatever token is tried.
        expires_at=now,
        client=f"pairing {issuer}"[:64],
    )
    await accounts.storage.open_session(_digest(code), held, PAIRING_TTL)
    return PairingCode(code=code, table=table, username=dealers[0], expires_at=now + PAIRING_TTL)


async def redeem(accounts: Accounts, code: str, client: str) -> Session:
    """The session a good code opens (once), or ``BadCredentials`` / ``TooManyAttempts``."""
    now = accounts.clock()
    await accounts.limits.admit(None, client, now)
    typed = _normal(code)
    if len(typed) != _DIGITS or not typed.isdigit():
        raise BadCredentials()
    held = await accounts.storage.end_session(_digest(typed))
    if (
        held is None
        or not held.client.startswith("pairing ")
        or now - held.created_at > PAIRING_TTL
    ):
        raise BadCredentials()
    session = await accounts.sign_in_as(held.username, held.table, client)
    await accounts.limits.passed(held.username, client)
    return session
