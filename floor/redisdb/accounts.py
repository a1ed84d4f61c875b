"""Staff accounts, sessions and sign-in attempt counters in Redis: the ``AccountStorage``.

Keys (outside any tournament's hash tag; each command below touches one key, so the same code
runs on a cluster)::

    floor:staff                         hash: username -> account record (JSON, with the hash)
    floor:session:<sha256(token)>       string: the session (JSON), expires with the session
    floor:staff:sessions:<username>     set: the session hashes of one account (sign-out-all)
    floor:signin:ip:<address>           failed sign-ins from one address in the window
    floor:signin:user:<username>        failed sign-ins for one username in the window

An account's revision is its stored JSON: a compare-and-swap on the very bytes read.
"""

from __future__ import annotations

from typing import Any, Final

import msgspec
import redis.asyncio as aioredis

from ..store.accounts_port import AttemptKind, Held, Removal, StoredAccount, StoredSession
from .errors import call as _call

STAFF: Final = "floor:staff"
SESSION_PREFIX: Final = "floor:session:"
SESSIONS_OF_PREFIX: Final = "floor:staff:sessions:"
SIGNIN_PREFIX: Final[dict[AttemptKind, str]] = {
    "ip": "floor:signin:ip:",
    "user": "floor:signin:user:",
}

_encoder = msgspec.json.Encoder()
_account_decoder = msgspec.json.Decoder(StoredAccount)
_session_decoder = msgspec.json.Decoder(StoredSession)

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

_REMOVED: Final[dict[int, Removal]] = {1: "removed", 0: "missing", -1: "last_director"}


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _bytes(value: bytes | str) -> bytes:
    return value.encode() if isinstance(value, str) else value


class RedisAccounts:
    """An ``AccountStorage`` on a Redis/Valkey server or cluster."""

    def __init__(self, redis: aioredis.Redis) -> None:
        self.redis = redis
        self._hit = redis.register_script(_HIT)
        self._unhit = redis.register_script(_UNHIT)
        self._swap = redis.register_script(_SWAP)
        self._remove = redis.register_script(_REMOVE)

    # Accounts -------------------------------------------------------------------------------

    async def create_account(self, account: StoredAccount) -> bool:
        done: Any = await _call(
            self.redis.hsetnx(STAFF, account.username, _encoder.encode(account))
        )
        return bool(done)

    async def account(self, username: str) -> Held | None:
        raw: Any = await _call(self.redis.hget(STAFF, username))
        return None if raw is None else Held(_account_decoder.decode(raw), _bytes(raw))

    async def all_accounts(self) -> list[StoredAccount]:
        raw: Any = await _call(self.redis.hvals(STAFF))
        return [_account_decoder.decode(v) for v in raw]

    async def replace_account(self, revision: bytes, account: StoredAccount) -> bytes | None:
        new = _encoder.encode(account)
        swapped = await _call(self._swap(keys=[STAFF], args=[account.username, revision, new]))
        return new if swapped else None

    async def remove_account(self, username: str) -> Removal:
        done = await _call(self._remove(keys=[STAFF], args=[username]))
        return _REMOVED[int(done)]

    # Sessions -------------------------------------------------------------------------------

    async def open_session(self, digest: str, session: StoredSession, ttl: int) -> None:
        index = SESSIONS_OF_PREFIX + session.username
        await _call(self.redis.sadd(index, digest))
        await _call(self.redis.expire(index, ttl))
        await _call(self.redis.set(SESSION_PREFIX + digest, _encoder.encode(session), ex=ttl))

    async def session(self, digest: str) -> StoredSession | None:
        raw: Any = await _call(self.redis.get(SESSION_PREFIX + digest))
        return None if raw is None else _session_decoder.decode(raw)

    async def end_session(self, digest: str) -> StoredSession | None:
        raw: Any = await _call(self.redis.getdel(SESSION_PREFIX + digest))
        if raw is None:
            return None
        session = _session_decoder.decode(raw)
        await _call(self.redis.srem(SESSIONS_OF_PREFIX + session.username, digest))
        return session

    async def end_sessions(self, username: str) -> int:
        index = SESSIONS_OF_PREFIX + username
        digests: Any = await _call(self.redis.smembers(index))
        if not digests:
            return 0
        # One DEL per key (not one DEL of many), so that no command spans cluster slots.
        async with self.redis.pipeline(transaction=False) as pipe:
            for d in digests:
                pipe.delete(SESSION_PREFIX + _text(d))
            deleted = await _call(pipe.execute())
        await _call(self.redis.srem(index, *digests))
        return sum(int(n) for n in deleted)

    # Sign-in attempts -----------------------------------------------------------------------

    async def count_attempt(self, kind: AttemptKind, subject: str, window: int) -> tuple[int, int]:
        n, ttl = await _call(self._hit(keys=[SIGNIN_PREFIX[kind] + subject], args=[window]))
        return int(n), int(ttl)

    async def take_back_attempt(self, kind: AttemptKind, subject: str) -> None:
        await _call(self._unhit(keys=[SIGNIN_PREFIX[kind] + subject]))

    async def clear_attempts(self, kind: AttemptKind, subject: str) -> None:
        await _call(self.redis.delete(SIGNIN_PREFIX[kind] + subject))
