"""The sign-out feed on Redis (``SignOutFeed``): a stream that every server process reads.

Key (one key, so the same code runs on a cluster)::

    floor:signouts    stream: one entry {user: <username>} per announcement, about the last
                      thousand kept

A stream rather than pub/sub: a process whose connection dropped goes on reading from the
last entry it saw, so an announcement made meanwhile still arrives. After a failover the new
primary may lack the newest entries (replication is asynchronous), so a lost connection is
also told to the reader as ``Resubscribed``, and every session is checked again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import Any, Final

import redis.exceptions as rex

from ..store.ports import Resubscribed
from .connection import REDIS_DOWN, Client
from .errors import call as _call

log = logging.getLogger(__name__)

STREAM: Final = "floor:signouts"
#: Entries kept: a reader more than this many behind has been away long enough that it is
#: told ``Resubscribed`` anyway.
KEEP: Final = 1000


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


class RedisSignOuts:
    """``SignOutFeed`` on Redis or Valkey (one server, Sentinel, or a cluster)."""

    def __init__(self, redis: Client, *, block: float = 1.0) -> None:
        self.redis = redis
        #: How long one read waits for an entry. Below the client's call timeout (a read
        #: that blocks longer would time out as if the server were gone).
        self.block_ms = int(block * 1000)

    async def announce(self, username: str) -> None:
        await _call(self.redis.xadd(STREAM, {"user": username}, maxlen=KEEP, approximate=True))

    async def announcements(self) -> AsyncIterator[str | Resubscribed]:
        last: str | None = None
        lost = False
        backoff = 0.05
        while True:
            try:
                if last is None:
                    last = await self._newest()
                read: Any = await self.redis.xread({STREAM: last}, count=100, block=self.block_ms)
            except Exception as e:
                if not isinstance(e, (rex.RedisError, *REDIS_DOWN)):
                    raise
                if not lost:
                    log.warning("sign-out feed lost, reconnecting", extra={"error": str(e)})
                lost = True
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 2.0)
                continue
            backoff = 0.05
            if lost:
                lost = False
                yield Resubscribed()
            for _stream, entries in read or ():
                for entry_id, fields in entries:
                    last = _text(entry_id)
                    user = fields.get(b"user", fields.get("user"))
                    if user is not None:
                        yield _text(user)

    async def _newest(self) -> str:
        """The id of the newest entry: announcements are read from after it."""
        newest: Any = await self.redis.xrevrange(STREAM, count=1)
        return _text(newest[0][0]) if newest else "0-0"
