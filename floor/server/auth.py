"""Staff accounts, sign-in, sessions, roles and the sign-in rate limit.

Roles::

    director   everything, and the staff accounts
    floor      bust-outs (one or several in a hand) and their undoing, hands and buttons,
               moves, time calls, seats, registrations and re-entries, rebuys and add-ons,
               stacks and chip races
    dealer     their own table only: the next hand, the button, a bust-out
    public     (not signed in) read-only: what a player may see

Secrets are hashed with argon2id (``argon2-cffi``), never stored or logged. Sign-in returns a
random token (a cookie or a bearer token, as the edge prefers); Redis keeps only its SHA-256,
so a copy of the Redis data gives no live session. Sign-in is rate limited per client address
and per username, and the checks run before the slow hash, so a flood costs little.

Keys (outside any tournament's hash tag; each command below touches one key, so the same code
runs on a cluster)::

    floor:staff                         hash: username -> account record (JSON, with the hash)
    floor:session:<sha256(token)>       string: the session (JSON), expires with the session
    floor:staff:sessions:<username>     set: the session hashes of one account (sign-out-all)
    floor:signin:ip:<address>           failed sign-ins from one address in the window
    floor:signin:user:<username>        failed sign-ins for one username in the window
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import secrets
import time
import unicodedata
from collections.abc import Callable, Collection
from typing import Any, ClassVar, Final, Literal
from urllib.parse import urlsplit

import msgspec
import redis.asyncio as aioredis
import redis.exceptions as rex
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from ..engine import commands as cmd
from ..engine.commands import Command
from ..engine.errors import FloorError
from ..engine.state import Tournament
from ..store.store import _REDIS_DOWN, Unavailable

Role = Literal["director", "floor", "dealer"]
ROLES: Final[tuple[Role, ...]] = ("director", "floor", "dealer")

STAFF = "floor:staff"
SESSION_PREFIX = "floor:session:"
SESSIONS_OF_PREFIX = "floor:staff:sessions:"
SIGNIN_IP_PREFIX = "floor:signin:ip:"
SIGNIN_USER_PREFIX = "floor:signin:user:"

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
_MAX_TOKEN = 128


def default_hasher() -> PasswordHasher:
    """argon2id at OWASP's recommended memory (46 MiB) with two passes and one lane.

    About 70 ms per hash or check on one core of a small VM: slow enough that a stolen hash of
    a password costs real time per guess, fast enough for sign-ins that happen a few times per
    shift. (A 4-8 digit PIN is still quick to try offline whatever the cost: PINs are for
    floor and dealer phones only, and rely on the rate limit and on Redis staying private.)
    ``Accounts`` runs at most ``hash_concurrency`` (4) at once, so memory stays bounded.
    Raising these later is safe: a sign-in rehashes with the new cost.
    """
    return PasswordHasher(time_cost=2, memory_cost=46 * 1024, parallelism=1)


# Errors -------------------------------------------------------------------------------------


class AuthError(FloorError):
    """A refusal about who asks, not about the tournament."""

    code: ClassVar[str] = "auth"
    #: The HTTP status the edge answers with.
    status: ClassVar[int] = 400


class BadCredentials(AuthError):
    code = "bad_credentials"
    status = 401

    def __init__(self) -> None:
        # One message whether the account exists or not: sign-in reveals no usernames.
        super().__init__("wrong username, or wrong password or PIN")


class SignedOut(AuthError):
    """A token that names no session (unknown, expired or signed out): sign in again."""

    code = "signed_out"
    status = 401


class TooManyAttempts(AuthError):
    code = "too_many_attempts"
    status = 429

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"too many failed sign-ins: try again in {retry_after} seconds")
        #: Seconds until the window ends (the HTTP ``Retry-After``).
        self.retry_after = retry_after


class Forbidden(AuthError):
    code = "forbidden"
    status = 403


class AccountExists(AuthError):
    code = "account_exists"
    status = 409


class NoSuchAccount(AuthError):
    code = "no_such_account"
    status = 404


class BadAccount(AuthError):
    """An account that cannot be made as asked: ``field`` names the part."""

    code = "bad_account"
    status = 422


# Records ------------------------------------------------------------------------------------


class Principal(msgspec.Struct, frozen=True, kw_only=True):
    """Who sends a request: a staff member, or the public."""

    username: str | None
    role: Role | Literal["public"]
    #: The dealer's table; None for every other role.
    table: int | None


PUBLIC: Final = Principal(username=None, role="public", table=None)


class Account(msgspec.Struct, frozen=True, kw_only=True):
    """A staff account as the director sees it (never its hash)."""

    username: str
    role: Role
    table: int | None = None
    #: The secret is a PIN (digits), not a password.
    pin: bool = False
    created_at: float
    #: When the password or PIN was last set.
    changed_at: float


class _Record(Account, frozen=True, kw_only=True):
    """The stored account: its argon2id hash (the PHC string ``$argon2id$v=19$...``)."""

    hash: str


class Session(msgspec.Struct, frozen=True, kw_only=True):
    """A sign-in: ``token`` goes to the client (cookie or bearer) and nowhere else."""

    token: str
    principal: Principal
    expires_at: float


class _SessionRecord(msgspec.Struct, frozen=True, kw_only=True):
    username: str
    role: Role
    table: int | None = None
    created_at: float
    expires_at: float
    #: The address that signed in.
    client: str


_encoder = msgspec.json.Encoder()
_record_decoder = msgspec.json.Decoder(_Record)
_account_decoder = msgspec.json.Decoder(Account)  # ignores the hash field
_session_decoder = msgspec.json.Decoder(_SessionRecord)

# Lua, one key each (cluster-safe). --------------------------------------------------------

#: Count an attempt in a fixed window; returns {count, seconds left}.
_HIT = """
local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('TTL', KEYS[1])
if ttl < 0 then
  redis.call('EXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {n, ttl}
"""

#: Take back an attempt that succeeded (never below zero, never a key without expiry).
_UNHIT = """
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n > 0 then redis.call('DECR', KEYS[1]) end
return 0
"""

#: Replace a hash field only if it still holds ARGV[2]: 1 done, 0 changed meanwhile.
_SWAP = """
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
  return 1
end
return 0
"""

#: Delete an account unless it is the last director: 1 done, 0 no such account, -1 last one.
_REMOVE = """
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return 0 end
if cjson.decode(raw)['role'] == 'director' then
  local n = 0
  for _, v in ipairs(redis.call('HVALS', KEYS[1])) do
    if cjson.decode(v)['role'] == 'director' then n = n + 1 end
  end
  if n <= 1 then return -1 end
end
redis.call('HDEL', KEYS[1], ARGV[1])
return 1
"""


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _normal(secret: str) -> str:
    """The secret as hashed: NFKC, so that one password typed on two keyboards is one."""
    return unicodedata.normalize("NFKC", secret)


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


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
            raise BadAccount("a PIN is 4 to 8 digits", field="secret")
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


class Accounts:
    """Staff accounts and sessions in Redis. Redis failures raise ``Unavailable``."""

    def __init__(
        self,
        redis: aioredis.Redis,
        *,
        hasher: PasswordHasher | None = None,
        session_ttl: int = SESSION_TTL,
        window: int = WINDOW,
        max_failures_per_ip: int = MAX_FAILURES_PER_IP,
        max_failures_per_user: int = MAX_FAILURES_PER_USER,
        hash_concurrency: int = 4,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.redis = redis
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
        self._hit = redis.register_script(_HIT)
        self._unhit = redis.register_script(_UNHIT)
        self._swap = redis.register_script(_SWAP)
        self._remove = redis.register_script(_REMOVE)

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
        record = _Record(
            username=name,
            role=checked,
            table=table,
            pin=pin,
            created_at=now,
            changed_at=now,
            hash=await self._hash(secret),
        )
        if not await self._call(self.redis.hsetnx(STAFF, name, _encoder.encode(record))):
            raise AccountExists(f"there is already an account {name}", field="username")
        return _public(record)

    async def get(self, username: str) -> Account | None:
        try:
            name = check_username(username)
        except BadAccount:
            return None
        raw = await self._call(self.redis.hget(STAFF, name))
        return None if raw is None else _account_decoder.decode(raw)

    async def list(self) -> list[Account]:
        """Every account, by username, without hashes."""
        raw = await self._call(self.redis.hvals(STAFF))
        return sorted((_account_decoder.decode(v) for v in raw), key=lambda a: a.username)

    async def set_secret(self, username: str, secret: str, *, pin: bool = False) -> Account:
        """A new password or PIN; the account's sessions end."""
        name = check_username(username)
        for _ in range(5):
            raw = await self._call(self.redis.hget(STAFF, name))
            if raw is None:
                raise NoSuchAccount(f"there is no account {name}", field="username")
            old = _record_decoder.decode(raw)
            _check_secret(secret, old.role, pin)
            new = msgspec.structs.replace(
                old, pin=pin, changed_at=self.clock(), hash=await self._hash(secret)
            )
            swapped = await self._call(
                self._swap(keys=[STAFF], args=[name, raw, _encoder.encode(new)])
            )
            if swapped:
                await self.sign_out_all(name)
                return _public(new)
        raise Unavailable(f"account {name} is changing too fast: try again")

    async def remove(self, username: str) -> None:
        """Delete an account and end its sessions. The last director cannot be removed."""
        name = check_username(username)
        done = await self._call(self._remove(keys=[STAFF], args=[name]))
        if done == 0:
            raise NoSuchAccount(f"there is no account {name}", field="username")
        if done < 0:
            raise BadAccount(
                f"{name} is the only director: make another director first", field="username"
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
        ip_key = SIGNIN_IP_PREFIX + (client[:64] or "unknown")
        user_key = None if name is None else SIGNIN_USER_PREFIX + name
        n, ttl = await self._call(self._hit(keys=[ip_key], args=[self.window]))
        over = [int(ttl)] if int(n) > self.max_failures_per_ip else []
        if user_key is not None:
            n, ttl = await self._call(self._hit(keys=[user_key], args=[self.window]))
            if int(n) > self.max_failures_per_user:
                over.append(int(ttl))
        if over:
            raise TooManyAttempts(max(1, *over))

        raw = None if name is None else await self._call(self.redis.hget(STAFF, name))
        record = None if raw is None else _record_decoder.decode(raw)
        if record is None or len(secret) > MAX_SECRET:
            await self._verify(self._dummy, secret[:MAX_SECRET])
            raise BadCredentials()
        if not await self._verify(record.hash, secret):
            raise BadCredentials()
        assert name is not None and raw is not None and user_key is not None

        if self.hasher.check_needs_rehash(record.hash):
            rehashed = msgspec.structs.replace(record, hash=await self._hash(secret))
            new_raw = _encoder.encode(rehashed)
            if not await self._call(self._swap(keys=[STAFF], args=[name, raw, new_raw])):
                raise BadCredentials()  # the account changed while we checked: not this secret
            raw = new_raw

        session = await self._open(record, client, raw)
        await self._call(self.redis.delete(user_key))
        await self._call(self._unhit(keys=[ip_key]))
        return session

    async def _open(self, record: _Record, client: str, raw: bytes | str) -> Session:
        now = self.clock()
        token = secrets.token_urlsafe(32)
        digest = _token_hash(token)
        stored = _SessionRecord(
            username=record.username,
            role=record.role,
            table=record.table,
            created_at=now,
            expires_at=now + self.session_ttl,
            client=client[:64],
        )
        index = SESSIONS_OF_PREFIX + record.username
        # Indexed before it exists, so that sign_out_all never misses a live session.
        await self._call(self.redis.sadd(index, digest))
        await self._call(self.redis.expire(index, self.session_ttl))
        key = SESSION_PREFIX + digest
        await self._call(self.redis.set(key, _encoder.encode(stored), ex=self.session_ttl))
        # The account may have been removed, or its secret changed, while we hashed: then
        # that change's sign_out_all may have run before the session was indexed. Reading the
        # account after writing the session closes the gap: each of these keys is written
        # before the next is read, so it holds key by key on a cluster too.
        now_raw = await self._call(self.redis.hget(STAFF, record.username))
        if now_raw is None or _text(now_raw) != _text(raw):
            await self._call(self.redis.delete(key))
            await self._call(self.redis.srem(index, digest))
            raise BadCredentials()
        principal = Principal(username=record.username, role=record.role, table=record.table)
        return Session(token=token, principal=principal, expires_at=stored.expires_at)

    async def principal(self, token: str) -> Principal | None:
        """Who holds ``token``, or None for no (or an expired, or a signed-out) session.

        A session seen in the last ``SESSION_CACHE`` seconds is not read again: a phone
        sends a command every few seconds, and a Redis round trip per request is most of
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
        raw = await self._call(self.redis.get(SESSION_PREFIX + digest))
        if raw is None:
            self._seen.pop(digest, None)
            return None
        s = _session_decoder.decode(raw)
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
        raw = await self._call(self.redis.getdel(SESSION_PREFIX + digest))
        if raw is not None:
            username = _session_decoder.decode(raw).username
            await self._call(self.redis.srem(SESSIONS_OF_PREFIX + username, digest))

    async def sign_out_all(self, username: str) -> int:
        """End every session of an account; how many there were."""
        name = check_username(username)
        self._forget_sessions(username=name)
        index = SESSIONS_OF_PREFIX + name
        digests = await self._call(self.redis.smembers(index))
        if not digests:
            return 0
        # One DEL per key (not one DEL of many), so that no command spans cluster slots.
        async with self.redis.pipeline(transaction=False) as pipe:
            for d in digests:
                pipe.delete(SESSION_PREFIX + _text(d))
            deleted = await self._call(pipe.execute())
        await self._call(self.redis.srem(index, *digests))
        return sum(int(n) for n in deleted)

    async def clear_attempts(
        self, *, username: str | None = None, client: str | None = None
    ) -> None:
        """Lift a sign-in lock early (the director, or the command line, for a locked user)."""
        if username is not None:
            await self._call(self.redis.delete(SIGNIN_USER_PREFIX + check_username(username)))
        if client is not None:
            await self._call(self.redis.delete(SIGNIN_IP_PREFIX + (client[:64] or "unknown")))

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

    async def _call(self, awaitable: Any) -> Any:
        try:
            return await awaitable
        except _REDIS_DOWN as e:
            raise Unavailable(f"Redis is unreachable: {e}") from e
        except rex.ResponseError as e:
            raise Unavailable(f"Redis refused the request: {e}") from e


def _public(record: _Record) -> Account:
    return Account(
        username=record.username,
        role=record.role,
        table=record.table,
        pin=record.pin,
        created_at=record.created_at,
        changed_at=record.changed_at,
    )


# Permissions --------------------------------------------------------------------------------

_FLOOR: Final[frozenset[type[Any]]] = frozenset(
    {
        cmd.Bust,
        cmd.BustSameHand,
        cmd.UndoBust,
        cmd.Hand,
        cmd.Button,
        cmd.Confirm,
        cmd.ConfirmAll,
        cmd.Cancel,
        cmd.CallTime,
        cmd.EndTimeCall,
        cmd.CorrectSeat,
        cmd.LockSeat,
        cmd.Register,
        cmd.SetStack,
        cmd.Rebuy,
        cmd.AddOn,
        cmd.ChipRace,
    }
)
_FLOOR_MAY = (
    "floor staff may bust players and undo bust-outs, report hands and buttons, confirm and "
    "cancel moves, call time, correct and lock seats, register players (and re-entries), "
    "sell rebuys and add-ons, set stacks and run chip races"
)


def _name(command: Command) -> str:
    return str(type(command).__struct_config__.tag)


def require_director(principal: Principal, what: str = "manages staff accounts") -> None:
    """Staff accounts and new tournaments (what is outside the commands) are the director's."""
    if principal.role != "director":
        raise Forbidden(f"only the director {what}")


def authorize(principal: Principal, command: Command, t: Tournament | None) -> None:
    """Raise ``Forbidden`` unless ``principal`` may send ``command`` (over HTTP or a websocket).

    ``t`` is the tournament as the server holds it: a dealer's bust-out of a named player is
    checked against the player's table there. A dealer may bust only a player seated at their
    table; a player who is unknown, or not seated there, is refused here as not the dealer's
    business (it names nothing about the rest of the floor). One who already busted at the
    dealer's table passes, so that a second tap gets the engine's "already out".
    Commands added to the engine later are the director's until listed here.
    """
    if isinstance(command, cmd.Tick):
        raise Forbidden("the clock's tick is the server's own: it cannot be sent")
    role = principal.role
    if role == "director":
        return
    if role == "floor":
        if type(command) in _FLOOR:
            return
        raise Forbidden(f"{_FLOOR_MAY}; {_name(command)} is for the director")
    if role == "dealer":
        _authorize_dealer(principal, command, t)
        return
    raise Forbidden("the public view is read-only: sign in as staff to change the tournament")


def _authorize_dealer(principal: Principal, command: Command, t: Tournament | None) -> None:
    own = principal.table
    may = f"a dealer reports hands, the button and bust-outs at their own table ({own}) only"
    if own is None:
        raise Forbidden("this dealer account has no table: ask the director")
    if isinstance(command, cmd.Hand | cmd.Button):
        if command.table != own:
            raise Forbidden(f"table {command.table} is not yours: {may}", field="table")
        return
    if not isinstance(command, cmd.Bust):
        raise Forbidden(f"{may}; {_name(command)} is for the floor or the director")
    if command.table is None and command.player is None:
        raise Forbidden(f"name the seat at your table, or the player: {may}", field="table")
    if command.table is not None and command.table != own:
        raise Forbidden(f"table {command.table} is not yours: {may}", field="table")
    if command.player is not None:
        p = None if t is None else t.state.players.get(command.player)
        here = p is not None and (
            p.table == own or (p.busted and p.bust is not None and p.bust.table == own)
        )
        if not here:
            raise Forbidden(f"{command.player} is not at your table {own}: {may}", field="player")


# Origins ------------------------------------------------------------------------------------

_DEFAULT_PORTS: Final = {"http": 80, "https": 443}


def _origin_key(origin: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin ``scheme://host[:port]``, or None if it is not one."""
    try:
        parts = urlsplit(origin.strip().rstrip("/"))
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    if parts.path or parts.query or parts.fragment or "@" in parts.netloc:
        return None
    return scheme, parts.hostname.lower(), _DEFAULT_PORTS[scheme] if port is None else port


def _host_key(host: str) -> tuple[str, int | None] | None:
    """(host, port or None) of a ``Host`` header, or None if it is not one."""
    try:
        parts = urlsplit("//" + host.strip())
        port = parts.port
    except ValueError:
        return None
    if not parts.hostname or parts.path or parts.query or parts.fragment or "@" in parts.netloc:
        return None
    return parts.hostname.lower(), port


def origin_allowed(origin: str | None, host: str | None, allowed: Collection[str]) -> bool:
    """May a request with this ``Origin`` header change state (or open a websocket)?

    Browsers attach cookies to requests that other sites' pages make, and let any page open a
    websocket to any server; the ``Origin`` header, which a page cannot forge, is what tells
    the server which page asks. So a websocket, and a state-changing request authenticated by
    the session cookie, must come from the page's own origin (the ``Host`` the browser sent:
    same host and port) or from an origin the operator allowed (``FLOOR_ALLOWED_ORIGINS``,
    e.g. a display page served elsewhere; no wildcards). Host and port are compared
    case-insensitively, an absent port being the scheme's default. The scheme itself cannot be
    compared with ``Host``, which does not carry it (and behind a TLS proxy the server sees
    plain HTTP for an https page), so ``http://`` and ``https://`` of the server's own host
    and port both pass; nothing else does (``Origin: null`` from sandboxed frames or files,
    other schemes, malformed values).

    No ``Origin`` at all is allowed: browsers send one with every websocket handshake and
    every cross-site POST, so its absence means a program (with a bearer token, or ``curl``)
    that no other site's page can drive with the user's cookie. A page that rebinds its own
    domain to the floor's address (DNS rebinding) passes the ``Host`` comparison but has
    neither the floor's cookie nor a token: it sees what the public sees. The session cookie
    should be ``SameSite=Strict`` as well, a second line for browsers that omit ``Origin``.
    """
    if origin is None:
        return True
    asked = _origin_key(origin)
    if asked is None:
        return False
    scheme, asked_host, asked_port = asked
    own = _host_key(host) if host else None
    if own is not None:
        own_host, own_port = own
        # No port in Host: the browser is on the scheme's default port, as the origin must be.
        port_ok = asked_port == (_DEFAULT_PORTS[scheme] if own_port is None else own_port)
        if own_host == asked_host and port_ok:
            return True
    # The allowed origins are compared whole: scheme too.
    return any(_origin_key(a) == asked for a in allowed)
