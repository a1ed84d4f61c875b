"""Staff accounts, sessions and sign-in attempt counters in Redis: the ``AccountStorage``.

Keys (outside any tournament's hash tag; each command below touches one key, so the same code
runs on a cluster)::

    floor:staff                         hash: username -> account record (JSON, with the hash)
    floor:session:<sha256(token)>       string: the session (JSON), expires with the session
    floor:staff:sessions:<username>     set: the session hashes of one account (sign-out-all)
    floor:signin:ip:<address>           failed sign-ins from one address in the window
    floor:signin:pair:<username>        hash: address -> "failures last next_at" (the delays
                                        of one account from each address)
    floor:signin:known:<username>       sorted set: the digests of the browsers that signed
                                        in as the account, scored by when they are forgotten

An account's revision is its stored JSON: a compare-and-swap on the very bytes read.
"""

from __future__ import annotations

from typing import Any, Final

import msgspec
import redis.asyncio as aioredis

from ..store.accounts_port import (
    AttemptRule,
    Held,
    PairAttempts,
    Removal,
    StoredAccount,
    StoredSession,
)
from .errors import call as _call

STAFF: Final = "floor:staff"
SESSION_PREFIX: Final = "floor:session:"
SESSIONS_OF_PREFIX: Final = "floor:staff:sessions:"
ADDRESS_PREFIX: Final = "floor:signin:ip:"
PAIR_PREFIX: Final = "floor:signin:pair:"
KNOWN_PREFIX: Final = "floor:signin:known:"

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

#: ``reserve_attempt``: KEYS[1] the account's hash, ARGV: address, now, memory, limit (-1:
#: none), refuse_for, then the delays. Returns the seconds to wait, "0" when counted.
#: (Strings: a Lua number would come back as a truncated integer.)
_RESERVE = """
local raw = redis.call('HGET', KEYS[1], ARGV[1])
local now, memory = tonumber(ARGV[2]), tonumber(ARGV[3])
local limit, refuse = tonumber(ARGV[4]), ARGV[5]
local failures, last, next_at = 0, now, 0
if raw then
  local kept = {}
  for part in string.gmatch(raw, '%S+') do kept[#kept + 1] = tonumber(part) end
  if now - kept[2] <= memory then
    failures, last, next_at = kept[1], math.max(now, kept[2]), kept[3]
  end
end
if now < next_at then return string.format('%.3f', next_at - now) end
if limit >= 0 and failures >= limit then return refuse end
failures = failures + 1
local wait = tonumber(ARGV[5 + math.min(failures, #ARGV - 5)])
-- No delay is no time to wait: parallel attempts read the clock in no particular order.
if wait > 0 then next_at = now + wait else next_at = 0 end
redis.call('HSET', KEYS[1], ARGV[1], string.format('%d %.3f %.3f', failures, last, next_at))
redis.call('EXPIRE', KEYS[1], math.ceil(memory))
return '0'
"""

#: Delete a hash, saying how many fields it had (one step: the count is what was cleared).
_CLEAR = """
local n = redis.call('HLEN', KEYS[1])
redis.call('DEL', KEYS[1])
return n
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

#: ``remember_device``: ARGV device, until, now, most. The expired and the oldest past
#: ``most`` go; the key lives as long as its last member (counted from ``now``).
_REMEMBER = """
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3])
local n = redis.call('ZCARD', KEYS[1])
local most = tonumber(ARGV[4])
if n > most then redis.call('ZREMRANGEBYRANK', KEYS[1], 0, n - most - 1) end
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if last[2] then
  redis.call('EXPIRE', KEYS[1], math.max(1, math.ceil(tonumber(last[2]) - tonumber(ARGV[3]))))
end
return 0
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
        self._reserve = redis.register_script(_RESERVE)
        self._clear = redis.register_script(_CLEAR)
        self._swap = redis.register_script(_SWAP)
        self._remove = redis.register_script(_REMOVE)
        self._remember = redis.register_script(_REMEMBER)

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

    async def end_sessions(self, username: str, keep: str | None = None) -> int:
        index = SESSIONS_OF_PREFIX + username
        found: Any = await _call(self.redis.smembers(index))
        digests = [d for d in found if _text(d) != keep]
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

    async def count_address(self, address: str, window: int) -> tuple[int, int]:
        n, ttl = await _call(self._hit(keys=[ADDRESS_PREFIX + address], args=[window]))
        return int(n), int(ttl)

    async def take_back_address(self, address: str) -> None:
        await _call(self._unhit(keys=[ADDRESS_PREFIX + address]))

    async def clear_address(self, address: str) -> None:
        await _call(self.redis.delete(ADDRESS_PREFIX + address))

    async def reserve_attempt(
        self, username: str, address: str, now: float, rule: AttemptRule
    ) -> float:
        limit = "-1" if rule.limit is None else str(rule.limit)
        args = [address, repr(now), repr(rule.memory), limit, repr(rule.refuse_for)]
        waited = await _call(
            self._reserve(keys=[PAIR_PREFIX + username], args=[*args, *map(repr, rule.delays)])
        )
        return float(_text(waited))

    async def clear_attempt(self, username: str, address: str) -> None:
        await _call(self.redis.hdel(PAIR_PREFIX + username, address))

    async def clear_attempts(self, username: str) -> int:
        n = await _call(self._clear(keys=[PAIR_PREFIX + username]))
        return int(n)

    async def attempts(self, username: str) -> list[PairAttempts]:
        raw: Any = await _call(self.redis.hgetall(PAIR_PREFIX + username))
        out = []
        for address, value in raw.items():
            failures, last, next_at = _text(value).split()
            out.append(
                PairAttempts(
                    address=_text(address),
                    failures=int(failures),
                    last=float(last),
                    next_at=float(next_at),
                )
            )
        return out

    # Devices that signed in before ---------------------------------------------------------

    async def remember_device(
        self, username: str, device: str, now: float, until: float, most: int
    ) -> None:
        args: list[str | int] = [device, repr(until), repr(now), most]
        await _call(self._remember(keys=[KNOWN_PREFIX + username], args=args))

    async def known_device(self, username: str, device: str, now: float) -> bool:
        score: Any = await _call(self.redis.zscore(KNOWN_PREFIX + username, device))
        return score is not None and float(score) > now

    async def forget_devices(self, username: str) -> None:
        await _call(self.redis.delete(KNOWN_PREFIX + username))
