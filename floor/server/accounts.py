"""Staff accounts, sign-in, sessions and secrets, over an ``AccountStorage``.

Secrets are hashed with argon2id (``argon2-cffi``), never stored or logged. Sign-in returns a
random token (a cookie or a bearer token, as the edge prefers); the storage keeps only its
SHA-256, so a copy of the stored data gives no live session. Sign-in attempts are spaced out
per account and client (``floor.server.signin_limits``), and the checks run before the
slow hash (``floor.server.hashing``), so a flood costs little. Where the data lives is the
storage's business (``floor.redisdb.accounts``); the end of an account's sessions reaches
every process through the ``SignOutFeed`` (``floor.server.session_watch``).

A browser that signs in gets a second cookie, ``floor_known``, that names it (its digest is
remembered with the account): the next sign-ins from it are counted as its own, never held
back by strangers guessing from the same address.

A dealer never signs in here: a dealer's PIN is tried only on a paired table screen
(``sign_in_at_table``), whose token (``tablet.`` and 43 characters) this class also reads
(``principal``): the screen as a device of one table of one tournament, or the dealer signed
in on it.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from collections.abc import Callable
from typing import Final

import msgspec
from argon2 import PasswordHasher

from ..engine.errors import refused
from ..store.accounts_port import (
    ROLES,
    Account,
    AccountStorage,
    Role,
    SignOutFeed,
    StoredAccount,
    StoredSession,
)
from ..store.devices_port import Device, DeviceStorage
from ..store.errors import Unavailable
from .hashing import Hashing
from .principal import (
    AccountExists,
    BadAccount,
    BadCredentials,
    Forbidden,
    NoSuchAccount,
    Principal,
    SignedOut,
)
from .session_watch import SessionWatch, Watcher
from .signin_limits import SignInFailures, SignInLimits, client_key

__all__ = [
    "KNOWN_FOR",
    "SESSION_CACHE",
    "SESSION_TTL",
    "TABLET_PREFIX",
    "Account",
    "Accounts",
    "Listed",
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

MIN_PASSWORD = 8
MAX_SECRET = 256
_USERNAME = re.compile(r"[a-z0-9._-]{1,32}")
_PIN = re.compile(r"[0-9]{4,8}")
#: A session token is 43 characters; anything much longer is not one (and is not hashed).
_MAX_TOKEN: Final = 128
#: Client addresses are kept (and counted) up to this length.
_MAX_CLIENT: Final = 64
#: A table screen's token starts so (``.`` is not in a session token's alphabet).
TABLET_PREFIX: Final = "tablet."
#: A browser that signed in is remembered this long after its last sign-in (seconds), and
#: at most ``_KNOWN_MOST`` per account.
KNOWN_FOR: Final = 180 * 86400
_KNOWN_MOST: Final = 100
#: Seconds between two notes of a table screen's last request, by one process.
_SEEN_EVERY: Final = 30.0


def default_hasher() -> PasswordHasher:
    """argon2id at OWASP's recommended memory (46 MiB) with two passes and one lane.

    About 70 ms per hash or check on one core of a small VM: slow enough that a stolen hash of
    a password costs real time per guess, fast enough for sign-ins that happen a few times per
    shift. (A 4-8 digit PIN is still quick to try offline whatever the cost: PINs are for
    dealer phones only, and rely on the sign-in limits and on the storage staying private.)
    ``Accounts`` runs fewer at once than there are cores (``hashing``), so memory
    stays bounded and a core stays for the loop. Raising these later is safe: a sign-in
    rehashes with the new cost.
    """
    return PasswordHasher(time_cost=2, memory_cost=46 * 1024, parallelism=1)


class Session(msgspec.Struct, frozen=True, kw_only=True):
    """A sign-in: ``token`` goes to the client (cookie or bearer) and nowhere else."""

    token: str
    principal: Principal
    expires_at: float


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _client(client: str) -> str:
    """What the limits count a client address as (an IPv6 address: its /64)."""
    return client_key(client[:_MAX_CLIENT] or "unknown")[:_MAX_CLIENT]


def _browser(token: str | None) -> str | None:
    """The digest a ``floor_known`` cookie is remembered under, or None for no cookie."""
    if not token or len(token) > _MAX_TOKEN:
        return None
    return hashlib.sha256(b"known:" + token.encode()).hexdigest()


def check_username(username: str) -> str:
    """The username as stored (case-folded), or ``BadAccount``."""
    name = username.casefold() if username.isascii() else ""
    if not _USERNAME.fullmatch(name):
        raise BadAccount("a username is 1-32 letters, digits, '.', '_' or '-'", field="username")
    return name


def _check_secret(secret: str, role: Role, pin: bool) -> None:
    if pin:
        if role != "dealer":
            # A PIN is quick to guess: only for a dealer, who signs in on a paired table
            # screen alone, whose worst case is that table's hands and bust-outs.
            raise refused(BadAccount, "pin_dealer_only", {"role": role}, field="pin")
        if not _PIN.fullmatch(secret):
            raise refused(BadAccount, "pin_digits", {}, field="secret")
    elif not MIN_PASSWORD <= len(secret) <= MAX_SECRET:
        raise BadAccount(f"a password is {MIN_PASSWORD} to {MAX_SECRET} characters", field="secret")


def _check_role(role: str, table: int | None) -> Role:
    if role not in ROLES:
        raise BadAccount("the role is director, floor, dealer, coordinator or desk", field="role")
    if table is not None:
        # A dealer used to be bound to a table number, in every tournament at once: the
        # table screen they sign in on says the table now, and the tournament.
        raise refused(BadAccount, "account_table", {}, field="table")
    return role  # narrowed by the membership test above


class Listed(Account, frozen=True, kw_only=True):
    """An account as the director's list shows it: with its recent failed sign-ins."""

    sign_in: SignInFailures


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
        limits: SignInLimits | None = None,
        signouts: SignOutFeed | None = None,
        devices: DeviceStorage | None = None,
        hash_slots: int | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.storage = storage
        self.hasher = hasher if hasher is not None else default_hasher()
        self.session_ttl = session_ttl
        self.limits = limits if limits is not None else SignInLimits(storage)
        #: The paired table screens (``floor.server.tablets``); None: no token names one.
        self.devices = devices
        self.clock = clock
        # argon2 holds the CPU for tens of milliseconds: in threads, fewer than the cores.
        self.hashing = Hashing(self.hasher, hash_slots)
        #: Sessions recently read: token digest -> (principal, trusted until, expires at).
        self._seen: dict[str, tuple[Principal, float, float]] = {}
        #: When this process last noted each table screen's request (``devices.seen``).
        self._noted: dict[str, float] = {}
        #: Counts the ends of sessions heard of: a read that overlapped one is not cached.
        self._ends = 0
        self.sessions = SessionWatch(signouts, self._forget_sessions)
        # Checked when the username is unknown, so that answering takes as long as for a
        # wrong secret. Made now, with the same parameters as every new hash.
        self._dummy = self.hasher.hash(secrets.token_urlsafe(16))

    @property
    def hashes(self) -> int:
        """argon2 hashes and checks computed so far (``floor_signin_hashes_total``)."""
        return self.hashing.count

    async def start(self) -> None:
        """Hear of sessions ended in other processes (see ``watch``)."""
        await self.sessions.start()

    async def stop(self) -> None:
        await self.sessions.stop()

    def watch(self, username: str, watcher: Watcher) -> Callable[[], None]:
        """Call ``watcher()`` at once whenever sessions of ``username`` may have ended, in
        any process; the function returned stops it. (The watcher checks its own session:
        one sign-out of several devices ends one of them.) A table screen is watched under
        ``device_key(its id)``."""
        return self.sessions.watch(username, watcher)

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
            raise refused(AccountExists, "account_exists", {"name": name}, field="username")
        return _public(record)

    async def get(self, username: str) -> Account | None:
        try:
            name = check_username(username)
        except BadAccount:
            return None
        held = await self.storage.account(name)
        return None if held is None else _public(held.account)

    async def list(self) -> list[Listed]:
        """Every account, by username, without hashes, with its recent failed sign-ins."""
        stored = await self.storage.all_accounts()
        now = self.clock()
        out = []
        for a in sorted(stored, key=lambda a: a.username):
            failures = await self.limits.failures(a.username, now)
            out.append(Listed(**msgspec.structs.asdict(_public(a)), sign_in=failures))
        return out

    async def set_secret(
        self,
        username: str,
        secret: str,
        *,
        pin: bool | None = None,
        keep_token: str | None = None,
    ) -> Account:
        """A new password or PIN (``pin`` None: the kind it had). The account's
        sessions end, but for the one of ``keep_token`` (whoever changed their own), and its
        sign-in delays are forgotten: they were about the old secret."""
        name = check_username(username)
        for _ in range(5):
            held = await self.storage.account(name)
            if held is None:
                raise NoSuchAccount(f"there is no account {name}", field="username")
            old = held.account
            # Unsaid, the kind it had; but a PIN only stays a dealer's (a floor account made
            # with one before PINs were kept for dealers gets a password).
            kind = (old.pin and old.role == "dealer") if pin is None else pin
            _check_secret(secret, old.role, kind)
            new = msgspec.structs.replace(
                old, pin=kind, changed_at=self.clock(), hash=await self._hash(secret)
            )
            if await self.storage.replace_account(held.revision, new) is not None:
                await self.sign_out_all(name, keep_token=keep_token)
                await self.limits.clear(name)
                return _public(new)
        raise Unavailable(f"account {name} is changing too fast: try again")

    async def change_own_secret(
        self,
        token: str,
        current: str,
        secret: str,
        client: str,
        *,
        pin: bool | None = None,
    ) -> Account:
        """The holder of ``token`` sets a new secret, proving the current one first (a phone
        left signed in must not hand the account over). A wrong current secret counts
        against the sign-in limits like a wrong sign-in; this session stays signed in."""
        principal = await self.principal(token)
        if principal is None or principal.username is None:
            raise SignedOut("the session has ended: sign in again")
        if principal.role == "dealer_phone":
            # A PIN is tried on a paired table screen alone, never from a phone.
            raise Forbidden("a dealer changes their PIN at a table screen, not on a phone")
        name = principal.username
        held = await self.storage.account(name)
        if held is None:
            raise SignedOut("the account is no more: sign in again")
        # The new secret is checked first: a bad one costs no attempt and no hash.
        kind = (held.account.pin and held.account.role == "dealer") if pin is None else pin
        _check_secret(secret, held.account.role, kind)
        address = _client(client)
        await self.limits.admit(name, address, self.clock())
        if len(current) > MAX_SECRET or not await self._verify(held.account.hash, current):
            raise refused(BadAccount, "current_secret_wrong", {}, field="current")
        await self.limits.passed(name, address)
        return await self.set_secret(name, secret, pin=pin, keep_token=token)

    async def remove(self, username: str) -> None:
        """Delete an account and end its sessions. The last director cannot be removed."""
        name = check_username(username)
        done = await self.storage.remove_account(name)
        if done == "missing":
            raise NoSuchAccount(f"there is no account {name}", field="username")
        if done == "last_director":
            raise refused(BadAccount, "only_director", {"name": name}, field="username")
        await self.sign_out_all(name)
        await self.limits.clear(name)
        await self.storage.forget_devices(name)

    async def unlock(self, username: str) -> int:
        """Forget an account's failed sign-ins from every address (the director, or
        ``floor user unlock``); how many addresses were delayed."""
        name = check_username(username)
        if await self.storage.account(name) is None:
            raise NoSuchAccount(f"there is no account {name}", field="username")
        return await self.limits.clear(name)

    # Signing in -----------------------------------------------------------------------------

    async def sign_in(
        self, username: str, secret: str, client: str, *, browser: str | None = None
    ) -> Session:
        """A new session, or ``BadCredentials`` / ``TooManyAttempts``.

        The attempt is let through by the limits first (counted as a failure, atomically,
        so that a burst of parallel guesses cannot slip past), and a success takes it back.
        ``browser`` is the client's ``floor_known`` cookie: a browser that signed in as this
        account before is counted as itself, not as its address; after a success it is
        remembered (the caller sets the cookie). A dealer's account is answered as a wrong
        secret, its secret never tried: a dealer signs in on a paired table screen alone.
        """
        try:
            name: str | None = check_username(username)
        except BadAccount:
            name = None
        address = _client(client)
        now = self.clock()
        seen = _browser(browser)
        known = None
        if (
            name is not None
            and seen is not None
            and await self.storage.known_device(name, seen, now)
        ):
            known = f"browser:{seen[:32]}"
        await self.limits.admit(name, address, now, known)

        held = None if name is None else await self.storage.account(name)
        if held is None or held.account.role == "dealer" or len(secret) > MAX_SECRET:
            await self.hashing.verify(self._dummy, secret[:MAX_SECRET])
            raise BadCredentials()
        record, revision = held
        if not await self.hashing.verify(record.hash, secret, first=known is not None):
            raise BadCredentials()

        record, revision = await self._rehashed(record, revision, secret)
        session = await self._open(record, client, revision)
        await self.limits.passed(record.username, address, known)
        if seen is not None:
            await self.storage.remember_device(
                record.username, seen, now, now + KNOWN_FOR, _KNOWN_MOST
            )
        return session

    async def sign_in_at_table(
        self, device: Device, username: str, secret: str
    ) -> tuple[StoredSession, str]:
        """A dealer signs in on the paired table screen ``device``: (the session, the digest
        it is kept under), or ``BadCredentials`` / ``TooManyAttempts``.

        The screen is the client the limits count, not its address: nobody else can try a
        PIN against this table's screen, and a stranger's guesses from the same wifi never
        delay the dealer. The session is bound to the device and no client holds its token:
        the screen's own token reads it (``principal``) while it lasts.
        """
        try:
            name: str | None = check_username(username)
        except BadAccount:
            name = None
        client = f"tablet:{device.id}"
        await self.limits.admit(name, client, self.clock())
        held = None if name is None else await self.storage.account(name)
        if held is None or held.account.role != "dealer" or len(secret) > MAX_SECRET:
            await self.hashing.verify(self._dummy, secret[:MAX_SECRET], first=True)
            raise BadCredentials()
        record, revision = held
        if not await self.hashing.verify(record.hash, secret, first=True):
            raise BadCredentials()
        record, revision = await self._rehashed(record, revision, secret)
        now = self.clock()
        ttl = int(min(self.session_ttl, device.expires_at - now))
        if ttl <= 0:
            raise SignedOut("this table screen's pairing has ended: pair it again")
        digest = token_hash(secrets.token_urlsafe(32))
        stored = StoredSession(
            username=record.username,
            role=record.role,
            created_at=now,
            expires_at=now + ttl,
            client=client,
            device=device.id,
        )
        await self._keep(record.username, digest, stored, ttl, revision)
        await self.limits.passed(record.username, client)
        return stored, digest

    async def open_dealer_phone(self, username: str, client: str, ttl: int) -> Session:
        """A session for a dealer's own phone (``floor.server.dealer_phones``: after a
        one-time code from the table screen the dealer signed in on), ``ttl`` seconds at most:
        it reads their rotation and nothing else, and ends with their other sessions."""
        name = check_username(username)
        held = await self.storage.account(name)
        if held is None or held.account.role != "dealer":
            raise BadCredentials()
        now = self.clock()
        ttl = int(min(self.session_ttl, ttl))
        token = secrets.token_urlsafe(32)
        stored = StoredSession(
            username=name,
            role="dealer",
            created_at=now,
            expires_at=now + ttl,
            client=client[:_MAX_CLIENT],
            phone=True,
        )
        await self._keep(name, token_hash(token), stored, ttl, held.revision)
        principal = Principal(username=name, role="dealer_phone", table=None)
        return Session(token=token, principal=principal, expires_at=stored.expires_at)

    async def _rehashed(
        self, record: StoredAccount, revision: bytes, secret: str
    ) -> tuple[StoredAccount, bytes]:
        """The account with its secret hashed at today's cost, if it was not."""
        if not self.hasher.check_needs_rehash(record.hash):
            return record, revision
        record = msgspec.structs.replace(record, hash=await self.hashing.hash(secret))
        rehashed = await self.storage.replace_account(revision, record)
        if rehashed is None:
            raise BadCredentials()  # the account changed while we checked: not this secret
        return record, rehashed

    async def _open(self, record: StoredAccount, client: str, revision: bytes) -> Session:
        now = self.clock()
        token = secrets.token_urlsafe(32)
        stored = StoredSession(
            username=record.username,
            role=record.role,
            created_at=now,
            expires_at=now + self.session_ttl,
            client=client[:_MAX_CLIENT],
        )
        await self._keep(record.username, token_hash(token), stored, self.session_ttl, revision)
        principal = Principal(username=record.username, role=record.role, table=None)
        return Session(token=token, principal=principal, expires_at=stored.expires_at)

    async def _keep(
        self, username: str, digest: str, stored: StoredSession, ttl: int, revision: bytes
    ) -> None:
        await self.storage.open_session(digest, stored, ttl)
        # The account may have been removed, or its secret changed, while we hashed: then
        # that change's sign_out_all may have run before the session was indexed. Reading the
        # account after writing the session closes the gap: each step is written before the
        # next is read, so it holds step by step on a cluster too.
        now_held = await self.storage.account(username)
        if now_held is None or now_held.revision != revision:
            await self.storage.end_session(digest)
            raise BadCredentials()

    async def principal(self, token: str) -> Principal | None:
        """Who holds ``token``, or None for no (or an expired, or a signed-out) session.

        A table screen's token (``TABLET_PREFIX``) names the screen, as a device of its
        table, or the dealer signed in on it (``floor.server.tablets``).

        A session seen in the last ``SESSION_CACHE`` seconds is not read again: a phone
        sends a command every few seconds, and a storage round trip per request is most of
        what a command costs besides its write. The end of a session, in this process or
        another, drops it from the cache as soon as it is heard of (``SessionWatch``); the
        cache's lifetime only bounds what a lost announcement can leave behind.
        """
        if not token or len(token) > _MAX_TOKEN:
            return None
        digest = token_hash(token)
        now = time.monotonic()
        cached = self._seen.get(digest)
        if cached is not None and cached[1] > now and cached[2] > self.clock():
            return cached[0]
        ends = self._ends
        found: tuple[Principal, float] | None = None
        if token.startswith(TABLET_PREFIX):
            found = await self._device_principal(digest)
        else:
            s = await self.storage.session(digest)
            # A dealer's session from before dealers signed in on table screens alone was
            # for one table number of every tournament: it signs nobody in now. A dealer's
            # phone reads their rotation alone.
            if s is not None and s.device is None and s.role == "dealer" and s.phone:
                found = (
                    Principal(username=s.username, role="dealer_phone", table=None),
                    s.expires_at,
                )
            elif s is not None and s.device is None and s.role != "dealer":
                found = Principal(username=s.username, role=s.role, table=None), s.expires_at
        if found is None or found[1] <= self.clock():
            self._seen.pop(digest, None)
            return None
        principal, expires_at = found
        # Read before an end of sessions heard meanwhile: it may be the one just ended.
        if ends == self._ends:
            if len(self._seen) > 10_000:
                self._seen.clear()
            self._seen[digest] = (principal, now + SESSION_CACHE, expires_at)
        return principal

    async def _device_principal(self, digest: str) -> tuple[Principal, float] | None:
        """The table screen whose token has ``digest`` (or the dealer signed in on it), and
        when that ends."""
        if self.devices is None:
            return None
        held = await self.devices.device_by_token(digest)
        if held is None:
            return None
        device, now = held.device, self.clock()
        if device.expires_at <= now:
            return None
        if self._noted.get(device.id, 0.0) + _SEEN_EVERY <= now:
            if len(self._noted) > 10_000:
                self._noted.clear()
            self._noted[device.id] = now
            await self.devices.seen(device.id, now)
        if device.dealer_session is not None:
            s = await self.storage.session(device.dealer_session)
            if s is not None and s.device == device.id and s.expires_at > now:
                dealer = Principal(
                    username=s.username,
                    role="dealer",
                    table=device.table,
                    tournament=device.tournament,
                    device=device.id,
                )
                return dealer, min(device.expires_at, s.expires_at)
        screen = Principal(
            username=None,
            role="table",
            table=device.table,
            tournament=device.tournament,
            device=device.id,
        )
        return screen, device.expires_at

    def _forget_sessions(self, username: str | None) -> None:
        """Forget the sessions cached of ``username`` (or of a table screen: ``device_key``;
        None: of everybody)."""
        self._ends += 1
        if username is None:
            self._seen.clear()
            return
        device = device_id_of(username)
        for key in [
            k
            for k, v in self._seen.items()
            if (v[0].username == username if device is None else v[0].device == device)
        ]:
            del self._seen[key]

    async def sign_out(self, token: str) -> None:
        if not token or len(token) > _MAX_TOKEN:
            return
        digest = token_hash(token)
        self._seen.pop(digest, None)
        ended = await self.storage.end_session(digest)
        if ended is not None:
            await self.sessions.announce(ended.username)

    async def sign_out_all(self, username: str, *, keep_token: str | None = None) -> int:
        """End every session of an account (but the one of ``keep_token``); how many."""
        name = check_username(username)
        keep = token_hash(keep_token) if keep_token else None
        n = await self.storage.end_sessions(name, keep=keep)
        await self.sessions.announce(name)
        return n

    # Helpers --------------------------------------------------------------------------------

    async def _hash(self, secret: str) -> str:
        return await self.hashing.hash(secret)

    async def _verify(self, hashed: str, secret: str) -> bool:
        return await self.hashing.verify(hashed, secret)


def device_key(device_id: str) -> str:
    """The name a table screen's end is announced and watched under (no username has a
    colon, so it is nobody's)."""
    return f"device:{device_id}"


def device_id_of(key: str) -> str | None:
    """The table screen ``key`` names (``device_key``), or None for a username."""
    return key[7:] if key.startswith("device:") else None
