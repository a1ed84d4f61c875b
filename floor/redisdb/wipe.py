"""Removing a tournament outright: every key it has, and its place in the lists.

Only ``floor demo`` does this (it starts over on each run); a real tournament is archived,
never wiped, so no port offers it.
"""

from __future__ import annotations

import redis.asyncio as aioredis

from .errors import call
from .keys import ARCHIVE, TOURNAMENTS, Keys


async def wipe_tournament(redis: aioredis.Redis, tid: str) -> None:
    keys = Keys(tid)

    async def delete_all() -> None:
        # One DEL per key: the keys share a slot, but a scan hands them over one by one.
        async for key in redis.scan_iter(match=f"{keys.prefix}:*", count=500):
            await redis.delete(key)

    await call(delete_all())
    await call(redis.hdel(TOURNAMENTS, tid))
    await call(redis.hdel(ARCHIVE, tid))
