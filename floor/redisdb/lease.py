"""The clock lease on Redis: one key holding its holder's name, expiring unless renewed."""

from __future__ import annotations

from .connection import Client
from .errors import call
from .keys import CLOCK_LEASE

# Taken when free, renewed by its holder, refused to anybody else: in one step, so that two
# processes asking at once cannot both come away holding it.
_HOLD = """
local holder = redis.call('GET', KEYS[1])
if holder == false then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class RedisLease:
    """``ClockLease`` on Redis or Valkey."""

    def __init__(self, redis: Client, key: str = CLOCK_LEASE) -> None:
        self.redis = redis
        self.key = key
        self._hold = redis.register_script(_HOLD)
        self._release = redis.register_script(_RELEASE)

    async def hold(self, holder: str, ttl: float) -> bool:
        held = await call(self._hold(keys=[self.key], args=[holder, int(ttl * 1000)]))
        return bool(held)

    async def release(self, holder: str) -> None:
        await call(self._release(keys=[self.key], args=[holder]))
