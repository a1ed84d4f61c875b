"""The secret half of each tournament's committed draw seeds (``floor.engine.fair``).

One key per tournament, in its hash slot (so a tournament's wipe takes it)::

    floor:{<id>}:seeds   string: the chain (``fair.Chain``, msgpack): its top and checkpoints

Written once, before the commitment is: a retried creation finds the chain kept by the
first and commits to the same head. Never in the tournament's log, its exports or its
backups' event files: each seed reaches the log only as its draw is made.
"""

from __future__ import annotations

from .connection import Client
from .errors import call
from .keys import Keys


def _key(tid: str) -> str:
    return f"{Keys(tid).prefix}:seeds"


class RedisSeeds:
    """``SeedKeeper`` on Redis or Valkey."""

    def __init__(self, redis: Client) -> None:
        self.redis = redis

    async def keep(self, tid: str, chain: bytes) -> bytes:
        # SET NX GET: one round trip, and the first writer's chain whoever comes second.
        before = await call(self.redis.set(_key(tid), chain, nx=True, get=True))
        if before is None:
            return chain
        return before if isinstance(before, bytes) else str(before).encode()

    async def get(self, tid: str) -> bytes | None:
        got = await call(self.redis.get(_key(tid)))
        if got is None:
            return None
        return got if isinstance(got, bytes) else str(got).encode()
