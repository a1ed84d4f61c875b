"""Staff accounts, sign-in, sessions and the sign-in rate limit, over an ``AccountStorage``.

Secrets are hashed with argon2id (``argon2-cffi``), never stored or logged. Sign-in returns a
random token (a cookie or a bearer token, as the edge prefers); the storage keeps only its
SHA-256, so a copy of the stored data gives no live session. Sign-in is rate limited per
client address and per username, and the checks run before the slow hash, so a flood costs
little. Where the data lives is the storage's business (``floor.redisdb.accounts``).
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import secrets
import time
import unicodedata
from collections.abc import Callable
from typing import Final

import msgspec
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from ..store.accounts_port import (
    ROLES,
    Account,
    AccountStorage,
    Role,
    StoredAccount,
    StoredSession,
)
from ..store.errors import Unavailable
from .principal import (
    AccountExists,
    BadAccount,
    BadCredentials,
    NoSuchAccount,
    Principal,
    TooManyAttempts,
)

__all__ = [
    "MAX_FAILURES_PER_IP",
    "MAX_FAILURES_PER_USER",
    "SESSION_CACHE",
    "SESSION_TTL",
    "WINDOW",
    "Account",
    "Accounts",
    "Role",
    "Session",
    "check_username",
    "default_hasher",
]

#: Sessions last 12 hours from sign-in, whatever they do: a fixed lifetime, not a sliding
#: one. A floor shift fits in it, staff sign in again at the next shift, and a stolen token
#: dies on time however busily it is used (a sliding lifetime would keep it alive, and cost a
#: write per request). The director can end any account's sessions before that.
SESSION_TTL = 12 * 3600
#: Seconds a process trusts a session it has just read (see ``Accounts.principal``).
SESSION_CACHE = 2.0
#: The rate-limit window and how many failed sign-ins it allows. Only failures count: a
#: venue where all the phones share one address (NAT) is not locked out by its own sign-ins.
WINDOW = 5 * 60
MAX_FAILURES_PER_IP = 10
MAX_FAILURES_PER_USER = 5

MIN_PASSWORD = 8
MAX_SECRET = 256
_USERNAME = re.compile(r"[a-z0-9._-]{1,32}")
_PIN = re.compile(r"[0-9]{4,8}")
#: Tables a dealer may be given: the same bounds as a command's table.
_MAX_TABLE = 100_000
#: A session token is 43 characters; anything much longer is not one (and is not hashed).
_MAX_TOKEN: Final = 128
#: Client addresses are kept (and counted) up to this length.
_MAX_CLIENT: Final = 64


def default_hasher() -> PasswordHasher:
    """argon2id at OWASP's recommended memory (46 MiB) with two passes and one lane.

    About 70 ms per hash or check on one core of a small VM: slow enough that a stolen hash of
    a password costs real time per guess, fast enough for sign-ins that happen a few times per
    shift. (A 4-8 digit PIN is still quick to try offline whatever the cost: PINs are for
    floor and dealer phones only, and rely on the rate limit and on the storage staying
    private.) ``Accounts`` runs at most ``hash_concurrency`` (4) at once, so memory stays
    bounded. Raising these later is safe: a sign-in rehashes with the new cost.
    """
    return PasswordHasher(time_cost=2, memory_cost=46 * 1024, parallelism=1)


class Session(msgspec.Struct, frozen=True, kw_only=True):
    """A sign-in: ``token`` goes to the client (cookie or bearer) and nowhere else."""

    token: str
    principal: Principal
    expires_at: float


def _normal(secret: str) -> str:
    """The secret as hashed: NFKC, so that one password typed on two keyboards is one."""
    return unicodedata.normalize("NFKC", secret)


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _client(client: str) -> str:
    return client[:_MAX_CLIENT] or "unknown"


def check_username(username: str) -> str:
    """The username as stored (case-folded), or ``BadAccount``."""
    name = username.casefold() if username.isascii() else ""
    if not _USERNAME.fullmatch(name):
        raise BadAccount("a username is 1-32 letters, digits, '.', '_' or '-'", field="username")
    return name


def _check_secret(secret: str, role: Role, pin: bool) -> None:
    if pin:
        if role == "director":
            raise BadAccount("the director signs in with a password, not a PIN", field="pin")
        if not _PIN.fullmatch(secret):
            raise BadAccount("a PIN is 4 to 8 digits", field="secret", reason="pin_digits")
    elif not MIN_PASSWORD <= len(secret) <= MAX_SECRET:
        raise BadAccount(f"a password is {MIN_PASSWORD} to {MAX_SECRET} characters", field="secret")


def _check_role(role: str, table: int | None) -> Role:
    if role not in ROLES:
        raise BadAccount("the role is director, floor or dealer", field="role")
    if role == "dealer":
        if table is None or not 1 <= table <= _MAX_TABLE:
            raise BadAccount("a dealer is given a table (1 or more)", field="table")
    elif table is not None:
        raise BadAccount(f"only a dealer has a table, not the {role}", field="table")
    return role  # narrowed by the membership test above


def _public(record: StoredAccount) -> Account:
    return Account(
        username=record.username,
        role=record.role,
        table=record.table,
        pin=record.pin,
        created_at=record.created_at,
        changed_at=record.changed_at,
    )


class Accounts:
    """Staff accounts and sessions. A storage that fails raises ``Unavailable``."""

    def __init__(
        self,
        storage: AccountStorage,
        *,
        hasher: PasswordHasher | None = None,
        session_ttl: int = SESSION_TTL,
        window: int = WINDOW,
        max_failures_per_ip: int = MAX_FAILURES_PER_IP,
        max_failures_per_user: int = MAX_FAILURES_PER_USER,
        hash_concurrency: int = 4,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.storage = storage
        self.hasher = hasher if hasher is not None else default_hasher()
        self.session_ttl = session_ttl
        self.window = window
        self.max_failures_per_ip = max_failures_per_ip
        self.max_failures_per_user = max_failures_per_user
        self.clock = clock
        # argon2 holds the CPU for tens of milliseconds: it runs in a thread, a few at a time.
        self._hashing = asyncio.Semaphore(hash_concurrency)
        #: Sessions recently read: token digest -> (principal, trusted until, expires at).
        self._seen: dict[str, tuple[Principal, float, float]] = {}
        # Checked when the username is unknown, so that answering takes as long as for a
        # wrong secret. Made now, with the same parameters as every new hash.
        self._dummy = self.hasher.hash(secrets.token_urlsafe(16))

    # Accounts -------------------------------------------------------------------------------

    async def add(
        self,
        username: str,
        secret: str,
        role: Role,
        table: int | None = None,
        *,
        pin: bool = False,
    ) -> Account:
        """A new account; ``AccountExists`` if the (case-folded) name is taken."""
        name = check_username(username)
        checked = _check_role(role, table)
        _check_secret(secret, checked, pin)
        now = self.clock()
        record = StoredAccount(
            username=name,
            role=checked,
            table=table,
            pin=pin,
            created_at=now,
            changed_at=now,
            hash=await self._hash(secret),
        )
        if not await self.storage.create_account(record):
            raise AccountExists(
                f"there is already an account {name}",
                field="username",
                reason="account_exists",
                params={"name": name},
            )
        return _public(record)

    async def get(self, username: str) -> Account | None:
        try:
            name = check_username(username)
        except BadAccount:
            return None
        held = await self.storage.account(name)
        return None if held is None else _public(held.account)

    async def list(self) -> list[Account]:
        """Every account, by username, without hashes."""
        stored = await self.storage.all_accounts()
        return sorted((_public(a) for a in stored), key=lambda a: a.username)

    async def set_secret(self, username: str, secret: str, *, pin: bool = False) -> Account:
        """A new password or PIN; the account's sessions end."""
        name = check_username(username)
        for _ in range(5):
            held = await self.storage.account(name)
            if held is None:
                raise NoSuchAccount(f"there is no account {name}", field="username")
            old = held.account
            _check_secret(secret, old.role, pin)
            new = msgspec.structs.replace(
                old, pin=pin, changed_at=self.clock(), hash=await self._hash(secret)
            )
            if await self.storage.replace_account(held.revision, new) is not None:
                await self.sign_out_all(name)
                return _public(new)
        raise Unavailable(f"account {name} is changing too fast: try again")

    async def remove(self, username: str) -> None:
        """Delete an account and end its sessions. The last director cannot be removed."""
        name = check_username(username)
        done = await self.storage.remove_account(name)
        if done == "missing":
            raise NoSuchAccount(f"there is no account {name}", field="username")
        if done == "last_director":
            raise BadAccount(
                f"{name} is the only director: make another director first",
                field="username",
                reason="only_director",
                params={"name": name},
            )
        await self.sign_out_all(name)

    # Signing in -----------------------------------------------------------------------------

    async def sign_in(self, username: str, secret: str, client: str) -> Session:
        """A new session, or ``BadCredentials`` / ``TooManyAttempts``.

        Every attempt is counted first (atomically, so a burst of parallel guesses cannot
        slip past the limit), and a success takes its count back: only failures remain.
        Over the limit, even the right secret is refused until the window ends.
        """
        try:
            name: str | None = check_username(username)
        except BadAccount:
            name = None
        address = _client(client)
        n, ttl = await self.storage.count_attempt("ip", address, self.window)
        over = [ttl] if n > self.max_failures_per_ip else []
        if name is not None:
            n, ttl = await self.storage.count_attempt("user", name, self.window)
            if n > self.max_failures_per_user:
                over.append(ttl)
        if over:
            raise TooManyAttempts(max(1, *over))

        held = None if name is None else await self.storage.account(name)
        if held is None or len(secret) > MAX_SECRET:
            await self._verify(self._dummy, secret[:MAX_SECRET])
            raise BadCredentials()
        record, revision = held
        if not await self._verify(record.hash, secret):
            raise BadCredentials()

        if self.hasher.check_needs_rehash(record.hash):
            record = msgspec.structs.replace(record, hash=await self._hash(secret))
            rehashed = await self.storage.replace_account(revision, record)
            if rehashed is None:
                raise BadCredentials()  # the account changed while we checked: not this secret
            revision = rehashed

        session = await self._open(record, client, revision)
        await self.storage.clear_attempts("user", record.username)
        await self.storage.take_back_attempt("ip", address)
        return session

    async def _open(self, record: StoredAccount, client: str, revision: bytes) -> Session:
        now = self.clock()
        token = secrets.token_urlsafe(32)
        digest = _token_hash(token)
        stored = StoredSession(
            username=record.username,
            role=record.role,
            table=record.table,
            created_at=now,
            expires_at=now + self.session_ttl,
            client=client[:_MAX_CLIENT],
        )
        await self.storage.open_session(digest, stored, self.session_ttl)
        # The account may have been removed, or its secret changed, while we hashed: then
        # that change's sign_out_all may have run before the session was indexed. Reading the
        # account after writing the session closes the gap: each step is written before the
        # next is read, so it holds step by step on a cluster too.
        now_held = await self.storage.account(record.username)
        if now_held is None or now_held.revision != revision:
            await self.storage.end_session(digest)
            raise BadCredentials()
        principal = Principal(username=record.username, role=record.role, table=record.table)
        return Session(token=token, principal=principal, expires_at=stored.expires_at)

    async def principal(self, token: str) -> Principal | None:
        """Who holds ``token``, or None for no (or an expired, or a signed-out) session.

        A session seen in the last ``SESSION_CACHE`` seconds is not read again: a phone
        sends a command every few seconds, and a storage round trip per request is most of
        what a command costs besides its write. A sign-out made through another process
        takes effect here within that time; one made here at once.
        """
        if not token or len(token) > _MAX_TOKEN:
            return None
        digest = _token_hash(token)
        now = time.monotonic()
        cached = self._seen.get(digest)
        if cached is not None and cached[1] > now and cached[2] > self.clock():
            return cached[0]
        s = await self.storage.session(digest)
        if s is None:
            self._seen.pop(digest, None)
            return None
        if s.expires_at <= self.clock():
            return None
        principal = Principal(username=s.username, role=s.role, table=s.table)
        if len(self._seen) > 10_000:
            self._seen.clear()
        self._seen[digest] = (principal, now + SESSION_CACHE, s.expires_at)
        return principal

    def _forget_sessions(self, username: str | None = None, digest: str | None = None) -> None:
        if digest is not None:
            self._seen.pop(digest, None)
        if username is not None:
            for key in [k for k, v in self._seen.items() if v[0].username == username]:
                del self._seen[key]

    async def sign_out(self, token: str) -> None:
        if not token or len(token) > _MAX_TOKEN:
            return
        digest = _token_hash(token)
        self._forget_sessions(digest=digest)
        await self.storage.end_session(digest)

    async def sign_out_all(self, username: str) -> int:
        """End every session of an account; how many there were."""
        name = check_username(username)
        self._forget_sessions(username=name)
        return await self.storage.end_sessions(name)

    async def clear_attempts(
        self, *, username: str | None = None, client: str | None = None
    ) -> None:
        """Lift a sign-in lock early (the director, or the command line, for a locked user)."""
        if username is not None:
            await self.storage.clear_attempts("user", check_username(username))
        if client is not None:
            await self.storage.clear_attempts("ip", _client(client))

    # Helpers --------------------------------------------------------------------------------

    async def _hash(self, secret: str) -> str:
        async with self._hashing:
            return await asyncio.to_thread(self.hasher.hash, _normal(secret))

    async def _verify(self, hashed: str, secret: str) -> bool:
        async with self._hashing:
            try:
                return await asyncio.to_thread(self.hasher.verify, hashed, _normal(secret))
            except (VerificationError, InvalidHashError):
                return False
